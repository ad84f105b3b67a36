//! A sliding window held in the store: no span of `window` ever admits more than `limit`.
//!
//! A window is cut into 60 buckets (1 s buckets for a minute), counted in one item per
//! subject. A request adds one to its bucket and gets back, in the same atomic write, every
//! bucket; it counts the 61 that end with its own, a little more than the window, so every span
//! of one window length falls inside what its last request counted. It is admitted when their
//! sum (itself included) is within the limit; otherwise it takes its one back. Buckets the
//! window no longer counts are dropped by a second write once 15 of them have piled up, so the
//! item stays small (at most about 76 buckets) at one extra write per 15 s of a busy subject.
//! Requests racing for one subject are ordered by the item: of 30 at once against a limit of
//! 10 exactly 10 pass (a refused request only takes its one back once the sum is past
//! the limit, so sums up to the limit are reached by adds alone). Refused requests do not
//! stay counted, so a client that keeps retrying is admitted as soon as the window has room.

use chrono::{DateTime, Utc};

use super::RateStatus;
use crate::store::{RequestBucket as Bucket, RequestCounters, StoreError};

/// Buckets per window; a request counts this many before its own.
const BUCKETS_PER_WINDOW: i64 = 60;
/// Buckets no longer counted that a subject's item holds before they are dropped.
const DROP_AT: usize = 15;

/// One subject's limit: at most `limit` requests in any span of `window_secs`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SlidingWindow {
    pub limit: u32,
    pub window_secs: i64,
}

/// A request taken into a window; `give_back` removes it again (a request that should not
/// count after all, such as a correct sign-in).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Admitted {
    pub subject: String,
    pub bucket_start: i64,
}

/// How a window of `window_secs` is cut into buckets.
#[derive(Debug, Clone, Copy)]
struct Buckets {
    window_secs: i64,
}

impl Buckets {
    fn bucket_secs(self) -> i64 {
        (self.window_secs / BUCKETS_PER_WINDOW).max(1)
    }

    fn bucket_of(self, now: DateTime<Utc>) -> i64 {
        now.timestamp().div_euclid(self.bucket_secs()) * self.bucket_secs()
    }

    /// The first bucket a request in `bucket` counts.
    fn oldest_read(self, bucket: i64) -> i64 {
        bucket - BUCKETS_PER_WINDOW * self.bucket_secs()
    }

    /// Of `buckets`, those a request in `bucket` counts (oldest first), and the starts of
    /// those it no longer counts.
    fn split(self, buckets: Vec<Bucket>, bucket: i64) -> (Vec<Bucket>, Vec<i64>) {
        let oldest = self.oldest_read(bucket);
        let left_over = buckets
            .iter()
            .filter(|b| b.start < oldest)
            .map(|b| b.start)
            .collect();
        let mut counted: Vec<Bucket> = buckets
            .into_iter()
            .filter(|b| (oldest..=bucket).contains(&b.start))
            .collect();
        counted.sort_by_key(|b| b.start);
        (counted, left_over)
    }

    /// When a bucket stops being read (and is no longer worth keeping): once the current
    /// bucket is 61 buckets on.
    fn leaves_at(self, bucket_start: i64) -> i64 {
        bucket_start + (BUCKETS_PER_WINDOW + 1) * self.bucket_secs()
    }
}

impl SlidingWindow {
    pub fn new(limit: u32, window_secs: i64) -> Self {
        Self { limit, window_secs }
    }

    fn buckets(&self) -> Buckets {
        Buckets {
            window_secs: self.window_secs,
        }
    }

    /// Where a subject stands with `buckets` counted (oldest first) and one more request
    /// wanting in. `exceeded` when it does not fit.
    pub fn status(&self, buckets: &[Bucket], now: DateTime<Utc>) -> RateStatus {
        let now = now.timestamp();
        let held: u64 = buckets.iter().map(|bucket| bucket.count).sum();
        let limit = u64::from(self.limit);
        let exceeded = held + 1 > limit;
        // Seconds until the requests counted now fall to `target`, as buckets leave the window.
        let until_at_most = |target: u64| {
            let mut left = held;
            for bucket in buckets {
                if left <= target {
                    break;
                }
                left = left.saturating_sub(bucket.count);
                if left <= target {
                    return (self.buckets().leaves_at(bucket.start) - now).max(1);
                }
            }
            self.window_secs.max(1)
        };
        let reset = if exceeded {
            // Room for one more request.
            until_at_most(limit.saturating_sub(1))
        } else if let Some(oldest) = buckets.iter().find(|bucket| bucket.count > 0) {
            (self.buckets().leaves_at(oldest.start) - now).max(1)
        } else {
            self.window_secs.max(1)
        };
        let counted = if exceeded { held } else { held + 1 };
        RateStatus {
            limit: self.limit,
            remaining: limit.saturating_sub(counted) as u32,
            reset_secs: reset as u32,
            exceeded,
        }
    }

    /// The requests of `subject` the window holds at `now`, counting nothing.
    pub async fn held(
        &self,
        counters: &dyn RequestCounters,
        subject: &str,
        now: DateTime<Utc>,
    ) -> Result<u64, StoreError> {
        let geometry = self.buckets();
        let (buckets, _) =
            geometry.split(counters.buckets(subject).await?, geometry.bucket_of(now));
        Ok(buckets.iter().map(|bucket| bucket.count).sum())
    }

    /// Counts one request of `subject` and says whether it is admitted; a refused one is
    /// taken back out at once.
    pub async fn admit(
        &self,
        counters: &dyn RequestCounters,
        subject: &str,
        now: DateTime<Utc>,
    ) -> Result<(RateStatus, Option<Admitted>), StoreError> {
        count_request(counters, subject, self.window_secs, now)
            .await?
            .decide(counters, self.limit, now)
            .await
    }
}

/// The first half of `SlidingWindow::admit`, which needs no limit yet (a user's limit is their
/// plan's, read at the same time): the request counted in its window of `window_secs`, the
/// window read.
pub async fn count_request(
    counters: &dyn RequestCounters,
    subject: &str,
    window_secs: i64,
    now: DateTime<Utc>,
) -> Result<CountedRequest, StoreError> {
    let geometry = Buckets { window_secs };
    let bucket = geometry.bucket_of(now);
    let admitted = Admitted {
        subject: subject.to_string(),
        bucket_start: bucket,
    };
    let all = counters
        .add_to_bucket(subject, bucket, geometry.leaves_at(bucket))
        .await?;
    let (mut others, left_over) = geometry.split(all, bucket);
    if left_over.len() >= DROP_AT {
        counters.drop_buckets(subject, &left_over).await?;
    }
    // This request is in its own bucket: the others are what it waits behind.
    if let Some(own) = others.iter_mut().find(|b| b.start == bucket) {
        own.count = own.count.saturating_sub(1);
    }
    Ok(CountedRequest {
        window_secs,
        admitted,
        others,
    })
}

/// A request counted in its window, not yet admitted or refused.
#[derive(Debug)]
pub struct CountedRequest {
    window_secs: i64,
    admitted: Admitted,
    others: Vec<Bucket>,
}

impl CountedRequest {
    /// Admits the request when it fits `limit`, or takes it back out.
    pub async fn decide(
        self,
        counters: &dyn RequestCounters,
        limit: u32,
        now: DateTime<Utc>,
    ) -> Result<(RateStatus, Option<Admitted>), StoreError> {
        let status = SlidingWindow::new(limit, self.window_secs).status(&self.others, now);
        if status.exceeded {
            give_back(counters, std::slice::from_ref(&self.admitted)).await?;
            return Ok((status, None));
        }
        Ok((status, Some(self.admitted)))
    }
}

/// Takes admitted requests back out of their windows.
pub async fn give_back(
    counters: &dyn RequestCounters,
    admitted: &[Admitted],
) -> Result<(), StoreError> {
    for one in admitted {
        counters.take_back(&one.subject, one.bucket_start).await?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    fn at(secs: i64) -> DateTime<Utc> {
        Utc.timestamp_opt(secs, 0).unwrap()
    }

    fn bucket(start: i64, count: u64) -> Bucket {
        Bucket { start, count }
    }

    #[test]
    fn a_minute_window_reads_61_one_second_buckets() {
        let minute = Buckets { window_secs: 60 };
        assert_eq!(minute.bucket_secs(), 1);
        assert_eq!(minute.oldest_read(1_000), 940);
        assert_eq!(minute.leaves_at(940), 1_001);
        let login = Buckets { window_secs: 900 };
        assert_eq!(login.bucket_secs(), 15);
        assert_eq!(login.bucket_of(at(1_000_007)), 1_000_005);
    }

    #[test]
    fn only_the_buckets_a_request_counts_are_summed_and_older_ones_are_set_apart() {
        let minute = Buckets { window_secs: 60 };
        let buckets = vec![
            bucket(1_000, 5),
            bucket(939, 7),
            bucket(940, 1),
            bucket(990, 2),
            bucket(878, 3),
        ];
        let (counted, left_over) = minute.split(buckets, 1_000);
        assert_eq!(counted, [bucket(940, 1), bucket(990, 2), bucket(1_000, 5)]);
        assert_eq!(left_over, [939, 878]);
    }

    #[test]
    fn the_status_counts_what_is_held_and_says_when_room_comes_back() {
        let window = SlidingWindow::new(3, 60);
        let buckets = [bucket(100, 1), bucket(130, 2)];
        let full = window.status(&buckets, at(150));
        assert!(full.exceeded);
        assert_eq!(full.remaining, 0);
        // One request fits again once the bucket at 100 is no longer read (at 161).
        assert_eq!(full.reset_secs, 11);
        let one_held = window.status(&[bucket(130, 1)], at(150));
        assert!(!one_held.exceeded);
        assert_eq!(one_held.remaining, 1);
        assert_eq!(one_held.reset_secs, 41);
        let empty = window.status(&[], at(150));
        assert_eq!((empty.remaining, empty.exceeded), (2, false));
    }

    #[test]
    fn a_refused_request_waits_until_enough_buckets_have_left() {
        let window = SlidingWindow::new(4, 60);
        let buckets = [bucket(100, 1), bucket(110, 1), bucket(120, 2)];
        let refused = window.status(&buckets, at(125));
        assert!(refused.exceeded);
        // Dropping the first bucket leaves 3, room for a fourth: at 161.
        assert_eq!(refused.reset_secs, 36);
    }
}
