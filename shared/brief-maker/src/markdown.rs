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
        "Pages AI Overviews cite",
        brief.cited_pages.iter().map(|page| {
            let title = page
                .title
                .as_deref()
                .map(|t| format!("{} ", escape(t)))
                .unwrap_or_default();
            let what = match &page.skipped_because {
                Some(reason) => format!("not read: {}", escape(reason)),
                None if page.headings.is_empty() => "no headings".to_string(),
                None => page
                    .headings
                    .iter()
                    .map(|h| escape(h))
                    .collect::<Vec<_>>()
                    .join(" · "),
            };
            format!(
                "- {title}{} ({}, cited for {} keyword{}): {what}",
                code(&page.url),
                escape(&page.competitor),
                page.citations,
                if page.citations == 1 { "" } else { "s" }
            )
        }),
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

    #[test]
    fn cited_pages_render_their_hostile_titles_and_headings_inert() {
        use kr_core::dataset::{BriefKeyword, CitedPage, Intent};
        let brief = ClusterBrief {
            cluster_id: "c-1".into(),
            cluster_name: "cold brew".into(),
            primary_keyword: BriefKeyword {
                keyword: "cold brew".into(),
                search_volume: None,
                intent: Intent::Informational,
            },
            secondary_keywords: vec![],
            intent: Intent::Informational,
            page_type: None,
            action: None,
            target_url: None,
            outline: vec![],
            questions: vec![],
            word_count: None,
            missing_terms: vec![],
            internal_links: vec![],
            sources: vec![],
            generated_at: chrono::Utc::now(),
            wording: None,
            cited_pages: vec![CitedPage {
                url: "https://beanhub.com/g`)<x>".into(),
                competitor: "beanhub.com".into(),
                title: Some("<img src=x onerror=alert(1)>".into()),
                citations: 2,
                fetched: true,
                skipped_because: None,
                headings: vec!["[Ratio](javascript:x)".into(), "**Time**".into()],
            }],
        };
        let text = render(&brief);
        assert!(text.contains("## Pages AI Overviews cite"), "{text}");
        assert!(
            text.contains("&lt;img src=x onerror=alert\\(1\\)&gt; `https://beanhub.com/g)<x>`"),
            "{text}"
        );
        assert!(
            text.contains("\\[Ratio\\]\\(javascript:x\\) · \\*\\*Time\\*\\*"),
            "{text}"
        );
        assert!(text.contains("cited for 2 keywords"), "{text}");
        assert!(!text.contains("<img"), "{text}");
    }
}
