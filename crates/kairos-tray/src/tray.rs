//! The tray icon and its menu, one code path on every system through `tray-icon`: its
//! StatusNotifierItem backend on Linux (D-Bus, no GTK, so the always-running process stays
//! small), the notification area on Windows and the status bar on macOS.
//!
//! The icon and the menu are not `Send`: they live on the thread of the main loop
//! (`main_loop`), which calls [`Tray::show`] with each new overview. Clicks come back as
//! [`TrayCommand`]s on a channel the runner listens to.

use crate::overview::{last_failure_label, next_run_label, Overview};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use tokio::sync::mpsc::UnboundedSender;
use tray_icon::menu::{Menu, MenuEvent, MenuId, MenuItem, PredefinedMenuItem};
use tray_icon::{MouseButton, MouseButtonState, TrayIcon, TrayIconBuilder, TrayIconEvent};

/// What a click asks of the tray runner.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TrayCommand {
    OpenWindow,
    PauseAll,
    ResumeAll,
    Quit,
}

/// The menu's labels, shared by every system.
pub const OPEN: &str = "Open Kairos";
pub const PAUSE: &str = "Pause all jobs";
pub const RESUME: &str = "Resume all jobs";
pub const QUIT: &str = "Quit Kairos";

pub struct Tray {
    icon: TrayIcon,
    next_run: MenuItem,
    last_failure: MenuItem,
    pause: MenuItem,
    /// Read by the click handler (another thread on Linux) to tell pause from resume.
    paused: Arc<AtomicBool>,
    shown: Option<Overview>,
}

impl std::fmt::Debug for Tray {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tray").field("shown", &self.shown).finish()
    }
}

impl Tray {
    /// The icon with its menu, showing `overview`. An error means no tray on this desktop (no
    /// StatusNotifierWatcher, no notification area); the runner goes on without one.
    pub fn create(commands: UnboundedSender<TrayCommand>) -> Result<Tray, TrayError> {
        let overview = Overview::default();
        let open = MenuItem::new(OPEN, true, None);
        let next_run = MenuItem::new(next_run_label(&overview), false, None);
        let last_failure = MenuItem::new(last_failure_label(&overview), false, None);
        let pause = MenuItem::new(PAUSE, true, None);
        let quit = MenuItem::new(QUIT, true, None);
        let menu = Menu::new();
        menu.append_items(&[
            &open,
            &PredefinedMenuItem::separator(),
            &next_run,
            &last_failure,
            &PredefinedMenuItem::separator(),
            &pause,
            &quit,
        ])
        .map_err(TrayError::Menu)?;

        let paused = Arc::new(AtomicBool::new(overview.paused));
        let ids = MenuIds {
            open: open.id().clone(),
            pause: pause.id().clone(),
            quit: quit.id().clone(),
        };
        let (menu_commands, flag) = (commands.clone(), paused.clone());
        MenuEvent::set_event_handler(Some(move |event: MenuEvent| {
            if let Some(command) = ids.command(&event.id, flag.load(Ordering::Relaxed)) {
                let _ = menu_commands.send(command);
            }
        }));
        // (Both handlers are set once per process: `create` runs once.)
        // A left click opens the window (Windows, Linux); macOS shows the menu, as its status
        // items do.
        TrayIconEvent::set_event_handler(Some(move |event: TrayIconEvent| {
            if let TrayIconEvent::Click {
                button: MouseButton::Left,
                button_state: MouseButtonState::Up,
                ..
            } = event
            {
                let _ = commands.send(TrayCommand::OpenWindow);
            }
        }));

        let icon = TrayIconBuilder::new()
            .with_id("kairos")
            .with_title("Kairos")
            .with_tooltip(tooltip(&overview))
            .with_icon(icon())
            .with_menu(Box::new(menu))
            .with_menu_on_left_click(cfg!(target_os = "macos"))
            .build()?;
        Ok(Tray {
            icon,
            next_run,
            last_failure,
            pause,
            paused,
            shown: Some(overview),
        })
    }

    /// Show a new overview; unchanged parts are left alone.
    pub fn show(&mut self, overview: &Overview) {
        if self.shown.as_ref() == Some(overview) {
            return;
        }
        self.next_run.set_text(next_run_label(overview));
        self.last_failure.set_text(last_failure_label(overview));
        self.pause
            .set_text(if overview.paused { RESUME } else { PAUSE });
        self.paused.store(overview.paused, Ordering::Relaxed);
        if let Err(e) = self.icon.set_tooltip(Some(tooltip(overview))) {
            tracing::warn!(error = %e, "cannot update the tray tooltip");
        }
        self.shown = Some(overview.clone());
    }
}

/// Why there is no tray icon.
#[derive(Debug, thiserror::Error)]
pub enum TrayError {
    #[error("No tray icon: cannot build its menu: {0}")]
    Menu(tray_icon::menu::Error),
    #[error("No tray icon: {0}")]
    Icon(#[from] tray_icon::Error),
}

struct MenuIds {
    open: MenuId,
    pause: MenuId,
    quit: MenuId,
}

impl MenuIds {
    fn command(&self, id: &MenuId, paused: bool) -> Option<TrayCommand> {
        if *id == self.open {
            Some(TrayCommand::OpenWindow)
        } else if *id == self.pause {
            Some(if paused {
                TrayCommand::ResumeAll
            } else {
                TrayCommand::PauseAll
            })
        } else if *id == self.quit {
            Some(TrayCommand::Quit)
        } else {
            None
        }
    }
}

fn tooltip(overview: &Overview) -> String {
    format!("Kairos\n{}", next_run_label(overview))
}

/// A 32×32 clock face (RGBA), drawn here so the runner needs no image decoder.
fn icon() -> tray_icon::Icon {
    const SIZE: u32 = 32;
    let mut rgba = Vec::with_capacity((SIZE * SIZE * 4) as usize);
    for y in 0..SIZE {
        for x in 0..SIZE {
            let (dx, dy) = (x as f32 - 15.5, y as f32 - 15.5);
            let r = (dx * dx + dy * dy).sqrt();
            let hand = (x == 15 || x == 16) && (6..=16).contains(&y)
                || (y == 15 || y == 16) && (15..=23).contains(&x);
            let pixel: [u8; 4] = if r > 15.5 {
                [0, 0, 0, 0]
            } else if hand {
                [255, 255, 255, 255]
            } else {
                [0x2a, 0x7a, 0xe2, 255]
            };
            rgba.extend_from_slice(&pixel);
        }
    }
    tray_icon::Icon::from_rgba(rgba, SIZE, SIZE).expect("32×32 RGBA is a valid icon")
}
