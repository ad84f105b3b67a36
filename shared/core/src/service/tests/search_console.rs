//! Connecting Search Console (`service::search_console`), against a fake Google that keeps
//! the rules the mock and Google keep: one redemption per code, PKCE S256, revocation.

use std::collections::HashMap;
use std::sync::Mutex;

use async_trait::async_trait;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use chrono::{DateTime, Duration, Utc};
use sha2::{Digest, Sha256};

use super::World;
use crate::domain::UserId;
use crate::domain::{PermissionLevel, PropertyUrl, SearchConsoleProperty, SessionToken};
use crate::service::search_console::{
    begin_connection, complete_connection, disconnect, refresh_connection, usable_property,
    AccessToken, CredentialKey, GoogleAccounts, GoogleCredential, GoogleError, Grant,
    PropertyRefusal, SearchConsoleError,
};
use crate::store::memory::MemoryStore;
use crate::store::SearchConsoleStore;

#[derive(Default)]
struct FakeGoogle {
    /// The challenge of each consent URL handed out, by state.
    challenges: Mutex<HashMap<String, String>>,
    /// Codes issued (code → challenge), removed when redeemed.
    codes: Mutex<HashMap<String, String>>,
    revoked: Mutex<Vec<String>>,
    issued: Mutex<u32>,
}

impl FakeGoogle {
    /// The user presses Allow on the consent page of `url`: Google's code for it.
    fn allow(&self, url: &str) -> (String, String) {
        let state = url.split("state=").nth(1).unwrap().to_string();
        let challenge = self.challenges.lock().unwrap()[&state].clone();
        let code = format!("code-{}", self.codes.lock().unwrap().len());
        self.codes.lock().unwrap().insert(code.clone(), challenge);
        (state, code)
    }

    fn is_revoked(&self, token: &str) -> bool {
        self.revoked.lock().unwrap().iter().any(|t| t == token)
    }
}

#[async_trait]
impl GoogleAccounts for FakeGoogle {
    fn authorization_url(
        &self,
        state: &str,
        code_verifier: &str,
        _redirect_uri: &str,
    ) -> Result<String, GoogleError> {
        let challenge = URL_SAFE_NO_PAD.encode(Sha256::digest(code_verifier.as_bytes()));
        self.challenges
            .lock()
            .unwrap()
            .insert(state.into(), challenge);
        Ok(format!("https://accounts.example/auth?state={state}"))
    }

    async fn redeem_code(
        &self,
        code: &str,
        code_verifier: &str,
        _redirect_uri: &str,
    ) -> Result<Grant, GoogleError> {
        let challenge = self
            .codes
            .lock()
            .unwrap()
            .remove(code)
            .ok_or_else(|| GoogleError::GrantRefused("code used or unknown".into()))?;
        if URL_SAFE_NO_PAD.encode(Sha256::digest(code_verifier.as_bytes())) != challenge {
            return Err(GoogleError::GrantRefused("PKCE verifier mismatch".into()));
        }
        let mut issued = self.issued.lock().unwrap();
        *issued += 1;
        Ok(Grant {
            credential: GoogleCredential::OAuth {
                refresh_token: format!("refresh-{issued}"),
            },
            access: AccessToken(format!("access-{issued}")),
        })
    }

    async fn access_token(
        &self,
        credential: &GoogleCredential,
    ) -> Result<AccessToken, GoogleError> {
        let GoogleCredential::OAuth { refresh_token } = credential;
        if self.is_revoked(refresh_token) {
            return Err(GoogleError::GrantRefused(
                "Token has been expired or revoked.".into(),
            ));
        }
        Ok(AccessToken(format!("access-for-{refresh_token}")))
    }

    async fn account_email(&self, _token: &AccessToken) -> Result<String, GoogleError> {
        Ok("owner@example.test".into())
    }

    async fn properties(
        &self,
        _token: &AccessToken,
    ) -> Result<Vec<SearchConsoleProperty>, GoogleError> {
        Ok(vec![
            SearchConsoleProperty {
                site_url: PropertyUrl::parse("sc-domain:example.com").unwrap(),
                permission_level: PermissionLevel::SiteOwner,
            },
            SearchConsoleProperty {
                site_url: PropertyUrl::parse("https://unverified.example/").unwrap(),
                permission_level: PermissionLevel::SiteUnverifiedUser,
            },
        ])
    }

    async fn revoke(&self, credential: &GoogleCredential) -> Result<(), GoogleError> {
        let GoogleCredential::OAuth { refresh_token } = credential;
        self.revoked.lock().unwrap().push(refresh_token.clone());
        Ok(())
    }
}

fn key() -> CredentialKey {
    CredentialKey::from_secret(&[7u8; 64]).unwrap()
}

const REDIRECT: &str = "https://app.example/settings/search-console/callback";

/// `owner` connects without a browser session: begins, allows at Google, finishes.
async fn connect(
    store: &MemoryStore,
    google: &FakeGoogle,
    key: &CredentialKey,
    owner: UserId,
    now: DateTime<Utc>,
) {
    let url = begin_connection(store, google, key, owner, None, REDIRECT, now)
        .await
        .unwrap();
    let (state, code) = google.allow(&url);
    complete_connection(store, google, key, owner, None, &state, &code, now)
        .await
        .unwrap();
}

#[tokio::test]
async fn a_consent_flow_stores_a_sealed_grant_and_the_properties() {
    let world = World::new();
    let (google, key, now) = (FakeGoogle::default(), key(), Utc::now());
    let owner = world.store.add_user(5, 3);
    let session = SessionToken::generate().hash();
    let url = begin_connection(
        world.store.as_ref(),
        &google,
        &key,
        owner,
        Some(&session),
        REDIRECT,
        now,
    )
    .await
    .unwrap();
    let (state, code) = google.allow(&url);
    let connection = complete_connection(
        world.store.as_ref(),
        &google,
        &key,
        owner,
        Some(&session),
        &state,
        &code,
        now,
    )
    .await
    .unwrap();
    assert_eq!(connection.email, "owner@example.test");
    assert_eq!(connection.properties.len(), 2);
    let stored = world.store.connection(owner).await.unwrap().unwrap();
    let stored_json = serde_json::to_string(&stored).unwrap();
    assert!(!stored_json.contains("refresh-1"), "{stored_json}");
    assert!(usable_property(
        world.store.as_ref(),
        owner,
        &PropertyUrl::parse("sc-domain:example.com").unwrap()
    )
    .await
    .unwrap()
    .is_ok());
}

#[tokio::test]
async fn a_state_is_redeemed_once_and_only_by_its_account_and_session() {
    let world = World::new();
    let (google, key, now) = (FakeGoogle::default(), key(), Utc::now());
    let owner = world.store.add_user(5, 3);
    let other = world.store.add_user(5, 3);
    let session = SessionToken::generate().hash();
    let store = world.store.as_ref();

    // Another account's callback with this state: refused, and the state is spent.
    let url = begin_connection(store, &google, &key, owner, Some(&session), REDIRECT, now)
        .await
        .unwrap();
    let (state, code) = google.allow(&url);
    let refused = complete_connection(
        store,
        &google,
        &key,
        other,
        Some(&session),
        &state,
        &code,
        now,
    )
    .await;
    assert!(matches!(refused, Err(SearchConsoleError::StateMismatch)));
    let replay = complete_connection(
        store,
        &google,
        &key,
        owner,
        Some(&session),
        &state,
        &code,
        now,
    )
    .await;
    assert!(matches!(replay, Err(SearchConsoleError::StateMismatch)));

    // Another session of the same account.
    let url = begin_connection(store, &google, &key, owner, Some(&session), REDIRECT, now)
        .await
        .unwrap();
    let (state, code) = google.allow(&url);
    let elsewhere = SessionToken::generate().hash();
    let refused = complete_connection(
        store,
        &google,
        &key,
        owner,
        Some(&elsewhere),
        &state,
        &code,
        now,
    )
    .await;
    assert!(matches!(refused, Err(SearchConsoleError::StateMismatch)));

    // Too late.
    let url = begin_connection(store, &google, &key, owner, None, REDIRECT, now)
        .await
        .unwrap();
    let (state, code) = google.allow(&url);
    let late = now + Duration::minutes(11);
    let refused = complete_connection(store, &google, &key, owner, None, &state, &code, late).await;
    assert!(matches!(refused, Err(SearchConsoleError::StateMismatch)));

    // A made-up state.
    let refused = complete_connection(store, &google, &key, owner, None, "junk", &code, now).await;
    assert!(matches!(refused, Err(SearchConsoleError::StateMismatch)));
    assert!(store.connection(owner).await.unwrap().is_none());
}

#[tokio::test]
async fn a_code_google_refuses_is_told_and_stores_nothing() {
    let world = World::new();
    let (google, key, now) = (FakeGoogle::default(), key(), Utc::now());
    let owner = world.store.add_user(5, 3);
    let store = world.store.as_ref();
    let url = begin_connection(store, &google, &key, owner, None, REDIRECT, now)
        .await
        .unwrap();
    let (state, _) = google.allow(&url);
    let refused =
        complete_connection(store, &google, &key, owner, None, &state, "forged", now).await;
    assert!(matches!(refused, Err(SearchConsoleError::CodeRefused(_))));
    assert!(store.connection(owner).await.unwrap().is_none());
}

#[tokio::test]
async fn properties_are_checked_against_the_listed_ones() {
    let world = World::new();
    let (google, key, now) = (FakeGoogle::default(), key(), Utc::now());
    let owner = world.store.add_user(5, 3);
    let store = world.store.as_ref();
    let listed = PropertyUrl::parse("sc-domain:example.com").unwrap();
    assert_eq!(
        usable_property(store, owner, &listed).await.unwrap(),
        Err(PropertyRefusal::NotConnected)
    );
    connect(store, &google, &key, owner, now).await;
    for (property, expected) in [
        ("sc-domain:example.org", Err(PropertyRefusal::NotListed)),
        // Listed, but an unverified user reads no data.
        (
            "https://unverified.example/",
            Err(PropertyRefusal::NotListed),
        ),
    ] {
        let property = PropertyUrl::parse(property).unwrap();
        assert_eq!(
            usable_property(store, owner, &property)
                .await
                .unwrap()
                .map(|_| ()),
            expected
        );
    }
    let other = world.store.add_user(5, 3);
    assert_eq!(
        usable_property(store, other, &listed).await.unwrap(),
        Err(PropertyRefusal::NotConnected)
    );
}

#[tokio::test]
async fn disconnecting_revokes_at_google_and_a_revoked_grant_shows_as_lapsed() {
    let world = World::new();
    let (google, key, now) = (FakeGoogle::default(), key(), Utc::now());
    let owner = world.store.add_user(5, 3);
    let store = world.store.as_ref();
    connect(store, &google, &key, owner, now).await;

    // Revoked at Google by its owner: the next refresh says so and keeps the connection.
    google.revoked.lock().unwrap().push("refresh-1".into());
    let lapsed = refresh_connection(store, &google, &key, owner, now)
        .await
        .unwrap()
        .unwrap();
    assert!(lapsed.lapsed.as_deref().unwrap().contains("revoked"));

    assert!(disconnect(store, &google, &key, owner).await.unwrap());
    assert!(store.connection(owner).await.unwrap().is_none());
    assert!(!disconnect(store, &google, &key, owner).await.unwrap());
}

#[tokio::test]
async fn connecting_again_revokes_the_grant_it_replaces() {
    let world = World::new();
    let (google, key, now) = (FakeGoogle::default(), key(), Utc::now());
    let owner = world.store.add_user(5, 3);
    let store = world.store.as_ref();
    for _ in 0..2 {
        connect(store, &google, &key, owner, now).await;
    }
    assert!(google.is_revoked("refresh-1"));
    assert!(!google.is_revoked("refresh-2"));
}
