//! A real server on 127.0.0.1:0 with a temporary database, and two clients:
//! ureq for ordinary calls, and raw TCP for requests a client library would
//! tidy up (`..` in paths, bad Host headers, oversized bodies).

use serde_json::Value;
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;
use tabula_store::Store;

pub struct Server {
    pub addr: SocketAddr,
    pub db: PathBuf,
    _dir: Option<tempfile::TempDir>,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Server {
    pub fn start() -> Server {
        Self::start_with(tabula_server::ServeOptions::default())
    }

    /// A server with other limits (a short move deadline, a small pool).
    pub fn start_with(options: tabula_server::ServeOptions) -> Server {
        let dir = tempfile::tempdir().expect("temp dir");
        Self::start_in(dir, options)
    }

    /// Stops this server and starts another on the same database: nothing of
    /// the first is in memory any more.
    pub fn restart(mut self, options: tabula_server::ServeOptions) -> Server {
        self.stop_now();
        match self._dir.take() {
            Some(dir) => Self::start_in(dir, options),
            None => Self::start_on(self.db.clone(), None, options),
        }
    }

    fn stop_now(&mut self) {
        if let Some(s) = self.stop.take() {
            let _ = s.send(());
        }
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }

    fn start_in(dir: tempfile::TempDir, options: tabula_server::ServeOptions) -> Server {
        // Tables kept on disk by other runs (Auto120's, solved in a minute)
        // would make the long jobs these tests cancel end at once: the tests
        // of one run share a cache directory of their own.
        static CACHE: std::sync::Once = std::sync::Once::new();
        CACHE.call_once(|| {
            let dir = std::env::temp_dir().join(format!("tabula-api-cache-{}", std::process::id()));
            std::env::set_var("TABULA_CACHE_DIR", dir);
        });
        let db = dir.path().join("tabula.db");
        Self::start_on(db, Some(dir), options)
    }

    /// A server on the database `db` that the caller keeps (a crashed one).
    pub fn start_at(db: PathBuf) -> Server {
        Self::start_on(db, None, tabula_server::ServeOptions::default())
    }

    /// A server on the database `db` whose store reads the wall clock through
    /// `clock` (the store's clock seam).
    pub fn start_with_clock(db: PathBuf, clock: Arc<dyn tabula_store::WallClock>) -> Server {
        let store = Store::open_with_clock(&db, clock).expect("open store");
        Self::start_on_store(db, None, store, tabula_server::ServeOptions::default())
    }

    /// A second server on this one's database, opened as the CLI opens it
    /// (without the one-server lock): what two servers on one database would
    /// do if the lock were ever got round.
    pub fn beside(&self) -> Server {
        Self::start_on(
            self.db.clone(),
            None,
            tabula_server::ServeOptions::default(),
        )
    }

    fn start_on(
        db: PathBuf,
        dir: Option<tempfile::TempDir>,
        options: tabula_server::ServeOptions,
    ) -> Server {
        let store = Store::open(&db).expect("open store");
        Self::start_on_store(db, dir, store, options)
    }

    fn start_on_store(
        db: PathBuf,
        dir: Option<tempfile::TempDir>,
        store: Store,
        options: tabula_server::ServeOptions,
    ) -> Server {
        let store = Arc::new(store);
        let (addr_tx, addr_rx) = std::sync::mpsc::channel();
        let (stop_tx, stop_rx) = tokio::sync::oneshot::channel::<()>();
        let thread = std::thread::spawn(move || {
            let rt = tokio::runtime::Builder::new_multi_thread()
                .worker_threads(2)
                .enable_all()
                .build()
                .unwrap();
            rt.block_on(async move {
                let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
                addr_tx.send(listener.local_addr().unwrap()).unwrap();
                tabula_server::serve_with(listener, store, options, async {
                    let _ = stop_rx.await;
                })
                .await
                .unwrap();
            });
            rt.shutdown_timeout(Duration::from_secs(1));
        });
        let addr = addr_rx
            .recv_timeout(Duration::from_secs(30))
            .expect("server started");
        Server {
            addr,
            db,
            _dir: dir,
            stop: Some(stop_tx),
            thread: Some(thread),
        }
    }

    /// Follows a job's server-sent events to its `done` or `error` event:
    /// `(event name, data)` in order.
    pub fn job_events(&self, job: &str) -> Vec<(String, Value)> {
        use std::io::{BufRead, BufReader};
        let resp = ureq::get(&self.url(&format!("/api/jobs/{job}/events")))
            .call()
            .expect("events");
        assert!(resp.content_type().starts_with("text/event-stream"));
        let mut events = Vec::new();
        let mut name = String::new();
        for line in BufReader::new(resp.into_reader()).lines() {
            let line = line.expect("line");
            if let Some(n) = line.strip_prefix("event:") {
                name = n.trim().to_string();
            } else if let Some(d) = line.strip_prefix("data:") {
                let v: Value = serde_json::from_str(d.trim()).expect("data is JSON");
                let last = name == "done" || name == "error";
                events.push((name.clone(), v));
                if last {
                    break;
                }
            }
        }
        events
    }

    pub fn url(&self, path: &str) -> String {
        format!("http://{}{}", self.addr, path)
    }

    /// A second connection to the same database, for checks.
    pub fn store(&self) -> Store {
        Store::open(&self.db).expect("open store again")
    }

    /// A request whose answer must not be a 5xx; any 4xx must carry a JSON error.
    pub fn call(&self, method: &str, path: &str, body: Option<&str>) -> (u16, Value) {
        self.request(method, path, body, false)
    }

    /// As [`Server::call`], but a 5xx (a documented 503 "busy" or "out of time")
    /// is returned too, still with its JSON error checked.
    pub fn call_any(&self, method: &str, path: &str, body: Option<&str>) -> (u16, Value) {
        self.request(method, path, body, true)
    }

    fn request(
        &self,
        method: &str,
        path: &str,
        body: Option<&str>,
        allow_5xx: bool,
    ) -> (u16, Value) {
        let agent = ureq::AgentBuilder::new()
            .timeout(Duration::from_secs(120))
            .build();
        let req = agent.request(method, &self.url(path));
        let res = match body {
            Some(b) => req.set("Content-Type", "application/json").send_string(b),
            None => req.call(),
        };
        let resp = match res {
            Ok(r) => r,
            Err(ureq::Error::Status(_, r)) => r,
            Err(e) => panic!("{method} {path}: {e}"),
        };
        let status = resp.status();
        let ct = resp.content_type().to_string();
        let text = resp.into_string().expect("body");
        if status >= 400 {
            assert_eq!(
                ct, "application/json",
                "{method} {path} -> {status} must be a JSON error, got {text}"
            );
            let v: Value = serde_json::from_str(&text).expect("error body is JSON");
            assert!(
                v["error"].as_str().is_some_and(|e| !e.is_empty()),
                "error body {v}"
            );
            assert!(
                allow_5xx || status < 500,
                "{method} {path} gave {status}: {v}"
            );
            return (status, v);
        }
        let v = if text.is_empty() {
            Value::Null
        } else {
            serde_json::from_str(&text).unwrap_or(Value::String(text))
        };
        (status, v)
    }

    pub fn get(&self, path: &str) -> (u16, Value) {
        self.call("GET", path, None)
    }

    pub fn post(&self, path: &str, body: &Value) -> (u16, Value) {
        self.call("POST", path, Some(&body.to_string()))
    }

    /// Sends bytes as they are and returns (status, headers, body).
    pub fn raw(&self, request: &[u8]) -> (u16, String, String) {
        raw(self.addr, request)
    }

    pub fn raw_get(&self, path: &str) -> (u16, String) {
        let req = format!(
            "GET {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n\r\n",
            self.addr
        );
        let (s, _, b) = self.raw(req.as_bytes());
        (s, b)
    }

    /// Starts a session and returns (id, view).
    pub fn session(&self, body: Value) -> (String, Value) {
        let (s, v) = self.post("/api/sessions", &body);
        assert_eq!(s, 201, "{v}");
        (v["id"].as_str().unwrap().to_string(), v["view"].clone())
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.stop_now();
    }
}

pub fn raw(addr: SocketAddr, request: &[u8]) -> (u16, String, String) {
    let mut s = TcpStream::connect(addr).expect("connect");
    s.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
    // The server may answer (and close) before it has read a large body.
    let _ = s.write_all(request);
    let mut buf = Vec::new();
    let _ = s.read_to_end(&mut buf);
    let text = String::from_utf8_lossy(&buf).to_string();
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let status = head
        .split(' ')
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    (status, head.to_string(), body.to_string())
}
