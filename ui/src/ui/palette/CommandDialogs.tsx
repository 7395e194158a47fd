// The dialogs the palette's global commands open (new collection, import, export): mounted only
// while shown, so they add nothing to the page otherwise.
import { type Surface, closeSurface } from "../../commands/surfaces";
import { importCounts } from "../../logic/transfer";
import { navigate } from "../hooks";
import { toast } from "../toast";
import { ExportDialog } from "../transfer/ExportDialog";
import { ImportFileDialog } from "../transfer/ImportFileDialog";
import { NewCollectionDialog } from "./NewCollectionDialog";

const TEXT = { importedOne: "Imported 1 job", importedMany: "Imported {n} jobs" };

export function CommandDialogs({ surface }: { surface: Surface | null }) {
  switch (surface?.kind) {
    case "new-collection":
      return <NewCollectionDialog onClose={() => closeSurface("new-collection")} />;
    case "import":
      return (
        <ImportFileDialog
          open
          onClose={() => closeSurface("import")}
          onImported={(r) => {
            const c = importCounts(r);
            const n = c.created + c.replaced;
            toast(n === 1 ? TEXT.importedOne : TEXT.importedMany.replace("{n}", String(n)));
            const first = r.items.find((i) => i.outcome !== "Failed")?.collectionId;
            if (first) navigate({ page: "collection", collection: first });
          }}
        />
      );
    case "export":
      return (
        <ExportDialog open collection={surface.collection} name={surface.name} onClose={() => closeSurface("export")} />
      );
    default:
      return null;
  }
}
