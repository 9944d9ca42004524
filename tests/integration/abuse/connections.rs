//! Two phases of the abuse replay (tests/integration/abuse.rs): connections that
//! stay idle or send their request head a byte at a time, beyond the server's
//! cap of connections; and many sessions whose computer player needs a solution
//! table (every Hexapawn board size, play and capture rule, both Kono rule sets).
//! Both are bounded loops on loopback that stop by themselves.

use super::Abuse;
use serde_json::{json, Value};
use std::io::{ErrorKind, Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

/// Idle connections opened: beyond the server's default cap (1,024).
const IDLE: usize = 1_200;
/// Connections that send their head a byte at a time.
const SLOW: usize = 40;
/// The server's default time for a whole request head, and the margin allowed.
const HEAD_TIME: Duration = Duration::from_secs(10);
const MARGIN: Duration = Duration::from_secs(4);

/// The soft limit of open files of this process (from /proc), if known.
fn open_files_limit() -> Option<usize> {
    let limits = std::fs::read_to_string("/proc/self/limits").ok()?;
    let line = limits.lines().find(|l| l.starts_with("Max open files"))?;
    line.split_whitespace().nth(3)?.parse().ok()
}

/// True once the server has closed the connection (what it sent before is read
/// and dropped: a 503 for the cap, a 408 for a head cut off).
fn closed(s: &mut TcpStream) -> bool {
    let mut buf = [0u8; 1024];
    loop {
        match s.read(&mut buf) {
            Ok(0) => return true,
            Ok(_) => continue,
            Err(e) if e.kind() == ErrorKind::WouldBlock => return false,
            Err(e) if e.kind() == ErrorKind::Interrupted => continue,
            Err(_) => return true,
        }
    }
}

/// Idle and slow connections beyond the cap: all are closed by the server within
/// the head time (plus a margin), while ordinary requests keep being answered
/// (the replay's prober times `GET /api/games` all along).
pub(crate) fn idle_and_slow_connections(ab: &Abuse) {
    // Keep clear of this process's own limit of open files.
    let room = open_files_limit().map_or(IDLE + SLOW, |n| n.saturating_sub(200));
    let (idle_wanted, slow_wanted) = (IDLE.min(room * 9 / 10), SLOW.min(room / 10));
    let started = Instant::now();
    let mut idle = Vec::new();
    for _ in 0..idle_wanted {
        match TcpStream::connect_timeout(&ab.addr, Duration::from_secs(2)) {
            Ok(s) => {
                s.set_nonblocking(true).unwrap();
                idle.push(s);
            }
            Err(e) => {
                ab.fail(format!("idle connection {}: {e}", idle.len() + 1));
                break;
            }
        }
    }
    let mut slow = Vec::new();
    for _ in 0..slow_wanted {
        let Ok(mut s) = TcpStream::connect_timeout(&ab.addr, Duration::from_secs(2)) else {
            break;
        };
        let _ = s.write_all(format!("GET /api/games HTTP/1.1\r\nHost: {}\r\n", ab.addr).as_bytes());
        s.set_nonblocking(true).unwrap();
        slow.push(s);
    }
    eprintln!(
        "  opened {} idle and {} slow connections in {:.1} s",
        idle.len(),
        slow.len(),
        started.elapsed().as_secs_f64()
    );
    // A byte of header every 250 ms on each slow connection, and an ordinary
    // request every 250 ms, until every connection is closed or time is up.
    // Each connection has the head time from when it was opened: on a loaded
    // machine opening them all takes seconds, so the time counts from the last.
    let opened = Instant::now();
    let deadline = opened + HEAD_TIME + MARGIN;
    let mut idle_open: Vec<bool> = vec![true; idle.len()];
    let mut slow_open: Vec<bool> = vec![true; slow.len()];
    let mut ordinary = 0;
    while Instant::now() < deadline
        && (idle_open.iter().any(|o| *o) || slow_open.iter().any(|o| *o))
    {
        for (s, open) in slow
            .iter_mut()
            .zip(slow_open.iter_mut())
            .filter(|(_, o)| **o)
        {
            if s.write(b"X").is_err() || closed(s) {
                *open = false;
            }
        }
        for (s, open) in idle
            .iter_mut()
            .zip(idle_open.iter_mut())
            .filter(|(_, o)| **o)
        {
            if closed(s) {
                *open = false;
            }
        }
        ab.expect(
            "GET /api/games among idle connections",
            "GET",
            "/api/games",
            None,
            200..=200,
        );
        ordinary += 1;
        std::thread::sleep(Duration::from_millis(250));
    }
    let still_idle = idle_open.iter().filter(|o| **o).count();
    let still_slow = slow_open.iter().filter(|o| **o).count();
    eprintln!(
        "  {:.1} s after the last was opened: {still_idle} idle and {still_slow} slow connections still open; {ordinary} ordinary requests answered meanwhile",
        opened.elapsed().as_secs_f64()
    );
    if still_idle > 0 || still_slow > 0 {
        ab.fail(format!(
            "{still_idle} idle and {still_slow} slow connections still open {:?} after the last was opened",
            HEAD_TIME + MARGIN
        ));
    }
}

/// Connections that keep a head half-sent and reconnect as soon as they are closed.
const RECONNECTING: usize = 1_100;
/// How long they keep it up.
const RECONNECTING_FOR: Duration = Duration::from_secs(10);

/// 1,100 connections beyond the cap each keep a request head half-sent, add a
/// byte a second, and reconnect as soon as the server closes them, for 10 s;
/// meanwhile an ordinary client opens a fresh connection for each request.
/// The replay's prober checks that an ordinary client is never turned away for
/// more than a second in a row; this phase checks its own client too.
pub(crate) fn reconnecting_slow_heads(ab: &Abuse) {
    let wanted =
        RECONNECTING.min(open_files_limit().map_or(RECONNECTING, |n| n.saturating_sub(200)));
    let head = format!("GET /api/games HTTP/1.1\r\nHost: {}\r\n", ab.addr);
    let open = || -> Option<(TcpStream, Instant)> {
        let mut s = TcpStream::connect_timeout(&ab.addr, Duration::from_secs(2)).ok()?;
        s.write_all(head.as_bytes()).ok()?;
        s.set_nonblocking(true).ok()?;
        Some((s, Instant::now()))
    };
    let started = Instant::now();
    let mut conns: Vec<Option<(TcpStream, Instant)>> = (0..wanted).map(|_| open()).collect();
    let stop = std::sync::atomic::AtomicBool::new(false);
    let (mut reopened, mut served, mut turned_away) = (0usize, 0usize, 0usize);
    let mut longest = Duration::ZERO;
    std::thread::scope(|scope| {
        let client = scope.spawn(|| {
            let request = super::request_bytes(ab.addr, "GET", "/api/games", None);
            let (mut served, mut turned_away, mut since, mut longest) =
                (0usize, 0usize, None::<Instant>, Duration::ZERO);
            while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                let asked = Instant::now();
                match super::send_raw(ab.addr, &request, Duration::from_secs(5)) {
                    Ok(a) if a.status == 200 => {
                        served += 1;
                        if let Some(s) = since.take() {
                            longest = longest.max(s.elapsed());
                        }
                    }
                    _ => {
                        turned_away += 1;
                        since.get_or_insert(asked);
                    }
                }
                std::thread::sleep(Duration::from_millis(50));
            }
            if let Some(s) = since {
                longest = longest.max(s.elapsed());
            }
            (served, turned_away, longest)
        });
        while started.elapsed() < RECONNECTING_FOR {
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
            std::thread::sleep(Duration::from_millis(10));
        }
        stop.store(true, std::sync::atomic::Ordering::Relaxed);
        (served, turned_away, longest) = client.join().unwrap();
    });
    drop(conns);
    eprintln!(
        "  {wanted} reconnecting slow heads for {:.1} s: reopened {reopened} times; an ordinary client \
         served {served} times, turned away {turned_away} times, for at most {:.2} s in a row",
        started.elapsed().as_secs_f64(),
        longest.as_secs_f64()
    );
    if longest > super::MAX_TURNED_AWAY || served == 0 {
        ab.fail(format!(
            "among reconnecting slow heads an ordinary client was turned away for {:.1} s in a row \
             ({served} served, {turned_away} turned away)",
            longest.as_secs_f64()
        ));
    }
}

/// The variants whose `[human, perfect]` sessions need a solution table: every
/// Hexapawn board within the solver's budget in each play and capture rule (52),
/// and both Kono rule sets.
fn table_variants() -> Vec<(&'static str, String)> {
    let mut out = Vec::new();
    for columns in 3..=6 {
        for rows in 3..=6 {
            // Beyond the solver's budget (refused at once, not a table).
            if columns * rows > 25 {
                continue;
            }
            for play in ["normal", "misere"] {
                for capture in ["optional", "compulsory"] {
                    out.push((
                        "hexapawn",
                        format!("columns={columns},rows={rows},play={play},capture={capture}"),
                    ));
                }
            }
        }
    }
    out.push(("kono", "rules=standard".to_string()));
    out.push(("kono", "rules=gamesman".to_string()));
    out
}

/// 54 sessions against the perfect player, three clients at a time, each with a
/// move and its reply; then every one is read back (from memory or the store).
pub(crate) fn many_sessions_with_tables(ab: &Abuse) {
    let variants = table_variants();
    let next = std::sync::atomic::AtomicUsize::new(0);
    let ids = std::sync::Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..3 {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let Some((game, variant)) = variants.get(i) else {
                    return;
                };
                let what = format!("{game} {variant} human v perfect");
                let Some(id) = ab.session(
                    &what,
                    json!({"game": game, "variant": variant, "players": ["human", "perfect"]}),
                ) else {
                    continue;
                };
                let Some(view) = ab.expect(
                    &what,
                    "GET",
                    &format!("/api/sessions/{id}"),
                    None,
                    200..=200,
                ) else {
                    continue;
                };
                let Some(mv) = view["view"]["legal_moves"][0]["move"].as_str() else {
                    ab.fail(format!("{what}: no legal move to play: {view}"));
                    continue;
                };
                // "Busy" (every thinking slot taken by other sessions' table
                // builds) is an answer a client is told to retry, as it creates.
                let started = std::time::Instant::now();
                let moved = loop {
                    let a = ab.ask(
                        &format!("{what}: a move"),
                        "POST",
                        &format!("/api/sessions/{id}/moves"),
                        Some(&json!({ "move": mv }).to_string()),
                    );
                    match a {
                        Some(a) if a.status == 503 && started.elapsed() < super::ANSWER_WITHIN => {
                            std::thread::sleep(Duration::from_millis(250))
                        }
                        other => break other,
                    }
                };
                match moved {
                    Some(a) if a.status == 200 => ids.lock().unwrap().push((what, id)),
                    // A failed ask is already recorded; a refusal is named here.
                    Some(a) => ab.fail(format!(
                        "{what}: a move got {}: {}",
                        a.status,
                        String::from_utf8_lossy(&a.body[..a.body.len().min(300)])
                    )),
                    None => {}
                }
            });
        }
    });
    let ids = ids.into_inner().unwrap();
    eprintln!(
        "  {} of {} sessions against the perfect player made and played",
        ids.len(),
        variants.len()
    );
    if ids.len() < variants.len() {
        ab.fail(format!(
            "only {} of {} sessions against the perfect player were made and played",
            ids.len(),
            variants.len()
        ));
    }
    // Nothing acknowledged is lost, whether the session stayed in memory or not.
    for (what, id) in &ids {
        if let Some(v) = ab.expect(what, "GET", &format!("/api/sessions/{id}"), None, 200..=200) {
            let plies = v["view"]["log"].as_array().map_or(0, Vec::len);
            if plies < 1 {
                ab.fail(format!("{what}: the move played is gone: {}", short(&v)));
            }
        }
    }
}

fn short(v: &Value) -> String {
    let text = v.to_string();
    text.chars().take(300).collect()
}
