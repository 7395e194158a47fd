// What can be done to a whole collection, in one place for the collection page's "…" menu and the
// sidebar's right-click menu: enable or disable all its jobs, edit its plan, its calendars, import
// a job into it, export it, delete it. The dialogs they open render with `dialogs`.
import { CalendarDays, CirclePause, CirclePlay, Download, FileInput, Pencil, Plus, Trash2 } from "lucide";
import { useState } from "preact/hooks";
import { i18n } from "../../i18n";
import { type CollectionSummary, api, messageOf } from "../../ipc";
import type { MenuEntry } from "../components/MenuList";
import { navigate } from "../hooks";
import { ImportDialog } from "../jobs/ImportDialog";
import { toast } from "../toast";
import { ExportDialog } from "../transfer/ExportDialog";
import { CalendarsDialog } from "./CalendarsDialog";
import { DeleteCollectionDialog } from "./DeleteCollectionDialog";
import { EditCollectionDialog } from "./EditCollectionDialog";

type Dialog = "edit" | "calendars" | "delete" | "export" | "import";

/**
 * The menu items for `collection` (null: none yet) and the dialogs they open. `withNewJob` adds
 * "New job" (the page header has it as its primary button instead).
 */
export function useCollectionActions(
  collection: CollectionSummary | null,
  onChanged: () => void,
  withNewJob: boolean,
  onJobImported?: (name: string) => void,
) {
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const setEnabled = async (c: CollectionSummary, enabled: boolean) => {
    try {
      await api.setCollectionEnabled(c.id, enabled);
      toast(
        enabled
          ? i18n._("Enabled all jobs in {collection}", { collection: c.name })
          : i18n._("Disabled all jobs in {collection}", { collection: c.name }),
      );
      onChanged();
    } catch (e) {
      toast(messageOf(e), "error");
    }
  };
  const items = (): MenuEntry[] => {
    if (!collection) return [];
    const c = collection;
    const newJob: MenuEntry[] = withNewJob
      ? [
          {
            id: "collection-new-job",
            label: i18n._("New job"),
            icon: Plus,
            onSelect: () => navigate({ page: "new", collection: c.id }),
          },
        ]
      : [];
    return [
      ...newJob,
      {
        id: "import-job",
        label: i18n._("Import job from text…"),
        icon: FileInput,
        onSelect: () => setDialog("import"),
      },
      {
        id: "export-collection",
        label: i18n._("Export collection…"),
        icon: Download,
        onSelect: () => setDialog("export"),
      },
      "separator",
      {
        id: "collection-enable-all",
        label: i18n._("Enable all jobs"),
        icon: CirclePlay,
        onSelect: () => setEnabled(c, true),
      },
      {
        id: "collection-disable-all",
        label: i18n._("Disable all jobs"),
        icon: CirclePause,
        onSelect: () => setEnabled(c, false),
      },
      "separator",
      { id: "collection-edit", label: i18n._("Edit collection…"), icon: Pencil, onSelect: () => setDialog("edit") },
      {
        id: "collection-calendars",
        label: i18n._("Calendars…"),
        icon: CalendarDays,
        onSelect: () => setDialog("calendars"),
      },
      "separator",
      {
        id: "collection-delete",
        label: i18n._("Delete collection…"),
        icon: Trash2,
        danger: true,
        onSelect: () => setDialog("delete"),
      },
    ];
  };
  const close = () => setDialog(null);
  const dialogs = collection && (
    <>
      <EditCollectionDialog open={dialog === "edit"} collection={collection} onClose={close} onSaved={onChanged} />
      <CalendarsDialog open={dialog === "calendars"} collection={collection} onClose={close} onSaved={onChanged} />
      <DeleteCollectionDialog
        open={dialog === "delete"}
        collection={collection}
        onClose={close}
        onDeleted={() => {
          onChanged();
          navigate({ page: "overview" });
        }}
      />
      <ExportDialog
        key={`export-${collection.id}`}
        open={dialog === "export"}
        collection={collection.id}
        name={collection.name}
        onClose={close}
      />
      <ImportDialog
        open={dialog === "import"}
        collection={collection.id}
        onClose={close}
        onImported={(name) => {
          close();
          toast(i18n._("Imported {name}", { name }));
          onChanged();
          if (onJobImported) onJobImported(name);
          else navigate({ page: "collection", collection: collection.id });
        }}
      />
    </>
  );
  return { items, dialogs };
}
