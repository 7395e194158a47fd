// The sidebar is navigation only: the overview, the collections (each with its job count and a
// state dot; right-click for its actions), "New collection" beside their heading, and Import at
// the bottom.
import { FileInput, LayoutDashboard, Plus } from "lucide";
import { useState } from "preact/hooks";
import { useCommandHandler } from "../commands/registry";
import { i18n, useI18n } from "../i18n";
import { collectionStateLabel, everyLabel } from "../i18n/terms";
import { type CollectionSummary, type FieldError, api, errorsOf, messageOf } from "../ipc";
import { NEW_PLAN, PLAN_FIELDS, planOf } from "../logic/collectionForm";
import { type Route, routeCollection, routeHash } from "../logic/routes";
import { errorsByField, importCounts } from "../logic/transfer";
import { useCollectionActions } from "./collections/CollectionActions";
import { PlanFields } from "./collections/PlanFields";
import { Button } from "./components/Button";
import { useContextMenu } from "./components/ContextMenu";
import { Dialog } from "./components/Dialog";
import { Field } from "./components/Field";
import { Icon } from "./components/Icon";
import { IconButton } from "./components/IconButton";
import { lastOverviewHash, navigate } from "./hooks";
import { toast } from "./toast";
import { ImportFileDialog } from "./transfer/ImportFileDialog";

type Props = { collections: CollectionSummary[] | null; route: Route; onChanged: () => void };

export function Sidebar({ collections, route, onChanged }: Props) {
  useI18n();
  const current = routeCollection(route);
  // The collection whose right-click menu is open (its dialogs stay after the menu closes).
  const [target, setTarget] = useState<CollectionSummary | null>(null);
  const actions = useCollectionActions(target, onChanged, true);
  const context = useContextMenu(
    "collection-context-menu",
    i18n._("Actions on {collection}", { collection: target?.name ?? "" }),
    actions.items,
  );
  return (
    <aside id="collections" aria-label={i18n._("Navigation")}>
      <nav class="sidebar-nav" aria-label={i18n._("Pages")}>
        <a
          id="open-overview"
          class="nav-item"
          href={lastOverviewHash()}
          aria-current={route.page === "overview" ? "page" : undefined}
        >
          <Icon icon={LayoutDashboard} />
          <span class="nav-label">{i18n._("Overview")}</span>
        </a>
        <div class="sidebar-heading">
          <h2 id="collections-heading">{i18n._("Collections")}</h2>
          <NewCollection onCreated={onChanged} />
        </div>
        <ul class="collection-list" aria-labelledby="collections-heading">
          {(collections ?? []).map((c) => (
            <li
              key={c.id}
              data-testid={`collection-${c.name}`}
              class={c.id === current ? "current" : undefined}
              title={i18n._("{id}\n{plan} · {count} / {max} jobs · {state}", {
                id: c.id,
                plan: c.plan,
                count: c.jobCount,
                max: c.maxJobCount,
                state: collectionStateLabel(c.state),
              })}
            >
              <a
                class="nav-item"
                href={routeHash({ page: "collection", collection: c.id })}
                aria-current={c.id === current ? "page" : undefined}
                aria-haspopup="menu"
                onContextMenu={(e) => {
                  setTarget(c);
                  context.onContextMenu(e);
                }}
                onKeyDown={(e) => {
                  setTarget(c);
                  context.onKeyDown(e);
                }}
              >
                <span class={`state-dot state-${c.state.toLowerCase()}`} aria-hidden="true" />
                <span class="nav-label">
                  <span class="collection-name" translate={false}>
                    {c.name}
                  </span>
                  <small class="collection-meta">
                    <span class="plan" translate={false}>
                      {c.plan}
                    </span>{" "}
                    · <span class="state">{collectionStateLabel(c.state)}</span>
                  </small>
                </span>
                <span
                  class="quota"
                  title={i18n._("jobs / quota; most frequent: {every}", { every: everyLabel(c.minRecurrence) })}
                >
                  {c.jobCount} / {c.maxJobCount}
                </span>
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <div class="sidebar-footer">
        <ImportFile onImported={onChanged} />
      </div>
      {context.menu}
      {actions.dialogs}
    </aside>
  );
}

/** "Import…": bundles, templates and crontabs; the report stays in the dialog. */
function ImportFile({ onImported }: { onImported: () => void }) {
  const [open, setOpen] = useState(false);
  useCommandHandler("import", () => setOpen(true));
  return (
    <>
      <Button id="import-collections" variant="ghost" icon={FileInput} class="nav-button" onClick={() => setOpen(true)}>
        {i18n._("Import…")}
      </Button>
      <ImportFileDialog
        open={open}
        onClose={() => setOpen(false)}
        onImported={(r) => {
          const c = importCounts(r);
          const n = c.created + c.replaced;
          toast(i18n._("{count, plural, one {Imported # job} other {Imported # jobs}}", { count: n }));
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
  useCommandHandler("new-collection", () => setOpen(true));
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
    if (!n) local.unshift({ path: "name", code: "Form", message: i18n._("Give the collection a name.") });
    setErrors(local);
    if (local.length) return;
    try {
      const created = await api.createCollection(n, chosen);
      close();
      setName("");
      setPlan(NEW_PLAN);
      toast(i18n._("Created collection {collection}", { collection: created.name }));
      onCreated();
      navigate({ page: "collection", collection: created.id });
    } catch (err) {
      setErrors(errorsOf(err).length ? errorsOf(err) : [{ path: "", code: "Error", message: messageOf(err) }]);
    }
  };
  const nameErrors = [...(by.name ?? []), ...(by[""] ?? [])];
  return (
    <>
      <IconButton
        id="new-collection"
        icon={Plus}
        size="sm"
        label={i18n._("New collection…")}
        onClick={() => setOpen(true)}
      />
      <Dialog id="new-collection-dialog" open={open} onClose={close} title={i18n._("New collection")}>
        <form class="new-collection" onSubmit={submit}>
          <Field id="new-collection-name" label={i18n._("Collection name")} error={nameErrors}>
            <input
              id="new-collection-name"
              autoFocus
              value={name}
              aria-invalid={by.name ? "true" : undefined}
              aria-describedby={nameErrors.length ? "new-collection-name-error" : undefined}
              onInput={(e) => setName(e.currentTarget.value)}
            />
          </Field>
          <PlanFields prefix="new-collection" form={plan} errors={by} onChange={setPlan} />
          <footer class="dialog-actions">
            <Button onClick={close}>{i18n._("Cancel")}</Button>
            <Button id="new-collection-create" type="submit" variant="primary">
              {i18n._("Create")}
            </Button>
          </footer>
        </form>
      </Dialog>
    </>
  );
}
