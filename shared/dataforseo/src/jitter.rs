//! Random spread for pauses, so workers that failed together do not retry together.

use std::time::Duration;

pub fn up_to(max: Duration) -> Duration {
    let fraction = (uuid::Uuid::new_v4().as_u128() % 10_000) as f64 / 10_000.0;
    max.mul_f64(fraction)
}
