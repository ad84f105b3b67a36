//! The intent mix: the keywords' split by intent as one bar and its legend.

use std::cmp::Reverse;

use kr_core::dataset::Intent;
use maud::{html, Markup};

use super::{keywords_text, view_box, Rect, CHART_WIDTH};
use crate::format::{self, svg_number};

const INTENT_BAR_HEIGHT: f64 = 24.0;

/// An intent's part of the keywords.
struct IntentShare {
    intent: Intent,
    count: usize,
    percent: usize,
}

impl IntentShare {
    /// "<1%" rather than a "0%" that would contradict a non-zero count.
    fn percent_text(&self) -> String {
        match (self.count, self.percent) {
            (1.., 0) => "<1%".to_owned(),
            (_, percent) => format!("{percent}%"),
        }
    }

    fn description(&self) -> String {
        format!(
            "{}: {} ({})",
            format::intent_label(self.intent),
            keywords_text(self.count),
            self.percent_text()
        )
    }
}

/// The keywords' split by intent as one bar filled to 100%, and a legend with each intent's
/// badge, count and percentage. Intents come in the usual order whatever the order given, and an
/// intent given twice counts once with both counts.
pub fn intent_mix(counts: &[(Intent, usize)]) -> Markup {
    let shares = intent_shares(counts);
    let total: usize = shares.iter().map(|share| share.count).sum();
    let label = intent_mix_label(&shares, total);
    html! {
        div class="intent-mix" {
            svg class="chart intent-mix-bar" viewBox=(view_box(CHART_WIDTH, INTENT_BAR_HEIGHT))
                width="100%" height=(svg_number(INTENT_BAR_HEIGHT)) preserveAspectRatio="none"
                role="img" aria-label=(label) {
                title { (label) }
                @if total == 0 {
                    rect class="intent-mix-empty" x="0" y="0" width=(svg_number(CHART_WIDTH))
                        height=(svg_number(INTENT_BAR_HEIGHT)) {}
                }
                @for (share, segment) in intent_segments(&shares, total) {
                    rect class=(format!("segment {}", format::intent_class(share.intent)))
                        x=(svg_number(segment.x)) y="0" width=(svg_number(segment.width))
                        height=(svg_number(INTENT_BAR_HEIGHT)) {
                        title { (share.description()) }
                    }
                }
            }
            ul class="chart-legend" {
                @for share in &shares {
                    li {
                        span class=(format!("intent-badge {}", format::intent_class(share.intent)))
                            aria-hidden="true" { (format::intent_letter(share.intent)) }
                        " " (format::intent_label(share.intent)) " "
                        span class="legend-count" { (format::count(share.count)) }
                        " "
                        span class="legend-percent" { "(" (share.percent_text()) ")" }
                    }
                }
            }
        }
    }
}

fn intent_shares(counts: &[(Intent, usize)]) -> Vec<IntentShare> {
    let present: Vec<(Intent, usize)> = Intent::ALL
        .into_iter()
        .filter(|intent| counts.iter().any(|(given, _)| given == intent))
        .map(|intent| {
            let count = counts
                .iter()
                .filter(|(given, _)| *given == intent)
                .map(|(_, count)| count)
                .sum();
            (intent, count)
        })
        .collect();
    let percents = whole_percents(&present.iter().map(|(_, count)| *count).collect::<Vec<_>>());
    present
        .into_iter()
        .zip(percents)
        .map(|((intent, count), percent)| IntentShare {
            intent,
            count,
            percent,
        })
        .collect()
}

/// Whole percentages that add up to exactly 100 (the largest remainder method), so the legend
/// never totals 99% or 101%.
fn whole_percents(counts: &[usize]) -> Vec<usize> {
    let total: usize = counts.iter().sum();
    if total == 0 {
        return vec![0; counts.len()];
    }
    let mut percents: Vec<usize> = counts.iter().map(|count| count * 100 / total).collect();
    let shortfall = 100 - percents.iter().sum::<usize>();
    let mut by_remainder: Vec<usize> = (0..counts.len()).collect();
    // Stable, so equal remainders go to the intent listed first.
    by_remainder.sort_by_key(|&i| Reverse(counts[i] * 100 % total));
    for i in by_remainder.into_iter().take(shortfall) {
        percents[i] += 1;
    }
    percents
}

/// Each non-empty share's stretch of the bar; positions come from running totals so the last
/// segment ends exactly at the bar's end.
fn intent_segments(shares: &[IntentShare], total: usize) -> Vec<(&IntentShare, Rect)> {
    let mut before = 0;
    let mut segments = Vec::new();
    for share in shares.iter().filter(|share| share.count > 0) {
        let x = CHART_WIDTH * before as f64 / total as f64;
        before += share.count;
        let end = CHART_WIDTH * before as f64 / total as f64;
        let segment = Rect {
            x,
            y: 0.0,
            width: end - x,
            height: INTENT_BAR_HEIGHT,
        };
        segments.push((share, segment));
    }
    segments
}

fn intent_mix_label(shares: &[IntentShare], total: usize) -> String {
    if total == 0 {
        return "Intent mix: no keywords".to_owned();
    }
    let parts: Vec<String> = shares.iter().map(IntentShare::description).collect();
    format!(
        "Intent mix of {}: {}",
        keywords_text(total),
        parts.join(", ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::charts::test_support::*;

    #[test]
    fn intent_mix_percentages_add_up_to_100() {
        assert_eq!(whole_percents(&[1, 1, 1]), [34, 33, 33]);
        assert_eq!(whole_percents(&[2, 1]), [67, 33]);
        assert_eq!(whole_percents(&[1, 199]), [1, 99]);
        assert_eq!(whole_percents(&[0, 0]), [0, 0]);
        assert_eq!(whole_percents(&[]), Vec::<usize>::new());
        let counts = [7, 13, 29, 51];
        assert_eq!(whole_percents(&counts).iter().sum::<usize>(), 100);
    }

    #[test]
    fn intent_mix_bar_fills_the_width_in_proportion() {
        let svg = intent_mix(&[
            (Intent::Commercial, 300),
            (Intent::Informational, 100),
            (Intent::Navigational, 0),
        ])
        .into_string();
        let segments = tags(&svg, "rect");
        // Informational comes first whatever the order given; an empty intent has no segment.
        assert_eq!(segments.len(), 2, "{svg}");
        assert_eq!(
            attribute(&segments[0], "class"),
            "segment intent-informational"
        );
        assert_eq!(number(&segments[0], "x"), 0.0);
        assert_eq!(number(&segments[0], "width"), 160.0);
        assert_eq!(
            attribute(&segments[1], "class"),
            "segment intent-commercial"
        );
        assert_eq!(number(&segments[1], "x"), 160.0);
        assert_eq!(number(&segments[1], "width"), 480.0);
        assert!(svg.contains("<title>Commercial: 300 keywords (75%)</title>"));
        assert_clean_svg(&svg);
    }

    #[test]
    fn intent_mix_legend_lists_each_intent_given() {
        let html = intent_mix(&[
            (Intent::Transactional, 1_284),
            (Intent::Navigational, 0),
            (Intent::Transactional, 1),
            (Intent::Informational, 100_000),
        ])
        .into_string();
        let items: Vec<&str> = html.split("<li>").skip(1).collect();
        assert_eq!(items.len(), 3, "{html}");
        assert!(items[0].contains(">I</span> Informational "));
        assert!(items[0].contains("100,000"));
        assert!(items[0].contains("(99%)"));
        assert!(items[1].contains("Transactional"));
        assert!(items[1].contains("1,285"), "counts given twice add up");
        assert!(items[1].contains("(1%)"));
        assert!(items[2].contains("Navigational"));
        assert!(items[2].contains("(0%)"));
        assert!(html.contains(r#"class="intent-badge intent-navigational""#));
        assert!(html.contains(r#"role="img""#));
        assert!(html.contains("aria-label=\"Intent mix of 101,285 keywords: Informational:"));
    }

    #[test]
    fn intent_mix_shows_a_tiny_share_as_less_than_one_percent() {
        let html =
            intent_mix(&[(Intent::Informational, 999), (Intent::Commercial, 1)]).into_string();
        // 0.1% rounds to 0, but a non-zero count never reads "0%".
        assert!(html.contains("(&lt;1%)"), "{html}");
        assert!(html.contains("(100%)"));
    }

    #[test]
    fn intent_mix_of_no_keywords() {
        let html = intent_mix(&[]).into_string();
        assert!(html.contains("intent-mix-empty"));
        assert!(html.contains("Intent mix: no keywords"));
        let html = intent_mix(&[(Intent::Commercial, 0)]).into_string();
        assert_eq!(tags(&html, "rect").len(), 1, "only the empty bar: {html}");
        assert!(html.contains("(0%)"));
    }
}
