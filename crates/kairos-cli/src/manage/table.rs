//! Tables for people: aligned columns, a header, and colors only when stdout is a terminal
//! (and `NO_COLOR` is not set), so a pipe gets plain text.

use std::io::IsTerminal;

/// The color of a cell.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tone {
    Plain,
    Good,
    Warning,
    Bad,
    Dim,
}

impl Tone {
    fn code(self) -> Option<&'static str> {
        match self {
            Tone::Plain => None,
            Tone::Good => Some("32"),
            Tone::Warning => Some("33"),
            Tone::Bad => Some("31"),
            Tone::Dim => Some("2"),
        }
    }

    /// The tone of a job or collection state, or of a history status.
    pub fn of(word: &str) -> Tone {
        match word {
            "Enabled" | "Completed" => Tone::Good,
            "Disabled" | "Postponed" | "Suspended" => Tone::Warning,
            "Faulted" | "Failed" => Tone::Bad,
            "" | "-" => Tone::Dim,
            _ => Tone::Plain,
        }
    }
}

/// Should output be colored? Only on a terminal, never with `NO_COLOR`.
pub fn colored() -> bool {
    std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
}

pub struct Table {
    header: Vec<&'static str>,
    rows: Vec<Vec<(String, Tone)>>,
}

impl Table {
    pub fn new(header: &[&'static str]) -> Table {
        Table {
            header: header.to_vec(),
            rows: Vec::new(),
        }
    }

    pub fn row(&mut self, cells: Vec<(String, Tone)>) {
        self.rows.push(cells);
    }

    /// The table as text, one line per row, columns separated by two spaces; the last column is
    /// not padded.
    pub fn render(&self, color: bool) -> String {
        let width = |i: usize| {
            self.rows
                .iter()
                .filter_map(|r| r.get(i))
                .map(|(text, _)| text.chars().count())
                .chain([self.header[i].chars().count()])
                .max()
                .unwrap_or(0)
        };
        let widths: Vec<usize> = (0..self.header.len()).map(width).collect();
        let mut out = String::new();
        let header: Vec<(String, Tone)> = self
            .header
            .iter()
            .map(|h| (h.to_string(), Tone::Plain))
            .collect();
        for (n, row) in std::iter::once(&header).chain(&self.rows).enumerate() {
            let mut line = String::new();
            for (i, (text, tone)) in row.iter().enumerate() {
                let last = i + 1 == row.len();
                let pad = if last {
                    0
                } else {
                    widths[i].saturating_sub(text.chars().count()) + 2
                };
                let code = if n == 0 { Some("1") } else { tone.code() };
                match code.filter(|_| color) {
                    Some(code) => line.push_str(&format!("\x1b[{code}m{text}\x1b[0m")),
                    None => line.push_str(text),
                }
                line.push_str(&" ".repeat(pad));
            }
            out.push_str(line.trim_end());
            out.push('\n');
        }
        out
    }
}

/// Key-value lines for one resource (`jobs show`): keys aligned.
pub fn fields(pairs: &[(&str, String)], color: bool) -> String {
    let width = pairs.iter().map(|(k, _)| k.len()).max().unwrap_or(0);
    let mut out = String::new();
    for (key, value) in pairs {
        let label = format!("{key}:");
        let padded = format!("{label:width$}", width = width + 1);
        if color {
            out.push_str(&format!("\x1b[1m{padded}\x1b[0m  {value}\n"));
        } else {
            out.push_str(&format!("{padded}  {value}\n"));
        }
    }
    out
}

/// At most `max` characters, with `…` when cut; line breaks become spaces.
pub fn shorten(text: &str, max: usize) -> String {
    let flat: String = text
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    if flat.chars().count() <= max {
        return flat;
    }
    let mut cut: String = flat.chars().take(max.saturating_sub(1)).collect();
    cut.push('…');
    cut
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_line_up_and_colors_are_optional() {
        let mut t = Table::new(&["NAME", "STATE"]);
        t.row(vec![
            ("a".into(), Tone::Plain),
            ("Enabled".into(), Tone::Good),
        ]);
        t.row(vec![
            ("longer".into(), Tone::Plain),
            ("Disabled".into(), Tone::Warning),
        ]);
        assert_eq!(
            t.render(false),
            "NAME    STATE\na       Enabled\nlonger  Disabled\n"
        );
        assert!(t.render(true).contains("\x1b[32mEnabled\x1b[0m"));
        assert_eq!(shorten("ab\ncd", 10), "ab cd");
        assert_eq!(shorten("abcdef", 4), "abc…");
    }
}
