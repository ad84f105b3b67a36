//! A site's legal pages (its legal notice, privacy and cookie policies, terms) found by the
//! name the page goes by, in any language the service reads (`text::LEGAL_NOTICES`): a title
//! part, the first heading or the page's address is such a name ("Datenschutzerklärung",
//! "Mentions légales", `/politique-confidentialite.html`). Their text says nothing of what the
//! site offers, wherever the site links them from: its menu as often as its footer, so the
//! footer's structure (`furniture`) cannot find them all. The front page never is one.

use std::collections::HashSet;

use unicode_normalization::UnicodeNormalization;

use crate::text::web_address::path_of;
use crate::text::{stop_words, Language};
use crate::PageContent;

pub(super) struct LegalPages {
    language: Language,
    /// Each legal page name as [`LegalPages::key`] reads it.
    keys: HashSet<Vec<String>>,
}

impl LegalPages {
    pub fn new(language: &Language) -> Self {
        let mut pages = LegalPages {
            language: language.clone(),
            keys: HashSet::new(),
        };
        pages.keys = names().map(|name| pages.key(name)).collect();
        pages
    }

    /// Whether `page` is a legal page by its name.
    pub fn holds(&self, page: &PageContent) -> bool {
        if super::furniture::is_front_page(&page.url) {
            return false;
        }
        page.title
            .split(['|', '–', '—', ':'])
            .chain(page.title.split(" - "))
            .chain(page.headings.first().map(String::as_str))
            .chain(address_name(&page.url))
            .any(|name| self.is_legal_name(name))
    }

    /// Whether `name` (a title, heading, link text or offering) is the name of a legal page.
    pub fn is_legal_name(&self, name: &str) -> bool {
        let key = self.key(name);
        !key.is_empty() && self.keys.contains(&key)
    }

    /// `text` without accents, case, punctuation, and the short and stop words an address
    /// leaves out ("politique de confidentialité" and "politique-confidentialite" agree).
    fn key(&self, text: &str) -> Vec<String> {
        let folded: String = text
            .nfd()
            .filter(|c| !unicode_normalization::char::is_combining_mark(*c))
            .flat_map(char::to_lowercase)
            .map(|c| if c.is_alphanumeric() { c } else { ' ' })
            .collect();
        let words: Vec<&str> = folded.split_whitespace().collect();
        if words.len() == 1 {
            return vec![words[0].to_string()];
        }
        let job = stop_words(&self.language);
        let english = stop_words(&Language::english());
        words
            .into_iter()
            .filter(|w| w.chars().count() > 1 && !job.contains(w) && !english.contains(w))
            .map(str::to_string)
            .collect()
    }
}

/// The legal page names, without comments.
fn names() -> impl Iterator<Item = &'static str> {
    crate::text::LEGAL_NOTICES
        .lines()
        .map(str::trim)
        .filter(|line| !line.is_empty() && !line.starts_with('#'))
}

/// The last segment of a page's address without its extension ("mentions-legales" of
/// `/mentions-legales.html`), if it has a path.
fn address_name(url: &str) -> Option<&str> {
    let path = path_of(url).strip_prefix('/')?;
    let last = path.trim_end_matches('/').rsplit('/').next()?;
    let name = last.rsplit_once('.').map_or(last, |(stem, _)| stem);
    (!name.is_empty()).then_some(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn page(url: &str, title: &str, heading: &str) -> PageContent {
        PageContent {
            url: url.to_string(),
            title: title.to_string(),
            headings: vec![heading.to_string()],
            ..PageContent::default()
        }
    }

    #[test]
    fn legal_pages_are_found_by_title_heading_or_address() {
        let german = LegalPages::new(&Language::new("de"));
        assert!(german.holds(&page(
            "https://honig.example/seite",
            "Datenschutzerklärung | Baumann Honig",
            "Informationen"
        )));
        assert!(german.holds(&page("https://honig.example/impressum.html", "Baumann", "")));
        let french = LegalPages::new(&Language::new("fr"));
        assert!(french.holds(&page(
            "https://machines.example/politique-confidentialite.html",
            "Machines à coudre",
            "Vos données"
        )));
        assert!(french.holds(&page(
            "https://machines.example/cgu.html",
            "Conditions générales d'utilisation - Machines",
            ""
        )));
    }

    #[test]
    fn offerings_that_share_a_word_with_a_legal_name_are_no_legal_pages() {
        let english = LegalPages::new(&Language::english());
        for (url, title) in [
            (
                "https://fences.example/privacy-fences",
                "Privacy Fences | Rockwall",
            ),
            ("https://law.example/legal-services", "Legal Services"),
            ("https://law.example/", "Terms of Service"),
        ] {
            assert!(!english.holds(&page(url, title, title)), "{title}");
        }
        assert!(!english.is_legal_name("Data Protection Consulting"));
        assert!(english.is_legal_name("Privacy Policy"));
    }
}
