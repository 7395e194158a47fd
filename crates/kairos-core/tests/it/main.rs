//! Integration tests of kairos-core: one binary, one module per area, each with its `check`.

mod describe;
mod model;
mod recurrence;
mod validation;
mod window;
