//! The site previews of finished jobs, kept per warm instance: they never change once a job
//! has finished, and reading them from S3 on every page would cost a request each time.

use std::sync::{Arc, Mutex};

use kr_core::domain::{Job, JobId};

use crate::pages::job::SitePreviews;

type Previews = Arc<SitePreviews>;

pub struct PreviewCache {
    capacity: usize,
    /// Most recently kept last; keyed by job and version, so a deleted and recreated id or a
    /// job that changed is never served stale.
    entries: Mutex<Vec<(JobId, u64, Previews)>>,
}

impl PreviewCache {
    pub fn new(capacity: usize) -> Self {
        Self {
            capacity: capacity.max(1),
            entries: Mutex::new(Vec::new()),
        }
    }

    pub fn get(&self, job: &Job) -> Option<Previews> {
        let entries = self.entries.lock().expect("preview cache lock");
        entries
            .iter()
            .find(|(id, version, _)| *id == job.id && *version == job.version)
            .map(|(_, _, previews)| previews.clone())
    }

    pub fn keep(&self, job: &Job, previews: Previews) {
        let mut entries = self.entries.lock().expect("preview cache lock");
        entries.retain(|(id, _, _)| *id != job.id);
        if entries.len() >= self.capacity {
            entries.remove(0);
        }
        entries.push((job.id, job.version, previews));
    }

    pub fn forget(&self, job: JobId) {
        self.entries
            .lock()
            .expect("preview cache lock")
            .retain(|(id, _, _)| *id != job);
    }
}
