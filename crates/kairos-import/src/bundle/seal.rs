//! A bundle's secrets, encrypted with a passphrase as an ASCII-armored age file (scrypt for the
//! passphrase, ChaCha20-Poly1305 for the data). This is the one place in kairos-import that is
//! not pure: age draws its file key and salt from the system's random source and sizes scrypt's
//! work factor by timing this machine.

use super::Secrets;
use age::secrecy::SecretString;

#[derive(Debug, thiserror::Error)]
pub enum SealError {
    #[error("the passphrase is empty; choose one to protect the secrets")]
    EmptyPassphrase,
    #[error("the passphrase does not open the bundle's secrets")]
    WrongPassphrase,
    #[error("the bundle's secrets are damaged: {0}")]
    Damaged(String),
    #[error("cannot encrypt the secrets: {0}")]
    Encrypt(String),
}

impl SealError {
    pub fn code(&self) -> &'static str {
        match self {
            SealError::EmptyPassphrase => "PassphraseEmpty",
            SealError::WrongPassphrase => "PassphraseWrong",
            SealError::Damaged(_) => "BundleSecretsDamaged",
            SealError::Encrypt(_) => "EncryptFailed",
        }
    }
}

pub(super) fn seal(secrets: &Secrets, passphrase: &str) -> Result<String, SealError> {
    if passphrase.is_empty() {
        return Err(SealError::EmptyPassphrase);
    }
    let plaintext = serde_json::to_vec(secrets).map_err(|e| SealError::Encrypt(e.to_string()))?;
    let recipient = age::scrypt::Recipient::new(SecretString::from(passphrase.to_string()));
    age::encrypt_and_armor(&recipient, &plaintext).map_err(|e| SealError::Encrypt(e.to_string()))
}

pub(super) fn open(sealed: &str, passphrase: &str) -> Result<Secrets, SealError> {
    let identity = age::scrypt::Identity::new(SecretString::from(passphrase.to_string()));
    let plaintext = age::decrypt(&identity, sealed.as_bytes()).map_err(|e| match e {
        age::DecryptError::DecryptionFailed | age::DecryptError::NoMatchingKeys => {
            SealError::WrongPassphrase
        }
        other => SealError::Damaged(other.to_string()),
    })?;
    serde_json::from_slice(&plaintext).map_err(|e| SealError::Damaged(e.to_string()))
}
