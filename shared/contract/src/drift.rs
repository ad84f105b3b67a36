//! The drift test: the mirrors (`domain`, `records`, `plan`, `serp_page`, `brief`, `locales`,
//! `validation`) document what kr-core serialises, and nothing but this test ties them to it.
//!
//! Real core values of every mirrored type, each `Option` filled and each empty, every variant
//! of every enum, are serialised and checked against the generated component schemas: every
//! key is a documented property, every required property is there, each value has the
//! documented type (following `$ref`, `oneOf`, arrays, enums). And every documented property
//! is seen at least once, every mirror is reached. A field added to a core record fails here
//! (first to compile: fill it in below; then at run time until the mirror has it too). A new
//! enum variant fails to compile in `variants!` until it is listed, then here until mirrored.
//!
//! The body of `POST /jobs` is checked against what `CreateJobRequest::parse` reads.

use std::collections::{BTreeMap, BTreeSet};

use chrono::{TimeZone, Utc};
use kr_core::dataset::{
    ActionCounts, AiOverview, AiReference, AiShareOfVoice, AiShareTally, BriefKeyword, BriefSource,
    BriefWording, CitedPage, ClusterAction, ClusterBrief, ClusterMethod, ClusterRecord,
    ClusterSearchConsole, Intent, InternalLink, KeywordRecord, KeywordSource, MonthlySearch,
    OutlineHeading, PageType, Persona, PlanBasis, Ranking, RankingKind, Reference,
    SearchConsoleDay, SearchConsoleMetrics, SearchConsolePage, SerpFeature, SitePosition,
    TopicRecord, WeakSpot, WeakSpotKind, WordCountRange,
};
use kr_core::dataset::{AiAnswer, EngineReply, SiteNames};
use kr_core::domain::{AiAnswersOutcome, AiAnswersStatus, AiEngine, DomainName};
use kr_core::domain::{
    ApiKeyId, Cadence, ImportStatus, JobId, JobStatus, Plan, Progress, ScheduleId,
    SearchConsoleImport, SharedTab, Stage, UserId, WebhookEvent, WebhookId,
};
use kr_core::validation::FieldError;
use serde::Serialize;
use serde_json::{json, Map, Value};
use utoipa::OpenApi;

/// Every mirror, by the component name it documents.
#[derive(OpenApi)]
#[openapi(components(schemas(
    crate::domain::UserId,
    crate::domain::JobId,
    crate::domain::ScheduleId,
    crate::domain::ApiKeyId,
    crate::domain::WebhookId,
    crate::domain::JobStatus,
    crate::domain::Stage,
    crate::domain::Progress,
    crate::domain::Plan,
    crate::domain::Cadence,
    crate::domain::SharedTab,
    crate::domain::WebhookEvent,
    crate::domain::SearchConsoleImport,
    crate::domain::ImportStatus,
    crate::records::SearchConsoleMetrics,
    crate::records::SearchConsolePage,
    crate::records::SearchConsoleDay,
    crate::records::Ranking,
    crate::records::RankingKind,
    crate::records::KeywordRecord,
    crate::records::KeywordSource,
    crate::records::ClusterRecord,
    crate::records::ClusterSearchConsole,
    crate::ai_overview::AiOverview,
    crate::ai_overview::AiReference,
    crate::ai_overview::AiShareOfVoice,
    crate::ai_answers::AiEngine,
    crate::ai_answers::AiAnswersStatus,
    crate::ai_answers::AiAnswersOutcome,
    crate::ai_answers::AiAnswer,
    crate::records::Intent,
    crate::records::MonthlySearch,
    crate::records::Persona,
    crate::records::Reference,
    crate::plan::ClusterMethod,
    crate::plan::ClusterAction,
    crate::plan::PlanBasis,
    crate::plan::SitePosition,
    crate::plan::ActionCounts,
    crate::plan::TopicRecord,
    crate::serp_page::SerpFeature,
    crate::serp_page::WeakSpot,
    crate::serp_page::WeakSpotKind,
    crate::serp_page::PageType,
    crate::brief::ClusterBrief,
    crate::brief::BriefWording,
    crate::brief::BriefKeyword,
    crate::brief::OutlineHeading,
    crate::brief::WordCountRange,
    crate::brief::InternalLink,
    crate::brief::BriefSource,
    crate::brief::CitedPage,
    crate::locales::Language,
    crate::locales::Location,
    crate::validation::FieldError,
)))]
struct Mirrors;

/// Every variant of a core enum. Fails to compile when one is added to the core type: list
/// it here, then mirror it.
macro_rules! variants {
    ($ty:ident { $($variant:ident),* $(,)? }) => {{
        let _exhaustive = |value: $ty| match value {
            $($ty::$variant => ()),*
        };
        vec![$($ty::$variant),*]
    }};
}

/// The JSON of some core values and the component each must match.
#[derive(Default)]
struct Samples(Vec<(&'static str, Value)>);

impl Samples {
    fn add<T: Serialize>(&mut self, component: &'static str, values: impl IntoIterator<Item = T>) {
        for value in values {
            self.0
                .push((component, serde_json::to_value(value).expect("serialises")));
        }
    }
}

fn some<T>(filled: bool, value: T) -> Option<T> {
    filled.then_some(value)
}

fn ai_answers_outcome(status: AiAnswersStatus) -> AiAnswersOutcome {
    AiAnswersOutcome {
        status,
        reason: (status != AiAnswersStatus::Completed)
            .then(|| "perplexity failed: DataForSEO is unavailable".into()),
        engines: AiEngine::ALL.to_vec(),
        prompts: 20,
        cost_usd: 0.124,
    }
}

fn ai_answer(cited: bool) -> AiAnswer {
    let names = |domain: &str| SiteNames::of(&DomainName::parse(domain).unwrap());
    let reply = EngineReply {
        text: "BrightBrew Coffee and roastrivals.com sell cold brew makers.".into(),
        cited_urls: some(cited, "https://brightbrew-coffee.com/cold-brew".to_string())
            .into_iter()
            .collect(),
    };
    AiAnswer::read(
        AiEngine::ChatGpt,
        "What are the best options for cold brew maker?",
        "c-3",
        &reply,
        &names("brightbrew-coffee.com"),
        &[names("roastrivals.com")],
        !cited,
    )
}

fn many<T: Clone>(filled: bool, value: T) -> Vec<T> {
    if filled {
        vec![value.clone(), value]
    } else {
        Vec::new()
    }
}

fn ranking(kind: RankingKind) -> Ranking {
    Ranking {
        domain: "example.com".into(),
        position: 3,
        url: "https://example.com/cold-brew".into(),
        kind,
    }
}

fn weak_spot(kind: WeakSpotKind) -> WeakSpot {
    WeakSpot {
        position: 4,
        url: "https://www.reddit.com/r/coffee/".into(),
        site: "reddit.com".into(),
        kind,
    }
}

fn keyword(filled: bool) -> KeywordRecord {
    KeywordRecord {
        id: "k-1".into(),
        keyword: "cold brew coffee".into(),
        search_volume: some(filled, 1900),
        cpc: some(filled, 1.25),
        competition: some(filled, 0.4),
        difficulty: some(filled, 37),
        intent: Intent::Commercial,
        secondary_intents: many(filled, Intent::Transactional),
        persona_avatar_name: some(filled, "Budget Brewer".into()),
        cluster_id: "c-1".into(),
        cluster_name: "cold brew".into(),
        organic_opportunity_score: 61.5,
        paid_opportunity_score: 12.0,
        opportunity_value: 230.75,
        monthly_searches: many(
            filled,
            MonthlySearch {
                year: 2026,
                month: 4,
                search_volume: 2100,
            },
        ),
        metrics_source: "dataforseo".into(),
        rankings: if filled {
            vec![ranking(RankingKind::Organic), ranking(RankingKind::Paid)]
        } else {
            Vec::new()
        },
        content_gap: filled,
        source: some(filled, KeywordSource::Ranked),
        topic_id: some(filled, "t-cold-brew".into()),
        serp_features: some(filled, vec![SerpFeature::PeopleAlsoAsk]),
        people_also_ask: some(filled, vec!["is cold brew stronger?".into()]),
        weak_spots: some(filled, vec![weak_spot(WeakSpotKind::Forum)]),
        search_console: some(filled, search_console_metrics(filled)),
        ai_overview: some(filled, ai_overview(filled)),
    }
}

/// Filled: an overview citing the site and a competitor; empty: none shown on the SERP.
fn ai_overview(filled: bool) -> AiOverview {
    let references: Vec<AiReference> = [
        (
            "https://blog.example.com/cold-brew",
            Some("Cold brew at home"),
        ),
        ("https://competitor.com/guide", None),
    ]
    .into_iter()
    .filter_map(|(url, title)| AiReference::new(url, None, title))
    .collect();
    AiOverview::from_serp(
        filled.then_some(&references[..]),
        "example.com",
        &["competitor.com"],
    )
}

fn ai_share_of_voice() -> AiShareOfVoice {
    let mut tally = AiShareTally::default();
    tally.add(false, [0]);
    tally.add(true, []);
    tally
        .finish(&["competitor.com", "other.com"])
        .expect("two overviews")
}

fn search_console_metrics(filled: bool) -> SearchConsoleMetrics {
    SearchConsoleMetrics {
        clicks: 25,
        impressions: 450,
        ctr: 0.0556,
        position: 5.56,
        page: some(filled, "https://example.com/cold-brew".into()),
        previous_clicks: 40,
        previous_impressions: 400,
        pages: many(
            filled,
            SearchConsolePage {
                page: "https://example.com/cold-brew".into(),
                clicks: 15,
                impressions: 150,
                position: 2.67,
            },
        ),
        daily: many(
            filled,
            SearchConsoleDay {
                date: "2026-03-30".into(),
                clicks: 20,
                impressions: 400,
                position: 6.0,
            },
        ),
    }
}

fn search_console_import(status: ImportStatus) -> SearchConsoleImport {
    let filled = status == ImportStatus::Imported;
    SearchConsoleImport {
        status,
        reason: (!filled).then(|| "Google refused the Search Console grant".into()),
        rows: 1200,
        queries: 300,
        keywords: 40,
        added_keywords: 12,
        start_date: some(filled, "2026-01-01".into()),
        end_date: some(filled, "2026-03-31".into()),
    }
}

fn cluster(filled: bool) -> ClusterRecord {
    ClusterRecord {
        id: "c-1".into(),
        name: "cold brew".into(),
        primary_keyword: "cold brew coffee".into(),
        keyword_count: 12,
        total_search_volume: 8400,
        avg_difficulty: some(filled, 31.5),
        avg_cpc: some(filled, 1.1),
        dominant_intent: Intent::Informational,
        organic_opportunity_score: 55.25,
        paid_opportunity_score: 10.0,
        opportunity_value: 900.5,
        method: some(filled, ClusterMethod::Serp),
        shared_urls: many(filled, "https://example.org/guide".into()),
        topic_id: some(filled, "t-cold-brew".into()),
        action: some(filled, ClusterAction::Improve),
        target_url: some(filled, "https://example.com/cold-brew".into()),
        target_position: some(filled, 7),
        target_score: some(filled, 0.83),
        cannibalizing_urls: many(filled, "https://example.com/old".into()),
        competitor_positions: many(
            filled,
            SitePosition {
                domain: "competitor.com".into(),
                position: 2,
                url: "https://competitor.com/cold-brew".into(),
            },
        ),
        content_gap: filled,
        basis: some(filled, PlanBasis::SearchConsole),
        search_console_baseline: some(
            filled,
            ClusterSearchConsole {
                clicks: 10,
                impressions: 300,
                position: 8.5,
            },
        ),
        search_console: some(
            filled,
            ClusterSearchConsole {
                clicks: 12,
                impressions: 340,
                position: 8.25,
            },
        ),
        ai_share_of_voice: some(filled, ai_share_of_voice()),
        earn_citation: filled,
    }
}

fn topic() -> TopicRecord {
    TopicRecord {
        id: "t-cold-brew".into(),
        name: "cold brew".into(),
        pillar_cluster_id: "c-1".into(),
        cluster_ids: vec!["c-1".into(), "c-2".into()],
        cluster_count: 2,
        keyword_count: 20,
        total_search_volume: 9100,
        dominant_intent: Intent::Informational,
        opportunity_value: 1000.25,
        organic_opportunity_score: 50.5,
        actions: ActionCounts {
            create: 1,
            improve: 1,
            consolidate: 0,
        },
        ai_share_of_voice: Some(ai_share_of_voice()),
    }
}

fn persona() -> Persona {
    Persona {
        id: "p-budget".into(),
        avatar_name: "Budget Brewer".into(),
        title: "Home barista on a budget".into(),
        description: "Wants café coffee at home for less.".into(),
        goals: vec!["save money".into()],
        pain_points: vec!["bitter coffee".into()],
        keyword_count: 8,
        top_keywords: vec!["cold brew coffee".into()],
    }
}

fn reference(filled: bool) -> Reference {
    Reference {
        url: "https://example.com/".into(),
        title: some(filled, "Example Coffee".into()),
        description: some(filled, "Coffee, brewed cold.".into()),
        image_url: some(filled, "https://example.com/og.png".into()),
        link: some(filled, "https://example.com/".into()),
    }
}

fn brief(filled: bool) -> ClusterBrief {
    let keyword = |search_volume| BriefKeyword {
        keyword: "cold brew coffee".into(),
        search_volume,
        intent: Intent::Informational,
    };
    ClusterBrief {
        cluster_id: "c-1".into(),
        cluster_name: "cold brew".into(),
        primary_keyword: keyword(some(filled, 1900)),
        secondary_keywords: many(filled, keyword(None)),
        intent: Intent::Informational,
        page_type: some(filled, PageType::Guide),
        action: some(filled, ClusterAction::Create),
        target_url: some(filled, "https://example.com/cold-brew".into()),
        outline: many(
            filled,
            OutlineHeading {
                level: 2,
                text: "How to make cold brew".into(),
                pages: 3,
            },
        ),
        questions: many(filled, "is cold brew stronger?".into()),
        word_count: some(
            filled,
            WordCountRange {
                min: 800,
                median: 1400,
                max: 2600,
            },
        ),
        missing_terms: many(filled, "ratio".into()),
        internal_links: many(
            filled,
            InternalLink {
                url: "https://example.com/beans".into(),
                title: "Our beans".into(),
            },
        ),
        sources: vec![
            BriefSource {
                url: "https://example.org/guide".into(),
                position: some(filled, 1),
                fetched: true,
                skipped_because: None,
                word_count: some(filled, 1400),
            },
            BriefSource {
                url: "https://example.net/".into(),
                position: None,
                fetched: false,
                skipped_because: Some("HTTP 404".into()),
                word_count: None,
            },
        ],
        generated_at: Utc.with_ymd_and_hms(2026, 5, 1, 6, 41, 17).unwrap(),
        wording: some(
            filled,
            BriefWording {
                title: "Cold brew coffee: the guide".into(),
                meta_description: "How to brew it.".into(),
                summary: "For home baristas.".into(),
                cost_usd: 0.002,
            },
        ),
        cited_pages: many(
            filled,
            CitedPage {
                url: "https://competitor.com/guide".into(),
                competitor: "competitor.com".into(),
                title: some(filled, "The cold brew guide".into()),
                citations: 2,
                fetched: false,
                skipped_because: some(filled, "HTTP 404".into()),
                headings: many(filled, "Ratio".into()),
            },
        ),
    }
}

fn samples() -> Samples {
    let mut samples = Samples::default();
    samples.add("UserId", [UserId::new()]);
    samples.add("JobId", [JobId::new()]);
    samples.add("ScheduleId", [ScheduleId::new()]);
    samples.add("ApiKeyId", [ApiKeyId::new()]);
    samples.add("WebhookId", [WebhookId::new()]);
    samples.add(
        "JobStatus",
        variants!(JobStatus {
            Queued,
            Running,
            Completed,
            Failed
        }),
    );
    let stages = variants!(Stage {
        References,
        Crawl,
        Discovery,
        Metrics,
        Analysis
    });
    samples.add("Stage", stages.clone());
    samples.add(
        "Progress",
        [None]
            .into_iter()
            .chain(stages.into_iter().map(Some))
            .map(|stage| Progress {
                stage,
                completed_stages: 1,
                total_stages: 5,
                percent: 20,
                message: stage.map(|stage| format!("{stage:?} running")),
            }),
    );
    samples.add("Plan", variants!(Plan { Free, Pro, Agency }));
    samples.add("Cadence", variants!(Cadence { Weekly, Monthly }));
    samples.add(
        "SharedTab",
        variants!(SharedTab {
            Keywords,
            Clusters,
            Plan,
            Personas,
            Overview,
            Changes,
            SearchConsole,
            AiVisibility
        }),
    );
    samples.add(
        "WebhookEvent",
        variants!(WebhookEvent {
            JobCompleted,
            JobFailed,
            JobChanges,
            ScheduleRunSkipped
        }),
    );
    samples.add(
        "Ranking",
        variants!(RankingKind { Organic, Paid })
            .into_iter()
            .map(ranking),
    );
    samples.add("KeywordRecord", [keyword(true), keyword(false)]);
    samples.add(
        "KeywordSource",
        variants!(KeywordSource {
            Imported,
            Ranked,
            Crawl,
            Idea,
            SearchConsole
        }),
    );
    samples.add(
        "SearchConsoleImport",
        variants!(ImportStatus { Imported, Skipped })
            .into_iter()
            .map(search_console_import),
    );
    samples.add(
        "AiAnswersOutcome",
        variants!(AiAnswersStatus {
            Completed,
            Skipped,
            Failed
        })
        .into_iter()
        .map(ai_answers_outcome),
    );
    samples.add(
        "AiEngine",
        variants!(AiEngine {
            ChatGpt,
            Perplexity,
            Gemini,
            Claude,
            GoogleAiMode
        }),
    );
    samples.add("AiAnswer", [ai_answer(true), ai_answer(false)]);
    samples.add(
        "SearchConsoleMetrics",
        [search_console_metrics(true), search_console_metrics(false)],
    );
    samples.add("ClusterRecord", [cluster(true), cluster(false)]);
    samples.add(
        "Intent",
        variants!(Intent {
            Informational,
            Commercial,
            Transactional,
            Navigational
        }),
    );
    samples.add("Persona", [persona()]);
    samples.add("Reference", [reference(true), reference(false)]);
    samples.add("ClusterMethod", variants!(ClusterMethod { Serp, Lexical }));
    samples.add(
        "ClusterAction",
        variants!(ClusterAction {
            Create,
            Improve,
            Consolidate
        }),
    );
    samples.add(
        "PlanBasis",
        variants!(PlanBasis {
            SearchConsole,
            Rankings,
            Crawl
        }),
    );
    samples.add("TopicRecord", [topic()]);
    samples.add(
        "SerpFeature",
        variants!(SerpFeature {
            AiOverview,
            FeaturedSnippet,
            PeopleAlsoAsk,
            LocalPack,
            Shopping,
            Video,
            Images,
            TopStories,
            KnowledgeGraph,
            Sitelinks
        }),
    );
    samples.add(
        "WeakSpot",
        variants!(WeakSpotKind {
            Forum,
            QuestionsAndAnswers,
            Social,
            UserBlog
        })
        .into_iter()
        .map(weak_spot),
    );
    samples.add(
        "PageType",
        variants!(PageType {
            Home,
            Guide,
            List,
            Product,
            Category,
            LocalService,
            Tool,
            Forum,
            Social,
            Other
        }),
    );
    samples.add("ClusterBrief", [brief(true), brief(false)]);
    samples.add("Language", kr_core::locales::languages());
    samples.add("Location", kr_core::locales::locations());
    samples.add(
        "FieldError",
        [FieldError::new("competitorDomains[2]", "must be a string")],
    );
    samples
}

/// Walks values against the document's schemas, collecting every mismatch and what was seen.
struct Checker<'a> {
    components: &'a Map<String, Value>,
    errors: Vec<String>,
    /// Components reached, and each object schema's properties seen (by component and
    /// property name).
    reached: BTreeSet<String>,
    seen: BTreeMap<String, BTreeSet<String>>,
}

impl Checker<'_> {
    /// The mismatches of `value` against `schema` (empty: it matches), recording what was
    /// reached only when it matches.
    fn check(&mut self, value: &Value, schema: &Value, at: &str, component: &str) -> Vec<String> {
        if let Some(reference) = schema.get("$ref").and_then(Value::as_str) {
            let name = reference.trim_start_matches("#/components/schemas/");
            let Some(target) = self.components.get(name) else {
                return vec![format!("{at}: {reference} is not a component")];
            };
            let errors = self.check(value, target, at, name);
            if errors.is_empty() {
                self.reached.insert(name.to_string());
            }
            return errors;
        }
        if let Some(alternatives) = schema.get("oneOf").and_then(Value::as_array) {
            let mut all = Vec::new();
            for alternative in alternatives {
                let errors = self.check(value, alternative, at, component);
                if errors.is_empty() {
                    return errors;
                }
                all.extend(errors);
            }
            return vec![format!(
                "{at}: matches no oneOf alternative ({})",
                all.join("; ")
            )];
        }
        if let Some(parts) = schema.get("allOf").and_then(Value::as_array) {
            return parts
                .iter()
                .flat_map(|part| self.check(value, part, at, component))
                .collect();
        }
        let types: Vec<&str> = match schema.get("type") {
            Some(Value::String(one)) => vec![one.as_str()],
            Some(Value::Array(many)) => many.iter().filter_map(Value::as_str).collect(),
            _ => Vec::new(),
        };
        let type_of = match value {
            Value::Null => "null",
            Value::Bool(_) => "boolean",
            Value::Number(n) if n.is_i64() || n.is_u64() => "integer",
            Value::Number(_) => "number",
            Value::String(_) => "string",
            Value::Array(_) => "array",
            Value::Object(_) => "object",
        };
        let type_matches = types.is_empty()
            || types.contains(&type_of)
            || (type_of == "integer" && types.contains(&"number"));
        if !type_matches {
            return vec![format!("{at}: {value} is {type_of}, documented {types:?}")];
        }
        let mut errors = Vec::new();
        if let Some(allowed) = schema.get("enum").and_then(Value::as_array) {
            if !allowed.contains(value) {
                errors.push(format!("{at}: {value} is not in the enum {allowed:?}"));
            }
        }
        if let (Some(minimum), Some(number)) = (
            schema.get("minimum").and_then(Value::as_f64),
            value.as_f64(),
        ) {
            if number < minimum {
                errors.push(format!("{at}: {number} is below the minimum {minimum}"));
            }
        }
        if let (Some(format), Some(text)) =
            (schema.get("format").and_then(Value::as_str), value.as_str())
        {
            let valid = match format {
                "uuid" => uuid::Uuid::parse_str(text).is_ok(),
                "date-time" => chrono::DateTime::parse_from_rfc3339(text).is_ok(),
                _ => true,
            };
            if !valid {
                errors.push(format!("{at}: {text:?} is not a {format}"));
            }
        }
        match value {
            Value::Object(object) => {
                let properties = schema
                    .get("properties")
                    .and_then(Value::as_object)
                    .cloned()
                    .unwrap_or_default();
                for required in schema
                    .get("required")
                    .and_then(Value::as_array)
                    .into_iter()
                    .flatten()
                    .filter_map(Value::as_str)
                {
                    if !object.contains_key(required) {
                        errors.push(format!("{at}: the required {required:?} is missing"));
                    }
                }
                // A map (`additionalProperties`): every key is one of its values.
                let values = schema
                    .get("additionalProperties")
                    .filter(|values| values.is_object());
                for (key, item) in object {
                    if let (None, Some(values)) = (properties.get(key), values) {
                        errors.extend(self.check(item, values, &format!("{at}.{key}"), component));
                        continue;
                    }
                    match properties.get(key) {
                        None => errors.push(format!(
                            "{at}: {key:?} is serialised but not documented in {component} \
                             (add it to the mirror)"
                        )),
                        Some(property) => {
                            let item_errors =
                                self.check(item, property, &format!("{at}.{key}"), component);
                            if item_errors.is_empty() {
                                self.seen
                                    .entry(component.to_string())
                                    .or_default()
                                    .insert(key.clone());
                            }
                            errors.extend(item_errors);
                        }
                    }
                }
            }
            Value::Array(items) => {
                if let Some(item_schema) = schema.get("items") {
                    for (index, item) in items.iter().enumerate() {
                        errors.extend(self.check(
                            item,
                            item_schema,
                            &format!("{at}[{index}]"),
                            component,
                        ));
                    }
                }
            }
            _ => {}
        }
        errors
    }
}

#[test]
fn the_mirrors_document_what_the_core_types_serialise() {
    let document = serde_json::to_value(Mirrors::openapi()).unwrap();
    let components = document["components"]["schemas"]
        .as_object()
        .expect("the mirrors' components")
        .clone();
    let mut checker = Checker {
        components: &components,
        errors: Vec::new(),
        reached: BTreeSet::new(),
        seen: BTreeMap::new(),
    };
    for (component, value) in samples().0 {
        let reference = json!({ "$ref": format!("#/components/schemas/{component}") });
        let errors = checker.check(&value, &reference, component, component);
        checker.errors.extend(errors);
    }
    let mut errors = std::mem::take(&mut checker.errors);
    for name in components.keys() {
        if !checker.reached.contains(name) {
            errors.push(format!(
                "no sample reaches the mirror {name}: add core values of it to `samples`"
            ));
        }
    }
    for (name, schema) in &components {
        let documented = schema
            .get("properties")
            .and_then(Value::as_object)
            .into_iter()
            .flat_map(|properties| properties.keys());
        for property in documented {
            if !checker
                .seen
                .get(name)
                .is_some_and(|seen| seen.contains(property))
            {
                errors.push(format!(
                    "{name}.{property} is documented but no core value serialises it \
                     (a field the core type no longer has, or one no sample fills)"
                ));
            }
        }
    }
    assert!(errors.is_empty(), "{}", errors.join("\n"));
}

/// `CreateJobRequest`'s schema against what `kr_core`'s parser reads: the required
/// properties are exactly those an empty body is refused for, every documented property is
/// read (a wrong type is refused naming it), and a body of the documented examples parses.
#[test]
fn the_job_body_documents_what_the_parser_reads() {
    use kr_core::service::jobs::CreateJobRequest;
    use utoipa::PartialSchema;

    let schema = serde_json::to_value(crate::job_request::CreateJobRequest::schema()).unwrap();
    let properties = schema["properties"].as_object().unwrap();
    let required: BTreeSet<&str> = schema["required"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(Value::as_str)
        .collect();
    let fields = |errors: Vec<FieldError>| -> BTreeSet<String> {
        errors.into_iter().map(|error| error.field).collect()
    };
    let refused = fields(CreateJobRequest::parse(&Map::new()).unwrap_err());
    assert_eq!(
        refused,
        required.iter().map(|name| name.to_string()).collect(),
        "an empty body is refused for exactly the required properties"
    );
    let example = |property: &Value| -> Value {
        property
            .get("example")
            .cloned()
            .or_else(|| property["examples"].get(0).cloned())
            .unwrap_or_else(|| panic!("{property} has an example"))
    };
    let examples: Map<String, Value> = properties
        .iter()
        .map(|(name, property)| (name.clone(), example(property)))
        .collect();
    let parsed = CreateJobRequest::parse(&examples)
        .unwrap_or_else(|errors| panic!("the documented examples are refused: {errors:?}"));
    assert!(parsed.keywords.is_some() && parsed.callback_url.is_some());
    for name in properties.keys() {
        let mut body = examples.clone();
        body.insert(name.clone(), json!({"not": "of the documented type"}));
        let refused = fields(CreateJobRequest::parse(&body).unwrap_err());
        assert!(
            refused.contains(name),
            "{name} is documented but the parser does not read it (refused: {refused:?})"
        );
    }
}
