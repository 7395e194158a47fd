//! The page's clock under `KAIROS_TEST_NOW` (the end-to-end tests): the engine's clock is
//! shifted (`kairos_local::test_clock`), and so must be what the page reads, or the editor's
//! default start time and the overview's "now" would come from the real day while the engine's
//! runs come from the test's. The script replaces `Date` before the page's own code runs.

use tauri::{Manager, Runtime, WebviewWindowBuilder};

/// `builder` with the page's `Date` shifted by the engine's offset, when a test chose the
/// instant; unchanged otherwise.
pub fn shift_page_clock<'a, R: Runtime, M: Manager<R>>(
    builder: WebviewWindowBuilder<'a, R, M>,
    engine: &kairos_engine::Engine,
) -> WebviewWindowBuilder<'a, R, M> {
    if std::env::var_os(kairos_local::test_clock::TEST_NOW_VARIABLE).is_none() {
        return builder;
    }
    let offset = engine.clock().now() - chrono::Utc::now();
    builder.initialization_script(page_script(offset.num_milliseconds()))
}

/// A `Date` whose `now()` and argument-less constructor read the real time plus `offset_ms`;
/// everything else (parsing, fields, `Intl`) is the real `Date`'s.
pub fn page_script(offset_ms: i64) -> String {
    format!(
        "(() => {{\n\
         const shift = {offset_ms};\n\
         const Real = Date;\n\
         class TestDate extends Real {{\n\
           constructor(...args) {{ if (args.length === 0) super(Real.now() + shift); else super(...args); }}\n\
           static now() {{ return Real.now() + shift; }}\n\
         }}\n\
         globalThis.Date = TestDate;\n\
         }})();"
    )
}
