//! Solution tables as a server's players see them: a table being built is said to
//! be, with its progress, never "no exact solution"; whether a game has an exact
//! solution is known before anyone asks for it and does not change when someone
//! does; a build that failed for a passing reason is tried again and reads the
//! disk cache again, where another program may have saved the table meanwhile.

use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A `tabula serve` child on a free loopback port, killed when dropped.
struct Server {
    child: Child,
    addr: SocketAddr,
    dir: PathBuf,
}

impl Server {
    /// A server on a fresh database, its tables cached in `cache`, with `args`.
    fn start(cache: &Path, args: &[&str]) -> Server {
        let dir = fresh_dir("server");
        let mut child = Command::new(env!("CARGO_BIN_EXE_tabula"))
            .args(["serve", "--addr", "127.0.0.1:0", "--db"])
            .arg(dir.join("tabula.db"))
            .args(args)
            .env("TABULA_CACHE_DIR", cache)
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
        std::thread::spawn(move || {
            for line in lines.map_while(Result::ok) {
                if line.contains("panicked") {
                    eprintln!("server: {line}");
                }
            }
        });
        Server { child, addr, dir }
    }

    /// One request on its own connection: status and JSON body.
    fn call(&self, method: &str, path: &str, body: Option<&Value>) -> (u16, Value) {
        let mut s = TcpStream::connect_timeout(&self.addr, Duration::from_secs(5)).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
        let body = body.map(|b| b.to_string()).unwrap_or_default();
        let req = format!(
            "{method} {path} HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
            self.addr,
            body.len()
        );
        s.write_all(req.as_bytes()).unwrap();
        let mut buf = Vec::new();
        s.read_to_end(&mut buf).unwrap();
        let text = String::from_utf8_lossy(&buf);
        let (head, body) = text.split_once("\r\n\r\n").expect("an HTTP answer");
        let status = head.split(' ').nth(1).unwrap().parse().unwrap();
        (status, serde_json::from_str(body).unwrap_or(Value::Null))
    }

    /// Kono's entry in the game list.
    fn kono_info(&self) -> Value {
        let (status, games) = self.call("GET", "/api/games", None);
        assert_eq!(status, 200, "{games}");
        games
            .as_array()
            .and_then(|g| g.iter().find(|g| g["name"] == "kono"))
            .cloned()
            .expect("kono is listed")
    }

    /// A new Kono session between two people: its id.
    fn kono_session(&self) -> String {
        let body = json!({"game": "kono", "players": ["human", "human"], "seed": 1});
        let (status, s) = self.call("POST", "/api/sessions", Some(&body));
        assert_eq!(status, 201, "{s}");
        s["id"].as_str().unwrap().to_string()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

fn fresh_dir(what: &str) -> PathBuf {
    static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let dir = std::env::temp_dir().join(format!(
        "tabula-tables-{what}-{}-{}",
        std::process::id(),
        NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn offers_perfect(info: &Value) -> bool {
    info["players"]
        .as_array()
        .unwrap()
        .iter()
        .any(|p| p["name"] == "perfect")
}

/// Issue: the first hint on a fresh server waited ten seconds and then said
/// "There is no exact solution for this game here" while Kono's table was being
/// built. Now it answers at once that the solution is being prepared, with the
/// build's progress, and the game list says "exact" all along.
#[test]
fn the_first_kono_hint_on_a_fresh_server_says_the_solution_is_being_prepared() {
    let cache = fresh_dir("cache");
    let server = Server::start(&cache, &[]);
    let before = server.kono_info();
    assert_eq!(before["exact"], true, "{before}");
    assert!(offers_perfect(&before));
    let id = server.kono_session();
    let asked = Instant::now();
    let (status, hint) = server.call("GET", &format!("/api/sessions/{id}/hint"), None);
    let took = asked.elapsed();
    assert_eq!(status, 200, "{hint}");
    assert!(took < Duration::from_secs(6), "the hint took {took:?}");
    let analysis = &hint["analysis"];
    let note = analysis["note"].as_str().unwrap_or_default();
    assert!(!note.contains("no exact solution"), "{note}");
    let preparing = &analysis["preparing"];
    let progress = preparing["progress"]
        .as_f64()
        .expect("the build's progress");
    assert!((0.0..=1.0).contains(&progress), "{preparing}");
    let words = preparing["words"].as_str().unwrap();
    assert!(words.contains("is being prepared"), "{words}");
    // The build goes on after the hint: asked again, it says so again (or the
    // moves are graded, on a fast machine).
    std::thread::sleep(Duration::from_millis(500));
    let (_, again) = server.call("GET", &format!("/api/sessions/{id}/hint"), None);
    let graded = again["analysis"]["moves"]
        .as_array()
        .is_some_and(|m| m.iter().all(|m| m["grade"]["kind"] == "solved"));
    assert!(
        graded || again["analysis"]["preparing"]["words"].is_string(),
        "{again}"
    );
    assert_eq!(server.kono_info()["exact"], true, "the tag stays");
    drop(server);
    let _ = std::fs::remove_dir_all(&cache);
}

/// Issue: a game was listed `exact: true` with `perfect` offered until its
/// player was asked for, which failed, and then `exact: false`. With a memory
/// limit the Kono table cannot be held in (it takes about 148 MiB read from
/// disk), the server says so from the start, and the same after the perfect
/// player is asked for.
#[test]
fn whether_kono_is_solved_here_is_known_before_its_player_is_asked_for() {
    let cache = fresh_dir("cache");
    let server = Server::start(&cache, &["--max-memory", "100M"]);
    let before = server.kono_info();
    assert_eq!(before["exact"], false, "{before}");
    assert!(!offers_perfect(&before), "{before}");
    let body = json!({"game": "kono", "players": ["human", "perfect"], "seed": 1});
    let (status, refused) = server.call("POST", "/api/sessions", Some(&body));
    assert!((400..500).contains(&status), "{status} {refused}");
    assert!(refused["error"].is_string(), "{refused}");
    let after = server.kono_info();
    assert_eq!(after["exact"], before["exact"], "{after}");
    assert_eq!(offers_perfect(&after), offers_perfect(&before));
    // A hint says there is none here, in words, and lists the moves.
    let id = server.kono_session();
    let (_, hint) = server.call("GET", &format!("/api/sessions/{id}/hint"), None);
    assert!(hint["analysis"]["preparing"].is_null(), "{hint}");
    assert!(
        hint["analysis"]["note"]
            .as_str()
            .is_some_and(|n| n.contains("no exact solution")),
        "{hint}"
    );
    drop(server);
    let _ = std::fs::remove_dir_all(&cache);
}

/// Issue: on a loaded machine a failed Kono build was never tried again, and
/// the hints said "no exact solution" for 35 minutes although a second server
/// had written the table to the disk cache. Here the server's memory limit
/// (200 MiB) holds the table read from disk but not its solve: the build fails
/// for a passing reason, the hint says so and when it is tried again; once
/// another program has solved the table into the same cache directory, a later
/// try reads it and the moves are graded. Release check (it solves Kono):
/// `cargo test --release --test integration tables -- --ignored`.
#[test]
#[ignore]
fn a_failed_kono_build_is_tried_again_and_reads_what_another_program_saved() {
    let cache = fresh_dir("cache");
    let server = Server::start(&cache, &["--max-memory", "200M"]);
    assert_eq!(server.kono_info()["exact"], true);
    let id = server.kono_session();
    let hint = |server: &Server| {
        server
            .call("GET", &format!("/api/sessions/{id}/hint"), None)
            .1
    };
    // The first answers may come while the build still runs ("being
    // prepared: 0 %"); the failure follows once the solve meets the limit.
    let asked = Instant::now();
    let first = loop {
        let h = hint(&server);
        let failed = h["analysis"]["preparing"]["words"]
            .as_str()
            .is_some_and(|w| w.contains("could not be prepared just now"));
        if failed {
            break h;
        }
        assert!(
            asked.elapsed() < Duration::from_secs(120),
            "the build has not failed: {h}"
        );
        std::thread::sleep(Duration::from_millis(250));
    };
    let preparing = &first["analysis"]["preparing"];
    let words = preparing["words"].as_str().unwrap_or_default();
    assert!(words.contains("tried again"), "{words}");
    assert!(
        preparing["retry_in_seconds"].as_f64().is_some(),
        "{preparing}"
    );

    // Another program solves the table into the same cache directory.
    let solved = Command::new(env!("CARGO_BIN_EXE_tabula"))
        .args(["solve", "kono", "--json"])
        .env("TABULA_CACHE_DIR", &cache)
        .output()
        .unwrap();
    assert!(solved.status.success(), "{solved:?}");
    assert!(cache.join("kono-standard-v2.table").is_file());

    // Within the longest pause between tries (30 s), the server reads it.
    let started = Instant::now();
    loop {
        let h = hint(&server);
        let moves = h["analysis"]["moves"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        if !moves.is_empty() && moves.iter().all(|m| m["grade"]["kind"] == "solved") {
            break;
        }
        assert!(
            started.elapsed() < Duration::from_secs(45),
            "still not graded: {h}"
        );
        std::thread::sleep(Duration::from_millis(500));
    }
    assert_eq!(server.kono_info()["exact"], true);
    drop(server);
    let _ = std::fs::remove_dir_all(&cache);
}

/// `tabula analyze` of Multiplication Ludo with three markers, its tables
/// cached in `cache`: the JSON answer.
fn analyze_auto120_with_three_markers(cache: &Path, position: &str) -> Value {
    let out = Command::new(env!("CARGO_BIN_EXE_tabula"))
        .args(["analyze", "auto120", "--variant", "markers=3", "--json"])
        .args(["--position", position])
        .env("TABULA_CACHE_DIR", cache)
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    serde_json::from_slice(&out.stdout).unwrap()
}

/// Whether every graded move of an analysis is exact (and there is one).
fn every_move_exact(analysis: &Value) -> bool {
    let moves = analysis["moves"].as_array().cloned().unwrap_or_default();
    !moves.is_empty() && moves.iter().all(|m| m["grade"]["exact"] == true)
}

/// Issue 44: with three markers the analysis gave estimates even after
/// `tabula solve auto120 --variant markers=3` had made the table. With no
/// table anywhere it answers at once with estimates and says the table is
/// being worked out and how to keep it.
#[test]
fn auto120_with_three_markers_and_no_table_says_it_is_being_worked_out() {
    let cache = fresh_dir("auto120-none");
    let a = analyze_auto120_with_three_markers(&cache, "4,1,1/6,1,1:1r5");
    assert!(!every_move_exact(&a), "{a}");
    let note = a["sections"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["title"] == "Exact chances")
        .and_then(|s| s["note"].as_str())
        .unwrap_or_default()
        .to_string();
    assert!(
        note.contains("being worked out")
            && note.contains("tabula solve auto120 --variant markers=3"),
        "{a}"
    );
    let _ = std::fs::remove_dir_all(&cache);
}

/// The end-to-end check of the above (minutes: the three-marker solve; run by
/// scripts/slow-checks): once `tabula solve` has made the table, another
/// process's analysis reads it and grades every move exactly.
#[test]
#[ignore]
fn auto120_with_three_markers_reads_the_table_tabula_solve_made() {
    let cache = fresh_dir("auto120-three");
    let solved = Command::new(env!("CARGO_BIN_EXE_tabula"))
        .args(["solve", "auto120", "--variant", "markers=3", "--json"])
        .env("TABULA_CACHE_DIR", &cache)
        .output()
        .unwrap();
    assert!(solved.status.success(), "{solved:?}");
    let report: Value = serde_json::from_slice(&solved.stdout).unwrap();
    let a = analyze_auto120_with_three_markers(&cache, "4,1,1/6,1,1:1r5");
    assert!(every_move_exact(&a), "{a}");
    let start = analyze_auto120_with_three_markers(&cache, "1,1,1/1,1,1:1");
    assert!(start["value"].is_object(), "{start}");
    // The first player's chance is the solve's, read back from the table
    // (kept in 4-byte fixed point: within a step of 2.3e-10).
    let chance = start["value"]["chances"][0]["chance"].as_f64().unwrap();
    let solved_chance = report["figures"]["first_mover_wins"].as_f64().unwrap();
    assert!((chance - solved_chance).abs() < 1e-9, "{chance} {report}");
    let _ = std::fs::remove_dir_all(&cache);
}
