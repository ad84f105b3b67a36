//! The body of `POST /jobs` (`CreateJobRequest`) and the `Idempotency-Key` header, parsed and
//! validated: every problem reported at once, each named as sent.

use serde_json::{Map, Value};
use sha2::{Digest, Sha256};

use crate::domain::UserId;
use crate::domain::{DomainName, KeywordList, LanguageCode, LocationCode, PropertyUrl, WebhookUrl};
use crate::service::search_console::usable_property;
use crate::store::{SearchConsoleStore, StoreError};
use crate::validation::FieldError;

pub const MAX_COMPETITORS: usize = 10;
pub const MAX_IDEMPOTENCY_KEY_CHARS: usize = 255;

/// The body of `POST /jobs` once parsed: every field a value that passed validation. The
/// document's `CreateJobRequest` is `kr_contract::job_request::CreateJobRequest`, whose drift
/// test checks it against [`CreateJobRequest::parse`].
#[derive(Debug, Clone)]
pub struct CreateJobRequest {
    /// A public registrable domain, normalised.
    pub primary_domain: DomainName,
    /// At most [`MAX_COMPETITORS`], normalised, distinct, none the primary domain.
    pub competitor_domains: Vec<DomainName>,
    pub language_code: LanguageCode,
    pub location_code: LocationCode,
    /// The client's own keywords, cleaned; `None` when the body had none.
    pub keywords: Option<KeywordList>,
    /// `false` researches only `keywords` (which it then requires).
    pub discover_keywords: bool,
    /// Also receives this job's `job.completed` or `job.failed` event.
    pub callback_url: Option<WebhookUrl>,
    /// The Search Console property whose searches the job imports. Well-formed here; whether
    /// the account may name it is [`super::check_search_console_property`]'s question.
    pub search_console_property: Option<PropertyUrl>,
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
        let search_console_property = match field("searchConsoleProperty") {
            None => None,
            Some(Value::String(raw)) => PropertyUrl::parse(raw)
                .map_err(|message| errors.push(FieldError::new("searchConsoleProperty", message)))
                .ok(),
            Some(_) => {
                errors.push(FieldError::new(
                    "searchConsoleProperty",
                    "must be a string: sc-domain:example.com or https://www.example.com/",
                ));
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
                    search_console_property,
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
        let canonical = match &self.search_console_property {
            None => canonical,
            Some(property) => {
                serde_json::json!([canonical, {"searchConsoleProperty": property.as_str()}])
            }
        };
        hex::encode(Sha256::digest(canonical.to_string().as_bytes()))
    }
}

/// Whether `owner` may name the request's `searchConsoleProperty`: the account has connected
/// Search Console and the property is among the readable ones its connection listed (no call
/// to Google). `Ok(Err(_))` is the 400 naming the field; no property is always fine.
pub async fn check_search_console_property(
    store: &dyn SearchConsoleStore,
    owner: UserId,
    request: &CreateJobRequest,
) -> Result<Result<(), FieldError>, StoreError> {
    let Some(property) = &request.search_console_property else {
        return Ok(Ok(()));
    };
    Ok(usable_property(store, owner, property)
        .await?
        .map(|_| ())
        .map_err(|refusal| FieldError::new("searchConsoleProperty", refusal.to_string())))
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
