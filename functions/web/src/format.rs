//! How figures, bands and badges read on the dashboard: the conventions SEO users know from their
//! keyword tools (`../shared/design/dashboard.md`, beside the checkout), and the guard on links built from crawled
//! data.

use kr_core::dataset::{Intent, KeywordRecord, MonthlySearch, SerpFeature};
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

/// The URL, trimmed, if it is an absolute `http` or `https` URL with a host; `None` otherwise.
///
/// Every link and image built from crawled pages goes through this: the pages are written by
/// whoever owns them, and a `javascript:` or `data:` URL in an `href` runs in our origin. Only a
/// positive match on the scheme passes, so the many spellings browsers accept for dangerous
/// schemes (mixed case, embedded tabs and newlines, leading control characters) all fail.
pub fn safe_http_url(url: &str) -> Option<&str> {
    let url = url.trim();
    if url.chars().any(is_unsafe_in_url) {
        return None;
    }
    let (scheme, rest) = url.split_once(':')?;
    if !scheme.eq_ignore_ascii_case("http") && !scheme.eq_ignore_ascii_case("https") {
        return None;
    }
    // Browsers also read `https:host` and `https:///host` as `https://host`; requiring exactly the
    // canonical form keeps our reading of the host the same as theirs.
    let after_slashes = rest.strip_prefix("//")?;
    let authority_end = after_slashes
        .find(['/', '?', '#'])
        .unwrap_or(after_slashes.len());
    is_valid_authority(&after_slashes[..authority_end]).then_some(url)
}

/// `content` linking to `url` in a new tab when [`safe_http_url`] passes it, else `content` as
/// plain text. The page is someone else's: no `window.opener` for it, no referrer, and no
/// endorsement of it for search engines.
pub fn external_link(url: &str, content: impl maud::Render) -> Markup {
    html! {
        @match safe_http_url(url) {
            Some(href) => a href=(href) rel="noopener noreferrer nofollow" target="_blank" { (content) },
            None => (content),
        }
    }
}

/// A URL as link text: without its scheme, which every crawled page shares.
pub fn url_text(url: &str) -> &str {
    let url = url.trim();
    ["https://", "http://"]
        .into_iter()
        .find_map(|scheme| {
            url.get(..scheme.len())
                .filter(|head| head.eq_ignore_ascii_case(scheme))
                .map(|_| &url[scheme.len()..])
        })
        .unwrap_or(url)
}

/// Browsers strip tabs and newlines anywhere in a URL and control characters at its ends, which
/// is how `java\nscript:` slips past naive filters; the invisible and bidirectional formatting
/// characters disguise where a link goes; the rest never appear unencoded in a real URL and
/// parsers disagree about backslashes.
fn is_unsafe_in_url(c: char) -> bool {
    c.is_whitespace()
        || c.is_control()
        || matches!(c, '\\' | '<' | '>' | '"' | '`')
        || matches!(c, '\u{00AD}' | '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}')
        || matches!(c, '\u{2060}'..='\u{2064}' | '\u{2066}'..='\u{2069}' | '\u{FEFF}')
}

/// Credentials in a link (`https://bank.example@evil.example`) only serve to disguise its host,
/// so an authority with `@` is refused rather than parsed.
fn is_valid_authority(authority: &str) -> bool {
    if authority.contains('@') {
        return false;
    }
    match split_host_port(authority) {
        Some((host, port)) => is_valid_host(host) && is_valid_port(port),
        None => false,
    }
}

fn split_host_port(authority: &str) -> Option<(&str, &str)> {
    if authority.starts_with('[') {
        let end = authority.find(']')? + 1;
        let (host, rest) = authority.split_at(end);
        return match rest {
            "" => Some((host, "")),
            _ => Some((host, rest.strip_prefix(':')?)),
        };
    }
    Some(authority.split_once(':').unwrap_or((authority, "")))
}

fn is_valid_host(host: &str) -> bool {
    if let Some(address) = host.strip_prefix('[').and_then(|h| h.strip_suffix(']')) {
        return address.contains(':')
            && address
                .chars()
                .all(|c| c.is_ascii_hexdigit() || c == ':' || c == '.');
    }
    // Unicode letters are allowed for internationalised domain names.
    host.chars().any(char::is_alphanumeric)
        && host
            .chars()
            .all(|c| c.is_alphanumeric() || matches!(c, '-' | '.' | '_'))
}

/// An empty port (`http://host:/`) is valid and means the default.
fn is_valid_port(port: &str) -> bool {
    port.is_empty() || (port.bytes().all(|b| b.is_ascii_digit()) && port.parse::<u16>().is_ok())
}

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
    fn safe_http_url_passes_absolute_web_urls() {
        let cases = [
            ("https://ok.example/x?y=1", "https://ok.example/x?y=1"),
            ("http://ok.example", "http://ok.example"),
            ("HTTPS://OK.EXAMPLE/Path", "HTTPS://OK.EXAMPLE/Path"),
            ("  https://ok.example/  ", "https://ok.example/"),
            ("https://ok.example:8443/a#b", "https://ok.example:8443/a#b"),
            ("http://ok.example:/", "http://ok.example:/"),
            ("https://[2001:db8::1]:8080/", "https://[2001:db8::1]:8080/"),
            ("https://münchen.example/", "https://münchen.example/"),
            ("https://ok.example?q=a:b", "https://ok.example?q=a:b"),
            ("https://ok.example/a@b", "https://ok.example/a@b"),
        ];
        for (input, expected) in cases {
            assert_eq!(safe_http_url(input), Some(expected), "{input:?}");
        }
    }

    #[test]
    fn safe_http_url_refuses_hostile_and_odd_urls() {
        let hostile = [
            "javascript:alert(1)",
            "JaVaScRiPt:alert(1)",
            " javascript:alert(1)",
            "\njavascript:alert(1)",
            "\u{0}javascript:alert(1)",
            "java\tscript:alert(1)",
            "java\nscript:alert(1)",
            "javascript://ok.example/%0aalert(1)",
            "vbscript:msgbox(1)",
            "data:image/png;base64,iVBORw0KGgo=",
            "data:text/html,<script>alert(1)</script>",
            "file:///etc/passwd",
            "ftp://ok.example/",
            "//evil.com",
            "/relative/path",
            "relative/path",
            "?q=1",
            "#top",
            "",
            "   ",
            "https:",
            "https://",
            "https:///evil.com",
            "https:evil.com",
            "https:/evil.com",
            "https:\\\\evil.com",
            "https://\\evil.com",
            "https://ok.example@evil.com/",
            "https://user:pw@ok.example/",
            "https://ok.example:99999/",
            "https://ok.example:80a/",
            "https://ok.example/a b",
            "https://ok.example/\"onmouseover=alert(1)",
            "https://ok.example/<script>",
            "https://ok.example/\u{202E}gpj.exe",
            "https://ok\u{200B}.example/",
            "https://.../",
            "https://[not-ipv6]/",
            "https://ok.example\r\n/",
            "https://ok.example/a\u{7}b",
            "https://ok.example/\u{0}",
            "https://ok.example/\u{85}x",
            "http\u{0}://ok.example/",
        ];
        for input in hostile {
            assert_eq!(safe_http_url(input), None, "{input:?}");
        }
    }

    #[test]
    fn external_links_only_for_web_urls() {
        let link = external_link("https://ok.example/a", "ok").into_string();
        assert_eq!(
            link,
            r#"<a href="https://ok.example/a" rel="noopener noreferrer nofollow" target="_blank">ok</a>"#
        );
        let text = external_link("javascript:alert(1)", "javascript:alert(1)").into_string();
        assert_eq!(text, "javascript:alert(1)");
        assert_eq!(url_text("HTTPS://ok.example/a"), "ok.example/a");
        assert_eq!(url_text("javascript:alert(1)"), "javascript:alert(1)");
        assert_eq!(url_text("http:"), "http:");
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
