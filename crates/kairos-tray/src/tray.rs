//! The tray icon of the tray runner: StatusNotifierItem over D-Bus (ksni), no GTK, so the
//! process that keeps jobs firing stays small.

use crate::overview::{last_failure_label, next_run_label, Overview};
use ksni::menu::StandardItem;
use ksni::{Icon, MenuItem};
use tokio::sync::mpsc::UnboundedSender;

/// What a menu click asks of the tray runner.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TrayCommand {
    OpenWindow,
    PauseAll,
    ResumeAll,
    Quit,
}

#[derive(Debug)]
pub struct KairosTray {
    pub overview: Overview,
    pub commands: UnboundedSender<TrayCommand>,
}

impl ksni::Tray for KairosTray {
    fn id(&self) -> String {
        "kairos".into()
    }

    fn title(&self) -> String {
        "Kairos".into()
    }

    fn icon_pixmap(&self) -> Vec<Icon> {
        vec![icon()]
    }

    fn tool_tip(&self) -> ksni::ToolTip {
        ksni::ToolTip {
            title: "Kairos".into(),
            description: next_run_label(&self.overview),
            ..Default::default()
        }
    }

    fn activate(&mut self, _x: i32, _y: i32) {
        let _ = self.commands.send(TrayCommand::OpenWindow);
    }

    fn menu(&self) -> Vec<MenuItem<Self>> {
        let send = |command: TrayCommand| -> Box<dyn Fn(&mut Self) + Send> {
            Box::new(move |tray: &mut Self| {
                let _ = tray.commands.send(command);
            })
        };
        let info = |label: String| {
            MenuItem::Standard(StandardItem {
                label,
                enabled: false,
                ..Default::default()
            })
        };
        let (pause_label, pause) = if self.overview.paused {
            ("Resume all jobs", TrayCommand::ResumeAll)
        } else {
            ("Pause all jobs", TrayCommand::PauseAll)
        };
        vec![
            MenuItem::Standard(StandardItem {
                label: "Open Kairos".into(),
                activate: send(TrayCommand::OpenWindow),
                ..Default::default()
            }),
            MenuItem::Separator,
            info(next_run_label(&self.overview)),
            info(last_failure_label(&self.overview)),
            MenuItem::Separator,
            MenuItem::Standard(StandardItem {
                label: pause_label.into(),
                activate: send(pause),
                ..Default::default()
            }),
            MenuItem::Standard(StandardItem {
                label: "Quit Kairos".into(),
                activate: send(TrayCommand::Quit),
                ..Default::default()
            }),
        ]
    }
}

/// A 32×32 clock face (ARGB32, network byte order), drawn here so the runner needs no image
/// decoder.
fn icon() -> Icon {
    const SIZE: i32 = 32;
    let mut data = Vec::with_capacity((SIZE * SIZE * 4) as usize);
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
                [255, 0x2a, 0x7a, 0xe2]
            };
            data.extend_from_slice(&pixel);
        }
    }
    Icon {
        width: SIZE,
        height: SIZE,
        data,
    }
}
