//! Issue 12's "Must show": every abuse the issue lists, replayed against the real
//! `tabula serve` (a child process on a free loopback port, a temporary database),
//! while two threads watch the server: one samples its resident memory every 50 ms
//! (`/proc/PID/status`, `VmHWM` and `VmRSS`), one times `GET /api/games` every 20 ms.
//!
//! Phases 12 and 13 (abuse/connections.rs): 1,200 idle and 40 slow connections,
//! beyond the server's cap, all closed by the server within its head time; and 54
//! sessions against the perfect player (every Hexapawn board, both Kono rule
//! sets), each with a move, all read back at the end. Phase 12b
//! (abuse/bodies.rs): 1,100 requests at once whose bodies stall or trickle, all
//! closed by the server within a body's time while ordinary clients get in.
//!
//! Asserted at the end, all failures listed together: peak resident memory under
//! 1.5 GiB; `GET /api/games` p99 under 50 ms; every abusive request answered within
//! 15 s with a 4xx or a bounded 2xx; no 5xx anywhere; the server alive at the end.
//! The CLI abuses (a never-ending `play`, output into `head`, a memory-hungry
//! `solve`, Poggle `colours=256`) run as child processes against the same limits.
//!
//! Slow (about two minutes) and needing a release build, so ignored by default:
//! `cargo test --release --test integration abuse -- --ignored --nocapture`
//! prints the figures (requests, worst memory, latencies).

mod bodies;
mod connections;

use serde_json::{json, Value};
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The time any abusive request may take.
const ANSWER_WITHIN: Duration = Duration::from_secs(15);
/// Peak resident memory the server may reach.
const MAX_RSS_KB: u64 = 1536 * 1024;
/// The longest an ordinary client may be turned away ("too many connections")
/// while a flood of connections is cleared.
const MAX_TURNED_AWAY: Duration = Duration::from_secs(1);
/// How long a client goes on asking for a perfect player whose table the server
/// says is still being prepared (building Kono's takes tens of seconds on a busy
/// machine; the answer asks to try again shortly).
const TABLE_READY_WITHIN: Duration = Duration::from_secs(180);
/// p99 of `GET /api/games` while the abuse goes on.
const MAX_P99_MS: f64 = 50.0;
/// The largest answer body counted as bounded (docs/API.md: a position lists at
/// most 5,000 legal moves, a job result at most 1 MiB).
const MAX_BODY: usize = 4 << 20;

/// A deliberate 503 ("busy") counts as a refusal only where the API documents it
/// in its table of errors.
fn busy_documented() -> bool {
    include_str!("../../docs/API.md")
        .lines()
        .any(|l| l.starts_with("| 503 |"))
}

struct Answer {
    status: u16,
    body: Vec<u8>,
    elapsed: Duration,
}

impl Answer {
    fn json(&self) -> Value {
        serde_json::from_slice(&self.body).unwrap_or(Value::Null)
    }
}

/// Decodes a chunked body (hyper chunks bodies of unknown length).
fn dechunk(mut raw: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    loop {
        let Some(eol) = raw.windows(2).position(|w| w == b"\r\n") else {
            return out;
        };
        let size = std::str::from_utf8(&raw[..eol])
            .ok()
            .and_then(|s| usize::from_str_radix(s.split(';').next()?.trim(), 16).ok())
            .unwrap_or(0);
        raw = &raw[eol + 2..];
        if size == 0 || raw.len() < size {
            out.extend_from_slice(&raw[..size.min(raw.len())]);
            return out;
        }
        out.extend_from_slice(&raw[..size]);
        raw = raw.get(size + 2..).unwrap_or(&[]);
    }
}

/// Sends raw request bytes on a new connection and reads the whole answer, giving
/// up after `timeout` (Err then says what happened).
fn send_raw(addr: SocketAddr, request: &[u8], timeout: Duration) -> Result<Answer, String> {
    let started = Instant::now();
    let mut s = TcpStream::connect_timeout(&addr, Duration::from_secs(5))
        .map_err(|e| format!("connect: {e}"))?;
    s.set_read_timeout(Some(timeout)).unwrap();
    // The server may answer (and close) before it has read a large request.
    let _ = s.write_all(request);
    let mut buf = Vec::new();
    let mut chunk = [0u8; 64 * 1024];
    loop {
        if started.elapsed() > timeout {
            return Err(format!("no whole answer within {timeout:?}"));
        }
        match s.read(&mut chunk) {
            Ok(0) => break,
            Ok(n) => buf.extend_from_slice(&chunk[..n]),
            Err(e) if buf.is_empty() => return Err(format!("{e} after {:?}", started.elapsed())),
            Err(_) => break,
        }
    }
    let elapsed = started.elapsed();
    let split = buf
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .ok_or_else(|| format!("no answer ({} bytes)", buf.len()))?;
    let head = String::from_utf8_lossy(&buf[..split]).to_ascii_lowercase();
    let status = head
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| format!("bad status line: {head}"))?;
    let raw = &buf[split + 4..];
    let body = if head.contains("transfer-encoding: chunked") {
        dechunk(raw)
    } else {
        raw.to_vec()
    };
    Ok(Answer {
        status,
        body,
        elapsed,
    })
}

fn request_bytes(addr: SocketAddr, method: &str, path: &str, body: Option<&str>) -> Vec<u8> {
    match body {
        Some(b) => format!(
            "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{b}",
            b.len()
        ),
        None => format!("{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"),
    }
    .into_bytes()
}

/// One part of the replay.
type Phase = fn(&Abuse);

/// The server under test and the record of everything asked of it.
struct Abuse {
    addr: SocketAddr,
    pid: u32,
    db: PathBuf,
    requests: AtomicU64,
    busy: AtomicU64,
    /// Answers that a table is still being prepared (retried, as they ask).
    preparing: AtomicU64,
    failures: Mutex<Vec<String>>,
    slowest: Mutex<(Duration, String)>,
    largest: Mutex<(usize, String)>,
}

impl Abuse {
    fn fail(&self, what: String) {
        eprintln!("FAIL: {what}");
        self.failures.lock().unwrap().push(what);
    }

    /// One abusive request: it must be answered within 15 s, with no 5xx and a
    /// bounded body. Returns the answer when there was one.
    fn ask(&self, what: &str, method: &str, path: &str, body: Option<&str>) -> Option<Answer> {
        let req = request_bytes(self.addr, method, path, body);
        self.ask_raw(what, &req)
    }

    fn ask_raw(&self, what: &str, request: &[u8]) -> Option<Answer> {
        self.requests.fetch_add(1, Ordering::Relaxed);
        match send_raw(self.addr, request, ANSWER_WITHIN) {
            Err(e) => {
                self.fail(format!("{what}: {e}"));
                None
            }
            Ok(a) => {
                if a.status == 503 && busy_documented() {
                    self.busy.fetch_add(1, Ordering::Relaxed);
                } else if a.status >= 500 {
                    self.fail(format!(
                        "{what}: {} {}",
                        a.status,
                        String::from_utf8_lossy(&a.body[..a.body.len().min(300)])
                    ));
                }
                if a.body.len() > MAX_BODY {
                    self.fail(format!("{what}: a {} byte answer", a.body.len()));
                }
                if a.elapsed > ANSWER_WITHIN {
                    self.fail(format!("{what}: answered after {:?}", a.elapsed));
                }
                let mut slow = self.slowest.lock().unwrap();
                if a.elapsed > slow.0 {
                    *slow = (a.elapsed, what.to_string());
                }
                let mut large = self.largest.lock().unwrap();
                if a.body.len() > large.0 {
                    *large = (a.body.len(), what.to_string());
                }
                Some(a)
            }
        }
    }

    /// `ask`, and the status must be `want` (a range like 400..500 or one status).
    fn expect(
        &self,
        what: &str,
        method: &str,
        path: &str,
        body: Option<&Value>,
        want: std::ops::RangeInclusive<u16>,
    ) -> Option<Value> {
        let text = body.map(|b| b.to_string());
        let a = self.ask(what, method, path, text.as_deref())?;
        if a.status == 503 && busy_documented() {
            return None;
        }
        if !want.contains(&a.status) && a.status < 500 {
            self.fail(format!(
                "{what}: status {} (wanted {want:?}): {}",
                a.status,
                String::from_utf8_lossy(&a.body[..a.body.len().min(300)])
            ));
            return None;
        }
        if !want.contains(&a.status) {
            return None;
        }
        Some(a.json())
    }

    /// `expect`, retrying a documented "busy" answer for up to 15 s.
    fn expect_patient(
        &self,
        what: &str,
        method: &str,
        path: &str,
        want: std::ops::RangeInclusive<u16>,
    ) -> Option<Value> {
        let started = Instant::now();
        loop {
            let busy = self.busy.load(Ordering::Relaxed);
            let v = self.expect(what, method, path, None, want.clone());
            if v.is_some()
                || self.busy.load(Ordering::Relaxed) == busy
                || started.elapsed() > ANSWER_WITHIN
            {
                return v;
            }
            std::thread::sleep(Duration::from_millis(250));
        }
    }

    /// Starts a session; a documented "busy" answer is retried, as its message
    /// asks, for up to 15 s, and a perfect player whose table is still being
    /// prepared for up to [`TABLE_READY_WITHIN`].
    fn session(&self, what: &str, body: Value) -> Option<String> {
        let started = Instant::now();
        loop {
            let a = self.ask(what, "POST", "/api/sessions", Some(&body.to_string()))?;
            let preparing = || {
                a.json()["error"]
                    .as_str()
                    .is_some_and(|e| e.contains("being prepared"))
            };
            match a.status {
                201 => return a.json()["id"].as_str().map(str::to_string),
                503 if preparing() && started.elapsed() < TABLE_READY_WITHIN => {
                    self.preparing.fetch_add(1, Ordering::Relaxed);
                    std::thread::sleep(Duration::from_secs(1))
                }
                503 if busy_documented() && started.elapsed() < ANSWER_WITHIN => {
                    std::thread::sleep(Duration::from_millis(250))
                }
                s => {
                    self.fail(format!(
                        "{what}: status {s} (wanted 201): {}",
                        String::from_utf8_lossy(&a.body[..a.body.len().min(300)])
                    ));
                    return None;
                }
            }
        }
    }

    /// Waits for a job to end; returns its final status object.
    fn job_end(&self, what: &str, id: &str) -> Option<Value> {
        let started = Instant::now();
        while started.elapsed() < ANSWER_WITHIN {
            let v = self.expect(what, "GET", &format!("/api/jobs/{id}"), None, 200..=200)?;
            if v["state"] == "done" || v["state"] == "error" {
                return Some(v);
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        self.fail(format!(
            "{what}: job {id} still running after {ANSWER_WITHIN:?}"
        ));
        None
    }

    /// CPU seconds the server has used so far (utime + stime).
    fn cpu_seconds(&self) -> f64 {
        let stat = std::fs::read_to_string(format!("/proc/{}/stat", self.pid)).unwrap_or_default();
        let after = stat.rsplit_once(')').map(|p| p.1).unwrap_or("");
        let fields: Vec<&str> = after.split_whitespace().collect();
        let ticks: f64 = fields
            .get(11..13)
            .map(|f| f.iter().filter_map(|t| t.parse::<f64>().ok()).sum())
            .unwrap_or(0.0);
        ticks / 100.0
    }
}

/// Peak (VmHWM) and current (VmRSS) resident memory of a process, in KiB.
fn memory_kb(pid: u32) -> Option<(u64, u64)> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let field = |name: &str| {
        status
            .lines()
            .find(|l| l.starts_with(name))?
            .split_whitespace()
            .nth(1)?
            .parse()
            .ok()
    };
    Some((field("VmHWM:")?, field("VmRSS:")?))
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

#[test]
#[ignore = "about two minutes of both cores against the optimised binary: cargo test --release --test integration abuse -- --ignored --nocapture"]
fn every_kind_of_abuse_is_refused_or_bounded() {
    let dir = std::env::temp_dir().join(format!("tabula-abuse-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let db = dir.join("tabula.db");
    let (mut child, addr) = super::crash::start(&db);
    let ab = Arc::new(Abuse {
        addr,
        pid: child.id(),
        db: db.clone(),
        requests: AtomicU64::new(0),
        busy: AtomicU64::new(0),
        preparing: AtomicU64::new(0),
        failures: Mutex::new(Vec::new()),
        slowest: Mutex::new((Duration::ZERO, String::new())),
        largest: Mutex::new((0, String::new())),
    });
    let stop = Arc::new(AtomicBool::new(false));
    let started = Instant::now();

    // Memory sampler.
    let sampler = {
        let (stop, pid) = (stop.clone(), child.id());
        std::thread::spawn(move || {
            let (mut hwm, mut rss) = (0u64, 0u64);
            while !stop.load(Ordering::Relaxed) {
                if let Some((h, r)) = memory_kb(pid) {
                    hwm = hwm.max(h);
                    rss = rss.max(r);
                }
                std::thread::sleep(Duration::from_millis(50));
            }
            (hwm, rss)
        })
    };
    // Latency prober.
    let prober = {
        let stop = stop.clone();
        std::thread::spawn(move || {
            let mut times = Vec::new();
            let mut bad = Vec::new();
            let mut busy = 0usize;
            // Since when the probes are turned away, and the longest such time.
            let (mut turned_away, mut longest) = (None::<Duration>, Duration::ZERO);
            let req = request_bytes(addr, "GET", "/api/games", None);
            while !stop.load(Ordering::Relaxed) {
                match send_raw(addr, &req, Duration::from_secs(5)) {
                    Ok(a) if a.status == 200 => {
                        if let Some(since) = turned_away.take() {
                            longest = longest.max(started.elapsed() - since);
                        }
                        times.push((started.elapsed(), a.elapsed.as_secs_f64() * 1000.0))
                    }
                    // While a flood of connections fills the cap, a newcomer may be
                    // told (documented, with retry-after) to come back; it does.
                    Ok(a) if a.status == 503 && busy_documented() => {
                        busy += 1;
                        turned_away.get_or_insert(started.elapsed());
                    }
                    Ok(a) => bad.push(format!("GET /api/games: {}", a.status)),
                    Err(e) => {
                        times.push((started.elapsed(), 5000.0));
                        bad.push(format!("GET /api/games: {e}"));
                    }
                }
                std::thread::sleep(Duration::from_millis(20));
            }
            if let Some(since) = turned_away {
                longest = longest.max(started.elapsed() - since);
            }
            // Turned away for a moment during a flood, not for long.
            eprintln!(
                "GET /api/games: {busy} probes turned away (too many connections), \
                 for at most {:.2} s in a row",
                longest.as_secs_f64()
            );
            if longest > MAX_TURNED_AWAY {
                bad.push(format!(
                    "GET /api/games: turned away for {:.1} s in a row ({busy} busy answers)",
                    longest.as_secs_f64()
                ));
            }
            (times, bad)
        })
    };

    let phases: [(&str, Phase); 16] = [
        (
            "1 solve jobs beyond memory, cancel, queue",
            jobs_beyond_memory,
        ),
        ("2 a 64-heap Nim session and hints", huge_nim),
        ("3 long computer thinking", long_thinking),
        ("4 Poggle colours=256", poggle_256),
        ("5 twenty Poggle size=10000 solves", poggle_solves),
        ("6 many Northcott variants", northcott_variants),
        ("7 never-ending games", endless_games),
        ("8 undo tallies", undo_tallies),
        ("9 best results and session ids", best_ids),
        ("10 bodies, addresses and headers", http_layer),
        ("fuzzed requests (3,000)", fuzzed_requests),
        ("3b SameGame 100x100 search", samegame_search),
        (
            "12 idle and slow connections beyond the cap",
            connections::idle_and_slow_connections,
        ),
        (
            "12b 1,100 stalled and trickled bodies",
            bodies::stalled_and_trickled_bodies,
        ),
        (
            "12c 1,100 slow heads that reconnect",
            connections::reconnecting_slow_heads,
        ),
        (
            "13 54 sessions against the perfect player",
            connections::many_sessions_with_tables,
        ),
    ];
    let mut timings = Vec::new();
    // The peak so far and what is resident now, after each phase: the difference shows
    // what a phase leaves behind.
    let peak = || memory_kb(ab.pid).unwrap_or((0, 0));
    for (name, phase) in phases {
        let t = started.elapsed();
        eprintln!("abuse {name} ...");
        phase(&ab);
        timings.push((name, t, started.elapsed(), peak()));
    }
    // 11 and the CLI parts of 1, 4 and 7, while the server is still watched.
    let t = started.elapsed();
    cli_abuses(&ab, &dir);
    timings.push((
        "11 CLI: pipes, solve, play, analyze",
        t,
        started.elapsed(),
        peak(),
    ));

    // Still alive and answering.
    let alive = child.try_wait().ok().flatten().is_none();
    if !alive {
        ab.fail("the server died".into());
    } else {
        ab.expect(
            "the server answers at the end",
            "GET",
            "/api/games",
            None,
            200..=200,
        );
    }
    stop.store(true, Ordering::Relaxed);
    let (hwm, rss) = sampler.join().unwrap();
    let (probes, bad) = prober.join().unwrap();
    let _ = child.kill();
    let _ = child.wait();
    let db_bytes = std::fs::metadata(&db).map(|m| m.len()).unwrap_or(0)
        + std::fs::metadata(dir.join("tabula.db-wal"))
            .map(|m| m.len())
            .unwrap_or(0);
    let _ = std::fs::remove_dir_all(&dir);

    let sorted = |from: Duration, to: Duration| {
        let mut t: Vec<f64> = probes
            .iter()
            .filter(|(at, _)| (from..to).contains(at))
            .map(|p| p.1)
            .collect();
        t.sort_by(f64::total_cmp);
        t
    };
    let times = sorted(Duration::ZERO, Duration::MAX);
    let (p50, p99, worst) = (
        percentile(&times, 0.5),
        percentile(&times, 0.99),
        times.last().copied().unwrap_or(0.0),
    );
    let slowest = ab.slowest.lock().unwrap().clone();
    let largest = ab.largest.lock().unwrap().clone();
    eprintln!(
        "\n== abuse replay summary ({:.1} s) ==",
        started.elapsed().as_secs_f64()
    );
    eprintln!(
        "  {:<42} {:>9} {:>16} {:>13} {:>22}",
        "abuse", "time", "server peak after", "resident", "GET /api/games p99/max"
    );
    for (name, from, to, (kb, now_kb)) in &timings {
        let t = sorted(*from, *to);
        eprintln!(
            "  {:<42} {:>7.1} s {:>12} MiB {:>9} MiB {:>10.1} / {:.1} ms",
            name,
            (*to - *from).as_secs_f64(),
            kb / 1024,
            now_kb / 1024,
            percentile(&t, 0.99),
            t.last().copied().unwrap_or(0.0)
        );
    }
    eprintln!(
        "deliberate 503 busy answers: {} ({})",
        ab.busy.load(Ordering::Relaxed),
        if busy_documented() {
            "documented in docs/API.md"
        } else {
            "not documented: each one failed"
        }
    );
    eprintln!(
        "answers that a perfect player's table was still being prepared (asked again): {}",
        ab.preparing.load(Ordering::Relaxed)
    );
    eprintln!(
        "abusive requests: {}; slowest {:.2} s ({}); largest answer {} bytes ({})",
        ab.requests.load(Ordering::Relaxed),
        slowest.0.as_secs_f64(),
        slowest.1,
        largest.0,
        largest.1
    );
    eprintln!(
        "server memory: peak (VmHWM) {:.0} MiB, largest sampled VmRSS {:.0} MiB (limit {} MiB)",
        hwm as f64 / 1024.0,
        rss as f64 / 1024.0,
        MAX_RSS_KB / 1024
    );
    eprintln!(
        "GET /api/games: {} probes, p50 {p50:.1} ms, p99 {p99:.1} ms, worst {worst:.1} ms (p99 limit {MAX_P99_MS} ms)",
        times.len()
    );
    eprintln!(
        "database at the end: {:.1} MiB",
        db_bytes as f64 / 1048576.0
    );

    let mut failures = ab.failures.lock().unwrap().clone();
    failures.extend(bad);
    if hwm > MAX_RSS_KB {
        failures.push(format!(
            "peak resident memory {} MiB, over {} MiB",
            hwm / 1024,
            MAX_RSS_KB / 1024
        ));
    }
    if p99 > MAX_P99_MS {
        failures.push(format!(
            "GET /api/games p99 {p99:.1} ms, over {MAX_P99_MS} ms"
        ));
    }
    assert!(
        failures.is_empty(),
        "{} failed checks:\n  {}",
        failures.len(),
        failures.join("\n  ")
    );
}

/// Issue item 1: solves that cannot fit are refused at once; jobs can be cancelled;
/// at most 2 run and 16 wait.
fn jobs_beyond_memory(ab: &Abuse) {
    for (what, body) in [
        (
            "solve job northcott 16x4",
            json!({"kind": "solve", "game": "northcott"}),
        ),
        (
            "solve job nim 300-300-300",
            json!({"kind": "solve", "game": "nim", "variant": "heaps=300-300-300"}),
        ),
    ] {
        let t = Instant::now();
        let Some(v) = ab.expect(what, "POST", "/api/jobs", Some(&body), 202..=202) else {
            continue;
        };
        let id = v["job_id"].as_str().unwrap_or_default().to_string();
        if let Some(end) = ab.job_end(what, &id) {
            let err = end["error"].as_str().unwrap_or_default();
            if end["state"] != "error" || !err.contains("memory limit") {
                ab.fail(format!("{what}: not refused for memory: {end}"));
            }
            if t.elapsed() > Duration::from_secs(2) {
                ab.fail(format!("{what}: refused only after {:?}", t.elapsed()));
            }
        }
    }
    // Long jobs: 20 asked, at most 16 queued or running, at most 2 running; each
    // one cancelled ends as cancelled.
    let mut ids = Vec::new();
    let mut refused = 0;
    for i in 0..20 {
        let body = json!({"kind": "simulate", "game": "tictactoe", "players": "random,random",
                          "games": 10_000_000, "seed": i});
        if let Some(a) = ab.ask(
            "long simulate job",
            "POST",
            "/api/jobs",
            Some(&body.to_string()),
        ) {
            match a.status {
                202 => ids.push(a.json()["job_id"].as_str().unwrap_or_default().to_string()),
                429 => refused += 1,
                s => ab.fail(format!("long simulate job: status {s}")),
            }
        }
    }
    if ids.len() > 16 || refused == 0 {
        ab.fail(format!(
            "20 long jobs: {} accepted, {refused} refused (at most 16 may wait)",
            ids.len()
        ));
    }
    std::thread::sleep(Duration::from_millis(300));
    let running = ids
        .iter()
        .filter_map(|id| {
            ab.expect(
                "job status",
                "GET",
                &format!("/api/jobs/{id}"),
                None,
                200..=200,
            )
        })
        .filter(|v| v["state"] == "running")
        .count();
    if running > 2 {
        ab.fail(format!("{running} jobs running at once (at most 2)"));
    }
    for id in &ids {
        ab.expect(
            "cancel a job",
            "DELETE",
            &format!("/api/jobs/{id}"),
            None,
            202..=204,
        );
    }
    for id in &ids {
        if let Some(end) = ab.job_end("a cancelled job ends", id) {
            if end["state"] != "error" {
                ab.fail(format!("a cancelled job ended {end}"));
            }
        }
    }
    // Cancelled simulations stop within moments; how much CPU that takes depends on
    // the machine, so it is reported, not asserted.
    let before = ab.cpu_seconds();
    std::thread::sleep(Duration::from_secs(2));
    eprintln!(
        "  server CPU in the 2 s after every job ended cancelled: {:.2} s",
        ab.cpu_seconds() - before
    );
}

/// Item 2: a 64-heap Nim session (and a 16-heap one) is refused; the largest Nim a
/// session may hold answers bounded views and hints.
fn huge_nim(ab: &Abuse) {
    for heaps in [64, 16] {
        let variant = vec!["65535"; heaps].join("-");
        ab.expect(
            &format!("nim session with {heaps} heaps of 65535"),
            "POST",
            "/api/sessions",
            Some(&json!({"game": "nim", "variant": format!("heaps={variant}")})),
            400..=499,
        );
    }
    // 1,000 counters: the most a session may hold.
    let variant = ["100"; 10].join("-");
    let Some(id) = ab.session(
        "nim session of 1,000 counters",
        json!({"game": "nim", "variant": format!("heaps={variant}"), "players": ["human", "perfect"]}),
    ) else {
        return;
    };
    for _ in 0..3 {
        ab.expect(
            "GET a 1,000-counter nim session",
            "GET",
            &format!("/api/sessions/{id}"),
            None,
            200..=200,
        );
    }
    ab.expect(
        "hint of a 1,000-counter nim",
        "GET",
        &format!("/api/sessions/{id}/hint"),
        None,
        200..=200,
    );
}

/// Item 3: a 600-second alpha-beta is refused; a 10-second one holds the session
/// no longer than its deadline; several at once leave the server answering.
fn long_thinking(ab: &Abuse) {
    ab.expect(
        "northcott 128x32 alphabeta ms=600000 depth=64",
        "POST",
        "/api/sessions",
        Some(&json!({"game": "northcott", "variant": "size=128x32",
                     "players": ["alphabeta:ms=600000,depth=64", "human"]})),
        400..=499,
    );
    let Some(id) = ab.session(
        "northcott 128x32 human v human",
        json!({"game": "northcott", "variant": "size=128x32", "players": ["human", "human"]}),
    ) else {
        return;
    };
    // The seat to move becomes a 10-second alpha-beta and thinks inside the PUT;
    // a GET of the same session meanwhile waits at most for that deadline.
    std::thread::scope(|s| {
        s.spawn(|| {
            ab.expect(
                "PUT players: alphabeta ms=10000 depth=64 moves",
                "PUT",
                &format!("/api/sessions/{id}/players"),
                Some(&json!({"seat": 0, "player": "alphabeta:ms=10000,depth=64"})),
                200..=200,
            );
        });
        std::thread::sleep(Duration::from_millis(1000));
        ab.expect(
            "GET a session whose computer is thinking",
            "GET",
            &format!("/api/sessions/{id}"),
            None,
            200..=200,
        );
        // Four more thinkers at once, each in its own session.
        for i in 0..4 {
            s.spawn(move || {
                ab.expect(
                    "one of four concurrent 3-second thinkers",
                    "POST",
                    "/api/sessions",
                    Some(
                        &json!({"game": "northcott", "variant": "size=128x32", "seed": i,
                                 "players": ["alphabeta:ms=3000,depth=64", "human"]}),
                    ),
                    201..=201,
                );
            });
        }
    });
}

/// Item 3, SameGame: a 100x100 board with 9 colours and a level-3 search must move
/// within the deadline, and leave no core busy once its client has gone.
fn samegame_search(ab: &Abuse) {
    let Some(id) = ab.session(
        "samegame 100x100 colours=9 search:level=3",
        json!({"game": "samegame", "variant": "size=100x100,colours=9", "players": ["search:level=3"]}),
    ) else {
        return;
    };
    std::thread::scope(|s| {
        s.spawn(|| {
            ab.expect(
                "step of samegame 100x100 search:level=3",
                "POST",
                &format!("/api/sessions/{id}/step"),
                Some(&json!({})),
                200..=200,
            );
        });
        std::thread::sleep(Duration::from_millis(500));
        ab.expect(
            "hint of that samegame while it searches",
            "GET",
            &format!("/api/sessions/{id}/hint"),
            None,
            200..=200,
        );
    });
    // Whatever happened, the clients are gone now: within 2 s the server must be
    // idle (under a third of a core over the next 3 s).
    std::thread::sleep(Duration::from_secs(2));
    let before = ab.cpu_seconds();
    std::thread::sleep(Duration::from_secs(3));
    let used = ab.cpu_seconds() - before;
    eprintln!("  server CPU after the samegame clients left: {used:.2} s in 3 s");
    if used > 1.0 {
        ab.fail(format!(
            "the server kept computing after the samegame client left: {used:.2} CPU s in 3 s"
        ));
    }
}

/// Item 4: Poggle colours=256 is valid and never divides by zero.
fn poggle_256(ab: &Abuse) {
    ab.expect(
        "poggle colours=256 session",
        "POST",
        "/api/sessions",
        Some(&json!({"game": "poggle", "variant": "colours=256"})),
        201..=201,
    );
    ab.expect(
        "GET /api/games/poggle?variant=colours=256",
        "GET",
        "/api/games/poggle?variant=colours%3D256",
        None,
        200..=200,
    );
    ab.expect(
        "PUT /api/settings/poggle variant colours=256",
        "PUT",
        "/api/settings/poggle",
        Some(&json!({"variant": "colours=256"})),
        200..=200,
    );
    ab.expect(
        "poggle colours=300 session",
        "POST",
        "/api/sessions",
        Some(&json!({"game": "poggle", "variant": "colours=300"})),
        400..=400,
    );
}

/// Item 5: twenty solves of the largest Poggle keep neither memory nor an
/// unbounded database.
fn poggle_solves(ab: &Abuse) {
    let body = json!({"kind": "solve", "game": "poggle", "variant": "size=10000"}).to_string();
    let deadline = Instant::now() + Duration::from_secs(40);
    let mut ids = Vec::new();
    while ids.len() < 20 && Instant::now() < deadline {
        match ab.ask(
            "poggle size=10000 solve job",
            "POST",
            "/api/jobs",
            Some(&body),
        ) {
            Some(a) if a.status == 202 => {
                ids.push(a.json()["job_id"].as_str().unwrap_or_default().to_string())
            }
            Some(a) if a.status == 429 => std::thread::sleep(Duration::from_millis(200)),
            Some(a) => {
                ab.fail(format!("poggle size=10000 solve job: status {}", a.status));
                return;
            }
            None => return,
        }
    }
    if ids.len() < 20 {
        ab.fail(format!(
            "only {} of 20 poggle solves accepted in 40 s",
            ids.len()
        ));
    }
    // Every job still running is asked about in turn (a job nobody asks about for
    // a minute is cancelled, and on a busy machine the last of 20 starts later).
    let started = Instant::now();
    while !ids.is_empty() {
        ids.retain(|id| {
            let what = "a poggle size=10000 solve";
            let Some(v) = ab.expect(what, "GET", &format!("/api/jobs/{id}"), None, 200..=200)
            else {
                return false;
            };
            let ended = v["state"] == "done" || v["state"] == "error";
            if ended && v["state"] != "done" {
                ab.fail(format!("{what}: {v}"));
            }
            !ended
        });
        if started.elapsed() > Duration::from_secs(300) {
            ab.fail(format!(
                "{} poggle solves still running after 5 minutes",
                ids.len()
            ));
            break;
        }
        std::thread::sleep(Duration::from_millis(200));
    }
    let db = std::fs::metadata(&ab.db).map(|m| m.len()).unwrap_or(0);
    let wal = std::fs::metadata(ab.db.with_extension("db-wal"))
        .map(|m| m.len())
        .unwrap_or(0);
    eprintln!(
        "  database after 20 poggle solves: {:.1} MiB (+ {:.1} MiB WAL)",
        db as f64 / 1048576.0,
        wal as f64 / 1048576.0
    );
    if db + wal > 256 << 20 {
        ab.fail(format!("the database grew to {} MiB", (db + wal) >> 20));
    }
}

/// Item 6: distinct variant texts of one Northcott (only `repetition` differs,
/// which does not change the exact solution), each asked for a hint.
fn northcott_variants(ab: &Abuse) {
    let next = AtomicU64::new(2);
    let deadline = Instant::now() + Duration::from_secs(45);
    let done = AtomicU64::new(0);
    std::thread::scope(|s| {
        for _ in 0..3 {
            s.spawn(|| loop {
                let r = next.fetch_add(1, Ordering::Relaxed);
                if r > 41 || Instant::now() > deadline {
                    return;
                }
                let Some(id) = ab.session(
                    "northcott 7x4 variant session",
                    json!({"game": "northcott", "variant": format!("size=7x4,repetition={r}")}),
                ) else {
                    return;
                };
                if ab
                    .expect_patient(
                        "hint of a northcott 7x4 variant",
                        "GET",
                        &format!("/api/sessions/{id}/hint"),
                        200..=200,
                    )
                    .is_some()
                {
                    done.fetch_add(1, Ordering::Relaxed);
                }
            });
        }
    });
    let done = done.load(Ordering::Relaxed);
    eprintln!("  northcott 7x4 variants hinted: {done} of 40");
    if done < 40 {
        ab.fail(format!(
            "only {done} of 40 northcott 7x4 variants hinted within 45 s (each solved again?)"
        ));
    }
}

/// Item 7: computer-against-computer play that could go on for ever is stepped
/// thousands of plies; steps stay fast and changing a player stays quick.
fn endless_games(ab: &Abuse) {
    let Some(id) = ab.session(
        "northcott random v random",
        json!({"game": "northcott", "players": ["random", "random"], "seed": 7}),
    ) else {
        return;
    };
    let deadline = Instant::now() + Duration::from_secs(20);
    let mut times = Vec::new();
    let mut over = false;
    let req = request_bytes(
        ab.addr,
        "POST",
        &format!("/api/sessions/{id}/step"),
        Some("{}"),
    );
    while Instant::now() < deadline && times.len() < 4000 {
        let Some(a) = ab.ask_raw("step a random v random northcott", &req) else {
            return;
        };
        match a.status {
            200 => times.push(a.elapsed.as_secs_f64() * 1000.0),
            409 => {
                over = true;
                break;
            }
            s => {
                ab.fail(format!("step: status {s}"));
                return;
            }
        }
    }
    let n = times.len();
    let mean = |t: &[f64]| t.iter().sum::<f64>() / t.len().max(1) as f64;
    let (first, last) = (
        mean(&times[..n.min(200)]),
        mean(&times[n.saturating_sub(200)..]),
    );
    eprintln!(
        "  northcott random v random: {n} steps{}, first 200 {first:.2} ms each, last 200 {last:.2} ms",
        if over { " (game over)" } else { "" }
    );
    // A step stays quick thousands of plies in (the PUT took 29.5 s after
    // 100,000 plies); steps still grow with the view, which carries the whole log
    // (bounded by the 20,000-ply cap of every game).
    if last > 50.0 {
        ab.fail(format!(
            "steps slow down as the game grows: {first:.2} ms then {last:.2} ms"
        ));
    }
    ab.expect(
        "PUT players on a long random game",
        "PUT",
        &format!("/api/sessions/{id}/players"),
        Some(&json!({"seat": 0, "player": "random"})),
        200..=200,
    );
    ab.expect(
        "GET a long random game",
        "GET",
        &format!("/api/sessions/{id}"),
        None,
        200..=200,
    );
}

/// Item 8: undoing a finished game takes it from the tally of those who played it.
fn undo_tallies(ab: &Abuse) {
    let Some(id) = ab.session(
        "tictactoe human v human",
        json!({"game": "tictactoe", "players": ["human", "human"]}),
    ) else {
        return;
    };
    for mv in ["5", "1", "3", "2", "7"] {
        ab.expect(
            "a tictactoe move",
            "POST",
            &format!("/api/sessions/{id}/moves"),
            Some(&json!({"move": mv})),
            200..=200,
        );
    }
    ab.expect(
        "seat O becomes random",
        "PUT",
        &format!("/api/sessions/{id}/players"),
        Some(&json!({"seat": 1, "player": "random"})),
        200..=200,
    );
    ab.expect(
        "undo the won game",
        "POST",
        &format!("/api/sessions/{id}/undo"),
        Some(&json!({})),
        200..=200,
    );
    let Some(tallies) = ab.expect(
        "tallies",
        "GET",
        "/api/tallies?game=tictactoe",
        None,
        200..=200,
    ) else {
        return;
    };
    let Some(rows) = tallies["tallies"].as_array() else {
        ab.fail(format!("the tallies are not listed: {tallies}"));
        return;
    };
    for row in rows {
        let wins = row["wins"]
            .as_array()
            .map(|w| w.iter().filter_map(Value::as_i64).collect::<Vec<_>>());
        let games = row["games"].as_i64().unwrap_or(0);
        if games != 0 || wins.is_some_and(|w| w.iter().any(|&x| x != 0)) {
            ab.fail(format!(
                "an undone game still counts (or counts negative): {row}"
            ));
        }
    }
}

/// Item 9: best results carry no session id, and a guessed id is no key.
fn best_ids(ab: &Abuse) {
    let Some(id) = ab.session(
        "poggle 1x1",
        json!({"game": "poggle", "variant": "size=1", "players": ["human"]}),
    ) else {
        return;
    };
    ab.expect(
        "solve the 1x1 poggle",
        "POST",
        &format!("/api/sessions/{id}/moves"),
        Some(&json!({"move": "1,1"})),
        200..=200,
    );
    if let Some(best) = ab.expect("best poggle", "GET", "/api/best/poggle", None, 200..=200) {
        if best.to_string().contains(&id) || best.as_array().map_or(true, Vec::is_empty) {
            ab.fail(format!("best results: {best}"));
        }
    }
}

/// Item 10: body rules on body-less routes, and the HTTP layer's own errors in JSON.
fn http_layer(ab: &Abuse) {
    let Some(id) = ab.session("tictactoe for body rules", json!({"game": "tictactoe"})) else {
        return;
    };
    let host = ab.addr;
    let json_error = |what: &str, req: &[u8], want: u16| {
        if let Some(a) = ab.ask_raw(what, req) {
            let v = a.json();
            if a.status != want || v["error"].as_str().map_or(true, str::is_empty) {
                ab.fail(format!(
                    "{what}: {} {:?} (wanted {want} with an error in JSON)",
                    a.status,
                    String::from_utf8_lossy(&a.body[..a.body.len().min(200)])
                ));
            }
        }
    };
    for path in ["undo", "new", "step", "redo", "resign"] {
        let big = "x".repeat(100 * 1024);
        let req = format!(
            "POST /api/sessions/{id}/{path} HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{big}",
            big.len()
        );
        json_error(&format!("100 KiB body to {path}"), req.as_bytes(), 413);
        let req = format!(
            "POST /api/sessions/{id}/{path} HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 3\r\nConnection: close\r\n\r\na=b"
        );
        json_error(&format!("form body to {path}"), req.as_bytes(), 415);
    }
    let long = format!(
        "GET /api/games?{} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n",
        "a".repeat(70_000)
    );
    json_error("a 70 KB address", long.as_bytes(), 414);
    let mut many = format!("GET /api/games HTTP/1.1\r\nHost: {host}\r\n");
    for i in 0..200 {
        many.push_str(&format!("X-Header-{i}: {i}\r\n"));
    }
    many.push_str("Connection: close\r\n\r\n");
    json_error("200 header lines", many.as_bytes(), 431);
    json_error("not HTTP", b"HELLO THERE\r\n\r\n", 400);
    json_error(
        "a header with a NUL",
        format!("GET /api/games HTTP/1.1\r\nHost: {host}\r\nX: a\0b\r\n\r\n").as_bytes(),
        400,
    );
}

/// Requests of every route with mangled methods, paths, queries and bodies (a
/// fixed xorshift sequence, so a failure replays): none may crash the server or
/// get a 5xx.
fn fuzzed_requests(ab: &Abuse) {
    let Some(id) = ab.session(
        "tictactoe for fuzzed requests",
        json!({"game": "tictactoe", "players": ["human", "random"]}),
    ) else {
        return;
    };
    let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut next = move |n: usize| {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        (x % n as u64) as usize
    };
    let paths = [
        "/api/games".to_string(),
        "/api/games/nim?variant=heaps%3D3-4-5".into(),
        "/api/games/poggle/view?variant=size%3D3&position=010%2F000%2F111".into(),
        "/api/games/samegame/rules".into(),
        "/api/sessions".into(),
        format!("/api/sessions/{id}"),
        format!("/api/sessions/{id}/moves"),
        format!("/api/sessions/{id}/undo"),
        format!("/api/sessions/{id}/hint"),
        format!("/api/sessions/{id}/line?move=5"),
        format!("/api/sessions/{id}/review?ply=1"),
        format!("/api/sessions/{id}/from?ply=0"),
        format!("/api/sessions/{id}/players"),
        format!("/api/sessions/{id}/save"),
        "/api/settings/nim".into(),
        "/api/tallies?game=tictactoe".into(),
        "/api/best/samegame".into(),
        "/api/jobs".into(),
        "/api/saved".into(),
        "/static/app.js".into(),
    ];
    let bodies = [
        json!({"game": "nim", "variant": "heaps=3-4-5", "players": ["human", "alphabeta:depth=3"]}),
        json!({"game": "samegame", "variant": "size=6x6,colours=3"}),
        json!({"move": "5"}),
        json!({"seat": 1, "player": "level:66"}),
        json!({"ai_level": 30, "variant": "heaps=1-2", "players": ["human"]}),
        json!({"kind": "solve", "game": "tictactoe"}),
        json!({"kind": "simulate", "game": "nim", "players": "random,random", "games": 10}),
        json!({"name": "a save"}),
    ];
    let junk = [
        "",
        "%",
        "%00",
        "..",
        "/",
        "?",
        "&",
        "=",
        "{",
        "\\u0000",
        "99999999999999999999",
        "-1",
        "null",
        "é",
        "%ZZ",
        "//",
        "*",
        "size=0",
        "heaps=65535-65535",
    ];
    let methods = ["GET", "POST", "PUT", "DELETE", "PATCH", "HEAD"];
    for _ in 0..3000 {
        let method = methods[next(methods.len())];
        let mut path = paths[next(paths.len())].clone();
        if next(3) == 0 {
            let at = next(path.len() + 1);
            if path.is_char_boundary(at) {
                path.insert_str(at, junk[next(junk.len())]);
            }
        }
        let mut body = bodies[next(bodies.len())].to_string();
        match next(5) {
            0 => body.truncate(next(body.len() + 1)),
            1 => {
                let at = next(body.len() + 1);
                body.insert_str(at, junk[next(junk.len())]);
            }
            2 => body = body.replace(':', &format!(":{}", junk[next(junk.len())])),
            _ => {}
        }
        let path = path.replace(' ', "%20");
        let req = if method == "GET" || method == "HEAD" {
            request_bytes(ab.addr, method, &path, None)
        } else {
            request_bytes(ab.addr, method, &path, Some(&body))
        };
        ab.ask_raw(&format!("fuzzed {method} {path} {body}"), &req);
    }
}

/// Item 11 and the CLI halves of items 1, 4 and 7.
fn cli_abuses(ab: &Abuse, dir: &Path) {
    let tabula = env!("CARGO_BIN_EXE_tabula");
    // Output into `head -1`, thirty times each.
    for cmd in [
        "games",
        "solve tictactoe",
        "count mu-torere",
        "analyze nim --position '3 4 5'",
        "train hexapawn --games 200 --opponent random",
    ] {
        let mut broken = 0;
        for _ in 0..30 {
            let out = Command::new("bash")
                .args([
                    "-o",
                    "pipefail",
                    "-c",
                    &format!("'{tabula}' {cmd} | head -1 >/dev/null"),
                ])
                .env("TABULA_DATA_DIR", dir)
                .env("XDG_DATA_HOME", dir)
                .stderr(Stdio::piped())
                .output()
                .expect("bash runs");
            let err = String::from_utf8_lossy(&out.stderr);
            if !out.status.success() || err.contains("panicked") {
                broken += 1;
            }
        }
        ab.requests.fetch_add(30, Ordering::Relaxed);
        if broken > 0 {
            ab.fail(format!(
                "tabula {cmd} | head -1: failed {broken} of 30 runs"
            ));
        }
    }
    // Commands that must end, quickly and within the memory limit.
    for (args, want_exit) in [
        (&["solve", "northcott"][..], Some(2)),
        (&["solve", "nim", "--variant", "heaps=300-300-300"], Some(2)),
        (&["analyze", "poggle", "--variant", "colours=256"], Some(0)),
        (&["play", "poggle", "--human", "none"], Some(0)),
        (
            &[
                "play",
                "northcott",
                "--human",
                "none",
                "--players",
                "random,random",
            ],
            Some(0),
        ),
    ] {
        ab.requests.fetch_add(1, Ordering::Relaxed);
        let what = format!("tabula {}", args.join(" "));
        let t = Instant::now();
        let mut child = Command::new(tabula)
            .args(args)
            .env("XDG_DATA_HOME", dir)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("tabula runs");
        let pid = child.id();
        let mut peak = 0;
        let status = loop {
            if let Some(st) = child.try_wait().unwrap() {
                break Some(st);
            }
            if let Some((h, _)) = memory_kb(pid) {
                peak = peak.max(h);
            }
            if t.elapsed() > ANSWER_WITHIN {
                let _ = child.kill();
                let _ = child.wait();
                break None;
            }
            std::thread::sleep(Duration::from_millis(10));
        };
        let mut err = String::new();
        if let Some(mut e) = child.stderr.take() {
            let _ = e.read_to_string(&mut err);
        }
        eprintln!(
            "  {what}: exit {:?} in {:.2} s, peak {}",
            status.and_then(|s| s.code()),
            t.elapsed().as_secs_f64(),
            if peak == 0 {
                "not sampled (ended within 10 ms)".to_string()
            } else {
                format!("{:.1} MiB", peak as f64 / 1024.0)
            }
        );
        match status {
            None => ab.fail(format!("{what}: still running after {ANSWER_WITHIN:?}")),
            Some(st) if st.code() != want_exit => ab.fail(format!(
                "{what}: exit {:?} (wanted {want_exit:?}): {}",
                st.code(),
                err.lines().last().unwrap_or("")
            )),
            Some(_) if err.contains("panicked") => ab.fail(format!("{what}: {err}")),
            Some(_) => {}
        }
        if peak > MAX_RSS_KB {
            ab.fail(format!("{what}: peak memory {} MiB", peak / 1024));
        }
    }
}
