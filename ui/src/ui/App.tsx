import { useCallback, useEffect, useMemo, useState } from "preact/hooks";
import { type CollectionSummary, type OpenJob, api, inTauri, messageOf, onOpenJob } from "../ipc";
import { inOrder } from "../logic/inOrder";
import { routeCollection } from "../logic/routes";
import { CollectionsEmpty } from "./CollectionsEmpty";
import { HistoryView } from "./HistoryView";
import { JobEditor } from "./editor/JobEditor";
import { JobsView } from "./jobs/JobsView";
import { OverviewView } from "./overview/OverviewView";
import { SettingsView } from "./SettingsView";
import { Sidebar } from "./Sidebar";
import { PauseToggle } from "./collections/PauseToggle";
import { ThemeToggle } from "./ThemeToggle";
import { Toast } from "./Toast";
import { navigate, useEngineChanged, useRoute } from "./hooks";
import { toast } from "./toast";

export function App() {
  const route = useRoute();
  const [collections, setCollections] = useState<CollectionSummary[] | null>(null);

  // Reloads may answer out of order: an older list never replaces a newer one.
  const applyCollections = useMemo(() => inOrder(setCollections), []);
  const reload = useCallback(() => {
    applyCollections(api.listCollections()).catch((e) => toast(`Could not list collections: ${messageOf(e)}`, "error"));
  }, [applyCollections]);
  useEffect(reload, [reload]);
  useEngineChanged(reload);
  // A clicked notification (or the tray) asks to show a job: its history says what happened.
  // One that arrived before this page could listen is waiting in takeOpenJob.
  useEffect(() => {
    const show = (j: OpenJob) => navigate({ page: "history", collection: j.collection, job: j.name });
    api.takeOpenJob().then(
      (j) => j && show(j),
      () => {},
    );
    return onOpenJob(show);
  }, []);

  // The start page is the first collection, when there is one.
  useEffect(() => {
    if (route.page === "home" && collections && collections.length > 0) {
      navigate({ page: "collection", collection: collections[0].id }, true);
    }
  }, [route, collections]);

  return (
    <>
      <a class="skip-link" href="#main">
        Skip to content
      </a>
      <header class="app-header">
        <nav>
          <ul>
            <li>
              <a href="#/" class="brand">
                <strong>Kairos</strong>
              </a>
            </li>
            {!inTauri && (
              <li>
                <small class="muted">development fake backend</small>
              </li>
            )}
          </ul>
          <ul>
            <li>
              <PauseToggle />
            </li>
            <li>
              <a id="open-settings" href="#/settings" aria-current={route.page === "settings" ? "page" : undefined}>
                Settings
              </a>
            </li>
            <li>
              <ThemeToggle />
            </li>
          </ul>
        </nav>
      </header>
      <div class="layout">
        <Sidebar collections={collections} current={routeCollection(route)} onChanged={reload} />
        <main id="main" tabIndex={-1}>
          {collections === null && route.page !== "settings" ? <p aria-busy="true">Loading…</p> : page()}
        </main>
      </div>
      <Toast />
    </>
  );

  /** A collection's id is `subscription/resourceGroup/name`; people see the name. */
  function nameOf(id: string): string {
    return collections?.find((c) => c.id === id)?.name ?? id.split("/").pop() ?? id;
  }

  function page() {
    switch (route.page) {
      case "settings":
        return <SettingsView />;
      case "overview":
        return <OverviewView collections={collections ?? []} />;
      case "collection":
        return <JobsView key={route.collection} collection={route.collection} title={nameOf(route.collection)} />;
      case "new":
        return <JobEditor key={`new/${route.collection}`} collection={route.collection} job={null} />;
      case "job":
        return <JobEditor key={`${route.collection}/${route.job}`} collection={route.collection} job={route.job} />;
      case "history":
        return (
          <HistoryView
            key={`${route.collection}/${route.job}/${route.at ?? ""}`}
            collection={route.collection}
            job={route.job}
            at={route.at}
          />
        );
      case "home":
        return collections && collections.length === 0 ? <CollectionsEmpty onCreated={reload} /> : null;
    }
  }
}
