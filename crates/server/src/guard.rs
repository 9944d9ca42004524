//! Requests from browsers must come from this server's own pages.
//!
//! A server on loopback is still reachable from any web page the user opens:
//! DNS rebinding makes a foreign name resolve to 127.0.0.1, and a foreign page
//! can post forms cross-site. So when bound to loopback the Host header must be
//! a loopback name, and a changing request that carries an Origin must come
//! from the same host.

use crate::error::error_body;
use crate::AppState;
use axum::extract::{Request, State};
use axum::http::{header, Method, StatusCode};
use axum::middleware::Next;
use axum::response::Response;
use std::net::IpAddr;
use std::sync::Arc;

/// The host part of `host[:port]` or `[v6]:port`.
fn host_part(authority: &str) -> &str {
    if let Some(rest) = authority.strip_prefix('[') {
        return rest.split(']').next().unwrap_or("");
    }
    authority.rsplit_once(':').map_or(authority, |(h, _)| h)
}

/// True for `localhost`, `*.localhost` and loopback addresses.
pub fn is_loopback_host(authority: &str) -> bool {
    let host = host_part(authority).to_ascii_lowercase();
    host == "localhost"
        || host.ends_with(".localhost")
        || host.parse::<IpAddr>().is_ok_and(|ip| ip.is_loopback())
}

/// The middleware.
pub async fn check_origin(State(st): State<Arc<AppState>>, req: Request, next: Next) -> Response {
    let headers = req.headers();
    let host = headers
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .unwrap_or("");
    if st.loopback_only && !host.is_empty() && !is_loopback_host(host) {
        return error_body(
            StatusCode::FORBIDDEN,
            "this server only answers requests for localhost",
        );
    }
    let safe = matches!(*req.method(), Method::GET | Method::HEAD | Method::OPTIONS);
    if !safe {
        if let Some(origin) = headers.get(header::ORIGIN) {
            let origin = origin.to_str().unwrap_or("null");
            let authority = origin.split_once("://").map(|(_, a)| a).unwrap_or("");
            if host.is_empty() || !authority.eq_ignore_ascii_case(host) {
                return error_body(
                    StatusCode::FORBIDDEN,
                    "cross-origin requests are not allowed",
                );
            }
        }
    }
    next.run(req).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loopback_names() {
        for ok in [
            "localhost",
            "localhost:8080",
            "127.0.0.1:1",
            "127.1.2.3",
            "[::1]:8080",
            "app.localhost:3",
        ] {
            assert!(is_loopback_host(ok), "{ok}");
        }
        for bad in [
            "evil.com",
            "evil.com:8080",
            "10.0.0.1:80",
            "[::2]:1",
            "localhost.evil.com",
            "",
        ] {
            assert!(!is_loopback_host(bad), "{bad}");
        }
    }
}
