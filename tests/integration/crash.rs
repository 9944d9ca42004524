//! Kill -9 the real `tabula serve` in the middle of a stream of moves, restart it
//! on the same database: every acknowledged move is there, the database passes
//! `PRAGMA integrity_check`, and learned matchboxes are intact.

use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tabula_store::{LearnedKey, Store};

/// Starts the release or debug `tabula serve` on a free loopback port and reads
/// the address it prints (the crash and abuse tests).
pub(crate) fn start(db: &std::path::Path) -> (Child, SocketAddr) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tabula"))
        .args(["serve", "--addr", "127.0.0.1:0", "--db"])
        .arg(db)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start tabula serve");
    let mut lines = BufReader::new(child.stderr.take().unwrap()).lines();
    let addr = loop {
        let line = lines.next().expect("server output").expect("line");
        if let Some(rest) = line.split("serving http://").nth(1) {
            break rest.trim_end_matches('/').parse().expect("address");
        }
    };
    // Keep draining stderr so the server never blocks on a full pipe; a panic is
    // passed on to the test's output.
    std::thread::spawn(move || {
        for line in lines.map_while(Result::ok) {
            if line.contains("panicked") {
                eprintln!("server: {line}");
            }
        }
    });
    (child, addr)
}

/// One request on its own connection; None when the server is gone.
fn call(addr: SocketAddr, method: &str, path: &str, body: Option<&Value>) -> Option<(u16, Value)> {
    let mut s = TcpStream::connect_timeout(&addr, Duration::from_secs(5)).ok()?;
    s.set_read_timeout(Some(Duration::from_secs(30))).ok()?;
    let body = body.map(|b| b.to_string()).unwrap_or_default();
    let req = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    s.write_all(req.as_bytes()).ok()?;
    let mut buf = Vec::new();
    s.read_to_end(&mut buf).ok()?;
    let text = String::from_utf8_lossy(&buf);
    let (head, body) = text.split_once("\r\n\r\n")?;
    let status: u16 = head.split(' ').nth(1)?.parse().ok()?;
    Some((status, serde_json::from_str(body).unwrap_or(Value::Null)))
}

fn moves(view: &Value) -> Vec<String> {
    view["log"].as_array().map_or(Vec::new(), |l| {
        l.iter()
            .map(|e| e["move"].as_str().unwrap().to_string())
            .collect()
    })
}

#[derive(Default)]
struct Acked {
    /// Session id -> moves acknowledged (the server answered 200/201).
    sessions: Vec<(String, Vec<String>)>,
    /// The learner's boxes as of the last acknowledged finished game.
    learned: Option<Value>,
    /// A move of the learner's session was sent and not yet answered.
    learner_busy: bool,
}

#[test]
fn kill_9_mid_stream_loses_no_acknowledged_move() {
    let dir = tempfile_dir();
    let db = dir.join("tabula.db");
    let (mut child, addr) = start(&db);
    let acked = Arc::new(Mutex::new(Acked::default()));
    let stop = Arc::new(AtomicBool::new(false));
    let learner = call(
        addr,
        "POST",
        "/api/sessions",
        Some(&json!({"game": "tictactoe", "players": ["human", "matchbox"]})),
    )
    .is_some_and(|(st, _)| st == 201);
    if !learner {
        eprintln!("NOTE: no matchbox player in this engine yet: the learned-boxes part is skipped");
    }

    let workers: Vec<_> = (0..4)
        .map(|w| {
            let (acked, stop) = (acked.clone(), stop.clone());
            std::thread::spawn(move || {
                let players = if w == 0 && learner {
                    json!(["human", "matchbox"])
                } else {
                    json!(["human", "human"])
                };
                let mut n = 0usize;
                'sessions: while !stop.load(Ordering::Relaxed) {
                    let Some((201, v)) = call(
                        addr,
                        "POST",
                        "/api/sessions",
                        Some(
                            &json!({"game": "tictactoe", "players": players, "seed": w * 1000 + n}),
                        ),
                    ) else {
                        break;
                    };
                    n += 1;
                    let id = v["id"].as_str().unwrap().to_string();
                    let index = {
                        let mut a = acked.lock().unwrap();
                        a.sessions.push((id.clone(), moves(&v["view"])));
                        a.sessions.len() - 1
                    };
                    let mut view = v["view"].clone();
                    while view["outcome"].is_null() {
                        let legal = view["legal_moves"].as_array().unwrap();
                        let mv = legal[(w + n) % legal.len()]["move"].clone();
                        if w == 0 {
                            acked.lock().unwrap().learner_busy = true;
                        }
                        match call(
                            addr,
                            "POST",
                            &format!("/api/sessions/{id}/moves"),
                            Some(&json!({ "move": mv })),
                        ) {
                            Some((200, out)) => {
                                view = out["view"].clone();
                                let mut a = acked.lock().unwrap();
                                a.sessions[index].1 = moves(&view);
                                if w == 0 {
                                    // Busy until the boxes of a finished game have been read back.
                                    a.learner_busy = !view["outcome"].is_null() && learner;
                                }
                            }
                            _ => break 'sessions,
                        }
                    }
                    if w == 0 && learner {
                        match call(
                            addr,
                            "GET",
                            &format!("/api/sessions/{id}/learned?seat=1"),
                            None,
                        ) {
                            Some((200, l)) => {
                                let mut a = acked.lock().unwrap();
                                a.learned = Some(l["learned"].clone());
                                a.learner_busy = false;
                            }
                            _ => break,
                        }
                    }
                }
            })
        })
        .collect();

    // Let moves stream, then kill the server without warning.
    let start_time = Instant::now();
    while start_time.elapsed() < Duration::from_millis(1500) {
        std::thread::sleep(Duration::from_millis(50));
    }
    child.kill().expect("kill -9");
    child.wait().unwrap();
    stop.store(true, Ordering::Relaxed);
    for w in workers {
        w.join().unwrap();
    }
    let acked = Arc::try_unwrap(acked).ok().unwrap().into_inner().unwrap();
    let total: usize = acked.sessions.iter().map(|(_, m)| m.len()).sum();
    assert!(
        total > 20,
        "the stream was running when the server died ({total} moves)"
    );
    eprintln!(
        "killed after {} sessions and {total} acknowledged moves",
        acked.sessions.len()
    );
    if learner {
        assert!(
            acked.learned.is_some(),
            "the learner finished at least one game before the kill"
        );
    }

    {
        let store = Store::open(&db).expect("the database opens after the crash");
        assert_eq!(store.integrity_check().unwrap(), "ok");
        for (id, mine) in &acked.sessions {
            let stored: Vec<String> = store
                .session(id)
                .unwrap()
                .expect("session stored")
                .moves
                .into_iter()
                .map(|m| m.mv)
                .collect();
            assert!(
                stored.starts_with(mine),
                "session {id}: acknowledged {mine:?}, stored {stored:?}"
            );
            // At most the one request in flight at the kill (a move and the
            // computer's reply) was stored unacknowledged.
            assert!(
                stored.len() <= mine.len() + 2,
                "session {id}: acknowledged {mine:?}, stored {stored:?}"
            );
        }
        if learner {
            let key = LearnedKey {
                game: "tictactoe".into(),
                variant: "".into(),
                seat: 1,
                player: "matchbox".into(),
            };
            let boxes = store.learned(&key).unwrap();
            if let Some(last) = &acked.learned {
                assert!(boxes.is_some(), "learned boxes lost");
                let boxes = boxes.as_ref().unwrap();
                assert!(
                    boxes == last || acked.learner_busy,
                    "the stored boxes are not those of the last finished game"
                );
            }
        }
    }

    // Restarted, the server serves every session as it was.
    let (mut child, addr) = start(&db);
    for (id, mine) in &acked.sessions {
        let (st, v) = call(addr, "GET", &format!("/api/sessions/{id}"), None).expect("answer");
        assert_eq!(st, 200);
        assert!(moves(&v["view"]).starts_with(mine));
    }
    if learner && acked.learned.is_some() {
        // A new learner starts from the stored boxes, so they load.
        let store = Store::open(&db).unwrap();
        let key = LearnedKey {
            game: "tictactoe".into(),
            variant: "".into(),
            seat: 1,
            player: "matchbox".into(),
        };
        let boxes = store.learned(&key).unwrap().unwrap();
        let (st, v) = call(
            addr,
            "POST",
            "/api/sessions",
            Some(&json!({"game": "tictactoe", "players": ["human", "matchbox"]})),
        )
        .unwrap();
        assert_eq!(st, 201);
        let id = v["id"].as_str().unwrap();
        let (_, l) = call(
            addr,
            "GET",
            &format!("/api/sessions/{id}/learned?seat=1"),
            None,
        )
        .unwrap();
        assert_eq!(l["learned"], boxes);
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let _ = std::fs::remove_dir_all(&dir);
}

fn tempfile_dir() -> std::path::PathBuf {
    let base = std::env::temp_dir().join(format!(
        "tabula-crash-{}-{}",
        std::process::id(),
        Instant::now().elapsed().as_nanos()
    ));
    std::fs::create_dir_all(&base).unwrap();
    base
}
