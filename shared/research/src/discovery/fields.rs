//! Where on a page a phrase appears, and how much that placement says about its importance.

use serde::{Deserialize, Serialize};

use crate::PageContent;

/// A text field of a crawled page.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Field {
    Title,
    Headings,
    JsonLdNames,
    Anchors,
    MetaDescription,
    ImageAlts,
    Body,
}

impl Field {
    pub const ALL: [Field; 7] = [
        Field::Title,
        Field::Headings,
        Field::JsonLdNames,
        Field::Anchors,
        Field::MetaDescription,
        Field::ImageAlts,
        Field::Body,
    ];

    /// How much one occurrence in this field counts, relative to body text.
    ///
    /// | field | weight | why |
    /// |---|---|---|
    /// | title | 5.0 | the page's own one-line summary, what search engines show |
    /// | headings | 4.0 | the page's outline |
    /// | JSON-LD names | 3.0 | the products and services the site declares it offers |
    /// | anchors | 2.5 | how the site names its own pages |
    /// | meta description | 2.0 | a summary, but often generic marketing copy |
    /// | image alts | 1.5 | descriptive, but frequently missing or stuffed |
    /// | body | 1.0 | everything else |
    pub fn weight(self) -> f64 {
        match self {
            Field::Title => 5.0,
            Field::Headings => 4.0,
            Field::JsonLdNames => 3.0,
            Field::Anchors => 2.5,
            Field::MetaDescription => 2.0,
            Field::ImageAlts => 1.5,
            Field::Body => 1.0,
        }
    }

    /// Fields whose texts are names: a whole title part, heading, JSON-LD name or link text
    /// names a product, service, place or brand.
    pub(crate) fn is_naming(self) -> bool {
        matches!(
            self,
            Field::Title | Field::Headings | Field::JsonLdNames | Field::Anchors
        )
    }

    pub(crate) fn index(self) -> usize {
        self as usize
    }

    /// The texts of this field on a page (one per heading, anchor, ...).
    pub(crate) fn texts(self, page: &PageContent) -> Vec<&str> {
        match self {
            Field::Title => vec![page.title.as_str()],
            Field::Headings => page.headings.iter().map(String::as_str).collect(),
            Field::JsonLdNames => page.json_ld_names.iter().map(String::as_str).collect(),
            Field::Anchors => page.anchors.iter().map(String::as_str).collect(),
            Field::MetaDescription => vec![page.meta_description.as_str()],
            Field::ImageAlts => page.image_alts.iter().map(String::as_str).collect(),
            // The crawler keeps a page's blocks (paragraphs, list items, cells) a line apart:
            // words of two blocks never make one phrase.
            Field::Body => page.body_text.lines().collect(),
        }
    }
}

/// How often a phrase occurs in each field, summed over all crawled pages. The metrics
/// estimator reads it: a phrase in many titles and headings is one the sites compete on.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Prominence {
    pub title: usize,
    pub headings: usize,
    pub json_ld_names: usize,
    pub anchors: usize,
    pub meta_description: usize,
    pub image_alts: usize,
    pub body: usize,
}

impl Prominence {
    pub fn get(&self, field: Field) -> usize {
        match field {
            Field::Title => self.title,
            Field::Headings => self.headings,
            Field::JsonLdNames => self.json_ld_names,
            Field::Anchors => self.anchors,
            Field::MetaDescription => self.meta_description,
            Field::ImageAlts => self.image_alts,
            Field::Body => self.body,
        }
    }

    pub(crate) fn from_counts(counts: &[usize; 7]) -> Self {
        Prominence {
            title: counts[Field::Title.index()],
            headings: counts[Field::Headings.index()],
            json_ld_names: counts[Field::JsonLdNames.index()],
            anchors: counts[Field::Anchors.index()],
            meta_description: counts[Field::MetaDescription.index()],
            image_alts: counts[Field::ImageAlts.index()],
            body: counts[Field::Body.index()],
        }
    }

    /// Occurrences weighted by [`Field::weight`].
    pub fn weighted(&self) -> f64 {
        Field::ALL
            .iter()
            .map(|&field| field.weight() * self.get(field) as f64)
            .sum()
    }

    /// Occurrences in any field.
    pub fn total(&self) -> usize {
        Field::ALL.iter().map(|&field| self.get(field)).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weights_follow_the_documented_order() {
        let weights: Vec<f64> = Field::ALL.iter().map(|f| f.weight()).collect();
        assert!(
            weights.windows(2).all(|pair| pair[0] > pair[1]),
            "{weights:?}"
        );
    }

    #[test]
    fn prominence_weighs_fields() {
        let prominence = Prominence {
            title: 1,
            body: 2,
            ..Prominence::default()
        };
        assert_eq!(prominence.weighted(), 7.0);
        assert_eq!(prominence.total(), 3);
    }
}
