//! The tray menu's texts for an overview, in the chosen language (kairos-i18n). Pure, so each
//! language's menu is tested without a tray.

use crate::overview::Overview;
use chrono::{DateTime, Local, Utc};
use kairos_i18n::Texts;

/// Every text the tray shows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MenuTexts {
    pub open: String,
    pub next_run: String,
    pub last_failure: String,
    /// Pause all jobs, or Resume all jobs while paused.
    pub pause: String,
    pub quit: String,
    pub tooltip: String,
}

/// The texts for `overview`, times in local time.
pub fn menu_texts(texts: &Texts, overview: &Overview) -> MenuTexts {
    menu_texts_at(texts, overview, &Local)
}

/// As [`menu_texts`], times in `zone` (tests choose one).
pub fn menu_texts_at<Tz: chrono::TimeZone>(
    texts: &Texts,
    overview: &Overview,
    zone: &Tz,
) -> MenuTexts
where
    Tz::Offset: std::fmt::Display,
{
    let when = |at: &DateTime<Utc>| {
        let local = at.with_timezone(zone);
        (texts.date(&local), texts.time(&local))
    };
    let next_run = match &overview.next_run {
        _ if overview.paused => texts.tray_paused(),
        Some((job, at)) => {
            let (date, time) = when(at);
            texts.tray_next_run(job, &date, &time)
        }
        None => texts.tray_no_run(),
    };
    let last_failure = match &overview.last_failure {
        Some((job, at, message)) => {
            let first: String = message
                .lines()
                .next()
                .unwrap_or_default()
                .chars()
                .take(60)
                .collect();
            let (date, time) = when(at);
            texts.tray_last_failure(job, &date, &time, &first)
        }
        None => texts.tray_no_failures(),
    };
    MenuTexts {
        open: texts.tray_open(),
        pause: if overview.paused {
            texts.tray_resume_all()
        } else {
            texts.tray_pause_all()
        },
        quit: texts.tray_quit(),
        tooltip: texts.tray_tooltip(&next_run),
        next_run,
        last_failure,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::{FixedOffset, TimeZone};
    use kairos_i18n::{Choice, Lang};

    fn overview(paused: bool) -> Overview {
        let at = |h| Utc.with_ymd_and_hms(2026, 11, 27, h, 15, 0).unwrap();
        Overview {
            next_run: Some(("backup".into(), at(4))),
            last_failure: Some(("sync".into(), at(3), "HTTP 500\nmore".into())),
            paused,
        }
    }

    /// The menu in `lang` (times at UTC+1): [open, next run, last failure, pause, quit].
    fn check(choice: Choice, paused: bool, want: [&str; 5]) {
        let zone = FixedOffset::east_opt(3600).unwrap();
        let t = menu_texts_at(&Texts::new(choice), &overview(paused), &zone);
        let got = [t.open, t.next_run.clone(), t.last_failure, t.pause, t.quit];
        assert_eq!(got, want.map(String::from), "{}", choice.tag());
        assert!(t.tooltip.ends_with(&t.next_run), "{}", t.tooltip);
    }

    #[test]
    fn the_menu_speaks_the_chosen_language() {
        check(
            Choice::Lang(Lang::En),
            false,
            [
                "Open Kairos",
                "Next: backup at Fri 27 Nov 05:15",
                "Last failure: sync at Fri 27 Nov 04:15 — HTTP 500",
                "Pause all jobs",
                "Quit Kairos",
            ],
        );
        check(
            Choice::Lang(Lang::De),
            false,
            [
                "Kairos öffnen",
                "Nächste Ausführung: backup am 27.11. um 05:15 Uhr",
                "Letzter Fehler: sync am 27.11. um 04:15 Uhr – HTTP 500",
                "Alle Aufträge anhalten",
                "Kairos beenden",
            ],
        );
        check(
            Choice::Lang(Lang::ZhTw),
            true,
            [
                "開啟 Kairos",
                "已暫停：不會執行任何工作",
                "上次失敗：sync，11月27日 04:15（HTTP 500）",
                "繼續所有工作",
                "結束 Kairos",
            ],
        );
        check(
            Choice::Lang(Lang::Fr),
            false,
            [
                "Ouvrir Kairos",
                "Prochaine exécution\u{a0}: backup le 27/11 à 05:15",
                "Dernier échec\u{a0}: sync le 27/11 à 04:15 — HTTP 500",
                "Suspendre tous les travaux",
                "Quitter Kairos",
            ],
        );
    }

    #[test]
    fn every_text_of_the_pseudo_locale_is_bracketed() {
        let t = menu_texts(&Texts::new(Choice::Pseudo), &overview(false));
        for text in [&t.open, &t.next_run, &t.last_failure, &t.pause, &t.quit] {
            assert!(text.starts_with('[') && text.ends_with(']'), "{text}");
        }
        assert!(t.next_run.contains("backup"), "{}", t.next_run);
    }
}
