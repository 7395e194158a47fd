//! The menu on Windows: muda carries out every native item here (Exit, Minimize, Maximize,
//! Close, Undo… Select All through the keys they stand for, About as a message box), so they are
//! its predefined items. Settings… and Exit end the File menu, as Windows apps keep them.

use super::{items, kinds, separator, PageCommand, SystemMenu, DELETE, SETTINGS};
use tauri::menu::{MenuItemKind, PredefinedMenuItem, Submenu};
use tauri::{AppHandle, WebviewWindow, Wry};

pub(crate) struct Os;

const EXIT: &str = "E&xit";
/// Delete's key, shown after a tab and not registered (menu.rs): Windows draws the text after a
/// tab as the item's shortcut.
const DELETE_LABEL: &str = "Delete\tDel";

impl SystemMenu for Os {
    fn leading_menus(
        _app: &AppHandle,
        _about: MenuItemKind<Wry>,
    ) -> tauri::Result<Vec<Submenu<Wry>>> {
        Ok(Vec::new())
    }

    fn file_end(app: &AppHandle) -> tauri::Result<Vec<MenuItemKind<Wry>>> {
        let mut end = vec![separator(app)?];
        end.extend(items(app, &[SETTINGS])?);
        end.push(separator(app)?);
        end.extend(kinds(vec![PredefinedMenuItem::quit(app, Some(EXIT))])?);
        Ok(end)
    }

    fn edit_items(app: &AppHandle) -> tauri::Result<Vec<MenuItemKind<Wry>>> {
        super::predefined_edit_items(app)
    }

    fn view_end(_app: &AppHandle) -> tauri::Result<Vec<MenuItemKind<Wry>>> {
        Ok(Vec::new())
    }

    fn window_items(app: &AppHandle) -> tauri::Result<Vec<MenuItemKind<Wry>>> {
        kinds(vec![
            PredefinedMenuItem::minimize(app, None),
            PredefinedMenuItem::maximize(app, None),
            PredefinedMenuItem::separator(app),
            PredefinedMenuItem::close_window(app, None),
        ])
    }

    fn help_items(
        _app: &AppHandle,
        about: MenuItemKind<Wry>,
    ) -> tauri::Result<Vec<MenuItemKind<Wry>>> {
        Ok(vec![about])
    }

    fn label(command: &PageCommand) -> String {
        if command.id == DELETE.id {
            DELETE_LABEL.to_string()
        } else {
            command.label.to_string()
        }
    }

    fn carry_out(_app: &AppHandle, _id: &str) -> bool {
        false
    }

    fn window_made(_window: &WebviewWindow) {}
}
