//! The document's CommonMark descriptions as HTML, strictly: raw HTML is shown as text, links
//! keep only web, mail and relative targets, images become links (the page's CSP loads no
//! remote image anyway), and headings move down to fit under the section they sit in.

use pulldown_cmark::{html, CowStr, Event, HeadingLevel, Options, Parser, Tag, TagEnd};

/// `text` (CommonMark with tables and strikethrough) as HTML. Headings move down `shift`
/// levels (at most to `h6`), so `#` in a description under an `h3` becomes an `h4` when
/// `shift` is 3.
pub fn to_html(text: &str, shift: usize) -> String {
    if text.trim().is_empty() {
        return String::new();
    }
    // Which opened links were kept, so their ends are kept or dropped alike. Links do not
    // nest, but an image may sit inside a link.
    let mut kept: Vec<bool> = Vec::new();
    let events = parser(text).filter_map(|event| match event {
        Event::Html(raw) | Event::InlineHtml(raw) => Some(Event::Text(raw)),
        Event::Start(Tag::HtmlBlock) => Some(Event::Start(Tag::Paragraph)),
        Event::End(TagEnd::HtmlBlock) => Some(Event::End(TagEnd::Paragraph)),
        Event::Start(Tag::Heading {
            level,
            id,
            classes,
            attrs,
        }) => Some(Event::Start(Tag::Heading {
            level: shifted(level, shift),
            id,
            classes,
            attrs,
        })),
        Event::End(TagEnd::Heading(level)) => {
            Some(Event::End(TagEnd::Heading(shifted(level, shift))))
        }
        Event::Start(Tag::Link {
            link_type,
            dest_url,
            title,
            id,
        })
        | Event::Start(Tag::Image {
            link_type,
            dest_url,
            title,
            id,
        }) => {
            let safe = safe_url(&dest_url);
            kept.push(safe);
            safe.then_some(Event::Start(Tag::Link {
                link_type,
                dest_url,
                title,
                id,
            }))
        }
        Event::End(TagEnd::Link) | Event::End(TagEnd::Image) => kept
            .pop()
            .unwrap_or(false)
            .then_some(Event::End(TagEnd::Link)),
        other => Some(other),
    });
    let mut out = String::with_capacity(text.len() * 3 / 2);
    html::push_html(&mut out, events);
    // The writer's own table markup (raw `<` from the text is escaped by now): header cells
    // get their scope, and a table scrolls sideways on its own instead of the page.
    out.replace("<th>", "<th scope=\"col\">")
        .replace("<th style=", "<th scope=\"col\" style=")
        .replace("<table>", "<div class=\"tw\"><table>")
        .replace("</table>", "</table></div>")
}

/// The text of `text` without its markup (code spans keep their content), on one line: for
/// the page title, tooltips and the sidebar. Not escaped.
pub fn plain(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for event in parser(text) {
        match event {
            Event::Text(part) | Event::Code(part) | Event::Html(part) | Event::InlineHtml(part) => {
                out.push_str(&part)
            }
            Event::SoftBreak | Event::HardBreak | Event::End(TagEnd::Paragraph) => out.push(' '),
            _ => {}
        }
    }
    out.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn parser(text: &str) -> Parser<'_> {
    Parser::new_ext(text, Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH)
}

fn shifted(level: HeadingLevel, shift: usize) -> HeadingLevel {
    HeadingLevel::try_from((level as usize + shift).min(6)).unwrap_or(HeadingLevel::H6)
}

/// A link target without a scheme (relative, `/…`, `#…`, an e-mail autolink), or with
/// `http`, `https` or `mailto`. Anything else (`javascript:`, `data:`, `vbscript:` and the
/// like, however spelled) is dropped and the link shows as its text.
fn safe_url(url: &CowStr) -> bool {
    match url.find([':', '/', '?', '#']) {
        Some(at) if url[at..].starts_with(':') => matches!(
            url[..at].to_ascii_lowercase().as_str(),
            "http" | "https" | "mailto"
        ),
        _ => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_lists_and_code_are_rendered() {
        let html = to_html(
            "Intro\n\n| a | b |\n|---|:-:|\n| 1 | 2 |\n\n- one\n- two\n\n```\nlet x = 1 < 2;\n```\n",
            0,
        );
        assert!(html.contains("<div class=\"tw\"><table>"), "{html}");
        assert!(html.contains("<th scope=\"col\">a</th>"), "{html}");
        assert!(
            html.contains("<th scope=\"col\" style=\"text-align: center\">b</th>"),
            "{html}"
        );
        assert!(html.contains("<li>one</li>"), "{html}");
        assert!(html.contains("<pre><code>let x = 1 &lt; 2;"), "{html}");
    }

    #[test]
    fn raw_html_is_shown_as_text() {
        let html = to_html(
            "Hi <script>alert(1)</script> there\n\n<div onclick=\"x()\">block</div>\n\n<img src=x onerror=alert(2)>",
            0,
        );
        assert!(!html.contains("<script"), "{html}");
        assert!(!html.contains("<div onclick"), "{html}");
        assert!(!html.contains("<img"), "{html}");
        assert!(
            html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"),
            "{html}"
        );
        assert!(
            // Body text needs no quote escaped: without a real `<` there is no attribute.
            html.contains("&lt;div onclick=\"x()\"&gt;block"),
            "{html}"
        );
    }

    #[test]
    fn only_safe_link_targets_survive() {
        let html = to_html(
            "[a](https://example.com) [b](javascript:alert(1)) [c](#schema-X) [d](JavaScript:x) \
             [e](data:text/html,hi) <mail@example.com> ![pic](https://example.com/p.png) ![bad](data:x)",
            0,
        );
        assert!(
            html.contains("<a href=\"https://example.com\">a</a>"),
            "{html}"
        );
        assert!(html.contains("<a href=\"#schema-X\">c</a>"), "{html}");
        assert!(html.contains("mailto:mail@example.com"), "{html}");
        assert!(
            html.contains("<a href=\"https://example.com/p.png\">pic</a>"),
            "{html}"
        );
        assert!(!html.to_lowercase().contains("javascript:"), "{html}");
        assert!(!html.contains("data:"), "{html}");
        assert!(!html.contains("<img"), "{html}");
        assert!(html.contains(" b ") && html.contains(" d ") && html.contains("bad"));
    }

    #[test]
    fn headings_move_down_and_stop_at_h6() {
        assert!(to_html("# Title", 2).starts_with("<h3>Title</h3>"));
        assert!(to_html("#### Deep", 4).starts_with("<h6>Deep</h6>"));
    }

    #[test]
    fn plain_text_drops_the_markup() {
        assert_eq!(
            plain("The **body** of `POST /jobs`.\nNext line."),
            "The body of POST /jobs. Next line."
        );
        assert_eq!(to_html("  \n", 0), "");
    }
}
