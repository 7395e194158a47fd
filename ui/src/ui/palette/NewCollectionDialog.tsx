// "New collection…" from the palette or the native menu: a name and a plan, each refusal next to
// its field; the new collection opens once made.
import { useState } from "preact/hooks";
import { type FieldError, api, errorsOf, messageOf } from "../../ipc";
import { NEW_PLAN, PLAN_FIELDS, planOf } from "../../logic/collectionForm";
import { errorsByField } from "../../logic/transfer";
import { PlanFields } from "../collections/PlanFields";
import { navigate } from "../hooks";
import { Modal } from "../Modal";
import { toast } from "../toast";
import { FieldMessages } from "../transfer/PathField";

const TEXT = {
  title: "New collection",
  name: "Collection name",
  noName: "Give the collection a name.",
  create: "Create",
  cancel: "Cancel",
  created: "Created collection",
};

const ID = "palette-new-collection";

export function NewCollectionDialog({ onClose }: { onClose: () => void }) {
  const [name, setName] = useState("");
  const [plan, setPlan] = useState(NEW_PLAN);
  const [errors, setErrors] = useState<FieldError[]>([]);
  const [busy, setBusy] = useState(false);
  const by = errorsByField(errors, PLAN_FIELDS);
  const nameErrors = [...(by.name ?? []), ...(by[""] ?? [])];

  const submit = async (e: Event) => {
    e.preventDefault();
    const { plan: chosen, errors: local } = planOf(plan);
    if (!name.trim()) local.unshift({ path: "name", code: "Form", message: TEXT.noName });
    setErrors(local);
    if (local.length) return;
    setBusy(true);
    try {
      const created = await api.createCollection(name.trim(), chosen);
      toast(`${TEXT.created} ${created.name}`);
      onClose();
      navigate({ page: "collection", collection: created.id });
    } catch (err) {
      setErrors(errorsOf(err).length ? errorsOf(err) : [{ path: "", code: "Error", message: messageOf(err) }]);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal id={`${ID}-dialog`} open onClose={onClose} title={TEXT.title}>
      <form onSubmit={submit}>
        <div class="field">
          <label for={`${ID}-name`}>{TEXT.name}</label>
          <input
            id={`${ID}-name`}
            autoFocus
            value={name}
            aria-invalid={nameErrors.length ? "true" : undefined}
            aria-describedby={nameErrors.length ? `${ID}-name-error` : undefined}
            onInput={(e) => setName(e.currentTarget.value)}
          />
          <FieldMessages id={`${ID}-name`} field="name" errors={nameErrors} />
        </div>
        <PlanFields prefix={ID} form={plan} errors={by} onChange={setPlan} />
        <footer>
          <button id={`${ID}-create`} type="submit" disabled={busy} aria-busy={busy}>
            {TEXT.create}
          </button>
          <button type="button" class="secondary outline" onClick={onClose}>
            {TEXT.cancel}
          </button>
        </footer>
      </form>
    </Modal>
  );
}
