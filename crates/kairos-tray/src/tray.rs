//! The tray icon and its menu, one code path on every system through `tray-icon`: its
//! StatusNotifierItem backend on Linux (D-Bus, no GTK, so the always-running process stays
//! small), the notification area on Windows and the status bar on macOS.
//!
//! The icon and the menu are not `Send`: they live on the thread of the main loop
//! (`main_loop`), which calls [`Tray::show`] with each new overview. Clicks come back as
//! [`TrayCommand`]s on a channel the runner listens to. The texts are in the chosen language
//! (`labels.rs`); [`Tray::set_texts`] relabels everything when the language changes.

use crate::labels::{menu_texts, MenuTexts};
use crate::overview::Overview;
use kairos_i18n::Texts;
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

pub struct Tray {
    icon: TrayIcon,
    open: MenuItem,
    next_run: MenuItem,
    last_failure: MenuItem,
    pause: MenuItem,
    quit: MenuItem,
    /// Read by the click handler (another thread on Linux) to tell pause from resume.
    paused: Arc<AtomicBool>,
    texts: Texts,
    overview: Overview,
    /// What the menu shows now, so unchanged texts are not sent again.
    shown: MenuTexts,
}

impl std::fmt::Debug for Tray {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tray").field("shown", &self.shown).finish()
    }
}

impl Tray {
    /// The icon with its menu, showing `overview`. An error means no tray on this desktop (no
    /// StatusNotifierWatcher, no notification area); the runner goes on without one.
    pub fn create(commands: UnboundedSender<TrayCommand>, texts: Texts) -> Result<Tray, TrayError> {
        let overview = Overview::default();
        let shown = menu_texts(&texts, &overview);
        let open = MenuItem::new(&shown.open, true, None);
        let next_run = MenuItem::new(&shown.next_run, false, None);
        let last_failure = MenuItem::new(&shown.last_failure, false, None);
        let pause = MenuItem::new(&shown.pause, true, None);
        let quit = MenuItem::new(&shown.quit, true, None);
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
            .with_tooltip(&shown.tooltip)
            .with_icon(icon())
            .with_menu(Box::new(menu))
            .with_menu_on_left_click(cfg!(target_os = "macos"))
            .build()?;
        Ok(Tray {
            icon,
            open,
            next_run,
            last_failure,
            pause,
            quit,
            paused,
            texts,
            overview,
            shown,
        })
    }

    /// Show a new overview; unchanged texts are left alone.
    pub fn show(&mut self, overview: &Overview) {
        self.paused.store(overview.paused, Ordering::Relaxed);
        self.overview = overview.clone();
        self.refresh();
    }

    /// Speak another language: every text of the menu and the tooltip at once.
    pub fn set_texts(&mut self, texts: Texts) {
        self.texts = texts;
        self.refresh();
    }

    fn refresh(&mut self) {
        let new = menu_texts(&self.texts, &self.overview);
        let items = [
            (&self.open, &new.open, &self.shown.open),
            (&self.next_run, &new.next_run, &self.shown.next_run),
            (
                &self.last_failure,
                &new.last_failure,
                &self.shown.last_failure,
            ),
            (&self.pause, &new.pause, &self.shown.pause),
            (&self.quit, &new.quit, &self.shown.quit),
        ];
        for (item, text, before) in items {
            if text != before {
                item.set_text(text);
            }
        }
        if new.tooltip != self.shown.tooltip {
            if let Err(e) = self.icon.set_tooltip(Some(&new.tooltip)) {
                tracing::warn!(error = %e, "cannot update the tray tooltip");
            }
        }
        self.shown = new;
    }
}

/// Why there is no tray icon.
#[derive(Debug, thiserror::Error)]
pub enum TrayError {
    // The system's reason, worded into a sentence by problems.rs (`Problem::NoIcon`).
    #[error("cannot build its menu: {0}")]
    Menu(tray_icon::menu::Error),
    #[error("{0}")]
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
