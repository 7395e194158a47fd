// The shapes the UI works with: what the backend sends (tauri-specta's `_Serialize` variants,
// whose optional fields are always present as null). Type-only, so importing it loads nothing.
export type {
  ApiInfo,
  Calendar,
  CalendarRange,
  CalendarWindow,
  CalendarPreviewJob_Serialize as CalendarPreviewJob,
  CalendarRun_Serialize as CalendarRun,
  CollectionPlan_Serialize as CollectionPlan,
  CollectionSummary,
  EngineChanged,
  LanguageInfo_Serialize as LanguageInfo,
  OpenJob,
  Settings,
  DesktopProblems_Serialize as DesktopProblems,
  HistoryAttempt_Serialize as HistoryAttempt,
  HistoryOccurrence_Serialize as HistoryOccurrence,
  JobDetail_Serialize as JobDetail,
  JobSummary_Serialize as JobSummary,
  ParsedJob_Serialize as ParsedJob,
  PreviewRequest_Serialize as PreviewRequest,
  PreviewResult,
  ExportRequest_Deserialize as ExportRequest,
  ExportResult,
  HistoryExportRequest_Deserialize as HistoryExportRequest,
  HistoryExportResult,
  HistoryPage_Serialize as HistoryPage,
  HistoryPageRequest_Deserialize as HistoryPageRequest,
  HistoryQuery_Deserialize as HistoryEngineQuery,
  RunningRun,
  ImportNote,
  TransferFormat,
  ImportRequest_Deserialize as ImportRequest,
  ImportResult_Serialize as ImportResult,
  ImportResultItem_Serialize as ImportResultItem,
  Deletion,
  UndoTicket,
  InstallKind,
  UpdateCheck_Serialize as UpdateCheck,
  UpdateProgress_Serialize as UpdateProgress,
  UpdateSettings_Serialize as UpdateSettings,
} from "./bindings";
import type { FieldError_Serialize as FieldErrorSent, RuleArg } from "./bindings";
export type { RuleArg } from "./bindings";
export type {
  BusyMinute,
  OverviewCountsRequest_Serialize as OverviewCountsRequest,
  OverviewCountsResult,
  OverviewJob,
  OverviewResult,
  OverviewRuns,
} from "./bindings";

/**
 * One rule a field broke, as the window handles it. The backend always sends `rule` (null when the
 * problem has none) and `args`; they are optional here so the window's own checks and the
 * stand-in backend can say a problem in words alone (`logic/fieldErrorMessages.ts` falls back
 * to `message`).
 */
export type FieldError = Omit<FieldErrorSent, "rule" | "args"> & {
  rule?: string | null;
  args?: { [key in string]: RuleArg };
};

/** Every command failure: the engine's code, a sentence, and the field errors when input was invalid. */
export type CommandError = { code: string; message: string; errors: FieldError[] };

/** Job JSON (`any` in the generated bindings: the engine, not TypeScript, judges it). */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

export type Result<T, E> = { status: "ok"; data: T } | { status: "error"; error: E };
