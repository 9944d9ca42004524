//! What games declare for the faces, served without knowing any game: a game's own
//! browser module (`GET /games/{name}/module.js`, the source its crate embeds and
//! declares in its presentation) and the tools games offer
//! (`GET /api/tools`, `POST /api/games/{name}/tools/{tool}`).

use crate::error::{ApiError, ApiJson};
use crate::thinking::blocking;
use crate::AppState;
use axum::extract::Path;
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Deserialize;
use std::sync::Arc;
use tabula_engine::{build, registry};

/// The routes of this module, merged into the application's.
pub fn routes() -> Router<Arc<AppState>> {
    Router::new()
        .route(
            "/games/{name}/module.js",
            get(module).layer(crate::compression::compressed()),
        )
        .route(
            "/api/tools",
            get(list_tools).layer(crate::compression::compressed()),
        )
        .route(
            "/api/games/{name}/tools/{tool}",
            post(run_tool).layer(crate::compression::compressed()),
        )
}

/// The game's browser module, if its presentation declares one; 404 otherwise.
/// Revalidated by an ETag of its text (a new build may change it).
async fn module(Path(name): Path<String>, headers: HeaderMap) -> Result<Response, ApiError> {
    let source = blocking(move |_| Ok(build(&name, "")?.info().presentation.module)).await?;
    let Some(source) = source else {
        return Err(ApiError::not_found("this game has no browser module"));
    };
    let etag = format!("\"m{:x}\"", fnv(source.as_bytes()));
    let fresh = headers
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.split(',').any(|t| t.trim() == etag));
    let mut response = if fresh {
        StatusCode::NOT_MODIFIED.into_response()
    } else {
        source.into_response()
    };
    let h = response.headers_mut();
    h.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/javascript; charset=utf-8"),
    );
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    if let Ok(v) = HeaderValue::from_str(&etag) {
        h.insert(header::ETAG, v);
    }
    Ok(response)
}

/// FNV-1a: a stable fingerprint of a module's text for its ETag.
fn fnv(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// `GET /api/tools`: every tool of every game, `[{game, name, title, about, example}]`.
async fn list_tools() -> Result<Response, ApiError> {
    blocking(|_| {
        let mut all = Vec::new();
        for e in registry() {
            let info = build(e.name, "")?.info();
            for t in info.presentation.tools {
                all.push(serde_json::json!({
                    "game": info.name,
                    "name": t.name,
                    "title": t.title,
                    "about": t.about,
                    "example": t.example,
                }));
            }
        }
        Ok(Json(all).into_response())
    })
    .await
}

#[derive(Deserialize)]
struct ToolRequest {
    input: String,
}

/// `POST /api/games/{name}/tools/{tool}` with `{input}`: `{tool, lines, data}`.
/// Unknown tools are 404; input the tool cannot read (or longer than
/// `tabula_core::MAX_TOOL_INPUT`) is 400 with the tool's own words.
async fn run_tool(
    Path((name, tool)): Path<(String, String)>,
    ApiJson(request): ApiJson<ToolRequest>,
) -> Result<Response, ApiError> {
    blocking(move |_| {
        let info = build(&name, "")?.info();
        let Some(t) = info
            .presentation
            .tools
            .into_iter()
            .find(|t| t.name.eq_ignore_ascii_case(&tool))
        else {
            return Err(ApiError::not_found(format!(
                "{} offers no tool of that name",
                info.title
            )));
        };
        let answer = t
            .answer(&request.input)
            .map_err(|e| ApiError::bad_request(e.to_string()))?;
        Ok(Json(serde_json::json!({
            "tool": t.name,
            "lines": answer.lines,
            "data": answer.data,
        }))
        .into_response())
    })
    .await
}
