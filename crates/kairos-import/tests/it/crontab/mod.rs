//! Crontab import and export.

mod equivalence;
mod export;
mod import;
mod matcher;
