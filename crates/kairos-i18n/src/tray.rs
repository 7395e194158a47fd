//! The tray runner's menu and tooltip.

use crate::texts::Texts;
use i18n_embed_fl::fl;

impl Texts {
    pub fn tray_open(&self) -> String {
        self.shown(fl!(self.loader, "tray-open"))
    }

    pub fn tray_pause_all(&self) -> String {
        self.shown(fl!(self.loader, "tray-pause-all"))
    }

    pub fn tray_resume_all(&self) -> String {
        self.shown(fl!(self.loader, "tray-resume-all"))
    }

    pub fn tray_quit(&self) -> String {
        self.shown(fl!(self.loader, "tray-quit"))
    }

    /// "Next: backup at Fri 27 Nov 05:15"; `date` and `time` from [`Texts::date`] and
    /// [`Texts::time`].
    pub fn tray_next_run(&self, job: &str, date: &str, time: &str) -> String {
        self.shown(fl!(
            self.loader,
            "tray-next-run",
            job = job,
            date = date,
            time = time
        ))
    }

    pub fn tray_paused(&self) -> String {
        self.shown(fl!(self.loader, "tray-paused"))
    }

    pub fn tray_no_run(&self) -> String {
        self.shown(fl!(self.loader, "tray-no-run"))
    }

    /// `message`: the failure's first line, shown as the history has it.
    pub fn tray_last_failure(&self, job: &str, date: &str, time: &str, message: &str) -> String {
        self.shown(fl!(
            self.loader,
            "tray-last-failure",
            job = job,
            date = date,
            time = time,
            message = message
        ))
    }

    pub fn tray_no_failures(&self) -> String {
        self.shown(fl!(self.loader, "tray-no-failures"))
    }

    /// The icon's tooltip: the app's name over `next` (the next-run line).
    pub fn tray_tooltip(&self, next: &str) -> String {
        self.shown(fl!(self.loader, "tray-tooltip", next = next))
    }
}

#[cfg(test)]
mod tests {
    use crate::{Choice, Lang, Texts};

    fn check(choice: Choice, want: [&str; 6]) {
        let t = Texts::new(choice);
        let got = [
            t.tray_open(),
            t.tray_pause_all(),
            t.tray_resume_all(),
            t.tray_quit(),
            t.tray_next_run("backup", "27.11.", "05:15"),
            t.tray_last_failure("sync", "27/11", "05:15", "HTTP 500"),
        ];
        assert_eq!(got, want.map(String::from), "{}", choice.tag());
    }

    #[test]
    fn the_tray_menu_speaks_each_language() {
        check(
            Choice::Lang(Lang::En),
            [
                "Open Kairos",
                "Pause all jobs",
                "Resume all jobs",
                "Quit Kairos",
                "Next: backup at 27.11. 05:15",
                "Last failure: sync at 27/11 05:15 — HTTP 500",
            ],
        );
        check(
            Choice::Lang(Lang::De),
            [
                "Kairos öffnen",
                "Alle Aufträge anhalten",
                "Alle Aufträge fortsetzen",
                "Kairos beenden",
                "Nächste Ausführung: backup am 27.11. um 05:15 Uhr",
                "Letzter Fehler: sync am 27/11 um 05:15 Uhr – HTTP 500",
            ],
        );
        check(
            Choice::Lang(Lang::ZhTw),
            [
                "開啟 Kairos",
                "暫停所有工作",
                "繼續所有工作",
                "結束 Kairos",
                "下次執行：backup，27.11. 05:15",
                "上次失敗：sync，27/11 05:15（HTTP 500）",
            ],
        );
    }

    #[test]
    fn the_pseudo_locale_brackets_accents_and_keeps_arguments() {
        let t = Texts::new(Choice::Pseudo);
        assert_eq!(t.tray_quit(), "[Ɋŭīŧ Ķȧīřǿş~~~~~]");
        let next = t.tray_next_run("backup", "Fri 27 Nov", "05:15");
        assert!(
            next.starts_with("[Ƞḗẋŧ: backup ȧŧ Fri 27 Nov 05:15~"),
            "{next}"
        );
        assert!(next.ends_with(']'), "{next}");
    }

    #[test]
    fn the_tooltip_has_no_isolation_marks() {
        for lang in Lang::ALL {
            let tooltip = Texts::new(Choice::Lang(lang)).tray_tooltip("x");
            assert_eq!(tooltip, "Kairos\nx", "{lang:?}");
        }
    }
}
