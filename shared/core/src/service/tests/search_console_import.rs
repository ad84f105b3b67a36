//! A job's Search Console import (`service::search_console::import_search_console`) and the
//! property check of a job request, on the in-memory store and a fake Google whose search
//! analytics pages rows as the API does.

use std::sync::Mutex;

use async_trait::async_trait;
use chrono::{Days, NaiveDate, Utc};
use serde_json::json;

use super::World;
use crate::domain::{ImportStatus, PermissionLevel, PropertyUrl, SearchConsoleProperty, UserId};
use crate::service::jobs::{check_search_console_property, CreateJobRequest};
use crate::service::search_console::{
    import_search_console, AccessToken, AnalyticsDimension, AnalyticsQuery, AnalyticsRow,
    CredentialKey, GoogleAccounts, GoogleCredential, GoogleError, Grant, ImportOutcome,
    SearchAnalytics,
};
use crate::store::{SearchConsoleConnection, SearchConsoleStore};

const PROPERTY: &str = "sc-domain:example.com";

fn key() -> CredentialKey {
    CredentialKey::from_secret(&[9u8; 64]).unwrap()
}

fn day(text: &str) -> NaiveDate {
    NaiveDate::parse_from_str(text, "%Y-%m-%d").unwrap()
}

/// Google with a refresh token that works unless revoked, and rows of (query, page, date,
/// clicks, impressions, position) answered a page at a time.
struct FakeGoogle {
    revoked: bool,
    rows: Vec<(String, String, NaiveDate, u64, u64, f64)>,
    /// Requests of each page: (dimensions, rows answered).
    pages: Mutex<Vec<(usize, usize)>>,
    page_size: usize,
    /// Fail the main query with this, once.
    fail_with: Mutex<Option<GoogleError>>,
}

impl FakeGoogle {
    fn new(rows: Vec<(&str, &str, &str, u64, u64, f64)>) -> Self {
        Self {
            revoked: false,
            rows: rows
                .into_iter()
                .map(|(q, p, d, c, i, pos)| (q.into(), p.into(), day(d), c, i, pos))
                .collect(),
            pages: Mutex::new(Vec::new()),
            page_size: 2,
            fail_with: Mutex::new(None),
        }
    }
}

#[async_trait]
impl GoogleAccounts for FakeGoogle {
    fn authorization_url(&self, _: &str, _: &str, _: &str) -> Result<String, GoogleError> {
        unreachable!()
    }
    async fn redeem_code(&self, _: &str, _: &str, _: &str) -> Result<Grant, GoogleError> {
        unreachable!()
    }
    async fn access_token(&self, _: &GoogleCredential) -> Result<AccessToken, GoogleError> {
        if self.revoked {
            return Err(GoogleError::GrantRefused(
                "Token has been expired or revoked.".into(),
            ));
        }
        Ok(AccessToken("access".into()))
    }
    async fn account_email(&self, _: &AccessToken) -> Result<String, GoogleError> {
        unreachable!()
    }
    async fn properties(&self, _: &AccessToken) -> Result<Vec<SearchConsoleProperty>, GoogleError> {
        unreachable!()
    }
    async fn revoke(&self, _: &GoogleCredential) -> Result<(), GoogleError> {
        unreachable!()
    }
}

#[async_trait]
impl SearchAnalytics for FakeGoogle {
    async fn search_analytics(
        &self,
        _token: &AccessToken,
        _property: &PropertyUrl,
        query: &AnalyticsQuery,
        page: &mut (dyn FnMut(Vec<AnalyticsRow>) + Send),
    ) -> Result<u64, GoogleError> {
        if query.dimensions.len() == 3 {
            if let Some(err) = self.fail_with.lock().unwrap().take() {
                return Err(err);
            }
        }
        let inside = self
            .rows
            .iter()
            .filter(|r| r.2 >= query.start_date && r.2 <= query.end_date);
        let rows: Vec<AnalyticsRow> = if query.dimensions == [AnalyticsDimension::Date] {
            let mut days: Vec<NaiveDate> = inside.map(|r| r.2).collect();
            days.sort();
            days.dedup();
            days.into_iter()
                .map(|d| AnalyticsRow {
                    keys: vec![d.to_string()],
                    clicks: 0,
                    impressions: 1,
                    position: 1.0,
                })
                .collect()
        } else {
            inside
                .map(|r| AnalyticsRow {
                    keys: vec![r.0.clone(), r.1.clone(), r.2.to_string()],
                    clicks: r.3,
                    impressions: r.4,
                    position: r.5,
                })
                .collect()
        };
        let total = rows.len() as u64;
        let mut chunks = rows.chunks(self.page_size).peekable();
        loop {
            let chunk = chunks
                .next()
                .map(<[AnalyticsRow]>::to_vec)
                .unwrap_or_default();
            let short = chunk.len() < self.page_size;
            self.pages
                .lock()
                .unwrap()
                .push((query.dimensions.len(), chunk.len()));
            page(chunk);
            if short {
                break;
            }
        }
        Ok(total)
    }
}

async fn connected(world: &World, owner: UserId, level: PermissionLevel) {
    let key = key();
    let credential = GoogleCredential::OAuth {
        refresh_token: "refresh".into(),
    };
    world
        .store
        .put_connection(&SearchConsoleConnection {
            owner,
            email: "owner@example.test".into(),
            credential: key.seal(owner, &credential.to_bytes()),
            properties: vec![SearchConsoleProperty {
                site_url: PropertyUrl::parse(PROPERTY).unwrap(),
                permission_level: level,
            }],
            connected_at: Utc::now(),
            checked_at: Utc::now(),
            lapsed: None,
        })
        .await
        .unwrap();
}

async fn run(world: &World, google: &FakeGoogle, owner: UserId, today: &str) -> ImportOutcome {
    import_search_console(
        world.store.as_ref(),
        google,
        google,
        &key(),
        owner,
        &PropertyUrl::parse(PROPERTY).unwrap(),
        Some("usa"),
        90,
        day(today),
    )
    .await
    .unwrap()
}

/// The windows end on the last day with data; the recent 28 days, the 28 before, pages by
/// clicks (ties by impressions), a daily series summed over pages; queries matched to the
/// job's keywords whatever their case and spacing, the rest added by impressions.
#[tokio::test]
async fn an_import_folds_rows_into_per_keyword_figures() {
    let world = World::new();
    let owner = UserId::new();
    connected(&world, owner, PermissionLevel::SiteOwner).await;
    // Data ends 2026-03-30 (three days before "today"); recent window 03-03..03-30.
    let google = FakeGoogle::new(vec![
        (
            "cold brew",
            "https://example.com/a",
            "2026-03-30",
            10,
            100,
            3.0,
        ),
        (
            "cold brew",
            "https://example.com/b",
            "2026-03-30",
            10,
            300,
            7.0,
        ),
        (
            "cold brew",
            "https://example.com/a",
            "2026-03-10",
            5,
            50,
            2.0,
        ),
        (
            "cold brew",
            "https://example.com/a",
            "2026-02-20",
            40,
            400,
            2.0,
        ),
        (
            "cold brew",
            "https://example.com/a",
            "2025-12-01",
            99,
            999,
            1.0,
        ),
        (
            "Decaf  Beans",
            "https://example.com/d",
            "2026-03-29",
            1,
            80,
            12.0,
        ),
        (
            "only here",
            "https://example.com/o",
            "2026-03-29",
            0,
            500,
            15.0,
        ),
        ("rarely", "https://example.com/r", "2026-03-29", 0, 5, 40.0),
    ]);
    let ImportOutcome::Imported(data) = run(&world, &google, owner, "2026-04-02").await else {
        panic!("imported")
    };
    assert_eq!(data.end_date, Some(day("2026-03-30")));
    assert_eq!(data.start_date, Some(day("2026-03-30") - Days::new(89)));
    assert_eq!(
        data.rows, 7,
        "the row older than 90 days of data is not asked for"
    );
    let joined = data.for_job(["Cold Brew", "decaf beans", "espresso"], 1);
    assert_eq!(
        joined
            .matched
            .iter()
            .map(|m| m.0.as_str())
            .collect::<Vec<_>>(),
        ["cold brew", "decaf beans"]
    );
    let cold = &joined.matched[0].1;
    assert_eq!((cold.clicks, cold.impressions), (25, 450));
    assert_eq!((cold.previous_clicks, cold.previous_impressions), (40, 400));
    assert_eq!(cold.ctr, (25.0f64 / 450.0 * 10_000.0).round() / 10_000.0);
    // (3·100 + 7·300 + 2·50) / 450
    assert_eq!(cold.position, 5.56);
    // a: 15 clicks 150 impressions; b: 10 clicks 300 impressions.
    assert_eq!(cold.page.as_deref(), Some("https://example.com/a"));
    assert_eq!(cold.pages.len(), 2);
    assert_eq!((cold.pages[1].clicks, cold.pages[1].impressions), (10, 300));
    let dates: Vec<&str> = cold.daily.iter().map(|d| d.date.as_str()).collect();
    assert_eq!(dates, ["2026-02-20", "2026-03-10", "2026-03-30"]);
    assert_eq!(
        (
            cold.daily[2].clicks,
            cold.daily[2].impressions,
            cold.daily[2].position
        ),
        (20, 400, 6.0)
    );
    assert_eq!(joined.added.len(), 1, "room for one");
    assert_eq!(joined.added[0].query, "only here");
    let record = ImportOutcome::Imported(data.clone()).record(Some(&joined));
    assert_eq!(record.status, ImportStatus::Imported);
    assert_eq!((record.rows, record.queries), (7, 4));
    assert_eq!((record.keywords, record.added_keywords), (3, 1));
    assert_eq!(record.end_date.as_deref(), Some("2026-03-30"));
    // Pages of 2 rows until a short one; the date query came first.
    let pages = google.pages.lock().unwrap().clone();
    let dates = pages.iter().take_while(|(d, _)| *d == 1).count();
    assert!(dates >= 1 && pages[dates..].iter().all(|(d, _)| *d == 3));
    assert_eq!(pages.iter().filter(|(d, _)| *d == 3).count(), 4);
}

/// A revoked grant, a property the connection no longer lists, no connection, Google
/// failing: the import is skipped with the reason, and a refused grant marks the connection.
#[tokio::test]
async fn an_import_that_cannot_read_is_skipped_with_the_reason() {
    let world = World::new();
    let owner = UserId::new();
    let rows = vec![(
        "cold brew",
        "https://example.com/a",
        "2026-03-30",
        1,
        10,
        3.0,
    )];
    let ImportOutcome::Skipped(why) =
        run(&world, &FakeGoogle::new(rows.clone()), owner, "2026-04-02").await
    else {
        panic!("no connection")
    };
    assert!(
        why.contains("no longer has a Search Console connection"),
        "{why}"
    );

    connected(&world, owner, PermissionLevel::SiteUnverifiedUser).await;
    let ImportOutcome::Skipped(why) =
        run(&world, &FakeGoogle::new(rows.clone()), owner, "2026-04-02").await
    else {
        panic!("unverified")
    };
    assert!(why.contains("no longer lists"), "{why}");

    connected(&world, owner, PermissionLevel::SiteOwner).await;
    let failing = FakeGoogle::new(rows.clone());
    *failing.fail_with.lock().unwrap() = Some(GoogleError::Unavailable("HTTP 500: boom".into()));
    let ImportOutcome::Skipped(why) = run(&world, &failing, owner, "2026-04-02").await else {
        panic!("failing")
    };
    assert!(why.contains("HTTP 500: boom"), "{why}");
    let record = ImportOutcome::Skipped(why).record(None);
    assert_eq!(record.status, ImportStatus::Skipped);
    assert_eq!(serde_json::to_value(&record).unwrap()["status"], "skipped");

    let revoked = FakeGoogle {
        revoked: true,
        ..FakeGoogle::new(rows)
    };
    let ImportOutcome::Skipped(why) = run(&world, &revoked, owner, "2026-04-02").await else {
        panic!("revoked")
    };
    assert!(why.contains("connect Search Console again"), "{why}");
    let connection = world.store.connection(owner).await.unwrap().unwrap();
    assert!(
        connection.lapsed.is_some(),
        "the connection is marked lapsed"
    );
}

/// No rows for the country: imported, with nothing, and said so.
#[tokio::test]
async fn a_property_without_data_imports_nothing() {
    let world = World::new();
    let owner = UserId::new();
    connected(&world, owner, PermissionLevel::SiteFullUser).await;
    let outcome = run(&world, &FakeGoogle::new(vec![]), owner, "2026-04-02").await;
    let record = outcome.record(None);
    assert_eq!((record.status, record.rows), (ImportStatus::Imported, 0));
    assert!(record.reason.is_some());
}

/// A job may name only a property its account's connection lists as readable.
#[tokio::test]
async fn a_job_names_only_a_listed_readable_property() {
    let world = World::new();
    let owner = UserId::new();
    let body = |property: &str| {
        let body = json!({"primaryDomain": "example.com", "languageCode": "en",
                          "locationCode": 2840, "searchConsoleProperty": property});
        CreateJobRequest::parse(body.as_object().unwrap()).unwrap()
    };
    let check = |request: CreateJobRequest| {
        let store = world.store.clone();
        async move {
            check_search_console_property(store.as_ref(), owner, &request)
                .await
                .unwrap()
        }
    };
    let refused = check(body(PROPERTY)).await.unwrap_err();
    assert_eq!(refused.field, "searchConsoleProperty");
    assert!(
        refused.message.contains("not connected"),
        "{}",
        refused.message
    );
    connected(&world, owner, PermissionLevel::SiteOwner).await;
    assert!(check(body(PROPERTY)).await.is_ok());
    let refused = check(body("sc-domain:other.com")).await.unwrap_err();
    assert!(
        refused.message.contains("not one of"),
        "{}",
        refused.message
    );
    let malformed = json!({"primaryDomain": "example.com", "languageCode": "en",
                           "locationCode": 2840, "searchConsoleProperty": "example.com"});
    let errors = CreateJobRequest::parse(malformed.as_object().unwrap()).unwrap_err();
    assert_eq!(errors[0].field, "searchConsoleProperty");
}
