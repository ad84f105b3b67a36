//! SERPs through DataForSEO's Standard queue: the client against the mock's queue endpoints,
//! then jobs that post their SERPs, leave, and come back in later messages to collect them,
//! with the same results as Live and a third of the SERP spend; and a post whose answer was
//! lost, whose tasks are found by their tags and paid for once.

use std::collections::HashSet;
use std::time::Duration;

use kr_core::domain::Stage;
use kr_core::result_url::without_tracking;
use kr_core::store::PipelineMessage;
use kr_dataforseo::{
    Collected, JobSession, Market, PostedSerps, ProviderError, ReadySerp, SerpTask,
};
use kr_tests::dataforseo_mock::{paths, MockConfig, MockDataForSeo};
use kr_tests::pipeline_rig::{provider_at, rig, RecordedUsage, Rig};
use kr_tests::sites::{DEMO_COMPETITOR, DEMO_PRIMARY};

/// `task_post` requests that `tasks` SERPs take: one per full batch of 100.
fn posts_for(tasks: usize) -> u64 {
    tasks.div_ceil(kr_dataforseo::Endpoint::SerpTaskPost.batch_size()) as u64
}

const MARKET: Market<'static> = Market {
    location_code: 2840,
    language_code: "en",
};

/// The keywords the mock has SERPs for.
fn serp_keywords(mock: &MockDataForSeo) -> Vec<String> {
    mock.data()
        .serp_keywords()
        .into_iter()
        .map(String::from)
        .collect()
}

async fn start(config: MockConfig) -> MockDataForSeo {
    MockDataForSeo::start(config.without_faults())
        .await
        .unwrap()
}

/// Posts `keywords` (cleaned) a request at a time as the pipeline does, each request as
/// large as the session allows; returns each posted keyword's task id, and why posting
/// stopped.
async fn post_all(
    session: &JobSession<'_>,
    keywords: &[String],
) -> (Vec<(usize, String)>, Option<ProviderError>) {
    let mut ids = Vec::new();
    let mut start = 0;
    while start < keywords.len() {
        let end = (start + session.serp_tasks_per_post()).min(keywords.len());
        let tasks: Vec<SerpTask> = keywords[start..end]
            .iter()
            .map(|k| SerpTask::of_job("client-test", k.clone()))
            .collect();
        match session.post_serp_tasks(&tasks, &MARKET).await {
            Ok(PostedSerps::Answered(answered)) => ids.extend(
                answered
                    .into_iter()
                    .enumerate()
                    .filter_map(|(i, id)| Some((start + i, id?))),
            ),
            Ok(PostedSerps::Unanswered) => panic!("the mock plays no faults here"),
            Err(err) => return (ids, Some(err)),
        }
        start = end;
    }
    (ids, None)
}

fn ready_ids(ready: &[ReadySerp]) -> HashSet<&str> {
    ready.iter().map(|r| r.id.as_str()).collect()
}

#[tokio::test]
async fn tasks_are_posted_a_hundred_at_a_time_collected_by_id_and_cached_as_live_answers() {
    let mock = start(MockConfig::default()).await;
    let provider = provider_at(&mock.base_url(), "mock-login", "mock-password", &[]).await;
    let sink = RecordedUsage::default();
    let session = provider.for_job(None, &sink);
    let mut keywords = serp_keywords(&mock);
    keywords.truncate(40);
    let known = keywords.len();
    // Keywords the engine has no results for still make tasks.
    keywords.extend((0..120).map(|i| format!("no such phrase {i}")));
    assert!(session
        .cached_serps(&keywords, &MARKET)
        .await
        .iter()
        .all(Option::is_none));

    let (ids, stopped) = post_all(&session, &keywords).await;
    assert!(stopped.is_none(), "{stopped:?}");
    assert_eq!(mock.stats().requests_to(paths::SERP_TASK_POST), 2);
    assert_eq!(ids.len(), known + 120);
    let stats = mock.stats();
    let billed: f64 = stats.tasks.iter().map(|t| t.cost).sum();
    assert!(
        (billed - 0.0006 * (known + 120) as f64).abs() < 1e-9,
        "{billed}"
    );
    // Every task carries its tag, and the ready list shows it.
    let ready = session.ready_serp_tasks().await.unwrap();
    assert!(ids
        .iter()
        .all(|(_, id)| ready_ids(&ready).contains(id.as_str())));
    let tag = SerpTask::of_job("client-test", keywords[0].clone()).tag;
    assert!(ready
        .iter()
        .any(|r| r.id == ids[0].1 && r.tag.as_deref() == Some(tag.as_str())));
    for (i, id) in &ids[..known] {
        let Collected::Ready(serp) = session
            .collect_serp_task(id, &keywords[*i], &MARKET)
            .await
            .unwrap()
        else {
            panic!("{} is ready", keywords[*i]);
        };
        // The same SERP as the Live endpoint gives (shops' click trackers aside).
        let live = mock.data().serp_urls(&keywords[*i]).unwrap();
        let organic: Vec<String> = serp
            .items
            .iter()
            .filter(|item| item.item_type.as_deref() == Some("organic"))
            .filter_map(|item| item.url.as_deref().map(without_tracking))
            .take(live.len())
            .collect();
        assert_eq!(organic, live, "{}", keywords[*i]);
    }
    // Collected tasks leave the ready list; the rest stay on it.
    let still = session.ready_serp_tasks().await.unwrap();
    assert_eq!(still.len(), 120);
    assert!(session
        .collect_serp_task("../../live/regular", "x", &MARKET)
        .await
        .is_err());
    let usage = session.usage();
    assert_eq!(usage.requests, mock.stats().requests.values().sum::<u64>());

    // A second job finds the collected SERPs in the cache.
    let other = RecordedUsage::default();
    let second = provider.for_job(None, &other);
    let cached = second
        .cached_serps(&keywords[..known + 1], &MARKET)
        .await
        .iter()
        .filter(|serp| serp.is_some())
        .count();
    assert_eq!(cached, known);
    assert_eq!(second.usage().cache_hits, known as u64);
}

/// Each request holds only the tasks the job's spending cap has room for, and posting stops
/// once it is reached: 100 tasks in one request cannot take a job far past its cap.
#[tokio::test]
async fn posting_stops_at_the_jobs_spending_cap() {
    let mock = start(MockConfig::default()).await;
    let cap = [("KR_DATAFORSEO_MAX_COST_PER_JOB", "0.003")];
    let provider = provider_at(&mock.base_url(), "mock-login", "mock-password", &cap).await;
    let sink = RecordedUsage::default();
    let session = provider.for_job(None, &sink);
    let keywords: Vec<String> = serp_keywords(&mock).into_iter().take(40).collect();
    let (ids, stopped) = post_all(&session, &keywords).await;
    assert_eq!(stopped, Some(ProviderError::CapReached));
    assert_eq!(ids.len(), 5);
    assert_eq!(mock.stats().tasks_to(paths::SERP_TASK_POST).len(), 5);
    let usage = session.usage();
    assert!(usage.cap_reached);
    assert!((usage.cost_usd - 0.003).abs() < 1e-9, "{usage:?}");
}

#[tokio::test]
async fn a_task_collected_too_early_is_pending_and_not_listed_as_ready() {
    let mock = start(MockConfig::default().with_serp_ready_after(Duration::from_secs(2))).await;
    let provider = provider_at(&mock.base_url(), "mock-login", "mock-password", &[]).await;
    let sink = RecordedUsage::default();
    let session = provider.for_job(None, &sink);
    let keyword = serp_keywords(&mock).remove(0);
    let (ids, _) = post_all(&session, std::slice::from_ref(&keyword)).await;
    let Some((_, id)) = ids.first() else {
        panic!("nothing posted");
    };
    assert!(session.ready_serp_tasks().await.unwrap().is_empty());
    assert!(matches!(
        session.collect_serp_task(id, &keyword, &MARKET).await,
        Ok(Collected::Pending)
    ));
    tokio::time::sleep(Duration::from_millis(2100)).await;
    assert!(ready_ids(&session.ready_serp_tasks().await.unwrap()).contains(id.as_str()));
    assert!(matches!(
        session.collect_serp_task(id, &keyword, &MARKET).await,
        Ok(Collected::Ready(_))
    ));
}

/// The connection drops after DataForSEO queued (and billed) a post's tasks: the answer with
/// their ids is lost. The post is never sent again; the job finds its tasks in the ready list
/// by their tags, collects them, and records what they cost. Each SERP is paid for once, none
/// is fetched Live, and the job's spend equals the provider's bill.
#[tokio::test]
async fn a_post_whose_answer_was_lost_is_not_sent_again_and_its_tasks_are_found_by_tag() {
    let (config, _rules) = MockConfig::with_fault_rules(
        r#"{"rules": [{"name": "task_post answer lost once", "path": "/v3/serp/google/organic/task_post",
            "times": 1, "answer": {"answer_lost": true}}]}"#,
    );
    let mock = MockDataForSeo::start(config.with_serp_ready_after(Duration::from_secs(2)))
        .await
        .unwrap();
    let rig = rig_at(&mock, &[]).await;
    let job = rig.start(DEMO_PRIMARY, &[DEMO_COMPETITOR]).await;
    let done = rig.complete(job.id).await;
    let stats = mock.stats();
    assert_eq!(
        stats.requests_to(paths::SERP_TASK_POST),
        posts_for(stats.tasks_to(paths::SERP_TASK_POST).len()),
        "the post whose answer was lost is not sent again"
    );
    let posted = stats.tasks_to(paths::SERP_TASK_POST).len() as u64;
    assert!(posted >= 20, "{posted}");
    assert_eq!(
        stats.requests_to(paths::SERP_ORGANIC),
        0,
        "none fetched Live"
    );
    let collected = stats
        .tasks_to(paths::SERP_TASK_GET)
        .iter()
        .filter(|t| t.status_code == 20000 || t.status_code == 40102)
        .count() as u64;
    assert_eq!(
        collected, posted,
        "every task found by its tag and collected"
    );
    let usage = done.usage.unwrap();
    assert!(
        (usage.cost_usd - stats.total_cost).abs() < 1e-6,
        "recorded {} against billed {}",
        usage.cost_usd,
        stats.total_cost
    );
    assert_eq!(usage.requests, stats.requests.values().sum::<u64>());
    assert!(rig.dataset(job.id).await.keywords.len() > 40);
}

async fn rig_at(mock: &MockDataForSeo, vars: &[(&str, &str)]) -> Rig {
    let provider = provider_at(&mock.base_url(), "mock-login", "mock-password", vars).await;
    rig(Some(provider), &[]).await
}

/// The same job, its SERPs Live and through the queue: the same results, the SERPs at
/// 0.0006 instead of 0.002 each; the queued job left and came back while the tasks ran.
#[tokio::test]
async fn a_queued_job_gets_the_results_of_a_live_one_for_less() {
    let live_mock = start(MockConfig::default()).await;
    let live = rig_at(&live_mock, &[("KR_DATAFORSEO_SERP_METHOD", "live")]).await;
    let live_job = live
        .complete(live.start(DEMO_PRIMARY, &[DEMO_COMPETITOR]).await.id)
        .await;
    let live_stats = live_mock.stats();
    let serps = live_stats.requests_to(paths::SERP_ORGANIC);
    assert!(serps >= 20, "{serps} SERPs");

    // Ready from the second look at the queue on, however slow the machine: the job must
    // come back.
    let queue_mock = start(MockConfig::default().with_serp_ready_after_polls(1)).await;
    let queued = rig_at(&queue_mock, &[]).await;
    let queued_job = queued
        .complete(queued.start(DEMO_PRIMARY, &[DEMO_COMPETITOR]).await.id)
        .await;
    let stats = queue_mock.stats();
    assert_eq!(stats.requests_to(paths::SERP_ORGANIC), 0);
    assert_eq!(stats.tasks_to(paths::SERP_TASK_POST).len() as u64, serps);
    assert_eq!(
        stats.requests_to(paths::SERP_TASK_POST),
        posts_for(serps as usize)
    );
    // Not ready on the first round, so the job came back more than once.
    assert!(stats.requests_to(paths::SERP_TASKS_READY) >= 2, "{stats:?}");
    // Collected: with results, or with none (40102), as Live answered.
    let collected = stats
        .tasks_to(paths::SERP_TASK_GET)
        .iter()
        .filter(|t| t.status_code == 20000 || t.status_code == 40102)
        .count() as u64;
    assert_eq!(collected, serps);

    assert_eq!(
        live.dataset(live_job.id).await.keywords,
        queued.dataset(queued_job.id).await.keywords
    );
    // The Labs part costs the same; the SERPs cost 0.0006 each posted instead of 0.002 each
    // answered Live (the mock does not bill a Live "no results").
    let serp_cost = |stats: &kr_tests::dataforseo_mock::MockStats, path| {
        stats.tasks_to(path).iter().map(|t| t.cost).sum::<f64>()
    };
    let live_serps = serp_cost(&live_stats, paths::SERP_ORGANIC);
    let queued_serps = serp_cost(&stats, paths::SERP_TASK_POST);
    assert!((queued_serps - 0.0006 * serps as f64).abs() < 1e-9);
    let answered = live_stats
        .tasks_to(paths::SERP_ORGANIC)
        .iter()
        .filter(|t| t.status_code == 20000)
        .count();
    assert!(answered >= 20, "{answered} Live SERPs with results");
    assert!(
        (live_serps - 0.002 * answered as f64).abs() < 1e-9,
        "{live_serps} for {answered}"
    );
    let (live_cost, queued_cost) = (
        live_job.usage.unwrap().cost_usd,
        queued_job.usage.clone().unwrap().cost_usd,
    );
    assert!(
        ((live_cost - queued_cost) - (live_serps - queued_serps)).abs() < 1e-6,
        "live {live_cost} {:?}, queued {queued_cost} {:?}",
        live_stats.requests,
        stats.requests
    );
    let usage = queued_job.usage.unwrap();
    assert_eq!(usage.requests, stats.requests.values().sum::<u64>());
    assert!((usage.cost_usd - stats.total_cost).abs() < 1e-6);
}

/// A copy of the metrics message delivered while the tasks wait posts nothing again; the job
/// completes with each SERP paid for once.
#[tokio::test]
async fn a_duplicate_message_while_tasks_wait_does_not_post_them_again() {
    let mock = start(MockConfig::default().with_serp_ready_after(Duration::from_secs(2))).await;
    let rig = rig_at(&mock, &[]).await;
    let job = rig.start(DEMO_PRIMARY, &[DEMO_COMPETITOR]).await;
    let bridge = kr_tests::bridge::Bridge {
        sqs: rig.clients.sqs.clone(),
        queue_url: rig.queue_url.clone(),
        batch_size: 1,
    };
    let invoker = kr_tests::bridge::InProcessPipeline(rig.pipeline.clone());
    let deadline = std::time::Instant::now() + Duration::from_secs(120);
    while mock.stats().requests_to(paths::SERP_TASK_POST) == 0 {
        assert!(std::time::Instant::now() < deadline, "no SERP was posted");
        bridge.poll_once(&invoker, 1).await.unwrap();
    }
    let duplicate = PipelineMessage {
        job_id: job.id,
        stage: Stage::Metrics,
    };
    rig.pipeline.handle(&duplicate, 1).await.unwrap();
    rig.pipeline.handle(&duplicate, 2).await.unwrap();
    let posted = mock.stats().tasks_to(paths::SERP_TASK_POST).len();
    let done = rig.complete(job.id).await;
    let stats = mock.stats();
    assert_eq!(stats.tasks_to(paths::SERP_TASK_POST).len(), posted);
    assert_eq!(stats.requests_to(paths::SERP_TASK_POST), posts_for(posted));
    let usage = done.usage.unwrap();
    assert!((usage.cost_usd - stats.total_cost).abs() < 1e-6);
    assert!(rig.dataset(job.id).await.keywords.len() > 40);
}

/// Tasks the queue has not finished when the wait is over are fetched Live: the job is late
/// by the wait at most, and pays Live prices only for those.
#[tokio::test]
async fn tasks_not_ready_in_time_are_fetched_live() {
    let mock = start(MockConfig::default().with_serp_ready_after(Duration::from_secs(3600))).await;
    let rig = rig_at(&mock, &[("KR_DATAFORSEO_SERP_WAIT_MINUTES", "0")]).await;
    let job = rig.start(DEMO_PRIMARY, &[DEMO_COMPETITOR]).await;
    let done = rig.complete(job.id).await;
    let stats = mock.stats();
    let posted = stats.tasks_to(paths::SERP_TASK_POST).len() as u64;
    assert!(posted >= 20);
    assert_eq!(stats.requests_to(paths::SERP_ORGANIC), posted);
    assert!(stats
        .tasks_to(paths::SERP_ORGANIC)
        .iter()
        .all(|t| t.status_code == 20000 || t.status_code == 40102));
    assert!(rig.dataset(job.id).await.keywords.len() > 40);
    let usage = done.usage.unwrap();
    assert_eq!(usage.requests, stats.requests.values().sum::<u64>());
}
