//! Connections are bounded: idle ones and slow request heads are cut off, and at
//! most a set number are served at once (see crates/server/src/connections.rs).

use crate::common::Server;
use serde_json::{json, Value};
use std::io::{ErrorKind, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::{Duration, Instant};
use tabula_server::{ConnectionLimits, ServeOptions};

fn limits(max: usize, header_timeout_ms: u64, wait_ms: u64) -> ServeOptions {
    ServeOptions {
        connections: ConnectionLimits {
            max,
            header_timeout: Duration::from_millis(header_timeout_ms),
            body_timeout: Duration::from_secs(10),
            wait: Duration::from_millis(wait_ms),
        },
        ..Default::default()
    }
}

fn connect(addr: SocketAddr) -> TcpStream {
    let s = TcpStream::connect_timeout(&addr, Duration::from_secs(5)).expect("connect");
    s.set_read_timeout(Some(Duration::from_millis(100)))
        .unwrap();
    s
}

/// Reads until the server closes the connection, or `within` passes (`None`).
/// Returns what was read before the close.
fn closed_within(s: &mut TcpStream, within: Duration) -> Option<Vec<u8>> {
    let started = Instant::now();
    let mut got = Vec::new();
    let mut buf = [0u8; 4096];
    while started.elapsed() < within {
        match s.read(&mut buf) {
            Ok(0) => return Some(got),
            Ok(n) => got.extend_from_slice(&buf[..n]),
            Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {}
            Err(_) => return Some(got),
        }
    }
    None
}

fn get_games(addr: SocketAddr, keep_alive: bool) -> Vec<u8> {
    format!(
        "GET /api/games HTTP/1.1\r\nHost: {addr}\r\nConnection: {}\r\n\r\n",
        if keep_alive { "keep-alive" } else { "close" }
    )
    .into_bytes()
}

#[test]
fn connections_that_send_nothing_are_closed() {
    let server = Server::start_with(limits(64, 700, 500));
    let mut silent = connect(server.addr);
    let started = Instant::now();
    let got = closed_within(&mut silent, Duration::from_secs(5));
    assert!(got.is_some(), "a silent connection stayed open for 5 s");
    assert!(
        started.elapsed() >= Duration::from_millis(500),
        "closed before its time: {:?}",
        started.elapsed()
    );
    // A keep-alive connection left idle after its answer is closed too.
    let mut idle = connect(server.addr);
    idle.write_all(&get_games(server.addr, true)).unwrap();
    let got = closed_within(&mut idle, Duration::from_secs(5))
        .expect("an idle keep-alive connection stayed open for 5 s");
    let text = String::from_utf8_lossy(&got);
    assert!(text.starts_with("HTTP/1.1 200"), "{text}");
}

#[test]
fn request_heads_sent_slowly_are_cut_off() {
    let server = Server::start_with(limits(64, 700, 500));
    let mut slow = connect(server.addr);
    slow.write_all(b"GET /api/games HTTP/1.1\r\n").unwrap();
    let started = Instant::now();
    let mut cut_off = None;
    // One header byte about every 100 ms, for up to 5 s: it never ends on its own.
    for i in 0.. {
        if started.elapsed() > Duration::from_secs(5) {
            break;
        }
        if slow
            .write_all(if i % 2 == 0 { b"X" } else { b"y" })
            .is_err()
        {
            cut_off = Some(Vec::new());
            break;
        }
        if let Some(got) = closed_within(&mut slow, Duration::from_millis(50)) {
            cut_off = Some(got);
            break;
        }
    }
    let got = cut_off.expect("a head sent a byte at a time was read for 5 s");
    let took = started.elapsed();
    assert!(took < Duration::from_secs(3), "cut off after {took:?}");
    // When hyper answers (408), the answer carries a JSON error.
    let text = String::from_utf8_lossy(&got);
    if !text.is_empty() {
        assert!(text.starts_with("HTTP/1.1 408"), "{text}");
        let body = text.split_once("\r\n\r\n").map_or("", |p| p.1);
        let v: Value = serde_json::from_str(body).expect("a JSON error");
        assert!(v["error"].as_str().is_some(), "{v}");
    }
    // The server still answers.
    assert_eq!(server.get("/api/games").0, 200);
}

#[test]
fn a_long_answer_is_not_cut_off_by_the_header_timeout() {
    let mut options = limits(64, 500, 500);
    options.move_deadline = Duration::from_millis(1500);
    let server = Server::start_with(options);
    let (id, view) = server.session(json!({
        "game": "northcott", "variant": "size=128x32",
        "players": ["human", "alphabeta:ms=10000,depth=64"], "seed": 1
    }));
    let mv = view["legal_moves"][0]["move"].as_str().unwrap().to_string();
    let started = Instant::now();
    let (status, out) = server.call_any(
        "POST",
        &format!("/api/sessions/{id}/moves"),
        Some(&json!({ "move": mv }).to_string()),
    );
    assert_eq!(status, 200, "{out}");
    assert!(
        started.elapsed() >= Duration::from_secs(1),
        "the computer thought"
    );
}

/// Opens connections that keep sending one header byte every 50 ms (so they are
/// never idle and never finish), on threads that stop when told.
struct Trickles {
    stop: std::sync::Arc<std::sync::atomic::AtomicBool>,
    threads: Vec<std::thread::JoinHandle<()>>,
}

impl Trickles {
    fn open(addr: SocketAddr, n: usize) -> Trickles {
        let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let threads = (0..n)
            .map(|_| {
                let stop = stop.clone();
                let mut s = connect(addr);
                std::thread::spawn(move || {
                    let _ = s.write_all(b"GET /api/games HTTP/1.1\r\n");
                    while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                        if s.write_all(b"X").is_err() {
                            return;
                        }
                        std::thread::sleep(Duration::from_millis(50));
                    }
                })
            })
            .collect();
        // Let the server accept them all before anything else connects.
        std::thread::sleep(Duration::from_millis(300));
        Trickles { stop, threads }
    }
}

impl Drop for Trickles {
    fn drop(&mut self) {
        self.stop.store(true, std::sync::atomic::Ordering::Relaxed);
        for t in self.threads.drain(..) {
            let _ = t.join();
        }
    }
}

/// Opens connections whose requests are under way: each sends the head of a
/// request with a 60 KB body, then 200 bytes of it every 50 ms (4 KB a second,
/// well above the least rate), on threads that stop when told.
struct PacedBodies {
    stop: std::sync::Arc<std::sync::atomic::AtomicBool>,
    threads: Vec<std::thread::JoinHandle<()>>,
}

impl PacedBodies {
    fn open(addr: SocketAddr, n: usize) -> PacedBodies {
        let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let threads = (0..n)
            .map(|_| {
                let stop = stop.clone();
                let mut s = connect(addr);
                std::thread::spawn(move || {
                    let head = format!(
                        "POST /api/sessions HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: 60000\r\n\r\n"
                    );
                    let _ = s.write_all(head.as_bytes());
                    while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                        if s.write_all(&[b' '; 200]).is_err() {
                            return;
                        }
                        std::thread::sleep(Duration::from_millis(50));
                    }
                })
            })
            .collect();
        // Let the server accept them all before anything else connects.
        std::thread::sleep(Duration::from_millis(300));
        PacedBodies { stop, threads }
    }
}

impl Drop for PacedBodies {
    fn drop(&mut self) {
        self.stop.store(true, std::sync::atomic::Ordering::Relaxed);
        for t in self.threads.drain(..) {
            let _ = t.join();
        }
    }
}

fn body_limits(max: usize, wait_ms: u64) -> ServeOptions {
    let mut options = limits(max, 30_000, wait_ms);
    options.connections.body_timeout = Duration::from_secs(30);
    options
}

#[test]
fn connections_beyond_the_cap_wait_then_are_refused() {
    // Every place holds a request under way whose body keeps pace: nothing may
    // be closed for the ninth connection, which waits and is refused.
    let server = Server::start_with(body_limits(8, 400));
    let busy = PacedBodies::open(server.addr, 8);
    let started = Instant::now();
    let (status, head, body) = server.raw(&get_games(server.addr, false));
    let took = started.elapsed();
    assert_eq!(status, 503, "the ninth connection was served: {head}");
    assert!(
        head.to_ascii_lowercase().contains("application/json"),
        "{head}"
    );
    let v: Value = serde_json::from_str(&body).expect("a JSON error");
    assert!(
        v["error"]
            .as_str()
            .unwrap()
            .contains("too many connections"),
        "{v}"
    );
    assert!(
        took >= Duration::from_millis(300) && took < Duration::from_secs(5),
        "refused after {took:?}"
    );
    // A place that frees is taken by the next connection.
    drop(busy);
    assert_eq!(server.get("/api/games").0, 200);
}

#[test]
fn heads_sent_slowly_make_way_for_a_complete_request_at_once() {
    // Eight places all held by heads sent a byte every 50 ms (never idle, never
    // done; heads may take 30 s): a newcomer takes one of their places.
    let server = Server::start_with(limits(8, 30_000, 400));
    let slow = Trickles::open(server.addr, 8);
    for _ in 0..5 {
        let started = Instant::now();
        let (status, _, body) = server.raw(&get_games(server.addr, false));
        assert_eq!(status, 200, "{body}");
        assert!(
            started.elapsed() < Duration::from_secs(1),
            "waited {:?}",
            started.elapsed()
        );
    }
    drop(slow);
}

/// Keeps `n` connections sending a request head a byte a second, each opened
/// again as soon as the server closes it, until told to stop; counts how often
/// one was closed and opened again.
fn reconnecting_slow_heads(
    addr: SocketAddr,
    n: usize,
    stop: std::sync::Arc<std::sync::atomic::AtomicBool>,
) -> std::thread::JoinHandle<usize> {
    std::thread::spawn(move || {
        let open = || -> Option<(TcpStream, Instant)> {
            let mut s = TcpStream::connect_timeout(&addr, Duration::from_secs(2)).ok()?;
            s.write_all(b"GET /api/games HTTP/1.1\r\nHost: x\r\n")
                .ok()?;
            s.set_nonblocking(true).ok()?;
            Some((s, Instant::now()))
        };
        let mut conns: Vec<Option<(TcpStream, Instant)>> = (0..n).map(|_| open()).collect();
        let mut reopened = 0;
        while !stop.load(std::sync::atomic::Ordering::Relaxed) {
            for c in conns.iter_mut() {
                let closed = match c {
                    None => true,
                    Some((s, last)) => {
                        let mut buf = [0u8; 1024];
                        let gone = match s.read(&mut buf) {
                            Ok(_) => true,
                            Err(e) => e.kind() != ErrorKind::WouldBlock,
                        };
                        if !gone && last.elapsed() >= Duration::from_secs(1) {
                            *last = Instant::now();
                            s.write_all(b"X").is_err()
                        } else {
                            gone
                        }
                    }
                };
                if closed {
                    *c = open();
                    reopened += 1;
                }
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        reopened
    })
}

#[test]
fn reconnecting_slow_heads_never_keep_an_ordinary_client_out() {
    // Sixteen places; 48 connections keep heads half-sent, a byte a second,
    // and reconnect as soon as they are closed. An ordinary client opening a
    // fresh connection per request is never turned away for a second in a row.
    let server = Server::start_with(limits(16, 30_000, 2_000));
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let attack = reconnecting_slow_heads(server.addr, 48, stop.clone());
    std::thread::sleep(Duration::from_millis(500));
    let started = Instant::now();
    let (mut served, mut turned_away) = (0, 0);
    let mut since: Option<Instant> = None;
    let (mut longest, mut slowest) = (Duration::ZERO, Duration::ZERO);
    while started.elapsed() < Duration::from_secs(4) {
        let asked = Instant::now();
        let (status, _, _) = server.raw(&get_games(server.addr, false));
        if status == 200 {
            served += 1;
            slowest = slowest.max(asked.elapsed());
            if let Some(s) = since.take() {
                longest = longest.max(s.elapsed());
            }
        } else {
            turned_away += 1;
            since.get_or_insert(asked);
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    if let Some(s) = since {
        longest = longest.max(s.elapsed());
    }
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    let reopened = attack.join().unwrap();
    assert!(reopened >= 16, "the attack was never closed: {reopened}");
    assert!(
        longest < Duration::from_secs(1),
        "turned away for {longest:?} in a row ({served} served, {turned_away} turned away)"
    );
    // Each request whole at once: served within a second.
    assert!(
        slowest < Duration::from_secs(1),
        "a request was served after {slowest:?} ({served} served, {turned_away} turned away)"
    );
    eprintln!("{served} served, the slowest after {slowest:?}; {turned_away} turned away");
    assert!(served >= 10, "{served} served, {turned_away} turned away");
}

#[test]
fn idle_connections_give_way_to_new_ones_at_the_cap() {
    // Idle connections would be closed only after 30 s; at the cap they make way.
    let server = Server::start_with(limits(8, 30_000, 2_000));
    let mut idle: Vec<TcpStream> = (0..8).map(|_| connect(server.addr)).collect();
    std::thread::sleep(Duration::from_millis(800));
    for _ in 0..5 {
        let started = Instant::now();
        let (status, _, body) = server.raw(&get_games(server.addr, false));
        assert_eq!(status, 200, "{body}");
        assert!(
            started.elapsed() < Duration::from_secs(1),
            "waited {:?}",
            started.elapsed()
        );
    }
    let closed = idle
        .iter_mut()
        .map(|s| closed_within(s, Duration::from_millis(200)))
        .filter(Option::is_some)
        .count();
    assert!(closed >= 1, "no idle connection was closed");
}

#[test]
fn a_burst_of_silent_connections_is_cleared_quickly_at_the_cap() {
    // Eight places, heads may take 30 s and waiters may wait 5 s: only shedding
    // lets the ordinary client in. The burst fills the places and queues 24 more
    // silent connections ahead of it; each is closed a tenth of a second after it
    // gets a place without having sent a byte (half a second for a connection
    // that sent something before), so the client is served well within a second.
    let server = Server::start_with(limits(8, 30_000, 5_000));
    let burst: Vec<TcpStream> = (0..32).map(|_| connect(server.addr)).collect();
    std::thread::sleep(Duration::from_millis(50));
    let started = Instant::now();
    let (status, _, body) = server.raw(&get_games(server.addr, false));
    let took = started.elapsed();
    assert_eq!(status, 200, "{body}");
    assert!(took < Duration::from_millis(1000), "served after {took:?}");
    drop(burst);
}
