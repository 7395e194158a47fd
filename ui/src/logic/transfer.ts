// Import and export dialogs, the parts that are not drawing: which format a file is, what the
// report's rows and summary say, which dialog field an error belongs to, and the export form's
// own checks (docs/semantics.md, "Import and export").
import { i18n } from "@lingui/core";
import { currentLocale, intlLocale } from "../i18n/locales";
import type { FieldError, ImportResult, ImportResultItem, TransferFormat } from "../ipc/types";
import { fieldErrorText } from "./fieldErrorMessages";

/** What the format select offers: "auto" tells a bundle from a template by its JSON. */
export type FormatChoice = "auto" | TransferFormat;

/** A crontab is plain text: named by the user, or by its file name (`crontab`, `*.cron`, `*.crontab`). */
export function looksLikeCrontab(path: string): boolean {
  const name = path.trim().split(/[\\/]/).pop()?.toLowerCase() ?? "";
  return name === "crontab" || name.endsWith(".cron") || name.endsWith(".crontab") || name.startsWith("crontab.");
}

/** The format to ask the backend for: the user's choice, else Crontab by the file's name, else null (JSON: told by the backend). */
export function formatFor(path: string, choice: FormatChoice): TransferFormat | null {
  if (choice !== "auto") return choice;
  return looksLikeCrontab(path) ? "Crontab" : null;
}

/** Which optional fields the import dialog shows for a format (null: not known yet, a JSON file). */
export function importFields(format: TransferFormat | null, passphraseAsked: boolean) {
  return {
    parameters: format !== "Bundle" && format !== "Crontab",
    collection: format === "Crontab",
    passphrase: passphraseAsked || format === "Bundle",
  };
}

export type ReportRow = {
  key: string;
  collection: string;
  job: string;
  source: string;
  /** The outcome in the window's language. */
  outcome: string;
  /** The outcome in `kairos import`'s words ("would create"), the same in every language. */
  code: string;
  tone: "good" | "bad" | "warn" | "dim" | "plain";
  why: string;
};

/** The word in the OUTCOME column, as `kairos import` prints it ("would create" when nothing was written). */
export function outcomeCode(
  item: Pick<ImportResultItem, "outcome">,
  result: Pick<ImportResult, "written" | "dryRun">,
): string {
  const notWritten = result.dryRun || !result.written;
  switch (item.outcome) {
    case "Created":
      return notWritten ? "would create" : "created";
    case "Replaced":
      return notWritten ? "would replace" : "replaced";
    default:
      return item.outcome.toLowerCase();
  }
}

/** An outcome code (`outcomeCode`, "refused", "note") in the window's language. */
export function outcomeText(code: string): string {
  switch (code) {
    case "would create":
      return i18n._("would create");
    case "created":
      return i18n._("created");
    case "would replace":
      return i18n._("would replace");
    case "replaced":
      return i18n._("replaced");
    case "kept":
      return i18n._("kept");
    case "skipped":
      return i18n._("skipped");
    case "failed":
      return i18n._("failed");
    case "refused":
      return i18n._("refused");
    case "note":
      return i18n._("note");
    default:
      return code;
  }
}

/** The word in the OUTCOME column in the window's language. */
export function outcomeWord(
  item: Pick<ImportResultItem, "outcome">,
  result: Pick<ImportResult, "written" | "dryRun">,
): string {
  return outcomeText(outcomeCode(item, result));
}

function toneOf(item: ImportResultItem, result: ImportResult): ReportRow["tone"] {
  const notWritten = result.dryRun || !result.written;
  switch (item.outcome) {
    case "Created":
    case "Replaced":
      return notWritten ? "plain" : "good";
    case "Kept":
      return "dim";
    case "Skipped":
      return "warn";
    case "Failed":
      return "bad";
    default:
      return "plain";
  }
}

/** Every row of the report table: items in file order, then the file's problems ("refused") and notes. */
export function reportRows(result: ImportResult): ReportRow[] {
  const rows: ReportRow[] = result.items.map((i, n) => ({
    key: `item-${n}`,
    collection: i.collection,
    job: i.job ?? "",
    source: i.source ?? "",
    outcome: outcomeWord(i, result),
    code: outcomeCode(i, result),
    tone: toneOf(i, result),
    why: i.reason ?? "",
  }));
  for (const [n, p] of result.problems.entries()) {
    rows.push({
      key: `problem-${n}`,
      collection: "",
      job: "",
      source: p.source,
      outcome: outcomeText("refused"),
      code: "refused",
      tone: "bad",
      why: p.reason,
    });
  }
  for (const [n, p] of result.notes.entries()) {
    rows.push({
      key: `note-${n}`,
      collection: "",
      job: "",
      source: p.source,
      outcome: outcomeText("note"),
      code: "note",
      tone: "dim",
      why: p.reason,
    });
  }
  return rows;
}

export type ImportCounts = { created: number; replaced: number; skipped: number; failed: number; refused: number };

/** Jobs by outcome (collections are not counted), and the file's problems. */
export function importCounts(result: ImportResult): ImportCounts {
  const jobs = result.items.filter((i) => i.job);
  const n = (o: string) => jobs.filter((i) => i.outcome === o).length;
  return {
    created: n("Created"),
    replaced: n("Replaced"),
    skipped: n("Skipped"),
    failed: n("Failed"),
    refused: result.problems.length,
  };
}

/** The summary under the table, e.g. "Jobs: 4 created, 1 skipped." or "…; nothing was written (all or nothing: …)". */
export function importSummary(result: ImportResult): string {
  const c = importCounts(result);
  const done = result.written && !result.dryRun;
  const parts = [
    done
      ? i18n._("{count, plural, other {# created}}", { count: c.created })
      : i18n._("{count, plural, other {# to create}}", { count: c.created }),
  ];
  if (c.replaced) {
    parts.push(
      done
        ? i18n._("{count, plural, other {# replaced}}", { count: c.replaced })
        : i18n._("{count, plural, other {# to replace}}", { count: c.replaced }),
    );
  }
  if (c.skipped) parts.push(i18n._("{count, plural, other {# skipped}}", { count: c.skipped }));
  if (c.failed) parts.push(i18n._("{count, plural, other {# failed}}", { count: c.failed }));
  if (c.refused) parts.push(i18n._("{count, plural, other {# refused}}", { count: c.refused }));
  // The counts are a list ("4 created, 1 skipped"), written as the language writes lists.
  const counts = new Intl.ListFormat(intlLocale(currentLocale()), { type: "unit", style: "long" }).format(parts);
  if (result.dryRun) return i18n._("Jobs: {counts}; a preview: nothing was written.", { counts });
  if (!result.written && (c.failed || c.refused || result.blocked)) {
    return i18n._(
      "Jobs: {counts}; nothing was written (all or nothing: fix what failed, or import the rest with “Continue on error”).",
      { counts },
    );
  }
  if (!result.written) return i18n._("Jobs: {counts}; nothing to write.", { counts });
  return i18n._("Jobs: {counts}.", { counts });
}

/** Field errors of the dialog by field (`path`, `passphrase`, …); errors of no known field under "". */
export function errorsByField(errors: FieldError[], fields: readonly string[]): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const e of errors) {
    const at = fields.includes(e.path) ? e.path : "";
    (out[at] ??= []).push(fieldErrorText(e));
  }
  return out;
}

export type ExportForm = {
  format: TransferFormat;
  withSecrets: boolean;
  passphrase: string;
  again: string;
  path: string;
};

/** What the export form can tell before asking the backend, by field. */
export function checkExport(f: ExportForm): FieldError[] {
  const errors: FieldError[] = [];
  const at = (path: string, message: string) => errors.push({ path, code: "Form", message });
  if (!f.path.trim()) at("path", i18n._("Choose where to save the file."));
  if (f.format === "Bundle" && f.withSecrets) {
    if (!f.passphrase) at("passphrase", i18n._("Give a passphrase to seal the secrets with."));
    else if (f.passphrase !== f.again) at("again", i18n._("The two passphrases differ."));
  }
  return errors;
}

/** A file name to offer in the save dialog. */
export function exportFileName(collection: string, format: TransferFormat): string {
  const base = collection.replace(/[^A-Za-z0-9._-]+/g, "-") || "collection";
  switch (format) {
    case "Bundle":
      return `${base}.kairos.json`;
    case "Template":
      return `${base}.template.json`;
    case "Crontab":
      return `${base}.crontab`;
  }
}
