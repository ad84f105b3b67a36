//! The authorization server's memory: authorization codes, grants, access and refresh tokens,
//! and the checks Google makes on them (PKCE S256, single-use codes bound to the client, the
//! redirect URI and the challenge; revocation of a whole grant). Pure logic with the clock
//! passed in, so the unit tests can move time.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use sha2::{Digest, Sha256};

/// Seconds an access token lives, as Google answers in `expires_in`.
pub const ACCESS_TOKEN_SECONDS: u64 = 3599;
/// How long an authorization code may be redeemed.
pub const CODE_LIFETIME: Duration = Duration::from_secs(600);

/// What the consent page approved, kept until the code is redeemed.
#[derive(Debug, Clone)]
pub struct CodeRequest {
    pub client_id: String,
    pub redirect_uri: String,
    pub scope: String,
    pub code_challenge: String,
    /// `offline` gets a refresh token, as Google's `access_type`.
    pub offline: bool,
}

struct Code {
    request: CodeRequest,
    issued: Instant,
    /// The grant this code was redeemed for; a code is used once.
    redeemed: Option<usize>,
}

struct Grant {
    client_id: String,
    scope: String,
    revoked: bool,
}

struct AccessToken {
    grant: usize,
    expires: Instant,
}

/// An answer of the token endpoint, before it becomes JSON.
#[derive(Debug, Clone, PartialEq)]
pub struct Issued {
    pub access_token: String,
    pub refresh_token: Option<String>,
    pub scope: String,
    pub expires_in: u64,
}

/// Why a token request is refused: Google's `error` and `error_description`.
#[derive(Debug, Clone, PartialEq)]
pub struct Refusal {
    pub error: &'static str,
    pub description: &'static str,
}

fn refuse(error: &'static str, description: &'static str) -> Refusal {
    Refusal { error, description }
}

/// A valid access token's grant, for the APIs.
#[derive(Debug, Clone, PartialEq)]
pub struct Bearer {
    pub scope: String,
}

/// `base64url-no-pad(sha256(verifier)) == challenge` (RFC 7636, S256), with the verifier's
/// form checked first: 43 to 128 characters of `[A-Za-z0-9-._~]`.
pub fn pkce_matches(verifier: &str, challenge: &str) -> bool {
    well_formed_pkce(verifier) && URL_SAFE_NO_PAD.encode(Sha256::digest(verifier)) == challenge
}

/// The form both a verifier and an S256 challenge must have.
pub fn well_formed_pkce(value: &str) -> bool {
    (43..=128).contains(&value.len())
        && value
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-._~".contains(&b))
}

fn random_token(prefix: &str) -> String {
    format!("{prefix}{}", uuid::Uuid::new_v4().simple())
}

pub struct OAuthState {
    access_ttl: Duration,
    codes: HashMap<String, Code>,
    grants: Vec<Grant>,
    access_tokens: HashMap<String, AccessToken>,
    refresh_tokens: HashMap<String, usize>,
}

impl OAuthState {
    pub fn new(access_ttl: Duration) -> Self {
        OAuthState {
            access_ttl,
            codes: HashMap::new(),
            grants: Vec::new(),
            access_tokens: HashMap::new(),
            refresh_tokens: HashMap::new(),
        }
    }

    /// A fresh code for an approved consent.
    pub fn issue_code(&mut self, request: CodeRequest, now: Instant) -> String {
        let code = random_token("4/0Amock");
        let entry = Code {
            request,
            issued: now,
            redeemed: None,
        };
        self.codes.insert(code.clone(), entry);
        code
    }

    /// `grant_type=authorization_code`, for an authenticated `client_id`. The code is spent by
    /// any attempt with the right client, successful or not; a second use of a redeemed code
    /// also revokes what the first one was granted (RFC 6749 section 4.1.2).
    pub fn redeem(
        &mut self,
        client_id: &str,
        code: &str,
        redirect_uri: Option<&str>,
        verifier: Option<&str>,
        now: Instant,
    ) -> Result<Issued, Refusal> {
        let entry = self
            .codes
            .get_mut(code)
            .filter(|c| c.request.client_id == client_id)
            .ok_or(refuse("invalid_grant", "Malformed auth code."))?;
        if let Some(grant) = entry.redeemed {
            self.revoke_grant(grant);
            return Err(refuse("invalid_grant", "Bad Request"));
        }
        if now.duration_since(entry.issued) > CODE_LIFETIME {
            entry.redeemed = Some(usize::MAX);
            return Err(refuse("invalid_grant", "Bad Request"));
        }
        let request = entry.request.clone();
        entry.redeemed = Some(usize::MAX);
        if redirect_uri != Some(request.redirect_uri.as_str()) {
            return Err(refuse("redirect_uri_mismatch", "Bad Request"));
        }
        let Some(verifier) = verifier else {
            return Err(refuse("invalid_grant", "Missing code verifier."));
        };
        if !pkce_matches(verifier, &request.code_challenge) {
            return Err(refuse("invalid_grant", "Invalid code verifier."));
        }
        let refresh_token = request.offline.then(|| random_token("1//mock-"));
        let grant = self.grants.len();
        self.grants.push(Grant {
            client_id: client_id.to_owned(),
            scope: request.scope.clone(),
            revoked: false,
        });
        if let Some(token) = &refresh_token {
            self.refresh_tokens.insert(token.clone(), grant);
        }
        if let Some(entry) = self.codes.get_mut(code) {
            entry.redeemed = Some(grant);
        }
        let access_token = self.new_access_token(grant, now);
        Ok(Issued {
            access_token,
            refresh_token,
            scope: request.scope,
            expires_in: self.access_ttl.as_secs(),
        })
    }

    /// `grant_type=refresh_token`: a new access token, no new refresh token.
    pub fn refresh(
        &mut self,
        client_id: &str,
        refresh_token: &str,
        now: Instant,
    ) -> Result<Issued, Refusal> {
        let grant = self
            .refresh_tokens
            .get(refresh_token)
            .copied()
            .filter(|g| !self.grants[*g].revoked && self.grants[*g].client_id == client_id)
            .ok_or(refuse(
                "invalid_grant",
                "Token has been expired or revoked.",
            ))?;
        let access_token = self.new_access_token(grant, now);
        Ok(Issued {
            access_token,
            refresh_token: None,
            scope: self.grants[grant].scope.clone(),
            expires_in: self.access_ttl.as_secs(),
        })
    }

    /// `grant_type=urn:ietf:params:oauth:grant-type:jwt-bearer`, the assertion already
    /// verified: an access token for the service account, no refresh token.
    pub fn service_account(&mut self, client_email: &str, scope: &str, now: Instant) -> Issued {
        self.grants.push(Grant {
            client_id: client_email.to_string(),
            scope: scope.to_string(),
            revoked: false,
        });
        let access_token = self.new_access_token(self.grants.len() - 1, now);
        Issued {
            access_token,
            refresh_token: None,
            scope: scope.to_string(),
            expires_in: self.access_ttl.as_secs(),
        }
    }

    fn new_access_token(&mut self, grant: usize, now: Instant) -> String {
        let token = random_token("ya29.mock-");
        let expires = now + self.access_ttl;
        self.access_tokens
            .insert(token.clone(), AccessToken { grant, expires });
        token
    }

    /// `/revoke` with an access or a refresh token: the whole grant goes. False when the token
    /// is unknown or already revoked.
    pub fn revoke(&mut self, token: &str) -> bool {
        let grant = match self.refresh_tokens.get(token) {
            Some(grant) => Some(*grant),
            None => self.access_tokens.get(token).map(|t| t.grant),
        };
        match grant {
            Some(grant) if !self.grants[grant].revoked => {
                self.revoke_grant(grant);
                true
            }
            _ => false,
        }
    }

    fn revoke_grant(&mut self, grant: usize) {
        if let Some(g) = self.grants.get_mut(grant) {
            g.revoked = true;
        }
    }

    /// Every grant revoked (the `revokeAll` fault).
    pub fn revoke_all(&mut self) {
        for grant in &mut self.grants {
            grant.revoked = true;
        }
    }

    /// Every access token issued so far expires now (the `expireAccessTokens` fault).
    pub fn expire_access_tokens(&mut self, now: Instant) {
        for token in self.access_tokens.values_mut() {
            token.expires = token.expires.min(now);
        }
    }

    /// The grant behind a bearer token that is known, unexpired and not revoked.
    pub fn bearer(&self, token: &str, now: Instant) -> Option<Bearer> {
        let access = self.access_tokens.get(token)?;
        let grant = &self.grants[access.grant];
        (access.expires > now && !grant.revoked).then(|| Bearer {
            scope: grant.scope.clone(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const VERIFIER: &str = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";
    // RFC 7636 appendix B.
    const CHALLENGE: &str = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM";
    const CLIENT: &str = "client";
    const REDIRECT: &str = "http://127.0.0.1:9000/callback";

    fn request() -> CodeRequest {
        CodeRequest {
            client_id: CLIENT.into(),
            redirect_uri: REDIRECT.into(),
            scope: "https://www.googleapis.com/auth/webmasters.readonly".into(),
            code_challenge: CHALLENGE.into(),
            offline: true,
        }
    }

    fn state() -> OAuthState {
        OAuthState::new(Duration::from_secs(ACCESS_TOKEN_SECONDS))
    }

    #[test]
    fn google_pkce_s256_matches_the_rfc_example_and_nothing_else() {
        assert!(pkce_matches(VERIFIER, CHALLENGE));
        assert!(!pkce_matches(&VERIFIER.replace('d', "e"), CHALLENGE));
        assert!(!pkce_matches("short", CHALLENGE));
        // The challenge itself (a `plain` client's mistake) does not verify.
        assert!(!pkce_matches(CHALLENGE, CHALLENGE));
        assert!(!well_formed_pkce(&"a".repeat(129)));
        assert!(!well_formed_pkce(&format!("{}+", "a".repeat(43))));
    }

    #[test]
    fn google_code_is_single_use_and_a_replay_revokes_its_grant() {
        let (mut s, now) = (state(), Instant::now());
        let code = s.issue_code(request(), now);
        let issued = s
            .redeem(CLIENT, &code, Some(REDIRECT), Some(VERIFIER), now)
            .unwrap();
        assert_eq!(issued.expires_in, 3599);
        let refresh = issued.refresh_token.clone().unwrap();
        assert!(s.bearer(&issued.access_token, now).is_some());
        let again = s.redeem(CLIENT, &code, Some(REDIRECT), Some(VERIFIER), now);
        assert_eq!(again.unwrap_err().error, "invalid_grant");
        assert!(s.bearer(&issued.access_token, now).is_none());
        assert!(s.refresh(CLIENT, &refresh, now).is_err());
    }

    #[test]
    fn google_code_refusals_spend_it_and_bind_it() {
        let (mut s, now) = (state(), Instant::now());
        let code = s.issue_code(request(), now);
        let wrong = s.redeem(CLIENT, &code, Some(REDIRECT), Some(&"x".repeat(43)), now);
        assert_eq!(wrong.unwrap_err().description, "Invalid code verifier.");
        let spent = s.redeem(CLIENT, &code, Some(REDIRECT), Some(VERIFIER), now);
        assert_eq!(spent.unwrap_err().error, "invalid_grant");

        let code = s.issue_code(request(), now);
        let other = s.redeem("other", &code, Some(REDIRECT), Some(VERIFIER), now);
        assert_eq!(other.unwrap_err().error, "invalid_grant");
        let moved = s.redeem(
            CLIENT,
            &code,
            Some("http://localhost/x"),
            Some(VERIFIER),
            now,
        );
        assert_eq!(moved.unwrap_err().error, "redirect_uri_mismatch");

        let code = s.issue_code(request(), now);
        let late = now + CODE_LIFETIME + Duration::from_secs(1);
        let expired = s.redeem(CLIENT, &code, Some(REDIRECT), Some(VERIFIER), late);
        assert_eq!(expired.unwrap_err().error, "invalid_grant");
        let unknown = s.redeem(CLIENT, "4/0nope", Some(REDIRECT), Some(VERIFIER), now);
        assert_eq!(unknown.unwrap_err().error, "invalid_grant");
    }

    #[test]
    fn google_refresh_expiry_and_revocation_of_the_whole_grant() {
        let (mut s, now) = (state(), Instant::now());
        let code = s.issue_code(request(), now);
        let first = s
            .redeem(CLIENT, &code, Some(REDIRECT), Some(VERIFIER), now)
            .unwrap();
        let refresh = first.refresh_token.unwrap();
        let later = now + Duration::from_secs(ACCESS_TOKEN_SECONDS + 1);
        assert!(s.bearer(&first.access_token, later).is_none(), "expired");
        let second = s.refresh(CLIENT, &refresh, later).unwrap();
        assert_eq!(second.refresh_token, None);
        assert!(s.bearer(&second.access_token, later).is_some());
        s.expire_access_tokens(later);
        assert!(s.bearer(&second.access_token, later).is_none());
        let third = s.refresh(CLIENT, &refresh, later).unwrap();
        // Revoking an access token takes the refresh token and its siblings with it.
        assert!(s.revoke(&third.access_token));
        assert!(!s.revoke(&third.access_token), "already revoked");
        assert!(s.refresh(CLIENT, &refresh, later).is_err());
        assert!(!s.revoke("unknown"));
        // Online access: no refresh token.
        let code = s.issue_code(
            CodeRequest {
                offline: false,
                ..request()
            },
            now,
        );
        let online = s
            .redeem(CLIENT, &code, Some(REDIRECT), Some(VERIFIER), now)
            .unwrap();
        assert_eq!(online.refresh_token, None);
        s.revoke_all();
        assert!(s.bearer(&online.access_token, now).is_none());
    }
}
