// Development only: an in-memory stand-in for the backend so the UI runs in a plain browser
// (`npm run dev`). It is deliberately shallow — no recurrence engine: previews are a few
// made-up weekly runs. Add `?empty` to the URL to start without collections.
import { fakeDeletions } from "./fakeDeletion";
import { fakeOverview, fakeOverviewCounts } from "./fakeOverview";
import { fakeUpdateCommands, fakeUpdateEvents } from "./fakeUpdate";
import type { CollectionPlan_Deserialize as CollectionPlanIn } from "./bindings";
import type { Backend } from "./index";
import type {
  Calendar,
  CalendarPreviewJob,
  CollectionPlan,
  CollectionSummary,
  FieldError,
  ImportRequest,
  ImportResult,
  JobSummary,
  JsonValue,
  LanguageInfo,
  Result,
  Settings,
} from "./types";

type Obj = { [k: string]: JsonValue };
const o = (v: JsonValue | undefined): Obj => (v && typeof v === "object" && !Array.isArray(v) ? v : {});
// Copies, as IPC would make: the UI must never share objects with the "backend".
const ok = <T>(data: T) => Promise.resolve<Result<T, never>>({ status: "ok", data: structuredClone(data) });
/** As the backend sends a field error: a rule id (null here: the fake says problems in words) and args. */
const sent = (e: FieldError) => ({ ...e, rule: e.rule ?? null, args: e.args ?? {} });
const fail = (code: string, message: string, errors: FieldError[] = []) =>
  Promise.resolve({ status: "error" as const, error: { code, message, errors: errors.map(sent) } });

const collections = new Map<string, CollectionSummary>();
const jobs = new Map<string, { properties: Obj; secretsSet: string[]; summary: JobSummary }>();
let settings: Settings = {
  serveApi: false,
  apiPort: 7010,
  allowCommands: false,
  notifyOnFault: true,
  startAtLogin: false,
};
const listeners = new Set<(e: { payload: { version: number } }) => void>();
/** The language setting; "following the system" speaks English here. */
const LANGUAGES = ["en", "zh-TW", "de", "pt-BR", "fr"];
let language: LanguageInfo = { setting: null, resolved: "en" };
const languageListeners = new Set<(e: { payload: LanguageInfo }) => void>();
let version = 0;
/** `changed()`, then `value`: for the one-expression fakes. */
const changedWith = <T>(value: T): T => {
  changed();
  return value;
};
const changed = () => {
  version++;
  setTimeout(() => {
    for (const l of listeners) l({ payload: { version } });
  }, 50);
};

const SECRETS = ["password", "pfx", "secret", "sasToken", "sasKey"];
/** Takes secrets out of what is stored, as the engine does, remembering their paths. */
function strip(v: JsonValue, path: string, found: string[]): JsonValue {
  if (Array.isArray(v) || !v || typeof v !== "object") return v;
  const out: Obj = {};
  for (const [k, x] of Object.entries(v)) {
    if (SECRETS.includes(k) && x) found.push(`properties.${path}${k}`);
    else out[k] = strip(x, `${path}${k}.`, found);
  }
  return out;
}

function summarize(collection: string, name: string, p: Obj): JobSummary {
  const r = o(p.recurrence);
  return {
    collection,
    name,
    state: String(p.state ?? "Enabled"),
    actionType: String(o(p.action).type ?? "Http"),
    sentence: r.frequency ? `Every ${r.interval ?? 1} ${String(r.frequency).toLowerCase()}(s)` : "Once",
    nextRun: new Date(Date.now() + 3_600_000).toISOString(),
    lastRun: null,
    lastStatus: null,
    executionCount: 0,
    failureCount: 0,
    faultedCount: 0,
  };
}

function check(p: Obj): FieldError[] {
  const a = o(p.action);
  const errors: FieldError[] = [];
  if (/^https?$/i.test(String(a.type)) && !o(a.request).uri)
    errors.push({
      path: "properties.action.request.uri",
      code: "BadRequest",
      message: "is required",
      rule: "required",
      args: {},
    });
  const minutes = o(o(p.recurrence).schedule).minutes;
  for (const [i, m] of (Array.isArray(minutes) ? minutes : []).entries())
    if (typeof m !== "number" || m < 0 || m > 59)
      errors.push({
        path: `properties.recurrence.schedule.minutes[${i}]`,
        code: "BadRequest",
        message: `minutes must be between 0 and 59; got ${m}`,
        // As the engine names it (crates/kairos-core/src/validate/rule.rs), so the window says it in its language.
        rule: "list_value_out_of_range",
        args: { unit: "minutes", min: 0, max: 59, got: typeof m === "number" ? m : String(m) },
      });
  return errors;
}

function save(collection: string, name: string, properties: JsonValue, secretsSet: string[] = []) {
  const found: string[] = [];
  const stored = o(strip(properties, "", found));
  jobs.set(`${collection}|${name}`, {
    properties: stored,
    secretsSet: [...new Set([...secretsSet, ...found])],
    summary: summarize(collection, name, stored),
  });
  const c = collections.get(collection);
  if (c) c.jobCount = [...jobs.values()].filter((j) => j.summary.collection === collection).length;
  changed();
  return jobs.get(`${collection}|${name}`)!.summary;
}

const PLAN_LIMITS: Record<string, number> = { Free: 5, Standard: 50, P10Premium: 50, P20Premium: 1000 };
const plans = new Map<string, CollectionPlan>();
const calendarsOf = new Map<string, Calendar[]>();
const deletions = fakeDeletions({ collections, jobs, plans, calendarsOf }, ok, fail, changed);

/** The engine's date and name rules, roughly: enough for the editor's errors to show. */
function checkCalendars(cals: Calendar[]): FieldError[] {
  const errors: FieldError[] = [];
  const seen = new Map<string, string>();
  cals.forEach((c, i) => {
    const first = seen.get(c.name.toLowerCase());
    if (first !== undefined)
      errors.push({
        path: `calendars[${i}].name`,
        code: "BadRequest",
        message: `the calendar '${c.name}' differs from the calendar '${first}' only in case; calendar names are case-insensitive: rename or remove one`,
      });
    else seen.set(c.name.toLowerCase(), c.name);
    c.dates.forEach((d, j) => {
      if (!/^\d{4}-\d\d-\d\d$/.test(d) || Number.isNaN(Date.parse(`${d}T00:00:00Z`)))
        errors.push({
          path: `calendars[${i}].dates[${j}]`,
          code: "BadRequest",
          message: `'${d}' is not a date; use YYYY-MM-DD such as 2030-12-25`,
        });
    });
  });
  return errors;
}

/** Made-up daily 08:00 runs from 2026-11-24; a day a calendar's dates or ranges list is removed. */
function fakeCalendarPreview(cals: Calendar[], names: string[], count: number): CalendarPreviewJob[] {
  const removedBy = (day: string) =>
    cals.find((c) => c.dates.includes(day) || c.ranges.some((r) => r.start <= day && day <= r.end))?.name ?? null;
  return names.map((name) => {
    const runs: CalendarPreviewJob["runs"] = [];
    for (let i = 0, kept = 0; kept < count && i < 400; i++) {
      const at = new Date(Date.UTC(2026, 10, 24 + i, 8)).toISOString().replace(".000", "");
      const by = removedBy(at.slice(0, 10));
      if (!by) kept++;
      runs.push({ at, local: at.slice(0, 16).replace("T", " "), removedBy: by, skipped: by ? 1 : null, until: null });
    }
    return { name, state: "Enabled", timeZone: "UTC", runs, problem: null };
  });
}
let paused = false;

/** The engine's rules, shallowly: a known plan, counts and intervals at least 1, one Free collection. */
function checkPlan(p: CollectionPlan, id: string): FieldError[] {
  const errors: FieldError[] = [];
  const at = (path: string, message: string) => errors.push({ path, code: "BadRequest", message });
  if (!(p.plan in PLAN_LIMITS)) at("plan", `'${p.plan}' is not a plan`);
  if (p.maxJobCount !== null && p.maxJobCount < 1) at("maxJobCount", `must be at least 1; got ${p.maxJobCount}`);
  if (p.maxRecurrenceInterval !== null && p.maxRecurrenceInterval < 1)
    at("maxRecurrenceInterval", `must be at least 1; got ${p.maxRecurrenceInterval}`);
  if (p.maxRecurrenceInterval !== null && !p.maxRecurrenceFrequency) at("maxRecurrenceFrequency", "is required");
  if (p.plan === "Free" && [...plans].some(([other, q]) => other !== id && q.plan === "Free"))
    at("plan", "subscription 'local' already has a Free job collection; a subscription may have only one");
  return errors;
}

function applyPlan(c: CollectionSummary, p: CollectionPlan) {
  plans.set(c.id, p);
  c.plan = p.plan;
  c.maxJobCount = p.maxJobCount ?? PLAN_LIMITS[p.plan] ?? 1000;
  c.minRecurrence = p.maxRecurrenceFrequency
    ? `${p.maxRecurrenceInterval ?? 1} ${p.maxRecurrenceFrequency}`
    : p.plan === "Free"
      ? "1 Hour"
      : "1 Minute";
}

/** What the UI sends, with every field present (as the backend answers it). */
const full = (p: CollectionPlanIn): CollectionPlan => ({
  plan: p.plan,
  maxJobCount: p.maxJobCount ?? null,
  maxRecurrenceFrequency: p.maxRecurrenceFrequency ?? null,
  maxRecurrenceInterval: p.maxRecurrenceInterval ?? null,
});

const DEFAULT_PLAN: CollectionPlan = {
  plan: "P20Premium",
  maxJobCount: null,
  maxRecurrenceFrequency: null,
  maxRecurrenceInterval: null,
};

function addCollection(name: string, plan: CollectionPlan = DEFAULT_PLAN): CollectionSummary {
  const c = {
    id: `local/desktop/${name}`,
    name,
    subscription: "local",
    resourceGroup: "desktop",
    state: "Enabled",
    plan: "P20Premium",
    maxJobCount: 1000,
    jobCount: 0,
    minRecurrence: "1 Minute",
  };
  applyPlan(c, plan);
  collections.set(c.id, c);
  return c;
}

if (!location.search.includes("empty")) {
  addCollection("default");
  save("local/desktop/default", "nightly-report", {
    startTime: "2026-01-01T00:00:00Z",
    state: "Enabled",
    action: {
      type: "Http",
      request: {
        uri: "https://example.invalid/report",
        method: "POST",
        authentication: { type: "Basic", username: "ops", password: "x" },
      },
    },
    recurrence: {
      frequency: "Month",
      interval: 1,
      schedule: { monthlyOccurrences: [{ day: "Friday", occurrence: -1 }], hours: [5], minutes: [15] },
    },
  });
}

const job = (c: string, n: string) => jobs.get(`${c}|${n}`);

/** Import, shallowly: any path gives two jobs into "imported"; a path with "secret" in it wants the passphrase "pass". */
function fakeImport(r: ImportRequest, dryRun: boolean) {
  const on = (path: string, code: string, message: string) => fail(code, message, [{ path, code, message }]);
  if (!r.path.trim().startsWith("/")) return on("path", "BadRequest", "give the full path");
  if (r.path.includes("secret") && !r.passphrase)
    return on(
      "passphrase",
      "PassphraseRequired",
      "this bundle carries encrypted secrets: give the passphrase it was exported with",
    );
  if (r.path.includes("secret") && r.passphrase !== "pass")
    return on("passphrase", "PassphraseWrong", "this is not the passphrase the bundle was exported with");
  const name = r.format === "Crontab" ? r.collection || "crontab" : "imported";
  const id = `local/desktop/${name}`;
  const exists = collections.has(id);
  const items: ImportResult["items"] = [
    {
      collection: name,
      collectionId: id,
      job: null,
      source: null,
      outcome: exists ? "Kept" : "Created",
      reason: exists ? "the collection exists; it is left as it is" : null,
      code: null,
    },
  ];
  for (const [n, jobName] of ["heartbeat", "nightly-report"].entries()) {
    const there = !!job(id, jobName);
    items.push({
      collection: name,
      collectionId: id,
      job: jobName,
      source: `resources[${n}]`,
      outcome: there ? (r.replace ? "Replaced" : "Skipped") : "Created",
      reason: there && !r.replace ? "the job exists (replace is off)" : null,
      code: null,
    });
  }
  if (!dryRun) {
    if (!exists) {
      addCollection(name);
      changed();
    }
    for (const i of items)
      if (i.job && i.outcome !== "Skipped")
        save(id, i.job, {
          action: { type: "Http", request: { uri: "https://example.invalid/", method: "GET" } },
          recurrence: { frequency: "Hour", interval: 1 },
        });
  }
  return ok<ImportResult>({
    format: r.format ?? (r.path.includes("secret") ? "Bundle" : "Template"),
    written: !dryRun,
    dryRun,
    blocked: false,
    items,
    problems: [],
    notes: [{ source: "resources[3]", reason: "(development fake) a note" }],
  });
}
const missing = () => fail("NotFound", "no such job");

export const fakeBackend: Backend = {
  commands: {
    listCollections: () => ok([...collections.values()]),
    createCollection: (name, given) => {
      const plan = given ? full(given) : DEFAULT_PLAN;
      const id = `local/desktop/${name}`;
      if (collections.has(id))
        return fail("Conflict", `a collection named '${name}' already exists`, [
          { path: "name", code: "Conflict", message: "a collection with this name already exists" },
        ]);
      const errors = checkPlan(plan, id);
      return errors.length ? fail("BadRequest", errors[0].message, errors) : changedWith(ok(addCollection(name, plan)));
    },
    getCollectionPlan: (id) => {
      const p = plans.get(id);
      return p ? ok(p) : fail("ResourceNotFound", "no such collection");
    },
    updateCollection: (id, given) => {
      const plan = full(given);
      const c = collections.get(id);
      if (!c) return fail("ResourceNotFound", "no such collection");
      const errors = checkPlan(plan, id);
      if (plan.plan === "Free" && c.jobCount > 5)
        errors.push({
          path: "plan",
          code: "Conflict",
          message: `the collection has ${c.jobCount} jobs; the Free plan allows 5`,
        });
      if (errors.length) return fail("BadRequest", errors[0].message, errors);
      applyPlan(c, plan);
      return changedWith(ok(c));
    },
    getCalendars: (id) => ok(calendarsOf.get(id) ?? []),
    saveCalendars: (id, cals) => {
      const errors = checkCalendars(cals);
      if (errors.length) return fail("BadRequest", errors[0].message, errors);
      calendarsOf.set(id, structuredClone(cals));
      return changedWith(ok(cals));
    },
    previewCalendars: (id, cals, job, count) => {
      const errors = checkCalendars(cals);
      if (errors.length) return fail("BadRequest", errors[0].message, errors);
      const names = [...jobs.values()]
        .filter((j) => j.summary.collection === id && (job === null || j.summary.name === job))
        .map((j) => j.summary.name);
      return ok(fakeCalendarPreview(cals, names, count));
    },
    deleteCollection: deletions.deleteCollection,
    getPaused: () => ok(paused),
    setPaused: (p) => {
      paused = p;
      return changedWith(ok(paused));
    },
    setCollectionEnabled: (id, enabled) => {
      for (const j of jobs.values())
        if (j.summary.collection === id) j.summary.state = enabled ? "Enabled" : "Disabled";
      changed();
      return ok(null);
    },
    listJobs: (c) => ok([...jobs.values()].filter((j) => j.summary.collection === c).map((j) => j.summary)),
    getJob: (c, n) => {
      const j = job(c, n);
      return j ? ok({ summary: j.summary, properties: j.properties, secretsSet: j.secretsSet }) : missing();
    },
    saveJob: (c, n, properties, create) => {
      if (create && job(c, n))
        return fail("Conflict", `a job named '${n}' already exists`, [
          { path: "name", code: "Conflict", message: "a job with this name already exists" },
        ]);
      const errors = check(o(properties));
      return errors.length
        ? fail("BadRequest", "the job is not valid", errors)
        : ok(save(c, n, properties, job(c, n)?.secretsSet));
    },
    duplicateJob: (c, n, newName) => {
      const j = job(c, n);
      return j ? ok(save(c, newName, j.properties, j.secretsSet)) : missing();
    },
    deleteJob: (c, n) => deletions.deleteJobs(c, [n]),
    deleteJobs: deletions.deleteJobs,
    undoDeletion: deletions.undoDeletion,
    pendingDeletions: deletions.pendingDeletions,
    runJobNow: (c, n) => {
      const j = job(c, n);
      if (!j) return missing();
      j.summary.executionCount++;
      j.summary.lastRun = new Date().toISOString();
      j.summary.lastStatus = "Completed";
      changed();
      return ok(null);
    },
    setJobEnabled: (c, n, enabled) => {
      const j = job(c, n);
      if (!j) return missing();
      j.properties.state = j.summary.state = enabled ? "Enabled" : "Disabled";
      changed();
      return ok(j.summary);
    },
    exportJob: (c, n) => {
      const j = job(c, n);
      return j ? ok(JSON.stringify({ name: n, properties: j.properties }, null, 2)) : missing();
    },
    parseJobText: async (text) => {
      try {
        const v = o(JSON.parse(text.replace(/^\s*\/\/.*$/gm, "")));
        const properties = o(v.properties ?? v);
        return { name: typeof v.name === "string" ? v.name : null, properties, errors: check(properties).map(sent) };
      } catch (e) {
        return { name: null, properties: null, errors: [sent({ path: "", code: "BadRequest", message: String(e) })] };
      }
    },
    validateJob: (_c, p) => ok(check(o(p)).map(sent)),
    previewJob: ({ properties, count, month }) => {
      const start = Date.UTC(2026, 0, 30, 5, 15);
      const runs = Array.from({ length: Math.min(count, 5) }, (_, i) => new Date(start + i * 7 * 86_400_000));
      const shown = month ?? runs[0].toISOString().slice(0, 7);
      return ok({
        sentence: `(development fake) ${summarize("", "", o(properties)).sentence}`,
        timeZone: "UTC",
        runs: runs.map((d) => d.getTime() / 1000),
        offsets: runs.length > 0 ? [[0, 0]] : [],
        runNotes: runs.length > 2 ? [[2, "moved: daylight saving"]] : [],
        month: shown,
        monthDays: runs.filter((d) => d.toISOString().startsWith(shown)).map((d) => d.getUTCDate()),
        notes: ["The development fake does not compute schedules."],
        errors: check(o(properties)).map(sent),
        scheduleValid: !check(o(properties)).some((e) => e.path.includes("recurrence")),
        computeMicros: 42,
      });
    },
    historyPage: (r) => {
      if (!job(r.collection, r.job)) return missing();
      const status = r.query.status;
      const all = [
        {
          scheduledTime: "2026-02-27T05:15:00Z",
          status: "Completed",
          attempts: [
            {
              id: "3",
              kind: "Attempt",
              status: "Completed",
              startTime: "2026-02-27T05:15:00Z",
              endTime: "2026-02-27T05:15:00Z",
              retryCount: 0,
              message: "HTTP 200 OK",
            },
          ],
        },
        {
          scheduledTime: "2026-01-30T05:15:00Z",
          status: "Faulted",
          attempts: [
            {
              id: "2",
              kind: "ErrorAction",
              status: "Completed",
              startTime: "2026-01-30T05:16:01Z",
              endTime: "2026-01-30T05:16:02Z",
              retryCount: 0,
              message: "HTTP 200 OK",
            },
            {
              id: "1",
              kind: "Attempt",
              status: "Failed",
              startTime: "2026-01-30T05:15:00Z",
              endTime: "2026-01-30T05:15:01Z",
              retryCount: 0,
              message: "HTTP 503 Service Unavailable",
            },
          ],
        },
      ];
      // The development fake filters by status only and holds one page.
      const occurrences = status ? all.filter((x) => x.attempts.some((a) => a.status === status)) : all;
      const total = occurrences.reduce((n, o) => n + o.attempts.length, 0);
      return ok({ occurrences, skip: 0, next: null, total, found: null, running: [] });
    },
    getSettings: () => ok(settings),
    setSettings: (s) => {
      settings = s;
      return ok(settings);
    },
    apiInfo: () =>
      ok({ url: `http://127.0.0.1:${settings.apiPort}`, token: "dev-token-0000", running: settings.serveApi }),
    desktopProblems: () => ok({ tray: null, notifications: null }),
    sendTestNotification: () => ok(null),
    getLanguage: () => ok(language),
    setLanguage: (setting) => {
      if (setting !== null && !LANGUAGES.includes(setting)) {
        const message = `'${setting}' is not a language Kairos speaks; use one of ${LANGUAGES.join(", ")}`;
        return fail("BadRequest", message, [{ path: "language", code: "BadRequest", message }] as FieldError[]);
      }
      language = { setting, resolved: setting ?? "en" };
      setTimeout(() => {
        for (const l of languageListeners) l({ payload: structuredClone(language) });
      }, 0);
      return ok(language);
    },
    takeOpenJob: async () => null,
    overview: (from, to, cols) =>
      ok(
        fakeOverview(
          [...jobs.values()].map((j) => j.summary),
          from,
          to,
          cols,
        ),
      ),
    overviewCounts: (request) =>
      ok(
        fakeOverviewCounts(
          [...jobs.values()].map((j) => j.summary),
          request,
        ),
      ),
    importPreview: (r) => fakeImport(r, true),
    importRun: (r) => fakeImport(r, false),
    exportHistory: (r) =>
      r.path.trim().startsWith("/")
        ? ok({ path: r.path, records: 3 })
        : fail("BadRequest", "give the full path", [
            { path: "path", code: "BadRequest", message: "give the full path" },
          ]),
    ...fakeUpdateCommands,
    exportCollection: (r) => {
      if (!r.path.trim().startsWith("/"))
        return fail("BadRequest", "give the full path", [
          { path: "path", code: "BadRequest", message: "give the full path" },
        ]);
      return ok({
        path: r.path,
        warnings:
          r.format === "Template"
            ? [
                "nightly-report: properties.action.request.authentication.password is the securestring parameter 'nightlyReportPassword' (given at deployment)",
              ]
            : [],
      });
    },
  },
  events: {
    engineChanged: {
      listen: async (cb) => {
        listeners.add(cb);
        return () => {
          listeners.delete(cb);
        };
      },
    },
    openJob: { listen: async () => () => {} },
    ...fakeUpdateEvents,
    languageChanged: {
      listen: async (cb) => {
        languageListeners.add(cb);
        return () => {
          languageListeners.delete(cb);
        };
      },
    },
  },
};
