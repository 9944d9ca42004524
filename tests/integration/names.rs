//! The faces know no game: outside its own crate, no registered game's name appears
//! in the code of web/, src/ or the generic crates (core, ai, engine, server,
//! store). Comments, tests and the one registration file
//! (crates/engine/src/registry.rs) aside. What a game wants shown beyond its board
//! it declares in its presentation (crates/core/src/presentation.rs).
//!
//! A name is found in any spelling a program would use: `samegame`, `SameGame`,
//! `sameGamePlan`, `SAMEGAME`, `Mu Torere`, `mu_torere`, `tic-tac-toe`, `nim-sum`;
//! words that only contain a name (`animate`, `nimber`) are not hits, nor are
//! ordinary words that happen to spell one when run together across a space or
//! underscore (`same_game`, "the same game") unless the registry name itself has
//! words (`mu-torere`).

use std::path::{Path, PathBuf};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The folders whose code must hold no game's name.
const SCANNED: &[&str] = &[
    "web",
    "src",
    "crates/core/src",
    "crates/ai/src",
    "crates/engine/src",
    "crates/server/src",
    "crates/store/src",
];

/// The one file allowed to name every game: the registry.
const REGISTRATION: &str = "crates/engine/src/registry.rs";

/// A registered game's name: lower case without `-` and `_` (`mutorere`), and the
/// words of its registry name (`mu`, `torere`).
#[derive(Clone, Debug)]
struct Name {
    squashed: String,
    words: Vec<String>,
}

impl Name {
    fn new(registry: &str) -> Name {
        Name {
            squashed: squash(registry),
            words: words(registry).into_iter().map(|w| w.text).collect(),
        }
    }
}

fn game_names() -> Vec<Name> {
    tabula_engine::registry()
        .iter()
        .map(|e| Name::new(e.name))
        .collect()
}

fn squash(s: &str) -> String {
    s.chars()
        .filter(|c| c.is_ascii_alphanumeric())
        .map(|c| c.to_ascii_lowercase())
        .collect()
}

/// Source files under `dir`: Rust, JavaScript, HTML and CSS; third-party code
/// (`vendor/`) and test files (`tests.rs`, `tests/`) left out.
fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name().to_string_lossy().to_string();
        if path.is_dir() {
            if name != "vendor" && name != "tests" {
                sources(&path, out);
            }
        } else if name != "tests.rs"
            && ["rs", "js", "mjs", "html", "css"]
                .iter()
                .any(|e| path.extension().is_some_and(|x| x == *e))
        {
            out.push(path);
        }
    }
}

/// The text with comments (and Rust test items) blanked out, newlines kept so
/// line numbers stay true. Strings are kept: they are code a player sees.
fn code_only(text: &str, rust: bool, css_or_html: bool) -> String {
    let b = text.as_bytes();
    let mut out: Vec<u8> = b.to_vec();
    let blank = |out: &mut Vec<u8>, from: usize, to: usize| {
        for c in out.iter_mut().take(to).skip(from) {
            if *c != b'\n' {
                *c = b' ';
            }
        }
    };
    let mut i = 0;
    while i < b.len() {
        let rest = &b[i..];
        if css_or_html && rest.starts_with(b"<!--") {
            let end = find(b, i + 4, b"-->").map_or(b.len(), |e| e + 3);
            blank(&mut out, i, end);
            i = end;
        } else if rest.starts_with(b"/*") {
            let end = find(b, i + 2, b"*/").map_or(b.len(), |e| e + 2);
            blank(&mut out, i, end);
            i = end;
        } else if !css_or_html && rest.starts_with(b"//") {
            let end = find(b, i, b"\n").unwrap_or(b.len());
            blank(&mut out, i, end);
            i = end;
        } else if rust
            && (rest.starts_with(b"r#\"") || rest.starts_with(b"r\""))
            && (i == 0 || !(b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_'))
        {
            let hashes = rest[1..].iter().take_while(|&&c| c == b'#').count();
            let mut close = vec![b'"'];
            close.resize(1 + hashes, b'#');
            let start = i + 2 + hashes;
            i = find(b, start, &close).map_or(b.len(), |e| e + close.len());
        } else if rust && rest.len() >= 3 && rest[0] == b'\'' && rest[2] == b'\'' {
            // A character literal such as '"' (a lifetime has no closing quote).
            i += 3;
        } else if rust
            && rest.len() >= 4
            && rest[0] == b'\''
            && rest[1] == b'\\'
            && rest[3] == b'\''
        {
            i += 4;
        } else if !rust && !css_or_html && b[i] == b'/' && starts_regex(b, i) {
            // A regular expression literal: its quotes are not strings.
            i += 1;
            let mut class = false;
            while i < b.len() && b[i] != b'\n' && (class || b[i] != b'/') {
                match b[i] {
                    b'\\' => i += 1,
                    b'[' => class = true,
                    b']' => class = false,
                    _ => {}
                }
                i += 1;
            }
            i += 1;
        } else if b[i] == b'"' || (!rust && !css_or_html && (b[i] == b'\'' || b[i] == b'`')) {
            let quote = b[i];
            i += 1;
            while i < b.len() && b[i] != quote {
                i += if b[i] == b'\\' { 2 } else { 1 };
            }
            i += 1;
        } else if rust && rest.starts_with(b"#[cfg(test)]") {
            // The item it marks (a test module or function), braces matched.
            let end = item_end(b, i);
            blank(&mut out, i, end);
            i = end;
        } else {
            i += 1;
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Whether a `/` at `i` (not a comment) starts a JavaScript regular expression:
/// it follows an operator, an opening bracket, a separator or `return`, not a value.
fn starts_regex(b: &[u8], i: usize) -> bool {
    let before = b[..i].iter().rposition(|c| !c.is_ascii_whitespace());
    match before {
        None => true,
        Some(k) => b"(,=:[!&|?{};+-*%<>~^".contains(&b[k]) || b[..=k].ends_with(b"return"),
    }
}

fn find(b: &[u8], from: usize, what: &[u8]) -> Option<usize> {
    (from..b.len().saturating_sub(what.len() - 1)).find(|&k| b[k..].starts_with(what))
}

/// The end of the item starting at `start`: its first `{ ... }` block closed, or its `;`.
fn item_end(b: &[u8], start: usize) -> usize {
    let mut depth = 0usize;
    let mut i = start;
    while i < b.len() {
        match b[i] {
            b'"' => {
                i += 1;
                while i < b.len() && b[i] != b'"' {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
            }
            b'{' => depth += 1,
            b'}' => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return i + 1;
                }
            }
            b';' if depth == 0 => return i + 1,
            _ => {}
        }
        i += 1;
    }
    b.len()
}

/// A word of a line and what came before it.
#[derive(Clone, Debug, PartialEq)]
struct Word {
    text: String,
    /// Joined to the previous word: a case change inside one identifier
    /// (`sameGame`) or a hyphen (`tic-tac-toe`).
    joined: bool,
}

/// The words of a line as a program spells them: identifiers split at `-`, `_`,
/// spaces and case changes (`sameGamePlan` is `same game plan`, `Auto120Panel`
/// is `auto120 panel`), lower case.
fn words(line: &str) -> Vec<Word> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut joined = false;
    let mut prev: Option<char> = None;
    let mut gap = String::new();
    for c in line.chars() {
        if c.is_ascii_alphanumeric() {
            let camel = matches!(prev, Some(p) if (p.is_ascii_lowercase() || p.is_ascii_digit()) && c.is_ascii_uppercase());
            if camel && !cur.is_empty() {
                out.push(Word {
                    text: std::mem::take(&mut cur),
                    joined,
                });
                joined = true;
            } else if cur.is_empty() {
                joined = !out.is_empty() && gap == "-";
            }
            gap.clear();
            cur.push(c.to_ascii_lowercase());
            prev = Some(c);
        } else {
            if !cur.is_empty() {
                out.push(Word {
                    text: std::mem::take(&mut cur),
                    joined,
                });
            }
            gap.push(c);
            prev = None;
        }
    }
    if !cur.is_empty() {
        out.push(Word { text: cur, joined });
    }
    out
}

/// The game names a line holds: runs of its consecutive words that spell one,
/// joined within an identifier or by hyphens, or the registry name's own words.
fn names_in(line: &str, names: &[Name]) -> Vec<String> {
    let w = words(line);
    let longest = names.iter().map(|n| n.squashed.len()).max().unwrap_or(0);
    let mut found: Vec<String> = Vec::new();
    for i in 0..w.len() {
        let mut run = String::new();
        for j in i..w.len() {
            run.push_str(&w[j].text);
            if run.len() > longest {
                break;
            }
            let joined = w[i + 1..=j].iter().all(|x| x.joined);
            let texts: Vec<&str> = w[i..=j].iter().map(|x| x.text.as_str()).collect();
            for n in names {
                let own_words = n.words.len() > 1 && texts == n.words;
                if n.squashed == run && (joined || own_words) && !found.contains(&n.squashed) {
                    found.push(n.squashed.clone());
                }
            }
        }
    }
    found
}

/// Every hit: `path:line: name in: text`.
fn hits(names: &[Name]) -> Vec<String> {
    let mut files = Vec::new();
    for dir in SCANNED {
        sources(&root().join(dir), &mut files);
    }
    files.sort();
    let mut out = Vec::new();
    for path in files {
        let rel = path
            .strip_prefix(root())
            .unwrap_or(&path)
            .to_string_lossy()
            .replace('\\', "/");
        if rel == REGISTRATION {
            continue;
        }
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
        let code = code_only(&text, ext == "rs", matches!(ext, "css" | "html"));
        for (n, line) in code.lines().enumerate() {
            for name in names_in(line, names) {
                let shown: String = line.trim().chars().take(160).collect();
                out.push(format!("{rel}:{}: {name} in: {shown}", n + 1));
            }
        }
    }
    out
}

#[test]
fn no_game_is_named_outside_its_crate() {
    let names = game_names();
    assert!(names.len() >= 9, "{names:?}");
    let found = hits(&names);
    assert!(
        found.is_empty(),
        "{} game name(s) in generic code (declare it in the game's presentation instead):\n{}",
        found.len(),
        found.join("\n")
    );
}

#[test]
fn the_scanner_finds_names_in_every_spelling_and_skips_comments_and_tests() {
    let names: Vec<Name> = ["samegame", "nim", "mu-torere", "auto120", "tictactoe"]
        .iter()
        .map(|s| Name::new(s))
        .collect();
    let n = |line: &str| names_in(line, &names);
    assert_eq!(n("class SameGamePanel {"), ["samegame"]);
    assert_eq!(n("this.sameGamePlan = x"), ["samegame"]);
    assert_eq!(
        n("case 'auto120': return new Auto120Panel(page);"),
        ["auto120"]
    );
    assert_eq!(n("if name == \"mu-torere\""), ["mutorere"]);
    assert_eq!(n("title: 'Mu Torere'"), ["mutorere"]);
    assert_eq!(n("MU_TORERE"), ["mutorere"]);
    assert_eq!(n("const SAMEGAME = 1;"), ["samegame"]);
    // Ordinary words that run together into a name across a gap are not one.
    assert!(n("fn same_game(asked: &str)").is_empty());
    assert!(n("'the same game again'").is_empty());
    assert_eq!(n("const NIM_TAKES = 3; // nim-sum"), ["nim"]);
    assert_eq!(n("'Tic-tac-toe'"), ["tictactoe"]);
    assert!(n("animate(nimber, minimum)").is_empty());

    let js = "a(); // samegame here\n/* nim\n nim */ b('nim');\n";
    let code = code_only(js, false, false);
    assert_eq!(code.lines().count(), 3);
    assert!(names_in(code.lines().next().unwrap(), &names).is_empty());
    assert!(names_in(code.lines().nth(1).unwrap(), &names).is_empty());
    assert_eq!(names_in(code.lines().nth(2).unwrap(), &names), ["nim"]);
    // A quote in a regular expression starts no string.
    let js = "x.replace(/\\bthe seed's\\b/gi, 'y'); // samegame\nz = a / b; // nim\n";
    let code = code_only(js, false, false);
    assert!(names_in(&code, &names).is_empty(), "{code}");
    // A URL in a string is not a comment: what follows `//` in it is code.
    let code = code_only("x = 'http://a/' + 'samegame';", false, false);
    assert_eq!(names_in(&code, &names), ["samegame"]);

    let rust = "/// Nim's rule\nfn f() { g(\"x\") }\n#[cfg(test)]\nmod tests {\n    fn t() { build(\"nim\") }\n}\nfn h() { \"samegame\" }\n";
    let code = code_only(rust, true, false);
    let lines: Vec<&str> = code.lines().collect();
    assert!(names_in(lines[0], &names).is_empty());
    assert!(
        names_in(lines[4], &names).is_empty(),
        "test code is skipped"
    );
    assert_eq!(names_in(lines[6], &names), ["samegame"]);
}
