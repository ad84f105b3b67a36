//! Charts drawn on the server as SVG, so the dashboard needs no script to show them.
//!
//! Colours come only from classes (`intent-<name>`, `grid`, `axis-line`, `point`, `cluster`...):
//! the page's Content-Security-Policy forbids inline styles, and the stylesheet owns the palette.
//! Every SVG element is written with an end tag, because inside `<svg>` the HTML parser does not
//! know that `<circle>` is empty, and an unclosed one would swallow its siblings.

mod history;
mod intent_mix;
mod opportunity_map;
mod share_of_voice;
mod sparkline;
mod squarify;
#[cfg(test)]
mod test_support;
mod treemap;

pub use history::visibility;
pub use intent_mix::intent_mix;
pub use opportunity_map::{opportunity_map, LeftOut};
pub use share_of_voice::{share_of_voice, VoiceShare};
pub use sparkline::sparkline;
pub use treemap::{cluster_treemap, TREEMAP_MAX_CLUSTERS};

use crate::format::{self, svg_number};

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
