use axum::http::header::CACHE_CONTROL;
use axum::response::IntoResponse;
use axum::Json;
use kr_core::locales::{self, Language, Location};
use serde::Serialize;
use utoipa::ToSchema;

/// The lists change only with a deployment; clients and CDNs may keep them for a day.
const CACHE_FOR_A_DAY: &str = "public, max-age=86400";

#[derive(Serialize, ToSchema)]
pub struct LanguageList {
    #[schema(value_type = Vec<kr_contract::locales::Language>)]
    languages: &'static [Language],
}

#[derive(Serialize, ToSchema)]
pub struct LocationList {
    #[schema(value_type = Vec<kr_contract::locales::Location>)]
    locations: &'static [Location],
}

/// The languages a job may use (`languageCode`).
#[utoipa::path(
    get,
    path = "/api/v1/languages",
    tag = "locales",
    security(()),
    responses((status = 200, description = "Every language, by name", body = LanguageList))
)]
pub async fn languages() -> impl IntoResponse {
    (
        [(CACHE_CONTROL, CACHE_FOR_A_DAY)],
        Json(LanguageList {
            languages: locales::languages(),
        }),
    )
}

/// The locations a job may use (`locationCode`): every country DataForSEO Labs covers.
#[utoipa::path(
    get,
    path = "/api/v1/locations",
    tag = "locales",
    security(()),
    responses((status = 200, description = "Every location, by name", body = LocationList))
)]
pub async fn locations() -> impl IntoResponse {
    (
        [(CACHE_CONTROL, CACHE_FOR_A_DAY)],
        Json(LocationList {
            locations: locales::locations(),
        }),
    )
}
