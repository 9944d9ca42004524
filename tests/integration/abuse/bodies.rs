//! A phase of the abuse replay (tests/integration/abuse.rs): 1,100 requests at
//! once whose bodies never arrive whole, beyond the server's cap of connections:
//! a third stall after 5 of 100 declared bytes, a third trickle a byte every 5 s,
//! a third a byte every 250 ms (never quiet for long, far too slow). The server
//! must close every one of them within a body's deadline (plus a margin) while
//! ordinary requests keep being answered; the replay's prober checks that an
//! ordinary client is never turned away for more than a second in a row.

use super::Abuse;
use std::io::{ErrorKind, Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

/// Requests with bodies that never arrive whole: beyond the default cap (1,024).
const FLOOD: usize = 1_100;
/// The server's default time for a whole body, and the margin allowed.
const BODY_TIME: Duration = Duration::from_secs(10);
const MARGIN: Duration = Duration::from_secs(4);

/// How a body of the flood arrives.
#[derive(Clone, Copy, PartialEq)]
enum Pace {
    /// 5 of 100 bytes, then nothing.
    Stalled,
    /// A byte every 5 s.
    Slow,
    /// A byte every 250 ms.
    Trickle,
}

struct Flooder {
    s: TcpStream,
    pace: Pace,
    next_byte: Instant,
    open: bool,
    /// The answer read before the close (a 408, or a 503 for the cap).
    answer: Vec<u8>,
}

impl Flooder {
    /// Reads what the server sent; true once it has closed the connection.
    fn closed(&mut self) -> bool {
        let mut buf = [0u8; 1024];
        loop {
            match self.s.read(&mut buf) {
                Ok(0) => return true,
                Ok(n) => {
                    if self.answer.len() < 1024 {
                        self.answer.extend_from_slice(&buf[..n]);
                    }
                }
                Err(e) if e.kind() == ErrorKind::WouldBlock => return false,
                Err(e) if e.kind() == ErrorKind::Interrupted => continue,
                Err(_) => return true,
            }
        }
    }
}

/// The soft limit of open files of this process (from /proc), if known.
fn open_files_limit() -> Option<usize> {
    let limits = std::fs::read_to_string("/proc/self/limits").ok()?;
    let line = limits.lines().find(|l| l.starts_with("Max open files"))?;
    line.split_whitespace().nth(3)?.parse().ok()
}

pub(crate) fn stalled_and_trickled_bodies(ab: &Abuse) {
    let wanted = FLOOD.min(open_files_limit().map_or(FLOOD, |n| n.saturating_sub(200)));
    let head = format!(
        "POST /api/sessions HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n",
        ab.addr
    );
    let started = Instant::now();
    let mut flood = Vec::new();
    for i in 0..wanted {
        let pace = match i % 3 {
            0 => Pace::Stalled,
            1 => Pace::Slow,
            _ => Pace::Trickle,
        };
        let mut s = match TcpStream::connect_timeout(&ab.addr, Duration::from_secs(2)) {
            Ok(s) => s,
            Err(e) => {
                ab.fail(format!("body flood connection {}: {e}", flood.len() + 1));
                break;
            }
        };
        let first: &[u8] = if pace == Pace::Stalled {
            br#"{"gam"#
        } else {
            b"{"
        };
        // A connection refused for the cap may be closed already.
        let _ = s.write_all(head.as_bytes());
        let _ = s.write_all(first);
        s.set_nonblocking(true).unwrap();
        flood.push(Flooder {
            s,
            pace,
            next_byte: Instant::now(),
            open: true,
            answer: Vec::new(),
        });
    }
    eprintln!(
        "  opened {} requests with bodies that never arrive whole in {:.1} s",
        flood.len(),
        started.elapsed().as_secs_f64()
    );
    let opened = Instant::now();
    let deadline = opened + BODY_TIME + MARGIN;
    let mut ordinary = 0;
    while Instant::now() < deadline && flood.iter().any(|f| f.open) {
        let now = Instant::now();
        for f in flood.iter_mut().filter(|f| f.open) {
            let every = match f.pace {
                Pace::Stalled => None,
                Pace::Slow => Some(Duration::from_secs(5)),
                Pace::Trickle => Some(Duration::from_millis(250)),
            };
            if let Some(every) = every {
                if now >= f.next_byte {
                    f.next_byte = now + every;
                    if f.s.write(b" ").is_err() {
                        f.open = false;
                        continue;
                    }
                }
            }
            if f.closed() {
                f.open = false;
            }
        }
        ab.expect(
            "GET /api/games among stalled bodies",
            "GET",
            "/api/games",
            None,
            200..=200,
        );
        ordinary += 1;
        std::thread::sleep(Duration::from_millis(100));
    }
    let still = flood.iter().filter(|f| f.open).count();
    let answered = |status: &[u8]| {
        flood
            .iter()
            .filter(|f| f.answer.starts_with(status))
            .count()
    };
    let (late, busy) = (answered(b"HTTP/1.1 408"), answered(b"HTTP/1.1 503"));
    eprintln!(
        "  {:.1} s after the last was opened: {still} still open; {late} answered 408 (too slow), \
         {busy} 503 (too many connections), {} closed without an answer; {ordinary} ordinary requests meanwhile",
        opened.elapsed().as_secs_f64(),
        flood.len() - still - late - busy
    );
    if still > 0 {
        ab.fail(format!(
            "{still} requests with stalled or trickled bodies still open {:?} after the last was opened",
            BODY_TIME + MARGIN
        ));
    }
    // Anything answered is one of the two refusals.
    for f in &flood {
        if !f.answer.is_empty()
            && !f.answer.starts_with(b"HTTP/1.1 408")
            && !f.answer.starts_with(b"HTTP/1.1 503")
        {
            ab.fail(format!(
                "a stalled body was answered {:?}",
                String::from_utf8_lossy(&f.answer[..f.answer.len().min(80)])
            ));
            break;
        }
    }
}
