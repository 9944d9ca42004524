//! Request limits that hold for every route, whatever its handler reads.
//!
//! * Every changing request (`POST`, `PUT`, `PATCH`, `DELETE`) is held to the body
//!   rules of docs/API.md even when its handler takes no body: at most
//!   [`BODY_LIMIT`](crate::BODY_LIMIT) bytes (413) and a JSON content type when one is
//!   given (415).
//! * A body that does not arrive in time (`request_body.rs`) is answered 408 and its
//!   connection closed.
//!
//! hyper's own answers (400, 414, 431) get their JSON bodies in `own_answers.rs`.

use crate::error::error_body;
use crate::request_body::BodyCut;
use axum::body::Body;
use axum::extract::Request;
use axum::http::{header, HeaderValue, Method, StatusCode};
use axum::middleware::Next;
use axum::response::Response;

/// The answer to a body cut off: 408, and the connection closes (the rest of
/// the body would otherwise be read as the next request).
fn late(cut: BodyCut) -> Response {
    let mut answer = error_body(StatusCode::REQUEST_TIMEOUT, &cut.to_string());
    answer
        .headers_mut()
        .insert(header::CONNECTION, HeaderValue::from_static("close"));
    answer
}

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
        Err(e) => {
            return match BodyCut::find(&e) {
                Some(cut) => late(cut),
                None => too_large(),
            }
        }
    };
    next.run(Request::from_parts(parts, Body::from(bytes)))
        .await
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
    use super::*;

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
}
