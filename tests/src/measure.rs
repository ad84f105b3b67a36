//! What the benchmarks measure the same way: this process's peak memory and percentiles.

use std::time::Duration;

/// This process's peak resident memory so far (VmHWM), MiB; 0 where /proc does not say.
pub fn peak_memory_mib() -> f64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find(|l| l.starts_with("VmHWM:"))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|kib| kib.parse::<f64>().ok())
        .unwrap_or(0.0)
        / 1024.0
}

/// The `p` percentile (0 to 1, nearest rank) of sorted durations, ms; NaN when there are none.
pub fn percentile_ms(sorted: &[Duration], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    sorted[((sorted.len() as f64 - 1.0) * p).round() as usize].as_secs_f64() * 1000.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentiles_take_the_nearest_rank() {
        let sorted: Vec<Duration> = (1..=101).map(Duration::from_millis).collect();
        assert_eq!(percentile_ms(&sorted, 0.5), 51.0);
        assert_eq!(percentile_ms(&sorted, 0.99), 100.0);
        assert!(percentile_ms(&[], 0.5).is_nan());
    }

    #[test]
    fn this_process_has_a_peak() {
        assert!(peak_memory_mib() > 0.0);
    }
}
