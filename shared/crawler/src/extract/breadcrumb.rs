//! A page's breadcrumb written in HTML ("Accueil / Manteaux / Hua Long"): where a shop files
//! the page when it gives no JSON-LD for it. Templates name the element `breadcrumb` (class,
//! id or accessible name) whatever the page's language.

use scraper::{ElementRef, Html};

use super::text::collapse_whitespace;

/// What separates a breadcrumb's steps when it writes them as text.
const SEPARATORS: [char; 9] = ['/', '>', '›', '»', '|', '·', '→', '\\', '•'];

/// The steps of the page's first breadcrumb, in order, each once; none without one.
pub(super) fn steps(html: &Html) -> Vec<String> {
    let Some(trail) = html
        .root_element()
        .descendants()
        .filter_map(ElementRef::wrap)
        .find(|element| names_a_breadcrumb(*element))
    else {
        return Vec::new();
    };
    let mut steps: Vec<String> = Vec::new();
    for text in trail.text() {
        for piece in text.split(SEPARATORS) {
            let piece = collapse_whitespace(piece);
            if !piece.is_empty() && !steps.contains(&piece) {
                steps.push(piece);
            }
        }
    }
    steps
}

fn names_a_breadcrumb(element: ElementRef<'_>) -> bool {
    let value = element.value();
    ["class", "id", "aria-label"].iter().any(|name| {
        value.attr(name).is_some_and(|names| {
            names
                .split(|c: char| !c.is_ascii_alphanumeric())
                .any(|word| word.to_ascii_lowercase().starts_with("breadcrumb"))
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_breadcrumb_is_read_step_by_step() {
        let html = Html::parse_document(
            r#"<body><nav class="breadcrumb"><a href="/">Accueil</a><span class="sep">/</span>
            <a href="manteaux.html">Manteaux</a><span class="sep">/</span><span>Hua Long</span>
            </nav><h1>Manteau — Huā Long</h1></body>"#,
        );
        assert_eq!(steps(&html), ["Accueil", "Manteaux", "Hua Long"]);
        let list = Html::parse_document(
            r#"<ol aria-label="Breadcrumbs"><li><a href="/">Home</a> › </li>
            <li>Garden Flags</li></ol>"#,
        );
        assert_eq!(steps(&list), ["Home", "Garden Flags"]);
        assert!(steps(&Html::parse_document("<nav><a href='/'>Home</a></nav>")).is_empty());
    }
}
