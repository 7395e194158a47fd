import { ArrowLeft, ArrowRight, CalendarClock as CalendarMark, Settings } from "lucide";
import { useCallback, useEffect, useMemo, useState } from "preact/hooks";
import { type CollectionSummary, type OpenJob, api, inTauri, messageOf, onOpenJob } from "../ipc";
import { useMenuCommands, usePaletteShortcut } from "../commands";
import { i18n, useI18n } from "../i18n";
import { inOrder } from "../logic/inOrder";
import { parseRoute, routeCollection, routeHash } from "../logic/routes";
import { CollectionsEmpty } from "./CollectionsEmpty";
import { PauseToggle } from "./collections/PauseToggle";
import { IconButton } from "./components/IconButton";
import { Icon } from "./components/Icon";
import { Toast } from "./components/Toast";
import { JobEditor } from "./editor/JobEditor";
import { HistoryView } from "./HistoryView";
import { navigate, useBackForward, useEngineChanged, useRoute } from "./hooks";
import { JobsView } from "./jobs/JobsView";
import { OverviewView } from "./overview/OverviewView";
import { CommandPalette } from "./palette/CommandPalette";
import { SettingsView } from "./SettingsView";
import { Sidebar } from "./Sidebar";
import { ThemeToggle } from "./ThemeToggle";
import { toast } from "./toast";
import { offerPendingUndo } from "./undoDeletion";
import { UpdateDialog } from "./update/UpdateDialog";
import { watchForUpdates } from "./update/updates";

/**
 * The window's frame: a header that stays put, the sidebar (navigation only), and the page in
 * <main>, the one part that scrolls.
 */
export function App() {
  // The root re-renders on a language change, so the whole window repaints in the new language.
  useI18n();
  const route = useRoute();
  const [collections, setCollections] = useState<CollectionSummary[] | null>(null);
  useBackForward();
  // Ctrl/Cmd+K opens the palette; the native menu's items arrive as menu-command events.
  usePaletteShortcut();
  useMenuCommands();

  // Reloads may answer out of order: an older list never replaces a newer one.
  const applyCollections = useMemo(() => inOrder(setCollections), []);
  const reload = useCallback(() => {
    applyCollections(api.listCollections()).catch((e) =>
      toast(i18n._("Could not list job collections: {reason}", { reason: messageOf(e) }), "error"),
    );
  }, [applyCollections]);
  useEffect(reload, [reload]);
  useEngineChanged(reload);
  // A deletion made before the window last closed may still be undone.
  useEffect(() => {
    offerPendingUndo(reload).catch(() => {});
  }, [reload]);
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

  // A new version the automatic check found (before or after the page listened) is offered once.
  useEffect(() => watchForUpdates(), []);

  // The start page is the first collection, when there is one. Only while the address still
  // says home: a page asked for meanwhile (its hashchange still to come) is not replaced.
  useEffect(() => {
    if (route.page === "home" && parseRoute(location.hash).page === "home" && collections && collections.length > 0) {
      navigate({ page: "collection", collection: collections[0].id }, true);
    }
  }, [route, collections]);

  // The page's scroll starts at its top on every new page.
  useEffect(() => {
    document.getElementById("main")?.scrollTo?.(0, 0);
  }, [route.page, routeCollection(route), "job" in route ? route.job : ""]);

  return (
    <div class="app">
      <a class="skip-link" href="#main">
        {i18n._("Skip to content")}
      </a>
      <header class="app-header">
        <a href="#/" class="brand">
          <Icon icon={CalendarMark} size={18} />
          {/* The product's name is the same in every language (translate="no": the pseudo-locale walk skips it). */}
          <span translate={false}>Kairos</span>
        </a>
        <div class="history-buttons">
          <IconButton icon={ArrowLeft} size="sm" label={i18n._("Back (Alt+Left)")} onClick={() => history.back()} />
          <IconButton
            icon={ArrowRight}
            size="sm"
            label={i18n._("Forward (Alt+Right)")}
            onClick={() => history.forward()}
          />
        </div>
        {!inTauri && <small class="muted dev-note">{i18n._("development fake backend")}</small>}
        <div class="header-actions">
          <PauseToggle />
          <a
            id="open-settings"
            class="btn btn-ghost btn-icon"
            href={routeHash({ page: "settings" })}
            aria-label={i18n._("Settings")}
            title={i18n._("Settings")}
            aria-current={route.page === "settings" ? "page" : undefined}
          >
            <Icon icon={Settings} />
          </a>
          <ThemeToggle />
        </div>
      </header>
      <div class="layout">
        <Sidebar collections={collections} route={route} onChanged={reload} />
        <main id="main" tabIndex={-1}>
          {collections === null && route.page !== "settings" ? <p aria-busy="true">{i18n._("Loading…")}</p> : page()}
        </main>
      </div>
      <Toast />
      <CommandPalette />
      <UpdateDialog />
    </div>
  );

  function summaryOf(id: string): CollectionSummary | null {
    return collections?.find((c) => c.id === id) ?? null;
  }
  /** A collection's id is `subscription/resourceGroup/name`; people see the name. */
  function nameOf(id: string): string {
    return summaryOf(id)?.name ?? id.split("/").pop() ?? id;
  }

  function page() {
    switch (route.page) {
      case "settings":
        return <SettingsView />;
      case "overview":
        return <OverviewView collections={collections ?? []} route={route} />;
      case "collection":
        return (
          <JobsView
            key={route.collection}
            collection={route.collection}
            title={nameOf(route.collection)}
            summary={summaryOf(route.collection)}
            onCollectionChanged={reload}
          />
        );
      case "new":
        return (
          <JobEditor
            key={`new/${route.collection}`}
            collection={route.collection}
            collectionName={nameOf(route.collection)}
            job={null}
          />
        );
      case "job":
        return (
          <JobEditor
            key={`${route.collection}/${route.job}`}
            collection={route.collection}
            collectionName={nameOf(route.collection)}
            job={route.job}
          />
        );
      case "history":
        return (
          <HistoryView
            key={`${route.collection}/${route.job}/${route.at ?? ""}`}
            collection={route.collection}
            collectionName={nameOf(route.collection)}
            job={route.job}
            at={route.at}
          />
        );
      case "home":
        return collections && collections.length === 0 ? <CollectionsEmpty onCreated={reload} /> : null;
    }
  }
}
