//! Standard Webhooks signatures. Each endpoint's secret is derived from one service key
//! (HMAC-SHA256 of the endpoint's id), so no secret is stored anywhere: the key lives in
//! Secrets Manager, a secret is shown once when its webhook is made, and both the API and the
//! notifier can derive it again.

use base64::engine::general_purpose::STANDARD;
use base64::Engine;
use hmac::{Hmac, KeyInit, Mac};
use sha2::{Digest, Sha256};

use crate::domain::{JobId, WebhookEvent, WebhookId};
use crate::store::{DeliveryTarget, EventSubject};

type HmacSha256 = Hmac<Sha256>;

/// Standard Webhooks' prefix of a secret.
pub const SECRET_PREFIX: &str = "whsec_";

/// The service's key all endpoint secrets derive from: at least 32 bytes.
#[derive(Clone)]
pub struct SigningKey(Vec<u8>);

impl std::fmt::Debug for SigningKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("SigningKey(…)")
    }
}

impl SigningKey {
    pub fn new(bytes: impl Into<Vec<u8>>) -> Result<Self, String> {
        let bytes = bytes.into();
        if bytes.len() < 32 {
            return Err("the webhook signing key must be at least 32 bytes".into());
        }
        Ok(Self(bytes))
    }

    fn derive(&self, label: &str) -> [u8; 32] {
        let mut mac = HmacSha256::new_from_slice(&self.0).expect("HMAC takes any key length");
        mac.update(label.as_bytes());
        mac.finalize().into_bytes().into()
    }

    /// The secret of an account webhook.
    pub fn webhook_secret(&self, id: WebhookId) -> EndpointSecret {
        EndpointSecret(self.derive(&format!("webhook:{id}")))
    }

    /// The secret of a job's `callbackUrl`.
    pub fn callback_secret(&self, job: JobId) -> EndpointSecret {
        EndpointSecret(self.derive(&format!("callback:{job}")))
    }
}

/// One endpoint's signing secret.
pub struct EndpointSecret([u8; 32]);

impl EndpointSecret {
    /// As Standard Webhooks writes it: `whsec_` and the base64 of the key bytes.
    pub fn reveal(&self) -> String {
        format!("{SECRET_PREFIX}{}", STANDARD.encode(self.0))
    }

    /// The `webhook-signature` header: `v1,` and the base64 HMAC-SHA256 of
    /// `{webhook-id}.{webhook-timestamp}.{body}`.
    pub fn sign(&self, message_id: &str, timestamp: i64, body: &[u8]) -> String {
        let mut mac = HmacSha256::new_from_slice(&self.0).expect("HMAC takes any key length");
        mac.update(format!("{message_id}.{timestamp}.").as_bytes());
        mac.update(body);
        format!("v1,{}", STANDARD.encode(mac.finalize().into_bytes()))
    }
}

/// The `webhook-id` of an event for one endpoint: the same for every retry and every
/// duplicate, so receivers can drop repeats.
pub fn message_id(subject: &EventSubject, event: WebhookEvent, target: DeliveryTarget) -> String {
    let target = match target {
        DeliveryTarget::Webhook(id) => id.to_string(),
        DeliveryTarget::Callback => "callback".into(),
    };
    // A job's ids are as they were before schedules had events: an event in flight across a
    // deploy keeps its id.
    let subject = match subject {
        EventSubject::Job { job_id } => job_id.to_string(),
        EventSubject::SkippedRun(run) => {
            format!("schedule:{}:{}", run.schedule_id, run.slot.timestamp())
        }
    };
    let digest = Sha256::digest(format!("{subject}:{}:{target}", event.as_str()));
    format!("msg_{}", &hex::encode(digest)[..32])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secrets_are_stable_per_endpoint_and_signatures_follow_the_standard() {
        let key = SigningKey::new(vec![7u8; 32]).unwrap();
        let id: WebhookId = "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11".parse().unwrap();
        let secret = key.webhook_secret(id);
        assert_eq!(secret.reveal(), key.webhook_secret(id).reveal());
        assert!(secret.reveal().starts_with("whsec_"));
        assert_ne!(
            secret.reveal(),
            key.webhook_secret(WebhookId::new()).reveal()
        );
        // The Standard Webhooks specification's example. Its secret is 24 bytes; HMAC pads a
        // short key with zeros, so the same key zero-padded to 32 bytes signs alike.
        let mut padded = [0u8; 32];
        padded[..24].copy_from_slice(&STANDARD.decode("MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw").unwrap());
        let signature = EndpointSecret(padded).sign(
            "msg_p5jXN8AQM9LWM0D4loKWxJek",
            1614265330,
            br#"{"test": 2432232314}"#,
        );
        assert_eq!(signature, "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=");
        assert!(SigningKey::new(vec![1u8; 31]).is_err());
    }

    #[test]
    fn message_ids_depend_on_subject_event_and_endpoint_only() {
        let job = &EventSubject::Job {
            job_id: JobId::new(),
        };
        let id = WebhookId::new();
        let a = message_id(job, WebhookEvent::JobCompleted, DeliveryTarget::Webhook(id));
        assert_eq!(
            a,
            message_id(job, WebhookEvent::JobCompleted, DeliveryTarget::Webhook(id))
        );
        assert_ne!(
            a,
            message_id(job, WebhookEvent::JobFailed, DeliveryTarget::Webhook(id))
        );
        assert_ne!(
            a,
            message_id(job, WebhookEvent::JobCompleted, DeliveryTarget::Callback)
        );
        assert!(a.starts_with("msg_") && a.len() == 36);
        let (owner, schedule) = (
            crate::domain::UserId::new(),
            crate::domain::ScheduleId::new(),
        );
        let skipped = |slot: i64| {
            EventSubject::SkippedRun(crate::store::SkippedRun {
                owner,
                schedule_id: schedule,
                slot: chrono::DateTime::from_timestamp(slot, 0).unwrap(),
                reason: "no runs left".into(),
            })
        };
        let skip = |slot: i64| {
            message_id(
                &skipped(slot),
                WebhookEvent::ScheduleRunSkipped,
                DeliveryTarget::Webhook(id),
            )
        };
        assert_eq!(skip(0), skip(0), "one slot, one id");
        assert_ne!(skip(0), skip(604_800), "another slot");
    }
}
