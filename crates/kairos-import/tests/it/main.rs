//! kairos-import's tests, one binary (docs/architecture.md, "Layout choices").

mod arm;
mod bundle;
mod crontab;
mod plan;
