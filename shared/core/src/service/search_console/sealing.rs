//! Credentials sealed at rest: AES-256-GCM under a key only the functions that use Google's
//! API can read (a Secrets Manager secret, shared/aws), bound to the account they belong to,
//! so a sealed value copied onto another account's item does not open.

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use hmac::{Hmac, KeyInit, Mac};
use ring::aead::{Aad, LessSafeKey, Nonce, UnboundKey, AES_256_GCM, NONCE_LEN};
use ring::rand::{SecureRandom, SystemRandom};
use serde::{Deserialize, Serialize};
use sha2::Sha256;

use crate::domain::UserId;

/// Written before every sealed value, so a later format or key can be told apart.
const VERSION: &str = "v1.";

/// The key credentials are sealed with, derived from the service's secret text.
pub struct CredentialKey(LessSafeKey);

impl std::fmt::Debug for CredentialKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("CredentialKey(…)")
    }
}

/// A credential as stored: nonce, ciphertext and tag, never the clear text.
#[derive(Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct SealedCredential(String);

impl std::fmt::Debug for SealedCredential {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "SealedCredential({} chars)", self.0.len())
    }
}

impl SealedCredential {
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

#[derive(Debug, thiserror::Error)]
#[error("a sealed credential did not open (another key or account, or damaged)")]
pub struct OpenError;

impl CredentialKey {
    /// At least 32 bytes of secret text (the template's secret holds 64 random characters).
    pub fn from_secret(secret: &[u8]) -> Result<Self, String> {
        if secret.len() < 32 {
            return Err("the credentials key must be at least 32 bytes".into());
        }
        let mut mac = Hmac::<Sha256>::new_from_slice(secret).expect("HMAC takes any key length");
        mac.update(b"keyword-research:credentials:v1");
        let derived = mac.finalize().into_bytes();
        let key = UnboundKey::new(&AES_256_GCM, &derived).expect("a 32-byte AES-256 key");
        Ok(Self(LessSafeKey::new(key)))
    }

    fn aad(owner: UserId) -> String {
        format!("search-console:{owner}")
    }

    pub fn seal(&self, owner: UserId, clear: &[u8]) -> SealedCredential {
        let mut nonce = [0u8; NONCE_LEN];
        SystemRandom::new()
            .fill(&mut nonce)
            .expect("the system's random source");
        let mut sealed = clear.to_vec();
        self.0
            .seal_in_place_append_tag(
                Nonce::assume_unique_for_key(nonce),
                Aad::from(Self::aad(owner).as_bytes()),
                &mut sealed,
            )
            .expect("AES-GCM seals any length a credential has");
        let mut stored = nonce.to_vec();
        stored.extend_from_slice(&sealed);
        SealedCredential(format!("{VERSION}{}", URL_SAFE_NO_PAD.encode(stored)))
    }

    pub fn open(&self, owner: UserId, sealed: &SealedCredential) -> Result<Vec<u8>, OpenError> {
        let encoded = sealed.0.strip_prefix(VERSION).ok_or(OpenError)?;
        let mut bytes = URL_SAFE_NO_PAD.decode(encoded).map_err(|_| OpenError)?;
        if bytes.len() < NONCE_LEN {
            return Err(OpenError);
        }
        let mut sealed = bytes.split_off(NONCE_LEN);
        let nonce = Nonce::try_assume_unique_for_key(&bytes).map_err(|_| OpenError)?;
        let clear = self
            .0
            .open_in_place(nonce, Aad::from(Self::aad(owner).as_bytes()), &mut sealed)
            .map_err(|_| OpenError)?;
        Ok(clear.to_vec())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(text: &str) -> CredentialKey {
        CredentialKey::from_secret(text.as_bytes()).unwrap()
    }

    #[test]
    fn a_sealed_credential_opens_only_for_its_account_and_key() {
        let owner = UserId::new();
        let secret = b"1//0refresh-token-in-clear";
        let sealed = key(&"k".repeat(64)).seal(owner, secret);
        assert!(!sealed.as_str().contains("refresh-token"));
        assert_eq!(key(&"k".repeat(64)).open(owner, &sealed).unwrap(), secret);
        assert!(key(&"k".repeat(64)).open(UserId::new(), &sealed).is_err());
        assert!(key(&"j".repeat(64)).open(owner, &sealed).is_err());
        let mut damaged = sealed.as_str().to_string();
        damaged.push('A');
        assert!(key(&"k".repeat(64))
            .open(owner, &SealedCredential(damaged))
            .is_err());
    }

    #[test]
    fn the_same_credential_seals_differently_each_time() {
        let owner = UserId::new();
        let key = key(&"k".repeat(64));
        assert_ne!(key.seal(owner, b"same"), key.seal(owner, b"same"));
    }

    #[test]
    fn short_keys_are_refused() {
        assert!(CredentialKey::from_secret(b"short").is_err());
    }
}
