//! Jobs on the user's own keywords: `POST /jobs/import` (a text or CSV file, the other fields
//! as query parameters) and the cost preview `POST /jobs/estimate`.

use axum::extract::{FromRequest, Request, State};
use axum::http::header::CONTENT_TYPE;
use axum::http::HeaderMap;
use axum::response::Response;
use axum::Json;
use kr_contract::estimate::JobEstimate;
use kr_contract::job_request;
use kr_core::domain::parse_keyword_file;
use kr_core::query_params::QueryParams;
use kr_core::service::estimate::{self, AnswersEstimate, KeywordPlan, ProviderEstimate};
use kr_core::service::jobs::CreateJobRequest;
use kr_dataforseo::pricing::{job_cost_bound, round_up_usd, AnswerPlan, JobPlan};
use kr_http::error::ErrorBody;
use kr_http::extract::{CurrentUser, JobRequestBody, KeywordFileBody, Query};
use kr_http::ApiError;
use serde::Serialize;
use serde_json::{Map, Number, Value};
use utoipa::openapi::path::{Parameter, ParameterBuilder, ParameterIn};
use utoipa::openapi::schema::{ObjectBuilder, Schema, Type};
use utoipa::openapi::Required;
use utoipa::{IntoParams, ToSchema};

use crate::handlers::{create_parsed, CreatedJobEnvelope};
use crate::JobsState;

/// What the cost preview needs to know of the service's settings, read at start-up.
#[derive(Debug, Clone, PartialEq)]
pub struct EstimateSettings {
    /// `KR_MAX_KEYWORDS`.
    pub max_keywords: usize,
    /// The provider's per-job cap and SERP budget; `None` without a provider.
    pub provider: Option<(f64, usize)>,
    /// The answer engines jobs ask (`KR_AI_ANSWERS`, `KR_AI_ANSWERS_PROMPTS`).
    pub answers: AnswerPlan,
}

impl EstimateSettings {
    pub fn from_vars(lookup: impl Fn(&str) -> Option<String>) -> Result<Self, String> {
        let set = |name: &str| lookup(name).is_some_and(|value| !value.trim().is_empty());
        let configured = set("KR_DATAFORSEO_LOGIN") || set("KR_DATAFORSEO_SECRET_ARN");
        Ok(Self {
            max_keywords: kr_core::config::max_keywords_from_vars(&lookup)?,
            provider: kr_dataforseo::spending_limits_from_vars(&lookup, configured)?,
            answers: kr_dataforseo::answer_plan_from_vars(&lookup)?,
        })
    }

    fn provider_estimate(
        &self,
        request: &CreateJobRequest,
        plan: &KeywordPlan,
    ) -> Option<ProviderEstimate> {
        let (cap_usd, serp_budget) = self.provider?;
        let job = JobPlan {
            domains: 1 + request.competitor_domains.len(),
            fetch_limit: self.max_keywords,
            ideas: request.discover_keywords,
            keywords: plan.total_at_most,
            serps: serp_budget,
            answers: self.answers.clone(),
        };
        let ai_answers = (!self.answers.engines.is_empty()).then(|| AnswersEstimate {
            engines: self.answers.engines.clone(),
            prompts: self.answers.prompts,
            max_cost_usd: round_up_usd(self.answers.cost_bound().min(cap_usd)),
        });
        Some(ProviderEstimate {
            provider: kr_dataforseo::PROVIDER.to_string(),
            max_cost_usd: job_cost_bound(&job, cap_usd),
            cap_usd,
            serp_budget: serp_budget.min(self.max_keywords),
            ai_answers,
        })
    }
}

/// The job fields of `POST /jobs/import` and a file-based estimate, from the query string as
/// the JSON body would carry them: `competitorDomains` comma-separated, `locationCode` a
/// number, `discoverKeywords` `true` or `false`, `callbackUrl` and `searchConsoleProperty` as
/// given.
fn settings_from_query(query: &QueryParams) -> Map<String, Value> {
    let mut body = Map::new();
    for name in [
        "primaryDomain",
        "languageCode",
        "callbackUrl",
        "searchConsoleProperty",
    ] {
        if let Some(value) = query.str(name) {
            body.insert(name.into(), Value::String(value.into()));
        }
    }
    if let Some(list) = query.str("competitorDomains") {
        let domains = list
            .split(',')
            .map(str::trim)
            .filter(|domain| !domain.is_empty())
            .map(|domain| Value::String(domain.into()))
            .collect();
        body.insert("competitorDomains".into(), Value::Array(domains));
    }
    if let Some(raw) = query.value("locationCode") {
        let value = raw
            .parse::<i64>()
            .map(|code| Value::Number(Number::from(code)))
            .unwrap_or_else(|_| Value::String(raw.into()));
        body.insert("locationCode".into(), value);
    }
    if let Some(raw) = query.value("discoverKeywords") {
        let value = match raw {
            "true" => Value::Bool(true),
            "false" => Value::Bool(false),
            other => Value::String(other.into()),
        };
        body.insert("discoverKeywords".into(), value);
    }
    body
}

/// 400 naming `searchConsoleProperty` when the account may not name it
/// (`kr_core::service::jobs::check_search_console_property`).
pub(crate) async fn check_property(
    state: &JobsState,
    owner: kr_core::domain::UserId,
    request: &CreateJobRequest,
) -> Result<(), ApiError> {
    kr_core::service::jobs::check_search_console_property(
        state.search_console.as_ref(),
        owner,
        request,
    )
    .await?
    .map_err(|refused| ApiError::validation(vec![refused]))
}

fn parse_upload(query: &QueryParams, file: KeywordFileBody) -> Result<CreateJobRequest, ApiError> {
    let keywords = parse_keyword_file(&file.text, file.format);
    CreateJobRequest::parse_with_keywords(&settings_from_query(query), Some(keywords))
        .map_err(ApiError::validation)
}

/// The query parameters of `POST /jobs/import`, documented from the schemas of the JSON
/// body's fields so the two cannot drift.
pub struct ImportQuery;

impl IntoParams for ImportQuery {
    fn into_params(_: impl Fn() -> Option<ParameterIn>) -> Vec<Parameter> {
        let text = || ObjectBuilder::new().schema_type(Type::String);
        let parameter = |name: &str, required: bool, description: &str, schema: Schema| {
            ParameterBuilder::new()
                .name(name)
                .parameter_in(ParameterIn::Query)
                .required(if required {
                    Required::True
                } else {
                    Required::False
                })
                .description(Some(description))
                .schema(Some(schema))
                .build()
        };
        vec![
            parameter(
                "primaryDomain",
                true,
                "As `primaryDomain` of `POST /jobs`.",
                text().examples(["example.com"]).build().into(),
            ),
            parameter(
                "competitorDomains",
                false,
                "Comma-separated, at most 10; otherwise as `competitorDomains` of `POST /jobs`.",
                text().examples(["competitor.com,rival.com"]).build().into(),
            ),
            parameter(
                "languageCode",
                true,
                "As `languageCode` of `POST /jobs`.",
                job_request::language_code_schema().into(),
            ),
            parameter(
                "locationCode",
                true,
                "As `locationCode` of `POST /jobs`.",
                job_request::location_code_schema().into(),
            ),
            parameter(
                "discoverKeywords",
                false,
                "`true` (default) or `false`, as `discoverKeywords` of `POST /jobs`.",
                ObjectBuilder::new()
                    .schema_type(Type::Boolean)
                    .build()
                    .into(),
            ),
            parameter(
                "callbackUrl",
                false,
                "As `callbackUrl` of `POST /jobs`: also told when this job completes or fails; the 201 then answers its `callbackSecret`.",
                job_request::callback_url_schema().into(),
            ),
            parameter(
                "searchConsoleProperty",
                false,
                "As `searchConsoleProperty` of `POST /jobs`: a Search Console property of the account's connection (`sc-domain:example.com` or `https://www.example.com/`) whose searches the job imports.",
                text()
                    .min_length(Some(1))
                    .max_length(Some(2048))
                    .examples(["sc-domain:example.com"])
                    .into(),
            ),
        ]
    }
}

/// A job request sent either way: JSON like `POST /jobs`, or a keyword file with the other
/// fields in the query string like `POST /jobs/import`.
pub struct AnyJobRequest(CreateJobRequest);

impl<S: Send + Sync> FromRequest<S> for AnyJobRequest {
    type Rejection = ApiError;

    async fn from_request(request: Request, state: &S) -> Result<Self, Self::Rejection> {
        let is_file = request
            .headers()
            .get(CONTENT_TYPE)
            .and_then(|value| value.to_str().ok())
            .is_some_and(|value| value.trim_start().to_ascii_lowercase().starts_with("text/"));
        if is_file {
            let query = QueryParams::parse(request.uri().query().unwrap_or(""))?;
            let file = KeywordFileBody::from_request(request, state).await?;
            return parse_upload(&query, file).map(Self);
        }
        let JobRequestBody(body) = JobRequestBody::from_request(request, state).await?;
        CreateJobRequest::parse(&body.0)
            .map(Self)
            .map_err(ApiError::validation)
    }
}

/// Creates a job on a keyword file: a plain-text list (`Content-Type: text/plain`, one phrase
/// a line) or a CSV export (`text/csv`; the column headed `Keyword`, `Query`, `Top queries`,
/// `Search term`… else the first; comma, semicolon or tab separated), up to 1 MiB of UTF-8.
/// The other fields of `POST /jobs` come as query parameters (`competitorDomains`
/// comma-separated). Blank lines are skipped; every line that is not a usable phrase is
/// reported in the 400's `details.fields` as `line N`, and nothing is created. Otherwise
/// exactly `POST /jobs`: the same checks, charges, `Idempotency-Key` and answer.
#[utoipa::path(
    post,
    path = "/api/v1/jobs/import",
    tag = "jobs",
    params(
        ImportQuery,
        ("Idempotency-Key" = Option<String>, Header, nullable = false, min_length = 1, max_length = 255, pattern = "^[!-~](?:[ -~]{0,253}[!-~])?$",
            description = "As in `POST /jobs`"),
    ),
    // Any text is a file to read (`{}`): what makes it usable is in words, line by line.
    request_body(description = "The keyword file: UTF-8 text up to 1 MiB", content(
        (Value = "text/plain", example = "cold brew coffee\nespresso beans\n"),
        (Value = "text/csv", example = "Keyword,Volume\ncold brew coffee,1900\n"),
    )),
    security(("bearerAuth" = []), ("apiKeyHeader" = []), ("sessionCookie" = [])),
    responses(
        (status = 201, description = "Created; `Location: /api/v1/jobs/{id}`", body = CreatedJobEnvelope),
        (status = 400, description = "A field or a line of the file is invalid", body = ErrorBody),
        (status = 401, description = "No valid session or API key", body = ErrorBody),
        (status = 402, description = "No runs left (`insufficient_credits`)", body = ErrorBody),
        (status = 403, description = "Domain allowance used up (`domain_limit_reached`), or a cross-origin cookie request", body = ErrorBody),
        (status = 413, description = "File over 1 MiB", body = ErrorBody),
        (status = 415, description = "Not text/plain or text/csv", body = ErrorBody),
    )
)]
pub async fn import(
    State(state): State<JobsState>,
    CurrentUser(principal): CurrentUser,
    headers: HeaderMap,
    Query(query): Query,
    file: KeywordFileBody,
) -> Result<Response, ApiError> {
    let request = parse_upload(&query, file)?;
    check_property(&state, principal.user_id, &request).await?;
    create_parsed(&state, principal.user_id, &headers, request).await
}

#[derive(Serialize, ToSchema)]
pub struct EstimateEnvelope {
    estimate: JobEstimate,
}

/// Previews a job without creating it: the runs and domain allowance it would take, whether
/// the account can pay for it now, how many keywords it can keep and, with the data
/// provider, an upper bound of what its calls can cost. Charges nothing and stores nothing.
/// Takes the body of `POST /jobs` (JSON), or a keyword file with the query parameters of
/// `POST /jobs/import`, and validates it the same way (400 with the same details).
#[utoipa::path(
    post,
    path = "/api/v1/jobs/estimate",
    tag = "jobs",
    request_body(content = job_request::CreateJobRequest, description = "As `POST /jobs`; or a keyword file (`text/plain`, `text/csv`) with the query parameters of `POST /jobs/import`"),
    security(("bearerAuth" = []), ("apiKeyHeader" = []), ("sessionCookie" = [])),
    responses(
        (status = 200, description = "What the job would cost", body = EstimateEnvelope),
        (status = 400, description = "Validation failed", body = ErrorBody),
        (status = 401, description = "No valid session or API key", body = ErrorBody),
        (status = 403, description = "A cross-origin cookie request", body = ErrorBody),
        (status = 413, description = "Body over 64 KiB (1 MiB with keywords)", body = ErrorBody),
    )
)]
pub async fn estimate(
    State(state): State<JobsState>,
    CurrentUser(principal): CurrentUser,
    AnyJobRequest(request): AnyJobRequest,
) -> Result<Json<EstimateEnvelope>, ApiError> {
    check_property(&state, principal.user_id, &request).await?;
    let plan = KeywordPlan::of(&request, state.estimates.max_keywords);
    let provider = state.estimates.provider_estimate(&request, &plan);
    let estimate = estimate::estimate_job(
        state.users.as_ref(),
        state.domains.as_ref(),
        principal.user_id,
        &request,
        plan,
        provider,
    )
    .await?;
    Ok(Json(EstimateEnvelope {
        estimate: JobEstimate::from(&estimate),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn query_fields_read_as_the_json_body_would_carry_them() {
        let query = QueryParams::parse(
            "primaryDomain=example.com&competitorDomains=a.com,%20b.com,&languageCode=en&locationCode=2840&discoverKeywords=false",
        )
        .unwrap();
        let body = settings_from_query(&query);
        assert_eq!(
            Value::Object(body),
            serde_json::json!({"primaryDomain": "example.com", "competitorDomains": ["a.com", "b.com"],
                "languageCode": "en", "locationCode": 2840, "discoverKeywords": false})
        );
        let odd =
            settings_from_query(&QueryParams::parse("locationCode=x&discoverKeywords=1").unwrap());
        assert_eq!(odd["locationCode"], "x");
        assert_eq!(odd["discoverKeywords"], "1");
    }
}
