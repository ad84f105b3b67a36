//! AI citations gained and lost between two runs (`ai_citations`).

use kr_core::dataset::{AiOverview, AiReference, ClusterRecord, KeywordRecord};

use super::ai_citations::{compare as compare_ai, AnswerSeen, Followed};
use super::compare::{compare, Differences, RunView};

const SITE: &str = "brightbrew-coffee.com";
const RIVAL: &str = "roastrivals.com";
const OTHER: &str = "kettleandcrema.com";

/// A keyword whose results page was read (`Some`: the overview's cited addresses, empty for
/// no overview) or not (`None`).
fn keyword(text: &str, cluster: &str, cited: Option<&[&str]>) -> KeywordRecord {
    let ai_overview = cited.map(|urls| {
        let references: Vec<AiReference> = urls
            .iter()
            .filter_map(|url| AiReference::new(url, None, None))
            .collect();
        let shown = (!urls.is_empty()).then_some(references.as_slice());
        AiOverview::from_serp(shown, SITE, &[RIVAL, OTHER])
    });
    KeywordRecord {
        keyword: text.into(),
        search_volume: Some(100),
        cluster_id: cluster.into(),
        ai_overview,
        ..KeywordRecord::default()
    }
}

fn run(keywords: Vec<KeywordRecord>, answers: Vec<AnswerSeen>) -> RunView {
    let clusters =
        [("c-1", "cold brew", 5000), ("c-2", "moka pot", 800)].map(|(id, name, v)| ClusterRecord {
            id: id.into(),
            name: name.into(),
            total_search_volume: v,
            ..ClusterRecord::default()
        });
    let mut view = RunView::new(keywords.into_iter(), &clusters, &[], SITE);
    view.answers = answers;
    view
}

fn differences(now: &RunView, before: &RunView) -> Differences {
    let mut out = compare(now, before);
    compare_ai(now, before, &Followed::new(SITE, &[RIVAL, OTHER]), &mut out);
    out
}

/// (domain, source, keyword or prompt) of each entry.
fn entries(list: &[super::AiCitationChange]) -> Vec<(String, String, String)> {
    list.iter()
        .map(|c| {
            let subject = c.keyword.clone().or(c.prompt.clone()).unwrap();
            (c.domain.clone(), c.source.clone(), subject)
        })
        .collect()
}

fn own(triples: &[(&str, &str, &str)]) -> Vec<(String, String, String)> {
    triples
        .iter()
        .map(|(a, b, c)| (a.to_string(), b.to_string(), c.to_string()))
        .collect()
}

#[test]
fn overview_citations_gained_and_lost_per_keyword_read_in_both_runs() {
    let before = run(
        vec![
            keyword(
                "cold brew ratio",
                "c-1",
                Some(&["https://roastrivals.com/ratio"]),
            ),
            keyword(
                "moka pot guide",
                "c-2",
                Some(&[
                    "https://www.brightbrew-coffee.com/moka",
                    "https://kettleandcrema.com/moka",
                ]),
            ),
            keyword("cold brew concentrate", "c-1", None),
            keyword("gone keyword", "c-1", Some(&["https://roastrivals.com/x"])),
        ],
        Vec::new(),
    );
    let now = run(
        vec![
            // The site is now cited (through a subdomain), the rival no longer.
            keyword(
                "Cold Brew Ratio",
                "c-1",
                Some(&["https://blog.brightbrew-coffee.com/ratio"]),
            ),
            // No overview any more: both citations lost.
            keyword("moka pot guide", "c-2", Some(&[])),
            // Not read before: says nothing.
            keyword(
                "cold brew concentrate",
                "c-1",
                Some(&["https://roastrivals.com/c"]),
            ),
            // New to the job: says nothing either.
            keyword("new keyword", "c-1", Some(&["https://roastrivals.com/n"])),
        ],
        Vec::new(),
    );
    let out = differences(&now, &before);
    assert!(out.ai_citations_compared);
    assert_eq!(
        entries(&out.ai_citations_gained),
        own(&[(SITE, "ai_overview", "Cold Brew Ratio")])
    );
    assert_eq!(
        entries(&out.ai_citations_lost),
        own(&[
            (SITE, "ai_overview", "moka pot guide"),
            (RIVAL, "ai_overview", "Cold Brew Ratio"),
            (OTHER, "ai_overview", "moka pot guide"),
        ]),
        "the site's first, then the cluster with the most volume"
    );
    let gained = &out.ai_citations_gained[0];
    assert!(gained.site);
    assert_eq!(
        (gained.cluster_id.as_str(), gained.cluster_name.as_str()),
        ("c-1", "cold brew")
    );
    assert_eq!(gained.prompt, None);
    assert_eq!(
        (
            out.counts().ai_citations_gained,
            out.counts().ai_citations_lost
        ),
        (1, 3)
    );
}

#[test]
fn answer_citations_are_compared_per_engine_and_question() {
    let answer = |engine: &str, prompt: &str, urls: &[&str]| {
        let urls: Vec<String> = urls.iter().map(|u| u.to_string()).collect();
        AnswerSeen::new(engine, prompt, "c-2", &urls)
    };
    let before = run(
        Vec::new(),
        vec![
            answer(
                "chat_gpt",
                "How to use a moka pot?",
                &["https://roastrivals.com/a"],
            ),
            answer("perplexity", "How to use a moka pot?", &[]),
            answer("perplexity", "Asked once?", &[]),
        ],
    );
    let now = run(
        Vec::new(),
        vec![
            answer(
                "chat_gpt",
                "How to use a moka pot?",
                &[
                    "https://roastrivals.com/b",
                    "https://brightbrew-coffee.com/moka",
                ],
            ),
            answer(
                "perplexity",
                "How to use a moka pot?",
                &["javascript:alert(1)", "https://shop.kettleandcrema.com/p"],
            ),
            answer(
                "gemini",
                "How to use a moka pot?",
                &["https://roastrivals.com/b"],
            ),
        ],
    );
    let out = differences(&now, &before);
    assert!(out.ai_citations_compared);
    assert_eq!(
        entries(&out.ai_citations_gained),
        own(&[
            (SITE, "chat_gpt", "How to use a moka pot?"),
            (OTHER, "perplexity", "How to use a moka pot?"),
        ]),
        "the rival stays cited on chat_gpt; gemini was not asked before"
    );
    assert!(out.ai_citations_lost.is_empty());
    assert_eq!(out.ai_citations_gained[0].cluster_name, "moka pot");
    assert_eq!(out.ai_citations_gained[0].keyword, None);
}

#[test]
fn runs_without_results_pages_or_answers_compare_no_citations() {
    let before = run(vec![keyword("cold brew ratio", "c-1", None)], Vec::new());
    let now = run(
        vec![keyword(
            "cold brew ratio",
            "c-1",
            Some(&["https://brightbrew-coffee.com/"]),
        )],
        Vec::new(),
    );
    let out = differences(&now, &before);
    assert!(!out.ai_citations_compared);
    assert!(out.ai_citations_gained.is_empty() && out.ai_citations_lost.is_empty());
}
