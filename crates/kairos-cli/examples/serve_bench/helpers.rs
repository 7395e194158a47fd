//! Small helpers: percentiles, medians, times and sizes.

use super::*;

#[derive(Debug, Clone, Copy)]
pub(crate) struct Percentiles {
    pub(crate) min: f64,
    pub(crate) p50: f64,
    pub(crate) p99: f64,
    pub(crate) max: f64,
    pub(crate) count: usize,
}

impl Percentiles {
    /// Nearest-rank percentiles of values in ms.
    pub(crate) fn of(mut values: Vec<f64>) -> Percentiles {
        values.sort_by(f64::total_cmp);
        let at = |q: f64| {
            if values.is_empty() {
                f64::NAN
            } else {
                values[((values.len() as f64 * q).ceil() as usize).clamp(1, values.len()) - 1]
            }
        };
        Percentiles {
            min: values.first().copied().unwrap_or(f64::NAN),
            p50: at(0.50),
            p99: at(0.99),
            max: at(1.0),
            count: values.len(),
        }
    }
}

impl std::fmt::Display for Percentiles {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "min {:.1} ms, p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms (n = {})",
            self.min, self.p50, self.p99, self.max, self.count
        )
    }
}

pub(crate) fn median(values: impl Iterator<Item = f64>) -> f64 {
    let mut values: Vec<f64> = values.collect();
    if values.is_empty() {
        return f64::NAN;
    }
    values.sort_by(f64::total_cmp);
    let mid = values.len() / 2;
    if values.len() % 2 == 1 {
        values[mid]
    } else {
        (values[mid - 1] + values[mid]) / 2.0
    }
}

pub(crate) fn now_ms() -> i64 {
    chrono::Utc::now().timestamp_millis()
}

pub(crate) fn ceil_second(ms: i64) -> i64 {
    (ms + 999) / 1_000 * 1_000
}

pub(crate) fn format_ms(ms: i64) -> String {
    chrono::DateTime::from_timestamp_millis(ms)
        .expect("a time")
        .format("%Y-%m-%dT%H:%M:%SZ")
        .to_string()
}

pub(crate) fn opt_ms(ms: Option<f64>) -> String {
    ms.map_or_else(|| "never".to_string(), |ms| format!("+{ms:.0} ms"))
}

pub(crate) fn join_ms(values: &[f64]) -> String {
    values
        .iter()
        .map(|v| format!("{v:.0}"))
        .collect::<Vec<_>>()
        .join(", ")
}

pub(crate) fn mb(kb: u64) -> String {
    format!("{:.1}", kb as f64 / 1_024.0)
}

pub(crate) fn file_mb(path: &Path) -> f64 {
    std::fs::metadata(path).map_or(0.0, |m| m.len() as f64 / 1_048_576.0)
}
