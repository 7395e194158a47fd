//! The runner end to end inside one process: a real SQLite file, a real HTTP target on loopback,
//! and a manual clock, so the tests move time instead of sleeping and wait for the runner to go
//! idle before asserting that nothing happened.

mod command;
mod far_end;
mod faults;
mod harness;
mod lease;
mod metrics;
mod retention;
mod running;
mod schedules;
mod snapshot;
mod undo;
