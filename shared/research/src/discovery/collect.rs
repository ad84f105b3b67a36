//! One pass over the crawled pages: every candidate phrase with where and how often it occurs.

use std::collections::HashMap;

use super::fields::Field;
use crate::personas::lexicon::persona_cues;
use crate::text::{is_numeric_word, Analyzer};
use crate::{PageContent, SiteRole};

/// Longest candidate phrase, in words.
pub(crate) const MAX_PHRASE_WORDS: usize = 5;

/// Up to five word or stem ids; 0 marks an unused slot (ids start at 1). A fixed-size key
/// keeps hashing cheap for the hundreds of thousands of n-grams of a large crawl.
pub(crate) type Ids = [u32; MAX_PHRASE_WORDS];

/// A distinct normalised word and what the analyzer says about it, computed once.
pub(crate) struct Word {
    pub text: String,
    pub stem: u32,
    pub stop: bool,
    pub numeric: bool,
}

/// Interns words and stems so that each distinct word is stemmed once.
pub(crate) struct Vocabulary<'a> {
    analyzer: &'a Analyzer,
    /// Word id sequences a phrase may end with although they end in a stop word: "near me"
    /// and its translations, the commonest local-search modifier.
    allowed_endings: Vec<Vec<u32>>,
    word_ids: HashMap<String, u32>,
    stem_ids: HashMap<String, u32>,
    /// Indexed by word id; slot 0 is a placeholder.
    pub words: Vec<Word>,
}

impl<'a> Vocabulary<'a> {
    pub fn new(analyzer: &'a Analyzer) -> Self {
        let mut vocabulary = Vocabulary {
            analyzer,
            allowed_endings: Vec::new(),
            word_ids: HashMap::new(),
            stem_ids: HashMap::new(),
            words: vec![Word {
                text: String::new(),
                stem: 0,
                stop: true,
                numeric: false,
            }],
        };
        let tokenizer = *analyzer.tokenizer();
        for cue in persona_cues(analyzer.language()).local {
            let words = tokenizer.words(cue);
            if words.len() > 1 && words.last().is_some_and(|w| analyzer.is_stop_word(w)) {
                let ids = words.iter().map(|w| vocabulary.intern(w)).collect();
                vocabulary.allowed_endings.push(ids);
            }
        }
        vocabulary
    }

    pub fn analyzer(&self) -> &'a Analyzer {
        self.analyzer
    }

    pub fn intern(&mut self, word: &str) -> u32 {
        if let Some(&id) = self.word_ids.get(word) {
            return id;
        }
        let stem_text = self.analyzer.stem(word);
        let next_stem = self.stem_ids.len() as u32 + 1;
        let stem = match self.stem_ids.get(stem_text.as_ref()) {
            Some(&id) => id,
            None => {
                self.stem_ids.insert(stem_text.into_owned(), next_stem);
                next_stem
            }
        };
        let id = self.words.len() as u32;
        self.words.push(Word {
            text: word.to_string(),
            stem,
            stop: self.analyzer.is_stop_word(word),
            numeric: is_numeric_word(word),
        });
        self.word_ids.insert(word.to_string(), id);
        id
    }
}

/// A phrase's presence on one site.
#[derive(Debug, Clone)]
pub(crate) struct SiteStats {
    /// 0 for the primary site, 1 + index for competitor sites.
    pub site: usize,
    /// Sum over the site's pages of Σ_field weight × (1 + ln count).
    pub weighted_tf: f64,
    pub pages: usize,
    pub occurrences: usize,
}

/// Everything discovery knows about one phrase (one stem sequence).
pub(crate) struct PhraseStats {
    pub stems: Ids,
    pub len: usize,
    /// Occurrences per field, indexed by `Field::index`.
    pub fields: [usize; 7],
    /// Surface forms (word id sequences) with their occurrence counts, in order of first use.
    pub surfaces: Vec<(Ids, usize)>,
    pub sites: Vec<SiteStats>,
    pub pages: usize,
}

/// All phrases of a crawl.
pub(crate) struct Collection<'a> {
    pub vocabulary: Vocabulary<'a>,
    pub phrases: Vec<PhraseStats>,
    /// Pages crawled per site, indexed like `SiteStats::site`; 0 for a site without pages.
    pub pages_per_site: Vec<usize>,
}

/// Site index of a page. A page without a role is taken as the primary site's: that is what
/// a caller analysing one site's own pages (the operator CLI) means.
pub(crate) fn site_index(page: &PageContent) -> usize {
    match page.site {
        None | Some(SiteRole::Primary) => 0,
        Some(SiteRole::Competitor(index)) => index + 1,
    }
}

pub(crate) fn collect<'a>(pages: &[PageContent], analyzer: &'a Analyzer) -> Collection<'a> {
    let tokenizer = *analyzer.tokenizer();
    let mut vocabulary = Vocabulary::new(analyzer);
    let mut index: HashMap<Ids, u32> = HashMap::new();
    let mut phrases: Vec<PhraseStats> = Vec::new();
    let mut pages_per_site: Vec<usize> = Vec::new();
    let mut page_counts: HashMap<u32, [usize; 7]> = HashMap::new();
    let mut ids: Vec<u32> = Vec::new();

    for page in pages {
        let site = site_index(page);
        if pages_per_site.len() <= site {
            pages_per_site.resize(site + 1, 0);
        }
        pages_per_site[site] += 1;
        page_counts.clear();
        for field in Field::ALL {
            for text in field.texts(page) {
                tokenizer.for_each_segment(text, |words| {
                    ids.clear();
                    ids.extend(words.iter().map(|word| vocabulary.intern(word)));
                    for_each_phrase(&ids, &vocabulary, |surface, stems, len| {
                        let next = phrases.len() as u32;
                        let phrase = *index.entry(stems).or_insert(next);
                        if phrase == next {
                            phrases.push(PhraseStats {
                                stems,
                                len,
                                fields: [0; 7],
                                surfaces: Vec::new(),
                                sites: Vec::new(),
                                pages: 0,
                            });
                        }
                        let stats = &mut phrases[phrase as usize];
                        match stats.surfaces.iter_mut().find(|(s, _)| *s == surface) {
                            Some((_, count)) => *count += 1,
                            None => stats.surfaces.push((surface, 1)),
                        }
                        page_counts.entry(phrase).or_insert([0; 7])[field.index()] += 1;
                    });
                });
            }
        }
        for (&phrase, counts) in &page_counts {
            record_page(&mut phrases[phrase as usize], site, counts);
        }
    }
    Collection {
        vocabulary,
        phrases,
        pages_per_site,
    }
}

fn record_page(stats: &mut PhraseStats, site: usize, counts: &[usize; 7]) {
    let mut weighted_tf = 0.0;
    let mut occurrences = 0;
    for field in Field::ALL {
        let count = counts[field.index()];
        if count > 0 {
            // Diminishing returns: the tenth mention on a page says little more than the
            // second, and keyword stuffing should not win.
            weighted_tf += field.weight() * (1.0 + (count as f64).ln());
            occurrences += count;
            stats.fields[field.index()] += count;
        }
    }
    stats.pages += 1;
    match stats.sites.iter_mut().find(|s| s.site == site) {
        Some(entry) => {
            entry.weighted_tf += weighted_tf;
            entry.pages += 1;
            entry.occurrences += occurrences;
        }
        None => stats.sites.push(SiteStats {
            site,
            weighted_tf,
            pages: 1,
            occurrences,
        }),
    }
}

/// Calls `visit(surface, stems, len)` for every candidate phrase of a segment: 1 to 5 words,
/// not starting or ending with a stop word (except an allowed ending such as "near me"
/// after at least one word of its own), not made only of numbers.
pub(crate) fn for_each_phrase(
    ids: &[u32],
    vocabulary: &Vocabulary,
    mut visit: impl FnMut(Ids, Ids, usize),
) {
    for start in 0..ids.len() {
        let first = &vocabulary.words[ids[start] as usize];
        if first.stop {
            continue;
        }
        let mut surface: Ids = [0; MAX_PHRASE_WORDS];
        let mut stems: Ids = [0; MAX_PHRASE_WORDS];
        let mut all_numeric = true;
        for len in 1..=MAX_PHRASE_WORDS.min(ids.len() - start) {
            let word = &vocabulary.words[ids[start + len - 1] as usize];
            surface[len - 1] = ids[start + len - 1];
            stems[len - 1] = word.stem;
            all_numeric &= word.numeric;
            let phrase = &ids[start..start + len];
            let ends_well = !word.stop
                || vocabulary
                    .allowed_endings
                    .iter()
                    .any(|ending| ending.len() < len && phrase.ends_with(ending));
            if ends_well && !all_numeric {
                visit(surface, stems, len);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::Language;

    fn phrases_of(text: &str) -> Vec<String> {
        let analyzer = Analyzer::new(&Language::english());
        let mut vocabulary = Vocabulary::new(&analyzer);
        let ids: Vec<u32> = analyzer
            .tokenizer()
            .words(text)
            .iter()
            .map(|w| vocabulary.intern(w))
            .collect();
        let mut out = Vec::new();
        for_each_phrase(&ids, &vocabulary, |surface, _, len| {
            let words: Vec<&str> = surface[..len]
                .iter()
                .map(|&id| vocabulary.words[id as usize].text.as_str())
                .collect();
            out.push(words.join(" "));
        });
        out
    }

    #[test]
    fn phrases_do_not_start_or_end_with_stop_words() {
        assert_eq!(
            phrases_of("the best of shoes"),
            vec!["best", "best of shoes", "shoes"]
        );
    }

    #[test]
    fn near_me_may_end_a_phrase() {
        let phrases = phrases_of("plumber near me");
        assert!(
            phrases.contains(&"plumber near me".to_string()),
            "{phrases:?}"
        );
        assert!(!phrases.contains(&"near me".to_string()));
        assert!(!phrases.contains(&"plumber me".to_string()));
    }

    #[test]
    fn numbers_alone_are_not_phrases() {
        assert_eq!(phrases_of("2024 models"), vec!["2024 models", "models"]);
    }

    #[test]
    fn phrases_have_at_most_five_words() {
        let phrases = phrases_of("one two three four five six");
        assert!(phrases.iter().all(|p| p.split(' ').count() <= 5));
        assert!(phrases.contains(&"two three four five six".to_string()));
        assert!(!phrases.iter().any(|p| p.split(' ').count() == 6));
    }

    #[test]
    fn counts_pages_sites_and_fields() {
        let analyzer = Analyzer::new(&Language::english());
        let pages = vec![
            PageContent {
                title: "Trail shoes".into(),
                body_text: "Trail shoes. More trail shoes.".into(),
                site: Some(SiteRole::Primary),
                ..PageContent::default()
            },
            PageContent {
                headings: vec!["Trail shoe".into()],
                site: Some(SiteRole::Competitor(1)),
                ..PageContent::default()
            },
        ];
        let collection = collect(&pages, &analyzer);
        assert_eq!(collection.pages_per_site, vec![1, 0, 1]);
        let trail_shoes = collection
            .phrases
            .iter()
            .find(|p| p.len == 2)
            .expect("the two-word phrase");
        assert_eq!(trail_shoes.pages, 2);
        assert_eq!(trail_shoes.fields[Field::Title.index()], 1);
        assert_eq!(trail_shoes.fields[Field::Body.index()], 2);
        assert_eq!(trail_shoes.fields[Field::Headings.index()], 1);
        assert_eq!(trail_shoes.surfaces.len(), 2);
        let sites: Vec<usize> = trail_shoes.sites.iter().map(|s| s.site).collect();
        assert_eq!(sites, vec![0, 2]);
        let primary_tf = 5.0 + 1.0 + 2f64.ln();
        assert!((trail_shoes.sites[0].weighted_tf - primary_tf).abs() < 1e-9);
    }
}
