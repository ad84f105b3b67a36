//! Starting a job: the same request parsing, charging and gating as `POST /api/v1/jobs`.

use std::collections::HashMap;

use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Redirect, Response};
use axum::Form;
use kr_core::domain::{parse_keyword_file, DomainName, KeywordFileFormat};
use kr_core::locales;
use kr_core::service::jobs::{
    create_job, parse_idempotency_key, CreateJobError, CreateJobRequest, JobPorts, MAX_COMPETITORS,
};
use kr_core::store::User;
use kr_core::validation::FieldError;
use maud::{html, Markup};
use serde_json::{Map, Value};

use crate::layout;
use crate::session::{refused_foreign_form, SignedIn};
use crate::WebState;

/// What the form holds, as typed, so a refused form comes back as the user left it.
#[derive(Default)]
struct Entered {
    primary: String,
    competitors: String,
    language: String,
    location: String,
    keywords: String,
    /// A CSV file was loaded into the keywords box (set by the page's script).
    keywords_csv: bool,
    keywords_only: bool,
}

impl Entered {
    fn from_form(form: &HashMap<String, String>) -> Self {
        let field = |name: &str| form.get(name).cloned().unwrap_or_default();
        Self {
            primary: field("primaryDomain"),
            competitors: field("competitorDomains"),
            language: field("languageCode"),
            location: field("locationCode"),
            keywords: field("keywords"),
            keywords_csv: form
                .get("keywordsFormat")
                .is_some_and(|value| value == "csv"),
            keywords_only: form.get("keywordsOnly").is_some_and(|value| value == "on"),
        }
    }

    /// The request the API would get for the same form: the keywords box read as the import
    /// endpoint reads a file (one phrase a line, or CSV), its errors named by line.
    fn parse(&self) -> Result<CreateJobRequest, Vec<FieldError>> {
        let keywords = (!self.keywords.trim().is_empty()).then(|| {
            let format = if self.keywords_csv {
                KeywordFileFormat::Csv
            } else {
                KeywordFileFormat::Text
            };
            parse_keyword_file(&self.keywords, format)
        });
        CreateJobRequest::parse_with_keywords(&self.as_request_body(), keywords).map_err(|errors| {
            errors
                .into_iter()
                .map(|error| match error.field.as_str() {
                    "file" => FieldError::new("keywords", error.message),
                    line if line.starts_with("line ") => FieldError::new(
                        "keywords",
                        format!("Line {}: {}", &line[5..], error.message),
                    ),
                    _ => error,
                })
                .collect()
        })
    }

    /// The competitors as listed, one per line (or comma), blanks skipped: the order the
    /// API's `competitorDomains[i]` errors count in.
    fn competitor_lines(&self) -> Vec<&str> {
        self.competitors
            .split(['\n', ','])
            .map(str::trim)
            .filter(|line| !line.is_empty())
            .collect()
    }

    /// The location as a number, the only form the list offers.
    fn location_code(&self) -> Option<i64> {
        self.location.trim().parse().ok()
    }

    /// The JSON body the API would get for the same form.
    fn as_request_body(&self) -> Map<String, Value> {
        let competitors: Vec<Value> = self
            .competitor_lines()
            .into_iter()
            .map(|line| Value::String(line.to_string()))
            .collect();
        let location = match self.location_code() {
            Some(code) => Value::from(code),
            None if self.location.trim().is_empty() => Value::Null,
            None => Value::String(self.location.clone()),
        };
        let mut body = Map::from_iter([
            (
                "primaryDomain".to_string(),
                Value::String(self.primary.clone()),
            ),
            ("competitorDomains".to_string(), Value::Array(competitors)),
            (
                "languageCode".to_string(),
                Value::String(self.language.clone()),
            ),
            ("locationCode".to_string(), location),
        ]);
        if self.keywords_only {
            body.insert("discoverKeywords".to_string(), Value::Bool(false));
        }
        body
    }
}

/// A field's errors, for the message beside it (`competitorDomains[2]` belongs to the list).
fn errors_for<'a>(errors: &'a [FieldError], field: &str) -> Vec<&'a FieldError> {
    errors
        .iter()
        .filter(|error| error.field == field || error.field.starts_with(&format!("{field}[")))
        .collect()
}

/// The position `field[i]` names, if it names one.
fn index_in(error: &FieldError, field: &str) -> Option<usize> {
    error
        .field
        .strip_prefix(field)?
        .strip_prefix('[')?
        .strip_suffix(']')?
        .parse()
        .ok()
}

fn field_errors(errors: &[FieldError], field: &str, entered: &Entered) -> Markup {
    let competitors = entered.competitor_lines();
    html! {
        @for error in errors_for(errors, field) {
            p.field-error id={(field) "-error"} role="alert" {
                @if let Some(domain) = index_in(error, "competitorDomains").and_then(|i| competitors.get(i)) {
                    (domain) ": "
                }
                (error.message)
            }
        }
    }
}

fn render(
    status: StatusCode,
    user: &User,
    entered: &Entered,
    errors: &[FieldError],
    problem: Option<&str>,
    known_domains: &[DomainName],
) -> Response {
    let no_runs = user.credits_balance <= 0;
    let no_new_domains = user.domains_balance <= 0;
    let invalid = |field: &str| (!errors_for(errors, field).is_empty()).then_some("true");
    let idempotency_key = uuid::Uuid::new_v4().to_string();
    layout::page(
        status,
        "New job",
        Some(user),
        html! {
            section.card {
                h1 { "New job" }
                p.muted { "A job crawls your site and up to " (MAX_COMPETITORS) " competitors, finds the keywords worth targeting and measures or estimates their demand. It uses one run." }
                @if let Some(problem) = problem {
                    p.error role="alert" #form-error { (problem) }
                }
                @if no_runs {
                    p.notice #no-runs role="status" {
                        "You have no runs left, so a new job cannot start. Each job uses one run; your plan's runs are shown in the header."
                    }
                } @else if no_new_domains {
                    p.notice #no-new-domains role="status" {
                        "Your allowance of new primary domains is used up. "
                        @if known_domains.is_empty() {
                            "No domain can be researched until the allowance grows."
                        } @else {
                            "You can still research the domains you have researched before: "
                            @for (index, domain) in known_domains.iter().enumerate() {
                                @if index > 0 { ", " }
                                strong { (domain.as_str()) }
                            }
                            "."
                        }
                    }
                }
                form method="post" action="/jobs/new" data-once novalidate {
                    input type="hidden" name="idempotencyKey" value=(idempotency_key);
                    fieldset disabled[no_runs] {
                        label for="primaryDomain" { "Your site" }
                        input #primaryDomain name="primaryDomain" value=(entered.primary) placeholder="example.com"
                            required autocomplete="off" aria-invalid=[invalid("primaryDomain")]
                            aria-describedby="primaryDomain-error" list=[no_new_domains.then_some("known-domains")];
                        @if no_new_domains {
                            datalist #known-domains { @for domain in known_domains { option value=(domain.as_str()) {} } }
                        }
                        (field_errors(errors, "primaryDomain", entered))

                        label for="competitorDomains" { "Competitors " span.muted { "(optional, up to " (MAX_COMPETITORS) ", one per line)" } }
                        textarea #competitorDomains name="competitorDomains" rows="4" placeholder="competitor.com"
                            aria-invalid=[invalid("competitorDomains")] aria-describedby="competitorDomains-error" { (entered.competitors) }
                        (field_errors(errors, "competitorDomains", entered))

                        div.pair {
                            div {
                                label for="languageCode" { "Language" }
                                input #languageCode name="languageCode" list="languages" required
                                    value=(if entered.language.is_empty() { "en" } else { entered.language.as_str() })
                                    aria-invalid=[invalid("languageCode")] aria-describedby="languageCode-error";
                                datalist #languages {
                                    @for language in locales::languages() {
                                        option value=(language.language_code) label=(language.language_name) { (language.language_name) }
                                    }
                                }
                                (field_errors(errors, "languageCode", entered))
                            }
                            div {
                                label for="locationCode" { "Location" }
                                input #locationCode name="locationCode" list="locations" required inputmode="numeric"
                                    value=(if entered.location.is_empty() { "2840" } else { entered.location.as_str() })
                                    aria-invalid=[invalid("locationCode")] aria-describedby="locationCode-error";
                                datalist #locations {
                                    @for location in locales::locations() {
                                        option value=(location.location_code) label=(location.location_name) { (location.location_name) }
                                    }
                                }
                                (field_errors(errors, "locationCode", entered))
                            }
                        }
                        label for="keywords" { "Your keywords " span.muted { "(optional, up to 10,000, one per line)" } }
                        textarea #keywords name="keywords" rows="6" placeholder="cold brew coffee"
                            aria-invalid=[invalid("keywords")] aria-describedby="keywords-error" { (entered.keywords) }
                        p.muted.hint {
                            "Researched like the keywords the job finds, and marked as yours. "
                            label.file-pick { "Load a file (.txt or .csv): " input #keywords-file type="file" accept=".txt,.csv,text/plain,text/csv" data-fill="keywords" data-format="keywordsFormat"; }
                        }
                        input #keywordsFormat type="hidden" name="keywordsFormat" value=(if entered.keywords_csv { "csv" } else { "text" });
                        (field_errors(errors, "keywords", entered))
                        label.check {
                            input #keywordsOnly type="checkbox" name="keywordsOnly" checked[entered.keywords_only];
                            " Research only my keywords (the sites are still crawled for relevance and personas)"
                        }
                        (field_errors(errors, "discoverKeywords", entered))
                        // Filled by the page's script from `POST /api/v1/jobs/estimate`.
                        output.job-estimate #job-estimate data-estimate aria-live="polite" hidden {}
                        button.primary type="submit" disabled[no_runs] { "Start job" }
                    }
                }
            }
        },
    )
}

/// The form again, as the user left it, with what was wrong.
async fn refused(
    state: &WebState,
    user: &User,
    entered: &Entered,
    errors: Vec<FieldError>,
    problem: Option<&str>,
) -> Response {
    let known = known_domains(state, user).await;
    render(
        StatusCode::BAD_REQUEST,
        user,
        entered,
        &errors,
        problem,
        &known,
    )
}

async fn known_domains(state: &WebState, user: &User) -> Vec<DomainName> {
    if user.domains_balance > 0 {
        return Vec::new();
    }
    state
        .domains
        .registered_domains(user.id)
        .await
        .unwrap_or_default()
}

pub async fn form(State(state): State<WebState>, SignedIn(user): SignedIn) -> Response {
    let known = known_domains(&state, &user).await;
    render(
        StatusCode::OK,
        &user,
        &Entered::default(),
        &[],
        None,
        &known,
    )
}

pub async fn submit(
    State(state): State<WebState>,
    SignedIn(user): SignedIn,
    headers: HeaderMap,
    Form(form): Form<HashMap<String, String>>,
) -> Response {
    if let Some(refused) = refused_foreign_form(&headers, &state) {
        return refused;
    }
    let entered = Entered::from_form(&form);
    let refuse = |errors: Vec<FieldError>, problem: Option<&'static str>| {
        refused(&state, &user, &entered, errors, problem)
    };
    let mut request = entered.parse();
    if entered.location_code().is_none() {
        // The API's "a JSON number" is about JSON; here the list is the way to say it.
        let mut errors = request.err().unwrap_or_default();
        errors.retain(|error| error.field != "locationCode");
        errors.push(FieldError::new(
            "locationCode",
            "choose a location from the list",
        ));
        request = Err(errors);
    }
    let request = match request {
        Ok(request) => request,
        Err(errors) => return refuse(errors, None).await,
    };
    let key = form
        .get("idempotencyKey")
        .map(|raw| parse_idempotency_key(raw))
        .transpose();
    let Ok(key) = key else {
        return refuse(
            Vec::new(),
            Some("This form is out of date; reload the page and send it again."),
        )
        .await;
    };
    match create_job(
        &JobPorts { jobs: state.jobs.as_ref(), queue: state.queue.as_ref(), artifacts: state.objects.as_ref(), removals: state.removals.as_ref() },
        user.id,
        request,
        key,
        // The form has no callback URL.
        None,
    )
    .await
    {
        Ok(created) => Redirect::to(&format!("/jobs/{}", created.id)).into_response(),
        Err(CreateJobError::InsufficientCredits) => {
            refuse(Vec::new(), Some("You have no runs left; each job needs one.")).await
        }
        Err(CreateJobError::DomainLimitReached) => refuse(
            vec![FieldError::new(
                "primaryDomain",
                "is a new domain, and your allowance of new domains is used up",
            )],
            None,
        )
        .await,
        Err(CreateJobError::IdempotencyKeyReused) => {
            refuse(Vec::new(), Some("This form was already sent with other values; reload the page to start another job.")).await
        }
        Err(CreateJobError::Store(err)) => layout::internal_error(err),
    }
}
