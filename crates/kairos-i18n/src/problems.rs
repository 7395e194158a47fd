//! What the tray runner cannot fix itself (no tray icon), as the window's Settings shows it.

use crate::texts::Texts;
use i18n_embed_fl::fl;

impl Texts {
    /// The icon could not be made; `reason`: the system's own words.
    pub fn problem_no_icon(&self, reason: &str) -> String {
        self.shown(fl!(self.loader, "problem-no-icon", reason = reason))
    }

    /// No D-Bus session bus; `reason`: why connecting failed.
    pub fn problem_no_bus(&self, reason: &str) -> String {
        self.shown(fl!(self.loader, "problem-no-bus", reason = reason))
    }

    pub fn problem_bus_silent(&self) -> String {
        self.shown(fl!(self.loader, "problem-bus-silent"))
    }

    /// No tray host on this desktop; `watcher`: the D-Bus name one would own.
    pub fn problem_no_host(&self, watcher: &str) -> String {
        self.shown(fl!(self.loader, "problem-no-host", watcher = watcher))
    }
}

#[cfg(test)]
mod tests {
    use crate::{Choice, Lang, Texts};

    #[test]
    fn a_missing_tray_host_says_what_to_do_in_each_language() {
        let watcher = "org.kde.StatusNotifierWatcher";
        let cases = [
            (Lang::En, "No tray icon", "Jobs keep running"),
            (Lang::De, "Kein Symbol", "Aufträge werden trotzdem"),
            (Lang::ZhTw, "沒有系統匣圖示", "工作仍會繼續執行"),
            (Lang::PtBr, "Sem ícone", "Os trabalhos continuam"),
            (Lang::Fr, "Pas d’icône", "Les travaux continuent"),
        ];
        for (lang, start, keeps_running) in cases {
            let text = Texts::new(Choice::Lang(lang)).problem_no_host(watcher);
            assert!(text.starts_with(start), "{lang:?}: {text}");
            assert!(
                text.contains(keeps_running) && text.contains(watcher),
                "{lang:?}: {text}"
            );
            assert!(
                text.contains("GNOME") && !text.contains('{'),
                "{lang:?}: {text}"
            );
        }
    }
}
