//! What the charts' tests share: records to draw and a reader for the SVG they draw.

use kr_core::dataset::{ClusterRecord, Intent, KeywordRecord};

use super::Rect;

pub(super) fn keyword(
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
        search_console: None,
        ai_overview: None,
    }
}

pub(super) fn cluster(id: &str, name: &str, volume: i64, intent: Intent) -> ClusterRecord {
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
pub(super) fn tags(svg: &str, name: &str) -> Vec<Vec<(String, String)>> {
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

pub(super) fn attribute<'a>(tag: &'a [(String, String)], name: &str) -> &'a str {
    tag.iter()
        .find(|(attribute, _)| attribute == name)
        .map(|(_, value)| value.as_str())
        .unwrap_or_else(|| panic!("no {name} in {tag:?}"))
}

pub(super) fn number(tag: &[(String, String)], name: &str) -> f64 {
    attribute(tag, name).parse().expect("a number")
}

pub(super) fn tag_rect(tag: &[(String, String)]) -> Rect {
    Rect {
        x: number(tag, "x"),
        y: number(tag, "y"),
        width: number(tag, "width"),
        height: number(tag, "height"),
    }
}

/// Every number in a geometric attribute has at most one decimal, and nothing is styled
/// inline (the Content-Security-Policy would drop it).
pub(super) fn assert_clean_svg(svg: &str) {
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
            for (attribute, value) in tag.iter().filter(|(a, _)| GEOMETRY.contains(&a.as_str())) {
                let numbers = value.split(|c: char| !(c.is_ascii_digit() || c == '.' || c == '-'));
                for number in numbers.filter(|n| !n.is_empty()) {
                    let decimals = number.split_once('.').map_or(0, |(_, d)| d.len());
                    assert!(decimals <= 1, "{attribute}=\"{value}\" in <{name}>");
                }
            }
        }
    }
}

pub(super) fn overlap(a: &Rect, b: &Rect) -> f64 {
    let width = a.right().min(b.right()) - a.x.max(b.x);
    let height = a.bottom().min(b.bottom()) - a.y.max(b.y);
    width.max(0.0) * height.max(0.0)
}
