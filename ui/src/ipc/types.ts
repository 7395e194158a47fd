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
  CommandError,
  EngineChanged,
  FieldError,
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
} from "./bindings";
export type {
  BusyMinute,
  OverviewCountsRequest_Serialize as OverviewCountsRequest,
  OverviewCountsResult,
  OverviewJob,
  OverviewResult,
  OverviewRuns,
} from "./bindings";

/** Job JSON (`any` in the generated bindings: the engine, not TypeScript, judges it). */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

export type Result<T, E> = { status: "ok"; data: T } | { status: "error"; error: E };
