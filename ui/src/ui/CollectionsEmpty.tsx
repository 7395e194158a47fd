import { useState } from "preact/hooks";
import { i18n, useI18n } from "../i18n";
import { api, messageOf } from "../ipc";
import { navigate } from "./hooks";
import { toast } from "./toast";
import { FolderPlus } from "lucide";
import { Button } from "./components/Button";
import { EmptyState } from "./components/EmptyState";

/** First launch: what a collection is, and one click to make the usual one. */
export function CollectionsEmpty({ onCreated }: { onCreated: () => void }) {
  useI18n();
  const [busy, setBusy] = useState(false);
  const create = async () => {
    setBusy(true);
    try {
      const created = await api.createCollection("default");
      onCreated();
      navigate({ page: "collection", collection: created.id });
    } catch (e) {
      toast(i18n._("Could not create the collection: {reason}", { reason: messageOf(e) }), "error");
    } finally {
      setBusy(false);
    }
  };
  return (
    <EmptyState
      title={i18n._("No job collections yet")}
      icon={FolderPlus}
      actions={
        <Button id="create-default-collection" variant="primary" onClick={create} aria-busy={busy} disabled={busy}>
          {i18n._("Create the “default” collection")}
        </Button>
      }
    >
      <p>
        {i18n._(
          "Jobs live in job collections, as in Azure Scheduler. A collection has a plan with a quota (how many jobs it may hold, how often they may run) and can enable or disable all its jobs at once. Most people need just one.",
        )}
      </p>
    </EmptyState>
  );
}
