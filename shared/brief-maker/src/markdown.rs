//! A brief as Markdown, for writers and for printing. Every text from a crawled page or a
//! keyword is escaped: it renders as the words it is, never as a link, an image or HTML.

use std::fmt::Write;

use kr_core::dataset::ClusterBrief;

pub fn render(brief: &ClusterBrief) -> String {
    let mut out = String::new();
    let mut line = |text: String| {
        out.push_str(&text);
        out.push('\n');
    };
    line(format!("# Brief: {}", escape(&brief.cluster_name)));
    line(String::new());
    line(format!(
        "- **Primary keyword:** {}{}",
        escape(&brief.primary_keyword.keyword),
        volume(brief.primary_keyword.search_volume)
    ));
    line(format!("- **Intent:** {}", brief.intent.as_str()));
    if let Some(kind) = brief.page_type {
        line(format!("- **Page type that ranks:** {}", kind.as_str()));
    }
    if let Some(action) = brief.action {
        let target = brief
            .target_url
            .as_deref()
            .map(|url| format!(" {}", code(url)))
            .unwrap_or_default();
        line(format!("- **Action:** {}{target}", action.as_str()));
    }
    if let Some(wording) = &brief.wording {
        section(
            &mut line,
            "For the writer",
            [
                format!("- **Working title:** {}", escape(&wording.title)),
                format!(
                    "- **Meta description:** {}",
                    escape(&wording.meta_description)
                ),
                String::new(),
                escape(&wording.summary),
            ]
            .into_iter(),
        );
    }
    section(
        &mut line,
        "Secondary keywords",
        brief
            .secondary_keywords
            .iter()
            .map(|k| format!("- {}{}", escape(&k.keyword), volume(k.search_volume))),
    );
    section(
        &mut line,
        "Outline",
        brief.outline.iter().map(|h| {
            let indent = if h.level == 3 { "  " } else { "" };
            format!("{indent}- {} ({} of the pages)", escape(&h.text), h.pages)
        }),
    );
    section(
        &mut line,
        "Questions to answer",
        brief.questions.iter().map(|q| format!("- {}", escape(q))),
    );
    if let Some(words) = brief.word_count {
        section(
            &mut line,
            "Length",
            std::iter::once(format!(
                "{} to {} words, median {}",
                words.min, words.max, words.median
            )),
        );
    }
    section(
        &mut line,
        "Terms the ranking pages use",
        brief
            .missing_terms
            .iter()
            .map(|t| format!("- {}", escape(t))),
    );
    section(
        &mut line,
        "Internal links",
        brief
            .internal_links
            .iter()
            .map(|l| format!("- {} {}", escape(&l.title), code(&l.url))),
    );
    section(
        &mut line,
        "Pages read",
        brief.sources.iter().enumerate().map(|(i, s)| {
            let what = match (&s.skipped_because, s.word_count) {
                (Some(reason), _) => format!("skipped: {}", escape(reason)),
                (None, Some(words)) => format!("{words} words"),
                (None, None) => "read".to_string(),
            };
            format!("{}. {} ({what})", i + 1, code(&s.url))
        }),
    );
    out
}

fn section(line: &mut impl FnMut(String), title: &str, items: impl Iterator<Item = String>) {
    let items: Vec<String> = items.collect();
    if items.is_empty() {
        return;
    }
    line(String::new());
    line(format!("## {title}"));
    line(String::new());
    items.into_iter().for_each(line);
}

fn volume(search_volume: Option<i64>) -> String {
    search_volume
        .map(|v| format!(" ({v}/mo)"))
        .unwrap_or_default()
}

/// Text as literal Markdown: one line, HTML and Markdown punctuation escaped.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .chars()
    {
        match c {
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '&' => out.push_str("&amp;"),
            '\\' | '`' | '*' | '_' | '{' | '}' | '[' | ']' | '(' | ')' | '#' | '+' | '-' | '.'
            | '!' | '|' | '~' => {
                let _ = write!(out, "\\{c}");
            }
            _ => out.push(c),
        }
    }
    out
}

/// An address as inline code: shown, never followed as a Markdown link.
fn code(url: &str) -> String {
    let clean: String = url
        .chars()
        .filter(|c| *c != '`' && !c.is_control())
        .collect();
    format!("`{clean}`")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crawled_text_renders_as_literal_text() {
        assert_eq!(
            escape("<script>alert(1)</script> [x](javascript:y) **b**\nnext"),
            "&lt;script&gt;alert\\(1\\)&lt;/script&gt; \\[x\\]\\(javascript:y\\) \\*\\*b\\*\\* next"
        );
        assert_eq!(code("https://a.example/`x`\n"), "`https://a.example/x`");
    }
}
