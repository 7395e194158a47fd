// The dialog a global command of the palette opens itself: Export for the collection on screen
// (from any of its pages: its jobs, a job, a history). Mounted only while shown. New collection
// and Import are the sidebar's dialogs (it registers handlers for them).
import { type Surface, closeSurface } from "../../commands/surfaces";
import { ExportDialog } from "../transfer/ExportDialog";

export function CommandDialogs({ surface }: { surface: Surface | null }) {
  if (surface?.kind !== "export") return null;
  return (
    <ExportDialog open collection={surface.collection} name={surface.name} onClose={() => closeSurface("export")} />
  );
}
