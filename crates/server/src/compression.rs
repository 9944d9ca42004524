//! Which answers go out compressed (brotli or gzip, for clients whose
//! `Accept-Encoding` asks for it): successful answers above 32 bytes, but not
//! images or event streams (each event must arrive when it is sent), of
//!
//! - the web UI's files and games' browser modules (a browser keeps them: see
//!   `web.rs`);
//! - the answers about games a page reads once (the list of games, a game's
//!   options and rules, a position's view) and games' tools (a tool's table).
//!
//! The answers of play (a move, an undo, a session's view) go out as they are:
//! gzip takes about 60 µs on a 2.6 KB move answer, more than a third of what
//! the whole move costs the server, for nothing on loopback; and the layer
//! itself costs every request it wraps (about 2% of a move's instructions).
//! An error's body is small, and the error layer reads a non-JSON one as words.

use axum::http::{Extensions, HeaderMap, StatusCode, Version};
use tower_http::compression::predicate::{DefaultPredicate, Predicate};
use tower_http::compression::CompressionLayer;

fn successful(status: StatusCode, _: Version, _: &HeaderMap, _: &Extensions) -> bool {
    status.is_success()
}

/// The layer for the routes named above.
pub fn compressed() -> CompressionLayer<impl Predicate> {
    CompressionLayer::new().compress_when(DefaultPredicate::new().and(successful))
}
