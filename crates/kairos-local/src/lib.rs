//! The local installation, shared by `kairos serve`, the tray runner and the window: where the
//! files live on each system (data directory, database, API token) and the desktop settings.
//! It sits below the API and the desktop crates so finding a file needs neither.

mod atomic;
pub mod autostart;
mod error;
pub mod handover;
mod paths;
pub mod programs;
pub mod settings;
pub mod shutdown;
pub mod test_clock;
mod token;

pub use atomic::{create_atomically, write_atomically, FileMode};
pub use error::LocalError;
pub use paths::{create_private, data_dir, data_dir_from_env, DATABASE_FILE, DATA_DIR_VARIABLE};
pub use token::{api_token, MIN_TOKEN_CHARS, TOKEN_FILE};
