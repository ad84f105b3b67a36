//! Schema-only mirrors of `kr_core::locales`' languages and locations, served as they are.
//!
//! GUARDED BY THE DRIFT TEST (`src/drift.rs`): it serialises real core values and checks the
//! JSON against these schemas. A field or variant added to a core type goes here too, with
//! its doc comment word for word (it is the OpenAPI description) and its serde attributes.
//! `Serialize` is derived only so those serde attributes, which the schema derive reads, can
//! be written; nothing serialises a mirror.

use serde::Serialize;
use utoipa::ToSchema;

#[derive(Serialize, ToSchema)]
pub struct Language {
    #[schema(example = "en")]
    pub language_code: String,
    #[schema(example = "English")]
    pub language_name: String,
}

#[derive(Serialize, ToSchema)]
pub struct Location {
    /// 2000 + the ISO 3166-1 numeric code of the country, as DataForSEO numbers them.
    #[schema(example = 2840)]
    pub location_code: u32,
    #[schema(example = "United States")]
    pub location_name: String,
    #[schema(example = "US")]
    pub country_iso_code: String,
}
