//! Completing a phrase cut off from its topic: "cleaning quote" on the gutter page is
//! "gutter cleaning quote".

use std::cell::{OnceCell, RefCell};
use std::collections::HashMap;

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
}

impl<'a> Completer<'a> {
    pub fn new(topic: &'a Topic, pages: &'a [PageContent]) -> Self {
        Completer {
            topic,
            pages,
            texts: OnceCell::new(),
            holding: RefCell::new(HashMap::new()),
        }
    }

    /// The candidate completed with the offering whose last words it starts with, when a
    /// primary page holds both; `None` when no offering fits or no page holds both.
    pub fn complete(&self, candidate: &Candidate) -> Option<Candidate> {
        let analyzer = self.topic.analyzer();
        let words = analyzer.tokenizer().words(&candidate.keyword);
        let stems: Vec<String> = words
            .iter()
            .map(|w| analyzer.stem(w).into_owned())
            .collect();
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
            (0..texts.len())
                .filter(|&i| texts[i].contains(offering))
                .collect()
        });
        pages.iter().any(|&i| texts[i].contains(phrase))
    }
}
