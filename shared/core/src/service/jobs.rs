//! Job use cases: create (validated, charged, enqueued), read, list, delete, re-enqueue.

use crate::store::{JobTransitions, Transition};
use chrono::{DateTime, Utc};
use serde::Serialize;
use serde_json::{Map, Value};
use sha2::{Digest, Sha256};
use utoipa::ToSchema;

use crate::dataset::objects;
use crate::domain::{
    DomainName, Job, JobId, JobStatus, KeywordList, LanguageCode, LocationCode, NewJob, Progress,
    ProviderUsage, ScheduleId, Stage, UserId, WebhookUrl,
};
use crate::store::{
    ArtifactStore, CreateJobOutcome, Idempotency, IdempotencyScope, JobQueue, JobStore,
    PipelineMessage, ResultStore, StoreError,
};

use crate::service::webhook_signing::SigningKey;
use crate::validation::FieldError;

pub const MAX_COMPETITORS: usize = 10;
pub const MAX_IDEMPOTENCY_KEY_CHARS: usize = 255;

/// The Job resource.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct JobView {
    pub id: JobId,
    pub status: JobStatus,
    #[schema(example = "example.com")]
    pub primary_domain: String,
    /// Normalised, in request order; `[]` when none.
    pub competitor_domains: Vec<String>,
    #[schema(example = "en")]
    pub language_code: String,
    #[schema(example = 2840)]
    pub location_code: u32,
    #[serde(with = "crate::time")]
    #[schema(value_type = String, format = DateTime)]
    pub created_at: DateTime<Utc>,
    /// When the first stage started.
    #[serde(with = "crate::time::option")]
    #[schema(value_type = Option<String>, format = DateTime)]
    pub started_at: Option<DateTime<Utc>>,
    /// When the job completed or failed.
    #[serde(with = "crate::time::option")]
    #[schema(value_type = Option<String>, format = DateTime)]
    pub completed_at: Option<DateTime<Utc>>,
    pub progress: Progress,
    /// Why the job failed; `null` unless `status` is `failed`.
    pub error_message: Option<String>,
    /// Number of keywords found; `null` until the job is completed or failed.
    pub keyword_count: Option<i64>,
    /// What the job's paid data provider calls cost so far; `null` when it made none (no
    /// provider configured, or a job that has not reached the provider yet).
    pub usage: Option<UsageView>,
    /// Keywords the request brought (`keywords`), after cleaning; 0 when none.
    pub imported_keyword_count: u32,
    /// Whether the job adds keywords it finds itself to the imported ones (`true` unless the
    /// request said `discoverKeywords: false`).
    pub discover_keywords: bool,
    /// Cluster briefs made for the job (`GET /jobs/{jobId}/clusters/{clusterId}/brief`), each
    /// counted once, at most the configured number per job.
    pub brief_count: u32,
    /// The schedule that started the job (`GET /schedules/{scheduleId}`); `null` for a job
    /// created by hand.
    pub schedule_id: Option<ScheduleId>,
}

/// Paid data provider calls of a job.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct UsageView {
    /// The data provider.
    #[schema(example = "dataforseo")]
    pub provider: String,
    /// Sum of the `cost` the provider reported for every response, in USD.
    #[schema(example = 0.1234)]
    pub cost_usd: f64,
    /// Requests sent to the provider, retries included.
    #[schema(example = 17)]
    pub requests: u64,
    /// Answers taken from the cross-job cache instead of a paid request.
    #[schema(example = 3)]
    pub cache_hits: u64,
    /// The per-job spending cap in USD; `null` when none is configured.
    #[schema(example = 5.0)]
    pub cap_usd: Option<f64>,
    /// The cap stopped further paid calls; the job finished with the data it had.
    pub cap_reached: bool,
}

impl From<&ProviderUsage> for UsageView {
    fn from(usage: &ProviderUsage) -> Self {
        Self {
            provider: usage.provider.clone(),
            cost_usd: usage.cost_usd,
            requests: usage.requests,
            cache_hits: usage.cache_hits,
            cap_usd: usage.cap_usd,
            cap_reached: usage.cap_reached,
        }
    }
}

impl From<&Job> for JobView {
    fn from(job: &Job) -> Self {
        Self {
            id: job.id,
            status: job.status,
            primary_domain: job.primary_domain.to_string(),
            competitor_domains: job
                .competitor_domains
                .iter()
                .map(ToString::to_string)
                .collect(),
            language_code: job.language_code.clone(),
            location_code: job.location_code,
            created_at: job.created_at,
            started_at: job.started_at,
            completed_at: job.completed_at,
            progress: job.progress.clone(),
            error_message: job.error_message.clone(),
            keyword_count: if job.status.is_finished() {
                Some(job.keyword_count.unwrap_or(0))
            } else {
                None
            },
            usage: job.usage.as_ref().map(UsageView::from),
            imported_keyword_count: job.imported_keywords,
            discover_keywords: job.discover_keywords,
            brief_count: job.briefs,
            schedule_id: job.schedule_id,
        }
    }
}

/// The reply to a create: only what the contract lists.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CreatedJobView {
    pub id: JobId,
    pub status: JobStatus,
    #[serde(with = "crate::time")]
    #[schema(value_type = String, format = DateTime)]
    pub created_at: DateTime<Utc>,
    /// Only when the request brought `keywords`: what became of them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub keyword_import: Option<KeywordImportView>,
    /// Only with a `callbackUrl`: the secret its deliveries are signed with (Standard Webhooks,
    /// `whsec_…`). The same for every replay of the request.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub callback_secret: Option<String>,
}

/// What became of the keywords a request brought.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct KeywordImportView {
    /// Distinct phrases the job researches.
    #[schema(example = 120)]
    pub imported: usize,
    /// Entries dropped as the same phrase as an earlier one once cleaned ("Cold Brew" and
    /// "cold  brew").
    #[schema(example = 3)]
    pub duplicates: usize,
}

impl KeywordImportView {
    fn of(list: &KeywordList) -> Self {
        Self {
            imported: list.len(),
            duplicates: list.duplicates(),
        }
    }
}

// Documents the body and is what parsing it yields (every field a value that passed
// validation), so the two cannot drift.
/// The body of `POST /jobs`.
#[derive(Debug, Clone, ToSchema)]
#[schema(rename_all = "camelCase")]
pub struct CreateJobRequest {
    /// Required. Normalised: scheme, path, port-free, lowercase, no leading `www.`, IDN to
    /// punycode; must be a public registrable domain: under a suffix of the Public Suffix
    /// List (publicsuffix.org) and not itself on it, so `de.com`, `github.io` or `co.uk` are
    /// refused with 400 although the pattern allows them.
    #[schema(value_type = String, example = "example.com")]
    pub primary_domain: DomainName,
    /// Optional, at most 10, normalised the same way and registrable the same way (not on
    /// the Public Suffix List); duplicates collapse; none may equal the primary domain.
    #[schema(value_type = Option<Vec<String>>, example = json!(["competitor.com"]))]
    pub competitor_domains: Vec<DomainName>,
    /// Required, a `language_code` from `GET /languages` (matched case-insensitively).
    #[schema(schema_with = language_code_schema)]
    pub language_code: LanguageCode,
    /// Required JSON integer, a `location_code` from `GET /locations`.
    #[schema(schema_with = location_code_schema)]
    pub location_code: LocationCode,
    /// Optional: your own keywords (a client's list, a Search Console or tool export), 1 to
    /// 10,000 distinct phrases. Each is cleaned like a typed search (trimmed, single spaces,
    /// lower case) and must be what the keyword data provider accepts: at most 80 characters
    /// and 10 words, none of `, ! @ % ^ ( ) = { } ; ~ ` < > ? \ |` or `―`, no control
    /// characters or emoji, at least one letter or digit. Phrases equal once cleaned collapse
    /// into one. Every phrase that cannot be used is reported in the 400's `details.fields` as
    /// `keywords[i]`, and nothing is created. Imported keywords are all kept (`source:
    /// imported`), measured, classified, clustered, given personas and scored like discovered
    /// ones. With `keywords`, the body may be up to 1 MiB.
    #[schema(schema_with = keywords_schema)]
    pub keywords: Option<KeywordList>,
    /// Optional, default `true`: add the keywords the job finds (crawl, and with the data
    /// provider the domains' rankings and keyword ideas) to the imported ones. `false`
    /// researches only `keywords` (which it then requires); the sites are still crawled, for
    /// relevance, personas and previews.
    #[schema(value_type = Option<bool>, example = true)]
    pub discover_keywords: bool,
    /// Optional: an `http(s)` URL (ports 80 and 443, at most 2,048 characters) that also
    /// receives this job's `job.completed` or `job.failed` event, as account webhooks do
    /// (Standard Webhooks headers and retries), signed with the `callbackSecret` of the 201.
    #[schema(value_type = Option<String>, min_length = 1, max_length = 2048, example = "https://hooks.example.com/job-done")]
    pub callback_url: Option<WebhookUrl>,
}

/// The `keywords` array: what JSON Schema can say of a usable phrase; the rest is in words.
fn keywords_schema() -> utoipa::openapi::Array {
    use utoipa::openapi::schema::{ArrayBuilder, ObjectBuilder, Type};
    ArrayBuilder::new()
        .items(
            ObjectBuilder::new()
                .schema_type(Type::String)
                .min_length(Some(1))
                .max_length(Some(crate::domain::MAX_PHRASE_CHARS))
                .build(),
        )
        .min_items(Some(1))
        .max_items(Some(crate::domain::MAX_IMPORTED_KEYWORDS))
        .examples([serde_json::json!(["cold brew coffee", "best espresso beans"])])
        .description(Some(
            "Optional: your own keywords, 1 to 10,000 distinct phrases, each at most 80 characters (as sent) and 10 words, with a letter or digit and none of the symbols the keyword data provider refuses: `, ! @ % ^ ( ) = { } ; ~ ` < > ? \\ |` `―`, control characters, emoji. Cleaned like a typed search (trimmed, single spaces, lower case); equal phrases collapse. Each unusable entry is reported in the 400's `details.fields` as `keywords[i]` and nothing is created. All are kept, marked `source: imported`, and researched like discovered ones. With `keywords` the body may be up to 1 MiB.",
        ))
        .build()
}

/// `callbackUrl` in the query of `POST /jobs/import`, as the JSON body's field describes it.
/// No pattern: any absolute http(s) URL is accepted (`WebhookUrl` decides, the description
/// says it in words), and a pattern narrower than that would call accepted URLs invalid.
pub fn callback_url_schema() -> utoipa::openapi::Object {
    utoipa::openapi::ObjectBuilder::new()
        .schema_type(utoipa::openapi::schema::Type::String)
        .min_length(Some(1))
        .max_length(Some(2048))
        .description(Some(
            "Optional: an `http(s)` URL (ports 80 and 443, at most 2,048 characters) that also receives this job's `job.completed` or `job.failed` event, as account webhooks do (Standard Webhooks headers and retries), signed with the `callbackSecret` of the 201.",
        ))
        .examples(["https://hooks.example.com/job-done"])
        .build()
}

/// The codes `LanguageCode::parse` accepts, as the document's enum.
pub fn language_code_schema() -> utoipa::openapi::Object {
    utoipa::openapi::ObjectBuilder::new()
        .schema_type(utoipa::openapi::schema::Type::String)
        .description(Some(
            "Required, a `language_code` from `GET /languages` (matched case-insensitively).",
        ))
        .enum_values(Some(
            crate::locales::languages()
                .iter()
                .map(|language| language.language_code.clone()),
        ))
        .examples(["en"])
        .build()
}

/// The codes `LocationCode::parse` accepts, as the document's enum.
pub fn location_code_schema() -> utoipa::openapi::Object {
    utoipa::openapi::ObjectBuilder::new()
        .schema_type(utoipa::openapi::schema::Type::Integer)
        .format(Some(utoipa::openapi::SchemaFormat::KnownFormat(
            utoipa::openapi::KnownFormat::Int64,
        )))
        .description(Some(
            "Required JSON integer, a `location_code` from `GET /locations`.",
        ))
        .enum_values(Some(
            crate::locales::locations()
                .iter()
                .map(|location| location.location_code),
        ))
        .examples([2840])
        .build()
}

impl CreateJobRequest {
    /// Validates every field of a JSON object and reports all problems at once, each named
    /// as sent. A `null` field counts as absent.
    pub fn parse(body: &Map<String, Value>) -> Result<Self, Vec<FieldError>> {
        let keywords = body
            .get("keywords")
            .filter(|value| !value.is_null())
            .map(KeywordList::from_json);
        Self::parse_with_keywords(body, keywords)
    }

    /// [`Self::parse`] with the keywords parsed elsewhere (an uploaded file); `keywords` in
    /// `body` is not read.
    pub fn parse_with_keywords(
        body: &Map<String, Value>,
        keywords: Option<Result<KeywordList, Vec<FieldError>>>,
    ) -> Result<Self, Vec<FieldError>> {
        let field = |name: &str| body.get(name).filter(|value| !value.is_null());
        let mut errors = Vec::new();
        let primary = match field("primaryDomain") {
            None => Err("is required".to_string()),
            Some(Value::String(raw)) => DomainName::parse(raw),
            Some(_) => Err("must be a string".to_string()),
        }
        .map_err(|message| errors.push(FieldError::new("primaryDomain", message)))
        .ok();
        let competitors =
            parse_competitors(field("competitorDomains"), primary.as_ref(), &mut errors);
        let language = match field("languageCode") {
            None => Err("is required".to_string()),
            Some(Value::String(raw)) => LanguageCode::parse(raw),
            Some(_) => Err("must be a string".to_string()),
        }
        .map_err(|message| errors.push(FieldError::new("languageCode", message)))
        .ok();
        let location = match field("locationCode") {
            None => Err("is required".to_string()),
            Some(Value::Number(number)) => match number.as_i64() {
                Some(code) => LocationCode::parse(code),
                None => Err("must be an integer".to_string()),
            },
            Some(_) => Err("must be an integer (a JSON number, not a string)".to_string()),
        }
        .map_err(|message| errors.push(FieldError::new("locationCode", message)))
        .ok();
        let given_keywords = keywords.is_some();
        let keywords = keywords.and_then(|parsed| {
            parsed
                .map_err(|list_errors| errors.extend(list_errors))
                .ok()
        });
        let callback_url = match field("callbackUrl") {
            None => None,
            Some(Value::String(raw)) => WebhookUrl::parse(raw)
                .and_then(|url| crate::service::webhooks::check_endpoint(&url).map(|()| url))
                .map_err(|message| errors.push(FieldError::new("callbackUrl", message)))
                .ok(),
            Some(_) => {
                errors.push(FieldError::new("callbackUrl", "must be a string"));
                None
            }
        };
        let discover_keywords = match field("discoverKeywords") {
            None => true,
            Some(Value::Bool(flag)) => *flag,
            Some(_) => {
                errors.push(FieldError::new("discoverKeywords", "must be true or false"));
                true
            }
        };
        if !discover_keywords && !given_keywords {
            errors.push(FieldError::new(
                "discoverKeywords",
                "may be false only with `keywords` to research",
            ));
        }
        match (primary, language, location) {
            (Some(primary_domain), Some(language_code), Some(location_code))
                if errors.is_empty() =>
            {
                Ok(Self {
                    primary_domain,
                    competitor_domains: competitors,
                    language_code,
                    location_code,
                    keywords,
                    discover_keywords,
                    callback_url,
                })
            }
            _ => Err(errors),
        }
    }

    /// Identifies the request for idempotent replays: the same key with a different
    /// request is a client error, not a replay.
    pub fn fingerprint(&self) -> String {
        let canonical = serde_json::json!([
            self.primary_domain.as_str(),
            self.competitor_domains
                .iter()
                .map(DomainName::as_str)
                .collect::<Vec<_>>(),
            self.language_code.as_str(),
            self.location_code.get(),
        ]);
        // Requests without the fields added later hash as they always did, so a retry
        // across a deployment still replays.
        let canonical = match &self.keywords {
            None => canonical,
            Some(list) => serde_json::json!([
                canonical,
                list.phrases()
                    .iter()
                    .map(|p| p.as_str())
                    .collect::<Vec<_>>(),
                self.discover_keywords,
            ]),
        };
        let canonical = match &self.callback_url {
            None => canonical,
            Some(url) => serde_json::json!([canonical, {"callbackUrl": url.as_str()}]),
        };
        hex::encode(Sha256::digest(canonical.to_string().as_bytes()))
    }
}

fn parse_competitors(
    raw: Option<&Value>,
    primary: Option<&DomainName>,
    errors: &mut Vec<FieldError>,
) -> Vec<DomainName> {
    let items = match raw {
        None => return Vec::new(),
        Some(Value::Array(items)) => items,
        Some(_) => {
            errors.push(FieldError::new(
                "competitorDomains",
                "must be an array of domain names",
            ));
            return Vec::new();
        }
    };
    let mut domains: Vec<DomainName> = Vec::new();
    for (index, item) in items.iter().enumerate() {
        let field = format!("competitorDomains[{index}]");
        let parsed = match item {
            Value::String(raw) => DomainName::parse(raw),
            _ => Err("must be a string".to_string()),
        };
        match parsed {
            Err(message) => errors.push(FieldError::new(field, message)),
            Ok(domain) if Some(&domain) == primary => {
                errors.push(FieldError::new(field, "must differ from primaryDomain"))
            }
            Ok(domain) if domains.contains(&domain) => {}
            Ok(domain) => domains.push(domain),
        }
    }
    if domains.len() > MAX_COMPETITORS {
        errors.push(FieldError::new(
            "competitorDomains",
            format!("must list at most {MAX_COMPETITORS} distinct domains"),
        ));
    }
    domains
}

/// Checks a client's `Idempotency-Key` header value.
pub fn parse_idempotency_key(raw: &str) -> Result<String, String> {
    let key = raw.trim();
    if key.is_empty()
        || key.chars().count() > MAX_IDEMPOTENCY_KEY_CHARS
        || key.chars().any(|c| c.is_control())
    {
        return Err(format!(
            "must be 1 to {MAX_IDEMPOTENCY_KEY_CHARS} printable characters"
        ));
    }
    Ok(key.to_string())
}

#[derive(Debug)]
pub enum CreateJobError {
    InsufficientCredits,
    DomainLimitReached,
    IdempotencyKeyReused,
    Store(StoreError),
}

impl From<StoreError> for CreateJobError {
    fn from(err: StoreError) -> Self {
        Self::Store(err)
    }
}

/// What creating a job writes to: the job and its balances, the first pipeline message, and
/// the imported keywords (removed again when no job results).
pub struct JobPorts<'a> {
    pub jobs: &'a dyn JobStore,
    pub queue: &'a dyn JobQueue,
    pub artifacts: &'a dyn ArtifactStore,
    pub removals: &'a dyn ResultStore,
}

/// Stores the job (charging a run and, for a new primary domain, the allowance) and sends
/// its first pipeline message. A failed send leaves the job `queued` for the sweeper
/// ([`requeue_stale_jobs`]) rather than failing a request whose job is already paid for.
///
/// Imported keywords are stored first, under the new job's id: a list that cannot be stored
/// charges nothing, and one whose job is not created (no runs, a replay) is removed again.
pub async fn create_job(
    ports: &JobPorts<'_>,
    owner: UserId,
    request: CreateJobRequest,
    idempotency_key: Option<String>,
    callback_key: Option<&SigningKey>,
) -> Result<CreatedJobView, CreateJobError> {
    let idempotency = idempotency_key.map(IdempotencyScope::Client);
    create_job_of(ports, owner, request, idempotency, callback_key, None).await
}

/// [`create_job`] for a run of `schedule` (`None`: a job created by hand), whose key is the
/// slot's own ([`IdempotencyScope::ScheduledRun`]), out of clients' reach.
pub async fn create_job_of(
    ports: &JobPorts<'_>,
    owner: UserId,
    request: CreateJobRequest,
    idempotency: Option<IdempotencyScope>,
    callback_key: Option<&SigningKey>,
    schedule: Option<ScheduleId>,
) -> Result<CreatedJobView, CreateJobError> {
    // Asked for before anything is charged: a job must not be paid for and lack its secret.
    let callback_key = match (&request.callback_url, callback_key) {
        (None, _) => None,
        (Some(_), Some(key)) => Some(key),
        (Some(_), None) => {
            return Err(CreateJobError::Store(StoreError::new(
                "a job with a callbackUrl needs the webhook signing key",
            )))
        }
    };
    let idempotency = idempotency.map(|scope| Idempotency {
        scope,
        fingerprint: request.fingerprint(),
    });
    let keyword_import = request.keywords.as_ref().map(KeywordImportView::of);
    let new_job = NewJob {
        id: JobId::new(),
        owner,
        primary_domain: request.primary_domain,
        competitor_domains: request.competitor_domains,
        language_code: request.language_code,
        location_code: request.location_code,
        created_at: Utc::now(),
        imported_keywords: request
            .keywords
            .as_ref()
            .map_or(0, |list| list.len() as u32),
        discover_keywords: request.discover_keywords,
        callback_url: request.callback_url.clone(),
        schedule_id: schedule,
    };
    let imported = match &request.keywords {
        Some(list) => {
            let bytes = serde_json::to_vec(&imported_phrases(list)).map_err(StoreError::new)?;
            ports
                .artifacts
                .put_artifact(new_job.id, objects::IMPORTED_KEYWORDS, bytes.clone())
                .await?;
            Some(bytes)
        }
        None => None,
    };
    let outcome = ports.jobs.create_job(&new_job, idempotency.as_ref()).await;
    if imported.is_some() && !matches!(outcome, Ok(CreateJobOutcome::Created(_))) {
        if let Err(err) = ports.removals.delete_results(new_job.id).await {
            tracing::warn!(job = %new_job.id, %err, "could not remove the keywords of a job not created");
        }
    }
    match outcome? {
        CreateJobOutcome::Created(job) => {
            // Stored again with the job known, so it expires with the job's results.
            if let (Some(bytes), Some(_)) = (imported, job.expires_at) {
                if let Err(err) = ports
                    .artifacts
                    .put_job_artifact(&job, objects::IMPORTED_KEYWORDS, bytes)
                    .await
                {
                    tracing::warn!(job = %job.id, %err, "imported keywords not marked to expire");
                }
            }
            let message = PipelineMessage {
                job_id: job.id,
                stage: Stage::first(),
            };
            if let Err(err) = ports.queue.enqueue(&message).await {
                tracing::error!(job = %job.id, %err, "could not enqueue a new job; the sweeper will retry");
            }
            Ok(CreatedJobView {
                id: job.id,
                status: job.status,
                created_at: job.created_at,
                keyword_import,
                callback_secret: callback_key.map(|key| key.callback_secret(job.id).reveal()),
            })
        }
        CreateJobOutcome::Replayed { id, created_at } => Ok(CreatedJobView {
            id,
            status: JobStatus::Queued,
            created_at,
            keyword_import,
            callback_secret: callback_key.map(|key| key.callback_secret(id).reveal()),
        }),
        CreateJobOutcome::IdempotencyKeyReused => Err(CreateJobError::IdempotencyKeyReused),
        CreateJobOutcome::InsufficientCredits => Err(CreateJobError::InsufficientCredits),
        CreateJobOutcome::DomainLimitReached => Err(CreateJobError::DomainLimitReached),
    }
}

/// The stored form of a job's imported keywords: the cleaned phrases, in order.
pub fn imported_phrases(list: &KeywordList) -> Vec<&str> {
    list.phrases()
        .iter()
        .map(|phrase| phrase.as_str())
        .collect()
}

/// The job if `viewer` may read it: its owner, or anyone for a demo job.
pub async fn readable_job(
    jobs: &dyn JobStore,
    id: JobId,
    viewer: Option<UserId>,
    demo_user: Option<UserId>,
) -> Result<Option<Job>, StoreError> {
    let Some(job) = jobs.job(id).await? else {
        return Ok(None);
    };
    let allowed = Some(job.owner) == viewer || Some(job.owner) == demo_user;
    Ok(allowed.then_some(job))
}

/// Deletes everything stored for the job, then the job. Objects first: if their removal
/// fails part way, the job is still there to answer a retried DELETE, which finishes the
/// removal (a job deleted first would leave its objects unreachable behind a 404). The
/// pipeline checks for the job before every write and removes what it wrote once the job is
/// gone, so a stage in flight cannot leave objects behind either.
pub async fn delete_job(
    jobs: &dyn JobStore,
    results: &dyn ResultStore,
    owner: UserId,
    id: JobId,
) -> Result<bool, StoreError> {
    match jobs.job(id).await? {
        Some(job) if job.owner == owner => {}
        _ => return Ok(false),
    }
    results.delete_results(id).await?;
    Ok(jobs.delete_job(owner, id).await?.is_some())
}

/// Re-sends the first message of jobs that have sat in `queued` since before `older_than`
/// (a lost send, a message that expired, a start refused while the owner's running slots
/// were full). A job created before `give_up_before` is failed instead, its run given back.
/// Returns how many were re-sent.
pub async fn requeue_stale_jobs(
    jobs: &dyn JobStore,
    transitions: &dyn JobTransitions,
    queue: &dyn JobQueue,
    older_than: DateTime<Utc>,
    give_up_before: DateTime<Utc>,
) -> Result<usize, StoreError> {
    const BATCH: u32 = 100;
    let mut resent = 0;
    loop {
        // Each re-sent job is marked, which moves it out of the stale window.
        let stale = jobs.stale_queued_jobs(older_than, BATCH).await?;
        let mut moved = 0;
        for id in &stale {
            if let Some(job) = jobs.job(*id).await? {
                if job.created_at < give_up_before {
                    let failed = transitions
                        .fail_job(
                            &job,
                            "The job waited too long to start and was cancelled; its run was given back.",
                            Utc::now(),
                        )
                        .await?;
                    moved += usize::from(matches!(failed, Transition::Applied(_)));
                    continue;
                }
            }
            queue
                .enqueue(&PipelineMessage {
                    job_id: *id,
                    stage: Stage::first(),
                })
                .await?;
            jobs.mark_enqueued(*id, Utc::now()).await?;
            resent += 1;
            moved += 1;
        }
        // A full batch may have more behind it, unless nothing in it left the window: reading
        // it again would find the same jobs, for ever.
        if stale.len() < BATCH as usize || moved == 0 {
            return Ok(resent);
        }
    }
}

/// Sends the current stage of running jobs whose heartbeat is older than `stalled_before`
/// again (a worker that died, a message that was lost); a job already sent again
/// `max_redrives` times is failed with its run given back. Returns how many were re-sent.
pub async fn redrive_stalled_jobs(
    jobs: &dyn JobStore,
    transitions: &dyn JobTransitions,
    queue: &dyn JobQueue,
    stalled_before: DateTime<Utc>,
    max_redrives: u32,
) -> Result<usize, StoreError> {
    const BATCH: u32 = 100;
    let mut redriven = 0;
    loop {
        let stalled = jobs.stalled_running_jobs(stalled_before, BATCH).await?;
        let mut moved = 0;
        for id in &stalled {
            let Some(job) = jobs.job(*id).await? else {
                continue;
            };
            let Some(stage) = job.stage else {
                continue;
            };
            if job.redrives >= max_redrives {
                let message = format!(
                    "The job stopped making progress at the {} step and was stopped; its run was given back.",
                    stage.as_str()
                );
                let failed = transitions.fail_job(&job, &message, Utc::now()).await?;
                moved += usize::from(matches!(failed, Transition::Applied(_)));
                continue;
            }
            // Counted first: if the send is lost, the job stalls again and is counted again.
            if let Transition::Applied(_) =
                transitions.apply_if(&job, job.redrive(Utc::now())).await?
            {
                queue
                    .enqueue(&PipelineMessage {
                        job_id: job.id,
                        stage,
                    })
                    .await?;
                redriven += 1;
                moved += 1;
            }
        }
        // A full batch may have more behind it, unless nothing in it left the window (jobs
        // that expired, copies another worker moved): reading it again would find the same
        // jobs, for ever.
        if stalled.len() < BATCH as usize || moved == 0 {
            return Ok(redriven);
        }
    }
}
