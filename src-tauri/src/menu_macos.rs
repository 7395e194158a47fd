//! The menu on macOS: the application menu first (About, Settings… ⌘,, Services, Hide, Quit),
//! Close Window in File, Enter Full Screen in View, and the Window menu macOS expects. Every native
//! item is AppKit's own (muda's predefined items), so none is carried out here.

use super::{items, kinds, separator, submenu, SystemMenu, CHECK_UPDATES, SETTINGS};
use kairos_i18n::{Menu as Label, Texts};
use tauri::menu::{MenuItemKind, PredefinedMenuItem, Submenu};
use tauri::{AppHandle, WebviewWindow, Wry};

pub(crate) struct Os;

/// The application menu's title: macOS shows the app's name there whatever it says.
const APP_MENU: &str = "Kairos";

impl SystemMenu for Os {
    fn leading_menus(
        app: &AppHandle,
        t: &Texts,
        about: MenuItemKind<Wry>,
    ) -> tauri::Result<Vec<Submenu<Wry>>> {
        let label = |l| t.menu(l);
        let mut menu = vec![about];
        menu.extend(items(app, t, &[CHECK_UPDATES])?);
        menu.push(separator(app)?);
        menu.extend(items(app, t, &[SETTINGS])?);
        menu.extend(kinds(vec![
            PredefinedMenuItem::separator(app),
            PredefinedMenuItem::services(app, Some(&label(Label::Services))),
            PredefinedMenuItem::separator(app),
            PredefinedMenuItem::hide(app, Some(&label(Label::HideApp))),
            PredefinedMenuItem::hide_others(app, Some(&label(Label::HideOthers))),
            PredefinedMenuItem::show_all(app, Some(&label(Label::ShowAll))),
            PredefinedMenuItem::separator(app),
            PredefinedMenuItem::quit(app, Some(&label(Label::QuitApp))),
        ])?);
        Ok(vec![submenu(app, APP_MENU, menu)?])
    }

    fn file_end(app: &AppHandle, t: &Texts) -> tauri::Result<Vec<MenuItemKind<Wry>>> {
        kinds(vec![
            PredefinedMenuItem::separator(app),
            PredefinedMenuItem::close_window(app, Some(&t.menu(Label::CloseWindow))),
        ])
    }

    fn edit_items(app: &AppHandle, t: &Texts) -> tauri::Result<Vec<MenuItemKind<Wry>>> {
        super::predefined_edit_items(app, t)
    }

    fn view_end(app: &AppHandle, t: &Texts) -> tauri::Result<Vec<MenuItemKind<Wry>>> {
        kinds(vec![
            PredefinedMenuItem::separator(app),
            PredefinedMenuItem::fullscreen(app, Some(&t.menu(Label::EnterFullScreen))),
        ])
    }

    fn window_items(app: &AppHandle, t: &Texts) -> tauri::Result<Vec<MenuItemKind<Wry>>> {
        kinds(vec![
            PredefinedMenuItem::minimize(app, Some(&t.menu(Label::Minimize))),
            PredefinedMenuItem::maximize(app, Some(&t.menu(Label::Zoom))),
            PredefinedMenuItem::separator(app),
            PredefinedMenuItem::bring_all_to_front(app, Some(&t.menu(Label::BringAllToFront))),
        ])
    }

    /// About and Check for Updates… are in the application menu; no Help menu of our own (no
    /// help book).
    fn help_items(
        _app: &AppHandle,
        _t: &Texts,
        _about: MenuItemKind<Wry>,
    ) -> tauri::Result<Vec<MenuItemKind<Wry>>> {
        Ok(Vec::new())
    }

    fn carry_out(_app: &AppHandle, _id: &str) -> bool {
        false
    }

    fn window_made(_window: &WebviewWindow, _t: &Texts) {}
}
