//! A request body must arrive in time (crates/server/src/request_body.rs): one
//! that stalls or trickles is answered 408 and its connection closed, one that
//! keeps pace still has a deadline, and at the cap of connections stalled bodies
//! make way for ordinary clients.

use crate::common::Server;
use serde_json::Value;
use std::io::{ErrorKind, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::{Duration, Instant};
use tabula_server::{ConnectionLimits, ServeOptions};

fn limits(max: usize, body_timeout_ms: u64, wait_ms: u64) -> ServeOptions {
    ServeOptions {
        connections: ConnectionLimits {
            max,
            header_timeout: Duration::from_secs(30),
            body_timeout: Duration::from_millis(body_timeout_ms),
            wait: Duration::from_millis(wait_ms),
        },
        ..Default::default()
    }
}

/// The head of a request that starts a session, declaring a body of `length`.
fn head(addr: SocketAddr, length: usize) -> String {
    format!(
        "POST /api/sessions HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {length}\r\n\r\n"
    )
}

fn connect(addr: SocketAddr) -> TcpStream {
    let s = TcpStream::connect_timeout(&addr, Duration::from_secs(5)).expect("connect");
    s.set_read_timeout(Some(Duration::from_millis(50))).unwrap();
    s
}

/// Reads what arrives until the server closes the connection (`Some`), or
/// `within` passes (`None`).
fn closed_within(s: &mut TcpStream, within: Duration) -> Option<String> {
    let started = Instant::now();
    let mut got = Vec::new();
    let mut buf = [0u8; 4096];
    while started.elapsed() < within {
        match s.read(&mut buf) {
            Ok(0) => return Some(String::from_utf8_lossy(&got).into_owned()),
            Ok(n) => got.extend_from_slice(&buf[..n]),
            Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {}
            Err(_) => return Some(String::from_utf8_lossy(&got).into_owned()),
        }
    }
    None
}

/// A 408 answer with the API's JSON error, whose message has `words`.
fn assert_late(answer: &str, words: &str) {
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer:?}");
    let (head, body) = answer.split_once("\r\n\r\n").unwrap();
    assert!(
        head.to_ascii_lowercase()
            .contains("content-type: application/json"),
        "{head}"
    );
    let v: Value = serde_json::from_str(body).expect("a JSON error");
    let error = v["error"].as_str().unwrap_or_default();
    assert!(error.contains(words), "{v}");
}

#[test]
fn a_stalled_body_is_answered_and_closed() {
    // The issue's case: 5 of 100 declared bytes, then nothing.
    let server = Server::start();
    let mut s = connect(server.addr);
    let started = Instant::now();
    s.write_all(head(server.addr, 100).as_bytes()).unwrap();
    s.write_all(br#"{"gam"#).unwrap();
    let answer = closed_within(&mut s, Duration::from_secs(6))
        .expect("a stalled body held its connection for 6 s");
    let took = started.elapsed();
    assert_late(&answer, "too slowly");
    // Cut off at the least rate, a little after the grace, not at the deadline.
    assert!(
        took >= tabula_server::BODY_GRACE && took < Duration::from_secs(3),
        "{took:?}"
    );
    // Nothing was started.
    assert_eq!(server.get("/api/saved").0, 200);
}

#[test]
fn a_trickled_body_is_cut_off_by_the_least_rate() {
    let server = Server::start();
    let mut s = connect(server.addr);
    let started = Instant::now();
    s.write_all(head(server.addr, 1000).as_bytes()).unwrap();
    let mut answer = None;
    // A byte every 200 ms: never quiet for long, far too slow.
    while started.elapsed() < Duration::from_secs(6) {
        if s.write_all(b" ").is_err() {
            answer = Some(String::new());
            break;
        }
        if let Some(got) = closed_within(&mut s, Duration::from_millis(200)) {
            answer = Some(got);
            break;
        }
    }
    let answer = answer.expect("a body trickled a byte at a time was read for 6 s");
    assert!(
        started.elapsed() < Duration::from_secs(3),
        "{:?}",
        started.elapsed()
    );
    // The answer may be lost when the server closes while bytes are still arriving.
    if !answer.is_empty() {
        assert_late(&answer, "too slowly");
    }
}

#[test]
fn a_body_that_keeps_pace_still_has_a_deadline() {
    let server = Server::start_with(limits(64, 1500, 500));
    let mut s = connect(server.addr);
    let started = Instant::now();
    s.write_all(head(server.addr, 60_000).as_bytes()).unwrap();
    let mut answer = None;
    // 4 KB a second, well above the least rate: 15 s for the whole body.
    while started.elapsed() < Duration::from_secs(6) {
        if s.write_all(&[b' '; 200]).is_err() {
            answer = Some(String::new());
            break;
        }
        if let Some(got) = closed_within(&mut s, Duration::from_millis(50)) {
            answer = Some(got);
            break;
        }
    }
    let answer = answer.expect("a 15 s body was read for 6 s");
    let took = started.elapsed();
    assert!(
        took >= Duration::from_millis(1400) && took < Duration::from_secs(4),
        "{took:?}"
    );
    if !answer.is_empty() {
        assert_late(&answer, "did not arrive within 1.5 s");
    }
}

#[test]
fn a_body_sent_in_parts_in_good_time_is_read() {
    let server = Server::start();
    let body = br#"{"game": "tictactoe", "players": ["human", "human"]}"#;
    let mut s = connect(server.addr);
    s.write_all(head(server.addr, body.len()).as_bytes())
        .unwrap();
    // Half, a pause within the grace, the rest.
    let (a, b) = body.split_at(body.len() / 2);
    s.write_all(a).unwrap();
    std::thread::sleep(Duration::from_millis(600));
    s.write_all(b).unwrap();
    s.write_all(b"GET /api/games HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        .unwrap();
    let answer = closed_within(&mut s, Duration::from_secs(10)).expect("answered");
    assert!(answer.starts_with("HTTP/1.1 201"), "{answer}");
}

#[test]
fn stalled_bodies_at_the_cap_make_way_for_ordinary_clients() {
    // Eight places, heads may take 30 s, bodies 30 s, waiters wait 5 s: the
    // least rate alone would free the places only after a second or so.
    let server = Server::start_with(limits(8, 30_000, 5_000));
    let mut stalled: Vec<TcpStream> = (0..16)
        .map(|_| {
            let mut s = connect(server.addr);
            s.write_all(head(server.addr, 100).as_bytes()).unwrap();
            s.write_all(b"{").unwrap();
            s
        })
        .collect();
    std::thread::sleep(Duration::from_millis(100));
    let started = Instant::now();
    let (status, _, body) = server.raw(
        format!(
            "GET /api/games HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n\r\n",
            server.addr
        )
        .as_bytes(),
    );
    let took = started.elapsed();
    assert_eq!(status, 200, "{body}");
    assert!(took < Duration::from_secs(1), "served after {took:?}");
    // Every stalled body is answered and closed soon after.
    for s in &mut stalled {
        let answer = closed_within(s, Duration::from_secs(5)).expect("still open");
        if !answer.is_empty() {
            assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
        }
    }
}
