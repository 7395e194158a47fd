import { i18n } from "@lingui/core";
import { useCallback, useEffect, useMemo, useState } from "preact/hooks";
import { type FieldError, type JobDetail, api, errorsOf, messageOf } from "../../ipc";
import { fieldErrorText } from "../../logic/fieldErrorMessages";
import { groupErrors } from "../../logic/fieldErrors";
import { type JobForm, newJob, fromProperties, toProperties, zoneOf } from "../../logic/jobForm";
import { jobStateLabel } from "../../i18n/terms";
import { localIssues } from "../../logic/recurrenceForm";
import { routeHash } from "../../logic/routes";
import { Button } from "../components/Button";
import { EmptyState } from "../components/EmptyState";
import { PageHeader } from "../components/PageHeader";
import { Tabs } from "../components/Tabs";
import { navigate } from "../hooks";
import { JobActions } from "../jobs/JobActions";
import { ExportDialog } from "../transfer/ExportDialog";
import { toast } from "../toast";
import { usePreview, useValidation } from "./checks";
import { ErrorsContext, SelectField, TextField } from "./fields";
import { JsonTab } from "./JsonTab";
import { PreviewPanel } from "./PreviewPanel";
import { FormPanel } from "./FormPanel";
import { useUnplacedErrors } from "./placeErrors";

/** `collection` is the collection's id, `collectionName` its name (the breadcrumb). */
type Props = { collection: string; collectionName: string; job: string | null };
type Tab = "form" | "json";

const STATES = ["Enabled", "Disabled"];

export function JobEditor({ collection, collectionName, job }: Props) {
  const isNew = job === null;
  const [detail, setDetail] = useState<JobDetail | null>(null);
  const [loadError, setLoadError] = useState("");
  const [name, setName] = useState(job ?? "");
  const [form, setForm] = useState<JobForm>(() => newJob(Date.now()));
  const [touched, setTouched] = useState(false);
  const [tab, setTab] = useState<Tab>("form");
  const [json, setJson] = useState({ text: "", dirty: false, busy: false, errors: [] as FieldError[] });
  const [saveErrors, setSaveErrors] = useState<FieldError[]>([]);
  const [saving, setSaving] = useState(false);
  const [exporting, setExporting] = useState(false);
  // The name is asked for when saving, not while the user is still looking around.
  const [attempted, setAttempted] = useState(false);

  const load = useCallback(() => {
    if (job === null) return;
    api.getJob(collection, job).then(
      (d) => {
        setDetail(d);
        setForm(fromProperties(d.properties));
        setTouched(false);
        setSaveErrors([]);
      },
      (e) => setLoadError(messageOf(e)),
    );
  }, [collection, job]);
  useEffect(load, [load]);

  const secretsSet = useMemo(() => detail?.secretsSet ?? [], [detail]);
  const properties = useMemo(() => toProperties(form), [form]);
  const preview = usePreview(properties, secretsSet, collection);
  // A new job is checked once the user starts on it, not while it is still blank.
  const validation = useValidation(properties, touched || !isNew, secretsSet, collection);

  const edit = (next: JobForm) => {
    setForm(next);
    setTouched(true);
    setSaveErrors([]);
  };
  const set = (patch: Partial<JobForm>) => edit({ ...form, ...patch });

  const nameIssues: FieldError[] =
    isNew && attempted && !name.trim() ? [{ path: "name", code: "Form", message: i18n._("Give the job a name.") }] : [];
  const local = form.recurrenceEnabled ? localIssues(form.recurrence) : [];
  const grouped = groupErrors([...nameIssues, ...local, ...saveErrors, ...validation, ...preview.errors], {
    authType: form.action.http.auth.type,
    errAuthType: form.errorAction.http.auth.type,
  });
  const unplaced = useUnplacedErrors(grouped.byField);
  const summary = [...grouped.summary, ...unplaced];

  /** Parses the JSON tab into the form; null when it does not parse. */
  const applyJson = async (): Promise<JobForm | null> => {
    setJson((j) => ({ ...j, busy: true }));
    try {
      const parsed = await api.parseJobText(json.text);
      if (parsed.properties === null) {
        setJson((j) => ({
          ...j,
          busy: false,
          errors: parsed.errors.length
            ? parsed.errors
            : [{ path: "", code: "BadRequest", message: i18n._("No job properties found.") }],
        }));
        return null;
      }
      const next = fromProperties(parsed.properties);
      edit(next);
      if (isNew && !name.trim() && parsed.name) setName(parsed.name);
      setJson((j) => ({ ...j, busy: false, dirty: false, errors: parsed.errors }));
      if (!parsed.errors.length) toast(i18n._("Applied the JSON to the form"));
      return next;
    } catch (e) {
      setJson((j) => ({ ...j, busy: false, errors: [{ path: "", code: "Error", message: messageOf(e) }] }));
      return null;
    }
  };

  const switchTab = async (to: Tab) => {
    if (to === tab) return;
    if (to === "json") setJson({ text: JSON.stringify(properties, null, 2), dirty: false, busy: false, errors: [] });
    else if (json.dirty && !(await applyJson())) return; // stay on the JSON tab: its errors are shown there
    setTab(to);
  };

  const save = async () => {
    let current = form;
    if (tab === "json" && json.dirty) {
      const applied = await applyJson();
      if (!applied) return;
      current = applied;
    }
    const jobName = isNew ? name.trim() : job!;
    setTouched(true);
    setAttempted(true);
    if (!jobName) {
      focusField("job-name");
      toast(i18n._("Give the job a name first."), "error");
      return;
    }
    if (current.recurrenceEnabled && localIssues(current.recurrence).length) {
      toast(i18n._("Fix the highlighted fields first."), "error");
      return;
    }
    setSaving(true);
    try {
      await api.saveJob(collection, jobName, toProperties(current), isNew);
      toast(i18n._("Saved {name}", { name: jobName }));
      if (isNew) navigate({ page: "job", collection, job: jobName });
      else load();
    } catch (e) {
      const errs = errorsOf(e);
      setSaveErrors(errs.length ? errs : [{ path: "", code: "Error", message: messageOf(e) }]);
      toast(i18n._("Not saved: {reason}", { reason: messageOf(e) }), "error");
      if (tab === "json") setTab("form");
      requestAnimationFrame(() =>
        (document.querySelector("#job-editor [aria-invalid='true']") as HTMLElement | null)?.focus(),
      );
    } finally {
      setSaving(false);
    }
  };

  if (loadError)
    return (
      <EmptyState title={i18n._("Could not open {name}", { name: job })}>
        <p>{loadError}</p>
        <a href={routeHash({ page: "collection", collection })}>{i18n._("Back to {name}", { name: collectionName })}</a>
      </EmptyState>
    );
  if (!isNew && !detail) return <p aria-busy="true">{i18n._("Loading {name}…", { name: job })}</p>;

  const zone = zoneOf(form) || "UTC";
  return (
    <ErrorsContext.Provider value={grouped.byField}>
      <section
        id="job-editor"
        aria-labelledby="editor-title"
        onKeyDown={(e) => {
          if (e.key === "s" && (e.ctrlKey || e.metaKey)) {
            e.preventDefault();
            save();
          }
        }}
      >
        <PageHeader
          titleId="editor-title"
          title={isNew ? i18n._("New job") : job}
          breadcrumbs={[{ label: collectionName, href: routeHash({ page: "collection", collection }) }]}
          actions={
            <>
              {!isNew && (
                <Button id="open-history" onClick={() => navigate({ page: "history", collection, job: job! })}>
                  {i18n._("History")}
                </Button>
              )}
              <Button
                id="save-job"
                variant="primary"
                title={i18n._("Ctrl+S")}
                aria-busy={saving}
                disabled={saving}
                onClick={save}
              >
                {isNew ? i18n._("Create job") : i18n._("Save")}
              </Button>
            </>
          }
        />
        {detail && (
          <JobActions
            collection={collection}
            job={detail.summary}
            showHistory={false}
            showEdit={false}
            onExport={() => setExporting(true)}
            onChanged={(s) => {
              if (s === null) {
                navigate({ page: "collection", collection });
                return;
              }
              // Keep unsaved edits: only the state the action changed is taken over.
              setDetail({ ...detail, summary: s });
              setForm((f) => ({ ...f, state: s.state }));
            }}
          />
        )}
        {summary.length > 0 && (
          <div id="error-summary" class="error-summary" role="alert">
            <strong>{i18n._("Please check:")}</strong>
            <ul>
              {summary.map((e) => (
                <li key={e.path + e.message}>
                  <small class="field-error" data-path={e.path}>
                    {e.path && <code>{e.path.replace(/^properties\./, "")}</code>} {fieldErrorText(e)}
                  </small>
                </li>
              ))}
            </ul>
          </div>
        )}
        <div class="editor-layout">
          <div class="editor-main">
            <div class="grid basics">
              <TextField
                id="job-name"
                label={i18n._("Name")}
                value={name}
                readOnly={!isNew}
                placeholder={i18n._("nightly-report")}
                onInput={setName}
              />
              <SelectField
                id="job-state"
                label={i18n._("State")}
                value={form.state}
                options={(STATES.includes(form.state) ? STATES : [...STATES, form.state]).map(
                  (s) => [s, jobStateLabel(s)] as const,
                )}
                onChange={(state) => set({ state })}
              />
              <TextField
                id="start-time"
                label={i18n._("Start ({zone})", { zone })}
                type="datetime-local"
                value={form.startTime}
                hint={i18n._("Empty: as soon as it is saved.")}
                onInput={(startTime) => set({ startTime })}
              />
            </div>
            <Tabs
              label={i18n._("Edit as")}
              value={tab}
              onChange={(to) => void switchTab(to)}
              tabs={[
                { value: "form", label: i18n._("Form"), id: "tab-form", panel: "panel-form" },
                { value: "json", label: i18n._("JSON"), id: "tab-json", panel: "panel-json" },
              ]}
            />
            {tab === "form" ? (
              <div id="panel-form" role="tabpanel" aria-labelledby="tab-form">
                <FormPanel form={form} set={set} secretsSet={secretsSet} />
              </div>
            ) : (
              <div id="panel-json" role="tabpanel" aria-labelledby="tab-json">
                <JsonTab
                  text={json.text}
                  errors={json.errors}
                  busy={json.busy}
                  onApply={applyJson}
                  onText={(text) => setJson((j) => ({ ...j, text, dirty: true }))}
                />
              </div>
            )}
          </div>
          <PreviewPanel preview={preview} />
        </div>
        {detail && (
          <ExportDialog
            open={exporting}
            collection={collection}
            name={collectionName}
            jobs={[detail.summary.name]}
            onClose={() => setExporting(false)}
          />
        )}
      </section>
    </ErrorsContext.Provider>
  );
}

function focusField(id: string) {
  requestAnimationFrame(() => document.getElementById(id)?.focus());
}
