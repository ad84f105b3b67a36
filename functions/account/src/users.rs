use axum::extract::State;
use axum::Json;
use kr_contract::account::UserView;
use kr_http::extract::CurrentUser;
use kr_http::ApiError;

use crate::AccountState;

/// The current user, with the balances that gate the new-job flow.
#[utoipa::path(
    get,
    path = "/api/v1/users/me",
    tag = "account",
    security(("bearerAuth" = []), ("apiKeyHeader" = []), ("sessionCookie" = [])),
    responses(
        (status = 200, description = "The current user", body = UserView),
        (status = 401, description = "No valid session or API key", body = kr_http::error::ErrorBody),
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
