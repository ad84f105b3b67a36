//! Readable text of an element tree: the page's main content without the boilerplate around
//! it, split into blocks so that words of neighbouring blocks never run together.

use ego_tree::iter::Edge;
use scraper::{ElementRef, Node};

/// Elements that never carry main content: scripts and styles, site navigation and chrome,
/// forms and widgets.
const SKIPPED: &[&str] = &[
    "script", "style", "noscript", "template", "head", "nav", "aside", "form", "button", "select",
    "option", "textarea", "dialog", "svg", "math", "iframe", "object", "embed", "canvas", "video",
    "audio", "map",
];

/// ARIA roles of the same boilerplate when authors use `<div role=...>` instead.
const SKIPPED_ROLES: &[&str] = &[
    "navigation",
    "banner",
    "contentinfo",
    "complementary",
    "search",
    "dialog",
    "menu",
    "menubar",
];

/// Elements whose text flows into the surrounding text; every other element starts a block.
const INLINE: &[&str] = &[
    "a", "abbr", "b", "bdi", "bdo", "cite", "code", "data", "del", "dfn", "em", "font", "i", "ins",
    "kbd", "mark", "q", "rp", "rt", "ruby", "s", "samp", "small", "span", "strong", "sub", "sup",
    "time", "u", "var", "wbr", "label", "img", "picture", "big", "tt", "strike", "nobr",
];

/// Elements that make a `<header>` or `<footer>` inside them belong to the content (an
/// article's own heading area or byline) rather than to the site.
const SECTIONING: &[&str] = &["article", "section", "main"];

/// Collapses runs of whitespace to single spaces and trims.
pub(crate) fn collapse_whitespace(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// All text under the element, whitespace collapsed (for titles, headings and link texts). A
/// line break or a block inside separates words as it does on screen: "Miami's<br>Standard"
/// is two words.
pub(crate) fn plain_text(element: ElementRef<'_>) -> String {
    let mut text = String::new();
    let mut at_tag = false;
    for edge in element.traverse() {
        let after_tag = std::mem::replace(&mut at_tag, !opens_text(&edge));
        match edge {
            Edge::Open(node) => match node.value() {
                Node::Text(words) => push_text(&mut text, words, after_tag),
                Node::Element(inner) if !INLINE.contains(&inner.name()) => text.push(' '),
                _ => {}
            },
            Edge::Close(node) => {
                if let Node::Element(inner) = node.value() {
                    if !INLINE.contains(&inner.name()) {
                        text.push(' ');
                    }
                }
            }
        }
    }
    collapse_whitespace(&text)
}

/// The edge opens a text node: whatever else comes between two texts is a tag.
fn opens_text(edge: &Edge<'_, Node>) -> bool {
    matches!(edge, Edge::Open(node) if node.value().is_text())
}

/// Appends a text node. Authors set an inline element on a line of its own by style ("Process
/// Server in<span class=ghost>Fort Lauderdale</span>"), which the markup alone cannot tell: a
/// lowercase letter that a tag joins to a capital ("inFort") is two words on screen.
fn push_text(text: &mut String, words: &str, after_tag: bool) {
    let joins_a_capital = after_tag
        && text.chars().next_back().is_some_and(char::is_lowercase)
        && words.chars().next().is_some_and(char::is_uppercase);
    if joins_a_capital {
        text.push(' ');
    }
    text.push_str(words);
}

fn is_hidden(element: &scraper::node::Element) -> bool {
    element.attr("hidden").is_some()
        || element
            .attr("aria-hidden")
            .is_some_and(|v| v.trim().eq_ignore_ascii_case("true"))
        || element
            .attr("role")
            .is_some_and(|role| SKIPPED_ROLES.contains(&role.trim().to_ascii_lowercase().as_str()))
}

/// Appends the main text under `root` to `blocks`, one entry per block of text.
/// Walks the tree iteratively: hostile pages nest elements deep enough to overflow a stack.
pub(crate) fn main_text_blocks(root: ElementRef<'_>, blocks: &mut Vec<String>) {
    let mut current = String::new();
    let mut skipping: Option<ego_tree::NodeId> = None;
    let mut sectioning_depth = 0usize;
    let flush = |current: &mut String, blocks: &mut Vec<String>| {
        let block = collapse_whitespace(current);
        if !block.is_empty() {
            blocks.push(block);
        }
        current.clear();
    };
    let mut at_tag = false;
    for edge in root.traverse() {
        let after_tag = std::mem::replace(&mut at_tag, !opens_text(&edge));
        match edge {
            Edge::Open(node) => {
                if skipping.is_some() {
                    continue;
                }
                match node.value() {
                    Node::Text(text) => push_text(&mut current, text, after_tag),
                    Node::Element(element) => {
                        let name = element.name();
                        let site_chrome =
                            matches!(name, "header" | "footer") && sectioning_depth == 0;
                        if SKIPPED.contains(&name) || site_chrome || is_hidden(element) {
                            skipping = Some(node.id());
                            continue;
                        }
                        if SECTIONING.contains(&name) {
                            sectioning_depth += 1;
                        }
                        if !INLINE.contains(&name) {
                            flush(&mut current, blocks);
                        }
                    }
                    _ => {}
                }
            }
            Edge::Close(node) => {
                if skipping == Some(node.id()) {
                    skipping = None;
                    continue;
                }
                if skipping.is_some() {
                    continue;
                }
                if let Node::Element(element) = node.value() {
                    let name = element.name();
                    if SECTIONING.contains(&name) {
                        sectioning_depth -= 1;
                    }
                    if !INLINE.contains(&name) {
                        flush(&mut current, blocks);
                    }
                }
            }
        }
    }
    flush(&mut current, blocks);
}
