//! Notifications on macOS: Apple's UserNotifications framework through the objc2 bindings, with
//! the click delivered to a `UNUserNotificationCenterDelegate`.
//!
//! macOS shows notifications only for an app bundle with an identifier: the tray runner inside
//! Kairos.app has one; `kairos serve` started from a terminal does not, and
//! `currentNotificationCenter` would raise an Objective-C exception there, so it is never
//! called without a bundle identifier: the action fails with `NotificationServiceUnavailable`
//! instead. The first notification asks for permission (the system prompt); a refusal is
//! reported the same way, with where to turn it on.
//!
//! Type-checked on Linux (`scripts/macos-check.sh`); it cannot be linked or run here.

// The delegate class is defined with objc2's `define_class!`, whose protocol impls are
// `unsafe impl` (the method signatures must match the Objective-C ones, which they do: they
// are copied from objc2-user-notifications). Raw pointers to `NSError` in completion handlers
// are read through `as_ref`. Nothing else here is unsafe.
#![allow(unsafe_code)]

use super::notification::{Note, Notifier, NotifyError, NotifyFuture, OnClick};
use block2::RcBlock;
use objc2::rc::Retained;
use objc2::runtime::{Bool, NSObject, NSObjectProtocol, ProtocolObject};
use objc2::{define_class, msg_send, AllocAnyThread, DefinedClass};
use objc2_foundation::{NSBundle, NSError, NSString};
use objc2_user_notifications::{
    UNAuthorizationOptions, UNMutableNotificationContent, UNNotificationRequest,
    UNNotificationResponse, UNUserNotificationCenter, UNUserNotificationCenterDelegate,
};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, OnceLock};
use std::time::Duration;
use tokio::sync::{oneshot, OnceCell};

/// Separates the parts of a request identifier: a counter, the collection and the job.
const SEPARATOR: char = '\u{1f}';
/// The permission prompt waits for the user; showing one notification does not.
const PERMISSION_TIMEOUT: Duration = Duration::from_secs(120);
const SHOW_TIMEOUT: Duration = Duration::from_secs(5);

struct DelegateIvars {
    on_click: OnClick,
}

define_class!(
    // SAFETY: NSObject has no subclassing requirements, and the class implements no `Drop`.
    #[unsafe(super(NSObject))]
    #[name = "KairosNotificationDelegate"]
    #[ivars = DelegateIvars]
    struct ClickDelegate;

    unsafe impl NSObjectProtocol for ClickDelegate {}

    unsafe impl UNUserNotificationCenterDelegate for ClickDelegate {
        #[unsafe(method(userNotificationCenter:didReceiveNotificationResponse:withCompletionHandler:))]
        fn did_receive(
            &self,
            _center: &UNUserNotificationCenter,
            response: &UNNotificationResponse,
            completion_handler: &block2::DynBlock<dyn Fn()>,
        ) {
            let id = response.notification().request().identifier().to_string();
            if let Some((collection, job)) = job_of(&id) {
                (self.ivars().on_click)(collection, job);
            }
            completion_handler.call(());
        }
    }
);

impl ClickDelegate {
    fn new(on_click: OnClick) -> Retained<ClickDelegate> {
        let this = Self::alloc().set_ivars(DelegateIvars { on_click });
        // SAFETY: NSObject's designated initializer, on a freshly allocated object.
        unsafe { msg_send![super(this), init] }
    }
}

/// The delegate lives as long as the process (the center holds it weakly); set once.
static DELEGATE_SET: OnceLock<()> = OnceLock::new();

pub struct UserNotifier {
    on_click: Option<OnClick>,
    /// The answer to the permission prompt, asked once.
    permission: OnceCell<Result<(), NotifyError>>,
    counter: AtomicU64,
}

impl std::fmt::Debug for UserNotifier {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("UserNotifier")
            .field("clickable", &self.on_click.is_some())
            .finish_non_exhaustive()
    }
}

impl UserNotifier {
    pub fn new(on_click: Option<OnClick>) -> UserNotifier {
        UserNotifier {
            on_click,
            permission: OnceCell::new(),
            counter: AtomicU64::new(0),
        }
    }

    /// The notification center, or why there is none for this process.
    fn center(&self) -> Result<Retained<UNUserNotificationCenter>, NotifyError> {
        if NSBundle::mainBundle().bundleIdentifier().is_none() {
            return Err(NotifyError::Unavailable(
                "no desktop notification service: macOS shows notifications only for an app \
                 bundle; run Kairos from Kairos.app"
                    .into(),
            ));
        }
        let center = UNUserNotificationCenter::currentNotificationCenter();
        if let Some(on_click) = self.on_click.clone() {
            DELEGATE_SET.get_or_init(|| {
                let delegate = ClickDelegate::new(on_click);
                center.setDelegate(Some(ProtocolObject::from_ref(&*delegate)));
                // Kept for the life of the process: the center only holds a weak reference.
                std::mem::forget(delegate);
            });
        }
        Ok(center)
    }

    /// Ask for permission; the answer comes on the receiver. (The Objective-C objects stay in
    /// this non-async function: they are not `Send`.)
    fn request_permission(&self) -> Result<oneshot::Receiver<Result<bool, String>>, NotifyError> {
        let center = self.center()?;
        let (send, answer) = oneshot::channel::<Result<bool, String>>();
        let send = Mutex::new(Some(send));
        let handler = RcBlock::new(move |granted: Bool, error: *mut NSError| {
            // SAFETY: the framework passes a valid NSError or null.
            let error = unsafe { error.as_ref() }.map(|e| e.localizedDescription().to_string());
            if let Some(send) = send.lock().ok().and_then(|mut s| s.take()) {
                let _ = send.send(error.map_or(Ok(granted.as_bool()), Err));
            }
        });
        center.requestAuthorizationWithOptions_completionHandler(
            UNAuthorizationOptions::Alert | UNAuthorizationOptions::Sound,
            &handler,
        );
        Ok(answer)
    }

    async fn ask_permission(&self) -> Result<(), NotifyError> {
        let answer = self.request_permission()?;
        match tokio::time::timeout(PERMISSION_TIMEOUT, answer).await {
            Ok(Ok(Ok(true))) => Ok(()),
            Ok(Ok(Ok(false))) => Err(NotifyError::Unavailable(
                "no desktop notification service: notifications are turned off for Kairos; \
                 turn them on in System Settings › Notifications › Kairos"
                    .into(),
            )),
            Ok(Ok(Err(e))) => Err(NotifyError::Unavailable(format!(
                "no desktop notification service: macOS refused notifications for Kairos ({e})"
            ))),
            Ok(Err(_)) | Err(_) => Err(NotifyError::Unavailable(
                "no desktop notification service: macOS did not answer the permission request"
                    .into(),
            )),
        }
    }

    /// Hand the notification to the center; whether it was shown comes on the receiver.
    fn add_request(
        &self,
        note: &Note,
    ) -> Result<oneshot::Receiver<Result<(), String>>, NotifyError> {
        let center = self.center()?;
        let content = UNMutableNotificationContent::new();
        content.setTitle(&NSString::from_str(&note.title));
        content.setBody(&NSString::from_str(&note.body));
        let n = self.counter.fetch_add(1, Ordering::Relaxed);
        let id = format!("{n}{SEPARATOR}{}{SEPARATOR}{}", note.collection, note.job);
        let request = UNNotificationRequest::requestWithIdentifier_content_trigger(
            &NSString::from_str(&id),
            &content,
            None,
        );
        let (send, shown) = oneshot::channel::<Result<(), String>>();
        let send = Mutex::new(Some(send));
        let handler = RcBlock::new(move |error: *mut NSError| {
            // SAFETY: the framework passes a valid NSError or null.
            let error = unsafe { error.as_ref() }.map(|e| e.localizedDescription().to_string());
            if let Some(send) = send.lock().ok().and_then(|mut s| s.take()) {
                let _ = send.send(error.map_or(Ok(()), Err));
            }
        });
        center.addNotificationRequest_withCompletionHandler(&request, Some(&handler));
        Ok(shown)
    }

    async fn show(&self, note: &Note) -> Result<(), NotifyError> {
        self.permission
            .get_or_init(|| self.ask_permission())
            .await
            .clone()?;
        let shown = self.add_request(note)?;
        match tokio::time::timeout(SHOW_TIMEOUT, shown).await {
            Ok(Ok(Ok(()))) => Ok(()),
            Ok(Ok(Err(e))) => Err(NotifyError::Failed(format!(
                "macOS did not show the notification: {e}"
            ))),
            Ok(Err(_)) | Err(_) => Err(NotifyError::Unavailable(format!(
                "no desktop notification service: macOS did not show the notification within {} s",
                SHOW_TIMEOUT.as_secs()
            ))),
        }
    }
}

/// (collection, job) from a request identifier made by [`UserNotifier::show`].
fn job_of(id: &str) -> Option<(String, String)> {
    let mut parts = id.splitn(3, SEPARATOR);
    let (_n, collection, job) = (parts.next()?, parts.next()?, parts.next()?);
    Some((collection.to_string(), job.to_string()))
}

impl Notifier for UserNotifier {
    fn notify<'a>(&'a self, note: &'a Note) -> NotifyFuture<'a> {
        Box::pin(self.show(note))
    }
}
