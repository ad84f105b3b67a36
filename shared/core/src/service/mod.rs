//! Use cases shared by the functions and the operator CLI. Handlers translate HTTP to these
//! calls and back; nothing here knows about HTTP.

pub mod account;
pub mod estimate;
pub mod jobs;
pub mod rate_limits;
pub mod schedules;
pub mod search_console;
pub mod share_links;
#[cfg(test)]
mod tests;
pub mod webhook_signing;
pub mod webhooks;
