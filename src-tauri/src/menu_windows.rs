//! The menu on Windows: muda carries out every native item here (Exit, Minimize, Maximize,
//! Close, Undo… Select All through the keys they stand for, About as a message box), so they are
//! its predefined items. Settings… and Exit end the File menu, as Windows apps keep them.

use super::{items, kinds, separator, PageCommand, SystemMenu, CHECK_UPDATES, DELETE, SETTINGS};
use kairos_i18n::{Menu as Label, Texts};
use tauri::menu::{MenuItemKind, PredefinedMenuItem, Submenu};
use tauri::{AppHandle, WebviewWindow, Wry};

pub(crate) struct Os;

/// Delete's key, shown after a tab and not registered (menu.rs): Windows draws the text after a
/// tab as the item's shortcut.
const DELETE_KEY: &str = "Del";

impl SystemMenu for Os {
    fn leading_menus(
        _app: &AppHandle,
        _t: &Texts,
        _about: MenuItemKind<Wry>,
    ) -> tauri::Result<Vec<Submenu<Wry>>> {
        Ok(Vec::new())
    }

    fn file_end(app: &AppHandle, t: &Texts) -> tauri::Result<Vec<MenuItemKind<Wry>>> {
        let mut end = vec![separator(app)?];
        end.extend(items(app, t, &[SETTINGS])?);
        end.push(separator(app)?);
        let exit = t.menu(Label::Exit);
        end.extend(kinds(vec![PredefinedMenuItem::quit(app, Some(&exit))])?);
        Ok(end)
    }

    fn edit_items(app: &AppHandle, t: &Texts) -> tauri::Result<Vec<MenuItemKind<Wry>>> {
        super::predefined_edit_items(app, t)
    }

    fn view_end(_app: &AppHandle, _t: &Texts) -> tauri::Result<Vec<MenuItemKind<Wry>>> {
        Ok(Vec::new())
    }

    fn window_items(app: &AppHandle, t: &Texts) -> tauri::Result<Vec<MenuItemKind<Wry>>> {
        kinds(vec![
            PredefinedMenuItem::minimize(app, Some(&t.menu(Label::Minimize))),
            PredefinedMenuItem::maximize(app, Some(&t.menu(Label::Maximize))),
            PredefinedMenuItem::separator(app),
            PredefinedMenuItem::close_window(app, Some(&t.menu(Label::CloseWindow))),
        ])
    }

    fn help_items(
        app: &AppHandle,
        t: &Texts,
        about: MenuItemKind<Wry>,
    ) -> tauri::Result<Vec<MenuItemKind<Wry>>> {
        let mut help = items(app, t, &[CHECK_UPDATES])?;
        help.push(separator(app)?);
        help.push(about);
        Ok(help)
    }

    fn label(t: &Texts, command: &PageCommand) -> String {
        let label = t.menu(command.label);
        if command.id == DELETE.id {
            format!("{label}\t{DELETE_KEY}")
        } else {
            label
        }
    }

    fn carry_out(_app: &AppHandle, _id: &str) -> bool {
        false
    }

    fn window_made(_window: &WebviewWindow, _t: &Texts) {}
}
