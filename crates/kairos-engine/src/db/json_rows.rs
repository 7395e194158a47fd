//! A batch of rows bound as one JSON parameter and read back as a table, so one statement writes
//! a whole batch: on PostgreSQL every statement is a round trip to another process, and a burst
//! of 10,000 occurrences written row by row spent most of its time waiting on them. The SQL
//! text is the same whatever the batch's size, so it is prepared once per connection.

use super::Dialect;

/// A column's type as the statement reads it.
#[derive(Debug, Clone, Copy)]
pub enum JsonType {
    /// An integer (booleans too, as 0/1); JSON `null` reads as NULL.
    Int,
    /// Text; JSON `null` reads as NULL.
    Text,
}

/// `(SELECT … ) AS alias`: the JSON array of arrays bound as `?param` as a table whose columns
/// are `columns`, in the order of each inner array's values.
pub fn table(dialect: Dialect, param: usize, columns: &[(&str, JsonType)], alias: &str) -> String {
    let select: Vec<String> = columns
        .iter()
        .enumerate()
        .map(|(i, (name, ty))| match dialect {
            // `json_extract` gives a JSON number as an integer and a string as text.
            Dialect::Sqlite => format!("json_extract(value, '$[{i}]') AS {name}"),
            Dialect::Postgres => {
                let cast = match ty {
                    JsonType::Int => "bigint",
                    JsonType::Text => "text",
                };
                format!("(e->>{i})::{cast} AS {name}")
            }
        })
        .collect();
    let select = select.join(", ");
    match dialect {
        Dialect::Sqlite => format!("(SELECT {select} FROM json_each(?{param})) AS {alias}"),
        Dialect::Postgres => {
            format!("(SELECT {select} FROM json_array_elements(?{param}::json) AS e) AS {alias}")
        }
    }
}

/// The rows, as the JSON text `table` reads.
pub fn encode(rows: &[Vec<serde_json::Value>]) -> String {
    serde_json::to_string(rows).unwrap_or_else(|_| "[]".into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn check() {
        let columns = [("jid", JsonType::Int), ("message", JsonType::Text)];
        let cases = [
            (
                Dialect::Sqlite,
                "(SELECT json_extract(value, '$[0]') AS jid, json_extract(value, '$[1]') AS message FROM json_each(?3)) AS v",
            ),
            (
                Dialect::Postgres,
                "(SELECT (e->>0)::bigint AS jid, (e->>1)::text AS message FROM json_array_elements(?3::json) AS e) AS v",
            ),
        ];
        for (dialect, sql) in cases {
            assert_eq!(table(dialect, 3, &columns, "v"), sql, "{dialect:?}");
        }
    }
}
