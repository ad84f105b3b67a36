use axum::extract::State;
use axum::Json;
use kr_shared::http::CurrentUser;
use kr_shared::service::account::UserView;
use kr_shared::ApiError;

use crate::AccountState;

/// The current user, with the balances that gate the new-job flow.
#[utoipa::path(
    get,
    path = "/users/me",
    tag = "account",
    security(("bearerAuth" = []), ("apiKeyHeader" = []), ("sessionCookie" = [])),
    responses(
        (status = 200, description = "The current user", body = UserView),
        (status = 401, description = "No valid session or API key", body = kr_shared::error::ErrorBody),
    )
)]
pub async fn me(
    State(state): State<AccountState>,
    CurrentUser(principal): CurrentUser,
) -> Result<Json<UserView>, ApiError> {
    // A key or session whose user was removed is no longer valid credentials.
    let user = state
        .users
        .user(principal.user_id)
        .await?
        .ok_or_else(ApiError::unauthorized)?;
    Ok(Json(UserView::from(&user)))
}
