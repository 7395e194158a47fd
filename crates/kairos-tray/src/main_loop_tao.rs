//! The main loop on Windows and macOS: tao's event loop, which the native tray icon needs on
//! the main thread (Win32 messages, the AppKit run loop). The runner's messages arrive as user
//! events through an `EventLoopProxy`.

use super::{handle, Ui, UiMessage};
use crate::tray::Tray;
use std::sync::Mutex;
use tao::event::{Event, StartCause};
use tao::event_loop::{ControlFlow, EventLoopBuilder};

pub fn run(
    make_tray: impl FnOnce() -> Option<Tray> + 'static,
    start: impl FnOnce(Ui),
    end_session: impl FnOnce() + 'static,
) -> u8 {
    #[allow(unused_mut)]
    let mut event_loop = EventLoopBuilder::<UiMessage>::with_user_event().build();
    #[cfg(target_os = "macos")]
    {
        // A status item and no Dock icon: the runner is not an app the user switches to.
        use tao::platform::macos::{ActivationPolicy, EventLoopExtMacOS};
        event_loop.set_activation_policy(ActivationPolicy::Accessory);
    }
    // The proxy is Send; the Mutex makes the handle Sync too.
    let proxy = Mutex::new(event_loop.create_proxy());
    start(Ui::new(move |message| {
        if let Ok(proxy) = proxy.lock() {
            let _ = proxy.send_event(message);
        }
    }));
    let mut make_tray = Some(make_tray);
    let mut tray: Option<Tray> = None;
    let mut end_session = Some(end_session);
    event_loop.run(move |event, _, control_flow| {
        *control_flow = ControlFlow::Wait;
        match event {
            Event::NewEvents(StartCause::Init) => {
                tray = make_tray.take().and_then(|make| make());
            }
            Event::UserEvent(message) => {
                if let Some(code) = handle(&mut tray, message) {
                    // The runner has stopped by itself: the loop's end below is ours.
                    end_session = None;
                    *control_flow = ControlFlow::ExitWithCode(i32::from(code));
                }
            }
            // The loop ends without the runner having asked: on Windows tao's answer to
            // WM_ENDSESSION (log-off, shutdown, an installer's Restart Manager), after which it
            // exits the process at once; on macOS the app being terminated. The runner stops
            // here first, so what it was doing is recorded, not cut off.
            Event::LoopDestroyed => {
                if let Some(end_session) = end_session.take() {
                    end_session();
                }
                tray = None;
            }
            _ => {}
        }
    })
}
