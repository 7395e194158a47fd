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

use kairos_i18n::{Menu as Label, Texts};
use tauri::menu::{
    AboutMetadataBuilder, Menu, MenuItem, MenuItemKind, PredefinedMenuItem, Submenu,
};
use tauri::{AppHandle, Emitter, Manager, WebviewWindow, Wry};

#[cfg_attr(target_os = "linux", path = "menu_linux.rs")]
#[cfg_attr(target_os = "windows", path = "menu_windows.rs")]
#[cfg_attr(target_os = "macos", path = "menu_macos.rs")]
mod os;

/// The event the page listens to for menu items it carries out; the payload is the item's id.
pub const MENU_COMMAND_EVENT: &str = "menu-command";

/// The window the menu commands go to (tauri.conf.json).
const WINDOW: &str = "main";

/// A menu item the page carries out. `id` is the `menu-command` payload (a fixed interface: the
/// UI's listener matches on it), `label` its text in the catalog (kairos-i18n), `accelerator` in
/// Tauri's syntax.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PageCommand {
    pub id: &'static str,
    pub label: Label,
    pub accelerator: Option<&'static str>,
}

const fn page(id: &'static str, label: Label, accelerator: Option<&'static str>) -> PageCommand {
    PageCommand {
        id,
        label,
        accelerator,
    }
}

// Every label comes from the catalogs (kairos-i18n, `menu-*` messages).
pub const SETTINGS: PageCommand = page("settings", Label::Settings, Some("CmdOrCtrl+,"));
pub const NEW_JOB: PageCommand = page("new-job", Label::NewJob, Some("CmdOrCtrl+N"));
pub const NEW_COLLECTION: PageCommand = page(
    "new-collection",
    Label::NewCollection,
    Some("CmdOrCtrl+Shift+N"),
);
pub const IMPORT: PageCommand = page("import", Label::Import, Some("CmdOrCtrl+O"));
pub const EXPORT: PageCommand = page("export", Label::Export, Some("CmdOrCtrl+E"));
pub const FIND: PageCommand = page("find", Label::Find, Some("CmdOrCtrl+F"));
pub const RUN_NOW: PageCommand = page("run-now", Label::RunNow, Some("F5"));
/// No accelerator: see the module's comment.
pub const DELETE: PageCommand = page("delete", Label::Delete, None);
pub const PAUSE_ALL: PageCommand = page("pause-all", Label::PauseAll, None);
pub const PALETTE: PageCommand = page("palette", Label::Palette, Some("CmdOrCtrl+K"));
#[cfg(target_os = "macos")]
pub const BACK: PageCommand = page("back", Label::Back, Some("Cmd+["));
#[cfg(not(target_os = "macos"))]
pub const BACK: PageCommand = page("back", Label::Back, Some("Alt+Left"));
#[cfg(target_os = "macos")]
pub const FORWARD: PageCommand = page("forward", Label::Forward, Some("Cmd+]"));
#[cfg(not(target_os = "macos"))]
pub const FORWARD: PageCommand = page("forward", Label::Forward, Some("Alt+Right"));
pub const THEME_SYSTEM: PageCommand = page("theme-system", Label::ThemeSystem, None);
pub const THEME_LIGHT: PageCommand = page("theme-light", Label::ThemeLight, None);
pub const THEME_DARK: PageCommand = page("theme-dark", Label::ThemeDark, None);
/// Help → Check for Updates… (the app menu on macOS); the page runs the check and shows it.
pub const CHECK_UPDATES: PageCommand = page("check-updates", Label::CheckUpdates, None);

/// Every page command, in menu order.
pub const PAGE_COMMANDS: [PageCommand; 16] = [
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
    CHECK_UPDATES,
];

/// One system's way with the menu (Linux, Windows or macOS). Every label is from `t`.
pub(crate) trait SystemMenu {
    /// Menus before File: macOS's application menu; none elsewhere.
    fn leading_menus(
        app: &AppHandle,
        t: &Texts,
        about: MenuItemKind<Wry>,
    ) -> tauri::Result<Vec<Submenu<Wry>>>;
    /// The end of the File menu: Settings… and Quit (or Exit) where the system keeps them there.
    fn file_end(app: &AppHandle, t: &Texts) -> tauri::Result<Vec<MenuItemKind<Wry>>>;
    /// Undo, Redo, Cut, Copy, Paste and Select All, as the system provides them.
    fn edit_items(app: &AppHandle, t: &Texts) -> tauri::Result<Vec<MenuItemKind<Wry>>>;
    /// The end of the View menu (macOS: Enter Full Screen).
    fn view_end(app: &AppHandle, t: &Texts) -> tauri::Result<Vec<MenuItemKind<Wry>>>;
    /// Minimize, Maximize/Zoom, Close Window.
    fn window_items(app: &AppHandle, t: &Texts) -> tauri::Result<Vec<MenuItemKind<Wry>>>;
    /// The Help menu: Check for Updates… and About (native, with the version) where they are
    /// not in the app menu.
    fn help_items(
        app: &AppHandle,
        t: &Texts,
        about: MenuItemKind<Wry>,
    ) -> tauri::Result<Vec<MenuItemKind<Wry>>>;
    /// The text of a page command's item (Windows puts an unregistered key hint after a tab).
    fn label(t: &Texts, command: &PageCommand) -> String {
        t.menu(command.label)
    }
    /// Carries out a native item this code handles itself (not the system); false for other ids.
    fn carry_out(app: &AppHandle, id: &str) -> bool;
    /// Once the window exists, and again when the menu is rebuilt in another language (Linux
    /// shows the accelerators it does not register).
    fn window_made(window: &WebviewWindow, t: &Texts);
}

/// The menu bar for the whole app (`tauri::Builder::menu`), in the window's language.
pub fn build(app: &AppHandle) -> tauri::Result<Menu<Wry>> {
    build_in(app, &crate::language::texts_of(app))
}

/// The menu bar with the labels of `t`.
pub fn build_in(app: &AppHandle, t: &Texts) -> tauri::Result<Menu<Wry>> {
    let about = MenuItemKind::Predefined(about(app, t)?);
    let mut menus: Vec<Submenu<Wry>> = os::Os::leading_menus(app, t, about.clone())?;

    let mut file = items(app, t, &[NEW_JOB, NEW_COLLECTION])?;
    file.push(separator(app)?);
    file.extend(items(app, t, &[IMPORT, EXPORT])?);
    file.extend(os::Os::file_end(app, t)?);
    menus.push(submenu(app, &t.menu(Label::File), file)?);

    let mut edit = os::Os::edit_items(app, t)?;
    edit.push(separator(app)?);
    edit.extend(items(app, t, &[FIND])?);
    menus.push(submenu(app, &t.menu(Label::Edit), edit)?);

    let theme = submenu(
        app,
        &t.menu(Label::Theme),
        items(app, t, &[THEME_SYSTEM, THEME_LIGHT, THEME_DARK])?,
    )?;
    let mut view = items(app, t, &[PALETTE])?;
    view.push(separator(app)?);
    view.extend(items(app, t, &[BACK, FORWARD])?);
    view.push(separator(app)?);
    view.push(MenuItemKind::Submenu(theme));
    view.extend(os::Os::view_end(app, t)?);
    menus.push(submenu(app, &t.menu(Label::View), view)?);

    let mut jobs = items(app, t, &[RUN_NOW, DELETE])?;
    jobs.push(separator(app)?);
    jobs.extend(items(app, t, &[PAUSE_ALL])?);
    menus.push(submenu(app, &t.menu(Label::Jobs), jobs)?);

    let window_items = os::Os::window_items(app, t)?;
    menus.push(submenu(app, &t.menu(Label::Window), window_items)?);
    let help = os::Os::help_items(app, t, about)?;
    if !help.is_empty() {
        menus.push(submenu(app, &t.menu(Label::Help), help)?);
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
    os::Os::window_made(window, &crate::language::texts_of(window.app_handle()));
}

/// The menu bar again in the language of `t` (the language setting changed), on the main thread
/// where menus live.
pub fn relabel(app: &AppHandle, t: Texts) {
    let handle = app.clone();
    let rebuilt = app.run_on_main_thread(move || {
        let app = &handle;
        match build_in(app, &t).and_then(|menu| app.set_menu(menu)) {
            Ok(_) => {
                if let Some(window) = app.get_webview_window(WINDOW) {
                    os::Os::window_made(&window, &t);
                }
            }
            Err(e) => tracing::warn!(error = %e, "cannot rebuild the menu in the new language"),
        }
    });
    if let Err(e) = rebuilt {
        tracing::warn!(error = %e, "cannot rebuild the menu in the new language");
    }
}

pub fn is_page_command(id: &str) -> bool {
    PAGE_COMMANDS.iter().any(|c| c.id == id)
}

/// The About item: the system's own About box with the name, the version from Cargo.toml, what
/// Kairos is and its licence.
fn about(app: &AppHandle, t: &Texts) -> tauri::Result<PredefinedMenuItem<Wry>> {
    let metadata = AboutMetadataBuilder::new()
        .name(Some("Kairos"))
        .version(Some(env!("CARGO_PKG_VERSION")))
        .comments(Some(t.about_comments()))
        .license(Some(t.about_license()))
        .icon(app.default_window_icon().cloned())
        .build();
    PredefinedMenuItem::about(app, Some(&t.menu(Label::About)), Some(metadata))
}

pub(crate) fn items(
    app: &AppHandle,
    t: &Texts,
    commands: &[PageCommand],
) -> tauri::Result<Vec<MenuItemKind<Wry>>> {
    commands
        .iter()
        .map(|c| {
            MenuItem::with_id(app, c.id, os::Os::label(t, c), true, c.accelerator)
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
pub(crate) fn predefined_edit_items(
    app: &AppHandle,
    t: &Texts,
) -> tauri::Result<Vec<MenuItemKind<Wry>>> {
    kinds(vec![
        PredefinedMenuItem::undo(app, Some(&t.menu(Label::Undo))),
        PredefinedMenuItem::redo(app, Some(&t.menu(Label::Redo))),
        PredefinedMenuItem::separator(app),
        PredefinedMenuItem::cut(app, Some(&t.menu(Label::Cut))),
        PredefinedMenuItem::copy(app, Some(&t.menu(Label::Copy))),
        PredefinedMenuItem::paste(app, Some(&t.menu(Label::Paste))),
        PredefinedMenuItem::select_all(app, Some(&t.menu(Label::SelectAll))),
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
    const AGREED: [&str; 16] = [
        "check-updates",
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

    /// The labels are the catalog's: English as before, and every page command in German.
    #[test]
    fn page_commands_are_labelled_from_the_catalogs() {
        use kairos_i18n::{Choice, Lang};
        let en = Texts::new(Choice::Lang(Lang::En));
        let de = Texts::new(Choice::Lang(Lang::De));
        assert_eq!(en.menu(SETTINGS.label), "Settings…");
        assert_eq!(de.menu(NEW_COLLECTION.label), "Neue Auftragssammlung…");
        for command in PAGE_COMMANDS {
            let (english, german) = (en.menu(command.label), de.menu(command.label));
            assert_ne!(german, english, "{} is not translated", command.id);
        }
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
