//! Keyphrases of a single document (an article, an abstract, one page), without any corpus.
//!
//! The method is SingleRank/PositionRank-like, adapted to work without a part-of-speech
//! tagger: candidates are the maximal runs of content words between stop words, weak words
//! and punctuation (an approximation of noun phrases); words are ranked by a biased PageRank
//! over their co-occurrence graph; a candidate scores the sum of its word scores times its
//! length (gold keyphrases are mostly 2-3 word noun phrases, and summing already favours
//! them), times a mild boost for repeated candidates.

use std::collections::{HashMap, HashSet};

use super::html::{looks_like_html, strip_html};
use crate::text::{is_numeric_word, join_words, Analyzer, Language};

/// Words per candidate at most; longer runs of content words are split.
const MAX_WORDS: usize = 5;
/// Content words closer than this (in words, stop words included) are linked in the graph.
/// Tuned on Inspec: linking only neighbours (2) beat the customary 10.
const WINDOW: usize = 2;
const DAMPING: f64 = 0.85;
const ITERATIONS: usize = 50;
/// Share of the random walk's restart that favours early words (PositionRank); the rest is
/// uniform. Authors state their topic early, but abstracts are short, so the bias is mild.
const POSITION_BIAS: f64 = 0.3;
/// Exponent of the boost for a candidate seen several times.
const REPETITION_EXPONENT: f64 = 0.3;

/// The best `limit` keyphrases of `document` (plain text or HTML), best first, deduplicated
/// by stem sequence and shown in their first surface form.
pub fn extract_keyphrases(document: &str, language: &Language, limit: usize) -> Vec<String> {
    let text = if looks_like_html(document) {
        strip_html(document)
    } else {
        document.to_string()
    };
    let analyzer = Analyzer::new(language);
    let filter = WordFilter::new(&analyzer);
    let document = Document::read(&text, &analyzer, &filter);
    let word_scores = document.rank_words();

    let mut phrases: HashMap<&[usize], Phrase> = HashMap::new();
    for (index, candidate) in document.candidates.iter().enumerate() {
        let phrase = phrases.entry(&candidate.stems).or_insert(Phrase {
            first: index,
            occurrences: 0,
            surfaces: Vec::new(),
        });
        phrase.occurrences += 1;
        match phrase
            .surfaces
            .iter_mut()
            .find(|(s, _)| *s == candidate.surface)
        {
            Some((_, count)) => *count += 1,
            None => phrase.surfaces.push((&candidate.surface, 1)),
        }
    }
    let mut ranked: Vec<(f64, &Phrase)> = phrases
        .iter()
        .map(|(stems, phrase)| {
            let sum: f64 = stems.iter().map(|&stem| word_scores[stem]).sum();
            let score =
                sum * stems.len() as f64 * (phrase.occurrences as f64).powf(REPETITION_EXPONENT);
            (score, phrase)
        })
        .collect();
    ranked.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.first.cmp(&b.1.first)));
    ranked
        .into_iter()
        .take(limit)
        .map(|(_, phrase)| phrase.display_form().to_string())
        .collect()
}

struct Phrase<'a> {
    /// Index of the first candidate with this stem sequence, to break score ties by position.
    first: usize,
    occurrences: usize,
    /// Surface forms in order of first appearance, with their counts.
    surfaces: Vec<(&'a str, usize)>,
}

impl Phrase<'_> {
    /// The most frequent surface form; the earliest among equally frequent ones.
    fn display_form(&self) -> &str {
        let mut best = self.surfaces[0];
        for &(surface, count) in &self.surfaces[1..] {
            if count > best.1 {
                best = (surface, count);
            }
        }
        best.0
    }
}

struct Candidate {
    stems: Vec<usize>,
    surface: String,
}

/// The document as the extractor sees it: content-word stems with their positions, and the
/// candidate phrases.
struct Document {
    stem_count: usize,
    /// (position in the word stream, stem id) of every content word, in order.
    content_words: Vec<(usize, usize)>,
    candidates: Vec<Candidate>,
}

impl Document {
    fn read(text: &str, analyzer: &Analyzer, filter: &WordFilter) -> Document {
        let mut stem_ids: HashMap<String, usize> = HashMap::new();
        let mut content_words = Vec::new();
        let mut candidates = Vec::new();
        let mut position = 0;
        analyzer.tokenizer().for_each_segment(text, |words| {
            let mut run: Vec<(&str, usize)> = Vec::new();
            for word in words {
                let stem = analyzer.stem(word);
                if filter.is_content_word(word, &stem) {
                    let next_id = stem_ids.len();
                    let id = *stem_ids.entry(stem.into_owned()).or_insert(next_id);
                    content_words.push((position, id));
                    run.push((word, id));
                } else {
                    filter.push_candidates(&run, &mut candidates);
                    run.clear();
                }
                position += 1;
            }
            filter.push_candidates(&run, &mut candidates);
            // Separate segments, so that words across punctuation are never linked.
            position += WINDOW;
        });
        Document {
            stem_count: stem_ids.len(),
            content_words,
            candidates,
        }
    }

    /// Biased PageRank over the co-occurrence graph of content words, edges weighted by how
    /// often two words appear within the window (SingleRank, Wan & Xiao 2008), restarting in
    /// part at early words (PositionRank, Florescu & Caragea 2017).
    fn rank_words(&self) -> Vec<f64> {
        let n = self.stem_count;
        let mut edges: HashMap<(usize, usize), f64> = HashMap::new();
        for (i, &(position, stem)) in self.content_words.iter().enumerate() {
            for &(other_position, other) in &self.content_words[i + 1..] {
                if other_position - position >= WINDOW {
                    break;
                }
                if other != stem {
                    *edges.entry((stem.min(other), stem.max(other))).or_default() += 1.0;
                }
            }
        }
        let mut neighbours: Vec<Vec<(usize, f64)>> = vec![Vec::new(); n];
        let mut sorted_edges: Vec<_> = edges.into_iter().collect();
        // HashMap order varies between runs; summation order must not.
        sorted_edges.sort_by_key(|&(pair, _)| pair);
        for ((a, b), weight) in sorted_edges {
            neighbours[a].push((b, weight));
            neighbours[b].push((a, weight));
        }
        let strength: Vec<f64> = neighbours
            .iter()
            .map(|edges| edges.iter().map(|(_, w)| w).sum())
            .collect();

        let mut restart = vec![0.0; n];
        for (index, &(_, stem)) in self.content_words.iter().enumerate() {
            restart[stem] += 1.0 / (index as f64 + 1.0);
        }
        let total: f64 = restart.iter().sum();
        for r in &mut restart {
            *r = POSITION_BIAS * *r / total * n as f64 + (1.0 - POSITION_BIAS);
        }

        let mut scores = vec![1.0; n];
        for _ in 0..ITERATIONS {
            let mut next: Vec<f64> = restart.iter().map(|r| (1.0 - DAMPING) * r).collect();
            for (node, edges) in neighbours.iter().enumerate() {
                for &(other, weight) in edges {
                    next[node] += DAMPING * weight / strength[other] * scores[other];
                }
            }
            scores = next;
        }
        scores
    }
}

/// Decides which words may be part of a keyphrase: not stop words, numbers, single letters,
/// nor (in English) the weak words that make a run of words a clause rather than a noun
/// phrase. Without a part-of-speech tagger this list is what keeps "proposed method" from
/// beating "neural network".
struct WordFilter<'a> {
    analyzer: &'a Analyzer,
    english: bool,
    weak_stems: HashSet<String>,
    weak_words: HashSet<&'static str>,
}

impl<'a> WordFilter<'a> {
    fn new(analyzer: &'a Analyzer) -> Self {
        let english = analyzer.language().code() == "en";
        let mut weak_stems = HashSet::new();
        let mut weak_words = HashSet::new();
        if english {
            for line in include_str!("weak_words_en.txt").lines().map(str::trim) {
                if line.is_empty() || line.starts_with('#') {
                    continue;
                }
                match line.strip_prefix('=') {
                    Some(exact) => {
                        weak_words.insert(exact);
                    }
                    None => {
                        weak_stems.insert(analyzer.stem(line).into_owned());
                    }
                }
            }
        }
        WordFilter {
            analyzer,
            english,
            weak_stems,
            weak_words,
        }
    }

    fn is_content_word(&self, word: &str, stem: &str) -> bool {
        !self.analyzer.is_stop_word(word)
            && !is_numeric_word(word)
            && word.chars().count() > 1
            && !self.weak_words.contains(word)
            && !self.weak_stems.contains(stem)
    }

    /// Turns a run of content words into candidates of at most `MAX_WORDS` words. In English
    /// a leading "-ing" word is usually a verb ("supplying web-based platforms"), so it is
    /// dropped; inside or at the end it is usually a noun ("signal processing").
    fn push_candidates(&self, run: &[(&str, usize)], candidates: &mut Vec<Candidate>) {
        let mut start = 0;
        while self.english && run.len() - start > 1 && run[start].0.ends_with("ing") {
            start += 1;
        }
        for chunk in run[start..].chunks(MAX_WORDS) {
            let words: Vec<&str> = chunk.iter().map(|(word, _)| *word).collect();
            candidates.push(Candidate {
                stems: chunk.iter().map(|(_, stem)| *stem).collect(),
                surface: join_words(&words),
            });
        }
    }
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
        assert_eq!(unknown[0], "alpha beta gamma");
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
}
