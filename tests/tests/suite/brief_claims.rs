//! One brief, one charge, bounded time (issue 46): concurrent requests for one cluster, sent
//! in process at once (the local stack runs one instance at a time and would hide them),
//! count one brief, read its pages once and word it once; only the owner has a brief made,
//! by `POST` or an API key, never by a demo job's visitors or a cookie on a `GET`; a model
//! that does not answer leaves a brief without wording in time; `POST` is idempotent and a
//! claim whose maker stopped is taken over uncounted.

use std::sync::Arc;
use std::time::{Duration, Instant};

use chrono::Utc;
use futures_util::future::join_all;
use kr_brief_maker::BriefSettings;
use kr_core::dataset::{BriefWording, BriefWriter, ClusterBrief, Unworded};
use kr_core::domain::{Job, SessionToken};
use kr_core::store::{BriefClaim, BriefLedger, ClaimOutcome, JobStore, Session, SessionStore};
use kr_mcp::{router as mcp_router, McpState};
use kr_tests::bedrock_mock::{fixtures_root as bedrock_answers, MockBedrock};
use kr_tests::harness::{self, Call, Reply};
use serde_json::{json, Value};

use crate::briefs::{briefs, Briefs, COLD_BREW};
use crate::mcp::{call, connect, failed, serve};

const MOKA_POT: &str = "c-moka-pot";
const NITRO: &str = "c-nitro-cold-brew";

/// A model that never answers.
struct Silent;

#[async_trait::async_trait]
impl BriefWriter for Silent {
    fn provider(&self) -> &str {
        "silent"
    }

    async fn word(&self, _: &ClusterBrief) -> Result<BriefWording, Unworded> {
        std::future::pending().await
    }
}

async fn job(briefs: &Briefs) -> Job {
    briefs.rig.store.job(briefs.job.id).await.unwrap().unwrap()
}

fn post(briefs: &Briefs, cluster: &str) -> Call {
    Call::post(&briefs.path(cluster)).api_key(&briefs.owner_key)
}

/// `Retry-After` of a 409 for a brief being made: a few seconds.
fn retry_after(reply: &Reply) -> u64 {
    assert_eq!(reply.code(), "job_not_ready", "{}", reply.text);
    let secs: u64 = reply
        .header("retry-after")
        .expect("Retry-After")
        .parse()
        .unwrap();
    assert!((1..=5).contains(&secs), "{secs}");
    secs
}

#[tokio::test]
async fn concurrent_first_requests_count_one_brief_read_its_pages_once_and_word_it_once() {
    let briefs = briefs(5).await;
    let (mock, url) = MockBedrock::start("127.0.0.1:0".parse().unwrap(), bedrock_answers())
        .await
        .unwrap();
    let app = briefs.worded_by(&url, "mock.brief-v1", &[]).await;
    let before = job(&briefs).await.usage.unwrap_or_default();

    let replies = join_all((0..8).map(|_| post(&briefs, COLD_BREW).send(&app))).await;
    let made: Vec<&Reply> = replies.iter().filter(|r| r.status == 200).collect();
    assert!(!made.is_empty(), "one request makes it");
    let mut told_to_wait = 0;
    for reply in &replies {
        match reply.status {
            200 => assert_eq!(reply.json["generatedAt"], made[0].json["generatedAt"]),
            409 => {
                retry_after(reply);
                told_to_wait += 1;
            }
            other => panic!("{other}: {}", reply.text),
        }
    }
    assert!(told_to_wait > 0, "the requests overlapped");

    assert_eq!(job(&briefs).await.briefs, 1, "counted once");
    assert_eq!(mock.requests().len(), 1, "worded once");
    let hits = briefs.ranking.all();
    assert!(!hits.is_empty());
    let mut once = hits.clone();
    once.sort();
    once.dedup();
    assert_eq!(once.len(), hits.len(), "each page read once: {hits:?}");
    // The wording's cost (900 + 160 tokens at the default prices) is in the job's usage.
    let after = job(&briefs).await.usage.unwrap();
    assert_eq!(after.requests, before.requests + 1);
    assert!(
        (after.cost_usd - before.cost_usd - 0.0051).abs() < 1e-9,
        "{after:?}"
    );

    // Those told to wait read it after.
    let read = Call::get(&briefs.path(COLD_BREW))
        .api_key(&briefs.owner_key)
        .send(&app)
        .await
        .expect(200);
    assert_eq!(read.json["generatedAt"], made[0].json["generatedAt"]);
    assert_eq!(briefs.ranking.all().len(), hits.len());
}

#[tokio::test]
async fn a_demo_jobs_visitors_and_cookie_reads_never_make_a_brief() {
    let briefs = briefs(5).await;
    let mut config = harness::config();
    config.demo_user_id = Some(briefs.job.owner.as_uuid());
    let origin = config.allowed_origins[0].clone();
    let app = briefs
        .app_with(config, BriefSettings::default(), None)
        .await;
    let path = briefs.path(COLD_BREW);

    let anonymous = Call::get(&path).send(&app).await.expect(404);
    assert_eq!(anonymous.code(), "not_found");
    assert!(
        anonymous.json["error"]
            .as_str()
            .unwrap()
            .contains("not been made"),
        "{}",
        anonymous.text
    );
    let (_, stranger) = harness::user_with_key(&briefs.rig.store, 1, 1).await;
    Call::get(&path)
        .api_key(&stranger)
        .send(&app)
        .await
        .expect(404);
    let foreign = Call::post(&path)
        .api_key(&stranger)
        .send(&app)
        .await
        .expect(404);
    assert_eq!(foreign.json["error"], "Job not found.");
    Call::post(&path).send(&app).await.expect(401);

    // The owner's cookie rides along on a link from anywhere: a GET only reads, and a POST
    // from another site is refused.
    let token = SessionToken::generate();
    briefs
        .rig
        .store
        .create_session(
            &token.hash(),
            &Session {
                user_id: briefs.job.owner,
                expires_at: Utc::now() + chrono::Duration::hours(1),
            },
        )
        .await
        .unwrap();
    let cookie = format!("__session={}", token.expose());
    Call::get(&path)
        .header("cookie", &cookie)
        .send(&app)
        .await
        .expect(404);
    Call::post(&path)
        .header("cookie", &cookie)
        .header("origin", "https://evil.example")
        .send(&app)
        .await
        .expect(403);
    assert_eq!(job(&briefs).await.briefs, 0, "nothing counted");
    assert!(briefs.ranking.all().is_empty(), "no page read");

    // From the dashboard, the owner makes it; then everyone reads it.
    let made = Call::post(&path)
        .header("cookie", &cookie)
        .header("origin", &origin)
        .send(&app)
        .await
        .expect(200);
    let read = Call::get(&path).send(&app).await.expect(200);
    assert_eq!(read.json["generatedAt"], made.json["generatedAt"]);
    assert_eq!(job(&briefs).await.briefs, 1);
}

#[tokio::test]
async fn a_model_that_never_answers_leaves_a_brief_without_wording_in_time() {
    let briefs = briefs(5).await;
    let settings = BriefSettings {
        wording_deadline: Duration::from_secs(1),
        ..BriefSettings::default()
    };
    let app = briefs
        .app_with(harness::config(), settings, Some(Arc::new(Silent)))
        .await;
    let before = job(&briefs).await.usage.unwrap_or_default();
    let started = Instant::now();
    let made = tokio::time::timeout(Duration::from_secs(15), post(&briefs, COLD_BREW).send(&app))
        .await
        .expect("answered within the bound")
        .expect(200);
    assert!(started.elapsed() >= Duration::from_secs(1));
    assert_eq!(made.json["wording"], Value::Null);
    assert!(!made.json["outline"].as_array().unwrap().is_empty());
    let stored = Call::get(&briefs.path(COLD_BREW))
        .api_key(&briefs.owner_key)
        .send(&app)
        .await
        .expect(200);
    assert_eq!(stored.json["generatedAt"], made.json["generatedAt"]);
    // The request went out and may be billed: it is counted, at no known cost.
    let after = job(&briefs).await.usage.unwrap();
    assert_eq!(after.requests, before.requests + 1);
}

#[tokio::test]
async fn post_is_idempotent_and_a_stopped_makers_claim_is_taken_over_uncounted() {
    let briefs = briefs(5).await;
    let first = post(&briefs, COLD_BREW).send(&briefs.app).await.expect(200);
    let read = briefs.ranking.all().len();
    let again = post(&briefs, COLD_BREW).send(&briefs.app).await.expect(200);
    assert_eq!(again.json["generatedAt"], first.json["generatedAt"]);
    assert_eq!(briefs.ranking.all().len(), read, "not read again");
    assert_eq!(job(&briefs).await.briefs, 1);

    // A maker at work holds its cluster until its lease ends.
    let store = &briefs.rig.store;
    let job_now = job(&briefs).await;
    let now = Utc::now();
    let claim = |cluster_id, until| BriefClaim {
        job: &job_now,
        cluster_id,
        max: 5,
        token: "another-maker",
        now,
        until,
    };
    let working = claim(MOKA_POT, now + chrono::Duration::seconds(60));
    assert_eq!(
        store.claim_brief(&working).await.unwrap(),
        ClaimOutcome::Claimed { counted: true }
    );
    let held = post(&briefs, MOKA_POT).send(&briefs.app).await.expect(409);
    assert_eq!(retry_after(&held), 5);
    // One that stopped (its lease ran out): the next request makes the brief, uncounted.
    let stopped = claim(NITRO, now - chrono::Duration::seconds(1));
    assert_eq!(
        store.claim_brief(&stopped).await.unwrap(),
        ClaimOutcome::Claimed { counted: true }
    );
    assert_eq!(job(&briefs).await.briefs, 3);
    post(&briefs, NITRO).send(&briefs.app).await.expect(200);
    assert_eq!(
        job(&briefs).await.briefs,
        3,
        "counted by the first claim only"
    );
}

#[tokio::test]
async fn the_mcp_tool_makes_the_owners_briefs_and_only_reads_a_demo_jobs() {
    let briefs = briefs(5).await;
    let mut config = harness::config();
    config.demo_user_id = Some(briefs.job.owner.as_uuid());
    let state = McpState::from_config(config, harness::resources())
        .await
        .with_crawler(briefs.crawler());
    let url = serve(mcp_router(state)).await;
    let args = json!({"jobId": briefs.job.id.to_string(), "clusterId": COLD_BREW});

    let (_, stranger) = harness::user_with_key(&briefs.rig.store, 1, 1).await;
    let visitor = connect(&url, &stranger).await;
    let refused = call(&visitor, "cluster_brief", args.clone()).await;
    assert_eq!(failed(&refused)["code"], "not_found");
    assert_eq!(job(&briefs).await.briefs, 0);

    let owner = connect(&url, &briefs.owner_key).await;
    let made = call(&owner, "cluster_brief", args.clone()).await;
    assert_ne!(made.is_error, Some(true), "{made:?}");
    let read = call(&visitor, "cluster_brief", args).await;
    assert_ne!(read.is_error, Some(true), "{read:?}");
    assert_eq!(job(&briefs).await.briefs, 1);
}
