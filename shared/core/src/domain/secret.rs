//! Secrets the service hands out or receives. Only their hashes are ever stored.

use argon2::password_hash::rand_core::{OsRng, RngCore};
use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::Argon2;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use sha2::{Digest, Sha256};

const API_KEY_PREFIX: &str = "kr_";
/// 32 random bytes in unpadded base64url.
const TOKEN_CHARS: usize = 43;

fn random_token() -> String {
    let mut bytes = [0u8; 32];
    OsRng.fill_bytes(&mut bytes);
    URL_SAFE_NO_PAD.encode(bytes)
}

fn is_token(raw: &str) -> bool {
    raw.len() == TOKEN_CHARS
        && raw
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

/// SHA-256 of a high-entropy secret, hex encoded. A fast hash is enough here because the
/// secrets are 256-bit random values, not guessable passwords; it also keeps the auth lookup
/// to one key-value read.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct SecretHash(String);

impl SecretHash {
    fn of(secret: &str) -> Self {
        Self(hex::encode(Sha256::digest(secret.as_bytes())))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// An API key secret: `kr_` followed by 256 random bits.
pub struct ApiKeySecret(String);

impl ApiKeySecret {
    pub fn generate() -> Self {
        Self(format!("{API_KEY_PREFIX}{}", random_token()))
    }

    /// Accepts only strings shaped like a key, so junk never reaches the store.
    pub fn parse(raw: &str) -> Option<Self> {
        let raw = raw.trim();
        raw.strip_prefix(API_KEY_PREFIX)
            .filter(|rest| is_token(rest))
            .map(|_| Self(raw.to_string()))
    }

    pub fn hash(&self) -> SecretHash {
        SecretHash::of(&self.0)
    }

    /// The first characters, safe to show in listings so users can tell keys apart.
    pub fn display_prefix(&self) -> String {
        self.0.chars().take(API_KEY_PREFIX.len() + 6).collect()
    }

    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Debug for ApiKeySecret {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "ApiKeySecret({}…)", self.display_prefix())
    }
}

/// A random 256-bit token that stands for something on its own (a session, a share link):
/// handed out once, only its hash is stored, and `Debug` never prints it.
macro_rules! opaque_token {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        pub struct $name(String);

        impl $name {
            pub fn generate() -> Self {
                Self(random_token())
            }

            pub fn parse(raw: &str) -> Option<Self> {
                let raw = raw.trim();
                is_token(raw).then(|| Self(raw.to_string()))
            }

            pub fn hash(&self) -> SecretHash {
                SecretHash::of(&self.0)
            }

            pub fn expose(&self) -> &str {
                &self.0
            }
        }

        impl std::fmt::Debug for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(concat!(stringify!($name), "(…)"))
            }
        }
    };
}

opaque_token!(
    /// The opaque value of the `__session` cookie.
    SessionToken
);
opaque_token!(
    /// The secret part of a share link's URL (`/share/{token}`).
    ShareToken
);

/// A password as typed by its owner; stored only as an argon2id hash.
pub struct Password(String);

impl Password {
    pub const MIN_CHARS: usize = 8;
    pub const MAX_CHARS: usize = 256;

    /// The rules for choosing a new password.
    pub fn parse_new(raw: &str) -> Result<Self, String> {
        let count = raw.chars().count();
        if count < Self::MIN_CHARS {
            return Err(format!("must be at least {} characters", Self::MIN_CHARS));
        }
        if count > Self::MAX_CHARS {
            return Err(format!("must be at most {} characters", Self::MAX_CHARS));
        }
        Ok(Self(raw.to_string()))
    }

    /// A login attempt: any string is checked, nothing is revealed about the rules.
    pub fn attempt(raw: &str) -> Self {
        Self(raw.to_string())
    }

    pub fn hash(&self) -> String {
        let salt = SaltString::generate(&mut OsRng);
        Argon2::default()
            .hash_password(self.0.as_bytes(), &salt)
            .expect("argon2id with default parameters accepts any password")
            .to_string()
    }

    pub fn verify(&self, stored_hash: &str) -> bool {
        if self.0.chars().count() > Self::MAX_CHARS {
            return false;
        }
        PasswordHash::new(stored_hash)
            .map(|parsed| {
                Argon2::default()
                    .verify_password(self.0.as_bytes(), &parsed)
                    .is_ok()
            })
            .unwrap_or(false)
    }
}

impl std::fmt::Debug for Password {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Password(…)")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn api_keys_round_trip_through_parse() {
        let key = ApiKeySecret::generate();
        assert!(key.expose().starts_with("kr_"));
        let parsed = ApiKeySecret::parse(key.expose()).unwrap();
        assert_eq!(parsed.hash(), key.hash());
        assert_ne!(key.hash().as_str(), key.expose());
    }

    #[test]
    fn malformed_keys_are_refused_before_any_lookup() {
        for bad in [
            "",
            "kr_",
            "kr_short",
            "xx_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
            "kr_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!",
        ] {
            assert!(ApiKeySecret::parse(bad).is_none(), "{bad}");
        }
    }

    #[test]
    fn passwords_verify_only_against_their_hash() {
        let password = Password::parse_new("correct horse").unwrap();
        let hash = password.hash();
        assert!(hash.starts_with("$argon2id$"));
        assert!(Password::attempt("correct horse").verify(&hash));
        assert!(!Password::attempt("wrong horse").verify(&hash));
        assert!(!Password::attempt("x").verify("not a hash"));
    }

    #[test]
    fn short_passwords_are_refused() {
        assert!(Password::parse_new("short").is_err());
    }
}
