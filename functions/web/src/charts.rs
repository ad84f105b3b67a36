//! Charts drawn on the server as SVG, so the dashboard needs no script to show them.
//!
//! Colours come only from classes (`intent-<name>`, `grid`, `axis-line`, `point`, `cluster`...):
//! the page's Content-Security-Policy forbids inline styles, and the stylesheet owns the palette.
//! Every SVG element is written with an end tag, because inside `<svg>` the HTML parser does not
//! know that `<circle>` is empty, and an unclosed one would swallow its siblings.

use std::cmp::Reverse;

use kr_core::dataset::{ClusterRecord, Intent, KeywordRecord};
use maud::{html, Markup};

use crate::format::{self, svg_number, DifficultyBand};

const CHART_WIDTH: f64 = 640.0;
const CHART_HEIGHT: f64 = 360.0;

fn view_box(width: f64, height: f64) -> String {
    format!("0 0 {} {}", svg_number(width), svg_number(height))
}

fn keywords_text(count: usize) -> String {
    match count {
        1 => "1 keyword".to_owned(),
        count => format!("{} keywords", format::count(count)),
    }
}

/// A rectangle in the chart's coordinates (y grows downwards).
#[derive(Debug, Clone, Copy, PartialEq)]
struct Rect {
    x: f64,
    y: f64,
    width: f64,
    height: f64,
}

impl Rect {
    fn right(&self) -> f64 {
        self.x + self.width
    }

    fn bottom(&self) -> f64 {
        self.y + self.height
    }

    fn area(&self) -> f64 {
        self.width * self.height
    }
}

// ---------------------------------------------------------------------------------------------
// Opportunity map
// ---------------------------------------------------------------------------------------------

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

// ---------------------------------------------------------------------------------------------
// Intent mix
// ---------------------------------------------------------------------------------------------

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

// ---------------------------------------------------------------------------------------------
// Cluster treemap
// ---------------------------------------------------------------------------------------------

/// More clusters than this make tiles too small to read or click.
pub const TREEMAP_MAX_CLUSTERS: usize = 60;
/// Every cluster gets at least this share of the area, so one without measured volume still
/// shows and can be clicked, at the cost of a little exaggeration for the smallest.
const TREEMAP_MIN_SHARE: f64 = 0.002;
/// The average advance of the label font (11px in the stylesheet), to guess what fits a tile.
const LABEL_CHAR_WIDTH: f64 = 6.5;
const LABEL_PADDING: f64 = 4.0;
const LABEL_LINE_HEIGHT: f64 = 14.0;
/// Fewer characters than this, ellipsis included, say nothing a reader could use ("clu…").
const LABEL_MIN_CHARS: usize = 6;

/// The clusters as a squarified treemap, each tile's area by total search volume, its colour by
/// dominant intent, and each a link (from `link`, which must give a same-site relative URL) to
/// the cluster. Only the [`TREEMAP_MAX_CLUSTERS`] largest are shown.
///
/// The `<svg>` is a labelled group rather than `role="img"`, which would hide the links inside it
/// from assistive technology; each link's `<title>` is its accessible name.
pub fn cluster_treemap(
    clusters: &[&ClusterRecord],
    link: impl Fn(&ClusterRecord) -> String,
) -> Markup {
    let shown = largest_clusters(clusters);
    let bounds = Rect {
        x: 0.0,
        y: 0.0,
        width: CHART_WIDTH,
        height: CHART_HEIGHT,
    };
    let tiles = squarify(&tile_areas(&shown, bounds.area()), bounds);
    let label = treemap_label(shown.len(), clusters.len());
    html! {
        svg class="chart cluster-treemap" viewBox=(view_box(CHART_WIDTH, CHART_HEIGHT))
            width="100%" role="group" aria-label=(label) {
            title { (label) }
            @if shown.is_empty() {
                text class="chart-empty" x=(svg_number(CHART_WIDTH / 2.0))
                    y=(svg_number(CHART_HEIGHT / 2.0)) text-anchor="middle" { "No clusters" }
            }
            @for (cluster, tile) in shown.iter().zip(&tiles) {
                (treemap_tile(cluster, *tile, &link(cluster)))
            }
        }
    }
}

/// Largest first, as the squarify algorithm needs them; ties keep the caller's order.
fn largest_clusters<'a>(clusters: &[&'a ClusterRecord]) -> Vec<&'a ClusterRecord> {
    let mut largest = clusters.to_vec();
    largest.sort_by_key(|cluster| Reverse(cluster.total_search_volume));
    largest.truncate(TREEMAP_MAX_CLUSTERS);
    largest
}

/// Each cluster's area, summing to `total_area`; in the clusters' order, so still largest first.
fn tile_areas(clusters: &[&ClusterRecord], total_area: f64) -> Vec<f64> {
    let volumes: Vec<f64> = clusters
        .iter()
        .map(|cluster| cluster.total_search_volume.max(1) as f64)
        .collect();
    let floor = volumes.iter().sum::<f64>() * TREEMAP_MIN_SHARE;
    let sizes: Vec<f64> = volumes.iter().map(|volume| volume.max(floor)).collect();
    let total_size: f64 = sizes.iter().sum();
    sizes
        .iter()
        .map(|size| size / total_size * total_area)
        .collect()
}

fn treemap_label(shown: usize, total: usize) -> String {
    let clusters = match total {
        1 => "1 cluster".to_owned(),
        total => format!("{} clusters", format::count(total)),
    };
    if shown < total {
        format!(
            "Clusters by search volume: the {} largest of {clusters}",
            format::count(shown)
        )
    } else {
        format!("Clusters by search volume: {clusters}")
    }
}

fn treemap_tile(cluster: &ClusterRecord, tile: Rect, href: &str) -> Markup {
    let body = html! {
        title { (tile_title(cluster)) }
        rect class=(format!("cluster {}", format::intent_class(cluster.dominant_intent)))
            x=(svg_number(tile.x)) y=(svg_number(tile.y))
            width=(svg_number(tile.width)) height=(svg_number(tile.height)) {}
        (tile_label(cluster, tile))
    };
    if is_relative_link(href) {
        html! { a href=(href) { (body) } }
    } else {
        html! { g class="cluster-unlinked" { (body) } }
    }
}

/// The caller promises a same-site relative link; checked anyway, because a broken promise here
/// would run script in our origin, while an unlinked tile is a harmless failure.
fn is_relative_link(href: &str) -> bool {
    if href.is_empty()
        || href.starts_with("//")
        || href.starts_with("/\\")
        || href
            .chars()
            .any(|c| c.is_whitespace() || c.is_control() || c == '\\')
    {
        return false;
    }
    // A colon before the path, query or fragment would make it a scheme.
    let first_part_end = href.find(['/', '?', '#']).unwrap_or(href.len());
    !href[..first_part_end].contains(':')
}

fn tile_title(cluster: &ClusterRecord) -> String {
    let difficulty = match cluster.avg_difficulty {
        Some(difficulty) if difficulty.is_finite() => format!(", average KD {difficulty:.0}"),
        _ => String::new(),
    };
    format!(
        "{} — {} searches/mo, {}{difficulty}, mostly {}",
        cluster.name,
        format::volume_exact(Some(cluster.total_search_volume)),
        keywords_text(cluster.keyword_count),
        cluster.dominant_intent.as_str()
    )
}

/// The name, and the volume below it, where the tile has room for them.
fn tile_label(cluster: &ClusterRecord, tile: Rect) -> Markup {
    let text_width = tile.width - 2.0 * LABEL_PADDING;
    let name = fit_text(cluster.name.trim(), text_width);
    let volume = format::volume(Some(cluster.total_search_volume));
    let shows_volume = tile.height >= 2.0 * LABEL_LINE_HEIGHT + LABEL_PADDING
        && fit_text(&volume, text_width).as_deref() == Some(volume.as_str());
    let x = svg_number(tile.x + LABEL_PADDING);
    html! {
        @if let Some(name) = name.filter(|_| tile.height >= LABEL_LINE_HEIGHT + LABEL_PADDING) {
            text class="treemap-label" x=(x) y=(svg_number(tile.y + LABEL_LINE_HEIGHT)) {
                (name)
            }
            @if shows_volume {
                text class="treemap-value" x=(x)
                    y=(svg_number(tile.y + 2.0 * LABEL_LINE_HEIGHT)) { (volume) }
            }
        }
    }
}

/// The text as it fits `width`, shortened with an ellipsis if need be; `None` when too little
/// would be left to read.
fn fit_text(text: &str, width: f64) -> Option<String> {
    let max_chars = (width / LABEL_CHAR_WIDTH).floor().max(0.0) as usize;
    let length = text.chars().count();
    if length == 0 || max_chars < LABEL_MIN_CHARS.min(length) {
        return None;
    }
    if length <= max_chars {
        return Some(text.to_owned());
    }
    let kept: String = text.chars().take(max_chars - 1).collect();
    Some(format!("{}…", kept.trim_end()))
}

/// Lays `areas` out in `bounds` as tiles close to square, with the squarified treemap algorithm
/// (Bruls, Huizing and van Wijk, 2000): tiles are added to a row along the shorter side of the
/// space left while that makes the row's worst aspect ratio better, then the row is laid down
/// and the next starts in what remains.
///
/// `areas` must be positive, largest first, and sum to the area of `bounds`; the tiles come back
/// in the same order.
fn squarify(areas: &[f64], bounds: Rect) -> Vec<Rect> {
    let mut tiles = Vec::with_capacity(areas.len());
    let mut remaining = bounds;
    let mut start = 0;
    while start < areas.len() {
        let side = remaining.width.min(remaining.height);
        let mut end = start + 1;
        while end < areas.len()
            && worst_aspect_ratio(&areas[start..=end], side)
                <= worst_aspect_ratio(&areas[start..end], side)
        {
            end += 1;
        }
        remaining = lay_down_row(&areas[start..end], remaining, &mut tiles);
        start = end;
    }
    tiles
}

/// The aspect ratio (longer over shorter side, 1 for a square) of the least square tile in a row
/// laid along a side of length `side`.
fn worst_aspect_ratio(row: &[f64], side: f64) -> f64 {
    let sum: f64 = row.iter().sum();
    let largest = row.iter().copied().fold(f64::MIN, f64::max);
    let smallest = row.iter().copied().fold(f64::MAX, f64::min);
    let side_squared = side * side;
    let sum_squared = sum * sum;
    (side_squared * largest / sum_squared).max(sum_squared / (side_squared * smallest))
}

/// Lays the row along the shorter side of `remaining` and returns the space left beside it.
fn lay_down_row(row: &[f64], remaining: Rect, tiles: &mut Vec<Rect>) -> Rect {
    let row_area: f64 = row.iter().sum();
    if remaining.width >= remaining.height {
        // A column on the left, as tall as the space.
        let thickness = row_area / remaining.height;
        let mut y = remaining.y;
        for area in row {
            let height = area / thickness;
            tiles.push(Rect {
                x: remaining.x,
                y,
                width: thickness,
                height,
            });
            y += height;
        }
        Rect {
            x: remaining.x + thickness,
            width: (remaining.width - thickness).max(0.0),
            ..remaining
        }
    } else {
        // A row along the top, as wide as the space.
        let thickness = row_area / remaining.width;
        let mut x = remaining.x;
        for area in row {
            let width = area / thickness;
            tiles.push(Rect {
                x,
                y: remaining.y,
                width,
                height: thickness,
            });
            x += width;
        }
        Rect {
            y: remaining.y + thickness,
            height: (remaining.height - thickness).max(0.0),
            ..remaining
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keyword(
        name: &str,
        volume: Option<i64>,
        difficulty: Option<i64>,
        value: f64,
        intent: Intent,
    ) -> KeywordRecord {
        KeywordRecord {
            id: "k-1".to_owned(),
            keyword: name.to_owned(),
            search_volume: volume,
            cpc: None,
            competition: None,
            difficulty,
            intent,
            secondary_intents: Vec::new(),
            persona_avatar_name: None,
            cluster_id: "c-1".to_owned(),
            cluster_name: "running shoes".to_owned(),
            organic_opportunity_score: 0.0,
            paid_opportunity_score: 0.0,
            opportunity_value: value,
            monthly_searches: Vec::new(),
            metrics_source: "dataforseo".to_owned(),
            rankings: Vec::new(),
            content_gap: false,
            source: None,
            topic_id: None,
            serp_features: None,
            people_also_ask: None,
            weak_spots: None,
        }
    }

    fn cluster(id: &str, name: &str, volume: i64, intent: Intent) -> ClusterRecord {
        ClusterRecord {
            id: id.to_owned(),
            name: name.to_owned(),
            primary_keyword: name.to_owned(),
            keyword_count: 3,
            total_search_volume: volume,
            avg_difficulty: Some(42.0),
            avg_cpc: None,
            dominant_intent: intent,
            organic_opportunity_score: 0.0,
            paid_opportunity_score: 0.0,
            opportunity_value: 0.0,

            ..ClusterRecord::default()
        }
    }

    /// The attributes of every `<name ...>` start tag, in order. Values never hold a `"`, as
    /// maud escapes it, so splitting on quotes is exact.
    fn tags(svg: &str, name: &str) -> Vec<Vec<(String, String)>> {
        let opening = format!("<{name} ");
        svg.match_indices(&opening)
            .map(|(start, _)| {
                let body = &svg[start + opening.len()..];
                let body = &body[..body.find('>').expect("a closed start tag")];
                let parts: Vec<&str> = body.split('"').collect();
                parts
                    .chunks(2)
                    .filter(|pair| pair.len() == 2)
                    .map(|pair| {
                        let attribute = pair[0].trim().trim_end_matches('=');
                        (attribute.to_owned(), pair[1].to_owned())
                    })
                    .collect()
            })
            .collect()
    }

    fn attribute<'a>(tag: &'a [(String, String)], name: &str) -> &'a str {
        tag.iter()
            .find(|(attribute, _)| attribute == name)
            .map(|(_, value)| value.as_str())
            .unwrap_or_else(|| panic!("no {name} in {tag:?}"))
    }

    fn number(tag: &[(String, String)], name: &str) -> f64 {
        attribute(tag, name).parse().expect("a number")
    }

    fn tag_rect(tag: &[(String, String)]) -> Rect {
        Rect {
            x: number(tag, "x"),
            y: number(tag, "y"),
            width: number(tag, "width"),
            height: number(tag, "height"),
        }
    }

    /// Every number in a geometric attribute has at most one decimal, and nothing is styled
    /// inline (the Content-Security-Policy would drop it).
    fn assert_clean_svg(svg: &str) {
        assert!(!svg.contains("style="), "inline style in {svg}");
        const GEOMETRY: [&str; 14] = [
            "x",
            "y",
            "x1",
            "x2",
            "y1",
            "y2",
            "cx",
            "cy",
            "r",
            "width",
            "height",
            "points",
            "viewBox",
            "transform",
        ];
        for name in ["svg", "rect", "circle", "line", "text", "polyline"] {
            for tag in tags(svg, name) {
                for (attribute, value) in tag.iter().filter(|(a, _)| GEOMETRY.contains(&a.as_str()))
                {
                    let numbers =
                        value.split(|c: char| !(c.is_ascii_digit() || c == '.' || c == '-'));
                    for number in numbers.filter(|n| !n.is_empty()) {
                        let decimals = number.split_once('.').map_or(0, |(_, d)| d.len());
                        assert!(decimals <= 1, "{attribute}=\"{value}\" in <{name}>");
                    }
                }
            }
        }
    }

    fn overlap(a: &Rect, b: &Rect) -> f64 {
        let width = a.right().min(b.right()) - a.x.max(b.x);
        let height = a.bottom().min(b.bottom()) - a.y.max(b.y);
        width.max(0.0) * height.max(0.0)
    }

    // --- opportunity map ---

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

    // --- intent mix ---

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

    // --- treemap layout ---

    /// Sizes spread over three orders of magnitude, largest first, scaled to `total_area`.
    fn uneven_areas(count: usize, total_area: f64) -> Vec<f64> {
        let mut seed: u64 = 42;
        let mut sizes: Vec<f64> = (0..count)
            .map(|_| {
                seed = seed
                    .wrapping_mul(6_364_136_223_846_793_005)
                    .wrapping_add(1_442_695_040_888_963_407);
                10f64.powf((seed >> 33) as f64 / (1u64 << 31) as f64 * 3.0)
            })
            .collect();
        sizes.sort_by(|a, b| b.total_cmp(a));
        let sum: f64 = sizes.iter().sum();
        sizes.iter().map(|size| size / sum * total_area).collect()
    }

    fn assert_tiles_the_bounds(areas: &[f64], tiles: &[Rect], bounds: Rect) {
        assert_eq!(tiles.len(), areas.len());
        let covered: f64 = tiles.iter().map(Rect::area).sum();
        assert!(
            (covered - bounds.area()).abs() <= bounds.area() * 0.01,
            "tiles cover {covered} of {}",
            bounds.area()
        );
        for (tile, area) in tiles.iter().zip(areas) {
            assert!(
                (tile.area() - area).abs() <= area * 1e-6,
                "{tile:?} should be {area}"
            );
            assert!(
                tile.x >= bounds.x - 1e-6 && tile.y >= bounds.y - 1e-6,
                "{tile:?}"
            );
            assert!(tile.right() <= bounds.right() + 1e-6, "{tile:?}");
            assert!(tile.bottom() <= bounds.bottom() + 1e-6, "{tile:?}");
        }
        for (i, a) in tiles.iter().enumerate() {
            for b in &tiles[i + 1..] {
                assert!(overlap(a, b) < 1e-6, "{a:?} overlaps {b:?}");
            }
        }
    }

    #[test]
    fn squarify_tiles_the_area_without_overlap() {
        let bounds = Rect {
            x: 0.0,
            y: 0.0,
            width: CHART_WIDTH,
            height: CHART_HEIGHT,
        };
        for count in [1, 2, 3, 7, 60] {
            let areas = uneven_areas(count, bounds.area());
            assert_tiles_the_bounds(&areas, &squarify(&areas, bounds), bounds);
        }
        let offset = Rect {
            x: 10.0,
            y: 20.0,
            width: 100.0,
            height: 300.0,
        };
        let areas = uneven_areas(25, offset.area());
        assert_tiles_the_bounds(&areas, &squarify(&areas, offset), offset);
    }

    #[test]
    fn squarify_follows_the_paper_example() {
        // Bruls et al.'s example: 6, 6, 4, 3, 2, 2, 1 in a 6 by 4 rectangle.
        let bounds = Rect {
            x: 0.0,
            y: 0.0,
            width: 6.0,
            height: 4.0,
        };
        let areas = [6.0, 6.0, 4.0, 3.0, 2.0, 2.0, 1.0];
        let tiles = squarify(&areas, bounds);
        assert_tiles_the_bounds(&areas, &tiles, bounds);
        // The two 6s stack in a column 3 wide on the left; the 4 and 3 share the top of the rest.
        assert_eq!(
            tiles[0],
            Rect {
                x: 0.0,
                y: 0.0,
                width: 3.0,
                height: 2.0
            }
        );
        assert_eq!(
            tiles[1],
            Rect {
                x: 0.0,
                y: 2.0,
                width: 3.0,
                height: 2.0
            }
        );
        assert!((tiles[2].y, tiles[3].y) == (0.0, 0.0), "{tiles:?}");
        assert!((tiles[2].height - 7.0 / 3.0).abs() < 1e-9, "{tiles:?}");
    }

    #[test]
    fn squarify_keeps_equal_tiles_near_square() {
        let bounds = Rect {
            x: 0.0,
            y: 0.0,
            width: CHART_WIDTH,
            height: CHART_HEIGHT,
        };
        let areas = vec![bounds.area() / 24.0; 24];
        for tile in squarify(&areas, bounds) {
            let ratio = tile.width.max(tile.height) / tile.width.min(tile.height);
            assert!(ratio < 2.0, "{tile:?}");
        }
    }

    // --- cluster treemap ---

    fn link(cluster: &ClusterRecord) -> String {
        format!("/jobs/j-1/clusters/{}", cluster.id)
    }

    #[test]
    fn treemap_tiles_link_to_their_clusters() {
        let clusters = [
            cluster("c-1", "running shoes", 50_000, Intent::Commercial),
            cluster("c-2", "trail running", 20_000, Intent::Informational),
            cluster("c-3", "buy spikes", 5_000, Intent::Transactional),
        ];
        let refs: Vec<&ClusterRecord> = clusters.iter().collect();
        let svg = cluster_treemap(&refs, link).into_string();
        let links = tags(&svg, "a");
        let hrefs: Vec<&str> = links.iter().map(|a| attribute(a, "href")).collect();
        assert_eq!(
            hrefs,
            [
                "/jobs/j-1/clusters/c-1",
                "/jobs/j-1/clusters/c-2",
                "/jobs/j-1/clusters/c-3"
            ]
        );
        let rects = tags(&svg, "rect");
        assert_eq!(attribute(&rects[0], "class"), "cluster intent-commercial");
        assert_eq!(
            attribute(&rects[2], "class"),
            "cluster intent-transactional"
        );
        assert!(svg.contains(
            "<title>running shoes — 50,000 searches/mo, 3 keywords, average KD 42, mostly commercial</title>"
        ), "{svg}");
        assert!(svg.contains(r#"role="group""#));
        assert!(svg.contains("aria-label=\"Clusters by search volume: 3 clusters\""));
        assert_clean_svg(&svg);
    }

    #[test]
    fn treemap_rectangles_tile_the_chart() {
        let clusters: Vec<ClusterRecord> = (0..40)
            .map(|i| {
                cluster(
                    &format!("c-{i}"),
                    "c",
                    (i * i * 37 + 5) % 9_000,
                    Intent::Commercial,
                )
            })
            .collect();
        let refs: Vec<&ClusterRecord> = clusters.iter().collect();
        let svg = cluster_treemap(&refs, link).into_string();
        let rects: Vec<Rect> = tags(&svg, "rect").iter().map(|tag| tag_rect(tag)).collect();
        assert_eq!(rects.len(), 40);
        let covered: f64 = rects.iter().map(Rect::area).sum();
        let total = CHART_WIDTH * CHART_HEIGHT;
        assert!(
            (covered - total).abs() <= total * 0.01,
            "covered {covered} of {total}"
        );
        // Rounding to a tenth of a unit can make neighbours touch by that much, no more.
        for (i, a) in rects.iter().enumerate() {
            for b in &rects[i + 1..] {
                let shared = a.width.min(b.width).max(a.height.min(b.height));
                assert!(overlap(a, b) <= 0.1 * shared + 1e-9, "{a:?} overlaps {b:?}");
            }
        }
    }

    #[test]
    fn treemap_keeps_clusters_without_volume_visible() {
        let clusters = [
            cluster("big", "big", 1_000_000, Intent::Commercial),
            cluster("none", "none", 0, Intent::Informational),
        ];
        let svg = cluster_treemap(&[&clusters[0], &clusters[1]], link).into_string();
        let rects = tags(&svg, "rect");
        let empty = tag_rect(&rects[1]);
        let total = CHART_WIDTH * CHART_HEIGHT;
        assert!(empty.area() >= total * TREEMAP_MIN_SHARE * 0.9, "{empty:?}");
        assert!(empty.area() < total * 0.01, "{empty:?}");
    }

    #[test]
    fn treemap_shows_only_the_largest_clusters() {
        // Given smallest first, to check the treemap picks by volume and not by position.
        let clusters: Vec<ClusterRecord> = (0..75)
            .map(|i| {
                cluster(
                    &format!("c-{i}"),
                    &format!("cluster {i}"),
                    i * 100,
                    Intent::Commercial,
                )
            })
            .collect();
        let refs: Vec<&ClusterRecord> = clusters.iter().collect();
        let svg = cluster_treemap(&refs, link).into_string();
        assert_eq!(tags(&svg, "rect").len(), TREEMAP_MAX_CLUSTERS);
        assert!(svg.contains("/clusters/c-74\""));
        assert!(svg.contains("/clusters/c-15\""));
        assert!(!svg.contains("/clusters/c-14\""));
        assert!(svg.contains("the 60 largest of 75 clusters"));
    }

    #[test]
    fn treemap_labels_only_tiles_with_room() {
        let mut clusters = vec![cluster(
            "c-0",
            "a very large cluster",
            1_000_000,
            Intent::Commercial,
        )];
        clusters.extend((1..30).map(|i| {
            cluster(
                &format!("c-{i}"),
                &format!("tiny {i}"),
                1,
                Intent::Commercial,
            )
        }));
        let refs: Vec<&ClusterRecord> = clusters.iter().collect();
        let svg = cluster_treemap(&refs, link).into_string();
        assert!(svg.contains(">a very large cluster</text>"), "{svg}");
        assert!(svg.contains(">1M</text>"));
        assert!(svg.contains("<title>tiny 1 — "));
        assert!(!svg.contains(">tiny 1</text>"), "{svg}");
        assert_clean_svg(&svg);
    }

    #[test]
    fn treemap_escapes_hostile_names_and_refuses_unsafe_links() {
        let clusters = [cluster(
            "c-1",
            "<script>alert(1)</script>",
            100,
            Intent::Commercial,
        )];
        let svg =
            cluster_treemap(&[&clusters[0]], |_| "javascript:alert(1)".to_owned()).into_string();
        assert!(!svg.contains("<script>"), "{svg}");
        assert!(svg.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
        assert!(!svg.contains("href"), "{svg}");
        assert!(svg.contains("cluster-unlinked"));
        let svg = cluster_treemap(&[&clusters[0]], |_| "/c?a=1&b=\"2\"".to_owned()).into_string();
        assert!(
            svg.contains(r#"href="/c?a=1&amp;b=&quot;2&quot;""#),
            "{svg}"
        );
    }

    #[test]
    fn relative_links() {
        for href in [
            "/jobs/j/clusters/c-1",
            "?cluster=c-1",
            "#c-1",
            "clusters/c-1",
            "c?x=a:b",
        ] {
            assert!(is_relative_link(href), "{href}");
        }
        for href in [
            "",
            "//evil.example/",
            "/\\evil.example/",
            "javascript:alert(1)",
            "JAVASCRIPT:alert(1)",
            "java\nscript:alert(1)",
            " /x",
            "https://evil.example/",
            "data:text/html,x",
        ] {
            assert!(!is_relative_link(href), "{href:?}");
        }
    }

    #[test]
    fn treemap_of_no_clusters() {
        let svg = cluster_treemap(&[], link).into_string();
        assert!(svg.contains("No clusters"));
        assert!(tags(&svg, "rect").is_empty());
    }

    #[test]
    fn long_labels_are_shortened_to_fit() {
        assert_eq!(
            fit_text("running shoes", 200.0).as_deref(),
            Some("running shoes")
        );
        // 52 units hold 8 characters: 7 and the ellipsis (and a space is not worth keeping).
        assert_eq!(fit_text("running shoes", 52.0).as_deref(), Some("running…"));
        assert_eq!(fit_text("running shoes", 20.0), None);
        assert_eq!(fit_text("ab", 13.0).as_deref(), Some("ab"));
        assert_eq!(fit_text("", 200.0), None);
        assert_eq!(fit_text("ünïcödé", 26.0), None);
        assert_eq!(fit_text("ünïcödé", 39.0).as_deref(), Some("ünïcö…"));
    }
}
