//! The monthly trend of a keyword as a small line in the keyword table.

use kr_core::dataset::MonthlySearch;
use maud::{html, Markup};

use crate::format::svg_number;

const SPARKLINE_WIDTH: f64 = 60.0;
const SPARKLINE_HEIGHT: f64 = 16.0;
/// Keeps the line's stroke inside the box at the highest and lowest points.
const SPARKLINE_PADDING: f64 = 1.5;

/// The monthly trend as a small line (Semrush's "Trend" column), oldest month first; `None` with
/// fewer than two months, where the table shows nothing rather than a flat line that would read
/// as a steady trend.
///
/// The vertical scale starts at zero, like the tools' trend bars: a min-to-max scale would make
/// 1,000 to 1,050 searches look like a surge.
pub fn sparkline(monthly_searches: &[MonthlySearch]) -> Option<Markup> {
    let months = chronological_months(monthly_searches);
    let [first, .., last] = months.as_slice() else {
        return None;
    };
    let label = format!(
        "Monthly searches, {} to {}",
        month_and_year(first),
        month_and_year(last)
    );
    let view_box = format!(
        "0 0 {} {}",
        svg_number(SPARKLINE_WIDTH),
        svg_number(SPARKLINE_HEIGHT)
    );
    // `fill="none"` is a presentation attribute, allowed by the Content-Security-Policy, and
    // says a polyline is a line; its colour is left to the stylesheet (`.sparkline`).
    Some(html! {
        svg class="sparkline" viewBox=(view_box) width=(svg_number(SPARKLINE_WIDTH))
            height=(svg_number(SPARKLINE_HEIGHT)) role="img" aria-label=(label) {
            title { (label) }
            polyline fill="none" points=(sparkline_points(&months)) {}
        }
    })
}

/// Oldest first, one value a month, months outside 1–12 dropped as unusable.
fn chronological_months(monthly_searches: &[MonthlySearch]) -> Vec<MonthlySearch> {
    let mut months: Vec<MonthlySearch> = monthly_searches
        .iter()
        .copied()
        .filter(|month| (1..=12).contains(&month.month))
        .collect();
    months.sort_by_key(|month| (month.year, month.month));
    months.dedup_by_key(|month| (month.year, month.month));
    months
}

fn sparkline_points(months: &[MonthlySearch]) -> String {
    let highest = months
        .iter()
        .map(|month| month.search_volume.max(0))
        .max()
        .unwrap_or(0);
    let step = (SPARKLINE_WIDTH - 2.0 * SPARKLINE_PADDING) / (months.len() - 1) as f64;
    let plot_height = SPARKLINE_HEIGHT - 2.0 * SPARKLINE_PADDING;
    let points: Vec<String> = months
        .iter()
        .enumerate()
        .map(|(i, month)| {
            let share = match highest {
                0 => 0.0,
                highest => month.search_volume.max(0) as f64 / highest as f64,
            };
            let x = SPARKLINE_PADDING + i as f64 * step;
            let y = SPARKLINE_HEIGHT - SPARKLINE_PADDING - share * plot_height;
            format!("{},{}", svg_number(x), svg_number(y))
        })
        .collect();
    points.join(" ")
}

fn month_and_year(month: &MonthlySearch) -> String {
    const NAMES: [&str; 12] = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ];
    format!("{} {}", NAMES[month.month as usize - 1], month.year)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn month(year: i32, month: u32, search_volume: i64) -> MonthlySearch {
        MonthlySearch {
            year,
            month,
            search_volume,
        }
    }

    #[test]
    fn sparkline_needs_two_months() {
        assert!(sparkline(&[]).is_none());
        assert!(sparkline(&[month(2025, 1, 100)]).is_none());
        // A month out of range is unusable, so this is one usable month.
        assert!(sparkline(&[month(2025, 1, 100), month(2025, 13, 100)]).is_none());
        assert!(sparkline(&[month(2025, 1, 100), month(2025, 2, 100)]).is_some());
    }

    #[test]
    fn sparkline_runs_oldest_first_and_is_labelled() {
        // Providers list the newest month first.
        let months = [month(2025, 12, 0), month(2025, 6, 50), month(2025, 1, 100)];
        let svg = sparkline(&months).unwrap().into_string();
        assert!(svg.contains(r#"role="img""#), "{svg}");
        assert!(
            svg.contains(r#"aria-label="Monthly searches, Jan 2025 to Dec 2025""#),
            "{svg}"
        );
        assert!(svg.contains("<title>Monthly searches, Jan 2025 to Dec 2025</title>"));
        // January is the highest (top, y = padding), December zero (bottom).
        assert!(svg.contains(r#"points="1.5,1.5 30,8 58.5,14.5""#), "{svg}");
        assert!(!svg.contains("style="));
    }

    #[test]
    fn sparkline_orders_across_years() {
        let months = [month(2025, 1, 10), month(2024, 12, 20), month(2024, 11, 30)];
        let svg = sparkline(&months).unwrap().into_string();
        assert!(svg.contains("Nov 2024 to Jan 2025"), "{svg}");
    }

    #[test]
    fn sparkline_of_no_searches_lies_flat_at_the_bottom() {
        let svg = sparkline(&[month(2025, 1, 0), month(2025, 2, 0)])
            .unwrap()
            .into_string();
        assert!(svg.contains(r#"points="1.5,14.5 58.5,14.5""#), "{svg}");
    }
}
