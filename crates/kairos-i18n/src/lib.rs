//! What the Rust side of Kairos shows a person — the tray runner's menu and tooltip,
//! notifications, the window's native menus — in each language Kairos speaks (en, zh-TW, de,
//! pt-BR, fr), plus the pseudo-locale en-XA that shows untranslated text.
//!
//! The catalogs are Project Fluent files compiled into the binary
//! (`i18n/<tag>/kairos_i18n.ftl`); [`Texts`] words messages for one [`Choice`], with typed
//! methods whose ids and arguments `fl!` checks at compile time. [`choose`] decides the language:
//! `KAIROS_LANG`, else the saved setting, else the OS language, else English. The REST API and
//! the CLI stay English and do not use this crate.

mod choose;
mod menu;
mod notes;
mod problems;
mod pseudo;
mod refusal;
mod texts;
mod tray;

pub use choose::{choose, choose_here, env_override, os_language, Choice, ENV, PSEUDO_TAG};
pub use kairos_core::lang::Lang;
pub use menu::Menu;
pub use texts::Texts;
