//! The cluster treemap: each cluster a tile sized by search volume and linking to it.

use std::cmp::Reverse;

use kr_core::dataset::ClusterRecord;
use maud::{html, Markup};

use super::squarify::squarify;
use super::{keywords_text, view_box, Rect, CHART_HEIGHT, CHART_WIDTH};
use crate::format::{self, svg_number};

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::charts::test_support::*;
    use kr_core::dataset::Intent;

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
