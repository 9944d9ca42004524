//! A bounded load generator for `tabula serve`: tic-tac-toe move requests over
//! many keep-alive connections on loopback, with a fixed number of requests and
//! a time cap.
//!
//! ```text
//! cargo run --release -p tabula-server --example load -- \
//!     [--requests 60000] [--connections 64] [--seconds 60] [--computer 0.0] [--addr 127.0.0.1:8080]
//! ```
//!
//! Without `--addr` it starts the server in this process (two worker threads,
//! a fresh database in a temporary folder). `--computer F` makes that fraction
//! of sessions human-vs-`perfect`, so those moves also compute and persist a
//! reply. Only move requests are counted in the figures; session creation (one
//! per finished game) runs on the same connections but is not timed.

use http_body_util::{BodyExt, Full};
use hyper::body::Bytes;
use serde::Deserialize;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

struct Options {
    requests: u64,
    connections: usize,
    seconds: f64,
    computer: f64,
    addr: Option<SocketAddr>,
}

fn parse_args() -> Result<Options, String> {
    let mut o = Options {
        requests: 60_000,
        connections: 64,
        seconds: 60.0,
        computer: 0.0,
        addr: None,
    };
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut i = 0;
    while i < args.len() {
        let value = args
            .get(i + 1)
            .ok_or_else(|| format!("{} needs a value", args[i]))?;
        let bad = || format!("bad value for {}: {value}", args[i]);
        match args[i].as_str() {
            "--requests" => o.requests = value.parse().map_err(|_| bad())?,
            "--connections" => o.connections = value.parse().map_err(|_| bad())?,
            "--seconds" => o.seconds = value.parse().map_err(|_| bad())?,
            "--computer" => o.computer = value.parse().map_err(|_| bad())?,
            "--addr" => o.addr = Some(value.parse().map_err(|_| bad())?),
            other => return Err(format!("unknown option {other}")),
        }
        i += 2;
    }
    if o.connections == 0
        || o.connections > 4096
        || o.requests == 0
        || !(o.seconds > 0.0 && o.seconds <= 600.0)
    {
        return Err(
            "need 1..=4096 connections, at least one request and 0 < seconds <= 600".into(),
        );
    }
    if !(0.0..=1.0).contains(&o.computer) {
        return Err("--computer is a fraction from 0 to 1".into());
    }
    Ok(o)
}

#[derive(Deserialize)]
struct Reply {
    id: Option<String>,
    view: Option<View>,
}

#[derive(Deserialize)]
struct View {
    outcome: Option<serde_json::Value>,
    legal_moves: Vec<Legal>,
}

#[derive(Deserialize)]
struct Legal {
    #[serde(rename = "move")]
    mv: String,
}

type Sender = hyper::client::conn::http1::SendRequest<Full<Bytes>>;

async fn connect(addr: SocketAddr) -> Result<Sender, String> {
    let tcp = tokio::net::TcpStream::connect(addr)
        .await
        .map_err(|e| e.to_string())?;
    tcp.set_nodelay(true).map_err(|e| e.to_string())?;
    let (sender, conn) = hyper::client::conn::http1::handshake(hyper_util::rt::TokioIo::new(tcp))
        .await
        .map_err(|e| e.to_string())?;
    tokio::spawn(conn);
    Ok(sender)
}

async fn post(
    sender: &mut Sender,
    addr: SocketAddr,
    path: &str,
    body: String,
) -> Result<(u16, Bytes), String> {
    let req = hyper::Request::post(path)
        .header("host", addr.to_string())
        .header("content-type", "application/json")
        .body(Full::new(Bytes::from(body)))
        .map_err(|e| e.to_string())?;
    sender.ready().await.map_err(|e| e.to_string())?;
    let resp = sender.send_request(req).await.map_err(|e| e.to_string())?;
    let status = resp.status().as_u16();
    let bytes = resp
        .into_body()
        .collect()
        .await
        .map_err(|e| e.to_string())?
        .to_bytes();
    Ok((status, bytes))
}

struct Shared {
    addr: SocketAddr,
    budget: AtomicU64,
    errors: AtomicU64,
    sessions: AtomicU64,
    deadline: Instant,
    computer: f64,
}

/// One connection: plays games one after another until the budget or the time is spent.
async fn client(shared: Arc<Shared>, index: usize) -> Result<Vec<u32>, String> {
    let mut sender = connect(shared.addr).await?;
    let mut latencies = Vec::new();
    let mut games = 0u64;
    'games: loop {
        games += 1;
        let computer = ((index as f64 + games as f64 * 0.618) % 1.0) < shared.computer;
        let players = if computer {
            r#"["human","perfect"]"#
        } else {
            r#"["human","human"]"#
        };
        let body = format!(
            r#"{{"game":"tictactoe","players":{players},"seed":{}}}"#,
            index as u64 * 1_000_003 + games
        );
        let (status, bytes) = post(&mut sender, shared.addr, "/api/sessions", body).await?;
        if status != 201 {
            return Err(format!("creating a session gave {status}"));
        }
        shared.sessions.fetch_add(1, Ordering::Relaxed);
        let reply: Reply = serde_json::from_slice(&bytes).map_err(|e| e.to_string())?;
        let id = reply.id.ok_or("no id")?;
        let path = format!("/api/sessions/{id}/moves");
        let mut view = reply.view.ok_or("no view")?;
        let mut k = index + games as usize;
        while view.outcome.is_none() && !view.legal_moves.is_empty() {
            if Instant::now() >= shared.deadline
                || shared
                    .budget
                    .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |b| b.checked_sub(1))
                    .is_err()
            {
                break 'games;
            }
            k = k.wrapping_mul(31).wrapping_add(7);
            let mv = &view.legal_moves[k % view.legal_moves.len()].mv;
            let started = Instant::now();
            let (status, bytes) = post(
                &mut sender,
                shared.addr,
                &path,
                format!(r#"{{"move":"{mv}"}}"#),
            )
            .await?;
            latencies.push(started.elapsed().as_micros().min(u32::MAX as u128) as u32);
            if status != 200 {
                shared.errors.fetch_add(1, Ordering::Relaxed);
                continue 'games;
            }
            view = serde_json::from_slice::<Reply>(&bytes)
                .map_err(|e| e.to_string())?
                .view
                .ok_or("no view")?;
        }
    }
    Ok(latencies)
}

fn start_server() -> (SocketAddr, tempdir::Dir) {
    let dir = tempdir::Dir::new();
    let store =
        Arc::new(tabula_store::Store::open(&dir.0.join("load.db")).expect("open the database"));
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let rt = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .unwrap();
        rt.block_on(async move {
            let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
            tx.send(listener.local_addr().unwrap()).unwrap();
            let _ = tabula_server::serve(listener, store, std::future::pending()).await;
        });
    });
    (rx.recv().unwrap(), dir)
}

mod tempdir {
    /// A folder removed on drop.
    pub struct Dir(pub std::path::PathBuf);
    impl Dir {
        pub fn new() -> Dir {
            let p = std::env::temp_dir().join(format!("tabula-load-{}", std::process::id()));
            std::fs::create_dir_all(&p).unwrap();
            Dir(p)
        }
    }
    impl Drop for Dir {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
}

fn percentile(sorted: &[u32], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let i = ((sorted.len() as f64 * p).ceil() as usize).clamp(1, sorted.len()) - 1;
    sorted[i] as f64 / 1000.0
}

fn main() {
    let o = match parse_args() {
        Ok(o) => o,
        Err(e) => {
            eprintln!("load: {e}");
            std::process::exit(2);
        }
    };
    let (addr, _dir) = match o.addr {
        Some(a) => (a, None),
        None => {
            let (a, d) = start_server();
            (a, Some(d))
        }
    };
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .unwrap();
    let shared = Arc::new(Shared {
        addr,
        budget: AtomicU64::new(o.requests),
        errors: AtomicU64::new(0),
        sessions: AtomicU64::new(0),
        deadline: Instant::now() + Duration::from_secs_f64(o.seconds),
        computer: o.computer,
    });
    let started = Instant::now();
    let results = rt.block_on(async {
        let tasks: Vec<_> = (0..o.connections)
            .map(|i| tokio::spawn(client(shared.clone(), i)))
            .collect();
        let mut all = Vec::new();
        for t in tasks {
            all.push(t.await);
        }
        all
    });
    let elapsed = started.elapsed().as_secs_f64();
    let mut latencies = Vec::new();
    let mut failures = 0;
    for r in results {
        match r {
            Ok(Ok(l)) => latencies.extend(l),
            Ok(Err(e)) => {
                failures += 1;
                eprintln!("load: a connection failed: {e}");
            }
            Err(e) => {
                failures += 1;
                eprintln!("load: a client task failed: {e}");
            }
        }
    }
    latencies.sort_unstable();
    let n = latencies.len();
    println!(
        "{} move requests ({} non-200, {} connection failures) over {} connections, {} sessions, {:.0}% with computer replies",
        n,
        shared.errors.load(Ordering::Relaxed),
        failures,
        o.connections,
        shared.sessions.load(Ordering::Relaxed),
        o.computer * 100.0
    );
    println!(
        "{:.2} s, {:.0} moves/s, {:.0} requests/s with session creation; latency ms: p50 {:.2}  p90 {:.2}  p99 {:.2}  max {:.2}",
        elapsed,
        n as f64 / elapsed,
        (n as u64 + shared.sessions.load(Ordering::Relaxed)) as f64 / elapsed,
        percentile(&latencies, 0.50),
        percentile(&latencies, 0.90),
        percentile(&latencies, 0.99),
        percentile(&latencies, 1.0)
    );
    std::process::exit(
        if failures > 0 || shared.errors.load(Ordering::Relaxed) > 0 {
            1
        } else {
            0
        },
    );
}
