//! Writing sets of values as cron fields: `*`, `*/n`, ranges and lists.

use super::fields::values;

/// The shortest plain spelling of a set (never starting with `*`): `1-5,10,20-23`.
pub fn plain(bits: u64) -> String {
    let vals: Vec<u32> = values(bits).collect();
    let mut parts = Vec::new();
    let mut i = 0;
    while i < vals.len() {
        let mut j = i;
        while j + 1 < vals.len() && vals[j + 1] == vals[j] + 1 {
            j += 1;
        }
        if j >= i + 2 {
            parts.push(format!("{}-{}", vals[i], vals[j]));
        } else {
            for v in &vals[i..=j] {
                parts.push(v.to_string());
            }
        }
        i = j + 1;
    }
    parts.join(",")
}

/// The spelling starting with `*` (`*` or `*/n`), when the set is one of those.
pub fn starred(bits: u64, low: u32, high: u32) -> Option<String> {
    (1..=high - low).find_map(|step| {
        let set = (low..=high)
            .step_by(step as usize)
            .fold(0u64, |acc, v| acc | (1 << v));
        (set == bits).then(|| {
            if step == 1 {
                "*".to_string()
            } else {
                format!("*/{step}")
            }
        })
    })
}
