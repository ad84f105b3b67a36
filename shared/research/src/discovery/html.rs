//! A small HTML-to-text converter for documents handed to keyphrase extraction: enough to
//! read an article's words, not a full HTML parser.

/// Whether `document` looks like HTML rather than plain text.
pub fn looks_like_html(document: &str) -> bool {
    let start = document.trim_start();
    if start.starts_with('<') {
        return true;
    }
    let lower = document.to_ascii_lowercase();
    ["</", "<br", "<p>", "<p ", "<div", "<html", "<body"]
        .iter()
        .any(|marker| lower.contains(marker))
}

/// Elements whose content is never visible text.
const SKIPPED: [&str; 5] = ["script", "style", "noscript", "template", "svg"];

/// Elements that start a new block: their boundaries end a phrase, as punctuation does.
const BLOCKS: [&str; 30] = [
    "p",
    "div",
    "br",
    "li",
    "ul",
    "ol",
    "tr",
    "td",
    "th",
    "table",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "title",
    "section",
    "article",
    "header",
    "footer",
    "nav",
    "aside",
    "main",
    "blockquote",
    "pre",
    "dt",
    "dd",
    "figcaption",
    "option",
];

/// The visible text of an HTML document. Block elements become `|` (a phrase boundary to the
/// tokenizer), inline elements vanish, common entities are decoded. `<title>` is kept: it is
/// usually the best summary of the page.
pub fn strip_html(document: &str) -> String {
    let mut out = String::with_capacity(document.len() / 2);
    let lower = document.to_ascii_lowercase();
    let mut rest = 0;
    while let Some(offset) = document[rest..].find('<') {
        let tag_start = rest + offset;
        out.push_str(&decode_entities(&document[rest..tag_start]));
        if lower[tag_start..].starts_with("<!--") {
            rest = lower[tag_start..]
                .find("-->")
                .map_or(document.len(), |end| tag_start + end + 3);
            continue;
        }
        let Some(tag_len) = document[tag_start..].find('>') else {
            rest = document.len();
            break;
        };
        let tag_end = tag_start + tag_len + 1;
        let name = tag_name(&lower[tag_start + 1..tag_end - 1]);
        let closing = lower[tag_start + 1..].starts_with('/');
        rest = tag_end;
        if !closing && name == "title" {
            if let Some(end) = lower[tag_end..].find("</title") {
                out.push_str(" | ");
                out.push_str(&decode_entities(&document[tag_end..tag_end + end]));
                out.push_str(" | ");
                rest = tag_end + end;
            }
        } else if !closing && SKIPPED.contains(&name) {
            let close = format!("</{name}");
            rest = lower[tag_end..]
                .find(&close)
                .map_or(document.len(), |end| tag_end + end);
        } else if BLOCKS.contains(&name) {
            out.push_str(" | ");
        } else {
            out.push(' ');
        }
    }
    if rest < document.len() {
        out.push_str(&decode_entities(&document[rest..]));
    }
    out
}

fn tag_name(inner: &str) -> &str {
    let inner = inner.trim_start_matches('/');
    let end = inner
        .find(|c: char| c.is_whitespace() || c == '/')
        .unwrap_or(inner.len());
    &inner[..end]
}

fn decode_entities(text: &str) -> String {
    if !text.contains('&') {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(amp) = rest.find('&') {
        out.push_str(&rest[..amp]);
        let after = &rest[amp..];
        let decoded = after.find(';').filter(|&end| end <= 10).and_then(|end| {
            let entity = &after[1..end];
            decode_entity(entity).map(|c| (c, end + 1))
        });
        match decoded {
            Some((c, len)) => {
                out.push(c);
                rest = &after[len..];
            }
            None => {
                out.push('&');
                rest = &after[1..];
            }
        }
    }
    out.push_str(rest);
    out
}

fn decode_entity(entity: &str) -> Option<char> {
    if let Some(number) = entity.strip_prefix('#') {
        let code = match number.strip_prefix(['x', 'X']) {
            Some(hex) => u32::from_str_radix(hex, 16).ok()?,
            None => number.parse().ok()?,
        };
        return char::from_u32(code);
    }
    Some(match entity {
        "amp" => '&',
        "lt" => '<',
        "gt" => '>',
        "quot" => '"',
        "apos" => '\'',
        "nbsp" => ' ',
        "ndash" => '–',
        "mdash" => '—',
        "rsquo" | "lsquo" => '\'',
        "hellip" => '…',
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn detects_html() {
        assert!(looks_like_html("<html><body>x</body></html>"));
        assert!(looks_like_html("Intro text<br>more"));
        assert!(!looks_like_html("a < b and c > d in plain text"));
    }

    #[test]
    fn keeps_visible_text_and_marks_blocks() {
        let html = "<html><head><title>Trail Shoes</title><style>p{color:red}</style>\
                    <script>var x = '<p>';</script></head><body><h1>Best&nbsp;trail shoes</h1>\
                    <!-- hidden --><p>Light <b>and</b> fast &amp; grippy</p></body></html>";
        let text = strip_html(html);
        assert!(text.contains("Trail Shoes"));
        assert!(text.contains("Best trail shoes"));
        assert!(text.contains("Light  and  fast & grippy"));
        assert!(!text.contains("color"));
        assert!(!text.contains("var x"));
        assert!(!text.contains("hidden"));
        let heading = text.find("Best").unwrap();
        let paragraph = text.find("Light").unwrap();
        assert!(text[heading..paragraph].contains('|'));
    }

    #[test]
    fn decodes_numeric_entities_and_leaves_unknown_ones() {
        assert_eq!(
            decode_entities("caf&#233; &#x41; &bogus; a&b"),
            "café A &bogus; a&b"
        );
    }
}
