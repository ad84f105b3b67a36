//! The keywords a job keeps without a keyword data provider: queries that name what the
//! primary site offers, as people search for it.
//!
//! Discovery ([`discover_all`]) finds every phrase of the crawl shaped like a query; offline,
//! nothing else says which of them anyone searches. So [`offline_keywords`] keeps only those
//! that name the site's topic ([`Topic`]):
//!
//! 1. **Named.** A phrase is kept when one of its words is a *head term* of the primary site:
//!    a word of one of its offerings (the names of its pages, headings and structured data,
//!    [`SiteProfile::more_offerings`]) that is not a qualifier ("repair", "cost", "quote",
//!    "residential", see `lexicon`), or when it names the site's brand; every other word must
//!    be one a query about the topic holds (an offering's word, the competitors' included, a
//!    qualifier, a cue, a place; see [`Topic::names`]). An action that half the offerings
//!    share is the trade itself ("cleaning" for a cleaning company) and counts as a head term. A place, a modifier or page copy alone ("irvington", "quote", "read
//!    reviews") names none, and neither does a competitor's phrase from another trade.
//!    A head term that follows one and the same word in every offering names only beside
//!    it: "switch" of "ignition switch repair" and "ignition switch replacement" does not
//!    make "switch replacement" a query of a locksmith. A phrase only a competitor uses must
//!    be about a word of this site's own offerings ([`Topic::fits_competitor_phrase`]):
//!    "door glass" of an auto-glass competitor names no remodeler's doors.
//!    A single word stands alone only when it is a whole offering ("skylights", "evictions")
//!    or the site's one-word name: "roof" or "landlord" alone is a topic, not a query.
//! 2. **Completed.** A phrase that starts with the end of an offering ("cleaning quote" and
//!    "gutter cleaning") is completed to it ("gutter cleaning quote") when a primary page holds
//!    both and the whole is a query by the rules above; otherwise it is dropped.
//! 3. **Ideas.** The site's offerings × the language's modifiers × the places it serves, as
//!    keyword tools make them ([`ideas`]), marked `source: idea`, ranked below the phrase
//!    they are made from.
//!
//! A site that names its offerings only in headings, once each (a one-page café), is judged
//! by those headings instead, without ideas: a heading named once is as often a selling point
//! ("Tradition") as an offering. A site without a single offering keeps discovery's phrases
//! that it uses itself: better a list to prune than none, and still nothing from a
//! competitor's trade.

mod complete;
mod filed;
mod furniture;
mod ideas;
mod legal;
mod lexicon;
mod people;
mod topic;

use std::borrow::Cow;
use std::collections::HashSet;

use kr_core::domain::LanguageCode;

use crate::discovery::{discover_all, Candidate};
use crate::personas::SiteProfile;
use crate::text::{Analyzer, Language, LowercaseOnly};
use crate::{PageContent, SiteRole};
pub use topic::Topic;

/// Offerings read for head terms and ideas, and places that are never head terms: more than a
/// persona names, as many as a small business lists (a page per town is common).
const MAX_OFFERINGS: usize = 40;
const MAX_PLACES: usize = 60;

/// The best `limit` offline keywords of `pages`, best first (see the module docs).
pub fn offline_keywords(
    pages: &[PageContent],
    language: &Language,
    limit: usize,
) -> Vec<Candidate> {
    let profile = SiteProfile::from_pages(pages, language);
    offline_keywords_of(pages, &profile, language, limit)
}

/// [`offline_keywords`] for a caller that already holds the primary site's profile.
pub fn offline_keywords_of(
    pages: &[PageContent],
    profile: &SiteProfile,
    language: &Language,
    limit: usize,
) -> Vec<Candidate> {
    let (topic, mut kept) = select_crawl(pages, profile, language);
    if let Some(topic) = topic {
        let ideas = ideas::ideas(&topic, &kept, language);
        kept.extend(ideas);
    }
    best_first(kept, limit)
}

/// The crawl's phrases that [`offline_keywords`] keeps (steps 1 and 2 of the module docs),
/// without its ideas, best first: what a job with a keyword data provider offers it. The
/// provider's volume says how often a phrase is searched, not whether it names what the site
/// offers, so "legal basis" or "customer reviews" must be dropped here, before it is asked;
/// the provider brings ideas of its own.
pub fn relevant_crawl(pages: &[PageContent], language: &Language, limit: usize) -> Vec<Candidate> {
    let profile = SiteProfile::from_pages(pages, language);
    relevant_crawl_of(pages, &profile, language, limit)
}

/// [`relevant_crawl`] for a caller that already holds the primary site's profile.
pub fn relevant_crawl_of(
    pages: &[PageContent],
    profile: &SiteProfile,
    language: &Language,
    limit: usize,
) -> Vec<Candidate> {
    let (_, kept) = select_crawl(pages, profile, language);
    best_first(kept, limit)
}

/// The site's topic (`None` when it names no offering) and the crawl phrases it keeps: those
/// that name it, or complete to a phrase that does. Without a topic, the phrases the primary
/// site uses itself.
fn select_crawl(
    pages: &[PageContent],
    profile: &SiteProfile,
    language: &Language,
) -> (Option<Topic>, Vec<Candidate>) {
    let places = profile.more_places(pages, language, MAX_PLACES);
    let name_words: Vec<String> = profile
        .name
        .iter()
        .chain(&profile.brand)
        .flat_map(|name| {
            name.to_lowercase()
                .split_whitespace()
                .map(str::to_string)
                .collect::<Vec<_>>()
        })
        .collect();
    // A site's pages in another language than the job's (the French half of a Spanish
    // dealer's site) are not what its market types, and the pages it reaches only through its
    // fine print (legal notice, privacy policy) say nothing of what it offers: none of their
    // words is read, and the template's repeated headings are counted without them.
    let other_language = other_language_pages(pages, language);
    let pages = without(pages, |page| other_language(page));
    let pages = pages.as_ref();
    let lexicon = lexicon::Lexicon::for_language(language);
    let analyzer = Analyzer::new(language);
    let furniture =
        furniture::Furniture::of_site(pages, analyzer.tokenizer(), &name_words, |word| {
            lexicon.is_some_and(|lexicon| lexicon.qualifies(word))
        });
    // A legal page is known by its name wherever a site links it from (`legal`).
    let legal = legal::LegalPages::new(language);
    let pages = without(pages, |page| {
        legal.holds(page)
            || (page.site == Some(SiteRole::Primary) && furniture.is_fine_print_page(page))
    });
    let pages = pages.as_ref();
    let people = people::People::of_site(pages, &name_words, &places);
    let mut offerings = profile.more_offerings(pages, language, &places, MAX_OFFERINGS);
    // A person's name is no offering: no ideas are made of it ("buy <artist name>"); nor is
    // a heading of the site's template ("Clinic Hours" on every page).
    offerings.retain(|(offering, _)| {
        let words = lowercase_words(offering);
        !people.named_in(&words) && !furniture.holds(&words) && !legal.is_legal_name(offering)
    });
    // German writes its nouns with a capital: a phrase ending with a word the site writes only
    // in lowercase ends with no noun ("geschichten erzählt").
    let lowercase_only = (language.code() == "de").then(|| {
        LowercaseOnly::of_texts(
            pages
                .iter()
                .filter(|page| page.site == Some(SiteRole::Primary))
                .flat_map(|page| {
                    [page.title.as_str(), page.body_text.as_str()]
                        .into_iter()
                        .chain(page.headings.iter().map(String::as_str))
                }),
        )
    });
    let ends_without_noun = |words: &[String]| {
        lowercase_only
            .as_ref()
            .zip(words.last())
            .is_some_and(|(lowercase, last)| lowercase.holds(last))
    };
    // A shop's product filed under one of its offerings is offered as the product with its
    // category ("winter owl" under "garden flags": "winter owl garden flag"), so ideas follow
    // the shop's pattern. A category matches an offering without its determiner ("Manteaux"
    // filed, "Nos manteaux" offered).
    let names: Vec<String> = offerings
        .iter()
        .map(|(offering, _)| without_opening_stop_words(&analyzer, offering).join(" "))
        .collect();
    let filed = filed::Filed::of_site(pages, &names, language);
    if language.code() == "en" {
        // A name ends with a noun: "Direct" or "Managing It Yourself" as a heading names nothing.
        offerings.retain(|(offering, _)| {
            let words = analyzer.tokenizer().words(offering);
            !crate::text::ends_without_english_noun(&words)
        });
    } else {
        offerings.retain(|(offering, _)| {
            let words = analyzer.tokenizer().words(offering);
            reads_as_offering(&analyzer, &words) && !ends_without_noun(&words)
        });
    }
    for (offering, _) in &mut offerings {
        if let Some(bought) = lexicon.and_then(|lexicon| lexicon.product_of_query(offering)) {
            *offering = bought;
        }
    }
    filed::complete_lines(&mut offerings);
    for (offering, _) in &mut offerings {
        if let Some(completed) = filed.completed(&offering.to_lowercase()) {
            *offering = completed;
        }
    }
    let borrowed = SiteProfile::competitor_offerings(pages, language, MAX_OFFERINGS);
    let topic = Topic::of_site(&offerings, &places, &borrowed, profile, pages, language);
    let crawl = discover_all(pages, language);
    if topic.is_empty() {
        let crawl = crawl.into_iter().filter(|c| c.in_primary).collect();
        return (None, crawl);
    }
    let completer = complete::Completer::new(&topic, pages);
    let mut kept: Vec<Candidate> = Vec::new();
    for candidate in crawl {
        // A product named by its design alone is searched with its category.
        if let Some(completed) = candidate
            .in_primary
            .then(|| filed.complete(&candidate))
            .flatten()
        {
            kept.push(completed);
            continue;
        }
        let keeps = topic.keeps(&candidate.keyword)
            && (candidate.in_primary || topic.fits_competitor_phrase(&candidate.keyword));
        if keeps {
            kept.push(candidate);
        } else if let Some(completed) = completer
            .complete(&candidate)
            .filter(|completed| topic.names(&completed.keyword))
        {
            kept.push(completed);
        }
    }
    // A query names a thing: a clause or running text that happens to hold a head term
    // ("drain operates", "patients experiencing") is no query (`text::grammar`).
    kept.retain(|candidate| {
        let words = lowercase_words(&candidate.keyword);
        !ends_without_noun(&words)
            && topic.is_noun_phrase(&candidate.keyword)
            && !people.drops(&words)
            && !furniture.holds(&words)
    });
    (Some(topic), kept)
}

/// Outside English (whose offerings have their own word lists), a heading read as an
/// offering is a noun phrase by the language's closed classes that opens with no stop word:
/// "Vous aimerez aussi", "Restez informée", "Nos manteaux sont différents" and "Il nostro
/// territorio" (the site's story, as "Our Story" in English) name nothing it sells, and no
/// idea is made of them.
fn reads_as_offering(analyzer: &Analyzer, words: &[String]) -> bool {
    !words.is_empty()
        && !analyzer.is_stop_word(&words[0])
        && crate::text::is_noun_phrase(words, analyzer.language())
}

/// The words of `text` after the stop words it opens with ("nos manteaux" → "manteaux").
fn without_opening_stop_words(analyzer: &Analyzer, text: &str) -> Vec<String> {
    let words = analyzer.tokenizer().words(text);
    let opening = words
        .iter()
        .take_while(|word| analyzer.is_stop_word(word))
        .count();
    words[opening..].to_vec()
}

/// `pages` but those `skip` says, borrowed when it skips none.
fn without(pages: &[PageContent], skip: impl Fn(&PageContent) -> bool) -> Cow<'_, [PageContent]> {
    if pages.iter().any(&skip) {
        Cow::Owned(pages.iter().filter(|p| !skip(p)).cloned().collect())
    } else {
        Cow::Borrowed(pages)
    }
}

/// Whether a page is one of its site's versions in another language than `language`: it
/// declares another language (`lang`) and a page of the same site declares `language`. A
/// site that declares no page in the job's language is read whole (a template's `lang="en"`
/// on a German site says nothing).
fn other_language_pages<'a>(
    pages: &'a [PageContent],
    language: &'a Language,
) -> impl Fn(&PageContent) -> bool + 'a {
    // A language tag names a language the service knows, or nothing ("zxx", "und").
    let declared = |page: &PageContent| {
        page.lang
            .as_deref()
            .map(Language::new)
            .filter(|declared| LanguageCode::parse(declared.code()).is_ok())
    };
    let in_language: HashSet<Option<SiteRole>> = pages
        .iter()
        .filter(|page| declared(page).is_some_and(|l| l.code() == language.code()))
        .map(|page| page.site)
        .collect();
    move |page| {
        in_language.contains(&page.site)
            && declared(page).is_some_and(|l| l.code() != language.code())
    }
}

fn lowercase_words(text: &str) -> Vec<String> {
    text.split_whitespace().map(str::to_lowercase).collect()
}

/// The best `limit` of `candidates`, one per keyword (the first of equals).
fn best_first(mut candidates: Vec<Candidate>, limit: usize) -> Vec<Candidate> {
    let mut seen = HashSet::new();
    candidates.sort_by(|a, b| {
        b.score
            .total_cmp(&a.score)
            .then_with(|| a.keyword.cmp(&b.keyword))
    });
    candidates.retain(|candidate| seen.insert(candidate.keyword.clone()));
    candidates.truncate(limit);
    candidates
}

#[cfg(test)]
mod crawl_tests;
#[cfg(test)]
mod language_tests;
#[cfg(test)]
mod tests;
