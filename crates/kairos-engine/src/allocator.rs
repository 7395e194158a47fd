//! The memory allocator of the programs that run jobs (`kairos serve`, the tray runner).
//!
//! A burst of attempts is a storm of small allocations (requests, headers, history rows): with
//! glibc's malloc, allocating and freeing was a fifth of the HTTP path's CPU, and mimalloc took
//! a tenth off a burst's server CPU (docs/benchmarks.md, "CPU per executed attempt"). It is the
//! same allocator on all three systems. Built without transparent huge pages (`no_thp`): with
//! them, each 2 MB region it touched became resident whole, 8 MB more for an idle server.
//!
//! Each program declares it: `#[global_allocator] static A: Allocator = Allocator;`.

pub use mimalloc::MiMalloc as Allocator;
