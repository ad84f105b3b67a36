//! Domain types. Each is parsed once at the edge and cannot hold a bad value afterwards.

mod ai_answers;
mod branding;
mod domain_name;
mod email;
mod ids;
mod image;
mod job;
mod keyword_file;
mod keyword_list;
mod lifecycle;
mod locale;
mod plan;
mod schedule;
mod search_console;
mod secret;
mod share_link;
mod webhook;

pub use ai_answers::{AiAnswersOutcome, AiAnswersStatus, AiEngine};
pub use branding::{BrandName, Logo, MAX_BRAND_NAME_CHARS, MAX_LOGO_BYTES, MAX_LOGO_SIDE};
pub use domain_name::DomainName;
pub use email::Email;
pub use ids::{ApiKeyId, JobId, ScheduleId, ShareLinkId, UserId, WebhookId};
pub use image::{ImageLimits, ImageType, RasterImage};
pub use job::{JobStatus, Progress, Stage};
pub use keyword_file::{parse_keyword_file, KeywordFileFormat};
pub use keyword_list::{
    is_refused_char, KeywordList, KeywordPhrase, MAX_IMPORTED_KEYWORDS, MAX_PHRASE_CHARS,
    MAX_PHRASE_WORDS,
};
pub use lifecycle::{Job, JobChange, NewJob, ProviderUsage};
pub use locale::{LanguageCode, LocationCode};
pub use plan::Plan;
pub use schedule::{Cadence, Recurrence, Schedule, ScheduledRun, MAX_DAY_OF_MONTH};
pub use search_console::{
    ImportStatus, PermissionLevel, PropertyUrl, SearchConsoleImport, SearchConsoleProperty,
};
pub use secret::{ApiKeySecret, Password, SecretHash, SessionToken, ShareToken};
pub use share_link::{ShareLifetime, ShareLink, SharedTab, SharedTabs};
pub use webhook::{WebhookEvent, WebhookUrl, MAX_URL_CHARS};
