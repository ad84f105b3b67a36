//! What a brief reads of a page that ranks: its H2/H3 outline and its main text.

use url::Url;

use scraper::ElementRef;

use super::text::main_text_blocks;
use super::{is_html, selector, Document};

/// Headings under these belong to the site's chrome, not to the page's content.
const CHROME: [&str; 4] = ["nav", "aside", "footer", "form"];

/// A page read for a brief.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutlinedPage {
    /// The final URL, after redirects.
    pub url: String,
    pub title: String,
    /// H2 and H3 headings in document order, as `(level, text)`.
    pub headings: Vec<(u8, String)>,
    /// Main text without navigation, header, footer and aside boilerplate.
    pub main_text: String,
}

/// Extracts the outline of a page fetched from `url` (the final URL, after redirects).
pub fn extract_outline(html: &str, url: &Url) -> OutlinedPage {
    Document::parse(html, url).outline()
}

impl Document {
    pub(crate) fn outline(&self) -> OutlinedPage {
        let headings = self
            .html
            .select(&selector("h2, h3"))
            .filter(|heading| is_html(*heading) && !in_chrome(*heading))
            .filter_map(|heading| {
                let level = if heading.value().name() == "h2" { 2 } else { 3 };
                // Its readable text: no script or style inside it, nothing hidden.
                let mut blocks = Vec::new();
                main_text_blocks(heading, &mut blocks);
                let text = blocks.join(" ");
                (!text.is_empty()).then_some((level, text))
            })
            .collect();
        OutlinedPage {
            url: self.url.to_string(),
            title: self.title().unwrap_or_default(),
            headings,
            main_text: self.main_text(),
        }
    }
}

fn in_chrome(heading: ElementRef<'_>) -> bool {
    heading
        .ancestors()
        .filter_map(ElementRef::wrap)
        .any(|ancestor| CHROME.contains(&ancestor.value().name()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_h2_and_h3_in_order_as_plain_text_and_the_main_text() {
        let html = r#"<html><head><title>Gutter guide</title></head><body>
            <nav><h2>Menu</h2></nav>
            <main><h1>Gutters</h1><p>Clean them twice a year.</p>
            <h2>Why <em>clean</em> gutters</h2><p>Water.</p>
            <h3>Signs of <script>alert(1)</script>clogs</h3>
            <h4>Too deep</h4><h2>  </h2><aside><h2>Related posts</h2></aside>
            </main><footer><h3>Contact</h3></footer></body></html>"#;
        let page = extract_outline(html, &Url::parse("https://a.example/g").unwrap());
        assert_eq!(page.title, "Gutter guide");
        assert_eq!(
            page.headings,
            [
                (2, "Why clean gutters".to_string()),
                (3, "Signs of clogs".to_string())
            ]
        );
        assert!(page.main_text.contains("Clean them twice a year."));
        assert!(!page.main_text.contains("alert"));
    }
}
