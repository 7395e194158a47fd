//! Notifications: a job that faulted, and Settings' test notification.

use crate::texts::Texts;
use i18n_embed_fl::fl;

impl Texts {
    /// The title of "job `job` in `collection` faulted" (the body is the failure as recorded).
    pub fn note_fault_title(&self, job: &str, collection: &str) -> String {
        self.shown(fl!(
            self.loader,
            "note-fault-title",
            job = job,
            collection = collection
        ))
    }

    pub fn note_test_title(&self) -> String {
        self.shown(fl!(self.loader, "note-test-title"))
    }

    pub fn note_test_body(&self) -> String {
        self.shown(fl!(self.loader, "note-test-body"))
    }

    /// The title of a job's Notification action that names none; `failed` as its error action.
    pub fn note_action_title(&self, job: &str, collection: &str, failed: bool) -> String {
        self.shown(if failed {
            fl!(
                self.loader,
                "note-action-failed-title",
                job = job,
                collection = collection
            )
        } else {
            fl!(
                self.loader,
                "note-action-title",
                job = job,
                collection = collection
            )
        })
    }

    /// The body of a job's Notification action that names none: the occurrence's due `date`
    /// and `time` ([`Texts::date`], [`Texts::time`]), its `execution` tag, and as the error
    /// action the main action's `failure` (its first line).
    pub fn note_action_body(
        &self,
        date: &str,
        time: &str,
        execution: &str,
        failure: Option<&str>,
    ) -> String {
        self.shown(match failure {
            Some(failure) => fl!(
                self.loader,
                "note-action-failed-body",
                date = date,
                time = time,
                execution = execution,
                failure = failure
            ),
            None => fl!(
                self.loader,
                "note-action-body",
                date = date,
                time = time,
                execution = execution
            ),
        })
    }
}

#[cfg(test)]
mod tests {
    use crate::{Choice, Lang, Texts};

    #[test]
    fn the_fault_title_names_the_job_in_each_language() {
        let cases = [
            (Lang::En, "Kairos: job 'nightly' in 'ops' faulted"),
            (
                Lang::De,
                "Kairos: Auftrag „nightly“ in „ops“ ist fehlerhaft",
            ),
            (
                Lang::ZhTw,
                "Kairos：工作集合「ops」中的工作「nightly」發生錯誤",
            ),
            (
                Lang::PtBr,
                "Kairos: o trabalho “nightly” em “ops” está com falha",
            ),
            (
                Lang::Fr,
                "Kairos\u{a0}: le travail «\u{a0}nightly\u{a0}» de «\u{a0}ops\u{a0}» est en erreur",
            ),
        ];
        for (lang, want) in cases {
            let got = Texts::new(Choice::Lang(lang)).note_fault_title("nightly", "ops");
            assert_eq!(got, want, "{lang:?}");
        }
    }

    #[test]
    fn a_notification_action_without_words_gets_them_in_each_language() {
        let de = Texts::new(Choice::Lang(Lang::De));
        assert_eq!(
            de.note_action_title("nightly", "ops", true),
            "Kairos: Auftrag „nightly“ in „ops“ ist fehlgeschlagen"
        );
        assert_eq!(
            de.note_action_body("27.11.", "05:15", "08584", Some("HTTP 500")),
            "Die am 27.11. um 05:15 Uhr fällige Ausführung ist fehlgeschlagen (Kennung 08584): HTTP 500"
        );
        let zh = Texts::new(Choice::Lang(Lang::ZhTw));
        assert_eq!(
            zh.note_action_body("11月27日", "05:15", "08584", None),
            "預定於 11月27日 05:15 的執行（執行識別碼 08584）"
        );
        let en = Texts::new(Choice::Lang(Lang::En));
        assert_eq!(
            en.note_action_title("nightly", "ops", false),
            "Kairos: job 'nightly' in 'ops'"
        );
    }
}
