//! The research engine. Pure, deterministic computation over crawled page content: no I/O,
//! so the pipeline, the operator CLI and the benchmarks all run exactly the same code.
//!
//! # Stages
//!
//! Each stage takes and returns plain, serde-serialisable data, so the pipeline can run them
//! one by one, store what is between them, and swap the metric estimate for provider data.
//!
//! | stage | entry point | in → out |
//! |---|---|---|
//! | discovery | [`discovery::discover`] | `&[PageContent]`, [`DiscoveryConfig`](discovery::DiscoveryConfig) → `Vec<`[`Candidate`](discovery::Candidate)`>`, best first |
//! | metrics | [`metrics::estimate_all`] / [`metrics::MetricsEstimator`] | candidates → `Vec<`[`KeywordMetrics`](metrics::KeywordMetrics)`>` (estimates; a provider fills the same struct) |
//! | intent | [`intent::classify`] / [`intent::IntentClassifier`] | keyword, language, brand terms → [`Intent`](intent::Intent) |
//! | clusters | [`clusters::cluster`] | `&[`[`ClusterInput`](clusters::ClusterInput)`]`, [`ClusterConfig`](clusters::ClusterConfig) → `Vec<`[`Cluster`](clusters::Cluster)`>` (a partition, by words) |
//! | SERP clusters | [`clusters::cluster_by_serp`] | `&[`[`SerpClusterInput`](clusters::SerpClusterInput)`]`, [`SerpClusterConfig`](clusters::SerpClusterConfig) → `Vec<`[`Cluster`](clusters::Cluster)`>` (by shared top-10 results, then by words) |
//! | personas | [`personas::PersonaGenerator`] ([`OfflinePersonaGenerator`](personas::OfflinePersonaGenerator)) | [`PersonaInput`](personas::PersonaInput) (keywords and the primary site's [`SiteProfile`](personas::SiteProfile), from its pages) → [`PersonaSet`](personas::PersonaSet): 3 to 6 personas, none over half of the keywords, and each keyword's persona or none |
//! | persona model | [`personas::model::PersonaModel`] (async; kr-aws's Bedrock adapter) | [`PersonaInput`](personas::PersonaInput) and the crawled pages → [`Outcome`](personas::model::Outcome): the model's personas or the deterministic ones, and what the request cost; the request is [`personas::model::prompt`], its answer read by [`personas::model::answer`] |
//! | brief wording | [`brief::wording`] (the request and reading of kr-core's `BriefWriter`) | a `ClusterBrief` → the model's request; its answer → `BriefWording` or why refused |
//! | AI questions | [`ai_prompts::ai_prompts`] | clusters, keywords, personas → the questions put to answer engines, best cluster first (the rule is in the module) |
//! | scores | [`scores::score`] | [`ScoreInput`](scores::ScoreInput), [`ScoreConfig`](scores::ScoreConfig) → [`Scores`](scores::Scores) (organic 0..100, paid 0..100, USD/month) |
//! | all | [`research::research`] | pages, [`ResearchInput`](research::ResearchInput) → [`ResearchOutput`](research::ResearchOutput) |
//! | assembly | [`research::assemble`] | candidates + one [`Measured`](research::Measured) each (metrics, source, rankings, intent, SERP) → keyword, cluster and persona records |
//!
//! The records of [`research::ResearchOutput`] serialise as the API contract's Keyword,
//! Cluster and Persona records (camelCase, nulls kept).
//!
//! # Other entry points
//!
//! - [`discovery::discover_all`]: every candidate, untruncated.
//! - [`discovery::extract_keyphrases`]: keyphrases of one document (text or HTML).
//! - [`discovery::strip_html`]: visible text of an HTML document.
//! - [`text`]: [`Language`](text::Language) (parsed from "en", "pt-BR", "zh-TW", ...),
//!   [`Tokenizer`](text::Tokenizer), [`Analyzer`](text::Analyzer) (stop words for en, de,
//!   fr, es, it, pt, nl; Snowball stemming), [`normalize`](text::normalize).
//! - [`clusters::normalize_url`]: the form in which SERP clustering compares result URLs.
//! - [`scores::click_through_rate`]: the organic CTR curve used for opportunity values.
//!
//! # Languages
//!
//! Stop words, intent cues and persona cues exist for English, German, French, Spanish,
//! Italian, Portuguese and Dutch; Snowball stemming for those and the other languages
//! rust-stemmers supports. Any other language still works: no stop words, no stemming,
//! English intent cues, and ideographs treated as one-character words.

pub mod ai_prompts;
pub mod brief;
pub mod clusters;
pub mod discovery;
pub mod intent;
pub mod metrics;
pub mod offline;
pub mod personas;
pub mod plan;
pub mod research;
pub mod scores;
pub mod serp_page;
pub mod text;

pub use kr_core::dataset::{PageContent, SiteRole};
