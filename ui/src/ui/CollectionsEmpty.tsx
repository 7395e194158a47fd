import { useState } from "preact/hooks";
import { api, messageOf } from "../ipc";
import { navigate } from "./hooks";
import { toast } from "./toast";

/** First launch: what a collection is, and one click to make the usual one. */
export function CollectionsEmpty({ onCreated }: { onCreated: () => void }) {
  const [busy, setBusy] = useState(false);
  const create = async () => {
    setBusy(true);
    try {
      const created = await api.createCollection("default");
      onCreated();
      navigate({ page: "collection", collection: created.id });
    } catch (e) {
      toast(`Could not create the collection: ${messageOf(e)}`, "error");
    } finally {
      setBusy(false);
    }
  };
  return (
    <article class="empty-state">
      <h2>No job collections yet</h2>
      <p>
        Jobs live in <strong>collections</strong>, as in Azure Scheduler. A collection has a plan with a quota (how many
        jobs it may hold, how often they may run) and can enable or disable all its jobs at once. Most people need just
        one.
      </p>
      <button id="create-default-collection" type="button" onClick={create} aria-busy={busy} disabled={busy}>
        Create the “default” collection
      </button>
    </article>
  );
}
