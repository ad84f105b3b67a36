use std::fmt;

use serde::{Deserialize, Serialize};

/// Where a job is in its life. It only ever moves forward:
/// `queued → running → completed | failed` (and `queued → failed` when it cannot start).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum JobStatus {
    Queued,
    Running,
    Completed,
    Failed,
}

impl JobStatus {
    pub fn is_finished(self) -> bool {
        matches!(self, Self::Completed | Self::Failed)
    }

    /// The allowed transitions; everything else (including staying put) is refused.
    pub fn can_become(self, next: JobStatus) -> bool {
        matches!(
            (self, next),
            (Self::Queued, Self::Running)
                | (Self::Queued, Self::Failed)
                | (Self::Running, Self::Completed)
                | (Self::Running, Self::Failed)
        )
    }
}

string_enum! {
    JobStatus {
        Queued => "queued",
        Running => "running",
        Completed => "completed",
        Failed => "failed",
    }
    from_str(ignore_case, |_| "must be one of queued, running, completed, failed".to_string())
}

impl fmt::Display for JobStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The pipeline's stages, in the order they run. Their names appear in `progress.stage`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Stage {
    /// `references`: fetch the home page of every site for its preview.
    References,
    /// `crawl`: crawl the primary and competitor sites (robots.txt, sitemaps, links).
    Crawl,
    /// `discovery`: find candidate keywords in the crawled content.
    Discovery,
    /// `metrics`: search volume, CPC, competition and difficulty of every keyword.
    Metrics,
    /// `analysis`: intent, clusters, personas and opportunity scores; then the results are
    /// published and the job completes.
    Analysis,
}

impl Stage {
    pub fn first() -> Self {
        Self::ALL[0]
    }

    pub fn index(self) -> usize {
        Self::ALL
            .iter()
            .position(|stage| *stage == self)
            .expect("every stage is listed")
    }

    pub fn next(self) -> Option<Self> {
        Self::ALL.get(self.index() + 1).copied()
    }
}

string_enum! {
    Stage {
        References => "references",
        Crawl => "crawl",
        Discovery => "discovery",
        Metrics => "metrics",
        Analysis => "analysis",
    }
}

/// How far a job has come, as the API shows it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Progress {
    /// The stage running now (or that failed); `null` before the first stage and once completed.
    pub stage: Option<Stage>,
    pub completed_stages: u32,
    pub total_stages: u32,
    /// 0 to 100.
    pub percent: u32,
    pub message: Option<String>,
}

impl Progress {
    pub fn waiting() -> Self {
        Self {
            stage: None,
            completed_stages: 0,
            total_stages: Stage::ALL.len() as u32,
            percent: 0,
            message: Some("Waiting to start".into()),
        }
    }

    /// Progress inside `stage`, with `fraction` (0..=1) of that stage done.
    pub fn within(stage: Stage, fraction: f64, message: impl Into<String>) -> Self {
        let total = Stage::ALL.len() as f64;
        let done = stage.index() as f64 + fraction.clamp(0.0, 1.0);
        Self {
            stage: Some(stage),
            completed_stages: stage.index() as u32,
            total_stages: Stage::ALL.len() as u32,
            percent: ((done / total) * 100.0).floor().min(99.0) as u32,
            message: Some(message.into()),
        }
    }

    pub fn completed() -> Self {
        let total = Stage::ALL.len() as u32;
        Self {
            stage: None,
            completed_stages: total,
            total_stages: total,
            percent: 100,
            message: Some("Completed".into()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn status_never_moves_backwards() {
        use JobStatus::*;
        for from in JobStatus::ALL {
            for to in JobStatus::ALL {
                let allowed = from.can_become(to);
                let expected = matches!(
                    (from, to),
                    (Queued, Running) | (Queued, Failed) | (Running, Completed) | (Running, Failed)
                );
                assert_eq!(allowed, expected, "{from} → {to}");
            }
        }
    }

    #[test]
    fn stages_run_in_order_and_end() {
        let mut stage = Stage::first();
        let mut seen = vec![stage];
        while let Some(next) = stage.next() {
            assert!(next > stage);
            seen.push(next);
            stage = next;
        }
        assert_eq!(seen, Stage::ALL);
    }

    #[test]
    fn progress_percent_grows_and_only_completion_reaches_100() {
        let mut last = 0;
        for stage in Stage::ALL {
            for fraction in [0.0, 0.5, 1.0] {
                let percent = Progress::within(stage, fraction, "").percent;
                assert!(percent >= last && percent < 100);
                last = percent;
            }
        }
        assert_eq!(Progress::completed().percent, 100);
    }
}
