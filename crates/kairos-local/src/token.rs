//! The API token: from `KAIROS_API_TOKEN`, or generated once into the data directory.

use crate::{create_atomically, write_atomically, FileMode, LocalError};
use std::path::Path;

pub const TOKEN_FILE: &str = "api-token";

/// The shortest token accepted, in characters. Generated tokens have 64.
pub const MIN_TOKEN_CHARS: usize = 32;

/// `KAIROS_API_TOKEN` when set (and not blank), else the token kept in `DIR/api-token`, created
/// on first start. Neither is ever logged. A token shorter than [`MIN_TOKEN_CHARS`] is refused,
/// from either source: the message says so, without the token.
pub fn api_token(dir: &Path) -> Result<String, LocalError> {
    if let Ok(token) = std::env::var("KAIROS_API_TOKEN") {
        if !token.trim().is_empty() {
            tracing::info!("API token from KAIROS_API_TOKEN");
            return long_enough(token.trim().to_string(), "KAIROS_API_TOKEN");
        }
        tracing::warn!("KAIROS_API_TOKEN is set but blank; using the api-token file");
    }
    let token = token_from_file(dir).map_err(LocalError::DataDirectory)?;
    long_enough(token, &dir.join(TOKEN_FILE).display().to_string())
}

fn long_enough(token: String, source: &str) -> Result<String, LocalError> {
    let chars = token.chars().count();
    if chars < MIN_TOKEN_CHARS {
        return Err(LocalError::WeakToken(format!(
            "the API token from {source} has {chars} characters; at least {MIN_TOKEN_CHARS} are \
             required (for example: head -c 32 /dev/urandom | base64), or leave KAIROS_API_TOKEN \
             unset to use a generated one"
        )));
    }
    Ok(token)
}

fn token_from_file(dir: &Path) -> Result<String, String> {
    let path = dir.join(TOKEN_FILE);
    match std::fs::read_to_string(&path) {
        Ok(text) if !text.trim().is_empty() => {
            restrict(&path)?;
            tracing::info!(file = %path.display(), "API token from file");
            Ok(text.trim().to_string())
        }
        Ok(_) => write_new_token(dir, &path, true),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => write_new_token(dir, &path, false),
        Err(e) => Err(format!("cannot read {}: {e}", path.display())),
    }
}

/// A new random token (64 hex digits: two UUIDv4s, 244 random bits from the OS), written with
/// mode 0600 to a temporary file and then put in place atomically (`create_atomically`: a
/// link or a rename that refuses an existing name; the directory synced after), so a concurrent
/// start never reads a half-written file: when two processes race, the first one wins and both
/// use its token. `replace` overwrites a blank token file (`write_atomically`).
fn write_new_token(dir: &Path, path: &Path, replace: bool) -> Result<String, String> {
    let token = format!(
        "{}{}",
        uuid::Uuid::new_v4().simple(),
        uuid::Uuid::new_v4().simple()
    );
    let text = format!("{token}\n");
    let placed = if replace {
        write_atomically(path, text.as_bytes(), FileMode::Private)
    } else {
        create_atomically(path, text.as_bytes(), FileMode::Private)
    };
    match placed {
        Ok(()) => {
            tracing::info!(file = %path.display(), "API token generated");
            Ok(token)
        }
        // Another process created the file first: use its token.
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists && !replace => token_from_file(dir),
        Err(e) => Err(format!("cannot write {}: {e}", path.display())),
    }
}

/// Make sure only the owner can read the token file.
fn restrict(path: &Path) -> Result<(), String> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(path)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?
            .permissions()
            .mode();
        if mode & 0o077 != 0 {
            tracing::warn!(file = %path.display(), "the token file was readable by others; setting mode 0600");
            std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o600))
                .map_err(|e| format!("cannot restrict {}: {e}", path.display()))?;
        }
    }
    #[cfg(not(unix))]
    let _ = path;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The names in `dir`, sorted.
    fn names(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn starts_at_once_agree_on_one_token_and_leave_no_temporary_file() {
        let dir = tempfile::tempdir().unwrap();
        let tokens: Vec<String> = std::thread::scope(|s| {
            let handles: Vec<_> = (0..8)
                .map(|_| s.spawn(|| token_from_file(dir.path()).unwrap()))
                .collect();
            handles.into_iter().map(|h| h.join().unwrap()).collect()
        });
        assert!(tokens.iter().all(|t| t == &tokens[0]), "{tokens:?}");
        assert_eq!(tokens[0].len(), 64);
        let file = dir.path().join(TOKEN_FILE);
        assert_eq!(
            std::fs::read_to_string(&file).unwrap(),
            format!("{}\n", tokens[0])
        );
        assert_eq!(names(dir.path()), [TOKEN_FILE]);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&file).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o600);
        }
    }

    #[test]
    fn a_blank_token_file_is_replaced() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join(TOKEN_FILE);
        std::fs::write(&file, " \n").unwrap();
        let token = token_from_file(dir.path()).unwrap();
        assert_eq!(token.len(), 64);
        assert_eq!(
            std::fs::read_to_string(&file).unwrap(),
            format!("{token}\n")
        );
        assert_eq!(names(dir.path()), [TOKEN_FILE]);
        assert_eq!(token_from_file(dir.path()).unwrap(), token, "then kept");
    }
}
