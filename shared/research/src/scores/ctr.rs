//! Organic click-through rate by ranking position.
//!
//! Source: Backlinko and ClickFlow, "Here's What We Learned About Organic Click Through Rate"
//! (Brian Dean, 2019), Google Search Console data of 874,929 pages and 5,079,491 queries:
//! average CTR by position 1 to 10 of 31.73%, 24.71%, 18.66%, 13.60%, 9.51%, 6.23%, 4.15%,
//! 3.12%, 2.84% and 3.09%, and 0.78% of searchers clicking anything on page two.
//!
//! Two adjustments, so that a better position is never worth less: position 10 takes
//! position 9's 2.84% (the study's 3.09% at 10 is within its noise, as the study notes), and
//! page two's 0.78% is spread evenly over positions 11 to 20 (0.078% each). Beyond 20: 0.

const FIRST_PAGE: [f64; 10] = [
    0.3173, 0.2471, 0.1866, 0.1360, 0.0951, 0.0623, 0.0415, 0.0312, 0.0284, 0.0284,
];
const SECOND_PAGE_EACH: f64 = 0.0078 / 10.0;

/// Share of searchers clicking the result at `position` (1-based); 0 for position 0 or
/// beyond 20.
pub fn click_through_rate(position: u32) -> f64 {
    match position {
        1..=10 => FIRST_PAGE[position as usize - 1],
        11..=20 => SECOND_PAGE_EACH,
        _ => 0.0,
    }
}

/// CTR of the primary site now: 0 when it does not rank (or its rank is unknown).
pub fn current_click_through_rate(position: Option<u32>) -> f64 {
    position.map_or(0.0, click_through_rate)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn never_increases_with_position() {
        for position in 1..30 {
            assert!(click_through_rate(position) >= click_through_rate(position + 1));
        }
    }

    #[test]
    fn matches_the_study() {
        assert_eq!(click_through_rate(1), 0.3173);
        assert_eq!(click_through_rate(3), 0.1866);
        let page_two: f64 = (11..=20).map(click_through_rate).sum();
        assert!((page_two - 0.0078).abs() < 1e-12);
        assert_eq!(click_through_rate(0), 0.0);
        assert_eq!(click_through_rate(21), 0.0);
        assert_eq!(current_click_through_rate(None), 0.0);
    }
}
