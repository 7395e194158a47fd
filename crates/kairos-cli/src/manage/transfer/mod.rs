//! `kairos import` and `kairos export`: whole collections in and out, as Kairos bundles, Azure
//! Resource Manager templates or crontabs (docs/semantics.md, "Import and export").
//!
//! - `import.rs`: reading a file into a plan (kairos-import's readers), writing it through the
//!   backend (one transaction on the local database), the report.
//! - `export.rs`: a collection out as a bundle, a template or a crontab.
//! - `passphrase.rs`: the passphrase of a bundle's secrets (a file, the environment, a prompt).
//! - `report.rs`: how an import's report looks, and its exit code.
//! - `remote.rs`: both over the REST API of a `kairos serve`, which has no import operation.

mod export;
mod import;
mod passphrase;
pub mod remote;
mod report;

pub use export::ExportArgs;
pub use import::ImportArgs;
