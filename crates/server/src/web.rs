//! The web UI: files of the repository's `web/` folder, embedded in release
//! builds (read from disk in debug builds). `/` and `/game/{name}` are the
//! single-page app's `index.html`; other paths name files under `web/` (and
//! `/static/x` also finds `web/x`). Paths that could leave the folder are
//! refused before any lookup.
//!
//! Weight: files are sent compressed (brotli or gzip) to browsers that accept
//! it. The page names every script and style sheet by a fingerprint of its
//! content (`/static/game.<16 hex digits>.js`, through an import map for the
//! modules' own imports), and such a name is cached for good (`immutable`): a
//! new build changes the name, never what a name holds. The page itself and
//! files asked for by their plain names are revalidated by their ETag (304).

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

/// How a file asked for by its fingerprinted name may be kept: for good, since
/// another content has another name.
const FOR_GOOD: &str = "public, max-age=31536000, immutable";

/// How everything else may be kept: asked again (by its ETag) before each use.
const REVALIDATE: &str = "no-cache";

pub fn routes() -> Router<Arc<AppState>> {
    Router::new()
        .route("/", get(index))
        .route("/index.html", get(index))
        .route("/game/{name}", get(index))
        .route("/static/{*path}", get(static_file))
        .route("/{file}", get(top_file))
        .layer(crate::compression::compressed())
}

async fn index(headers: HeaderMap) -> Response {
    match index_page() {
        Some(page) => answer(
            page.html.clone(),
            &page.etag,
            "text/html; charset=utf-8",
            REVALIDATE,
            &headers,
        ),
        None => (
            [
                (header::CONTENT_TYPE, "text/html; charset=utf-8"),
                (header::CACHE_CONTROL, REVALIDATE),
            ],
            MISSING_UI,
        )
            .into_response(),
    }
}

/// `index.html` as served: its scripts and style sheet named by fingerprint,
/// with an import map that sends every module's imports to fingerprinted names.
struct IndexPage {
    html: axum::body::Bytes,
    etag: String,
}

/// The page, made once in a release build (its files are fixed in it) and for
/// each request in a debug build (its files are read from disk as they change).
fn index_page() -> Option<Arc<IndexPage>> {
    static PAGE: std::sync::OnceLock<Option<Arc<IndexPage>>> = std::sync::OnceLock::new();
    if cfg!(debug_assertions) {
        return make_index_page().map(Arc::new);
    }
    PAGE.get_or_init(|| make_index_page().map(Arc::new)).clone()
}

fn make_index_page() -> Option<IndexPage> {
    let page = Assets::get("index.html")?;
    let mut html = String::from_utf8(page.data.into_owned()).ok()?;
    let mut imports = serde_json::Map::new();
    let mut preloads = String::new();
    for path in Assets::iter() {
        let script = path.ends_with(".js");
        if !script && !path.ends_with(".css") {
            continue;
        }
        let Some(file) = Assets::get(&path) else {
            continue;
        };
        let plain = format!("/static/{path}");
        let named = format!("/static/{}", fingerprinted(&path, &fingerprint(&file)));
        html = html.replace(&format!("\"{plain}\""), &format!("\"{named}\""));
        // The page's own modules (every script at the top of the folder) are
        // fetched at once, not one level of imports after another; vendored
        // ones load when they are needed (the rules renderer).
        if script && !path.contains('/') {
            preloads.push_str(&format!(
                "<link rel=\"modulepreload\" href=\"{named}\">\n  "
            ));
        }
        if script {
            imports.insert(plain, named.into());
        }
    }
    let map = serde_json::json!({ "imports": imports });
    // Before the first script, so every module is resolved through it.
    let at = html.find("<script").or_else(|| html.find("</head>"))?;
    html.insert_str(
        at,
        &format!("<script type=\"importmap\">{map}</script>\n  {preloads}"),
    );
    let etag = format!("W/\"i{:016x}\"", page_fingerprint(html.as_bytes()));
    Some(IndexPage {
        html: html.into(),
        etag,
    })
}

/// FNV-1a of the page as made here (rust-embed's hashes come with the files,
/// not with the page): a stable tag for revalidation, not a secret.
fn page_fingerprint(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

fn hex_digits(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// A file's fingerprint: 16 hex digits of the SHA-256 of its content.
fn fingerprint(file: &rust_embed::EmbeddedFile) -> String {
    hex_digits(&file.metadata.sha256_hash()[..8])
}

/// `dir/name.ext` named by fingerprint: `dir/name.<fingerprint>.ext`.
fn fingerprinted(path: &str, fingerprint: &str) -> String {
    match path.rsplit_once('.') {
        Some((stem, ext)) if !stem.is_empty() && !stem.ends_with('/') => {
            format!("{stem}.{fingerprint}.{ext}")
        }
        _ => format!("{path}.{fingerprint}"),
    }
}

/// The plain name and fingerprint of a fingerprinted name, if it is one.
fn unfingerprinted(path: &str) -> Option<(String, &str)> {
    let (rest, ext) = path.rsplit_once('.')?;
    let (stem, fingerprint) = rest.rsplit_once('.')?;
    let hex = |b: u8| b.is_ascii_digit() || (b'a'..=b'f').contains(&b);
    (fingerprint.len() == 16 && fingerprint.bytes().all(hex) && !stem.is_empty())
        .then(|| (format!("{stem}.{ext}"), fingerprint))
}

async fn static_file(uri: Uri, headers: HeaderMap) -> Response {
    let raw = uri.path().strip_prefix("/static/").unwrap_or("");
    let found = safe_path(raw).and_then(|p| {
        serve(&p, &headers)
            .or_else(|| serve(&format!("static/{p}"), &headers))
            .or_else(|| serve_fingerprinted(&p, &headers))
    });
    found.unwrap_or_else(|| ApiError::not_found("no such file").into_response())
}

/// A file asked for by its fingerprinted name: kept for good when the name
/// holds today's content; a name of another build (a page loaded before the
/// server was updated) gets today's file, to be revalidated.
fn serve_fingerprinted(path: &str, headers: &HeaderMap) -> Option<Response> {
    let (plain, wanted) = unfingerprinted(path)?;
    let file = Assets::get(&plain)?;
    let policy = if fingerprint(&file) == wanted {
        FOR_GOOD
    } else {
        REVALIDATE
    };
    Some(answer_file(file, headers, policy))
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
    Some(answer_file(file, headers, REVALIDATE))
}

fn answer_file(
    file: rust_embed::EmbeddedFile,
    headers: &HeaderMap,
    cache: &'static str,
) -> Response {
    // Weak: the same file goes out in several encodings (compressed or not).
    let etag = format!("W/\"{}\"", fingerprint(&file));
    let mime = file.metadata.mimetype();
    let mime = if mime.starts_with("text/") || mime.contains("javascript") || mime.contains("json")
    {
        format!("{mime}; charset=utf-8")
    } else {
        mime.to_string()
    };
    answer(file.data.into_owned().into(), &etag, &mime, cache, headers)
}

/// A file's answer: 304 when the browser's copy is still good (`If-None-Match`),
/// else the file; with its type, ETag and how long it may be kept.
fn answer(
    body: axum::body::Bytes,
    etag: &str,
    mime: &str,
    cache: &'static str,
    headers: &HeaderMap,
) -> Response {
    let fresh = headers
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.split(',').any(|t| same_tag(t.trim(), etag)));
    let mut r = if fresh {
        let mut r = Response::new(Body::empty());
        *r.status_mut() = StatusCode::NOT_MODIFIED;
        r
    } else {
        Response::new(Body::from(body))
    };
    let h = r.headers_mut();
    if let Ok(v) = HeaderValue::from_str(mime) {
        h.insert(header::CONTENT_TYPE, v);
    }
    if let Ok(v) = HeaderValue::from_str(etag) {
        h.insert(header::ETAG, v);
    }
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static(cache));
    h.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    r
}

/// ETags compared weakly (RFC 9110 13.1.2): `W/` aside, the tags are equal.
fn same_tag(a: &str, b: &str) -> bool {
    let strip = |t: &str| t.strip_prefix("W/").unwrap_or(t).to_owned();
    a == "*" || strip(a) == strip(b)
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
