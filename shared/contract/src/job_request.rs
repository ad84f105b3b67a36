//! The body of `POST /jobs` as the document shows it (`CreateJobRequest`), and the schemas
//! written by hand for what a derive cannot describe (the `keywords` array, the language and
//! location enums, `callbackUrl` as a query parameter of `POST /jobs/import`).
//!
//! Schema only: `kr_core::service::jobs::CreateJobRequest::parse` reads the body and is what
//! the handlers use. The drift test (`src/drift.rs`) checks the two agree: every documented
//! property is read (a wrong type is refused naming it), the required ones are exactly those
//! an empty body is refused for, and the examples parse.

use kr_core::domain::{
    DomainName, KeywordList, LanguageCode, LocationCode, PropertyUrl, WebhookUrl,
};
use utoipa::ToSchema;

/// The body of `POST /jobs`.
#[derive(ToSchema)]
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
    /// Optional: a Search Console property of the account's connection (`GET
    /// /integrations/search-console` lists them), written as Google writes it:
    /// `sc-domain:example.com` or a URL prefix such as `https://www.example.com/`. The job
    /// imports the property's last 90 days of web searches in its country (queries, pages,
    /// clicks, impressions, CTR, position): keywords the site is shown for get
    /// `searchConsole` figures, queries only Search Console knew join the job (`source:
    /// search_console`), and without a paid data provider impressions become the popularity
    /// figure (`metricsSource: search_console`). 400 when malformed, when the account has not
    /// connected Search Console, or when the connection does not list it as readable. A grant
    /// that lapses later never fails the job: it completes without the data and says why in
    /// `searchConsole`.
    #[schema(value_type = Option<String>, min_length = 1, max_length = 2048, example = "sc-domain:example.com")]
    pub search_console_property: Option<PropertyUrl>,
}

/// The `keywords` array: what JSON Schema can say of a usable phrase; the rest is in words.
pub fn keywords_schema() -> utoipa::openapi::Array {
    use utoipa::openapi::schema::{ArrayBuilder, ObjectBuilder, Type};
    ArrayBuilder::new()
        .items(
            ObjectBuilder::new()
                .schema_type(Type::String)
                .min_length(Some(1))
                .max_length(Some(kr_core::domain::MAX_PHRASE_CHARS))
                .build(),
        )
        .min_items(Some(1))
        .max_items(Some(kr_core::domain::MAX_IMPORTED_KEYWORDS))
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
            kr_core::locales::languages()
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
            kr_core::locales::locations()
                .iter()
                .map(|location| location.location_code),
        ))
        .examples([2840])
        .build()
}
