//! Crontab import and export.

mod equivalence;
mod matcher;
