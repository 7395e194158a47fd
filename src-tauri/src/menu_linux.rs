//! The menu on Linux (GTK). muda, Tauri's menu library, carries out only About, Cut, Copy,
//! Paste and Select All itself here, and those four only through libxdo (X11 keystrokes, none on
//! Wayland); its Quit, Minimize, Undo… are shown disabled. So every native item but About is an
//! ordinary item this file carries out: the editing ones through WebKit's editing commands on the
//! focused field, the window ones through Tauri.
//!
//! The editing items register no accelerator: the keys (Ctrl+Z, Ctrl+C, Ctrl+A…) must reach
//! WebKit and the page as they always do, and a GTK menu accelerator would take them first (and
//! turn Ctrl+A in the jobs table into "select the text"). Their keys are only shown, as GTK
//! shows Copy's in every GTK app, by `window_made`; Delete's too (see menu.rs).

use super::{items, separator, SystemMenu, CHECK_UPDATES, SETTINGS};
use gtk::prelude::*;
use kairos_i18n::{Menu as Label, Texts};
use tauri::menu::{MenuItem, MenuItemKind, Submenu};
use tauri::{AppHandle, Manager, WebviewWindow, Wry};
use webkit2gtk::WebViewExt;

pub(crate) struct Os;

/// A native item this file carries out: id, label (in the catalog), registered accelerator, and
/// a key shown but not registered (GTK's accelerator syntax).
struct Native {
    id: &'static str,
    label: Label,
    accelerator: Option<&'static str>,
    shown_key: Option<&'static str>,
}

const fn native(
    id: &'static str,
    label: Label,
    accelerator: Option<&'static str>,
    shown_key: Option<&'static str>,
) -> Native {
    Native {
        id,
        label,
        accelerator,
        shown_key,
    }
}

const QUIT: Native = native("native-quit", Label::Quit, Some("Ctrl+Q"), None);
const UNDO: Native = native("native-undo", Label::Undo, None, Some("<Primary>z"));
const REDO: Native = native("native-redo", Label::Redo, None, Some("<Primary><Shift>z"));
const CUT: Native = native("native-cut", Label::Cut, None, Some("<Primary>x"));
const COPY: Native = native("native-copy", Label::Copy, None, Some("<Primary>c"));
const PASTE: Native = native("native-paste", Label::Paste, None, Some("<Primary>v"));
const SELECT_ALL: Native = native(
    "native-select-all",
    Label::SelectAll,
    None,
    Some("<Primary>a"),
);
const FULL_SCREEN: Native = native("native-full-screen", Label::FullScreen, Some("F11"), None);
const MINIMIZE: Native = native("native-minimize", Label::Minimize, None, None);
const MAXIMIZE: Native = native("native-maximize", Label::Maximize, None, None);
const CLOSE: Native = native("native-close", Label::CloseWindow, Some("Ctrl+W"), None);

/// The key shown beside Delete (menu.rs: it is not registered).
const DELETE_SHOWN_KEY: &str = "Delete";

/// WebKit's editing command for each editing item.
const EDITING: [(&Native, &str); 6] = [
    (&UNDO, "Undo"),
    (&REDO, "Redo"),
    (&CUT, "Cut"),
    (&COPY, "Copy"),
    (&PASTE, "Paste"),
    (&SELECT_ALL, "SelectAll"),
];

fn make(app: &AppHandle, t: &Texts, natives: &[&Native]) -> tauri::Result<Vec<MenuItemKind<Wry>>> {
    natives
        .iter()
        .map(|n| {
            MenuItem::with_id(app, n.id, t.menu(n.label), true, n.accelerator)
                .map(MenuItemKind::MenuItem)
        })
        .collect()
}

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
        end.extend(make(app, t, &[&QUIT])?);
        Ok(end)
    }

    fn edit_items(app: &AppHandle, t: &Texts) -> tauri::Result<Vec<MenuItemKind<Wry>>> {
        let mut edit = make(app, t, &[&UNDO, &REDO])?;
        edit.push(separator(app)?);
        edit.extend(make(app, t, &[&CUT, &COPY, &PASTE, &SELECT_ALL])?);
        Ok(edit)
    }

    fn view_end(app: &AppHandle, t: &Texts) -> tauri::Result<Vec<MenuItemKind<Wry>>> {
        let mut end = vec![separator(app)?];
        end.extend(make(app, t, &[&FULL_SCREEN])?);
        Ok(end)
    }

    fn window_items(app: &AppHandle, t: &Texts) -> tauri::Result<Vec<MenuItemKind<Wry>>> {
        let mut items = make(app, t, &[&MINIMIZE, &MAXIMIZE])?;
        items.push(separator(app)?);
        items.extend(make(app, t, &[&CLOSE])?);
        Ok(items)
    }

    fn help_items(
        app: &AppHandle,
        t: &Texts,
        about: MenuItemKind<Wry>,
    ) -> tauri::Result<Vec<MenuItemKind<Wry>>> {
        // GTK's About dialog (muda's own).
        let mut help = items(app, t, &[CHECK_UPDATES])?;
        help.push(separator(app)?);
        help.push(about);
        Ok(help)
    }

    fn carry_out(app: &AppHandle, id: &str) -> bool {
        if id == QUIT.id {
            // RunEvent::Exit follows, where the window-state plugin saves the window's place.
            app.exit(0);
            return true;
        }
        let Some(window) = app.get_webview_window(super::WINDOW) else {
            return id.starts_with("native-");
        };
        if let Some((_, command)) = EDITING.iter().find(|(n, _)| n.id == id) {
            let command = *command;
            let _ = window
                .with_webview(move |webview| webview.inner().execute_editing_command(command));
        } else if id == FULL_SCREEN.id {
            let full = window.is_fullscreen().unwrap_or(false);
            let _ = window.set_fullscreen(!full);
        } else if id == MINIMIZE.id {
            let _ = window.minimize();
        } else if id == MAXIMIZE.id {
            let _ = if window.is_maximized().unwrap_or(false) {
                window.unmaximize()
            } else {
                window.maximize()
            };
        } else if id == CLOSE.id {
            let _ = window.close();
        } else {
            return false;
        }
        true
    }

    fn window_made(window: &WebviewWindow, t: &Texts) {
        show_unregistered_keys(window, t);
    }
}

/// Shows the keys of the editing items and of Delete in the window's menu bar without
/// registering them: GTK draws a menu item's key from its accelerator label, which only displays.
fn show_unregistered_keys(window: &WebviewWindow, t: &Texts) {
    let Ok(gtk_window) = window.gtk_window() else {
        return;
    };
    let mut shown: Vec<(String, &str)> = EDITING
        .iter()
        .filter_map(|(n, _)| Some((t.menu(n.label), n.shown_key?)))
        .collect();
    shown.push((t.menu(super::DELETE.label), DELETE_SHOWN_KEY));
    let mut widgets: Vec<gtk::Widget> = vec![gtk_window.upcast()];
    while let Some(widget) = widgets.pop() {
        if let Some(item) = widget.downcast_ref::<gtk::MenuItem>() {
            if let Some(menu) = item.submenu() {
                widgets.push(menu);
            }
            let label = item
                .child()
                .and_then(|c| c.downcast::<gtk::AccelLabel>().ok());
            if let Some(label) = label {
                let text = label.label();
                if let Some((_, key)) = shown.iter().find(|(l, _)| text.as_str() == l.as_str()) {
                    let (key, modifiers) = gtk::accelerator_parse(key);
                    label.set_accel(key, modifiers);
                }
            }
        }
        if let Some(container) = widget.downcast_ref::<gtk::Container>() {
            widgets.extend(container.children());
        }
    }
}
