import { useState } from "preact/hooks";
import { type CollectionSummary, api, messageOf } from "../ipc";
import { routeHash } from "../logic/routes";
import { importCounts } from "../logic/transfer";
import { navigate } from "./hooks";
import { toast } from "./toast";
import { ImportFileDialog } from "./transfer/ImportFileDialog";

type Props = { collections: CollectionSummary[] | null; current: string | null; onChanged: () => void };

export function Sidebar({ collections, current, onChanged }: Props) {
  const selected = collections?.find((c) => c.id === current) ?? null;
  const setEnabled = async (enabled: boolean) => {
    if (!selected) return;
    try {
      await api.setCollectionEnabled(selected.id, enabled);
      toast(`${enabled ? "Enabled" : "Disabled"} all jobs in ${selected.name}`);
      onChanged();
    } catch (e) {
      toast(messageOf(e), "error");
    }
  };
  return (
    <aside id="collections" aria-label="Job collections">
      <a
        id="open-overview"
        class="overview-link"
        href={routeHash({ page: "overview" })}
        aria-current={location.hash === routeHash({ page: "overview" }) ? "page" : undefined}
      >
        Overview
      </a>
      <h2 class="sidebar-title">Collections</h2>
      <ul class="collection-list">
        {(collections ?? []).map((c) => (
          <li
            key={c.id}
            data-testid={`collection-${c.name}`}
            class={c.id === current ? "current" : ""}
            title={c.subscription === "local" && c.resourceGroup === "desktop" ? undefined : c.id}
          >
            <a
              href={routeHash({ page: "collection", collection: c.id })}
              aria-current={c.id === current ? "page" : undefined}
            >
              <span class="collection-name">{c.name}</span>
              <small class="collection-meta">
                <span class="plan">{c.plan}</span> ·{" "}
                <span class="quota" title={`jobs / quota; most frequent: every ${c.minRecurrence}`}>
                  {c.jobCount} / {c.maxJobCount}
                </span>{" "}
                · <span class="state">{c.state}</span>
              </small>
            </a>
          </li>
        ))}
      </ul>
      {selected && (
        <div class="collection-actions" role="group" aria-label={`All jobs in ${selected.name}`}>
          <button id="collection-enable-all" type="button" class="outline" onClick={() => setEnabled(true)}>
            Enable all
          </button>
          <button id="collection-disable-all" type="button" class="outline secondary" onClick={() => setEnabled(false)}>
            Disable all
          </button>
        </div>
      )}
      <NewCollection onCreated={onChanged} />
      <ImportFile onImported={onChanged} />
    </aside>
  );
}

/** "Import…": bundles, templates and crontabs; the report stays in the dialog. */
function ImportFile({ onImported }: { onImported: () => void }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button id="import-collections" type="button" class="secondary outline" onClick={() => setOpen(true)}>
        Import…
      </button>
      <ImportFileDialog
        open={open}
        onClose={() => setOpen(false)}
        onImported={(r) => {
          const c = importCounts(r);
          toast(`Imported ${c.created + c.replaced} job${c.created + c.replaced === 1 ? "" : "s"}`);
          onImported();
          const first = r.items.find((i) => i.outcome !== "Failed")?.collectionId;
          if (first) navigate({ page: "collection", collection: first });
        }}
      />
    </>
  );
}

function NewCollection({ onCreated }: { onCreated: () => void }) {
  const [open, setOpen] = useState(false);
  const [name, setName] = useState("");
  const [error, setError] = useState("");
  const submit = async (e: Event) => {
    e.preventDefault();
    const n = name.trim();
    if (!n) {
      setError("Give the collection a name.");
      return;
    }
    try {
      const created = await api.createCollection(n);
      setOpen(false);
      setName("");
      setError("");
      toast(`Created collection ${created.name}`);
      onCreated();
      navigate({ page: "collection", collection: created.id });
    } catch (err) {
      setError(messageOf(err));
    }
  };
  if (!open) {
    return (
      <button id="new-collection" type="button" class="secondary" onClick={() => setOpen(true)}>
        New collection…
      </button>
    );
  }
  return (
    <form class="new-collection" onSubmit={submit} onKeyDown={(e) => e.key === "Escape" && setOpen(false)}>
      <label for="new-collection-name">Collection name</label>
      <input
        id="new-collection-name"
        autoFocus
        value={name}
        aria-invalid={error ? "true" : undefined}
        aria-describedby={error ? "new-collection-error" : undefined}
        onInput={(e) => setName(e.currentTarget.value)}
      />
      {error && (
        <small id="new-collection-error" class="error-text">
          {error}
        </small>
      )}
      <div class="row">
        <button id="new-collection-create" type="submit">
          Create
        </button>
        <button
          type="button"
          class="secondary outline"
          onClick={() => {
            setOpen(false);
            setError("");
          }}
        >
          Cancel
        </button>
      </div>
    </form>
  );
}
