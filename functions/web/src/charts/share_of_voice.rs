//! AI Overviews' share of voice: per site (the job's own first, then each competitor), the
//! share of the keywords showing an AI Overview that cite it, as one horizontal bar each on a
//! 0–100 % scale.

use maud::{html, Markup};

use super::view_box;
use crate::format::{self, svg_number};

const WIDTH: f64 = 640.0;
/// The sites' names, left of the bars.
const LABELS: f64 = 200.0;
/// The percentage right of the longest bar.
const RIGHT: f64 = 56.0;
const TOP: f64 = 8.0;
const ROW: f64 = 30.0;
const BAR: f64 = 18.0;
/// The scale's tick labels under the bars.
const BOTTOM: f64 = 24.0;
/// A longer name is cut in the label (whole in its tooltip and in the list under the chart).
const MAX_LABEL_CHARS: usize = 28;

/// One site's bar.
pub struct VoiceShare<'a> {
    /// As the job lists it.
    pub domain: &'a str,
    /// The job's own site (else a competitor).
    pub own: bool,
    /// Keywords whose AI Overview cites it.
    pub cited: u32,
}

/// Whole percent of `part` in `whole` (0 for an empty whole).
fn percent(part: u32, whole: u32) -> f64 {
    if whole == 0 {
        0.0
    } else {
        (f64::from(part) / f64::from(whole) * 100.0).min(100.0)
    }
}

fn label(domain: &str) -> String {
    if domain.chars().count() <= MAX_LABEL_CHARS {
        domain.to_string()
    } else {
        let cut: String = domain.chars().take(MAX_LABEL_CHARS - 1).collect();
        format!("{cut}…")
    }
}

/// The chart of `shares` out of `overviews` keywords with an AI Overview. Names are text
/// (escaped); colours come from the classes `sov-bar own` and `sov-bar competitor`.
pub fn share_of_voice(overviews: u32, shares: &[VoiceShare]) -> Markup {
    let height = TOP + ROW * shares.len() as f64 + BOTTOM;
    let plot = WIDTH - LABELS - RIGHT;
    let x = |percent: f64| LABELS + plot * percent / 100.0;
    let description = shares
        .iter()
        .map(|share| {
            format!(
                "{}: {:.0}% ({} of {})",
                share.domain,
                percent(share.cited, overviews),
                format::count(share.cited as usize),
                format::count(overviews as usize)
            )
        })
        .collect::<Vec<_>>()
        .join("; ");
    let title = format!(
        "Share of the {} keywords with an AI Overview citing each site. {description}",
        format::count(overviews as usize)
    );
    html! {
        svg class="chart share-of-voice" viewBox=(view_box(WIDTH, height)) role="img" aria-label=(title) {
            title { (title) }
            @for tick in [0.0, 25.0, 50.0, 75.0, 100.0] {
                line class="grid" x1=(svg_number(x(tick))) x2=(svg_number(x(tick)))
                    y1=(svg_number(TOP)) y2=(svg_number(height - BOTTOM)) {}
                text class="tick-label" x=(svg_number(x(tick))) y=(svg_number(height - 8.0))
                    text-anchor="middle" { (tick) "%" }
            }
            @for (row, share) in shares.iter().enumerate() {
                @let top = TOP + ROW * row as f64;
                @let value = percent(share.cited, overviews);
                @let class = if share.own { "sov-bar own" } else { "sov-bar competitor" };
                g class="sov-row" data-domain=(share.domain) {
                    text class=(if share.own { "sov-label own" } else { "sov-label" })
                        x=(svg_number(LABELS - 8.0)) y=(svg_number(top + ROW / 2.0 + 4.0)) text-anchor="end" {
                        (label(share.domain))
                    }
                    rect class="sov-track" x=(svg_number(LABELS)) y=(svg_number(top + (ROW - BAR) / 2.0))
                        width=(svg_number(plot)) height=(svg_number(BAR)) {}
                    rect class=(class) x=(svg_number(LABELS)) y=(svg_number(top + (ROW - BAR) / 2.0))
                        width=(svg_number(plot * value / 100.0)) height=(svg_number(BAR)) {
                        title { (share.domain) ": " (format::count(share.cited as usize)) " of " (format::count(overviews as usize)) }
                    }
                    text class="sov-value" x=(svg_number(x(value) + 6.0)) y=(svg_number(top + ROW / 2.0 + 4.0)) {
                        (format!("{value:.0}%"))
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_site_has_a_bar_as_long_as_its_share_and_names_are_text() {
        let chart = share_of_voice(
            40,
            &[
                VoiceShare {
                    domain: "brightbrew-coffee.com",
                    own: true,
                    cited: 10,
                },
                VoiceShare {
                    domain: "<script>x</script>.com",
                    own: false,
                    cited: 30,
                },
            ],
        )
        .into_string();
        assert!(chart.contains("sov-bar own"), "{chart}");
        assert!(chart.contains("25%") && chart.contains("75%"), "{chart}");
        // 25 % of the plot (640 − 200 − 56 = 384) and 75 %.
        assert!(chart.contains(r#"width="96""#), "{chart}");
        assert!(chart.contains(r#"width="288""#), "{chart}");
        assert!(!chart.contains("<script>"), "{chart}");
        assert!(chart.contains("&lt;script&gt;"), "{chart}");
    }

    #[test]
    fn no_overview_draws_empty_bars_and_long_names_are_cut() {
        let chart = share_of_voice(
            0,
            &[VoiceShare {
                domain: "a-very-long-competitor-domain-name-indeed.example.com",
                own: false,
                cited: 0,
            }],
        )
        .into_string();
        assert!(chart.contains(r#"width="0""#), "{chart}");
        assert!(chart.contains("a-very-long-competitor-doma…"), "{chart}");
    }
}
