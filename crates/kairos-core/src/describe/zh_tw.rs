//! Traditional Chinese sentences: 每月最後一個星期五 05:15（UTC）.
//!
//! Full-width punctuation (，、：（）「」), no spaces between Chinese and numbers, one space
//! between a day and the clock times that follow it (as in 2026年3月2日 05:15), no plural.

use super::join_with;
use super::shape::{
    Body, Clock, Clocks, DaySpan, DaysOfMonth, Description, End, HourSpans, Hours, Minutes,
    MonthDay, Nth, Pattern, Recurring, Times, Unit, Until, WeekDays, YearMonths,
};
use crate::model::JobState;
use crate::recurrence::DstAdjustment;
use chrono::{Datelike, NaiveDateTime};

const WEEKDAYS: [&str; 7] = [
    "星期一",
    "星期二",
    "星期三",
    "星期四",
    "星期五",
    "星期六",
    "星期日",
];

/// Ordinals of occurrences (up to the fifth) in Chinese numerals: 第三個, 倒數第二天.
const NUMERALS: [&str; 6] = ["零", "一", "二", "三", "四", "五"];

pub(super) fn sentence(d: &Description) -> String {
    let body = match &d.body {
        Body::OnceNow => "立即執行一次".to_string(),
        Body::OnceAt(t) => format!("於{}（UTC）執行一次", date_time(*t)),
        Body::Recurring(r) => recurring(r),
    };
    let state = match d.state {
        JobState::Enabled => return body,
        JobState::Disabled => "已停用",
        JobState::Faulted => "發生錯誤",
        JobState::Completed => "已完成",
    };
    format!("{state}：{body}")
}

fn recurring(r: &Recurring) -> String {
    let mut s = String::new();
    if r.after_creation_run {
        s.push_str("建立時執行一次，之後");
    }
    s.push_str(&pattern(r));
    if let Some(m) = &r.only_months {
        s.push_str(&format!("，僅限{}", months(m)));
    }
    if !r.blackouts.is_empty() {
        let names: Vec<String> = r.blackouts.iter().map(|n| format!("「{n}」")).collect();
        s.push_str(&format!("，{}封鎖期間除外", join(&names)));
    }
    s.push_str(&end(&r.end));
    s
}

/// 每天, 每2天, 每3個月 …
fn every(unit: Unit, interval: u32) -> String {
    let (one, many) = match unit {
        Unit::Minute => ("每分鐘", "分鐘"),
        Unit::Hour => ("每小時", "小時"),
        Unit::Day => ("每天", "天"),
        Unit::Week => ("每週", "週"),
        Unit::Month => ("每月", "個月"),
        Unit::Year => ("每年", "年"),
    };
    match interval {
        1 => one.to_string(),
        n => format!("每{n}{many}"),
    }
}

/// The period before the days it contains: 每週星期二, but 每2週的星期二.
fn period_of(unit: Unit, interval: u32) -> String {
    match interval {
        1 => every(unit, 1),
        n => format!("{}的", every(unit, n)),
    }
}

fn pattern(r: &Recurring) -> String {
    let every = every(r.unit, r.interval);
    match &r.pattern {
        Pattern::Minutely {
            minutes,
            hours,
            zone,
        } => {
            let minutes = minutes.as_ref().map(|m| match m {
                Minutes::Many { count, first, last } => {
                    format!("每小時第{first}至{last}分鐘之間的{count}個分鐘")
                }
                listed => format!("每小時的{}", minute_marks(listed)),
            });
            let limit = match (hours.as_ref().map(hour_spans), minutes) {
                (None, None) => return every,
                (Some(h), None) => h,
                (None, Some(m)) => m,
                (Some(h), Some(m)) => format!("{h}{m}"),
            };
            format!("{every}，僅在{limit}{}", zone_of(*zone))
        }
        Pattern::Hourly {
            minutes,
            hours,
            zone,
        } => {
            let mut s = match minutes {
                None => every,
                Some(Minutes::Many { count, first, last }) => {
                    format!("{every}在第{first}至{last}分鐘之間執行{count}次")
                }
                Some(listed) => format!("{every}的{}", minute_marks(listed)),
            };
            if let Some(h) = hours {
                s.push_str(&format!("，僅在{}", hour_spans(h)));
            }
            s + &zone_of(*zone)
        }
        Pattern::Daily { times: t } => format!("{every}{}", times(t)),
        Pattern::Weekly { days, times: t } => format!(
            "{}{}{}",
            period_of(r.unit, r.interval),
            week_days(days),
            times(t)
        ),
        Pattern::Monthly { days, times: t } => format!(
            "{}{}{}",
            period_of(r.unit, r.interval),
            days_of_month(days),
            times(t)
        ),
        Pattern::Yearly {
            days,
            months: m,
            times: t,
        } => {
            if let (DaysOfMonth::Same, YearMonths::Same) = (days, m) {
                return format!("{}同月同日{}", period_of(r.unit, r.interval), times(t));
            }
            // 每年3月1日 reads as a date; other combinations name the months first: 每年3月的最後一個星期五.
            let day = match days {
                DaysOfMonth::Anchor(d) => Some(*d),
                DaysOfMonth::Listed(items) => match items.as_slice() {
                    [MonthDay::Day(d)] => Some(*d),
                    _ => None,
                },
                DaysOfMonth::Same => None,
            };
            let when = match (m, day) {
                (YearMonths::Listed(m), Some(d)) if m.len() == 1 => format!("{}月{d}日", m[0] + 1),
                (YearMonths::Listed(m), _) => format!("{}的{}", months(m), days_of_month(days)),
                (YearMonths::Same, _) => format!("同一個月的{}", days_of_month(days)),
            };
            format!("{}{when}{}", period_of(r.unit, r.interval), times(t))
        }
    }
}

/// What follows the day: " 09:00和17:00（UTC）", "的同一時間" …
fn times(t: &Times) -> String {
    match t {
        Times::At { clocks, zone } => match clocks {
            Clocks::Listed(c) => {
                let items: Vec<String> = c.iter().map(Clock::to_string).collect();
                format!(" {}（{zone}）", join(&items))
            }
            Clocks::Many { count, first, last } => {
                format!("在{first}至{last}之間執行{count}次（{zone}）")
            }
        },
        Times::EveryHour { minutes, zone } => {
            let each = match minutes {
                Minutes::Many { count, first, last } => {
                    format!("每小時在第{first}至{last}分鐘之間執行{count}次")
                }
                listed => format!("每小時的{}", minute_marks(listed)),
            };
            format!("，{each}{}", zone_of(*zone))
        }
        Times::HoursAtCreationMinute { hours, zone } => {
            let which = match hours {
                Hours::Listed(h) => {
                    let items: Vec<String> = h.iter().map(|h| format!("{h:02}時")).collect();
                    join(&items)
                }
                Hours::Many { count, first, last } => {
                    format!("在{first:02}時至{last:02}時之間的{count}個小時")
                }
            };
            format!("{which}（{zone}），分鐘與建立時相同")
        }
        Times::SameTimeOfDay => "的同一時間".to_string(),
    }
}

/// 第0、15、30和45分鐘, or 第5分30秒 when the anchor's second matters.
fn minute_marks(m: &Minutes) -> String {
    match m {
        Minutes::Listed { minutes, second: 0 } => {
            let items: Vec<String> = minutes.iter().map(u32::to_string).collect();
            format!("第{}分鐘", join(&items))
        }
        Minutes::Listed { minutes, second } => {
            let items: Vec<String> = minutes.iter().map(|m| format!("{m}分{second}秒")).collect();
            format!("第{}", join(&items))
        }
        Minutes::Many { count, first, last } => format!("第{first}至{last}分鐘的{count}個分鐘"),
    }
}

/// 09:00至10:59和17:00至17:59之間.
fn hour_spans(h: &HourSpans) -> String {
    match h {
        HourSpans::Listed(spans) => {
            let items: Vec<String> = spans
                .iter()
                .map(|(a, b)| format!("{a:02}:00至{b:02}:59"))
                .collect();
            format!("{}之間", join(&items))
        }
        HourSpans::Many { count, first, last } => {
            format!("{first:02}:00至{last:02}:59之間的{count}個小時內")
        }
    }
}

fn week_days(days: &WeekDays) -> String {
    match days {
        WeekDays::Same => "同一個星期幾".to_string(),
        WeekDays::Listed(spans) => {
            let items: Vec<String> = spans
                .iter()
                .map(|s| match *s {
                    DaySpan::One(d) => WEEKDAYS[d as usize].to_string(),
                    DaySpan::Range(a, b) => {
                        format!("{}至{}", WEEKDAYS[a as usize], WEEKDAYS[b as usize])
                    }
                })
                .collect();
            join(&items)
        }
    }
}

fn days_of_month(days: &DaysOfMonth) -> String {
    match days {
        DaysOfMonth::Anchor(d) => format!("{d}日"),
        DaysOfMonth::Same => "同一天".to_string(),
        // Each occurrence is its own item (第一個星期五、最後一個星期五): a list nested in a
        // list of 、 would be ambiguous.
        DaysOfMonth::Listed(items) => {
            let items: Vec<String> = items.iter().flat_map(month_day).collect();
            join(&items)
        }
    }
}

fn month_day(item: &MonthDay) -> Vec<String> {
    match item {
        MonthDay::Day(d) => vec![format!("{d}日")],
        MonthDay::FromEnd(1) => vec!["最後一天".to_string()],
        MonthDay::FromEnd(n) => vec![format!("倒數第{}天", numeral(*n))],
        MonthDay::EveryWeekday(d) => vec![format!("每個{}", WEEKDAYS[*d as usize])],
        MonthDay::Weekday { day, nths } => nths
            .iter()
            .map(|n| {
                let which = match *n {
                    Nth::FromStart(n) => format!("第{}個", numeral(n)),
                    Nth::FromEnd(1) => "最後一個".to_string(),
                    Nth::FromEnd(n) => format!("倒數第{}個", numeral(n)),
                };
                format!("{which}{}", WEEKDAYS[*day as usize])
            })
            .collect(),
    }
}

fn numeral(n: u32) -> String {
    NUMERALS
        .get(n as usize)
        .map_or_else(|| n.to_string(), |s| (*s).to_string())
}

/// 1月、4月和7月.
fn months(months: &[u32]) -> String {
    let names: Vec<String> = months.iter().map(|m| format!("{}月", m + 1)).collect();
    join(&names)
}

fn end(e: &End) -> String {
    match e {
        End::Never => String::new(),
        End::Count(1) => "，僅執行1次".to_string(),
        End::Count(n) => format!("，共{n}次"),
        End::Until(u) => format!("，{}", until(u)),
        End::CountUntil(n, u) => format!("，最多{n}次，{}", until(u)),
    }
}

fn until(u: &Until) -> String {
    format!("直到{}（{}）", date_time(u.local), u.zone)
}

/// 2026年11月27日 05:15.
fn date_time(t: NaiveDateTime) -> String {
    format!(
        "{}年{}月{}日 {}",
        t.year(),
        t.month(),
        t.day(),
        Clock::of(t)
    )
}

fn zone_of(zone: Option<&str>) -> String {
    zone.map_or(String::new(), |z| format!("（{z}）"))
}

/// 甲、乙和丙.
fn join(items: &[String]) -> String {
    join_with(items, "、", "和")
}

// The preview's notes: what daylight saving and blackouts do to particular runs.

pub(super) fn dst_run(adjustment: DstAdjustment) -> &'static str {
    match adjustment {
        DstAdjustment::Moved => "已移動：這個當地時間不存在（日光節約時間）",
        DstAdjustment::Skipped => "已略過：這個當地時間不存在（日光節約時間）",
        DstAdjustment::Repeated => "重複：這個當地時間出現兩次（日光節約時間）",
    }
}

pub(super) fn dst_skipped(wall: NaiveDateTime, zone: &str) -> String {
    format!(
        "{}（{zone}）不存在（日光節約時間），略過該次執行",
        note_time(wall)
    )
}

pub(super) fn blackout(
    calendar: &str,
    skipped: Option<u64>,
    from: NaiveDateTime,
    until: Option<NaiveDateTime>,
) -> String {
    let what = match skipped {
        Some(n) => format!("{n}次執行"),
        None => "所有執行".to_string(),
    };
    let from = note_time(from);
    match until {
        Some(u) => format!(
            "封鎖期間「{calendar}」略過{from}至{}之間的{what}",
            note_time(u)
        ),
        None => format!("封鎖期間「{calendar}」自{from}起略過{what}"),
    }
}

/// 2026年3月29日（星期日）02:30.
fn note_time(t: NaiveDateTime) -> String {
    format!(
        "{}年{}月{}日（{}）{}",
        t.year(),
        t.month(),
        t.day(),
        WEEKDAYS[t.weekday().num_days_from_monday() as usize],
        t.format("%H:%M")
    )
}
