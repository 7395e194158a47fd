import { useState } from "preact/hooks";
import { type CollectionSummary, type FieldError, api, errorsOf, messageOf } from "../ipc";
import { NEW_PLAN, PLAN_FIELDS, planOf } from "../logic/collectionForm";
import { routeHash } from "../logic/routes";
import { errorsByField, importCounts } from "../logic/transfer";
import { CalendarsDialog } from "./collections/CalendarsDialog";
import { DeleteCollectionDialog } from "./collections/DeleteCollectionDialog";
import { EditCollectionDialog } from "./collections/EditCollectionDialog";
import { PlanFields } from "./collections/PlanFields";
import { navigate } from "./hooks";
import { toast } from "./toast";
import { ImportFileDialog } from "./transfer/ImportFileDialog";

type Props = { collections: CollectionSummary[] | null; current: string | null; onChanged: () => void };

export function Sidebar({ collections, current, onChanged }: Props) {
  const selected = collections?.find((c) => c.id === current) ?? null;
  const [dialog, setDialog] = useState<"edit" | "calendars" | "delete" | null>(null);
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
          <button id="collection-edit" type="button" class="outline secondary" onClick={() => setDialog("edit")}>
            Edit collection…
          </button>
          <button
            id="collection-calendars"
            type="button"
            class="outline secondary"
            onClick={() => setDialog("calendars")}
          >
            Calendars…
          </button>
          <button id="collection-delete" type="button" class="outline secondary" onClick={() => setDialog("delete")}>
            Delete collection…
          </button>
          <EditCollectionDialog
            open={dialog === "edit"}
            collection={selected}
            onClose={() => setDialog(null)}
            onSaved={onChanged}
          />
          <CalendarsDialog
            open={dialog === "calendars"}
            collection={selected}
            onClose={() => setDialog(null)}
            onSaved={onChanged}
          />
          <DeleteCollectionDialog
            open={dialog === "delete"}
            collection={selected}
            onClose={() => setDialog(null)}
            onDeleted={() => {
              onChanged();
              navigate({ page: "overview" });
            }}
          />
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
  const [plan, setPlan] = useState(NEW_PLAN);
  const [errors, setErrors] = useState<FieldError[]>([]);
  const by = errorsByField(errors, PLAN_FIELDS);
  const close = () => {
    setOpen(false);
    setErrors([]);
  };
  const submit = async (e: Event) => {
    e.preventDefault();
    const n = name.trim();
    const { plan: chosen, errors: local } = planOf(plan);
    if (!n) local.unshift({ path: "name", code: "Form", message: "Give the collection a name." });
    setErrors(local);
    if (local.length) return;
    try {
      const created = await api.createCollection(n, chosen);
      close();
      setName("");
      setPlan(NEW_PLAN);
      toast(`Created collection ${created.name}`);
      onCreated();
      navigate({ page: "collection", collection: created.id });
    } catch (err) {
      setErrors(errorsOf(err).length ? errorsOf(err) : [{ path: "", code: "Error", message: messageOf(err) }]);
    }
  };
  if (!open) {
    return (
      <button id="new-collection" type="button" class="secondary" onClick={() => setOpen(true)}>
        New collection…
      </button>
    );
  }
  const nameErrors = [...(by.name ?? []), ...(by[""] ?? [])];
  return (
    <form class="new-collection" onSubmit={submit} onKeyDown={(e) => e.key === "Escape" && close()}>
      <label for="new-collection-name">Collection name</label>
      <input
        id="new-collection-name"
        autoFocus
        value={name}
        aria-invalid={by.name ? "true" : undefined}
        aria-describedby={nameErrors.length ? "new-collection-error" : undefined}
        onInput={(e) => setName(e.currentTarget.value)}
      />
      {nameErrors.length > 0 && (
        <small id="new-collection-error" class="error-text">
          {nameErrors.join(" ")}
        </small>
      )}
      <PlanFields prefix="new-collection" form={plan} errors={by} onChange={setPlan} />
      <div class="row">
        <button id="new-collection-create" type="submit">
          Create
        </button>
        <button type="button" class="secondary outline" onClick={close}>
          Cancel
        </button>
      </div>
    </form>
  );
}
