//! Request limits that hold for every route, whatever its handler reads, and JSON
//! bodies for the errors the HTTP layer itself answers.
//!
//! * Every changing request (`POST`, `PUT`, `PATCH`, `DELETE`) is held to the body
//!   rules of docs/API.md even when its handler takes no body: at most
//!   [`BODY_LIMIT`](crate::BODY_LIMIT) bytes (413) and a JSON content type when one is
//!   given (415).
//! * hyper answers requests it cannot parse (400), addresses that are too long (414)
//!   and header blocks that are too large (431) itself, with an empty body, before any
//!   handler runs. [`JsonErrors`] wraps each connection and gives those answers the
//!   API's `{"error": ...}` body.

use crate::error::error_body;
use axum::body::Body;
use axum::extract::Request;
use axum::http::{header, Method, StatusCode};
use axum::middleware::Next;
use axum::response::Response;
use std::io;
use std::pin::Pin;
use std::task::{ready, Context, Poll};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};

/// The middleware: body size and content type for every changing request.
pub async fn body_rules(req: Request, next: Next) -> Response {
    if !matches!(
        *req.method(),
        Method::POST | Method::PUT | Method::PATCH | Method::DELETE
    ) {
        return next.run(req).await;
    }
    let too_large = || {
        error_body(
            StatusCode::PAYLOAD_TOO_LARGE,
            &format!("the body is larger than {} bytes", crate::BODY_LIMIT),
        )
    };
    let headers = req.headers();
    if let Some(ct) = headers.get(header::CONTENT_TYPE) {
        let ct = ct.to_str().unwrap_or("").to_ascii_lowercase();
        if !(ct.starts_with("application/json") || ct.contains("+json")) {
            return error_body(
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                "the body must be JSON (Content-Type: application/json)",
            );
        }
    }
    let declared = headers
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<u64>().ok());
    if declared.is_some_and(|n| n > crate::BODY_LIMIT as u64) {
        return too_large();
    }
    // Read the body here (at most the limit), so a handler that ignores its body
    // cannot be sent an endless one.
    let (parts, body) = req.into_parts();
    let bytes = match axum::body::to_bytes(body, crate::BODY_LIMIT).await {
        Ok(b) => b,
        Err(_) => return too_large(),
    };
    next.run(Request::from_parts(parts, Body::from(bytes)))
        .await
}

/// A connection whose hyper-made error answers (empty 4xx/5xx) get a JSON body.
pub struct JsonErrors<T> {
    inner: T,
    pending: Vec<u8>,
    sent: usize,
}

impl<T> JsonErrors<T> {
    /// Wraps a connection.
    pub fn new(inner: T) -> Self {
        JsonErrors {
            inner,
            pending: Vec::new(),
            sent: 0,
        }
    }
}

/// The message for an error hyper answered on its own.
fn message_for(status: u16) -> &'static str {
    match status {
        400 => "the request could not be read: it is not well-formed HTTP",
        408 => "the request took too long to arrive",
        413 => "the request is too large",
        414 => "the address (URI) of the request is too long",
        431 => "the request headers are too large",
        501 => "this kind of request is not supported",
        505 => "this HTTP version is not supported",
        s if s >= 500 => "the server could not answer this request",
        _ => "the request could not be read",
    }
}

/// When `head` is a whole response head with an error status and an empty body
/// (only hyper writes those: every answer of the API has a JSON body), the same
/// head with a JSON error body.
fn with_json_body(head: &[u8]) -> Option<Vec<u8>> {
    if !head.starts_with(b"HTTP/1.") || !head.ends_with(b"\r\n\r\n") || head.len() > 4096 {
        return None;
    }
    let text = std::str::from_utf8(head).ok()?;
    let status: u16 = text.get(9..12)?.parse().ok()?;
    if status < 400 {
        return None;
    }
    let mut lines: Vec<&str> = text.trim_end_matches("\r\n").split("\r\n").collect();
    let at = lines
        .iter()
        .position(|l| l.eq_ignore_ascii_case("content-length: 0"))?;
    if lines
        .iter()
        .any(|l| l.to_ascii_lowercase().starts_with("content-type:"))
    {
        return None;
    }
    let body = serde_json::json!({ "error": message_for(status) }).to_string();
    let length = format!("content-length: {}", body.len());
    lines[at] = &length;
    lines.insert(at, "content-type: application/json");
    let mut out = lines.join("\r\n").into_bytes();
    out.extend_from_slice(b"\r\n\r\n");
    out.extend_from_slice(body.as_bytes());
    Some(out)
}

impl<T: AsyncWrite + Unpin> JsonErrors<T> {
    fn poll_pending(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        while self.sent < self.pending.len() {
            let n = ready!(Pin::new(&mut self.inner).poll_write(cx, &self.pending[self.sent..]))?;
            if n == 0 {
                return Poll::Ready(Err(io::ErrorKind::WriteZero.into()));
            }
            self.sent += n;
        }
        self.pending.clear();
        self.sent = 0;
        Poll::Ready(Ok(()))
    }
}

impl<T: AsyncRead + Unpin> AsyncRead for JsonErrors<T> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_read(cx, buf)
    }
}

impl<T: AsyncWrite + Unpin> AsyncWrite for JsonErrors<T> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = &mut *self;
        ready!(this.poll_pending(cx))?;
        if let Some(fixed) = with_json_body(buf) {
            this.pending = fixed;
            this.sent = 0;
            // Whatever is not written now is written by the next flush or write.
            if let Poll::Ready(Err(e)) = this.poll_pending(cx) {
                return Poll::Ready(Err(e));
            }
            return Poll::Ready(Ok(buf.len()));
        }
        Pin::new(&mut this.inner).poll_write(cx, buf)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        ready!(self.poll_pending(cx))?;
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        ready!(self.poll_pending(cx))?;
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }
}

/// Keeps `value` under `max` bytes of JSON: while it is larger, the largest member
/// that is not itself an object (an array, a string), at any depth, is replaced by
/// `null` and its name added to its object's `omitted` list (with a `note`).
pub fn bound_json(value: &mut serde_json::Value, max: usize) {
    use serde_json::Value;
    fn size(v: &Value) -> usize {
        serde_json::to_vec(v).map_or(0, |b| b.len())
    }
    /// The path (object keys) of the largest member of any object, if it is large.
    fn largest(v: &Value, path: &mut Vec<String>, best: &mut (usize, Vec<String>)) {
        if let Value::Object(map) = v {
            for (k, child) in map {
                if k == "omitted" || k == "note" {
                    continue;
                }
                path.push(k.clone());
                if child.is_object() {
                    // Look inside: leave out the large parts, not the whole report.
                    largest(child, path, best);
                } else {
                    let n = size(child);
                    if n > best.0 {
                        *best = (n, path.clone());
                    }
                }
                path.pop();
            }
        }
    }
    for _ in 0..64 {
        if size(value) <= max {
            return;
        }
        let mut best = (0, Vec::new());
        largest(value, &mut Vec::new(), &mut best);
        let Some((last, parents)) = best.1.split_last() else {
            *value = serde_json::json!({
                "omitted": ["everything"],
                "note": format!("the answer was larger than {max} bytes")
            });
            return;
        };
        let mut at = &mut *value;
        for k in parents {
            at = &mut at[k.as_str()];
        }
        if let Value::Object(map) = at {
            map.insert(last.clone(), Value::Null);
            let omitted = map
                .entry("omitted")
                .or_insert_with(|| Value::Array(Vec::new()));
            if let Value::Array(list) = omitted {
                list.push(Value::String(last.clone()));
            }
            map.insert(
                "note".into(),
                Value::String(format!(
                    "parts larger than the server sends ({max} bytes in all) were left out; \
                     the command line gives the whole answer"
                )),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn large_members_are_left_out_and_named() {
        let mut v = serde_json::json!({
            "solvable": true,
            "report": {"presses": vec![1u8; 5000], "fewest": 12},
            "rows": vec!["x"; 100],
        });
        bound_json(&mut v, 1000);
        assert!(serde_json::to_vec(&v).unwrap().len() <= 1000, "{v}");
        assert_eq!(v["solvable"], true);
        assert_eq!(v["report"]["fewest"], 12);
        assert!(v["report"]["presses"].is_null());
        assert_eq!(v["report"]["omitted"], serde_json::json!(["presses"]));
        // Small values are left alone.
        let mut small = serde_json::json!({"a": [1, 2, 3]});
        let before = small.clone();
        bound_json(&mut small, 1000);
        assert_eq!(small, before);
    }

    use super::*;

    #[test]
    fn empty_error_heads_get_a_json_body() {
        let head = b"HTTP/1.1 431 Request Header Fields Too Large\r\nconnection: close\r\ncontent-length: 0\r\ndate: x\r\n\r\n";
        let out = String::from_utf8(with_json_body(head).unwrap()).unwrap();
        let (h, body) = out.split_once("\r\n\r\n").unwrap();
        assert!(h.contains("content-type: application/json"));
        assert!(h.contains(&format!("content-length: {}", body.len())));
        let v: serde_json::Value = serde_json::from_str(body).unwrap();
        assert!(v["error"].as_str().unwrap().contains("headers"));
        // Answers with a body, successes and partial heads are left alone.
        assert!(with_json_body(b"HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n").is_none());
        assert!(with_json_body(
            b"HTTP/1.1 404 Not Found\r\ncontent-type: application/json\r\ncontent-length: 9\r\n\r\n"
        )
        .is_none());
        assert!(with_json_body(b"HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\n").is_none());
    }
}
