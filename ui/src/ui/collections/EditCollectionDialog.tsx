// "Edit collection…": the plan and quota of an existing collection, each refusal on its field.
import { useEffect, useState } from "preact/hooks";
import { i18n, useI18n } from "../../i18n";
import { type CollectionSummary, type FieldError, api, errorsOf, messageOf } from "../../ipc";
import { NEW_PLAN, PLAN_FIELDS, formOf, planOf } from "../../logic/collectionForm";
import { errorsByField } from "../../logic/transfer";
import { Dialog } from "../components/Dialog";
import { toast } from "../toast";
import { PlanFields } from "./PlanFields";
import { Button } from "../components/Button";

type Props = { open: boolean; collection: CollectionSummary; onClose: () => void; onSaved: () => void };

export function EditCollectionDialog({ open, collection, onClose, onSaved }: Props) {
  useI18n();
  const [form, setForm] = useState(NEW_PLAN);
  const [errors, setErrors] = useState<FieldError[]>([]);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (!open) return;
    setErrors([]);
    api
      .getCollectionPlan(collection.id)
      .then((p) => setForm(formOf(p)))
      .catch((e) => setErrors([{ path: "", code: "Error", message: messageOf(e) }]));
  }, [open, collection.id]);
  const by = errorsByField(errors, PLAN_FIELDS);
  const submit = async (e: Event) => {
    e.preventDefault();
    const { plan, errors: local } = planOf(form);
    setErrors(local);
    if (local.length) return;
    setBusy(true);
    try {
      await api.updateCollection(collection.id, plan);
      toast(i18n._("Saved collection {collection}", { collection: collection.name }));
      onSaved();
      onClose();
    } catch (err) {
      setErrors(errorsOf(err).length ? errorsOf(err) : [{ path: "", code: "Error", message: messageOf(err) }]);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog
      id="edit-collection"
      open={open}
      onClose={onClose}
      title={i18n._("Edit {collection}", { collection: collection.name })}
    >
      <form onSubmit={submit}>
        <PlanFields prefix="edit-collection" form={form} errors={by} onChange={setForm} />
        {by[""] && (
          <p id="edit-collection-error" class="error-text" role="alert">
            {by[""].join(" ")}
          </p>
        )}
        <footer class="dialog-actions">
          <Button onClick={onClose}>{i18n._("Cancel")}</Button>
          <Button
            variant="primary"
            id="edit-collection-save"
            type="submit"
            aria-busy={busy || undefined}
            disabled={busy}
          >
            {i18n._("Save")}
          </Button>
        </footer>
      </form>
    </Dialog>
  );
}
