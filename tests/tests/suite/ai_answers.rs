//! Questions to AI answer engines end to end (issue 49): the real pipeline against the
//! emulator, the sample sites and the DataForSEO mock's LLM Responses; the job's `aiAnswers`,
//! the stored answers, `GET /jobs/{jobId}/ai-visibility`, the budget cap, the cache, an engine
//! that fails, and the cost preview.

use kr_core::dataset::{objects, AiAnswer, AiAnswersDocument};
use kr_core::domain::{AiAnswersOutcome, AiAnswersStatus, AiEngine, Job};
use kr_core::store::get_json;
use kr_dataforseo::pricing::AnswerPlan;
use kr_research::ai_prompts::ai_prompts;
use kr_research::text::Language;
use kr_results::{router, ResultsState};
use kr_tests::dataforseo_mock::{
    answer_kind, paths, AnswerKind, MockConfig, MockDataForSeo, HOSTILE_SCRIPT,
};
use kr_tests::harness::{self, Call};
use kr_tests::pipeline_rig::{discovery_request, provider_at, rig, Rig};
use kr_tests::sites::{DEMO_COMPETITOR, DEMO_PRIMARY};
use serde_json::{json, Value};

const LLM_PATHS: [&str; 4] = [
    paths::LLM_CHAT_GPT,
    paths::LLM_PERPLEXITY,
    paths::LLM_GEMINI,
    paths::LLM_CLAUDE,
];

async fn mock() -> MockDataForSeo {
    MockDataForSeo::start(MockConfig::default().without_faults())
        .await
        .unwrap()
}

async fn rig_for(mock: &MockDataForSeo, vars: &[(&str, &str)]) -> Rig {
    let provider = provider_at(&mock.base_url(), "mock-login", "mock-password", vars).await;
    rig(Some(provider), &[]).await
}

/// A job of a new user with an API key: the sample primary and its competitor.
async fn start(rig: &Rig) -> (Job, String) {
    let (user, key) = harness::user_with_key(&rig.store, 5, 5).await;
    let request = discovery_request(DEMO_PRIMARY, &[DEMO_COMPETITOR], 2840);
    (rig.start_for(user.id, request).await, key)
}

/// A job of a new user run to completion with `vars` set: the rig, the job as started and
/// as completed, and the user's API key.
async fn completed(mock: &MockDataForSeo, vars: &[(&str, &str)]) -> (Rig, Job, Job, String) {
    let rig = rig_for(mock, vars).await;
    let (job, key) = start(&rig).await;
    let done = rig.complete(job.id).await;
    (rig, job, done, key)
}

fn outcome_of(job: &Job) -> AiAnswersOutcome {
    job.ai_answers
        .clone()
        .expect("a job run with engines configured says what asking them came to")
}

async fn stored(rig: &Rig, job: &Job) -> Option<AiAnswersDocument> {
    get_json(rig.objects.as_ref(), job.id, &objects::ai_answers())
        .await
        .unwrap()
}

/// Requests the mock had for LLM Responses, and what it billed for them.
fn llm_traffic(mock: &MockDataForSeo) -> (u64, f64) {
    let stats = mock.stats();
    let requests = LLM_PATHS.iter().map(|p| stats.requests_to(p)).sum();
    let billed = LLM_PATHS
        .iter()
        .flat_map(|p| stats.tasks_to(p))
        .map(|t| t.cost)
        .sum();
    (requests, billed)
}

async fn results_app() -> axum::Router {
    router(ResultsState::from_config(harness::config(), harness::resources()).await)
}

async fn ai_visibility(app: &axum::Router, job: &Job, key: &str) -> harness::Reply {
    Call::get(&format!("/api/v1/jobs/{}/ai-visibility", job.id))
        .api_key(key)
        .send(app)
        .await
}

/// What the mock's answer to the question must read as.
fn assert_read_as_the_mock_answered(answer: &AiAnswer) {
    let kind = answer_kind(&answer.prompt);
    let (mentions, cites, competitors): (bool, bool, &[&str]) = match kind {
        AnswerKind::CitesPrimary => (true, true, &[]),
        AnswerKind::CitesCompetitor | AnswerKind::Hostile => (false, false, &[DEMO_COMPETITOR]),
        AnswerKind::Neutral => (false, false, &[]),
    };
    assert_eq!(
        (answer.mentions_site, answer.cites_site),
        (mentions, cites),
        "{kind:?}: {answer:?}"
    );
    assert_eq!(answer.competitors, competitors, "{kind:?}: {answer:?}");
    assert!(answer.text.chars().count() <= 2000);
    if kind == AnswerKind::Hostile {
        assert!(answer.text.contains(HOSTILE_SCRIPT), "{answer:?}");
        assert!(answer.cited_urls.is_empty());
    } else {
        assert!(!answer.cited_urls.is_empty(), "{answer:?}");
    }
}

#[tokio::test]
async fn a_job_with_answers_on_asks_each_engine_its_clusters_questions_and_serves_them() {
    let mock = mock().await;
    let (rig, job, done, key) = completed(
        &mock,
        &[
            ("KR_AI_ANSWERS", "chat_gpt,perplexity"),
            ("KR_AI_ANSWERS_PROMPTS", "8"),
        ],
    )
    .await;
    let outcome = outcome_of(&done);
    assert_eq!(outcome.status, AiAnswersStatus::Completed, "{outcome:?}");
    assert_eq!(outcome.reason, None);
    assert_eq!(outcome.engines, [AiEngine::ChatGpt, AiEngine::Perplexity]);
    assert_eq!(outcome.prompts, 8);

    // The questions are the clusters' (the rule in kr_research::ai_prompts), asked of both
    // engines in order.
    let dataset = rig.dataset(job.id).await;
    let expected = ai_prompts(
        &dataset.clusters,
        &dataset.keywords,
        &dataset.personas,
        &Language::english(),
        8,
    );
    let document = stored(&rig, &done).await.expect("the answers are stored");
    assert_eq!(document.answers.len(), 16);
    for (engine, answers) in [AiEngine::ChatGpt, AiEngine::Perplexity]
        .iter()
        .zip(document.answers.chunks(8))
    {
        let asked: Vec<(&str, &str)> = answers
            .iter()
            .map(|a| (a.cluster_id.as_str(), a.prompt.as_str()))
            .collect();
        let derived: Vec<(&str, &str)> = expected
            .iter()
            .map(|p| (p.cluster_id.as_str(), p.prompt.as_str()))
            .collect();
        assert_eq!(asked, derived, "{engine}");
        assert!(answers.iter().all(|a| a.engine == *engine && !a.cached));
    }
    for answer in &document.answers {
        assert_read_as_the_mock_answered(answer);
    }
    let kinds: Vec<AnswerKind> = expected.iter().map(|p| answer_kind(&p.prompt)).collect();
    assert!(
        kinds.contains(&AnswerKind::CitesPrimary) && kinds.contains(&AnswerKind::CitesCompetitor),
        "the sample job's questions reach answers citing the primary and the competitor: {kinds:?}"
    );

    // Every answer was paid for once, at what the mock billed, and the job's usage has it.
    let (requests, billed) = llm_traffic(&mock);
    assert_eq!(requests, 16);
    assert!(
        (document.cost_usd - billed).abs() < 1e-6,
        "{document:?} vs {billed}"
    );
    assert!((outcome.cost_usd - billed).abs() < 1e-6);
    let usage = done.usage.clone().unwrap();
    assert!((usage.cost_usd - mock.stats().total_cost).abs() < 1e-6);
    let stats = mock.stats();
    let sent = &stats.tasks_to(paths::LLM_PERPLEXITY)[0].task;
    assert_eq!(sent["model_name"], "sonar");
    assert_eq!(sent["web_search_country_iso_code"], "US");

    // The endpoint serves the stored answers as data, the hostile ones as they came.
    let app = results_app().await;
    let reply = ai_visibility(&app, &done, &key).await.expect(200);
    assert_eq!(
        reply.json["answers"],
        serde_json::to_value(&document.answers).unwrap()
    );
    assert_eq!(reply.json["costUsd"], json!(document.cost_usd));
    let with_serp = dataset
        .keywords
        .iter()
        .filter(|k| k.ai_overview.is_some())
        .count();
    let overviews = &reply.json["overviews"];
    assert_eq!(overviews["keywords"], with_serp);
    assert!(
        overviews["byCompetitor"][DEMO_COMPETITOR].is_u64(),
        "{overviews}"
    );
    // The sample job's eighth question gets the hostile answer: served as it came, as data.
    assert!(kinds.contains(&AnswerKind::Hostile), "{kinds:?}");
    assert!(reply.text.contains("<script>window.__krHostile"));
    let (_, other_key) = harness::user_with_key(&rig.store, 1, 1).await;
    ai_visibility(&app, &done, &other_key).await.expect(404);
}

#[tokio::test]
async fn a_second_identical_job_gets_the_answers_from_the_cache_at_no_cost() {
    let mock = mock().await;
    let rig = rig_for(
        &mock,
        &[
            ("KR_AI_ANSWERS", "perplexity"),
            ("KR_AI_ANSWERS_PROMPTS", "4"),
        ],
    )
    .await;
    let (first, _) = start(&rig).await;
    let first = rig.complete(first.id).await;
    let (asked, _) = llm_traffic(&mock);
    assert_eq!(asked, 4);
    let (second, _) = start(&rig).await;
    let second = rig.complete(second.id).await;
    assert_eq!(llm_traffic(&mock).0, asked, "no engine is asked again");
    let outcome = outcome_of(&second);
    assert_eq!(outcome.status, AiAnswersStatus::Completed);
    assert_eq!(outcome.cost_usd, 0.0);
    let document = stored(&rig, &second).await.unwrap();
    assert_eq!(document.cost_usd, 0.0);
    assert!(document.answers.iter().all(|a| a.cached));
    let before = stored(&rig, &first).await.unwrap();
    let strip = |d: &AiAnswersDocument| -> Vec<Value> {
        d.answers
            .iter()
            .map(|a| {
                let mut v = serde_json::to_value(a).unwrap();
                v["cached"] = json!(null);
                v
            })
            .collect()
    };
    assert_eq!(strip(&document), strip(&before));
}

#[tokio::test]
async fn a_job_whose_budget_is_spent_asks_no_engine() {
    let mock = mock().await;
    let (rig, _, done, key) = completed(
        &mock,
        &[
            ("KR_AI_ANSWERS", "chat_gpt"),
            ("KR_DATAFORSEO_MAX_COST_PER_JOB", "0.03"),
        ],
    )
    .await;
    assert!(done.usage.as_ref().unwrap().cap_reached, "{:?}", done.usage);
    let outcome = outcome_of(&done);
    assert_eq!(outcome.status, AiAnswersStatus::Skipped, "{outcome:?}");
    assert!(outcome.reason.as_deref().unwrap().contains("budget"));
    assert_eq!((outcome.prompts, outcome.cost_usd), (0, 0.0));
    assert_eq!(llm_traffic(&mock).0, 0);
    assert!(stored(&rig, &done).await.is_none());
    let reply = ai_visibility(&results_app().await, &done, &key)
        .await
        .expect(200);
    assert_eq!(reply.json["answers"], json!([]));
    assert_eq!(reply.json["costUsd"], json!(0.0));
}

#[tokio::test]
async fn an_engine_error_leaves_the_job_completed_with_the_reason() {
    let mock = mock().await;
    mock.fail_engines(&["perplexity"]);
    let (rig, _, done, _) = completed(
        &mock,
        &[
            ("KR_AI_ANSWERS", "chat_gpt,perplexity"),
            ("KR_AI_ANSWERS_PROMPTS", "3"),
        ],
    )
    .await;
    let outcome = outcome_of(&done);
    assert_eq!(outcome.status, AiAnswersStatus::Completed);
    let reason = outcome.reason.unwrap();
    assert!(reason.starts_with("perplexity failed"), "{reason}");
    let document = stored(&rig, &done).await.unwrap();
    assert_eq!(document.answers.len(), 3);
    assert!(document
        .answers
        .iter()
        .all(|a| a.engine == AiEngine::ChatGpt));
    let stats = mock.stats();
    assert!(stats
        .tasks_to(paths::LLM_PERPLEXITY)
        .iter()
        .all(|t| t.cost == 0.0));

    // With every engine failing, the answers failed and the job still completed.
    let only = rig_for(
        &mock,
        &[
            ("KR_AI_ANSWERS", "perplexity"),
            ("KR_AI_ANSWERS_PROMPTS", "2"),
        ],
    )
    .await;
    let (job, _) = start(&only).await;
    let done = only.complete(job.id).await;
    let outcome = outcome_of(&done);
    assert_eq!(outcome.status, AiAnswersStatus::Failed, "{outcome:?}");
    assert!(outcome.reason.unwrap().contains("perplexity failed"));
    assert!(stored(&only, &done).await.unwrap().answers.is_empty());
}

#[tokio::test]
async fn ai_visibility_is_404_for_another_account_and_409_before_completion() {
    let store = harness::store().await;
    let (owner, key) = harness::user_with_key(&store, 1, 1).await;
    let (_, other) = harness::user_with_key(&store, 1, 1).await;
    let running = harness::job_record(
        owner.id,
        kr_core::domain::JobStatus::Running,
        DEMO_PRIMARY,
        &[DEMO_COMPETITOR],
    );
    store
        .import_jobs(std::slice::from_ref(&running))
        .await
        .unwrap();
    let app = results_app().await;
    let early = ai_visibility(&app, &running, &key).await.expect(409);
    assert_eq!(early.code(), "job_not_ready");
    let hidden = ai_visibility(&app, &running, &other).await.expect(404);
    assert_eq!(hidden.code(), "not_found");
    let unknown = Call::get(&format!(
        "/api/v1/jobs/{}/ai-visibility",
        kr_core::domain::JobId::new()
    ))
    .api_key(&key)
    .send(&app)
    .await
    .expect(404);
    assert_eq!(unknown.code(), "not_found");
}

#[tokio::test]
async fn the_cost_preview_adds_the_answers_questions_at_list_prices() {
    let clients = harness::clients().await;
    let mut resources = harness::resources();
    resources.jobs_queue_url = harness::fresh_queue(&clients).await;
    let mut state = kr_jobs::JobsState::from_config(harness::config(), resources).await;
    let mut estimates = kr_jobs::EstimateSettings {
        max_keywords: 500,
        provider: Some((5.0, 100)),
        answers: AnswerPlan::default(),
    };
    state.estimates = estimates.clone();
    let without = kr_jobs::router(state.clone());
    estimates.answers = AnswerPlan {
        engines: vec![AiEngine::ChatGpt, AiEngine::Perplexity],
        prompts: 20,
        ai_mode_queued: true,
    };
    state.estimates = estimates;
    let with = kr_jobs::router(state);
    let (_, key) = harness::user_with_key(harness::store().await.as_ref(), 1, 1).await;
    let body = json!({"primaryDomain": DEMO_PRIMARY, "competitorDomains": [DEMO_COMPETITOR],
        "languageCode": "en", "locationCode": 2840});
    let preview = |app: axum::Router| {
        let (body, key) = (body.clone(), key.clone());
        async move {
            Call::post("/api/v1/jobs/estimate")
                .api_key(&key)
                .json(body)
                .send(&app)
                .await
                .expect(200)
                .json["estimate"]["provider"]
                .clone()
        }
    };
    let off = preview(without).await;
    let on = preview(with).await;
    assert_eq!(off["aiAnswers"], Value::Null);
    assert_eq!(
        on["aiAnswers"]["engines"],
        json!(["chat_gpt", "perplexity"])
    );
    assert_eq!(on["aiAnswers"]["prompts"], 20);
    let answers = on["aiAnswers"]["maxCostUsd"].as_f64().unwrap();
    assert!((answers - 20.0 * (0.03 + 0.0062)).abs() < 1e-3, "{answers}");
    let added = on["maxCostUsd"].as_f64().unwrap() - off["maxCostUsd"].as_f64().unwrap();
    assert!((added - answers).abs() < 2e-4, "{added} vs {answers}");
}

/// Requests the mock had on `path`, and what it billed there.
fn traffic(mock: &MockDataForSeo, path: &str) -> (u64, f64) {
    let stats = mock.stats();
    let billed = stats.tasks_to(path).iter().map(|t| t.cost).sum();
    (stats.requests_to(path), billed)
}

#[tokio::test]
async fn google_ai_mode_is_asked_through_the_queue_and_a_second_job_reads_the_cache() {
    let mock = mock().await;
    let (rig, job, done, key) = completed(
        &mock,
        &[
            ("KR_AI_ANSWERS", "google_ai_mode"),
            ("KR_AI_ANSWERS_PROMPTS", "6"),
        ],
    )
    .await;
    let outcome = outcome_of(&done);
    assert_eq!(outcome.status, AiAnswersStatus::Completed, "{outcome:?}");
    assert_eq!(outcome.reason, None);
    assert_eq!(outcome.engines, [AiEngine::GoogleAiMode]);
    assert_eq!(outcome.prompts, 6);

    // One post of six tasks at the Standard price, each collected once, nothing Live.
    let (posts, billed) = traffic(&mock, paths::AI_MODE_TASK_POST);
    assert_eq!(posts, 1);
    assert_eq!(mock.stats().tasks_to(paths::AI_MODE_TASK_POST).len(), 6);
    assert!((billed - 6.0 * 0.0012).abs() < 1e-9, "{billed}");
    assert!(traffic(&mock, paths::AI_MODE_TASKS_READY).0 >= 1);
    let collected = mock
        .stats()
        .tasks_to(paths::AI_MODE_TASK_GET)
        .iter()
        .filter(|t| t.status_code == 20_000)
        .count();
    assert_eq!(collected, 6);
    assert_eq!(traffic(&mock, paths::AI_MODE_LIVE).0, 0);
    assert_eq!(llm_traffic(&mock).0, 0, "no LLM Responses engine is asked");

    let dataset = rig.dataset(job.id).await;
    let expected = ai_prompts(
        &dataset.clusters,
        &dataset.keywords,
        &dataset.personas,
        &Language::english(),
        6,
    );
    let document = stored(&rig, &done).await.expect("the answers are stored");
    let asked: Vec<&str> = document.answers.iter().map(|a| a.prompt.as_str()).collect();
    let derived: Vec<&str> = expected.iter().map(|p| p.prompt.as_str()).collect();
    assert_eq!(asked, derived);
    for answer in &document.answers {
        assert_eq!(answer.engine, AiEngine::GoogleAiMode);
        assert!(!answer.cached);
        assert_read_as_the_mock_answered(answer);
    }
    assert!((document.cost_usd - billed).abs() < 1e-9);
    let reply = ai_visibility(&results_app().await, &done, &key)
        .await
        .expect(200);
    assert_eq!(reply.json["answers"][0]["engine"], "google_ai_mode");

    let (second, _) = start(&rig).await;
    let second = rig.complete(second.id).await;
    assert_eq!(
        traffic(&mock, paths::AI_MODE_TASK_POST).0,
        1,
        "nothing posted again"
    );
    let document = stored(&rig, &second).await.unwrap();
    assert_eq!(document.answers.len(), 6);
    assert!(document.answers.iter().all(|a| a.cached));
    assert_eq!(outcome_of(&second).cost_usd, 0.0);
}

#[tokio::test]
async fn google_ai_mode_goes_live_when_serps_do() {
    let mock = mock().await;
    let (rig, _, done, _) = completed(
        &mock,
        &[
            ("KR_AI_ANSWERS", "google_ai_mode"),
            ("KR_AI_ANSWERS_PROMPTS", "3"),
            ("KR_DATAFORSEO_SERP_METHOD", "live"),
        ],
    )
    .await;
    assert_eq!(outcome_of(&done).status, AiAnswersStatus::Completed);
    let (asked, billed) = traffic(&mock, paths::AI_MODE_LIVE);
    assert_eq!(asked, 3);
    assert!((billed - 3.0 * 0.004).abs() < 1e-9, "{billed}");
    assert_eq!(traffic(&mock, paths::AI_MODE_TASK_POST).0, 0);
    let document = stored(&rig, &done).await.unwrap();
    assert_eq!(document.answers.len(), 3);
    document
        .answers
        .iter()
        .for_each(assert_read_as_the_mock_answered);
}

/// The connection drops after DataForSEO queued (and billed) the AI Mode post: the questions
/// are never posted again, their tasks are found in AI Mode's ready list by their tags, and
/// the job records what they cost.
#[tokio::test]
async fn a_lost_ai_mode_post_is_not_sent_again_and_its_answers_are_found_by_tag() {
    let (config, _rules) = MockConfig::with_fault_rules(&format!(
        r#"{{"rules": [{{"name": "AI Mode post answer lost once", "path": "{}",
            "times": 1, "answer": {{"answer_lost": true}}}}]}}"#,
        paths::AI_MODE_TASK_POST
    ));
    let mock = MockDataForSeo::start(config).await.unwrap();
    let (rig, _, done, _) = completed(
        &mock,
        &[
            ("KR_AI_ANSWERS", "google_ai_mode"),
            ("KR_AI_ANSWERS_PROMPTS", "4"),
        ],
    )
    .await;
    assert_eq!(traffic(&mock, paths::AI_MODE_TASK_POST).0, 1, "posted once");
    let document = stored(&rig, &done).await.unwrap();
    assert_eq!(document.answers.len(), 4, "{:?}", outcome_of(&done));
    assert_eq!(outcome_of(&done).reason, None);
    let stats = mock.stats();
    let usage = done.usage.unwrap();
    assert!(
        (usage.cost_usd - stats.total_cost).abs() < 1e-6,
        "recorded {} against billed {}",
        usage.cost_usd,
        stats.total_cost
    );
}
