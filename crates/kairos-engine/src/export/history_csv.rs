//! A job's history as CSV (RFC 4180: comma-separated, CRLF line ends, fields quoted when they
//! hold a comma, a quote or a line break) for a spreadsheet: `kairos history --csv` and the
//! window's "Export CSV…" write the same file.
//!
//! A spreadsheet runs a cell that starts with `=`, `+`, `-` or `@` as a formula, and a history
//! message holds what a target answered: such a cell is written with a leading `'`, which
//! spreadsheets show as text (OWASP, "CSV injection").

use serde_json::Value;

/// The columns, in order: the record's fields as the API names them.
pub const HISTORY_CSV_COLUMNS: [&str; 8] = [
    "expectedExecutionTime",
    "startTime",
    "endTime",
    "actionName",
    "status",
    "retryCount",
    "repeatCount",
    "message",
];

/// `records` (history records as the API returns them, `{"properties": {...}}`, newest first)
/// as CSV with a header line.
pub fn history_csv(records: &[Value]) -> String {
    let mut out = line(HISTORY_CSV_COLUMNS.iter().map(|c| c.to_string()));
    for record in records {
        let properties = &record["properties"];
        out.push_str(&line(HISTORY_CSV_COLUMNS.iter().map(
            |column| match &properties[*column] {
                Value::Null => String::new(),
                Value::String(s) => s.clone(),
                other => other.to_string(),
            },
        )));
    }
    out
}

fn line(fields: impl Iterator<Item = String>) -> String {
    let mut line = fields.map(|f| cell(&f)).collect::<Vec<_>>().join(",");
    line.push_str("\r\n");
    line
}

fn cell(text: &str) -> String {
    let text = if text.starts_with(['=', '+', '-', '@', '\t', '\r']) {
        format!("'{text}")
    } else {
        text.to_string()
    };
    if text.contains([',', '"', '\r', '\n']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn check(message: &str, written: &str) {
        let record =
            json!({"properties": {"status": "Failed", "message": message, "retryCount": 2}});
        let csv = history_csv(&[record]);
        let row = csv.split("\r\n").nth(1).unwrap_or_default();
        assert_eq!(row, format!(",,,,Failed,2,,{written}"), "{message:?}");
    }

    #[test]
    fn cells_are_quoted_and_formulas_neutralised() {
        check("plain", "plain");
        check("a, b", "\"a, b\"");
        check("say \"hi\"", "\"say \"\"hi\"\"\"");
        check("two\nlines", "\"two\nlines\"");
        check(
            "=HYPERLINK(\"http://x\")",
            "\"'=HYPERLINK(\"\"http://x\"\")\"",
        );
        check("+1", "'+1");
        check("-1", "'-1");
        check("@SUM(A1)", "'@SUM(A1)");
        check("", "");
    }

    #[test]
    fn a_header_then_one_line_per_record_in_order() {
        let records = [
            json!({"properties": {"expectedExecutionTime": "2026-11-25T08:00:00Z", "startTime": "2026-11-25T08:00:00.012Z",
                "endTime": "2026-11-25T08:00:00.250Z", "actionName": "MainAction", "status": "Completed",
                "retryCount": 0, "repeatCount": 3, "message": "Http Action - Response from host 'a': 'OK'"}}),
            json!({"properties": {"status": "Postponed"}}),
        ];
        assert_eq!(
            history_csv(&records),
            "expectedExecutionTime,startTime,endTime,actionName,status,retryCount,repeatCount,message\r\n\
             2026-11-25T08:00:00Z,2026-11-25T08:00:00.012Z,2026-11-25T08:00:00.250Z,MainAction,Completed,0,3,Http Action - Response from host 'a': 'OK'\r\n\
             ,,,,Postponed,,,\r\n"
        );
    }
}
