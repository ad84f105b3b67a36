//! Keyword ideas as keyword tools make them: the site's offerings × the language's modifiers
//! × the places it serves, kept only where the pieces fit.
//!
//! - A service (a local or home trade, or offerings that say what is done) takes the service
//!   patterns ("{} cost", "{} near me", "{} quote") and its places ("roof repair irvington",
//!   with the state code the site writes after them: "roof repair irvington nj").
//! - A thing a home service works on ("skylights") takes what is done to it instead ("skylight
//!   repair", "skylight installation"), and its places through the first of those ("skylight
//!   repair irvington", never "skylights irvington").
//! - Another thing a local business provides ("egg sandwiches", "dental implants") takes
//!   "best {}" and "{} near me" (a quote or a company is for services), and its places
//!   ("wedding cakes staten island").
//! - A product takes the shopping patterns ("buy {}", "best {}", "{} price").
//!
//! Ideas come from the [`IDEA_OFFERINGS`] most prominent offerings and the [`IDEA_PLACES`]
//! most mentioned places. An idea ranks below what it is made from: its offering's discovery
//! score (the median kept score when the offering was not itself found) times
//! [`MODIFIER_SHARE`], or [`PLACE_SHARE`] with a place, [`STATE_SHARE`] with its state too.

use kr_core::dataset::KeywordSource;

use super::topic::{Kind, Offering, Topic};
use crate::discovery::{Candidate, Prominence};
use crate::text::{join_words, Language};

pub const IDEA_OFFERINGS: usize = 10;
pub const IDEA_PLACES: usize = 3;
pub const MODIFIER_SHARE: f64 = 0.6;
pub const PLACE_SHARE: f64 = 0.5;
pub const STATE_SHARE: f64 = 0.45;
/// The longest idea, as discovery's longest phrase.
const MAX_WORDS: usize = 5;

/// Ideas for `topic`, scored against the `kept` crawl phrases.
pub(super) fn ideas(topic: &Topic, kept: &[Candidate], language: &Language) -> Vec<Candidate> {
    let Some(lexicon) = topic.lexicon.filter(|_| !topic.from_headings) else {
        return Vec::new();
    };
    let median = median_score(kept);
    let mut out = Vec::new();
    for offering in topic.offerings.iter().take(IDEA_OFFERINGS) {
        let name = offering.name();
        let found = kept.iter().find(|c| c.keyword == name);
        let base = found.map_or(median, |c| c.score);
        let share = found.map_or(0.0, |c| c.site_share);
        // An idea with a place is estimated as its offering, of which the place takes a share
        // (`metrics`): it carries the offering's prominence, so that share is of the
        // offering's own estimate. Other ideas are phrases of their own, used nowhere.
        let (prominence, site_count) =
            found.map_or((Prominence::default(), 0), |c| (c.prominence, c.site_count));
        let mut add = |keyword: String, factor: f64, placed: bool| {
            let words = topic.analyzer().tokenizer().words(&keyword);
            if words.len() <= MAX_WORDS {
                let mut idea = idea(join_words(&words), base * factor, share);
                if placed {
                    idea.prominence = prominence;
                    idea.site_count = site_count;
                }
                out.push(idea);
            }
        };
        let (patterns, filled) = match topic.kind {
            Kind::Product => (lexicon.product, name.clone()),
            Kind::Service { for_homeowners } if for_homeowners && offering.thing => (
                lexicon.home_service_object,
                singular_thing(offering, language),
            ),
            Kind::Service { .. } if offering.thing => (lexicon.local_thing, name.clone()),
            Kind::Service { .. } => (lexicon.service, name.clone()),
        };
        for pattern in patterns {
            add(fill(pattern, &filled), MODIFIER_SHARE, false);
        }
        // Places go with what is done ("roof repair irvington") and with what a local
        // business provides ("wedding cakes staten island"); a thing a home service works on
        // takes them through its first deed ("skylight repair irvington", never "skylights
        // irvington"), as a share of that deed's idea; a product a shop sends anywhere takes
        // none.
        let placed = match topic.kind {
            Kind::Product => None,
            Kind::Service { for_homeowners } if for_homeowners && offering.thing => patterns
                .first()
                .map(|deed| (fill(deed, &filled), MODIFIER_SHARE)),
            Kind::Service { .. } => Some((name.clone(), 1.0)),
        };
        if let Some((local, share)) = placed {
            for place in topic.places.iter().take(IDEA_PLACES) {
                add(format!("{local} {place}"), share * PLACE_SHARE, true);
                if let Some(state) = topic.state {
                    add(
                        format!("{local} {place} {state}"),
                        share * STATE_SHARE,
                        true,
                    );
                }
            }
        }
    }
    out
}

fn fill(pattern: &str, offering: &str) -> String {
    pattern.replacen("{}", offering, 1)
}

/// "skylights" → "skylight" for "skylight repair" (an English plural); otherwise the name
/// as written.
fn singular_thing(offering: &Offering, language: &Language) -> String {
    let name = offering.name();
    if language.code() != "en" {
        return name;
    }
    match name.strip_suffix('s') {
        Some(stem) if !stem.ends_with('s') && stem.chars().count() > 3 => stem.to_string(),
        _ => name,
    }
}

fn idea(keyword: String, score: f64, site_share: f64) -> Candidate {
    Candidate {
        word_count: keyword.split(' ').count(),
        keyword,
        score,
        primary_occurrences: 0,
        competitor_occurrences: 0,
        page_count: 0,
        site_count: 0,
        site_share,
        in_primary: false,
        competitor_sites: 0,
        content_gap: false,
        prominence: Prominence::default(),
        source: KeywordSource::Idea,
    }
}

fn median_score(candidates: &[Candidate]) -> f64 {
    let mut scores: Vec<f64> = candidates.iter().map(|c| c.score).collect();
    if scores.is_empty() {
        return 1.0;
    }
    scores.sort_by(f64::total_cmp);
    scores[scores.len() / 2]
}
