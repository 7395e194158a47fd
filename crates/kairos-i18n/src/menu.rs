//! The window's menu bar: every label, by item ([`Menu`]), for `src-tauri/src/menu*.rs`.

use crate::texts::Texts;
use i18n_embed_fl::fl;

/// A label of the menu bar (menu titles carry their access key as `&`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Menu {
    File,
    Edit,
    View,
    Theme,
    Jobs,
    Window,
    Help,
    NewJob,
    NewCollection,
    Import,
    Export,
    Settings,
    Find,
    Palette,
    Back,
    Forward,
    ThemeSystem,
    ThemeLight,
    ThemeDark,
    RunNow,
    Delete,
    PauseAll,
    Undo,
    Redo,
    Cut,
    Copy,
    Paste,
    SelectAll,
    FullScreen,
    EnterFullScreen,
    Minimize,
    Maximize,
    Zoom,
    CloseWindow,
    BringAllToFront,
    Quit,
    Exit,
    QuitApp,
    HideApp,
    HideOthers,
    ShowAll,
    Services,
    About,
    CheckUpdates,
}

impl Menu {
    /// Every label, for tests.
    pub const ALL: [Menu; 44] = [
        Menu::File,
        Menu::Edit,
        Menu::View,
        Menu::Theme,
        Menu::Jobs,
        Menu::Window,
        Menu::Help,
        Menu::NewJob,
        Menu::NewCollection,
        Menu::Import,
        Menu::Export,
        Menu::Settings,
        Menu::Find,
        Menu::Palette,
        Menu::Back,
        Menu::Forward,
        Menu::ThemeSystem,
        Menu::ThemeLight,
        Menu::ThemeDark,
        Menu::RunNow,
        Menu::Delete,
        Menu::PauseAll,
        Menu::Undo,
        Menu::Redo,
        Menu::Cut,
        Menu::Copy,
        Menu::Paste,
        Menu::SelectAll,
        Menu::FullScreen,
        Menu::EnterFullScreen,
        Menu::Minimize,
        Menu::Maximize,
        Menu::Zoom,
        Menu::CloseWindow,
        Menu::BringAllToFront,
        Menu::Quit,
        Menu::Exit,
        Menu::QuitApp,
        Menu::HideApp,
        Menu::HideOthers,
        Menu::ShowAll,
        Menu::Services,
        Menu::About,
        Menu::CheckUpdates,
    ];
}

impl Texts {
    pub fn menu(&self, item: Menu) -> String {
        let text = match item {
            Menu::File => fl!(self.loader, "menu-file"),
            Menu::Edit => fl!(self.loader, "menu-edit"),
            Menu::View => fl!(self.loader, "menu-view"),
            Menu::Theme => fl!(self.loader, "menu-theme"),
            Menu::Jobs => fl!(self.loader, "menu-jobs"),
            Menu::Window => fl!(self.loader, "menu-window"),
            Menu::Help => fl!(self.loader, "menu-help"),
            Menu::NewJob => fl!(self.loader, "menu-new-job"),
            Menu::NewCollection => fl!(self.loader, "menu-new-collection"),
            Menu::Import => fl!(self.loader, "menu-import"),
            Menu::Export => fl!(self.loader, "menu-export"),
            Menu::Settings => fl!(self.loader, "menu-settings"),
            Menu::Find => fl!(self.loader, "menu-find"),
            Menu::Palette => fl!(self.loader, "menu-palette"),
            Menu::Back => fl!(self.loader, "menu-back"),
            Menu::Forward => fl!(self.loader, "menu-forward"),
            Menu::ThemeSystem => fl!(self.loader, "menu-theme-system"),
            Menu::ThemeLight => fl!(self.loader, "menu-theme-light"),
            Menu::ThemeDark => fl!(self.loader, "menu-theme-dark"),
            Menu::RunNow => fl!(self.loader, "menu-run-now"),
            Menu::Delete => fl!(self.loader, "menu-delete"),
            Menu::PauseAll => fl!(self.loader, "menu-pause-all"),
            Menu::Undo => fl!(self.loader, "menu-undo"),
            Menu::Redo => fl!(self.loader, "menu-redo"),
            Menu::Cut => fl!(self.loader, "menu-cut"),
            Menu::Copy => fl!(self.loader, "menu-copy"),
            Menu::Paste => fl!(self.loader, "menu-paste"),
            Menu::SelectAll => fl!(self.loader, "menu-select-all"),
            Menu::FullScreen => fl!(self.loader, "menu-full-screen"),
            Menu::EnterFullScreen => fl!(self.loader, "menu-enter-full-screen"),
            Menu::Minimize => fl!(self.loader, "menu-minimize"),
            Menu::Maximize => fl!(self.loader, "menu-maximize"),
            Menu::Zoom => fl!(self.loader, "menu-zoom"),
            Menu::CloseWindow => fl!(self.loader, "menu-close-window"),
            Menu::BringAllToFront => fl!(self.loader, "menu-bring-all-to-front"),
            Menu::Quit => fl!(self.loader, "menu-quit"),
            Menu::Exit => fl!(self.loader, "menu-exit"),
            Menu::QuitApp => fl!(self.loader, "menu-quit-app"),
            Menu::HideApp => fl!(self.loader, "menu-hide-app"),
            Menu::HideOthers => fl!(self.loader, "menu-hide-others"),
            Menu::ShowAll => fl!(self.loader, "menu-show-all"),
            Menu::Services => fl!(self.loader, "menu-services"),
            Menu::About => fl!(self.loader, "menu-about"),
            Menu::CheckUpdates => fl!(self.loader, "menu-check-updates"),
        };
        self.shown(text)
    }

    /// What the About box says Kairos is.
    pub fn about_comments(&self) -> String {
        self.shown(fl!(self.loader, "about-comments"))
    }

    /// The About box's licence line.
    pub fn about_license(&self) -> String {
        self.shown(fl!(self.loader, "about-license"))
    }
}

#[cfg(test)]
mod tests {
    use super::Menu;
    use crate::{Choice, Lang, Texts};

    #[test]
    fn every_menu_label_is_translated() {
        let english = Texts::new(Choice::Lang(Lang::En));
        for lang in [Lang::ZhTw, Lang::De, Lang::PtBr, Lang::Fr] {
            let texts = Texts::new(Choice::Lang(lang));
            for item in Menu::ALL {
                let (text, en) = (texts.menu(item), english.menu(item));
                assert!(!text.trim().is_empty(), "{lang:?} {item:?}");
                // Names and words that stay the same (Zoom, Services) are the exceptions.
                let same = matches!(item, Menu::Zoom | Menu::Services);
                assert!(
                    same || text != en,
                    "{lang:?} {item:?} is still English: {text}"
                );
            }
        }
        assert_eq!(english.menu(Menu::File), "&File");
        assert_eq!(
            Texts::new(Choice::Lang(Lang::De)).menu(Menu::Settings),
            "Einstellungen…"
        );
        assert_eq!(
            Texts::new(Choice::Lang(Lang::ZhTw)).menu(Menu::File),
            "檔案(&F)"
        );
    }
}
