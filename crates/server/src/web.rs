//! The web UI: files of the repository's `web/` folder, embedded in release
//! builds (read from disk in debug builds). `/` and `/game/{name}` are the
//! single-page app's `index.html`; other paths name files under `web/` (and
//! `/static/x` also finds `web/x`). Paths that could leave the folder are
//! refused before any lookup.

use crate::error::ApiError;
use crate::AppState;
use axum::body::Body;
use axum::http::{header, HeaderMap, HeaderValue, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use std::sync::Arc;

#[derive(rust_embed::RustEmbed)]
#[folder = "../../web/"]
#[allow_missing = true]
struct Assets;

const MISSING_UI: &str = "<!doctype html><meta charset=utf-8><title>Tabula</title>\
<p>The web UI is not in this build (no <code>web/</code> folder). The JSON API is at \
<a href=\"/api/games\">/api/games</a>.</p>";

pub fn routes() -> Router<Arc<AppState>> {
    Router::new()
        .route("/", get(index))
        .route("/index.html", get(index))
        .route("/game/{name}", get(index))
        .route("/static/{*path}", get(static_file))
        .route("/{file}", get(top_file))
}

async fn index(headers: HeaderMap) -> Response {
    match serve("index.html", &headers) {
        Some(r) => r,
        None => (
            [
                (header::CONTENT_TYPE, "text/html; charset=utf-8"),
                (header::CACHE_CONTROL, "no-cache"),
            ],
            MISSING_UI,
        )
            .into_response(),
    }
}

async fn static_file(uri: Uri, headers: HeaderMap) -> Response {
    let raw = uri.path().strip_prefix("/static/").unwrap_or("");
    let found = safe_path(raw)
        .and_then(|p| serve(&p, &headers).or_else(|| serve(&format!("static/{p}"), &headers)));
    found.unwrap_or_else(|| ApiError::not_found("no such file").into_response())
}

async fn top_file(uri: Uri, headers: HeaderMap) -> Response {
    let raw = uri.path().strip_prefix('/').unwrap_or("");
    if raw.starts_with("api") {
        return ApiError::not_found("no such path").into_response();
    }
    safe_path(raw)
        .and_then(|p| serve(&p, &headers))
        .unwrap_or_else(|| ApiError::not_found("no such file").into_response())
}

fn hex(c: u8) -> Option<u8> {
    (c as char).to_digit(16).map(|d| d as u8)
}

/// Percent-decodes a raw URL path and accepts it only as a plain relative path:
/// no `.` or `..` or empty segments, no backslashes, colons or control
/// characters (so no way out of the folder, in any encoding).
pub fn safe_path(raw: &str) -> Option<String> {
    if raw.is_empty() || raw.len() > 512 {
        return None;
    }
    let bytes = raw.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let h = hex(*bytes.get(i + 1)?)?;
            let l = hex(*bytes.get(i + 2)?)?;
            out.push(h * 16 + l);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    let path = String::from_utf8(out).ok()?;
    let bad_char = |c: char| {
        c.is_control()
            || matches!(
                c,
                '\\' | ':' | '%' | '?' | '#' | '*' | '<' | '>' | '|' | '"'
            )
    };
    if path.starts_with('/') || path.chars().any(bad_char) {
        return None;
    }
    if path
        .split('/')
        .any(|seg| seg.is_empty() || seg == "." || seg == ".." || seg.starts_with('.'))
    {
        return None;
    }
    Some(path)
}

fn serve(path: &str, headers: &HeaderMap) -> Option<Response> {
    let file = Assets::get(path)?;
    let etag = format!(
        "\"{}\"",
        file.metadata.sha256_hash()[..16]
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect::<String>()
    );
    let fresh = headers
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.split(',').any(|t| t.trim() == etag));
    let mut r = if fresh {
        let mut r = Response::new(Body::empty());
        *r.status_mut() = StatusCode::NOT_MODIFIED;
        r
    } else {
        Response::new(Body::from(file.data.into_owned()))
    };
    let h = r.headers_mut();
    let mime = file.metadata.mimetype();
    let mime = if mime.starts_with("text/") || mime.contains("javascript") || mime.contains("json")
    {
        format!("{mime}; charset=utf-8")
    } else {
        mime.to_string()
    };
    if let Ok(v) = HeaderValue::from_str(&mime) {
        h.insert(header::CONTENT_TYPE, v);
    }
    if let Ok(v) = HeaderValue::from_str(&etag) {
        h.insert(header::ETAG, v);
    }
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    h.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    Some(r)
}

#[cfg(test)]
mod tests {
    use super::safe_path;

    #[test]
    fn only_plain_relative_paths_pass() {
        assert_eq!(safe_path("app.js").as_deref(), Some("app.js"));
        assert_eq!(
            safe_path("css/main%20x.css").as_deref(),
            Some("css/main x.css")
        );
        for bad in [
            "",
            "../Cargo.toml",
            "%2e%2e/Cargo.toml",
            "%2E%2E%2FCargo.toml",
            "..%2fCargo.toml",
            "a/../../Cargo.toml",
            "a//b",
            "/etc/passwd",
            "%2fetc%2fpasswd",
            "..\\Cargo.toml",
            "..%5cCargo.toml",
            "C:/x",
            "%252e%252e/x",
            "a%00b",
            "%zz",
            ".env",
            "%c0%ae%c0%ae/x",
        ] {
            assert_eq!(safe_path(bad), None, "{bad}");
        }
    }
}
