//! The five time fields of a crontab line (minute, hour, day of month, month, day of week) and
//! the `@` shorthands, read as cronie and Vixie cron read them: lists, ranges, steps, month and
//! weekday names, `7` for Sunday. What those crons reject, or read in ways that differ between
//! crons (`5/10`, `~`, `?`, `L`, `W`), is refused with the rule it breaks.

/// The fields of one line as sets (bit `n` = value `n`), and which of them start with `*`:
/// cron's day rule and its daylight-saving rule both depend on that spelling.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CronFields {
    pub minutes: u64,
    pub hours: u64,
    /// Days of the month, bits 1..=31.
    pub month_days: u64,
    /// Months, bits 1..=12.
    pub months: u64,
    /// Days of the week, bits 0..=6 (0 = Sunday).
    pub week_days: u64,
    pub minute_star: bool,
    pub hour_star: bool,
    pub month_day_star: bool,
    pub week_day_star: bool,
}

/// Every value of a field, as a set.
pub const ALL_MINUTES: u64 = (1 << 60) - 1;
pub const ALL_HOURS: u64 = (1 << 24) - 1;
pub const ALL_MONTH_DAYS: u64 = ((1 << 32) - 1) & !1;
pub const ALL_MONTHS: u64 = ((1 << 13) - 1) & !1;
pub const ALL_WEEK_DAYS: u64 = (1 << 7) - 1;

const MONTH_NAMES: [&str; 12] = [
    "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
];
const DAY_NAMES: [&str; 7] = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"];

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Field {
    Minute,
    Hour,
    MonthDay,
    Month,
    WeekDay,
}

impl Field {
    fn label(self) -> &'static str {
        match self {
            Field::Minute => "minute",
            Field::Hour => "hour",
            Field::MonthDay => "day-of-month",
            Field::Month => "month",
            Field::WeekDay => "day-of-week",
        }
    }

    fn bounds(self) -> (u32, u32) {
        match self {
            Field::Minute => (0, 59),
            Field::Hour => (0, 23),
            Field::MonthDay => (1, 31),
            Field::Month => (1, 12),
            // 7 is Sunday too, as in every cron.
            Field::WeekDay => (0, 7),
        }
    }

    fn names(self) -> &'static [&'static str] {
        match self {
            Field::Month => &MONTH_NAMES,
            Field::WeekDay => &DAY_NAMES,
            _ => &[],
        }
    }
}

/// What an `@` shorthand stands for. `@reboot` has no time fields: the caller refuses it.
pub fn shorthand(word: &str) -> Option<[&'static str; 5]> {
    Some(match word.to_ascii_lowercase().as_str() {
        "@yearly" | "@annually" => ["0", "0", "1", "1", "*"],
        "@monthly" => ["0", "0", "1", "*", "*"],
        "@weekly" => ["0", "0", "*", "*", "0"],
        "@daily" | "@midnight" => ["0", "0", "*", "*", "*"],
        "@hourly" => ["0", "*", "*", "*", "*"],
        _ => return None,
    })
}

/// Read the five fields, in crontab order.
pub fn parse_fields(fields: [&str; 5]) -> Result<CronFields, String> {
    let week_days = parse_field(fields[4], Field::WeekDay)?;
    // 7 is Sunday.
    let week_days = (week_days & ALL_WEEK_DAYS) | ((week_days >> 7) & 1);
    Ok(CronFields {
        minutes: parse_field(fields[0], Field::Minute)?,
        hours: parse_field(fields[1], Field::Hour)?,
        month_days: parse_field(fields[2], Field::MonthDay)?,
        months: parse_field(fields[3], Field::Month)?,
        week_days,
        minute_star: fields[0].starts_with('*'),
        hour_star: fields[1].starts_with('*'),
        month_day_star: fields[2].starts_with('*'),
        week_day_star: fields[4].starts_with('*'),
    })
}

fn parse_field(text: &str, field: Field) -> Result<u64, String> {
    let label = field.label();
    let (low, high) = field.bounds();
    let mut bits = 0u64;
    for item in text.split(',') {
        let bad = |rule: String| Err(format!("the {label} field '{text}': {rule}"));
        if item.is_empty() {
            return bad("a list has an empty item".into());
        }
        let (range, step) = match item.split_once('/') {
            Some((range, step)) => match number(step) {
                Some(s) if s >= 1 => (range, Some(s)),
                _ => return bad(format!("the step in '{item}' must be a number, 1 or more")),
            },
            None => (item, None),
        };
        let (first, last) = if range == "*" {
            (low, high)
        } else if let Some((a, b)) = range.split_once('-') {
            (value(a, field)?, value(b, field)?)
        } else {
            let v = value(range, field)?;
            if step.is_some() {
                // cronie and Vixie cron reject it; other crons read it as `v-high/step`.
                return bad(format!(
                    "'{item}' is read differently by different crons; write {range}-{high}/{}",
                    step.unwrap_or(1)
                ));
            }
            (v, v)
        };
        if first > last {
            return bad(format!(
                "the range '{range}' goes downward; cron ranges go from low to high"
            ));
        }
        let step = usize::try_from(step.unwrap_or(1)).unwrap_or(usize::MAX);
        for v in (first..=last).step_by(step) {
            bits |= 1 << v;
        }
    }
    Ok(bits)
}

fn number(text: &str) -> Option<u32> {
    if text.is_empty() || text.len() > 4 || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse().ok()
}

fn value(text: &str, field: Field) -> Result<u32, String> {
    let label = field.label();
    let (low, high) = field.bounds();
    if let Some(n) = number(text) {
        if (low..=high).contains(&n) {
            return Ok(n);
        }
        return Err(format!(
            "the {label} field: {n} is out of range ({low} to {high})"
        ));
    }
    let lower = text.to_ascii_lowercase();
    if let Some(i) = field.names().iter().position(|n| *n == lower) {
        let first = if field == Field::Month { 1 } else { 0 };
        return Ok(u32::try_from(i).unwrap_or(0) + first);
    }
    let expected = match field {
        Field::Month => "a number 1 to 12 or a name jan to dec",
        Field::WeekDay => "a number 0 to 7 or a name sun to sat",
        _ => "a number",
    };
    Err(format!(
        "the {label} field: '{text}' is not {expected} (ranges, steps, lists and * are allowed)"
    ))
}

/// The values of a set, ascending.
pub fn values(bits: u64) -> impl Iterator<Item = u32> {
    (0..64).filter(move |v| bits & (1 << v) != 0)
}
