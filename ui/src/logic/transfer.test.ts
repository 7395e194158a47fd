import { describe, expect, it } from "vitest";
import type { ImportResult } from "../ipc/types";
import {
  checkExport,
  errorsByField,
  exportFileName,
  formatFor,
  importCounts,
  importFields,
  importSummary,
  looksLikeCrontab,
  reportRows,
} from "./transfer";

const item = (outcome: string, job: string | null = "j", extra: Partial<ImportResult["items"][number]> = {}) => ({
  collection: "c",
  collectionId: "local/desktop/c",
  job,
  source: job ? "resources[1]" : null,
  outcome,
  reason: null,
  code: null,
  ...extra,
});

const result = (r: Partial<ImportResult>): ImportResult => ({
  format: "Template",
  written: false,
  dryRun: false,
  blocked: false,
  items: [],
  problems: [],
  notes: [],
  ...r,
});

describe("format", () => {
  it("names a crontab by its file name, and leaves JSON to the backend", () => {
    expect(looksLikeCrontab("/home/me/crontab")).toBe(true);
    expect(looksLikeCrontab("C:\\backup\\jobs.cron")).toBe(true);
    expect(looksLikeCrontab("/tmp/old.crontab")).toBe(true);
    expect(looksLikeCrontab("/tmp/crontab.bak")).toBe(true);
    expect(looksLikeCrontab("/tmp/jobs.json")).toBe(false);
    expect(formatFor("/tmp/jobs.json", "auto")).toBe(null);
    expect(formatFor("/tmp/crontab", "auto")).toBe("Crontab");
    expect(formatFor("/tmp/crontab", "Template")).toBe("Template");
  });

  it("shows the fields each format takes", () => {
    expect(importFields(null, false)).toEqual({ parameters: true, collection: false, passphrase: false });
    expect(importFields("Crontab", false)).toEqual({ parameters: false, collection: true, passphrase: false });
    expect(importFields("Bundle", false).passphrase).toBe(true);
    expect(importFields(null, true).passphrase).toBe(true);
  });
});

describe("report", () => {
  it("says would create in a preview, created after the import, and lists problems and notes last", () => {
    const items = [item("Created", null), item("Created"), item("Skipped", "old", { reason: "the job exists" })];
    const preview = result({
      dryRun: true,
      items,
      problems: [{ source: "line 3", reason: "bad" }],
      notes: [{ source: "line 1", reason: "MAILTO" }],
    });
    const rows = reportRows(preview);
    expect(rows.map((r) => r.outcome)).toEqual(["would create", "would create", "skipped", "refused", "note"]);
    expect(rows[2].why).toBe("the job exists");
    expect(rows[3]).toMatchObject({ source: "line 3", tone: "bad" });
    const done = reportRows(result({ written: true, items }));
    expect(done.map((r) => [r.outcome, r.tone])).toEqual([
      ["created", "good"],
      ["created", "good"],
      ["skipped", "warn"],
    ]);
  });

  it("counts jobs only, and says why nothing was written", () => {
    const items = [
      item("Kept", null),
      item("Created"),
      item("Failed", "bad", { code: "BadRequest" }),
      item("Replaced", "r"),
    ];
    expect(importCounts(result({ items }))).toEqual({ created: 1, replaced: 1, skipped: 0, failed: 1, refused: 0 });
    expect(importSummary(result({ items }))).toMatch(
      /^Jobs: 1 to create, 1 to replace, 1 failed; nothing was written \(all or nothing/,
    );
    expect(importSummary(result({ items: [item("Created")], dryRun: true }))).toBe(
      "Jobs: 1 to create; a preview: nothing was written.",
    );
    expect(importSummary(result({ items: [item("Created")], written: true }))).toBe("Jobs: 1 created.");
    expect(
      importSummary(
        result({ items: [item("Created")], blocked: true, problems: [{ source: "resources[0]", reason: "x" }] }),
      ),
    ).toMatch(/1 refused; nothing was written/);
    expect(importSummary(result({ items: [item("Skipped")] }))).toBe("Jobs: 0 to create, 1 skipped; nothing to write.");
  });
});

describe("errors and the export form", () => {
  it("puts each error on its field, the rest at the top", () => {
    const by = errorsByField(
      [
        { path: "passphrase", code: "PassphraseWrong", message: "wrong" },
        { path: "elsewhere", code: "X", message: "other" },
      ],
      ["path", "passphrase"],
    );
    expect(by).toEqual({ passphrase: ["wrong"], "": ["other"] });
  });

  it("asks for a path, and a passphrase given twice alike for secrets", () => {
    const base = { format: "Bundle" as const, withSecrets: false, passphrase: "", again: "", path: "/tmp/x.json" };
    expect(checkExport(base)).toEqual([]);
    expect(checkExport({ ...base, path: " " }).map((e) => e.path)).toEqual(["path"]);
    expect(checkExport({ ...base, withSecrets: true }).map((e) => e.path)).toEqual(["passphrase"]);
    expect(checkExport({ ...base, withSecrets: true, passphrase: "a", again: "b" }).map((e) => e.path)).toEqual([
      "again",
    ]);
    expect(checkExport({ ...base, withSecrets: true, passphrase: "a", again: "a" })).toEqual([]);
    expect(checkExport({ ...base, format: "Template", withSecrets: true })).toEqual([]);
  });

  it("offers a file name per format", () => {
    expect(exportFileName("nightly jobs", "Bundle")).toBe("nightly-jobs.kairos.json");
    expect(exportFileName("n", "Template")).toBe("n.template.json");
    expect(exportFileName("n", "Crontab")).toBe("n.crontab");
  });
});
