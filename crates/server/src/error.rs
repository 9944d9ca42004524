//! The one error shape of the API, `{"error": "plain words"}` with a 4xx status
//! for anything the client did wrong, and the extractor that turns bad bodies
//! into such errors.

use axum::body::{Body, Bytes};
use axum::extract::{FromRequest, Request};
use axum::http::{header, HeaderValue, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use serde::de::DeserializeOwned;
use tabula_core::MoveError;
use tabula_engine::EngineError;
use tabula_store::StoreError;

/// An error answer.
#[derive(Debug)]
pub struct ApiError {
    /// The HTTP status.
    pub status: StatusCode,
    /// What went wrong, in words.
    pub message: String,
    /// Seconds after which the same request is worth making again (sent as
    /// `Retry-After`): something it needs is being prepared.
    pub retry_after: Option<u64>,
}

impl ApiError {
    /// An error with a status.
    pub fn new(status: StatusCode, message: impl Into<String>) -> Self {
        ApiError {
            status,
            message: message.into(),
            retry_after: None,
        }
    }
    /// 503 with `Retry-After`: what the request needs is being prepared.
    pub fn preparing(message: impl Into<String>, retry_after: u64) -> Self {
        ApiError {
            retry_after: Some(retry_after),
            ..Self::new(StatusCode::SERVICE_UNAVAILABLE, message)
        }
    }
    /// 400.
    pub fn bad_request(message: impl Into<String>) -> Self {
        Self::new(StatusCode::BAD_REQUEST, message)
    }
    /// 404.
    pub fn not_found(message: impl Into<String>) -> Self {
        Self::new(StatusCode::NOT_FOUND, message)
    }
    /// 409.
    pub fn conflict(message: impl Into<String>) -> Self {
        Self::new(StatusCode::CONFLICT, message)
    }
    /// 500: never for bad input.
    pub fn internal(message: impl Into<String>) -> Self {
        Self::new(StatusCode::INTERNAL_SERVER_ERROR, message)
    }
}

/// Writes `{"error": message}`.
pub fn error_body(status: StatusCode, message: &str) -> Response {
    let body = serde_json::json!({ "error": message }).to_string();
    let mut r = Response::new(Body::from(body));
    *r.status_mut() = status;
    r.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    r
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut r = error_body(self.status, &self.message);
        if let Some(secs) = self.retry_after {
            r.headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from(secs));
        }
        r
    }
}

impl From<EngineError> for ApiError {
    fn from(e: EngineError) -> Self {
        if let EngineError::Preparing { words, retry_after } = e {
            return ApiError::preparing(words, retry_after);
        }
        let status = match &e {
            EngineError::UnknownGame(_) => StatusCode::NOT_FOUND,
            EngineError::Move(MoveError::GameOver | MoveError::NotYourTurn(_)) => {
                StatusCode::CONFLICT
            }
            EngineError::Move(_) => StatusCode::UNPROCESSABLE_ENTITY,
            EngineError::Replay(_) => StatusCode::CONFLICT,
            EngineError::Variant(_)
            | EngineError::Position(_)
            | EngineError::Player { .. }
            | EngineError::Unsupported(_)
            | EngineError::Invalid(_) => StatusCode::BAD_REQUEST,
            EngineError::Preparing { .. } => StatusCode::SERVICE_UNAVAILABLE,
        };
        ApiError::new(status, e.to_string())
    }
}

impl From<StoreError> for ApiError {
    fn from(e: StoreError) -> Self {
        match e {
            StoreError::Invalid(m) => ApiError::bad_request(m),
            // That row alone is refused; the rest of the database works.
            StoreError::Damaged(d) => ApiError::conflict(d.message),
            // The session was read again: the client may try again.
            StoreError::Stale => ApiError::conflict(StoreError::Stale.to_string()),
            other => ApiError::internal(format!("storage failed: {other}")),
        }
    }
}

/// A JSON body. Unlike `axum::Json` it accepts a missing content type (curl
/// users), and every rejection (too large, not JSON, wrong fields) becomes the
/// API's JSON error.
pub struct ApiJson<T>(pub T);

impl<T: DeserializeOwned, S: Send + Sync> FromRequest<S> for ApiJson<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        if let Some(ct) = req.headers().get(header::CONTENT_TYPE) {
            let ct = ct.to_str().unwrap_or("").to_ascii_lowercase();
            if !(ct.starts_with("application/json") || ct.contains("+json")) {
                return Err(ApiError::new(
                    StatusCode::UNSUPPORTED_MEDIA_TYPE,
                    "the body must be JSON (Content-Type: application/json)",
                ));
            }
        }
        let bytes = Bytes::from_request(req, state).await.map_err(|rejection| {
            let status = rejection.status();
            if status == StatusCode::PAYLOAD_TOO_LARGE {
                ApiError::new(
                    status,
                    format!("the body is larger than {} bytes", crate::BODY_LIMIT),
                )
            } else {
                ApiError::new(
                    status,
                    format!("cannot read the body: {}", rejection.body_text()),
                )
            }
        })?;
        let bytes: &[u8] = if bytes.iter().all(u8::is_ascii_whitespace) {
            b"{}"
        } else {
            &bytes
        };
        serde_json::from_slice(bytes)
            .map(ApiJson)
            .map_err(|e| ApiError::bad_request(format!("malformed JSON body: {e}")))
    }
}

/// Gives every error answer without a JSON body (405 from the router, query
/// string rejections, ...) the API's `{"error": ...}` shape.
pub async fn json_errors(req: Request, next: Next) -> Response {
    let response = next.run(req).await;
    let status = response.status();
    if !(status.is_client_error() || status.is_server_error()) {
        return response;
    }
    let is_json = response
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/json"));
    if is_json {
        return response;
    }
    let (parts, body) = response.into_parts();
    let text = axum::body::to_bytes(body, 16 * 1024)
        .await
        .unwrap_or_default();
    let text = String::from_utf8_lossy(&text);
    let message = match text.trim() {
        "" => status.canonical_reason().unwrap_or("error").to_lowercase(),
        t => t.to_string(),
    };
    let mut r = error_body(status, &message);
    for (name, value) in parts.headers.iter() {
        if name == header::ALLOW {
            r.headers_mut().insert(name, value.clone());
        }
    }
    r
}
