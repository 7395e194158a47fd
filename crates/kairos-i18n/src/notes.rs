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
}
