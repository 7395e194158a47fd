//! The tray runner's language: chosen at start (`KAIROS_LANG`, the saved setting, the OS) and
//! followed at once when the setting changes, for the menu and for notifications.

use crate::main_loop::Ui;
use kairos_engine::actions::{Note, NoteKind};
use kairos_engine::Engine;
use kairos_i18n::{choose_here, Choice, Texts};
use kairos_local::settings;
use std::sync::{Arc, RwLock};

/// The texts notifications are worded with, shared with the notifier.
pub type SharedTexts = Arc<RwLock<Texts>>;

/// The texts for this process before the settings are read: `KAIROS_LANG`, else the OS.
pub fn initial_texts() -> Texts {
    Texts::new(choose_here(None))
}

/// The language the runner speaks, following the saved setting.
#[derive(Debug)]
pub struct Language {
    current: Option<Choice>,
    shared: SharedTexts,
}

impl Language {
    pub fn new(shared: SharedTexts) -> Language {
        Language {
            current: None,
            shared,
        }
    }

    /// Read the setting; when the language it gives is new, the notifier and the tray (through
    /// `ui`) switch to it, and the answer is true.
    pub fn follow(&mut self, engine: &Engine, ui: &Ui) -> bool {
        let saved = match settings::language(engine) {
            Ok(saved) => saved,
            Err(e) => {
                tracing::warn!(error = %e, "cannot read the language setting");
                return false;
            }
        };
        let choice = choose_here(saved.map(|l| l.tag()));
        if self.current == Some(choice) {
            return false;
        }
        self.current = Some(choice);
        if let Ok(mut shared) = self.shared.write() {
            *shared = Texts::new(choice);
        }
        ui.language(Texts::new(choice));
        tracing::info!(language = choice.tag(), "speaking");
        true
    }

    /// `f` with the texts of the language spoken now.
    pub fn with<R>(&self, f: impl FnOnce(&Texts) -> R) -> R {
        match self.shared.read() {
            Ok(texts) => f(&texts),
            Err(poisoned) => f(&poisoned.into_inner()),
        }
    }
}

/// `note` as the user reads it: the engine's own fault notification gets its title from the
/// catalog, and so do the parts a job's Notification action leaves to the default; what the job
/// words itself is shown as it is.
pub fn worded(texts: &SharedTexts, note: &Note) -> Note {
    let mut note = note.clone();
    let Ok(texts) = texts.read() else {
        return note;
    };
    match &note.kind {
        NoteKind::Shown => {}
        NoteKind::Fault => note.title = texts.note_fault_title(&note.job, &note.collection),
        NoteKind::ActionDefaults(d) => {
            if d.title {
                let failed = d.failure.is_some();
                note.title = texts.note_action_title(&note.job, &note.collection, failed);
            }
            if d.body {
                let due = d.due.with_timezone(&chrono::Local);
                let (date, time) = (texts.date(&due), texts.time(&due));
                note.body =
                    texts.note_action_body(&date, &time, &d.execution, d.failure.as_deref());
            }
        }
    }
    note
}

#[cfg(test)]
mod tests {
    use super::*;
    use kairos_engine::actions::ActionDefaults;
    use kairos_i18n::Lang;

    fn note(kind: NoteKind) -> Note {
        Note {
            title: "Kairos: job 'nightly' in 'ops' faulted".into(),
            body: "HTTP 500".into(),
            collection: "ops".into(),
            job: "nightly".into(),
            kind,
        }
    }

    #[test]
    fn fault_notifications_are_worded_in_the_chosen_language() {
        let texts: SharedTexts = Arc::new(RwLock::new(Texts::new(Choice::Lang(Lang::De))));
        let fault = worded(&texts, &note(NoteKind::Fault));
        assert_eq!(
            fault.title,
            "Kairos: Auftrag „nightly“ in „ops“ ist fehlerhaft"
        );
        assert_eq!(fault.body, "HTTP 500");
        // A job's own Notification action keeps its words.
        assert_eq!(
            worded(&texts, &note(NoteKind::Shown)),
            note(NoteKind::Shown)
        );
    }

    #[test]
    fn only_what_a_notification_action_leaves_to_the_default_is_worded() {
        let texts: SharedTexts = Arc::new(RwLock::new(Texts::new(Choice::Lang(Lang::De))));
        let defaults = |title, body| {
            note(NoteKind::ActionDefaults(Box::new(ActionDefaults {
                title,
                body,
                due: chrono::DateTime::from_timestamp(1_800_000_000, 0).unwrap(),
                execution: "08584".into(),
                failure: Some("HTTP 500".into()),
            })))
        };
        let own_title = worded(&texts, &defaults(false, true));
        assert_eq!(own_title.title, "Kairos: job 'nightly' in 'ops' faulted");
        let body = &own_title.body;
        assert!(
            body.starts_with("Die am ") && body.ends_with("(Kennung 08584): HTTP 500"),
            "{body}"
        );
        let own_body = worded(&texts, &defaults(true, false));
        assert_eq!(
            own_body.title,
            "Kairos: Auftrag „nightly“ in „ops“ ist fehlgeschlagen"
        );
        assert_eq!(own_body.body, "HTTP 500");
    }
}
