//! One pass over the crawled pages: every candidate phrase with where and how often it occurs.

use std::collections::{HashMap, HashSet};

use super::fields::Field;
pub(crate) use super::vocabulary::Vocabulary;
use crate::text::Analyzer;
use crate::{PageContent, SiteRole};

/// Longest candidate phrase, in words.
pub(crate) const MAX_PHRASE_WORDS: usize = 5;

/// Up to five word or stem ids; 0 marks an unused slot (ids start at 1). A fixed-size key
/// keeps hashing cheap for the hundreds of thousands of n-grams of a large crawl.
pub(crate) type Ids = [u32; MAX_PHRASE_WORDS];

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
    /// Occurrences, all fields and pages.
    pub occurrences: usize,
    /// Occurrences right after a content word (not a stop word) of the same segment.
    pub continued_left: usize,
    /// Occurrences right before a content word of the same segment.
    pub continued_right: usize,
    /// Occurrences right before an article or a possessive of the same segment (English).
    pub before_object: usize,
    /// Seen as a whole segment of a title, heading, JSON-LD name or anchor: a name the site
    /// gives something ("Espresso", "BrightBrew").
    pub named: bool,
}

/// All phrases of a crawl.
pub(crate) struct Collection<'a> {
    pub vocabulary: Vocabulary<'a>,
    pub phrases: Vec<PhraseStats>,
    /// Pages crawled per site, indexed like `SiteStats::site`; 0 for a site without pages.
    pub pages_per_site: Vec<usize>,
    /// Stems of the content words on the primary site's pages.
    pub primary_stems: HashSet<u32>,
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
    let mut primary_stems: HashSet<u32> = HashSet::new();

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
                    if site == 0 {
                        primary_stems.extend(
                            ids.iter()
                                .map(|&id| &vocabulary.words[id as usize])
                                .filter(|word| !word.stop)
                                .map(|word| word.stem),
                        );
                    }
                    let is_content = |id: Option<&u32>| {
                        id.is_some_and(|&id| !vocabulary.words[id as usize].stop)
                    };
                    for_each_phrase(&ids, &vocabulary, |start, surface, stems, len| {
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
                                occurrences: 0,
                                continued_left: 0,
                                continued_right: 0,
                                before_object: 0,
                                named: false,
                            });
                        }
                        let stats = &mut phrases[phrase as usize];
                        stats.occurrences += 1;
                        if start > 0 && is_content(ids.get(start - 1)) {
                            stats.continued_left += 1;
                        }
                        if is_content(ids.get(start + len)) {
                            stats.continued_right += 1;
                        } else if ids
                            .get(start + len)
                            .is_some_and(|&id| vocabulary.words[id as usize].object_start)
                        {
                            stats.before_object += 1;
                        }
                        stats.named |= len == ids.len() && field.is_naming();
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
        primary_stems,
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

/// Calls `visit(start, surface, stems, len)` for every candidate phrase of a segment that
/// has the shape of a search query (see the module docs of `discovery`): 1 to 5 words, not
/// made only of numbers, not starting with a stop word or a weak word (a search modifier
/// such as "best" may lead), not ending with either (except an allowed ending such as "near
/// me" after at least one word of its own), and joined inside only by linking words, at most
/// one in English ("shoes for women", not "leave the leaves").
pub(crate) fn for_each_phrase(
    ids: &[u32],
    vocabulary: &Vocabulary,
    mut visit: impl FnMut(usize, Ids, Ids, usize),
) {
    let word = |id: u32| &vocabulary.words[id as usize];
    for start in 0..ids.len() {
        let first = word(ids[start]);
        if first.stop || ((first.weak || first.weak_start) && !first.leading) {
            continue;
        }
        let mut surface: Ids = [0; MAX_PHRASE_WORDS];
        let mut stems: Ids = [0; MAX_PHRASE_WORDS];
        let mut all_numeric = true;
        // Stop words inside the phrase so far (all but the first and the last word).
        let mut inner_stops = 0;
        let mut inner_ok = true;
        for len in 1..=MAX_PHRASE_WORDS.min(ids.len() - start) {
            let last = word(ids[start + len - 1]);
            if len > 2 {
                let previous = word(ids[start + len - 2]);
                if previous.stop {
                    inner_stops += 1;
                    inner_ok &= previous.linking;
                }
            }
            surface[len - 1] = ids[start + len - 1];
            stems[len - 1] = last.stem;
            all_numeric &= last.numeric;
            let phrase = &ids[start..start + len];
            let allowed_ending = vocabulary
                .allowed_endings
                .iter()
                .find(|ending| ending.len() < len && phrase.ends_with(ending));
            // The stop words of an allowed ending ("near" of "near me") are not inner words.
            let ending_stops = allowed_ending.map_or(0, |ending| {
                ending[..ending.len() - 1]
                    .iter()
                    .filter(|&&id| word(id).stop)
                    .count()
            });
            let ends_well = (!last.stop && !last.weak) || allowed_ending.is_some();
            let inner_fits = inner_ok
                && inner_stops - ending_stops.min(inner_stops) <= max_inner_stops(vocabulary);
            if ends_well && inner_fits && !all_numeric {
                visit(start, surface, stems, len);
            }
        }
    }
}

/// English queries join at most two parts ("coffee beans for espresso"); other languages
/// chain articles and prepositions more ("chaussures de randonnée pour la montagne").
fn max_inner_stops(vocabulary: &Vocabulary) -> usize {
    if vocabulary.is_english() {
        1
    } else {
        2
    }
}

#[cfg(test)]
#[path = "collect_tests.rs"]
mod tests;
