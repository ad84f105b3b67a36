//! Completing a phrase cut off from its topic: "cleaning quote" on the gutter page is
//! "gutter cleaning quote".

use std::cell::{OnceCell, RefCell};
use std::collections::{HashMap, HashSet};

use memchr::memmem::Finder;

use super::topic::Topic;
use crate::discovery::Candidate;
use crate::personas::primary_pages;
use crate::text::join_words;
use crate::PageContent;

/// The longest keyword a completion may make, as discovery's longest phrase.
const MAX_WORDS: usize = 5;

pub(super) struct Completer<'a> {
    topic: &'a Topic,
    pages: &'a [PageContent],
    /// Each primary page's title, headings, description and text, lowercase; made when the
    /// first phrase fits an offering.
    texts: OnceCell<Vec<String>>,
    /// Which of those texts hold each offering asked about.
    holding: RefCell<HashMap<String, Vec<usize>>>,
    /// The stems an offering's end may start with: a phrase starting with another word
    /// completes nothing, and most do not.
    tail_starts: HashSet<String>,
}

impl<'a> Completer<'a> {
    pub fn new(topic: &'a Topic, pages: &'a [PageContent]) -> Self {
        let tail_starts = topic
            .offerings
            .iter()
            .flat_map(|offering| {
                let len = offering.words.len();
                (1..len)
                    .filter(move |&overlap| offering.heads[..len - overlap].contains(&true))
                    .map(move |overlap| offering.stems[len - overlap].clone())
            })
            .collect();
        Completer {
            topic,
            pages,
            texts: OnceCell::new(),
            holding: RefCell::new(HashMap::new()),
            tail_starts,
        }
    }

    /// The candidate completed with the offering whose last words it starts with, when a
    /// primary page holds both; `None` when no offering fits or no page holds both.
    pub fn complete(&self, candidate: &Candidate) -> Option<Candidate> {
        // Completed from the page it comes from: a phrase no primary page holds has none.
        if !candidate.in_primary {
            return None;
        }
        let analyzer = self.topic.analyzer();
        let words = analyzer.tokenizer().words(&candidate.keyword);
        let stems: Vec<String> = words
            .iter()
            .map(|w| analyzer.stem(w).into_owned())
            .collect();
        if !self.tail_starts.contains(stems.first()?) {
            return None;
        }
        for offering in &self.topic.offerings {
            let len = offering.words.len();
            // The overlap leaves at least one head term before it and a word after it.
            for overlap in (1..len).rev() {
                let named_before = offering.heads[..len - overlap].contains(&true);
                if !named_before
                    || overlap >= words.len()
                    || offering.stems[len - overlap..] != stems[..overlap]
                    || len + words.len() - overlap > MAX_WORDS
                {
                    continue;
                }
                if !self.on_one_page(&candidate.keyword, &offering.name()) {
                    continue;
                }
                let completed: Vec<&str> = offering
                    .words
                    .iter()
                    .chain(&words[overlap..])
                    .map(String::as_str)
                    .collect();
                return Some(Candidate {
                    keyword: join_words(&completed),
                    word_count: completed.len(),
                    ..candidate.clone()
                });
            }
        }
        None
    }

    fn on_one_page(&self, phrase: &str, offering: &str) -> bool {
        let texts = self.texts.get_or_init(|| {
            primary_pages(self.pages)
                .into_iter()
                .map(|page| {
                    let fields = std::iter::once(&page.title)
                        .chain(&page.headings)
                        .chain([&page.meta_description, &page.body_text]);
                    fields
                        .map(|text| text.to_lowercase())
                        .collect::<Vec<_>>()
                        .join("\n")
                })
                .collect()
        });
        // The pages holding an offering, found once per offering: few phrases' pages to read.
        let mut holding = self.holding.borrow_mut();
        let pages = holding.entry(offering.to_string()).or_insert_with(|| {
            let finder = Finder::new(offering.as_bytes());
            (0..texts.len())
                .filter(|&i| finder.find(texts[i].as_bytes()).is_some())
                .collect()
        });
        // memchr's searcher: the phrase is sought in every such page, a phrase at a time.
        let finder = Finder::new(phrase.as_bytes());
        pages
            .iter()
            .any(|&i| finder.find(texts[i].as_bytes()).is_some())
    }
}
