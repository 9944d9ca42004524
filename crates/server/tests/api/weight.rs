//! What a first game page weighs and how its files are kept: sent compressed to
//! a browser that says it accepts compression, named by fingerprints that are
//! cached for good, and revalidated (304) by ETag under their plain names.

use crate::common::Server;
use serde_json::{json, Value};
use std::collections::{BTreeMap, BTreeSet};
use std::io::Read;

/// The most a first game page may transfer: the page, its style sheet, every
/// module it imports before the first move, the game's own module, what the
/// game is and a new session of it (docs/API.md, "Static files").
const FIRST_PAGE_BYTES: usize = 150_000;

/// One GET with the given extra headers: (status, headers by lower-case name, body as sent).
fn fetch(
    s: &Server,
    path: &str,
    headers: &[(&str, &str)],
) -> (u16, BTreeMap<String, String>, Vec<u8>) {
    let mut req = ureq::get(&s.url(path));
    for (name, value) in headers {
        req = req.set(name, value);
    }
    let resp = match req.call() {
        Ok(r) => r,
        Err(ureq::Error::Status(_, r)) => r,
        Err(e) => panic!("GET {path}: {e}"),
    };
    let status = resp.status();
    let heads = resp
        .headers_names()
        .into_iter()
        .map(|n| {
            let v = resp.header(&n).unwrap_or_default().to_string();
            (n.to_ascii_lowercase(), v)
        })
        .collect();
    let mut body = Vec::new();
    resp.into_reader().read_to_end(&mut body).expect("body");
    (status, heads, body)
}

fn gunzip(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    flate2::read::GzDecoder::new(bytes)
        .read_to_end(&mut out)
        .expect("a gzip body");
    out
}

/// A GET asking for gzip: (bytes as sent, bytes decoded, headers). Checks that a
/// compressible body came compressed and that it decodes to the plain file.
fn fetch_gzip(s: &Server, path: &str) -> (usize, Vec<u8>, BTreeMap<String, String>) {
    let (status, heads, body) = fetch(s, path, &[("Accept-Encoding", "gzip")]);
    assert_eq!(status, 200, "{path}");
    assert_eq!(
        heads.get("content-encoding").map(String::as_str),
        Some("gzip"),
        "{path} is sent compressed: {heads:?}"
    );
    assert!(
        heads
            .get("vary")
            .is_some_and(|v| v.to_ascii_lowercase().contains("accept-encoding")),
        "{path}: caches are told the answer depends on Accept-Encoding: {heads:?}"
    );
    let plain = gunzip(&body);
    assert!(
        body.len() < plain.len(),
        "{path}: compressing made it smaller"
    );
    (body.len(), plain, heads)
}

/// The page's import map (plain module URL to fingerprinted URL).
fn import_map(page: &str) -> BTreeMap<String, String> {
    let start = page
        .find(r#"<script type="importmap">"#)
        .expect("the page has an import map")
        + r#"<script type="importmap">"#.len();
    let end = start + page[start..].find("</script>").expect("end of the map");
    let map: Value = serde_json::from_str(&page[start..end]).expect("the map is JSON");
    map["imports"]
        .as_object()
        .expect("imports")
        .iter()
        .map(|(k, v)| (k.clone(), v.as_str().expect("a URL").to_string()))
        .collect()
}

/// The `src` and `href` values of the page that name files under `/static/`.
fn static_references(page: &str) -> Vec<String> {
    let mut found = Vec::new();
    for attribute in [r#"src=""#, r#"href=""#] {
        for (at, _) in page.match_indices(attribute) {
            let rest = &page[at + attribute.len()..];
            let url = &rest[..rest.find('"').expect("closing quote")];
            if url.starts_with("/static/") {
                found.push(url.to_string());
            }
        }
    }
    found
}

/// The modules a module imports before it runs (static `import … from '…'` and
/// `import '…'`; not `import(…)`, which loads later), as absolute URLs.
fn static_imports(module_url: &str, source: &str) -> Vec<String> {
    let folder = &module_url[..=module_url.rfind('/').expect("a folder")];
    let mut out = Vec::new();
    for line in source.lines().map(str::trim_start) {
        if !line.starts_with("import ") && !line.starts_with("import'") {
            continue;
        }
        let Some(quote_at) = line.rfind(['\'', '"']) else {
            continue;
        };
        let before = &line[..quote_at];
        let Some(open_at) = before.rfind(['\'', '"']) else {
            continue;
        };
        let spec = &line[open_at + 1..quote_at];
        let url = match spec.strip_prefix("./") {
            Some(relative) => format!("{folder}{relative}"),
            None => spec.to_string(),
        };
        out.push(url);
    }
    out
}

#[test]
fn a_first_game_page_is_sent_compressed_within_its_weight() {
    let s = Server::start();
    let (page_bytes, page, _) = fetch_gzip(&s, "/game/tictactoe");
    let page = String::from_utf8(page).expect("the page is UTF-8");
    let map = import_map(&page);

    // The page's own references (style sheet, first script) and every module
    // they import before the page runs, each by its fingerprinted name.
    let mut static_bytes = page_bytes;
    let mut seen = BTreeSet::new();
    let mut todo: Vec<String> = static_references(&page);
    assert!(
        todo.iter().any(|u| u.ends_with(".css")) && todo.iter().any(|u| u.ends_with(".js")),
        "the page names its style sheet and script: {todo:?}"
    );
    while let Some(url) = todo.pop() {
        let url = map.get(&url).cloned().unwrap_or(url);
        if !seen.insert(url.clone()) {
            continue;
        }
        let (sent, plain, _) = fetch_gzip(&s, &url);
        static_bytes += sent;
        if url.ends_with(".js") {
            let source = String::from_utf8(plain).expect("a module is UTF-8");
            todo.extend(static_imports(&url, &source));
        }
    }
    assert!(seen.len() >= 5, "the page loads its modules: {seen:?}");
    assert!(
        !seen.iter().any(|u| u.contains("marked")),
        "the rules renderer loads when the rules open, not with the page: {seen:?}"
    );

    // Each game's page: the files above, its own module if it has one, what the
    // game is (compressed when asked) and a new session of it (as it is).
    let (_, games) = s.get("/api/games");
    let games = games.as_array().expect("a list of games");
    assert!(!games.is_empty());
    for game in games {
        let name = game["name"].as_str().expect("a name");
        let mut bytes = static_bytes;
        let module = format!("/games/{name}/module.js");
        let (status, _, _) = fetch(&s, &module, &[]);
        if status == 200 {
            bytes += fetch_gzip(&s, &module).0;
        }
        let (sent, info, _) = fetch_gzip(&s, &format!("/api/games/{name}"));
        let info: Value = serde_json::from_slice(&info).expect("the game's JSON");
        assert_eq!(info["name"], name);
        bytes += sent;
        let created = ureq::post(&s.url("/api/sessions"))
            .set("Content-Type", "application/json")
            .send_string(&json!({ "game": name }).to_string())
            .unwrap_or_else(|e| panic!("{name}: a session: {e}"))
            .into_string()
            .expect("a session");
        bytes += created.len();
        assert!(
            bytes <= FIRST_PAGE_BYTES,
            "{name}: a first page transfers {bytes} bytes, more than {FIRST_PAGE_BYTES}"
        );
    }
}

#[test]
fn the_answers_of_play_go_out_as_they_are() {
    let s = Server::start();
    let (id, view) = s.session(json!({"game": "tictactoe", "players": ["human", "human"]}));
    let first = view["legal_moves"][0]["move"]
        .as_str()
        .expect("a move")
        .to_string();
    let answer = ureq::post(&s.url(&format!("/api/sessions/{id}/moves")))
        .set("Content-Type", "application/json")
        .set("Accept-Encoding", "gzip, br")
        .send_string(&json!({ "move": first }).to_string())
        .expect("the move is played");
    assert_eq!(answer.header("content-encoding"), None);
    let body: Value = serde_json::from_str(&answer.into_string().expect("a body")).expect("JSON");
    assert_eq!(
        body["view"]["log"].as_array().map(Vec::len),
        Some(1),
        "{body}"
    );
    let (status, heads, _) = fetch(
        &s,
        &format!("/api/sessions/{id}"),
        &[("Accept-Encoding", "gzip")],
    );
    assert_eq!(status, 200);
    assert!(!heads.contains_key("content-encoding"), "{heads:?}");
}

#[test]
fn fingerprinted_files_are_kept_for_good_and_the_rest_revalidated() {
    let s = Server::start();
    let (status, page_heads, page) = fetch(&s, "/", &[]);
    assert_eq!(status, 200);
    assert!(
        !page_heads.contains_key("content-encoding"),
        "no compression unasked"
    );
    let page = String::from_utf8(page).expect("UTF-8");
    let map = import_map(&page);
    let named = map
        .get("/static/game.js")
        .unwrap_or_else(|| panic!("game.js is in the import map: {map:?}"))
        .clone();
    assert_ne!(named, "/static/game.js", "named by a fingerprint");

    // The fingerprinted name: the same file as the plain name, kept for good.
    let (status, heads, by_fingerprint) = fetch(&s, &named, &[]);
    assert_eq!(status, 200);
    let cache = &heads["cache-control"];
    assert!(
        cache.contains("immutable") && cache.contains("max-age="),
        "{cache}"
    );
    let (status, plain_heads, by_name) = fetch(&s, "/static/game.js", &[]);
    assert_eq!(status, 200);
    assert_eq!(by_fingerprint, by_name);
    assert_eq!(plain_heads["cache-control"], "no-cache");

    // A fingerprint of another build gets today's file, not to be kept.
    let stale = named.replace(
        &named[named.len() - 19..named.len() - 3],
        "0123456789abcdef",
    );
    assert_ne!(stale, named);
    let (status, heads, body) = fetch(&s, &stale, &[]);
    assert_eq!(status, 200, "{stale}");
    assert_eq!(heads["cache-control"], "no-cache");
    assert_eq!(body, by_name);

    // The plain name, the page and a game's module are revalidated: 304 when the
    // browser's copy is still good, with no body; the full file otherwise.
    // A game's browser module: the first game that declares one.
    let (_, games) = s.get("/api/games");
    let module = games
        .as_array()
        .expect("a list of games")
        .iter()
        .map(|g| format!("/games/{}/module.js", g["name"].as_str().expect("a name")))
        .find(|path| fetch(&s, path, &[]).0 == 200)
        .expect("some game has a browser module");
    for path in ["/static/game.js", "/", module.as_str()] {
        let (status, heads, _) = fetch(&s, path, &[]);
        assert_eq!(status, 200, "{path}");
        assert_eq!(heads["cache-control"], "no-cache", "{path}");
        let etag = heads
            .get("etag")
            .unwrap_or_else(|| panic!("{path}: an ETag"));
        let (status, heads, body) = fetch(&s, path, &[("If-None-Match", etag)]);
        assert_eq!(status, 304, "{path}");
        assert!(body.is_empty(), "{path}");
        assert_eq!(heads.get("etag"), Some(etag), "{path}");
        let (status, _, body) = fetch(&s, path, &[("If-None-Match", "\"another\"")]);
        assert_eq!(status, 200, "{path}");
        assert!(!body.is_empty(), "{path}");
    }
}
