use super::*;

/// SplitMix64: a tiny deterministic generator, so the property tests need no dependency and
/// every run checks the same inputs.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    /// Some value most of the time, None sometimes: scoring must cope with missing metrics.
    fn maybe<T>(&mut self, value: T) -> Option<T> {
        (self.below(5) != 0).then_some(value)
    }

    fn input(&mut self) -> ScoreInput {
        let volume = (self.unit().powi(3) * 200_000.0) as i64;
        let cpc = self.unit() * 60.0;
        let competition = self.unit();
        let difficulty = self.below(101) as i64;
        let position = self.below(25) as u32 + 1;
        ScoreInput {
            search_volume: self.maybe(volume),
            cpc: self.maybe(cpc),
            competition: self.maybe(competition),
            difficulty: self.maybe(difficulty),
            relevance: self.unit(),
            content_gap: self.below(2) == 0,
            primary_position: self.maybe(position),
        }
    }
}

const CASES: usize = 20_000;

/// Checks `holds(before, after)` for many random inputs and one changed field.
fn property(
    name: &str,
    change: impl Fn(&mut Rng, ScoreInput) -> ScoreInput,
    holds: impl Fn(&ScoreInput, &ScoreInput, Scores, Scores) -> bool,
) {
    let mut rng = Rng(0x5EED ^ name.len() as u64);
    let config = ScoreConfig::default();
    for case in 0..CASES {
        let before = rng.input();
        let after = change(&mut rng, before);
        let (a, b) = (score(&before, &config), score(&after, &config));
        assert!(
            holds(&before, &after, a, b),
            "{name}, case {case}: {before:?} → {a:?}; {after:?} → {b:?}"
        );
    }
}

#[test]
fn more_volume_never_lowers_a_score() {
    property(
        "volume",
        |rng, mut input| {
            let base = input.search_volume.unwrap_or(0);
            input.search_volume = Some(base + rng.below(50_000) as i64);
            input
        },
        |_, _, a, b| {
            b.organic_opportunity_score >= a.organic_opportunity_score
                && b.paid_opportunity_score >= a.paid_opportunity_score
                && b.opportunity_value >= a.opportunity_value
        },
    );
}

#[test]
fn more_difficulty_never_raises_the_organic_score() {
    property(
        "difficulty",
        |rng, mut input| {
            let base = input.difficulty.unwrap_or(0);
            input.difficulty = Some((base + rng.below(60) as i64).min(100));
            input
        },
        |before, _, a, b| {
            // Unknown difficulty counts as 50, so only compare known values.
            before.difficulty.is_none()
                || b.organic_opportunity_score <= a.organic_opportunity_score
        },
    );
}

#[test]
fn more_competition_never_raises_the_paid_score() {
    property(
        "competition",
        |rng, mut input| {
            let base = input.competition.unwrap_or(0.0);
            input.competition = Some((base + rng.unit()).min(1.0));
            input
        },
        |before, _, a, b| {
            before.competition.is_none() || b.paid_opportunity_score <= a.paid_opportunity_score
        },
    );
}

#[test]
fn higher_cpc_never_lowers_paid_score_or_value() {
    property(
        "cpc",
        |rng, mut input| {
            input.cpc = Some(input.cpc.unwrap_or(0.0) + rng.unit() * 20.0);
            input
        },
        |_, _, a, b| {
            b.paid_opportunity_score >= a.paid_opportunity_score
                && b.opportunity_value >= a.opportunity_value
        },
    );
}

#[test]
fn relevance_and_content_gap_never_lower_the_organic_score() {
    property(
        "relevance",
        |rng, mut input| {
            input.relevance = (input.relevance + rng.unit()).min(1.0);
            input.content_gap |= rng.below(2) == 0;
            input
        },
        |_, _, a, b| b.organic_opportunity_score >= a.organic_opportunity_score,
    );
}

#[test]
fn a_better_current_rank_never_raises_organic_score_or_value() {
    property(
        "rank",
        |rng, mut input| {
            input.primary_position = Some(match input.primary_position {
                Some(p) => 1 + rng.below(p as u64) as u32,
                None => 1 + rng.below(30) as u32,
            });
            input
        },
        |_, _, a, b| {
            b.organic_opportunity_score <= a.organic_opportunity_score
                && b.opportunity_value <= a.opportunity_value
        },
    );
}

#[test]
fn scores_stay_in_range() {
    property(
        "range",
        |_, input| input,
        |_, _, a, _| {
            (0.0..=100.0).contains(&a.organic_opportunity_score)
                && (0.0..=100.0).contains(&a.paid_opportunity_score)
                && a.opportunity_value >= 0.0
                && a.opportunity_value.is_finite()
        },
    );
}

#[test]
fn opportunity_value_follows_the_formula() {
    let input = ScoreInput {
        search_volume: Some(1000),
        cpc: Some(2.0),
        primary_position: Some(8),
        ..ScoreInput::default()
    };
    // 1000 × (18.66% − 3.12%) × $2 = $310.80
    assert_eq!(opportunity_value(&input, &ScoreConfig::default()), 310.8);
    let ranking_above_target = ScoreInput {
        primary_position: Some(1),
        ..input
    };
    assert_eq!(
        opportunity_value(&ranking_above_target, &ScoreConfig::default()),
        0.0
    );
    let not_ranking = ScoreInput {
        primary_position: None,
        ..input
    };
    assert_eq!(
        opportunity_value(&not_ranking, &ScoreConfig { target_position: 1 }),
        634.6
    );
}

#[test]
fn missing_metrics_are_handled() {
    let empty = ScoreInput::default();
    let scores = score(&empty, &ScoreConfig::default());
    assert_eq!(scores.opportunity_value, 0.0);
    assert_eq!(scores.paid_opportunity_score, 0.0);
    assert_eq!(scores.organic_opportunity_score, 0.0);
    let gap_only = ScoreInput {
        content_gap: true,
        ..empty
    };
    // 100 × 0.20 × (1 − 0.6 × 0.5) × 1 = 14
    assert_eq!(organic_opportunity_score(&gap_only), 14.0);
}

#[test]
fn relevance_is_log_scaled_to_the_best() {
    assert_eq!(relevance(10.0, 10.0), 1.0);
    assert_eq!(relevance(0.0, 10.0), 0.0);
    assert_eq!(relevance(5.0, 0.0), 0.0);
    let half = relevance(3.0, 15.0);
    assert!((half - 4f64.ln() / 16f64.ln()).abs() < 1e-12);
}
