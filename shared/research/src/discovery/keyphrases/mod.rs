//! Keyphrases of a single document (an article, an abstract, one page), without any corpus.
//!
//! Candidates are the sub-phrases (1 to 4 words) of runs of content words between stop
//! words, weak words and punctuation: an approximation of noun phrases without a
//! part-of-speech tagger. Each scores its position-weighted frequency times a length prior
//! times how frequent its words are in the document:
//!
//! ```text
//! weight(c)   = Σ_occurrences 1 / (1 + position / POSITION_SCALE)^POSITION_EXPONENT
//! words(c)    = mean over the words w of c of ln(1 + tf(w))
//! score(c)    = weight(c) × LENGTH_PRIOR[len(c)] × words(c)^WORD_EXPONENT
//! ```
//!
//! Authors state their topic early (title, abstract, introduction), so early occurrences
//! count most; a phrase made of the document's frequent words is about its topic. The best
//! ones are taken in order, skipping a phrase nested in one already taken unless it also
//! occurs often on its own.

mod document;

use super::html::{looks_like_html, strip_html};
use crate::text::{Analyzer, Language};
use document::{Candidate, Document, WordFilter, MAX_WORDS};

/// Words into the document at which an occurrence counts half as much (with
/// `POSITION_EXPONENT` 0.5: at 3 × this scale). Tuned on the tune split of the dev corpora.
const POSITION_SCALE: f64 = 200.0;
const POSITION_EXPONENT: f64 = 0.5;
/// How much a candidate's words' own frequency counts against its phrase frequency.
const WORD_EXPONENT: f64 = 1.5;
/// Prior by length in words: single words are rarely the keyphrase a reader would pick
/// (they are often generic), two- to four-word noun phrases usually are.
const LENGTH_PRIOR: [f64; MAX_WORDS] = [0.5, 1.5, 2.0, 2.0];
/// A phrase nested in one already taken ("network" in "neural network") is taken too only
/// if it occurs at least 1 / NESTED_SHARE times as often, that is, also on its own.
const NESTED_SHARE: f64 = 0.8;

/// The best `limit` keyphrases of `document` (plain text or HTML), best first, deduplicated
/// by stem sequence and shown in their most frequent surface form.
pub fn extract_keyphrases(document: &str, language: &Language, limit: usize) -> Vec<String> {
    let text = if looks_like_html(document) {
        strip_html(document)
    } else {
        document.to_string()
    };
    let analyzer = Analyzer::new(language);
    let filter = WordFilter::new(&analyzer);
    let document = Document::read(&text, &analyzer, &filter);
    let mut ranked: Vec<(f64, &Candidate)> = document
        .candidates
        .iter()
        .map(|candidate| (score(candidate, &document), candidate))
        .collect();
    ranked.sort_by(|a, b| {
        b.0.total_cmp(&a.0)
            .then(a.1.positions[0].cmp(&b.1.positions[0]))
            .then(a.1.stems.len().cmp(&b.1.stems.len()))
    });
    let mut chosen: Vec<&Candidate> = Vec::new();
    for (_, candidate) in ranked {
        if chosen.len() == limit {
            break;
        }
        let nested_in = chosen
            .iter()
            .filter(|other| contains(&other.stems, &candidate.stems))
            .map(|other| other.positions.len())
            .max();
        if let Some(outer) = nested_in {
            if (candidate.positions.len() as f64) < outer as f64 / NESTED_SHARE {
                continue;
            }
        }
        chosen.push(candidate);
    }
    chosen
        .into_iter()
        .map(|candidate| candidate.display_form().to_string())
        .collect()
}

fn score(candidate: &Candidate, document: &Document) -> f64 {
    let weight: f64 = candidate
        .positions
        .iter()
        .map(|&p| (1.0 + p as f64 / POSITION_SCALE).powf(-POSITION_EXPONENT))
        .sum();
    let words = candidate
        .stems
        .iter()
        .map(|&stem| (1.0 + document.stem_counts[stem] as f64).ln())
        .sum::<f64>()
        / candidate.stems.len() as f64;
    weight * LENGTH_PRIOR[candidate.stems.len() - 1] * words.powf(WORD_EXPONENT)
}

/// Whether `inner` is a contiguous part of a longer `outer`.
fn contains(outer: &[usize], inner: &[usize]) -> bool {
    outer.len() > inner.len() && outer.windows(inner.len()).any(|w| w == inner)
}

#[cfg(test)]
mod tests {
    use super::*;

    const ABSTRACT: &str = "Neural network controllers for nonlinear systems. \
        We propose a neural network controller that learns the dynamics of nonlinear systems \
        online. The neural network controller is trained with a stable adaptation law, and \
        simulation results on a robot arm show that nonlinear systems are tracked closely.";

    #[test]
    fn favours_repeated_multi_word_noun_phrases() {
        let phrases = extract_keyphrases(ABSTRACT, &Language::english(), 5);
        assert_eq!(phrases[0], "neural network controller");
        assert!(
            phrases.contains(&"nonlinear systems".to_string()),
            "{phrases:?}"
        );
        for phrase in &phrases {
            assert!(!phrase.starts_with("propose"), "{phrase}");
            assert!(
                !phrase.split(' ').any(|w| w == "the" || w == "we"),
                "{phrase}"
            );
        }
    }

    #[test]
    fn merges_stem_variants() {
        let phrases = extract_keyphrases(ABSTRACT, &Language::english(), 20);
        let network_controllers = phrases
            .iter()
            .filter(|p| p.starts_with("neural network controller"))
            .count();
        assert_eq!(network_controllers, 1, "{phrases:?}");
    }

    #[test]
    fn reads_html() {
        let html = "<html><head><title>Trail running shoes</title>\
                    <script>var trail = 'ignored script words';</script></head>\
                    <body><p>Trail running shoes for wet rock. Our trail running shoes are \
                    light.</p></body></html>";
        let phrases = extract_keyphrases(html, &Language::english(), 3);
        assert_eq!(phrases[0], "trail running shoes");
        assert!(phrases.iter().all(|p| !p.contains("script")), "{phrases:?}");
        // The operator CLI's example page (tests/admin).
        let html = "<html><head><title>Pour over coffee guide</title></head><body>\
                    <h1>Pour over coffee</h1><p>A pour over coffee kettle and a burr grinder \
                    make better pour over coffee.</p></body></html>";
        let phrases = extract_keyphrases(html, &Language::english(), 50);
        assert!(phrases.contains(&"burr grinder".to_string()), "{phrases:?}");
    }

    #[test]
    fn works_for_other_and_unknown_languages() {
        let german = extract_keyphrases(
            "Die besten Laufschuhe für Trailrunning. Laufschuhe und Trailrunning Zubehör.",
            &Language::new("de"),
            3,
        );
        assert!(
            german.iter().any(|p| p.contains("laufschuhe")),
            "{german:?}"
        );
        assert!(german.iter().all(|p| !p.starts_with("die ")), "{german:?}");
        let unknown = extract_keyphrases("alpha beta gamma. alpha beta.", &Language::new("xx"), 2);
        assert_eq!(unknown, vec!["alpha beta", "alpha beta gamma"]);
    }

    #[test]
    fn is_deterministic_and_respects_the_limit() {
        let first = extract_keyphrases(ABSTRACT, &Language::english(), 4);
        assert_eq!(first.len(), 4);
        for _ in 0..5 {
            assert_eq!(extract_keyphrases(ABSTRACT, &Language::english(), 4), first);
        }
        assert!(extract_keyphrases("", &Language::english(), 10).is_empty());
    }

    #[test]
    fn finds_a_recurring_phrase_inside_longer_runs_of_content_words() {
        // "support vector machines" never stands alone between stop words: only a
        // candidate made of sub-phrases of the runs can find it.
        let text = "Linear support vector machines classify text. Kernel support vector \
                    machines training differs. Sparse support vector machines models win. \
                    Budget support vector machines solvers scale.";
        let phrases = extract_keyphrases(text, &Language::english(), 3);
        assert_eq!(phrases[0], "support vector machines", "{phrases:?}");
    }

    #[test]
    fn early_and_repeated_phrases_beat_late_one_offs_in_a_long_document() {
        let mut text = String::from("Soil erosion control on hillside farms. ");
        text.push_str("Soil erosion reduces yields, and soil erosion control pays. ");
        for i in 0..300 {
            text.push_str(&format!("It is {i}, and so are all of them. "));
        }
        text.push_str("Appendix tables list regional rainfall stations.");
        let phrases = extract_keyphrases(&text, &Language::english(), 3);
        assert!(
            phrases[..2].contains(&"soil erosion control".to_string())
                && phrases[..2].contains(&"soil erosion".to_string()),
            "{phrases:?}"
        );
        assert!(
            !phrases.iter().any(|p| p.contains("rainfall")),
            "{phrases:?}"
        );
    }
}
