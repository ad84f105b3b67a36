//! How figures, bands and badges read on the dashboard: the conventions SEO users know from their
//! keyword tools (`../shared/design/dashboard.md`, beside the checkout).

use kr_core::dataset::{Intent, KeywordRecord, SerpFeature};
use maud::{html, Markup};

/// What a missing figure shows: a dash reads as "unknown", where 0 would read as a measurement.
pub const MISSING: &str = "—";

/// Search volume as keyword tables show it: `880`, `1.2K`, `12K`, `1.3M`.
pub fn volume(volume: Option<i64>) -> String {
    match volume {
        Some(volume) => signed(volume, abbreviate(volume.unsigned_abs())),
        None => MISSING.to_owned(),
    }
}

/// Search volume in full (`12,345`), for tooltips where the abbreviation would hide detail.
pub fn volume_exact(volume: Option<i64>) -> String {
    match volume {
        Some(volume) => signed(volume, group_thousands(volume.unsigned_abs())),
        None => MISSING.to_owned(),
    }
}

/// A count of things, e.g. "1,284" keywords.
pub fn count(count: usize) -> String {
    group_thousands(count as u64)
}

/// A count with its noun, singular for one: "1 keyword", "1,284 keywords".
pub fn counted(count: usize, noun: &str) -> String {
    match count {
        1 => format!("1 {noun}"),
        _ => format!("{} {noun}s", self::count(count)),
    }
}

/// Cost per click in dollars with cents: `$0.45`.
pub fn cpc(cpc: Option<f64>) -> String {
    match cpc.filter(|cpc| cpc.is_finite()) {
        Some(cpc) => dollars(cpc, format!("{:.2}", cpc.abs())),
        None => MISSING.to_owned(),
    }
}

/// Whole dollars with thousands separators (`$1,234`), for opportunity values, where cents would
/// be false precision.
pub fn money(amount: f64) -> String {
    if !amount.is_finite() {
        return MISSING.to_owned();
    }
    dollars(amount, group_thousands(amount.abs().round() as u64))
}

/// Competition as the API gives it, 0.00 to 1.00.
pub fn competition(competition: Option<f64>) -> String {
    match competition.filter(|competition| competition.is_finite()) {
        Some(competition) => format!("{competition:.2}"),
        None => MISSING.to_owned(),
    }
}

/// Keyword difficulty as a whole number; its colour comes from [`difficulty_band`].
pub fn difficulty(difficulty: Option<i64>) -> String {
    match difficulty {
        Some(difficulty) => difficulty.to_string(),
        None => MISSING.to_owned(),
    }
}

fn signed(value: i64, magnitude: String) -> String {
    if value < 0 {
        format!("-{magnitude}")
    } else {
        magnitude
    }
}

/// A minus sign only where the printed amount is not zero, so -0.001 reads `$0.00`.
fn dollars(amount: f64, magnitude: String) -> String {
    let shows_nonzero = magnitude.bytes().any(|b| matches!(b, b'1'..=b'9'));
    if amount < 0.0 && shows_nonzero {
        format!("-${magnitude}")
    } else {
        format!("${magnitude}")
    }
}

fn group_thousands(value: u64) -> String {
    let digits = value.to_string();
    let mut grouped = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, digit) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            grouped.push(',');
        }
        grouped.push(digit);
    }
    grouped
}

/// One decimal below ten of a unit (`1.2K`), whole units above (`12K`). The unit is chosen after
/// rounding, so 999,999 reads `1M`, not `1000K`.
fn abbreviate(value: u64) -> String {
    const UNITS: [(u128, &str); 4] = [
        (1_000, "K"),
        (1_000_000, "M"),
        (1_000_000_000, "B"),
        (1_000_000_000_000, "T"),
    ];
    if value < 1_000 {
        return value.to_string();
    }
    let value = u128::from(value);
    for (i, (scale, suffix)) in UNITS.into_iter().enumerate() {
        let tenths = rounded_div(value * 10, scale);
        if tenths < 100 {
            return format!("{}{suffix}", tenths_text(tenths));
        }
        let whole = rounded_div(value, scale);
        if whole < 1_000 || i == UNITS.len() - 1 {
            return format!("{whole}{suffix}");
        }
    }
    unreachable!("the last unit always returns")
}

fn rounded_div(numerator: u128, denominator: u128) -> u128 {
    (numerator + denominator / 2) / denominator
}

/// `12` tenths reads `1.2`; `10` reads `1`, as keyword tools drop a trailing `.0`.
fn tenths_text(tenths: u128) -> String {
    match tenths % 10 {
        0 => (tenths / 10).to_string(),
        decimal => format!("{}.{decimal}", tenths / 10),
    }
}

/// A number for an SVG attribute: at most one decimal, which is finer than a pixel at any size
/// the dashboard draws, and keeps the markup short.
pub(crate) fn svg_number(value: f64) -> String {
    if !value.is_finite() {
        return "0".to_owned();
    }
    let rounded = (value * 10.0).round() / 10.0;
    if rounded.fract() == 0.0 {
        // Through an integer, so -0.0 prints as 0.
        format!("{}", rounded as i64)
    } else {
        format!("{rounded:.1}")
    }
}

/// Semrush's keyword difficulty (KD%) bands, green to dark red. The design note asks for one scale
/// with its legend; Semrush's is the one with the most users and the finest bands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DifficultyBand {
    VeryEasy,
    Easy,
    Possible,
    Difficult,
    Hard,
    VeryHard,
}

impl DifficultyBand {
    /// Easiest first, as the legend lists them.
    pub const ALL: [DifficultyBand; 6] = [
        DifficultyBand::VeryEasy,
        DifficultyBand::Easy,
        DifficultyBand::Possible,
        DifficultyBand::Difficult,
        DifficultyBand::Hard,
        DifficultyBand::VeryHard,
    ];

    /// The scale's name, for the legend to say which scale the bands follow.
    pub const SCALE: &'static str = "Semrush KD%";

    pub fn label(self) -> &'static str {
        match self {
            DifficultyBand::VeryEasy => "Very easy",
            DifficultyBand::Easy => "Easy",
            DifficultyBand::Possible => "Possible",
            DifficultyBand::Difficult => "Difficult",
            DifficultyBand::Hard => "Hard",
            DifficultyBand::VeryHard => "Very hard",
        }
    }

    pub fn css_class(self) -> &'static str {
        match self {
            DifficultyBand::VeryEasy => "kd-very-easy",
            DifficultyBand::Easy => "kd-easy",
            DifficultyBand::Possible => "kd-possible",
            DifficultyBand::Difficult => "kd-difficult",
            DifficultyBand::Hard => "kd-hard",
            DifficultyBand::VeryHard => "kd-very-hard",
        }
    }

    /// The lowest and highest difficulty in the band, both included, e.g. for a legend's "0–14".
    pub fn range(self) -> (i64, i64) {
        match self {
            DifficultyBand::VeryEasy => (0, 14),
            DifficultyBand::Easy => (15, 29),
            DifficultyBand::Possible => (30, 49),
            DifficultyBand::Difficult => (50, 69),
            DifficultyBand::Hard => (70, 84),
            DifficultyBand::VeryHard => (85, 100),
        }
    }
}

/// The band a difficulty falls in; values off the 0–100 scale (a provider's glitch) go to the
/// nearest end rather than nowhere.
pub fn difficulty_band(difficulty: i64) -> DifficultyBand {
    let difficulty = difficulty.clamp(0, 100);
    DifficultyBand::ALL
        .into_iter()
        .find(|band| difficulty <= band.range().1)
        .unwrap_or(DifficultyBand::VeryHard)
}

/// The one-letter intent badge keyword tools use: I, N, C, T.
pub fn intent_letter(intent: Intent) -> char {
    match intent {
        Intent::Informational => 'I',
        Intent::Navigational => 'N',
        Intent::Commercial => 'C',
        Intent::Transactional => 'T',
    }
}

/// The full word, for the badge's tooltip and the filter.
pub fn intent_label(intent: Intent) -> &'static str {
    match intent {
        Intent::Informational => "Informational",
        Intent::Navigational => "Navigational",
        Intent::Commercial => "Commercial",
        Intent::Transactional => "Transactional",
    }
}

/// The class that gives an intent its colour, in badges and charts alike.
pub fn intent_class(intent: Intent) -> &'static str {
    match intent {
        Intent::Informational => "intent-informational",
        Intent::Navigational => "intent-navigational",
        Intent::Commercial => "intent-commercial",
        Intent::Transactional => "intent-transactional",
    }
}

/// A keyword difficulty in tables: the number on its band's colour, the band in its tooltip;
/// [`MISSING`] when unknown.
pub fn difficulty_badge(difficulty: Option<i64>) -> Markup {
    html! {
        @match difficulty {
            Some(kd) => span class={"kd " (difficulty_band(kd).css_class())} title=(difficulty_band(kd).label()) { (kd) },
            None => (MISSING),
        }
    }
}

/// The one-letter intent badge of tables, its colour from the stylesheet, the full word in
/// its tooltip.
pub fn intent_badge(intent: Intent) -> Markup {
    html! {
        span class={"badge " (intent_class(intent))} title=(intent_label(intent)) data-intent=(intent.as_str()) {
            (intent_letter(intent))
        }
    }
}

/// The short mark of a SERP feature in the keyword table; its full name is the text
/// alternative beside it.
fn serp_feature_mark(feature: SerpFeature) -> &'static str {
    match feature {
        SerpFeature::AiOverview => "AI",
        SerpFeature::FeaturedSnippet => "FS",
        SerpFeature::PeopleAlsoAsk => "PAA",
        SerpFeature::LocalPack => "Map",
        SerpFeature::Shopping => "Shop",
        SerpFeature::Video => "Vid",
        SerpFeature::Images => "Img",
        SerpFeature::TopStories => "News",
        SerpFeature::KnowledgeGraph => "KP",
        SerpFeature::Sitelinks => "SL",
    }
}

/// What a keyword's results page shows: a mark per SERP feature (the People Also Ask one
/// lists the questions in its tooltip) and the number of weak spots (which, in its tooltip);
/// a dash when no results page was fetched for it.
pub fn serp_overview(keyword: &KeywordRecord) -> Markup {
    let Some(features) = &keyword.serp_features else {
        return html! { span.muted title="No results page was fetched for this keyword" { (MISSING) } };
    };
    let questions = keyword.people_also_ask.as_deref().unwrap_or_default();
    let spots = keyword.weak_spots.as_deref().unwrap_or_default();
    html! {
        @for feature in features {
            @let tooltip = if *feature == SerpFeature::PeopleAlsoAsk && !questions.is_empty() {
                format!("{}: {}", feature.label(), questions.join(" · "))
            } else {
                feature.label().to_owned()
            };
            span.feat data-feature=(feature.as_str()) title=(tooltip) {
                span aria-hidden="true" { (serp_feature_mark(*feature)) }
                span.sr-only { (feature.label()) }
            }
        }
        @if !spots.is_empty() {
            @let where_ = spots.iter().map(|s| format!("{} #{} ({})", s.site, s.position, s.kind.label())).collect::<Vec<_>>().join(", ");
            span.weak data-weak-spots=(spots.len()) title={"Weak spots, pages anyone can outrank: " (where_)} {
                (spots.len()) " weak"
            }
        }
    }
}

/// A further intent of a keyword, after its main badge (Semrush shows several alike): the same
/// look, "Also …" in its tooltip, and not `data-intent`, which names the intent filters and sorts go by.
pub fn secondary_intent_badge(intent: Intent) -> Markup {
    html! {
        span class={"badge secondary " (intent_class(intent))} title={"Also " (intent_label(intent).to_lowercase())} data-secondary-intent=(intent.as_str()) {
            (intent_letter(intent))
        }
    }
}

/// A moment as the dashboard shows it, machine-readable in `datetime`.
pub fn moment(at: &chrono::DateTime<chrono::Utc>) -> maud::Markup {
    maud::html! { time datetime=(kr_core::time::format(at)) { (at.format("%Y-%m-%d %H:%M UTC")) } }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn volume_abbreviates_like_keyword_tools() {
        assert_eq!(volume(Some(0)), "0");
        assert_eq!(volume(Some(880)), "880");
        assert_eq!(volume(Some(999)), "999");
        assert_eq!(volume(Some(1_000)), "1K");
        assert_eq!(volume(Some(1_234)), "1.2K");
        assert_eq!(volume(Some(1_250)), "1.3K");
        assert_eq!(volume(Some(9_949)), "9.9K");
        assert_eq!(volume(Some(12_345)), "12K");
        assert_eq!(volume(Some(123_456)), "123K");
        assert_eq!(volume(Some(1_300_000)), "1.3M");
        assert_eq!(volume(Some(45_000_000)), "45M");
        assert_eq!(volume(Some(2_000_000_000)), "2B");
        assert_eq!(volume(Some(-1_234)), "-1.2K");
        assert_eq!(volume(None), "—");
    }

    #[test]
    fn volume_changes_unit_after_rounding() {
        assert_eq!(volume(Some(9_950)), "10K");
        assert_eq!(volume(Some(999_499)), "999K");
        assert_eq!(volume(Some(999_500)), "1M");
        assert_eq!(volume(Some(999_999_999)), "1B");
        assert_eq!(volume(Some(i64::MAX)), "9223372T");
        assert_eq!(volume(Some(i64::MIN)), "-9223372T");
    }

    #[test]
    fn exact_volume_and_counts_group_thousands() {
        assert_eq!(volume_exact(Some(7)), "7");
        assert_eq!(volume_exact(Some(999)), "999");
        assert_eq!(volume_exact(Some(1_000)), "1,000");
        assert_eq!(volume_exact(Some(12_345)), "12,345");
        assert_eq!(volume_exact(Some(1_234_567)), "1,234,567");
        assert_eq!(volume_exact(Some(-12_345)), "-12,345");
        assert_eq!(volume_exact(None), "—");
        assert_eq!(count(0), "0");
        assert_eq!(count(1_284), "1,284");
        assert_eq!(count(100_000), "100,000");
        assert_eq!(counted(1, "keyword"), "1 keyword");
        assert_eq!(counted(0, "topic"), "0 topics");
        assert_eq!(counted(1_284, "keyword"), "1,284 keywords");
    }

    #[test]
    fn money_figures() {
        assert_eq!(cpc(Some(0.45)), "$0.45");
        assert_eq!(cpc(Some(2.0)), "$2.00");
        assert_eq!(cpc(Some(0.005)), "$0.01");
        assert_eq!(cpc(Some(-0.001)), "$0.00");
        assert_eq!(cpc(Some(-1.5)), "-$1.50");
        assert_eq!(cpc(Some(f64::NAN)), "—");
        assert_eq!(cpc(None), "—");
        assert_eq!(money(1_234.4), "$1,234");
        assert_eq!(money(0.4), "$0");
        assert_eq!(money(-2_500.0), "-$2,500");
        assert_eq!(money(f64::INFINITY), "—");
    }

    #[test]
    fn competition_and_difficulty() {
        assert_eq!(competition(Some(0.37)), "0.37");
        assert_eq!(competition(Some(1.0)), "1.00");
        assert_eq!(competition(Some(0.0)), "0.00");
        assert_eq!(competition(None), "—");
        assert_eq!(difficulty(Some(42)), "42");
        assert_eq!(difficulty(None), "—");
    }

    #[test]
    fn difficulty_bands_at_their_edges() {
        use DifficultyBand::*;
        let cases = [
            (0, VeryEasy),
            (14, VeryEasy),
            (15, Easy),
            (29, Easy),
            (30, Possible),
            (49, Possible),
            (50, Difficult),
            (69, Difficult),
            (70, Hard),
            (84, Hard),
            (85, VeryHard),
            (100, VeryHard),
            (-5, VeryEasy),
            (130, VeryHard),
        ];
        for (kd, band) in cases {
            assert_eq!(difficulty_band(kd), band, "KD {kd}");
        }
    }

    #[test]
    fn difficulty_bands_cover_the_scale_without_gaps() {
        let mut next = 0;
        for band in DifficultyBand::ALL {
            let (low, high) = band.range();
            assert_eq!(low, next, "{band:?} starts where the previous band ended");
            assert!(high >= low);
            next = high + 1;
        }
        assert_eq!(next, 101);
        assert_eq!(DifficultyBand::VeryEasy.css_class(), "kd-very-easy");
        assert_eq!(DifficultyBand::VeryHard.label(), "Very hard");
    }

    #[test]
    fn intent_badges() {
        let letters: String = Intent::ALL.into_iter().map(intent_letter).collect();
        assert_eq!(letters, "ICTN");
        assert_eq!(intent_label(Intent::Navigational), "Navigational");
        for intent in Intent::ALL {
            assert_eq!(intent_class(intent), format!("intent-{}", intent.as_str()));
            assert_eq!(intent_label(intent).to_lowercase(), intent.as_str());
        }
        let secondary = secondary_intent_badge(Intent::Commercial).into_string();
        assert!(
            secondary.contains(r#"title="Also commercial""#),
            "{secondary}"
        );
        assert!(secondary.contains(r#"data-secondary-intent="commercial""#));
        assert!(
            !secondary.contains("data-intent="),
            "filters read data-intent"
        );
    }

    #[test]
    fn svg_numbers_have_at_most_one_decimal() {
        assert_eq!(svg_number(12.0), "12");
        assert_eq!(svg_number(12.34), "12.3");
        assert_eq!(svg_number(12.36), "12.4");
        assert_eq!(svg_number(0.04), "0");
        assert_eq!(svg_number(-0.04), "0");
        assert_eq!(svg_number(-3.25), "-3.3");
        assert_eq!(svg_number(f64::NAN), "0");
    }
}
