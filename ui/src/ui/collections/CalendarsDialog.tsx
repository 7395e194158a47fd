// "Calendars…": a collection's blackout calendars, edited as a list and saved in one go through
// the engine (its errors on the fields they name), with the preview of their effect on the jobs.
import { useEffect, useState } from "preact/hooks";
import { i18n, useI18n } from "../../i18n";
import { type Calendar, type CollectionSummary, type FieldError, api, errorsOf, messageOf } from "../../ipc";
import { calendarOf, generalErrors, newCalendar, replaceAt } from "../../logic/calendarForm";
import { Dialog } from "../components/Dialog";
import { toast } from "../toast";
import { CalendarFields } from "./CalendarFields";
import { CalendarPreview } from "./CalendarPreview";
import "./calendars.css";
import { Button } from "../components/Button";

type Props = { open: boolean; collection: CollectionSummary; onClose: () => void; onSaved: () => void };

export function CalendarsDialog({ open, collection, onClose, onSaved }: Props) {
  useI18n();
  const [calendars, setCalendars] = useState<Calendar[] | null>(null);
  const [jobs, setJobs] = useState<string[]>([]);
  const [selected, setSelected] = useState(0);
  const [errors, setErrors] = useState<FieldError[]>([]);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (!open) return;
    // An answer that lands after the dialog closed or moved to another collection is dropped:
    // it would replace what is shown now.
    let live = true;
    setErrors([]);
    setCalendars(null);
    setSelected(0);
    api
      .getCalendars(collection.id)
      .then((got) => live && setCalendars(got))
      .catch((e) => live && setErrors([{ path: "", code: "Error", message: messageOf(e) }]));
    api
      .listJobs(collection.id)
      .then((js) => live && setJobs(js.map((j) => j.name)))
      .catch(() => live && setJobs([]));
    return () => {
      live = false;
    };
  }, [open, collection.id]);
  const list = calendars ?? [];
  const current = list[selected];
  const add = () => {
    setCalendars([...list, newCalendar(list)]);
    setSelected(list.length);
  };
  const remove = () => {
    setCalendars(replaceAt(list, selected, null));
    setSelected(Math.max(0, selected - 1));
    setErrors([]);
  };
  const save = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    try {
      await api.saveCalendars(collection.id, list);
      toast(i18n._("Saved the calendars of {collection}", { collection: collection.name }));
      onSaved();
      onClose();
    } catch (err) {
      const got = errorsOf(err);
      setErrors(got.length ? got : [{ path: "", code: "Error", message: messageOf(err) }]);
      const first = got.map((f) => calendarOf(f.path)).find((i) => i >= 0);
      if (first !== undefined) setSelected(first);
    } finally {
      setBusy(false);
    }
  };
  const general = generalErrors(errors);
  return (
    <Dialog
      id="calendars"
      size="wide"
      open={open}
      onClose={onClose}
      title={i18n._("Calendars of {collection}", { collection: collection.name })}
    >
      <form onSubmit={save} class="calendars-editor">
        <p class="muted">
          {i18n._(
            "Jobs of this collection skip the runs that fall in the calendars they name in {field} (names in any case), read in each job's time zone.",
            { field: "recurrence.blackout" },
          )}
        </p>
        <div class="calendars-columns">
          <nav aria-label={i18n._("Calendars")} class="calendar-list">
            <ul>
              {list.map((c, i) => (
                <li key={i}>
                  <button
                    type="button"
                    id={`calendars-item-${i}`}
                    class="nav-item calendar-item"
                    aria-current={i === selected ? "true" : undefined}
                    aria-invalid={errors.some((f) => calendarOf(f.path) === i) ? "true" : undefined}
                    onClick={() => setSelected(i)}
                  >
                    {c.name || i18n._("(no name)")}
                  </button>
                </li>
              ))}
            </ul>
            {/* Not before the stored calendars are in: a calendar added to the empty list would
                be replaced by them, or saved without them. */}
            <Button id="calendars-add" onClick={add} disabled={calendars === null}>
              {i18n._("Add calendar")}
            </Button>
          </nav>
          <div class="calendar-detail">
            {calendars === null && !errors.length && <p aria-busy="true">{i18n._("Loading…")}</p>}
            {calendars !== null && !current && <p class="muted">{i18n._("No calendars yet: add one.")}</p>}
            {current && (
              <CalendarFields
                index={selected}
                calendar={current}
                errors={errors}
                onChange={(c) => setCalendars(replaceAt(list, selected, c))}
                onDelete={remove}
              />
            )}
          </div>
          {calendars !== null && <CalendarPreview collection={collection.id} calendars={list} jobs={jobs} />}
        </div>
        {general.length > 0 && (
          <p id="calendars-error" class="error-text" role="alert">
            {general.join(" ")}
          </p>
        )}
        <footer class="dialog-actions">
          <Button onClick={onClose}>{i18n._("Cancel")}</Button>
          <Button
            variant="primary"
            id="calendars-save"
            type="submit"
            aria-busy={busy || undefined}
            disabled={busy || calendars === null}
          >
            {i18n._("Save")}
          </Button>
        </footer>
      </form>
    </Dialog>
  );
}
