//! Which answers go out compressed (brotli or gzip, for clients whose
//! `Accept-Encoding` asks for it). Only successful answers: an error's body is
//! small, and the error layer reads a non-JSON one as words.
//!
//! - Files of the web UI and games' browser modules: all but the smallest, once
//!   per request (a browser keeps them: see `web.rs`).
//! - JSON answers: only large ones ([`JSON_AT_LEAST`]: a big board's session, a
//!   tool's table). A move's answer in the usual games is 2-7 KB, and
//!   compressing it would cost more processor time on every move than it saves
//!   on loopback, so it goes out as it is. Event streams are never compressed
//!   (each event must arrive when it is sent).

use axum::http::{Extensions, HeaderMap, StatusCode, Version};
use tower_http::compression::predicate::{
    DefaultPredicate, NotForContentType, Predicate, SizeAbove,
};
use tower_http::compression::CompressionLayer;

/// JSON answers at least this large are compressed for clients that accept it.
pub const JSON_AT_LEAST: u64 = 16 * 1024;

fn successful(status: StatusCode, _: Version, _: &HeaderMap, _: &Extensions) -> bool {
    status.is_success()
}

/// For the web UI's files and games' modules.
pub fn files() -> CompressionLayer<impl Predicate> {
    CompressionLayer::new().compress_when(DefaultPredicate::new().and(successful))
}

/// For the JSON API: large answers only, never an event stream.
pub fn json() -> CompressionLayer<impl Predicate> {
    CompressionLayer::new().compress_when(
        SizeAbove::new(JSON_AT_LEAST)
            .and(NotForContentType::const_new("text/event-stream"))
            .and(successful),
    )
}
