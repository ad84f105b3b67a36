//! The site's visibility per run, as two small line charts drawn on the server: its average
//! position (1 at the top, as rank trackers draw it) and the volume of the keywords it ranks
//! for in the top 10. A run without a figure (no ranking data) leaves a gap rather than a
//! made-up point.

use kr_query::RunPoint;
use maud::{html, Markup};

use crate::format::{self, svg_number};

const WIDTH: f64 = 640.0;
const HEIGHT: f64 = 170.0;
const LEFT: f64 = 56.0;
const RIGHT: f64 = 16.0;
const TOP: f64 = 14.0;
const BOTTOM: f64 = 30.0;

/// One series: a value per run (`None`: not measured in that run).
struct Series<'a> {
    title: &'a str,
    values: Vec<Option<f64>>,
    /// Smaller is better and is drawn higher (positions).
    inverted: bool,
    label: fn(f64) -> String,
}

fn run_date(run: &RunPoint) -> String {
    run.completed_at
        .map(|at| at.format("%Y-%m-%d").to_string())
        .unwrap_or_else(|| format::MISSING.into())
}

/// Both charts for `history` (oldest first).
pub fn visibility(history: &[RunPoint]) -> Markup {
    let position = Series {
        title: "Average position",
        values: history.iter().map(|run| run.average_position).collect(),
        inverted: true,
        label: |p| format!("{p:.1}"),
    };
    let volume = Series {
        title: "Visible volume (top 10)",
        // Like the position: a run where the site ranks for nothing measured has no figure
        // (offline runs have no ranking data), not a volume of 0.
        values: history
            .iter()
            .map(|run| (run.ranked_keywords > 0).then_some(run.visible_volume as f64))
            .collect(),
        inverted: false,
        label: |v| format::volume(Some(v.round() as i64)),
    };
    html! {
        (line_chart(history, &position))
        (line_chart(history, &volume))
    }
}

fn line_chart(history: &[RunPoint], series: &Series) -> Markup {
    let measured: Vec<f64> = series.values.iter().flatten().copied().collect();
    let (low, high) = measured
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &v| {
            (lo.min(v), hi.max(v))
        });
    if measured.is_empty() {
        return html! {
            figure.chart.history {
                h3 { (series.title) }
                p.muted { "Not measured in these runs (no ranking data)." }
            }
        };
    }
    // A flat series gets room around it, never below the scale's floor (position 1, volume 0).
    let floor = if series.inverted { 1.0 } else { 0.0 };
    let (low, high) = if (high - low).abs() < f64::EPSILON {
        ((low - 1.0).max(floor), high + 1.0)
    } else {
        (low, high)
    };
    let plot_width = WIDTH - LEFT - RIGHT;
    let plot_height = HEIGHT - TOP - BOTTOM;
    let x = |index: usize| {
        let steps = history.len().saturating_sub(1).max(1) as f64;
        LEFT + plot_width * index as f64 / steps
    };
    let y = |value: f64| {
        let share = (value - low) / (high - low);
        let share = if series.inverted { share } else { 1.0 - share };
        TOP + plot_height * share
    };
    // Unbroken stretches of measured runs, each one polyline.
    let mut stretches: Vec<Vec<(f64, f64)>> = vec![Vec::new()];
    for (index, value) in series.values.iter().enumerate() {
        match value {
            Some(value) => stretches.last_mut().unwrap().push((x(index), y(*value))),
            None => stretches.push(Vec::new()),
        }
    }
    let label = chart_label(history, series);
    html! {
        figure.chart.history {
            h3 { (series.title) }
            svg class="chart line-chart" viewBox={"0 0 " (svg_number(WIDTH)) " " (svg_number(HEIGHT))}
                role="img" aria-label=(label) {
                title { (label) }
                @for value in [low, high] {
                    line class="grid" x1=(svg_number(LEFT)) x2=(svg_number(WIDTH - RIGHT))
                        y1=(svg_number(y(value))) y2=(svg_number(y(value))) {}
                    text class="tick-label" x=(svg_number(LEFT - 6.0)) y=(svg_number(y(value) + 4.0))
                        text-anchor="end" { ((series.label)(value)) }
                }
                @for (index, run) in history.iter().enumerate() {
                    // The first and last dates sit inside the chart's edges.
                    @let anchor = match index {
                        0 => "start",
                        last if last + 1 == history.len() => "end",
                        _ => "middle",
                    };
                    text class="tick-label" x=(svg_number(x(index))) y=(svg_number(HEIGHT - 10.0))
                        text-anchor=(anchor) { (run_date(run)) }
                }
                @for stretch in stretches.iter().filter(|s| s.len() > 1) {
                    polyline class="history-line" fill="none" points=(points(stretch)) {}
                }
                @for (index, value) in series.values.iter().enumerate() {
                    @if let Some(value) = value {
                        circle class="history-point" cx=(svg_number(x(index))) cy=(svg_number(y(*value))) r="3.5" {
                            title { (run_date(&history[index])) ": " ((series.label)(*value)) }
                        }
                    }
                }
            }
        }
    }
}

fn points(stretch: &[(f64, f64)]) -> String {
    stretch
        .iter()
        .map(|(x, y)| format!("{},{}", svg_number(*x), svg_number(*y)))
        .collect::<Vec<_>>()
        .join(" ")
}

/// What the chart shows, for screen readers: every run's figure.
fn chart_label(history: &[RunPoint], series: &Series) -> String {
    let figures: Vec<String> = history
        .iter()
        .zip(&series.values)
        .map(|(run, value)| {
            let figure = value.map_or_else(|| "not measured".into(), series.label);
            format!("{} {figure}", run_date(run))
        })
        .collect();
    format!("{} per run: {}", series.title, figures.join("; "))
}

#[cfg(test)]
mod tests {
    use super::*;
    use kr_core::domain::JobId;

    fn run(day: u32, position: Option<f64>, volume: i64) -> RunPoint {
        RunPoint {
            job_id: JobId::new(),
            completed_at: Some(
                format!("2026-{day:02}-01T00:00:00Z")
                    .parse()
                    .expect("a valid date"),
            ),
            keyword_count: 10,
            ranked_keywords: usize::from(position.is_some()),
            average_position: position,
            visible_volume: volume,
        }
    }

    #[test]
    fn a_series_never_measured_says_so_instead_of_drawing_an_empty_scale() {
        let history = [run(1, None, 0), run(2, None, 0)];
        let markup = visibility(&history).into_string();
        // Offline runs: neither the position nor the visible volume is measured (not 0).
        assert_eq!(
            markup.matches("Not measured in these runs").count(),
            2,
            "{markup}"
        );
        assert_eq!(markup.matches("<svg").count(), 0, "no chart of nothing");
    }

    #[test]
    fn a_better_position_is_drawn_higher_and_a_run_without_one_leaves_a_gap() {
        let history = [
            run(1, Some(20.0), 100),
            run(2, None, 100),
            run(3, Some(8.0), 900),
            run(4, Some(5.0), 1200),
        ];
        let markup = visibility(&history).into_string();
        // Both lines break at run 2 (the site ranks for nothing measured there), leaving one
        // line each (runs 3–4).
        assert_eq!(
            markup.matches("class=\"history-line\"").count(),
            2,
            "{markup}"
        );
        assert!(markup.contains("2026-02-01 not measured"), "{markup}");
        let position = Series {
            title: "",
            values: vec![Some(20.0), Some(5.0)],
            inverted: true,
            label: |p| p.to_string(),
        };
        let chart = line_chart(&history[..2], &position).into_string();
        let cy: Vec<f64> = chart
            .split("cy=\"")
            .skip(1)
            .map(|rest| rest.split('"').next().unwrap().parse().unwrap())
            .collect();
        assert!(cy[1] < cy[0], "position 5 sits above position 20: {cy:?}");
    }
}
