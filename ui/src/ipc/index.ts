// The one door to the backend. Screens call `api.*` and get plain values or a thrown
// CommandFailure; events come as unsubscribe-returning listeners. Only this folder knows about
// Tauri: outside the Tauri window (a plain browser during development) a small in-memory fake
// answers instead, loaded on demand so it never ships in the app's code path.
import { commands, events } from "./bindings";
import type {
  ApiInfo,
  Calendar,
  CalendarPreviewJob,
  CollectionPlan,
  CollectionSummary,
  CommandError,
  Deletion,
  DesktopProblems,
  EngineChanged,
  ExportRequest,
  ExportResult,
  HistoryExportRequest,
  HistoryExportResult,
  FieldError,
  HistoryPage,
  HistoryPageRequest,
  ImportRequest,
  ImportResult,
  JobDetail,
  JobSummary,
  JsonValue,
  LanguageInfo,
  OpenJob,
  ParsedJob,
  PreviewRequest,
  PreviewResult,
  Result,
  Settings,
  UndoTicket,
  UpdateCheck,
  UpdateProgress,
  UpdateSettings,
} from "./types";
import type { OverviewCountsRequest, OverviewCountsResult, OverviewResult } from "./types";

export type * from "./types";

type Listen<T> = (cb: (e: { payload: T }) => void) => Promise<() => void>;
export type Backend = {
  commands: typeof commands;
  events: {
    engineChanged: { listen: Listen<EngineChanged> };
    openJob: { listen: Listen<OpenJob> };
    languageChanged: { listen: Listen<LanguageInfo> };
    updateFound: { listen: Listen<UpdateCheck> };
    updateProgress: { listen: Listen<UpdateProgress> };
  };
};

/** A failed command: the engine's code and sentence, and its field errors when input was invalid. */
export class CommandFailure extends Error implements CommandError {
  constructor(
    public code: string,
    message: string,
    public errors: FieldError[] = [],
  ) {
    super(message);
    this.name = "CommandFailure";
  }
}

function toFailure(e: unknown): CommandFailure {
  if (e instanceof CommandFailure) return e;
  if (typeof e === "object" && e !== null && "message" in e) {
    const o = e as Partial<CommandError>;
    return new CommandFailure(o.code ?? "Error", String(o.message), Array.isArray(o.errors) ? o.errors : []);
  }
  return new CommandFailure("Error", String(e));
}

/** The field errors a thrown value carries (none when it is not a CommandFailure). */
export function errorsOf(e: unknown): FieldError[] {
  return e instanceof CommandFailure ? e.errors : [];
}

export function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

export const inTauri = typeof window !== "undefined" && "__TAURI_INTERNALS__" in window;

let backend: Promise<Backend> | null = null;
function getBackend(): Promise<Backend> {
  backend ??= inTauri ? Promise.resolve({ commands, events }) : import("./fake").then((m) => m.fakeBackend);
  return backend;
}

/** A command answering Result: its data, or a thrown CommandFailure. */
async function result<T>(call: (c: Backend["commands"]) => Promise<Result<T, CommandError>>): Promise<T> {
  const b = await getBackend();
  let r: Result<T, CommandError>;
  try {
    r = await call(b.commands);
  } catch (e) {
    throw toFailure(e);
  }
  if (r.status === "error") throw toFailure(r.error);
  return r.data;
}

/** A command answering a plain value (its problems are in the value, e.g. `errors`). */
async function plain<T>(call: (c: Backend["commands"]) => Promise<T>): Promise<T> {
  const b = await getBackend();
  try {
    return await call(b.commands);
  } catch (e) {
    throw toFailure(e);
  }
}

export const api = {
  listCollections: (): Promise<CollectionSummary[]> => result((c) => c.listCollections()),
  /** `plan` null: P20Premium with its limits. Errors name `name`, `plan`, `maxJobCount`, `maxRecurrence…`. */
  createCollection: (name: string, plan: CollectionPlan | null = null): Promise<CollectionSummary> =>
    result((c) => c.createCollection(name, plan)),
  /** The plan and the quota the collection sets itself (null where the plan's limits apply). */
  getCollectionPlan: (collection: string): Promise<CollectionPlan> => result((c) => c.getCollectionPlan(collection)),
  updateCollection: (collection: string, plan: CollectionPlan): Promise<CollectionSummary> =>
    result((c) => c.updateCollection(collection, plan)),
  /** The collection's blackout calendars, in their order. */
  getCalendars: (collection: string): Promise<Calendar[]> => result((c) => c.getCalendars(collection)),
  /** Replaces them all; errors name `calendars[i].name`, `calendars[i].dates[j]`, ... */
  saveCalendars: (collection: string, calendars: Calendar[]): Promise<Calendar[]> =>
    result((c) => c.saveCalendars(collection, calendars)),
  /** The collection's jobs (or `job`) under `calendars`, not saved: runs, removed ones marked. */
  previewCalendars: (
    collection: string,
    calendars: Calendar[],
    job: string | null,
    count: number,
  ): Promise<CalendarPreviewJob[]> => result((c) => c.previewCalendars(collection, calendars, job, count)),
  /** Deletes its jobs, their history and its calendars too; `undoDeletion(ticket.token)` brings them back until `ticket.until`. */
  deleteCollection: (collection: string): Promise<UndoTicket> => result((c) => c.deleteCollection(collection)),
  /** Every job paused (the tray's "Pause all jobs")? */
  getPaused: (): Promise<boolean> => result((c) => c.getPaused()),
  setPaused: (paused: boolean): Promise<boolean> => result((c) => c.setPaused(paused)),
  /** `collection` is always the collection's id (`subscription/resourceGroup/name`). */
  setCollectionEnabled: (collection: string, enabled: boolean): Promise<null> =>
    result((c) => c.setCollectionEnabled(collection, enabled)),
  listJobs: (collection: string): Promise<JobSummary[]> => result((c) => c.listJobs(collection)),
  getJob: (collection: string, name: string): Promise<JobDetail> => result((c) => c.getJob(collection, name)),
  saveJob: (collection: string, name: string, properties: JsonValue, create: boolean): Promise<JobSummary> =>
    result((c) => c.saveJob(collection, name, properties, create)),
  duplicateJob: (collection: string, name: string, newName: string): Promise<JobSummary> =>
    result((c) => c.duplicateJob(collection, name, newName)),
  /** Undoable like `deleteJobs`. */
  deleteJob: (collection: string, name: string): Promise<UndoTicket> => result((c) => c.deleteJob(collection, name)),
  /** A selection: all or none (`ResourceNotFound` names a missing job), one ticket for them all. */
  deleteJobs: (collection: string, names: string[]): Promise<UndoTicket> =>
    result((c) => c.deleteJobs(collection, names)),
  /**
   * Brings back what the delete that answered `token` removed, as it was (history, secrets and state
   * included). `UndoExpired` once the ticket's window has ended; `Conflict` when the name was taken meanwhile.
   */
  undoDeletion: (token: string): Promise<Deletion> => result((c) => c.undoDeletion(token)),
  /** Deletions that can still be undone, oldest first (to offer Undo again in a window opened meanwhile). */
  pendingDeletions: (): Promise<Deletion[]> => result((c) => c.pendingDeletions()),
  runJobNow: (collection: string, name: string): Promise<null> => result((c) => c.runJobNow(collection, name)),
  setJobEnabled: (collection: string, name: string, enabled: boolean): Promise<JobSummary> =>
    result((c) => c.setJobEnabled(collection, name, enabled)),
  exportJob: (collection: string, name: string): Promise<string> => result((c) => c.exportJob(collection, name)),
  parseJobText: (text: string): Promise<ParsedJob> => plain((c) => c.parseJobText(text)),
  /** As saving into `collection` would judge it (its calendars for the names a blackout lists). */
  validateJob: (collection: string | null, properties: JsonValue): Promise<FieldError[]> =>
    result((c) => c.validateJob(collection, properties)),
  /** `request.collection`: the job's collection, whose calendars its blackouts may name. */
  previewJob: (request: PreviewRequest): Promise<PreviewResult> => result((c) => c.previewJob(request)),
  /** A page of a job's history, filtered and paged by the engine, with the attempts in flight. */
  historyPage: (request: HistoryPageRequest): Promise<HistoryPage> => result((c) => c.historyPage(request)),
  getSettings: (): Promise<Settings> => result((c) => c.getSettings()),
  setSettings: (settings: Settings): Promise<Settings> => result((c) => c.setSettings(settings)),
  apiInfo: (): Promise<ApiInfo> => result((c) => c.apiInfo()),
  /** What the tray runner could not do (no tray host, notifications refused), with what to do. */
  desktopProblems: (): Promise<DesktopProblems> => result((c) => c.desktopProblems()),
  sendTestNotification: (): Promise<null> => result((c) => c.sendTestNotification()),
  /** The saved language (null: follow the system) and the one spoken now (en, zh-TW, de, pt-BR, fr, en-XA). */
  getLanguage: (): Promise<LanguageInfo> => result((c) => c.getLanguage()),
  /** Save the language (null: follow the system); `languageChanged` follows. A tag Kairos does not speak fails on `language`. */
  setLanguage: (setting: string | null): Promise<LanguageInfo> => result((c) => c.setLanguage(setting)),
  /** The job the window was opened for (a clicked notification), once; null otherwise. */
  takeOpenJob: (): Promise<OpenJob | null> => plain((c) => c.takeOpenJob()),
  /** Every job's runs in [from, to) (RFC 3339), of these collection ids (null: all). */
  overview: (from: string, to: string, collections: string[] | null): Promise<OverviewResult> =>
    result((c) => c.overview(from, to, collections)),
  /** The runs of the jobs the filters keep, counted per quarter hour and category (the month view). */
  overviewCounts: (request: OverviewCountsRequest): Promise<OverviewCountsResult> =>
    result((c) => c.overviewCounts(request)),
  /** What importing the file would do (the report, nothing written). `PassphraseRequired`: ask for it. */
  importPreview: (request: ImportRequest): Promise<ImportResult> => result((c) => c.importPreview(request)),
  importRun: (request: ImportRequest): Promise<ImportResult> => result((c) => c.importRun(request)),
  exportCollection: (request: ExportRequest): Promise<ExportResult> => result((c) => c.exportCollection(request)),
  /** A job's history (every record with the status) to a CSV file. */
  exportHistory: (request: HistoryExportRequest): Promise<HistoryExportResult> =>
    result((c) => c.exportHistory(request)),
  /** Ask the update feed now (`automatic`: the skipped version is not offered). Failures carry an `Update…` code. */
  checkForUpdate: (automatic: boolean): Promise<UpdateCheck> => result((c) => c.checkForUpdate(automatic)),
  /** Download, verify and install what the last check found (`updateProgress` tells how far); returns only on failure. */
  installUpdate: (): Promise<null> => result((c) => c.installUpdate()),
  /** What the automatic check found before the page listened for `updateFound`, once; null otherwise. */
  takeUpdateOffer: (): Promise<UpdateCheck | null> => plain((c) => c.takeUpdateOffer()),
  /** Automatic checks no longer offer `version` (a newer one is offered again). */
  skipUpdate: (version: string): Promise<null> => result((c) => c.skipUpdate(version)),
  /** The releases page in the system's browser (an .rpm's way to new versions). */
  openReleasesPage: (): Promise<null> => result((c) => c.openReleasesPage()),
  getUpdateSettings: (): Promise<UpdateSettings> => result((c) => c.getUpdateSettings()),
  /** `feedUrl` empty: the release's own feed. `InvalidUpdateFeedUrl` names the field `feedUrl`. */
  setUpdateSettings: (autoCheck: boolean, feedUrl: string): Promise<UpdateSettings> =>
    result((c) => c.setUpdateSettings(autoCheck, feedUrl)),
};

export type PickPath = { kind: "file" | "directory" | "save"; defaultPath?: string; title?: string };

/**
 * The system's open or save dialog (tauri-plugin-dialog): the chosen path, or null when cancelled.
 * Outside Tauri (the development fake) the browser's prompt stands in.
 */
export async function pickPath({ kind, defaultPath, title }: PickPath): Promise<string | null> {
  if (!inTauri) return window.prompt(title ?? "Path", defaultPath ?? "") || null;
  const dialog = await import("@tauri-apps/plugin-dialog");
  const chosen =
    kind === "save"
      ? await dialog.save({ defaultPath, title })
      : await dialog.open({ directory: kind === "directory", multiple: false, defaultPath, title });
  return typeof chosen === "string" ? chosen : null;
}

/** Subscribes at once and returns the unsubscribe (listening itself is asynchronous in Tauri). */
function subscribe<T>(pick: (b: Backend) => Listen<T>, cb: (payload: T) => void): () => void {
  let stop: (() => void) | null = null;
  let cancelled = false;
  getBackend()
    .then((b) => pick(b)((e) => cb(e.payload)))
    .then((un) => {
      if (cancelled) un();
      else stop = un;
    })
    .catch((e) => console.error("event subscription failed", e));
  return () => {
    cancelled = true;
    stop?.();
  };
}

export const onEngineChanged = (cb: (e: EngineChanged) => void) => subscribe((b) => b.events.engineChanged.listen, cb);
export const onOpenJob = (cb: (e: OpenJob) => void) => subscribe((b) => b.events.openJob.listen, cb);
/** The language setting changed (this window's Settings): switch the catalog to `resolved`. */
export const onLanguageChanged = (cb: (e: LanguageInfo) => void) =>
  subscribe((b) => b.events.languageChanged.listen, cb);
/** An automatic check found a new version (not a skipped one). */
export const onUpdateFound = (cb: (e: UpdateCheck) => void) => subscribe((b) => b.events.updateFound.listen, cb);
/** How far an install has come. */
export const onUpdateProgress = (cb: (e: UpdateProgress) => void) =>
  subscribe((b) => b.events.updateProgress.listen, cb);
