//! The opportunity map: keywords as bubbles by difficulty, volume and value.

use kr_core::dataset::KeywordRecord;
use maud::{html, Markup};

use super::{keywords_text, view_box, Rect, CHART_HEIGHT, CHART_WIDTH};
use crate::format::{self, svg_number, DifficultyBand};

/// The scatter's plot area inside the chart, leaving room on the left and below for the axes.
const PLOT: Rect = Rect {
    x: 56.0,
    y: 16.0,
    width: 568.0,
    height: 280.0,
};
const MIN_RADIUS: f64 = 2.0;
const MAX_RADIUS: f64 = 14.0;

/// A keyword with the two figures the map needs to place it.
struct ScatterPoint<'a> {
    keyword: &'a KeywordRecord,
    volume: i64,
    difficulty: i64,
}

/// Keywords as bubbles: difficulty across, search volume up on a log scale, the bubble's area
/// proportional to the opportunity value, its colour by intent. Easy, searched, valuable keywords
/// stand out as big bubbles in the top left.
///
/// Keywords without a volume or a difficulty cannot be placed; the chart says how many it left
/// out rather than letting the reader think it shows them all.
/// Keywords a chart leaves out beyond those it was given.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct LeftOut {
    /// Without a search volume or a difficulty: nowhere to place them.
    pub without_metrics: usize,
    /// Placeable, but of lower value than every one shown (a page stays light at any size).
    pub of_lower_value: usize,
}

pub fn opportunity_map(keywords: &[&KeywordRecord], left_out: LeftOut) -> Markup {
    let (mut points, skipped) = plottable_points(keywords);
    let left_out = LeftOut {
        without_metrics: left_out.without_metrics + skipped,
        ..left_out
    };
    let scale = VolumeScale::covering(points.iter().map(|point| point.volume));
    let largest_value = points
        .iter()
        .map(|point| point.keyword.opportunity_value)
        .filter(|value| value.is_finite())
        .fold(0.0, f64::max);
    let radius =
        |point: &ScatterPoint| bubble_radius(point.keyword.opportunity_value, largest_value);
    // Largest first, so the small bubbles drawn over them stay visible and can be hovered.
    points.sort_by(|a, b| radius(b).total_cmp(&radius(a)));
    let label = opportunity_map_label(points.len(), left_out);
    html! {
        svg class="chart opportunity-map" viewBox=(view_box(CHART_WIDTH, CHART_HEIGHT))
            width="100%" role="img" aria-label=(label) {
            title { (label) }
            (difficulty_axis())
            (volume_axis(&scale))
            g class="points" {
                @for point in &points {
                    circle class=(format!("point {}", format::intent_class(point.keyword.intent)))
                        cx=(svg_number(difficulty_x(point.difficulty)))
                        cy=(svg_number(scale.y(point.volume)))
                        r=(svg_number(radius(point))) {
                        title { (point_title(point)) }
                    }
                }
            }
            @if points.is_empty() {
                text class="chart-empty" x=(svg_number(PLOT.x + PLOT.width / 2.0))
                    y=(svg_number(PLOT.y + PLOT.height / 2.0)) text-anchor="middle" {
                    "No keywords with both a search volume and a difficulty"
                }
            }
            @if let Some(note) = left_out_note(left_out) {
                text class="chart-note" x=(svg_number(PLOT.right()))
                    y=(svg_number(CHART_HEIGHT - 6.0)) text-anchor="end" {
                    (note)
                }
            }
        }
    }
}

fn plottable_points<'a>(keywords: &[&'a KeywordRecord]) -> (Vec<ScatterPoint<'a>>, usize) {
    let points: Vec<ScatterPoint> = keywords
        .iter()
        .filter_map(|keyword| {
            Some(ScatterPoint {
                keyword,
                volume: keyword.search_volume?,
                difficulty: keyword.difficulty?,
            })
        })
        .collect();
    let skipped = keywords.len() - points.len();
    (points, skipped)
}

fn opportunity_map_label(plotted: usize, left_out: LeftOut) -> String {
    let mut label = format!(
        "Opportunity map of {}: difficulty across, monthly search volume up (log scale), \
         bubble size by opportunity value",
        keywords_text(plotted)
    );
    if let Some(note) = left_out_note(left_out) {
        label.push_str("; ");
        label.push_str(&note);
    }
    label
}

fn left_out_note(left_out: LeftOut) -> Option<String> {
    let parts: Vec<String> = [
        (left_out.of_lower_value, "of lower value"),
        (left_out.without_metrics, "without volume or difficulty"),
    ]
    .into_iter()
    .filter(|(count, _)| *count > 0)
    .map(|(count, why)| format!("{} {why}", keywords_text(count)))
    .collect();
    (!parts.is_empty()).then(|| format!("{} not shown", parts.join(" and ")))
}

fn point_title(point: &ScatterPoint) -> String {
    let keyword = point.keyword;
    // The design note asks that estimates never pass for measurements.
    let estimate = if keyword.is_estimate() {
        " (estimated from the crawl)"
    } else {
        ""
    };
    format!(
        "{} — {} searches/mo, KD {}, {}/mo{estimate}",
        keyword.keyword,
        format::volume_exact(Some(point.volume)),
        point.difficulty,
        format::money(keyword.opportunity_value)
    )
}

/// The bubble's area, not its radius, grows with the value, as the eye compares areas; the
/// clamp keeps worthless keywords visible and the most valuable from covering the chart.
fn bubble_radius(value: f64, largest_value: f64) -> f64 {
    if !(value > 0.0 && largest_value > 0.0) {
        return MIN_RADIUS;
    }
    (MAX_RADIUS * (value / largest_value).sqrt()).clamp(MIN_RADIUS, MAX_RADIUS)
}

fn difficulty_x(difficulty: i64) -> f64 {
    PLOT.x + difficulty.clamp(0, 100) as f64 / 100.0 * PLOT.width
}

/// The vertical scale: whole powers of ten at the bottom and top, so every gridline is a round
/// number (10, 100, 1K...).
struct VolumeScale {
    lowest_power: u32,
    highest_power: u32,
}

impl VolumeScale {
    /// Up to 1K when there is nothing to cover, so an empty chart still has an axis.
    fn covering(volumes: impl Iterator<Item = i64>) -> VolumeScale {
        let (lowest, highest) = volumes
            .map(plotted_volume)
            .fold(None, |range: Option<(u64, u64)>, volume| match range {
                None => Some((volume, volume)),
                Some((low, high)) => Some((low.min(volume), high.max(volume))),
            })
            .unwrap_or((1, 1_000));
        let lowest_power = lowest.ilog10();
        let highest_power = ceil_log10(highest).max(lowest_power + 1);
        VolumeScale {
            lowest_power,
            highest_power,
        }
    }

    fn y(&self, volume: i64) -> f64 {
        let decades = f64::from(self.highest_power - self.lowest_power);
        let above_bottom =
            ((plotted_volume(volume) as f64).log10() - f64::from(self.lowest_power)) / decades;
        PLOT.bottom() - above_bottom * PLOT.height
    }

    fn powers(&self) -> impl Iterator<Item = u32> {
        self.lowest_power..=self.highest_power
    }
}

/// A log scale has no zero: a keyword with no searches sits on the bottom line, with 1.
fn plotted_volume(volume: i64) -> u64 {
    volume.max(1).unsigned_abs()
}

fn ceil_log10(value: u64) -> u32 {
    let floor = value.ilog10();
    if 10u64.pow(floor) == value {
        floor
    } else {
        floor + 1
    }
}

/// Ticks at the difficulty bands' edges, so the axis reads in the scale the table's colours use.
fn difficulty_ticks() -> impl Iterator<Item = i64> {
    DifficultyBand::ALL
        .into_iter()
        .map(|band| band.range().0)
        .chain([100])
}

fn difficulty_axis() -> Markup {
    html! {
        g class="axis axis-difficulty" {
            @for difficulty in difficulty_ticks() {
                @let x = svg_number(difficulty_x(difficulty));
                line class="grid" x1=(x) x2=(x) y1=(svg_number(PLOT.y))
                    y2=(svg_number(PLOT.bottom())) {}
                text class="tick-label" x=(x) y=(svg_number(PLOT.bottom() + 16.0))
                    text-anchor="middle" { (difficulty) }
            }
            line class="axis-line" x1=(svg_number(PLOT.x)) x2=(svg_number(PLOT.right()))
                y1=(svg_number(PLOT.bottom())) y2=(svg_number(PLOT.bottom())) {}
            text class="axis-title" x=(svg_number(PLOT.x + PLOT.width / 2.0))
                y=(svg_number(PLOT.bottom() + 36.0)) text-anchor="middle" {
                "Keyword difficulty (" (DifficultyBand::SCALE) ")"
            }
        }
    }
}

fn volume_axis(scale: &VolumeScale) -> Markup {
    // Turned to read upwards, centred on the plot's height.
    let title_transform = format!(
        "translate(14 {}) rotate(-90)",
        svg_number(PLOT.y + PLOT.height / 2.0)
    );
    html! {
        g class="axis axis-volume" {
            @for power in scale.powers() {
                @let volume = 10i64.saturating_pow(power);
                @let y = svg_number(scale.y(volume));
                line class="grid" x1=(svg_number(PLOT.x)) x2=(svg_number(PLOT.right()))
                    y1=(y) y2=(y) {}
                text class="tick-label" x=(svg_number(PLOT.x - 6.0)) y=(y) dy="4"
                    text-anchor="end" { (format::volume(Some(volume))) }
            }
            line class="axis-line" x1=(svg_number(PLOT.x)) x2=(svg_number(PLOT.x))
                y1=(svg_number(PLOT.y)) y2=(svg_number(PLOT.bottom())) {}
            text class="axis-title" text-anchor="middle" transform=(title_transform) {
                "Monthly searches (log scale)"
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::charts::test_support::*;
    use kr_core::dataset::Intent;

    #[test]
    fn opportunity_map_skips_keywords_without_metrics_and_says_so() {
        let keywords = [
            keyword("measured", Some(1_000), Some(40), 100.0, Intent::Commercial),
            keyword("no volume", None, Some(40), 100.0, Intent::Commercial),
            keyword(
                "no difficulty",
                Some(1_000),
                None,
                100.0,
                Intent::Commercial,
            ),
            keyword("nothing", None, None, 100.0, Intent::Commercial),
        ];
        let refs: Vec<&KeywordRecord> = keywords.iter().collect();
        let svg = opportunity_map(&refs, LeftOut::default()).into_string();
        assert_eq!(tags(&svg, "circle").len(), 1, "{svg}");
        assert!(svg.contains("measured — "));
        assert!(!svg.contains("no volume — "));
        assert!(svg.contains("3 keywords without volume or difficulty not shown"));
        assert!(svg.contains(r#"class="chart-note""#));
        assert_clean_svg(&svg);
    }

    #[test]
    fn opportunity_map_names_both_kinds_of_keyword_left_out() {
        let keywords = [
            keyword("shown", Some(10), Some(10), 1.0, Intent::Informational),
            keyword("unplaced", None, Some(10), 1.0, Intent::Informational),
        ];
        let refs: Vec<&KeywordRecord> = keywords.iter().collect();
        let left_out = LeftOut {
            without_metrics: 1_999,
            of_lower_value: 97_000,
        };
        let svg = opportunity_map(&refs, left_out).into_string();
        assert_eq!(tags(&svg, "circle").len(), 1, "{svg}");
        assert!(svg.contains(
            "97,000 keywords of lower value and 2,000 keywords without volume or difficulty not shown"
        ), "{svg}");
    }

    #[test]
    fn opportunity_map_without_skips_has_no_note() {
        let keywords = [keyword("a", Some(10), Some(10), 1.0, Intent::Informational)];
        let svg = opportunity_map(&[&keywords[0]], LeftOut::default()).into_string();
        assert!(!svg.contains("chart-note"), "{svg}");
        assert!(!svg.contains("chart-empty"));
    }

    #[test]
    fn opportunity_map_escapes_hostile_keywords() {
        let hostile = keyword(
            "<script>alert(1)</script>\" onload=\"alert(2)",
            Some(100),
            Some(20),
            5.0,
            Intent::Navigational,
        );
        let svg = opportunity_map(&[&hostile], LeftOut::default()).into_string();
        assert!(!svg.contains("<script>"), "{svg}");
        assert!(svg.contains("&lt;script&gt;alert(1)&lt;/script&gt;&quot; onload=&quot;alert(2)"));
    }

    #[test]
    fn opportunity_map_places_difficulty_across_and_volume_up_on_a_log_scale() {
        let keywords = [
            keyword("easy rare", Some(10), Some(0), 1.0, Intent::Informational),
            keyword("middle", Some(100), Some(50), 1.0, Intent::Commercial),
            keyword(
                "hard popular",
                Some(1_000),
                Some(100),
                1.0,
                Intent::Transactional,
            ),
        ];
        let refs: Vec<&KeywordRecord> = keywords.iter().collect();
        let svg = opportunity_map(&refs, LeftOut::default()).into_string();
        let circles = tags(&svg, "circle");
        // Each keyword has its own intent, so the class finds its bubble.
        let position = |intent: Intent| {
            let class = format!("point {}", format::intent_class(intent));
            let circle = circles
                .iter()
                .find(|circle| attribute(circle, "class") == class)
                .unwrap();
            (number(circle, "cx"), number(circle, "cy"))
        };
        // The scale runs from 10 to 1K: two decades over the plot's height.
        assert_eq!(position(Intent::Informational), (PLOT.x, PLOT.bottom()));
        assert_eq!(
            position(Intent::Commercial),
            (PLOT.x + PLOT.width / 2.0, PLOT.y + PLOT.height / 2.0)
        );
        assert_eq!(position(Intent::Transactional), (PLOT.right(), PLOT.y));
        assert!(svg.contains(r#"class="point intent-transactional""#));
        assert_clean_svg(&svg);
    }

    #[test]
    fn opportunity_map_sizes_bubbles_by_area_and_draws_the_largest_first() {
        let keywords = [
            keyword("small", Some(100), Some(10), 25.0, Intent::Informational),
            keyword("worthless", Some(100), Some(10), 0.0, Intent::Informational),
            keyword("large", Some(100), Some(10), 100.0, Intent::Informational),
        ];
        let refs: Vec<&KeywordRecord> = keywords.iter().collect();
        let svg = opportunity_map(&refs, LeftOut::default()).into_string();
        let radii: Vec<f64> = tags(&svg, "circle")
            .iter()
            .map(|circle| number(circle, "r"))
            .collect();
        // A quarter of the value is half the radius.
        assert_eq!(radii, [MAX_RADIUS, MAX_RADIUS / 2.0, MIN_RADIUS]);
        let large = svg.find("large — ").unwrap();
        let small = svg.find("small — ").unwrap();
        assert!(large < small);
    }

    #[test]
    fn opportunity_map_is_labelled_and_has_axes() {
        let keywords = [keyword("a", Some(50), Some(30), 1.0, Intent::Informational)];
        let svg = opportunity_map(&[&keywords[0]], LeftOut::default()).into_string();
        assert!(svg.starts_with("<svg "));
        assert!(svg.contains(r#"role="img""#));
        assert!(svg.contains(r#"width="100%""#));
        assert!(svg.contains(r#"viewBox="0 0 640 360""#));
        assert!(svg.contains("aria-label=\"Opportunity map of 1 keyword:"));
        assert!(svg.contains("<title>Opportunity map of 1 keyword:"));
        assert!(svg.contains("Keyword difficulty (Semrush KD%)"));
        for tick in ["0", "15", "30", "50", "70", "85", "100", "10", "100"] {
            assert!(svg.contains(&format!(">{tick}</text>")), "tick {tick}");
        }
        assert!(
            svg.contains("a — 50 searches/mo, KD 30, $1/mo</title>"),
            "{svg}"
        );
    }

    #[test]
    fn opportunity_map_marks_estimates() {
        let mut estimated = keyword("a", Some(50), Some(30), 1.0, Intent::Informational);
        estimated.metrics_source = "estimate".to_owned();
        let svg = opportunity_map(&[&estimated], LeftOut::default()).into_string();
        assert!(svg.contains("(estimated from the crawl)</title>"), "{svg}");
    }

    #[test]
    fn opportunity_map_of_nothing_plottable() {
        let unmeasured = keyword("a", None, None, 1.0, Intent::Informational);
        let svg = opportunity_map(&[&unmeasured], LeftOut::default()).into_string();
        assert!(tags(&svg, "circle").is_empty());
        assert!(svg.contains("No keywords with both a search volume and a difficulty"));
        assert!(svg.contains("1 keyword without volume or difficulty not shown"));
        assert_clean_svg(&svg);
        assert!(opportunity_map(&[], LeftOut::default())
            .into_string()
            .contains("chart-empty"));
    }

    #[test]
    fn volume_scale_spans_whole_decades() {
        let scale = VolumeScale::covering([880, 12_345].into_iter());
        assert_eq!((scale.lowest_power, scale.highest_power), (2, 5));
        let scale = VolumeScale::covering([1_000].into_iter());
        assert_eq!((scale.lowest_power, scale.highest_power), (3, 4));
        let scale = VolumeScale::covering([0, 100].into_iter());
        assert_eq!((scale.lowest_power, scale.highest_power), (0, 2));
        assert_eq!(scale.y(0), PLOT.bottom());
        let scale = VolumeScale::covering([i64::MAX].into_iter());
        assert_eq!(scale.highest_power, 19);
    }
}
