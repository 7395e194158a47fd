// An import's report: each collection and job with its outcome and why, then the file's problems
// ("refused") and notes, and the counts (the same words as `kairos import`).
import { i18n } from "@lingui/core";
import type { ImportResult } from "../../ipc";
import { importSummary, reportRows } from "../../logic/transfer";

export function ReportTable({ result }: { result: ImportResult }) {
  const rows = reportRows(result);
  return (
    <section
      id="import-report"
      aria-label={i18n._("Import report")}
      data-written={String(result.written)}
      data-dry-run={String(result.dryRun)}
    >
      <p id="import-summary" class={result.written ? "" : "muted"}>
        {importSummary(result)}
      </p>
      <div class="report-scroll">
        <table class="report-table striped">
          <thead>
            <tr>
              <th>{i18n._("Outcome")}</th>
              <th>{i18n._("Collection")}</th>
              <th>{i18n._("Job")}</th>
              <th>{i18n._("From")}</th>
              <th>{i18n._("Why")}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.key} data-testid={r.job ? `import-row-${r.job}` : undefined} data-outcome={r.code}>
                <td class={`outcome tone-${r.tone}`}>{r.outcome}</td>
                <td>{r.collection || "–"}</td>
                <td>{r.job || "–"}</td>
                <td class="mono">{r.source || "–"}</td>
                <td class="why">{r.why || "–"}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
