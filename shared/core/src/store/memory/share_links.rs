//! Share links.
//!
//! Semantics kept from the adapter (`shared/aws/src/dynamo/share_links.rs`):
//! - A job has `max_live` slots; a link takes the first one that is empty or whose link has
//!   expired (at `now`, to the millisecond), so a job never has more than `max_live` live
//!   links and expired ones free their place by themselves. A token hash already in use
//!   takes no slot.
//! - Revoking removes the link and its token at once; a link whose expired slot was taken
//!   over still resolves (its lookup stays until the table's TTL), and readers check expiry.
//! - Deleting the job leaves its links; readers check the job.

use async_trait::async_trait;
use chrono::{DateTime, Utc};

use super::{millis, MemoryStore, SlotRecord};
use crate::domain::{JobId, SecretHash, ShareLink, ShareLinkId};
use crate::store::{ShareLinkStore, StoreError};

#[async_trait]
impl ShareLinkStore for MemoryStore {
    async fn create_share_link(
        &self,
        link: &ShareLink,
        token_hash: &SecretHash,
        max_live: u32,
        now: DateTime<Utc>,
    ) -> Result<bool, StoreError> {
        self.faults.check("create_share_link")?;
        let mut state = self.state();
        if state.share_lookup.contains_key(token_hash) {
            return Ok(false);
        }
        let free = (0..max_live).find(|slot| {
            state
                .share_slots
                .get(&(link.job_id, *slot))
                .is_none_or(|taken| millis(taken.link.expires_at) <= millis(now))
        });
        let Some(slot) = free else {
            return Ok(false);
        };
        state.share_slots.insert(
            (link.job_id, slot),
            SlotRecord {
                link: link.clone(),
                token_hash: token_hash.clone(),
            },
        );
        state.share_lookup.insert(token_hash.clone(), link.clone());
        Ok(true)
    }

    async fn list_share_links(
        &self,
        job: JobId,
        now: DateTime<Utc>,
    ) -> Result<Vec<ShareLink>, StoreError> {
        self.faults.check("list_share_links")?;
        let mut links: Vec<ShareLink> = self
            .state()
            .share_slots
            .iter()
            .filter(|((of, _), slot)| *of == job && slot.link.is_live(now))
            .map(|(_, slot)| slot.link.clone())
            .collect();
        links.sort_by(|a, b| b.created_at.cmp(&a.created_at).then(a.id.cmp(&b.id)));
        Ok(links)
    }

    async fn revoke_share_link(&self, job: JobId, link: ShareLinkId) -> Result<bool, StoreError> {
        self.faults.check("revoke_share_link")?;
        let mut state = self.state();
        let slot = state
            .share_slots
            .iter()
            .find(|((of, _), slot)| *of == job && slot.link.id == link)
            .map(|(key, _)| *key);
        let Some(slot) = slot.and_then(|key| state.share_slots.remove(&key)) else {
            return Ok(false);
        };
        state.share_lookup.remove(&slot.token_hash);
        Ok(true)
    }

    async fn resolve_share_link(
        &self,
        token_hash: &SecretHash,
    ) -> Result<Option<ShareLink>, StoreError> {
        self.faults.check("resolve_share_link")?;
        Ok(self.state().share_lookup.get(token_hash).cloned())
    }
}
