//! Schema-only mirror of `kr_core::validation::FieldError`, the `details.fields` items of a
//! 400, served as it is.
//!
//! GUARDED BY THE DRIFT TEST (`src/drift.rs`): it serialises real core values and checks the
//! JSON against these schemas. A field or variant added to a core type goes here too, with
//! its doc comment word for word (it is the OpenAPI description) and its serde attributes.
//! `Serialize` is derived only so those serde attributes, which the schema derive reads, can
//! be written; nothing serialises a mirror.

use serde::Serialize;
use utoipa::ToSchema;

/// One invalid input, named the way the client sent it.
#[derive(Serialize, ToSchema)]
pub struct FieldError {
    pub field: String,
    pub message: String,
}
