//! hyper's own answers, with the API's JSON error body.
//!
//! hyper answers a request it cannot read (400), an address that is too long
//! (414) or a head that is too large (431) by itself, before any handler runs,
//! with an empty body, and hyper 1 offers no hook to shape that answer. Every
//! other answer on a connection is the application's. The two are told apart by
//! the exchange, not by what the bytes look like:
//!
//! * the connection's service counts the requests it hands to the application
//!   ([`Exchange::hand_over`]), and each answer's body counts itself answered when
//!   hyper drops it, having taken its last bytes ([`Answered`]);
//! * hyper reads the next request only once the last answer is written and
//!   flushed, so bytes it writes when every request handed over has been
//!   answered and flushed are its own answer ([`OwnAnswers`] holds them);
//! * held bytes are read as a response head with httparse (however hyper split
//!   its writes) and written as the same status with `{"error": ...}` and
//!   `connection: close` (hyper closes the connection after these answers).
//!   Anything else is written as it was.

use axum::body::Bytes;
use http_body::{Body, Frame, SizeHint};
use std::io;
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::task::{ready, Context, Poll};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};

/// The most bytes held as a possible answer of hyper's own (its heads are about
/// a hundred bytes); beyond, they are written as they are.
const MAX_HELD: usize = 16 * 1024;

/// Requests a connection handed to the application, and answers finished.
#[derive(Default)]
pub struct Exchange {
    handed_over: AtomicU64,
    answered: AtomicU64,
}

impl Exchange {
    /// A request goes to the application.
    pub fn hand_over(&self) {
        self.handed_over.fetch_add(1, Ordering::Relaxed);
    }

    /// True while a request handed over has not been answered whole: between
    /// requests (and before the first) the connection waits for a head.
    pub fn under_way(&self) -> bool {
        self.handed_over.load(Ordering::Relaxed) > self.answered.load(Ordering::Relaxed)
    }
}

/// An answer's body that tells the [`Exchange`] when hyper is done with it.
pub struct Answered<B> {
    inner: B,
    exchange: Arc<Exchange>,
}

impl<B> Answered<B> {
    /// Wraps the body of the answer to the request last handed over.
    pub fn new(inner: B, exchange: Arc<Exchange>) -> Self {
        Answered { inner, exchange }
    }
}

impl<B: Body<Data = Bytes> + Unpin> Body for Answered<B> {
    type Data = Bytes;
    type Error = B::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, B::Error>>> {
        Pin::new(&mut self.inner).poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}

impl<B> Drop for Answered<B> {
    fn drop(&mut self) {
        self.exchange.answered.fetch_add(1, Ordering::Relaxed);
    }
}

/// A connection whose answers written by hyper itself get a JSON error body.
pub struct OwnAnswers<T> {
    inner: T,
    exchange: Arc<Exchange>,
    /// Answers finished and flushed (the exchange's count at the last flush).
    flushed: u64,
    /// Bytes hyper wrote on its own, not yet written.
    held: Vec<u8>,
    /// Bytes to write before anything else, and how many of them are written.
    pending: Vec<u8>,
    sent: usize,
}

impl<T> OwnAnswers<T> {
    /// Wraps a connection served with `exchange`.
    pub fn new(inner: T, exchange: Arc<Exchange>) -> Self {
        OwnAnswers {
            inner,
            exchange,
            flushed: 0,
            held: Vec::new(),
            pending: Vec::new(),
            sent: 0,
        }
    }

    /// True when hyper writes while no answer of the application is under way.
    fn on_its_own(&self) -> bool {
        self.exchange.handed_over.load(Ordering::Relaxed) <= self.flushed
    }

    /// What to write for the bytes held: the JSON answer, or the bytes themselves.
    fn release_held(&mut self) {
        if self.held.is_empty() {
            return;
        }
        let held = std::mem::take(&mut self.held);
        let out = with_json_body(&held).unwrap_or(held);
        self.pending.extend_from_slice(&out);
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

/// When `held` is exactly a response head with an error status and no body,
/// the same answer with a JSON error body.
fn with_json_body(held: &[u8]) -> Option<Vec<u8>> {
    let mut headers = [httparse::EMPTY_HEADER; 32];
    let mut head = httparse::Response::new(&mut headers);
    let httparse::Status::Complete(length) = head.parse(held).ok()? else {
        return None;
    };
    let status = head.code?;
    if length != held.len() || status < 400 {
        return None;
    }
    let mut kept = Vec::new();
    for h in head.headers.iter() {
        let name = h.name.to_ascii_lowercase();
        match name.as_str() {
            // An answer with a body of its own is not one of hyper's.
            "content-length" if h.value.trim_ascii() != b"0" => return None,
            "content-type" | "transfer-encoding" => return None,
            "content-length" | "connection" => {}
            _ => kept.push(h),
        }
    }
    let body = serde_json::json!({ "error": message_for(status) }).to_string();
    let reason = axum::http::StatusCode::from_u16(status)
        .ok()
        .and_then(|s| s.canonical_reason())
        .unwrap_or("Error");
    let mut out = format!("HTTP/1.1 {status} {reason}\r\n").into_bytes();
    for h in kept {
        out.extend_from_slice(h.name.as_bytes());
        out.extend_from_slice(b": ");
        out.extend_from_slice(h.value);
        out.extend_from_slice(b"\r\n");
    }
    out.extend_from_slice(
        format!(
            "content-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
            body.len()
        )
        .as_bytes(),
    );
    Some(out)
}

impl<T: AsyncWrite + Unpin> OwnAnswers<T> {
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

impl<T: AsyncRead + Unpin> AsyncRead for OwnAnswers<T> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_read(cx, buf)
    }
}

impl<T: AsyncWrite + Unpin> AsyncWrite for OwnAnswers<T> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = &mut *self;
        ready!(this.poll_pending(cx))?;
        if this.on_its_own() {
            if this.held.len() + buf.len() <= MAX_HELD {
                this.held.extend_from_slice(buf);
                return Poll::Ready(Ok(buf.len()));
            }
            // Too long for an answer of hyper's own: written as it is.
            let held = std::mem::take(&mut this.held);
            this.pending = held;
            ready!(this.poll_pending(cx))?;
        }
        Pin::new(&mut this.inner).poll_write(cx, buf)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = &mut *self;
        this.release_held();
        ready!(this.poll_pending(cx))?;
        ready!(Pin::new(&mut this.inner).poll_flush(cx))?;
        // Everything hyper wrote is out: the answers finished so far are done.
        this.flushed = this.exchange.answered.load(Ordering::Relaxed);
        Poll::Ready(Ok(()))
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = &mut *self;
        this.release_held();
        ready!(this.poll_pending(cx))?;
        Pin::new(&mut this.inner).poll_shutdown(cx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    /// What the client end reads of what `writes` wrote through [`OwnAnswers`],
    /// with `handed_over` requests handed over and `answered` answered first.
    async fn through(writes: &[&[u8]], handed_over: u64, answered: u64) -> String {
        let (near, mut far) = tokio::io::duplex(64 * 1024);
        let exchange = Arc::new(Exchange::default());
        exchange.handed_over.store(handed_over, Ordering::Relaxed);
        let mut io = OwnAnswers::new(near, exchange.clone());
        // What was answered before was flushed.
        exchange.answered.store(answered, Ordering::Relaxed);
        io.flush().await.unwrap();
        for w in writes {
            io.write_all(w).await.unwrap();
        }
        io.shutdown().await.unwrap();
        drop(io);
        let mut out = String::new();
        far.read_to_string(&mut out).await.unwrap();
        out
    }

    fn json_error_of(answer: &str) -> (String, serde_json::Value) {
        let (head, body) = answer.split_once("\r\n\r\n").expect("a head");
        let length: usize = head
            .lines()
            .find_map(|l| l.strip_prefix("content-length: "))
            .expect("a length")
            .parse()
            .unwrap();
        assert_eq!(length, body.len(), "{answer}");
        (head.to_string(), serde_json::from_str(body).expect("JSON"))
    }

    #[tokio::test]
    async fn hypers_own_answer_gets_a_json_body_however_it_is_split() {
        let head: &[u8] = b"HTTP/1.1 431 Request Header Fields Too Large\r\nconnection: close\r\ncontent-length: 0\r\ndate: Thu, 01 Jan 2026 00:00:00 GMT\r\n\r\n";
        for split in [1, 9, 13, 40, head.len() - 2, head.len()] {
            let (a, b) = head.split_at(split);
            // On a fresh connection, and after one answered request.
            for done in [0, 1] {
                let out = through(&[a, b], done, done).await;
                let (h, v) = json_error_of(&out);
                assert!(h.starts_with("HTTP/1.1 431 "), "{h}");
                assert!(h.contains("content-type: application/json"), "{h}");
                assert!(h.contains("date: Thu, 01 Jan 2026"), "{h}");
                assert!(v["error"].as_str().unwrap().contains("headers"), "{v}");
            }
        }
    }

    #[tokio::test]
    async fn the_applications_answers_are_left_alone() {
        // An empty 404 while the application's request is under way: its own.
        let empty: &[u8] = b"HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\n\r\n";
        assert_eq!(through(&[empty], 1, 0).await.as_bytes(), empty);
        // Answered but not yet flushed: the last bytes are still the application's.
        let mut io_out = String::new();
        {
            let (near, mut far) = tokio::io::duplex(4096);
            let exchange = Arc::new(Exchange::default());
            exchange.handed_over.store(1, Ordering::Relaxed);
            let mut io = OwnAnswers::new(near, exchange.clone());
            exchange.answered.store(1, Ordering::Relaxed);
            io.write_all(empty).await.unwrap();
            io.shutdown().await.unwrap();
            drop(io);
            far.read_to_string(&mut io_out).await.unwrap();
        }
        assert_eq!(io_out.as_bytes(), empty);
        // Held bytes that are not an empty error answer are written as they were.
        for other in [
            &b"HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n"[..],
            b"HTTP/1.1 400 Bad Request\r\ncontent-type: text/plain\r\ncontent-length: 0\r\n\r\n",
            b"HTTP/1.1 400 Bad Request\r\ncontent-length: 2\r\n\r\nno",
            b"HTTP/1.1 400 Bad Req",
        ] {
            assert_eq!(through(&[other], 0, 0).await.as_bytes(), other);
        }
    }
}
