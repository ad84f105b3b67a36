use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};
use uuid::Uuid;

macro_rules! uuid_id {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
        #[serde(transparent)]
        pub struct $name(Uuid);

        impl $name {
            pub fn new() -> Self {
                Self(Uuid::new_v4())
            }

            pub fn as_uuid(&self) -> Uuid {
                self.0
            }
        }

        impl Default for $name {
            fn default() -> Self {
                Self::new()
            }
        }

        impl From<Uuid> for $name {
            fn from(id: Uuid) -> Self {
                Self(id)
            }
        }

        impl FromStr for $name {
            type Err = uuid::Error;

            fn from_str(raw: &str) -> Result<Self, Self::Err> {
                Uuid::parse_str(raw).map(Self)
            }
        }

        /// Lowercase and hyphenated, as the contract writes IDs.
        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                self.0.hyphenated().fmt(f)
            }
        }
    };
}

uuid_id!(
    /// Identifies a user account.
    UserId
);
uuid_id!(
    /// Identifies a keyword research job.
    JobId
);
uuid_id!(
    /// Identifies a schedule of repeated jobs.
    ScheduleId
);
uuid_id!(
    /// Identifies an API key (not the secret).
    ApiKeyId
);
uuid_id!(
    /// Identifies a webhook (an account's endpoint for job events).
    WebhookId
);
uuid_id!(
    /// Identifies a job's share link (not its token).
    ShareLinkId
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_print_lowercase_hyphenated() {
        let id: JobId = "A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11".parse().unwrap();
        assert_eq!(id.to_string(), "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11");
    }

    #[test]
    fn garbage_is_not_an_id() {
        assert!("not-a-uuid".parse::<JobId>().is_err());
    }
}
