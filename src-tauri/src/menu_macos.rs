//! The menu on macOS: the application menu first (About, Settings… ⌘,, Services, Hide, Quit),
//! Close Window in File, Enter Full Screen in View, and the Window menu macOS expects. Every native
//! item is AppKit's own (muda's predefined items), so none is carried out here.

use super::{items, kinds, separator, submenu, SystemMenu, SETTINGS};
use tauri::menu::{MenuItemKind, PredefinedMenuItem, Submenu};
use tauri::{AppHandle, WebviewWindow, Wry};

pub(crate) struct Os;

/// The application menu's title: macOS shows the app's name there whatever it says.
const APP_MENU: &str = "Kairos";

impl SystemMenu for Os {
    fn leading_menus(
        app: &AppHandle,
        about: MenuItemKind<Wry>,
    ) -> tauri::Result<Vec<Submenu<Wry>>> {
        let mut menu = vec![about, separator(app)?];
        menu.extend(items(app, &[SETTINGS])?);
        menu.extend(kinds(vec![
            PredefinedMenuItem::separator(app),
            PredefinedMenuItem::services(app, None),
            PredefinedMenuItem::separator(app),
            PredefinedMenuItem::hide(app, None),
            PredefinedMenuItem::hide_others(app, None),
            PredefinedMenuItem::show_all(app, None),
            PredefinedMenuItem::separator(app),
            PredefinedMenuItem::quit(app, None),
        ])?);
        Ok(vec![submenu(app, APP_MENU, menu)?])
    }

    fn file_end(app: &AppHandle) -> tauri::Result<Vec<MenuItemKind<Wry>>> {
        kinds(vec![
            PredefinedMenuItem::separator(app),
            PredefinedMenuItem::close_window(app, None),
        ])
    }

    fn edit_items(app: &AppHandle) -> tauri::Result<Vec<MenuItemKind<Wry>>> {
        super::predefined_edit_items(app)
    }

    fn view_end(app: &AppHandle) -> tauri::Result<Vec<MenuItemKind<Wry>>> {
        kinds(vec![
            PredefinedMenuItem::separator(app),
            PredefinedMenuItem::fullscreen(app, None),
        ])
    }

    fn window_items(app: &AppHandle) -> tauri::Result<Vec<MenuItemKind<Wry>>> {
        kinds(vec![
            PredefinedMenuItem::minimize(app, None),
            PredefinedMenuItem::maximize(app, None),
            PredefinedMenuItem::separator(app),
            PredefinedMenuItem::bring_all_to_front(app, None),
        ])
    }

    /// About is in the application menu; no Help menu of our own (no help book).
    fn help_items(
        _app: &AppHandle,
        _about: MenuItemKind<Wry>,
    ) -> tauri::Result<Vec<MenuItemKind<Wry>>> {
        Ok(Vec::new())
    }

    fn carry_out(_app: &AppHandle, _id: &str) -> bool {
        false
    }

    fn window_made(_window: &WebviewWindow) {}
}
