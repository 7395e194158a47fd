//! The application menu: the same commands and accelerators on Linux, Windows and macOS, laid
//! out the way each system does it (menu_linux.rs, menu_windows.rs, menu_macos.rs, behind
//! `SystemMenu`). docs/architecture.md ("Native shell") lists every item.
//!
//! Two kinds of items:
//! - Page commands (`PageCommand`): the page carries them out. Choosing one emits the Tauri event
//!   `menu-command` to the window with the item's id as payload ("settings", "new-job", …); the
//!   UI's listener (ui/src/commands/) maps it to the same action as its palette entry.
//! - Native items: Quit, Hide, Minimize, Undo/Cut/Copy/Paste…, About (with the version from
//!   Cargo.toml). The system or `SystemMenu::carry_out` handles them; the page never sees them.
//!
//! Delete has no accelerator registered on any system: a menu accelerator is seen before the
//! focused widget, so a bare Delete would stop deleting characters in every text field. The menu
//! shows the key (Linux: an accelerator label only, Windows: the text after a tab), and the page
//! handles the Delete key itself when focus is not in an editable field.

use tauri::menu::{
    AboutMetadataBuilder, Menu, MenuItem, MenuItemKind, PredefinedMenuItem, Submenu,
};
use tauri::{AppHandle, Emitter, WebviewWindow, Wry};

#[cfg_attr(target_os = "linux", path = "menu_linux.rs")]
#[cfg_attr(target_os = "windows", path = "menu_windows.rs")]
#[cfg_attr(target_os = "macos", path = "menu_macos.rs")]
mod os;

/// The event the page listens to for menu items it carries out; the payload is the item's id.
pub const MENU_COMMAND_EVENT: &str = "menu-command";

/// The window the menu commands go to (tauri.conf.json).
const WINDOW: &str = "main";

/// A menu item the page carries out. `id` is the `menu-command` payload (a fixed interface: the
/// UI's listener matches on it), `accelerator` in Tauri's syntax.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PageCommand {
    pub id: &'static str,
    pub label: &'static str,
    pub accelerator: Option<&'static str>,
}

const fn page(
    id: &'static str,
    label: &'static str,
    accelerator: Option<&'static str>,
) -> PageCommand {
    PageCommand {
        id,
        label,
        accelerator,
    }
}

// The menu's strings live here, one literal each, for the translation to come.
pub const SETTINGS: PageCommand = page("settings", "Settings…", Some("CmdOrCtrl+,"));
pub const NEW_JOB: PageCommand = page("new-job", "New Job", Some("CmdOrCtrl+N"));
pub const NEW_COLLECTION: PageCommand = page(
    "new-collection",
    "New Collection…",
    Some("CmdOrCtrl+Shift+N"),
);
pub const IMPORT: PageCommand = page("import", "Import…", Some("CmdOrCtrl+O"));
pub const EXPORT: PageCommand = page("export", "Export…", Some("CmdOrCtrl+E"));
pub const FIND: PageCommand = page("find", "Find Jobs", Some("CmdOrCtrl+F"));
pub const RUN_NOW: PageCommand = page("run-now", "Run Now", Some("F5"));
/// No accelerator: see the module's comment.
pub const DELETE: PageCommand = page("delete", "Delete", None);
pub const PAUSE_ALL: PageCommand = page("pause-all", "Pause All Jobs", None);
pub const PALETTE: PageCommand = page("palette", "Command Palette…", Some("CmdOrCtrl+K"));
#[cfg(target_os = "macos")]
pub const BACK: PageCommand = page("back", "Back", Some("Cmd+["));
#[cfg(not(target_os = "macos"))]
pub const BACK: PageCommand = page("back", "Back", Some("Alt+Left"));
#[cfg(target_os = "macos")]
pub const FORWARD: PageCommand = page("forward", "Forward", Some("Cmd+]"));
#[cfg(not(target_os = "macos"))]
pub const FORWARD: PageCommand = page("forward", "Forward", Some("Alt+Right"));
pub const THEME_SYSTEM: PageCommand = page("theme-system", "Follow the System", None);
pub const THEME_LIGHT: PageCommand = page("theme-light", "Light", None);
pub const THEME_DARK: PageCommand = page("theme-dark", "Dark", None);

/// Every page command, in menu order.
pub const PAGE_COMMANDS: [PageCommand; 15] = [
    NEW_JOB,
    NEW_COLLECTION,
    IMPORT,
    EXPORT,
    SETTINGS,
    FIND,
    PALETTE,
    BACK,
    FORWARD,
    THEME_SYSTEM,
    THEME_LIGHT,
    THEME_DARK,
    RUN_NOW,
    DELETE,
    PAUSE_ALL,
];

const FILE: &str = "&File";
const EDIT: &str = "&Edit";
const VIEW: &str = "&View";
const THEME: &str = "&Theme";
const JOBS: &str = "&Jobs";
const WINDOW_MENU: &str = "&Window";
const HELP: &str = "&Help";
const ABOUT: &str = "About Kairos";
const ABOUT_COMMENTS: &str = "A desktop job scheduler that speaks the Azure Scheduler API.";
const ABOUT_LICENSE: &str = "Kairos is free software under the MIT licence.";

/// One system's way with the menu (Linux, Windows or macOS).
pub(crate) trait SystemMenu {
    /// Menus before File: macOS's application menu; none elsewhere.
    fn leading_menus(app: &AppHandle, about: MenuItemKind<Wry>)
        -> tauri::Result<Vec<Submenu<Wry>>>;
    /// The end of the File menu: Settings… and Quit (or Exit) where the system keeps them there.
    fn file_end(app: &AppHandle) -> tauri::Result<Vec<MenuItemKind<Wry>>>;
    /// Undo, Redo, Cut, Copy, Paste and Select All, as the system provides them.
    fn edit_items(app: &AppHandle) -> tauri::Result<Vec<MenuItemKind<Wry>>>;
    /// The end of the View menu (macOS: Enter Full Screen).
    fn view_end(app: &AppHandle) -> tauri::Result<Vec<MenuItemKind<Wry>>>;
    /// Minimize, Maximize/Zoom, Close Window.
    fn window_items(app: &AppHandle) -> tauri::Result<Vec<MenuItemKind<Wry>>>;
    /// The Help menu: About (native, with the version) where it is not in the app menu.
    fn help_items(
        app: &AppHandle,
        about: MenuItemKind<Wry>,
    ) -> tauri::Result<Vec<MenuItemKind<Wry>>>;
    /// The text of a page command's item (Windows puts an unregistered key hint after a tab).
    fn label(command: &PageCommand) -> String {
        command.label.to_string()
    }
    /// Carries out a native item this code handles itself (not the system); false for other ids.
    fn carry_out(app: &AppHandle, id: &str) -> bool;
    /// Once the window exists (Linux shows the accelerators it does not register).
    fn window_made(window: &WebviewWindow);
}

/// The menu bar for the whole app (`tauri::Builder::menu`).
pub fn build(app: &AppHandle) -> tauri::Result<Menu<Wry>> {
    let about = MenuItemKind::Predefined(about(app)?);
    let mut menus: Vec<Submenu<Wry>> = os::Os::leading_menus(app, about.clone())?;

    let mut file = items(app, &[NEW_JOB, NEW_COLLECTION])?;
    file.push(separator(app)?);
    file.extend(items(app, &[IMPORT, EXPORT])?);
    file.extend(os::Os::file_end(app)?);
    menus.push(submenu(app, FILE, file)?);

    let mut edit = os::Os::edit_items(app)?;
    edit.push(separator(app)?);
    edit.extend(items(app, &[FIND])?);
    menus.push(submenu(app, EDIT, edit)?);

    let theme = submenu(
        app,
        THEME,
        items(app, &[THEME_SYSTEM, THEME_LIGHT, THEME_DARK])?,
    )?;
    let mut view = items(app, &[PALETTE])?;
    view.push(separator(app)?);
    view.extend(items(app, &[BACK, FORWARD])?);
    view.push(separator(app)?);
    view.push(MenuItemKind::Submenu(theme));
    view.extend(os::Os::view_end(app)?);
    menus.push(submenu(app, VIEW, view)?);

    let mut jobs = items(app, &[RUN_NOW, DELETE])?;
    jobs.push(separator(app)?);
    jobs.extend(items(app, &[PAUSE_ALL])?);
    menus.push(submenu(app, JOBS, jobs)?);

    menus.push(submenu(app, WINDOW_MENU, os::Os::window_items(app)?)?);
    let help = os::Os::help_items(app, about)?;
    if !help.is_empty() {
        menus.push(submenu(app, HELP, help)?);
    }

    let refs: Vec<&dyn tauri::menu::IsMenuItem<Wry>> = menus
        .iter()
        .map(|m| m as &dyn tauri::menu::IsMenuItem<Wry>)
        .collect();
    Menu::with_items(app, &refs)
}

/// A chosen menu item (`tauri::Builder::on_menu_event`): a page command goes to the window as
/// `menu-command`; a native item this code handles is carried out.
pub fn on_menu_event(app: &AppHandle, id: &str) {
    if os::Os::carry_out(app, id) {
        return;
    }
    if is_page_command(id) {
        if let Err(e) = app.emit_to(WINDOW, MENU_COMMAND_EVENT, id) {
            tracing::warn!(error = %e, command = id, "cannot send the menu command to the window");
        }
    }
}

/// Once the window is made.
pub fn window_made(window: &WebviewWindow) {
    os::Os::window_made(window);
}

pub fn is_page_command(id: &str) -> bool {
    PAGE_COMMANDS.iter().any(|c| c.id == id)
}

/// The About item: the system's own About box with the name, the version from Cargo.toml, what
/// Kairos is and its licence.
fn about(app: &AppHandle) -> tauri::Result<PredefinedMenuItem<Wry>> {
    let metadata = AboutMetadataBuilder::new()
        .name(Some("Kairos"))
        .version(Some(env!("CARGO_PKG_VERSION")))
        .comments(Some(ABOUT_COMMENTS))
        .license(Some(ABOUT_LICENSE))
        .icon(app.default_window_icon().cloned())
        .build();
    PredefinedMenuItem::about(app, Some(ABOUT), Some(metadata))
}

pub(crate) fn items(
    app: &AppHandle,
    commands: &[PageCommand],
) -> tauri::Result<Vec<MenuItemKind<Wry>>> {
    commands
        .iter()
        .map(|c| {
            MenuItem::with_id(app, c.id, os::Os::label(c), true, c.accelerator)
                .map(MenuItemKind::MenuItem)
        })
        .collect()
}

pub(crate) fn separator(app: &AppHandle) -> tauri::Result<MenuItemKind<Wry>> {
    PredefinedMenuItem::separator(app).map(MenuItemKind::Predefined)
}

/// Predefined items (the system's own) as menu entries; Linux builds its own instead.
#[cfg(not(target_os = "linux"))]
pub(crate) fn kinds(
    items: Vec<tauri::Result<PredefinedMenuItem<Wry>>>,
) -> tauri::Result<Vec<MenuItemKind<Wry>>> {
    items
        .into_iter()
        .map(|i| i.map(MenuItemKind::Predefined))
        .collect()
}

/// The Edit menu where the system carries out its items (Windows and macOS): Undo, Redo, Cut,
/// Copy, Paste, Select All.
#[cfg(not(target_os = "linux"))]
pub(crate) fn predefined_edit_items(app: &AppHandle) -> tauri::Result<Vec<MenuItemKind<Wry>>> {
    kinds(vec![
        PredefinedMenuItem::undo(app, None),
        PredefinedMenuItem::redo(app, None),
        PredefinedMenuItem::separator(app),
        PredefinedMenuItem::cut(app, None),
        PredefinedMenuItem::copy(app, None),
        PredefinedMenuItem::paste(app, None),
        PredefinedMenuItem::select_all(app, None),
    ])
}

pub(crate) fn submenu(
    app: &AppHandle,
    text: &str,
    items: Vec<MenuItemKind<Wry>>,
) -> tauri::Result<Submenu<Wry>> {
    let refs: Vec<&dyn tauri::menu::IsMenuItem<Wry>> = items
        .iter()
        .map(|i| i as &dyn tauri::menu::IsMenuItem<Wry>)
        .collect();
    Submenu::with_items(app, text, true, &refs)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The ids the UI's listener matches on (the agreed `menu-command` interface), but "about":
    /// the About box is native on every system, so it is never sent.
    const AGREED: [&str; 15] = [
        "settings",
        "new-job",
        "new-collection",
        "import",
        "export",
        "find",
        "run-now",
        "delete",
        "pause-all",
        "palette",
        "back",
        "forward",
        "theme-system",
        "theme-light",
        "theme-dark",
    ];

    #[test]
    fn page_commands_are_the_agreed_ids_each_once() {
        let mut ids: Vec<&str> = PAGE_COMMANDS.iter().map(|c| c.id).collect();
        ids.sort_unstable();
        let before = ids.len();
        ids.dedup();
        assert_eq!(ids.len(), before, "a page command id twice: {ids:?}");
        let mut agreed = AGREED.to_vec();
        agreed.sort_unstable();
        assert_eq!(ids, agreed);
    }

    #[test]
    fn delete_registers_no_accelerator_so_text_fields_keep_the_key() {
        assert_eq!(DELETE.accelerator, None);
    }

    #[test]
    fn native_ids_are_not_page_commands() {
        for id in ["native-quit", "native-undo", "about", ""] {
            assert!(!is_page_command(id), "{id}");
        }
    }
}
