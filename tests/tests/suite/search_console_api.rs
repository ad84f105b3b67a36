//! Connecting Search Console through the API, against the emulator and the Google mock: the
//! OAuth 2.0 flow with PKCE, the state's binding to the account and session, the sealed
//! grant, disconnecting, a lapsed grant, a deployment without a Google client, and a
//! service account's uploaded JSON key (the JWT bearer grant, checked by the mock).

use axum::Router;
use chrono::{Duration, Utc};
use kr_core::domain::{SessionToken, UserId};
use kr_core::service::search_console::CredentialKey;
use kr_core::store::{Session, SessionStore};
use kr_integrations::{router, IntegrationsState};
use kr_tests::google_mock::{
    fixture_service_account_key, FaultRequest, GoogleMockConfig, MockGoogle,
};
use kr_tests::harness::{self, Call};
use serde_json::json;

const CONNECT: &str = "/api/v1/integrations/search-console";
const CALLBACK: &str = "/api/v1/integrations/search-console/callback";
const SERVICE_ACCOUNT: &str = "/api/v1/integrations/search-console/service-account";
/// The origin the requests come to: the redirect URI is on it, and the mock accepts loopback.
const HOST: &str = "127.0.0.1:9000";

async fn app(google: &MockGoogle) -> Router {
    router(
        IntegrationsState::with_google(harness::config(), harness::resources(), google.settings())
            .await,
    )
}

async fn mock() -> MockGoogle {
    MockGoogle::start(GoogleMockConfig::default())
        .await
        .expect("the Google mock starts")
}

/// A browser session of `user`, as the cookie header sends it.
async fn session_cookie(user: UserId) -> String {
    let token = SessionToken::generate();
    harness::store()
        .await
        .create_session(
            &token.hash(),
            &Session {
                user_id: user,
                expires_at: Utc::now() + Duration::hours(1),
            },
        )
        .await
        .unwrap();
    format!("__session={}", token.expose())
}

/// Begins a flow as `auth` (a cookie header or an API key) and lets the mock's user allow it:
/// the `(code, state)` Google sends the browser back with.
async fn allowed(app: &Router, google: &MockGoogle, auth: &Auth) -> (String, String) {
    let reply = auth.on(Call::post(CONNECT)).send(app).await.expect(201);
    let url = reply.json["authorizationUrl"].as_str().unwrap().to_string();
    assert!(url.contains("code_challenge_method=S256"), "{url}");
    assert!(url.contains("access_type=offline"), "{url}");
    assert!(
        url.contains(
            "redirect_uri=http%3A%2F%2F127.0.0.1%3A9000%2Fsettings%2Fsearch-console%2Fcallback"
        ),
        "{url}"
    );
    let location = google.consent(&url, true).await.unwrap();
    let query = reqwest::Url::parse(&location).unwrap();
    let param = |name: &str| {
        query
            .query_pairs()
            .find(|(key, _)| key == name)
            .map(|(_, value)| value.into_owned())
            .unwrap_or_else(|| panic!("{location} has no {name}"))
    };
    (param("code"), param("state"))
}

enum Auth {
    Key(String),
    Cookie(String),
}

impl Auth {
    fn on(&self, call: Call) -> Call {
        let call = call.header("host", HOST);
        match self {
            Auth::Key(key) => call.api_key(key),
            Auth::Cookie(cookie) => call.header("cookie", cookie),
        }
    }
}

/// The account's connection item as the table holds it, every attribute.
async fn stored_connection(
    user: UserId,
) -> std::collections::HashMap<String, aws_sdk_dynamodb::types::AttributeValue> {
    use aws_sdk_dynamodb::types::AttributeValue;
    harness::clients()
        .await
        .dynamodb
        .get_item()
        .table_name(harness::resources().table_name)
        .key("PK", AttributeValue::S(format!("USER#{user}")))
        .key("SK", AttributeValue::S("SEARCHCONSOLE".into()))
        .send()
        .await
        .unwrap()
        .item
        .expect("the connection is stored")
}

fn finish(code: &str, state: &str) -> Call {
    Call::post(CALLBACK).json(json!({"code": code, "state": state}))
}

#[tokio::test]
async fn an_account_connects_sees_its_properties_and_the_grant_is_stored_sealed() {
    let google = mock().await;
    let app = app(&google).await;
    let store = harness::store().await;
    let (user, key) = harness::user_with_key(&store, 5, 3).await;
    let auth = Auth::Key(key);

    let reply = auth.on(Call::get(CONNECT)).send(&app).await.expect(200);
    assert_eq!(reply.json, json!({"connected": false, "properties": []}));

    let (code, state) = allowed(&app, &google, &auth).await;
    let reply = auth.on(finish(&code, &state)).send(&app).await.expect(200);
    assert_eq!(reply.json["connected"], true);
    assert_eq!(reply.json["email"], google.email());
    let sites: Vec<&str> = reply.json["properties"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["siteUrl"].as_str().unwrap())
        .collect();
    for site in [
        "sc-domain:brightbrew-coffee.com",
        "https://ridgeline-roofing.com/",
        "https://ironclad-roofers.com/",
    ] {
        assert!(sites.contains(&site), "{sites:?}");
    }
    assert!(!reply.text.contains("refresh"), "{}", reply.text);

    // The stored item holds the grant sealed: it opens with the key to a refresh token that
    // appears nowhere in the item.
    let item = stored_connection(user.id).await;
    let raw = format!("{item:?}");
    let secret = harness::clients()
        .await
        .secrets
        .get_secret_value()
        .secret_id(
            harness::resources()
                .credentials_key_arn
                .expect("KR_CREDENTIALS_KEY_ARN"),
        )
        .send()
        .await
        .unwrap();
    let key = CredentialKey::from_secret(secret.secret_string().unwrap().as_bytes()).unwrap();
    let sealed = item["credential"].as_s().unwrap();
    let sealed: kr_core::service::search_console::SealedCredential =
        serde_json::from_value(json!(sealed)).unwrap();
    let clear = String::from_utf8(key.open(user.id, &sealed).unwrap()).unwrap();
    let refresh_token = serde_json::from_str::<serde_json::Value>(&clear).unwrap()["refreshToken"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(refresh_token.len() > 10);
    assert!(
        !raw.contains(&refresh_token),
        "the item holds the token in clear"
    );

    // The connection is the account's: another account sees none.
    let (_, other_key) = harness::user_with_key(&store, 5, 3).await;
    let reply = Auth::Key(other_key)
        .on(Call::get(CONNECT))
        .send(&app)
        .await
        .expect(200);
    assert_eq!(reply.json["connected"], false);
}

#[tokio::test]
async fn a_state_is_redeemed_once_by_the_account_and_session_that_began_it() {
    let google = mock().await;
    let app = app(&google).await;
    let store = harness::store().await;
    let (user, key) = harness::user_with_key(&store, 5, 3).await;
    let (_, other_key) = harness::user_with_key(&store, 5, 3).await;

    // A made-up state, and a state of another account's flow.
    let reply = Auth::Key(key.clone())
        .on(finish("code", "x".repeat(43).as_str()))
        .send(&app)
        .await
        .expect(400);
    assert_eq!(reply.invalid_fields(), ["state"]);
    let (code, state) = allowed(&app, &google, &Auth::Key(key.clone())).await;
    let reply = Auth::Key(other_key)
        .on(finish(&code, &state))
        .send(&app)
        .await
        .expect(400);
    assert_eq!(reply.invalid_fields(), ["state"]);
    // That attempt spent the state: its own account cannot use it now either.
    let reply = Auth::Key(key.clone())
        .on(finish(&code, &state))
        .send(&app)
        .await
        .expect(400);
    assert_eq!(reply.invalid_fields(), ["state"]);

    // Begun in one browser session, finished in another of the same account: refused.
    let first = Auth::Cookie(session_cookie(user.id).await);
    let second = Auth::Cookie(session_cookie(user.id).await);
    let (code, state) = allowed(&app, &google, &first).await;
    let reply = second
        .on(finish(&code, &state))
        .send(&app)
        .await
        .expect(400);
    assert_eq!(reply.invalid_fields(), ["state"]);

    // In the same session it connects, once; the replayed callback is refused.
    let (code, state) = allowed(&app, &google, &first).await;
    first.on(finish(&code, &state)).send(&app).await.expect(200);
    let reply = first.on(finish(&code, &state)).send(&app).await.expect(400);
    assert_eq!(reply.invalid_fields(), ["state"]);
}

#[tokio::test]
async fn a_code_from_another_flow_fails_googles_pkce_check() {
    let google = mock().await;
    let app = app(&google).await;
    let store = harness::store().await;
    let (_, key) = harness::user_with_key(&store, 5, 3).await;
    let auth = Auth::Key(key);
    let (code_one, _state_one) = allowed(&app, &google, &auth).await;
    let (_code_two, state_two) = allowed(&app, &google, &auth).await;
    // The second flow's verifier does not match the first code's challenge.
    let reply = auth
        .on(finish(&code_one, &state_two))
        .send(&app)
        .await
        .expect(400);
    assert_eq!(reply.invalid_fields(), ["code"]);
    assert!(google.stats().token_refusals >= 1);
    let reply = auth.on(Call::get(CONNECT)).send(&app).await.expect(200);
    assert_eq!(reply.json["connected"], false);
}

#[tokio::test]
async fn expired_tokens_are_refreshed_a_revoked_grant_shows_lapsed_and_disconnect_revokes() {
    let google = mock().await;
    let app = app(&google).await;
    let store = harness::store().await;
    let (_, key) = harness::user_with_key(&store, 5, 3).await;
    let auth = Auth::Key(key);
    let (code, state) = allowed(&app, &google, &auth).await;
    auth.on(finish(&code, &state)).send(&app).await.expect(200);

    google.set_faults(&FaultRequest {
        expire_access_tokens: true,
        ..Default::default()
    });
    let refreshes = google.stats().refreshes;
    let reply = auth.on(Call::get(CONNECT)).send(&app).await.expect(200);
    assert!(reply.json.get("lapsed").is_none(), "{}", reply.text);
    assert!(google.stats().refreshes > refreshes);

    google.set_faults(&FaultRequest {
        revoke_all: true,
        ..Default::default()
    });
    let reply = auth.on(Call::get(CONNECT)).send(&app).await.expect(200);
    assert_eq!(reply.json["connected"], true);
    assert!(reply.json["lapsed"].is_string(), "{}", reply.text);

    // Connecting again clears it; disconnecting revokes at Google and forgets the grant.
    let (code, state) = allowed(&app, &google, &auth).await;
    auth.on(finish(&code, &state)).send(&app).await.expect(200);
    let revocations = google.stats().revocations;
    auth.on(Call::delete(CONNECT)).send(&app).await.expect(204);
    assert_eq!(google.stats().revocations, revocations + 1);
    let reply = auth.on(Call::get(CONNECT)).send(&app).await.expect(200);
    assert_eq!(reply.json["connected"], false);
    let reply = auth.on(Call::delete(CONNECT)).send(&app).await.expect(404);
    assert_eq!(reply.code(), "not_found");
}

#[tokio::test]
async fn bad_callbacks_and_anonymous_callers_are_refused_in_the_contracts_format() {
    let google = mock().await;
    let app = app(&google).await;
    let store = harness::store().await;
    let (_, key) = harness::user_with_key(&store, 5, 3).await;
    let auth = Auth::Key(key);
    for (body, field) in [
        (json!({"state": "s"}), "code"),
        (json!({"code": "c"}), "state"),
        (json!({"code": 7, "state": "s"}), "code"),
        (json!({"code": "c".repeat(2049), "state": "s"}), "code"),
    ] {
        let reply = auth
            .on(Call::post(CALLBACK).json(body))
            .send(&app)
            .await
            .expect(400);
        assert_eq!(reply.invalid_fields(), [field]);
    }
    for call in [
        Call::post(CONNECT),
        Call::get(CONNECT),
        Call::delete(CONNECT),
        finish("c", "s"),
    ] {
        let reply = call.header("host", HOST).send(&app).await.expect(401);
        assert_eq!(reply.code(), "unauthorized");
    }
}

#[tokio::test]
async fn without_a_google_client_connecting_is_503_and_the_status_says_not_connected() {
    // The suite's environment names no Google OAuth client (KR_GOOGLE_CLIENT_ID is empty).
    let app = router(IntegrationsState::from_config(harness::config(), harness::resources()).await);
    let store = harness::store().await;
    let (_, key) = harness::user_with_key(&store, 5, 3).await;
    let auth = Auth::Key(key);
    let reply = auth.on(Call::post(CONNECT)).send(&app).await.expect(503);
    assert_eq!(reply.code(), "upstream_unavailable");
    let reply = auth.on(Call::get(CONNECT)).send(&app).await.expect(200);
    assert_eq!(reply.json["connected"], false);
}

/// The fixture's key file as uploaded, with `fields` changed (`null` removes one).
fn key_file_with(fields: serde_json::Value) -> serde_json::Value {
    let (json, _) = fixture_service_account_key();
    let mut key: serde_json::Value = serde_json::from_str(&json).unwrap();
    for (field, value) in fields.as_object().unwrap() {
        if value.is_null() {
            key.as_object_mut().unwrap().remove(field);
        } else {
            key[field] = value.clone();
        }
    }
    key
}

/// A service account's key: the mock verifies the RS256 assertion signed with it; the
/// connection is the service account's e-mail with the properties it sees, the key stored
/// sealed. Refusals: not a service-account key → 400 naming the field; a key Google does not
/// know (unknown service account, bad signature) → 400 naming `client_email`; Google
/// unreachable → 503.
#[tokio::test]
async fn a_service_account_key_connects_as_its_email_and_is_stored_sealed() {
    let google = mock().await;
    let app = app(&google).await;
    let store = harness::store().await;
    let (user, key) = harness::user_with_key(&store, 5, 3).await;
    let auth = Auth::Key(key);
    let (key_json, email) = fixture_service_account_key();

    let issued = google.stats().access_tokens_issued;
    let upload = Call::put(SERVICE_ACCOUNT)
        .header("content-type", "application/json")
        .raw_body(key_json.clone());
    let reply = auth.on(upload).send(&app).await.expect(200);
    assert_eq!(reply.json["connected"], true, "{}", reply.text);
    assert_eq!(reply.json["kind"], "serviceAccount");
    assert_eq!(reply.json["email"], email.as_str());
    assert!(google.stats().access_tokens_issued > issued);
    let sites: Vec<&str> = reply.json["properties"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["siteUrl"].as_str().unwrap())
        .collect();
    assert!(
        sites.contains(&"sc-domain:brightbrew-coffee.com"),
        "{sites:?}"
    );
    assert!(!reply.text.contains("PRIVATE KEY"), "{}", reply.text);

    // The stored item does not hold the private key in clear.
    let item = stored_connection(user.id).await;
    let raw = format!("{item:?}");
    let pem: serde_json::Value = serde_json::from_str(&key_json).unwrap();
    let body_line = pem["private_key"].as_str().unwrap().lines().nth(1).unwrap();
    assert!(
        !raw.contains("PRIVATE KEY"),
        "the item holds the key in clear"
    );
    assert!(!raw.contains(body_line), "the item holds the key in clear");

    // The status reads Google again with the key and says which kind it is.
    let reply = auth.on(Call::get(CONNECT)).send(&app).await.expect(200);
    assert_eq!(reply.json["kind"], "serviceAccount", "{}", reply.text);
    assert_eq!(reply.json["email"], email.as_str());
    assert!(reply.json.get("lapsed").is_none(), "{}", reply.text);

    // Not a service-account key: 400 naming the field; the connection stays.
    for (fields, field) in [
        (json!({"type": "authorized_user"}), "type"),
        (json!({"private_key": null}), "private_key"),
        (json!({"client_email": null}), "client_email"),
        (json!({"private_key_id": null}), "private_key_id"),
    ] {
        let upload = Call::put(SERVICE_ACCOUNT).json(key_file_with(fields));
        let reply = auth.on(upload).send(&app).await.expect(400);
        assert_eq!(reply.invalid_fields(), [field]);
    }
    let upload = Call::put(SERVICE_ACCOUNT)
        .header("content-type", "application/json")
        .raw_body("not json");
    let reply = auth.on(upload).send(&app).await.expect(400);
    assert_eq!(reply.invalid_fields(), ["body"]);
    let upload = Call::put(SERVICE_ACCOUNT)
        .header("content-type", "application/json")
        .raw_body(format!("{{\"pad\": \"{}\"}}", "x".repeat(17 * 1024)));
    auth.on(upload).send(&app).await.expect(413);

    // A service account the mock does not know: Google refuses the assertion (invalid_grant).
    let refusals = google.stats().token_refusals;
    let stranger =
        key_file_with(json!({"client_email": "stranger@elsewhere.iam.gserviceaccount.com"}));
    let reply = auth
        .on(Call::put(SERVICE_ACCOUNT).json(stranger))
        .send(&app)
        .await
        .expect(400);
    assert_eq!(reply.invalid_fields(), ["client_email"]);
    assert_eq!(google.stats().token_refusals, refusals + 1);
    let reply = auth.on(Call::get(CONNECT)).send(&app).await.expect(200);
    assert_eq!(reply.json["email"], email.as_str());

    // Disconnecting revokes nothing at Google (the key is its owner's) and forgets it.
    let revocations = google.stats().revocations;
    auth.on(Call::delete(CONNECT)).send(&app).await.expect(204);
    assert_eq!(google.stats().revocations, revocations);
    let reply = auth.on(Call::get(CONNECT)).send(&app).await.expect(200);
    assert_eq!(reply.json["connected"], false);

    // Google unreachable (nothing listens at the token endpoint): 503, nothing stored.
    let mut unreachable = google.settings();
    unreachable.token_url = "http://127.0.0.1:9/token".into();
    let offline = router(
        IntegrationsState::with_google(harness::config(), harness::resources(), unreachable).await,
    );
    let upload = Call::put(SERVICE_ACCOUNT)
        .header("content-type", "application/json")
        .raw_body(key_json);
    let reply = auth.on(upload).send(&offline).await.expect(503);
    assert_eq!(reply.code(), "upstream_unavailable");
    let reply = auth.on(Call::get(CONNECT)).send(&app).await.expect(200);
    assert_eq!(reply.json["connected"], false);
}

/// A job names a property of its own account's connection, or is refused naming the field:
/// malformed, not connected, another account's, or not readable.
#[tokio::test]
async fn a_job_may_name_only_a_property_its_account_has_connected() {
    let google = mock().await;
    let app = app(&google).await;
    let mut resources = harness::resources();
    let clients = harness::clients().await;
    resources.jobs_queue_url = harness::fresh_queue(&clients).await;
    let jobs = kr_jobs::router(kr_jobs::JobsState::from_config(harness::config(), resources).await);
    let store = harness::store().await;
    let (_, owner_key) = harness::user_with_key(&store, 5, 3).await;
    let (_, other_key) = harness::user_with_key(&store, 5, 3).await;
    let job = |property: &str| {
        Call::post("/api/v1/jobs").json(json!({
            "primaryDomain": "brightbrew-coffee.com",
            "languageCode": "en",
            "locationCode": 2840,
            "searchConsoleProperty": property,
        }))
    };

    // Before connecting, and malformed.
    for property in [
        "sc-domain:brightbrew-coffee.com",
        "brightbrew-coffee.com",
        "",
    ] {
        let reply = job(property)
            .api_key(&owner_key)
            .send(&jobs)
            .await
            .expect(400);
        assert_eq!(
            reply.invalid_fields(),
            ["searchConsoleProperty"],
            "{property}"
        );
    }

    let owner = Auth::Key(owner_key.clone());
    let (code, state) = allowed(&app, &google, &owner).await;
    owner.on(finish(&code, &state)).send(&app).await.expect(200);
    let reply = job("sc-domain:brightbrew-coffee.com")
        .api_key(&owner_key)
        .send(&jobs)
        .await
        .expect(201);
    let id = reply.json["job"]["id"].as_str().unwrap().to_string();
    let reply = Call::get(&format!("/api/v1/jobs/{id}"))
        .api_key(&owner_key)
        .send(&jobs)
        .await
        .expect(200);
    assert_eq!(
        reply.json["job"]["searchConsoleProperty"], "sc-domain:brightbrew-coffee.com",
        "{}",
        reply.text
    );
    // Listed, but not one the Google account sees; and the owner's property named by
    // another account.
    let reply = job("https://unlisted.example.com/")
        .api_key(&owner_key)
        .send(&jobs)
        .await
        .expect(400);
    assert_eq!(reply.invalid_fields(), ["searchConsoleProperty"]);
    let reply = job("sc-domain:brightbrew-coffee.com")
        .api_key(&other_key)
        .send(&jobs)
        .await
        .expect(400);
    assert_eq!(reply.invalid_fields(), ["searchConsoleProperty"]);
}
