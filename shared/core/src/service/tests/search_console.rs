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
    begin_connection, complete_connection, connect_service_account, connection_kind, disconnect,
    refresh_connection, usable_property, AccessToken, CredentialKey, CredentialKind,
    GoogleAccounts, GoogleCredential, GoogleError, Grant, PropertyRefusal, SearchConsoleError,
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
    /// Service accounts Google knows (their keys are not checked here; the mock checks
    /// signatures).
    service_accounts: Vec<String>,
    /// Access tokens asked for with a service account's key.
    service_tokens: Mutex<u32>,
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
        let refresh_token = match credential {
            GoogleCredential::OAuth { refresh_token } => refresh_token,
            GoogleCredential::ServiceAccount { client_email, .. } => {
                if !self.service_accounts.contains(client_email) {
                    return Err(GoogleError::GrantRefused("Invalid JWT Signature.".into()));
                }
                *self.service_tokens.lock().unwrap() += 1;
                return Ok(AccessToken(format!("access-for-{client_email}")));
            }
        };
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
        match credential {
            GoogleCredential::OAuth { refresh_token } => {
                self.revoked.lock().unwrap().push(refresh_token.clone());
            }
            // A service account's key is its owner's: nothing is revoked at Google.
            GoogleCredential::ServiceAccount { .. } => {}
        }
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

const ROBOT: &str = "robot@agency-project.iam.gserviceaccount.com";

fn service_account_key(fields: serde_json::Value) -> String {
    let mut key = serde_json::json!({
        "type": "service_account",
        "project_id": "agency-project",
        "private_key_id": "0123456789abcdef",
        "private_key": "-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\n-----END PRIVATE KEY-----\n",
        "client_email": ROBOT,
        "client_id": "1234567890",
        "token_uri": "https://oauth2.googleapis.com/token",
    });
    for (field, value) in fields.as_object().unwrap() {
        if value.is_null() {
            key.as_object_mut().unwrap().remove(field);
        } else {
            key[field] = value.clone();
        }
    }
    key.to_string()
}

fn google_knowing_the_robot() -> FakeGoogle {
    FakeGoogle {
        service_accounts: vec![ROBOT.to_string()],
        ..FakeGoogle::default()
    }
}

#[tokio::test]
async fn a_service_account_key_connects_as_its_email_sealed_like_a_grant() {
    let world = World::new();
    let (google, key, now) = (google_knowing_the_robot(), key(), Utc::now());
    let owner = world.store.add_user(5, 3);
    let store = world.store.as_ref();
    // An earlier OAuth grant is replaced and revoked.
    connect(store, &google, &key, owner, now).await;
    let upload = service_account_key(serde_json::json!({}));
    let connection = connect_service_account(store, &google, &key, owner, &upload, now)
        .await
        .unwrap();
    assert_eq!(connection.email, ROBOT);
    assert_eq!(connection.properties.len(), 2);
    assert!(google.is_revoked("refresh-1"));
    let stored = store.connection(owner).await.unwrap().unwrap();
    let stored_json = serde_json::to_string(&stored).unwrap();
    assert!(!stored_json.contains("MIIEvQIBADAN"), "{stored_json}");
    assert!(!stored_json.contains("PRIVATE KEY"), "{stored_json}");
    assert_eq!(
        connection_kind(&key, &stored).unwrap(),
        CredentialKind::ServiceAccount
    );
    let credential = GoogleCredential::from_bytes(&key.open(owner, &stored.credential).unwrap());
    assert_eq!(
        format!("{credential:?}"),
        "Some(GoogleCredential::ServiceAccount(…))"
    );
    // Refreshing uses the key again; disconnecting revokes nothing at Google and forgets it.
    let refreshed = refresh_connection(store, &google, &key, owner, now)
        .await
        .unwrap()
        .unwrap();
    assert!(refreshed.lapsed.is_none());
    assert_eq!(*google.service_tokens.lock().unwrap(), 2);
    let revoked_before = google.revoked.lock().unwrap().len();
    assert!(disconnect(store, &google, &key, owner).await.unwrap());
    assert_eq!(google.revoked.lock().unwrap().len(), revoked_before);
    assert!(store.connection(owner).await.unwrap().is_none());
}

#[tokio::test]
async fn a_bad_service_account_key_is_refused_naming_the_field_and_stores_nothing() {
    let world = World::new();
    let (google, key, now) = (google_knowing_the_robot(), key(), Utc::now());
    let owner = world.store.add_user(5, 3);
    let store = world.store.as_ref();
    let cases = [
        (serde_json::json!({"type": "authorized_user"}), "type"),
        (serde_json::json!({"private_key": null}), "private_key"),
        (
            serde_json::json!({"private_key": "not a key"}),
            "private_key",
        ),
        (serde_json::json!({"client_email": null}), "client_email"),
        (serde_json::json!({"client_email": "robot"}), "client_email"),
        (serde_json::json!({"private_key_id": ""}), "private_key_id"),
        (
            serde_json::json!({"client_email": "stranger@other.iam.gserviceaccount.com"}),
            "client_email",
        ),
    ];
    for (fields, field) in cases {
        let upload = service_account_key(fields.clone());
        match connect_service_account(store, &google, &key, owner, &upload, now).await {
            Err(SearchConsoleError::KeyRefused(refusal)) => {
                assert_eq!(refusal.field, field, "{fields}: {refusal}")
            }
            other => panic!("{fields}: {other:?}"),
        }
    }
    match connect_service_account(store, &google, &key, owner, "[1, 2]", now).await {
        Err(SearchConsoleError::KeyRefused(refusal)) => assert_eq!(refusal.field, "body"),
        other => panic!("{other:?}"),
    }
    assert!(store.connection(owner).await.unwrap().is_none());
}
