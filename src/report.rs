//! Readable terminal reports of the JSON the engine and the games produce
//! (`solve`, `analyze`, `count`, `train`, `hint`): aligned tables (comfy-table),
//! grids for rows of numbers, percentages for chances, a bar chart for the
//! learning curve. The `--json` forms print the JSON itself; these reports read
//! any game's fields generically, so a new game needs no edits here:
//!
//! * a field's name is written as words (`max_remoteness` → "Max remoteness");
//! * `null` fields are left out; `true`/`false` read "yes"/"no";
//! * whole numbers get thousands separators; `seconds` and `*_seconds` read as
//!   durations; fields whose name says `chance`, `probability` or `rate` and
//!   hold a number from 0 to 1 read as percentages;
//! * a list of lists of numbers is a grid (Poggle's presses);
//! * a list of records is a table; records side by side (the same fields) are
//!   one table with a column each (`tabula count mu-torere`).

use comfy_table::{presets::UTF8_FULL_CONDENSED, Cell, CellAlignment, ContentArrangement, Table};
use serde_json::{Map, Value as Json};

/// A field name as words: `max_remoteness` → "Max remoteness".
pub fn words(key: &str) -> String {
    let text = key.replace('_', " ");
    let mut chars = text.chars();
    match chars.next() {
        Some(c) => c.to_uppercase().collect::<String>() + chars.as_str(),
        None => text,
    }
}

/// A whole number with thousands separators: 64140783 → "64,140,783".
pub fn thousands(n: i128) -> String {
    let digits = n.unsigned_abs().to_string();
    let mut out = String::new();
    for (i, ch) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(ch);
    }
    if n < 0 {
        format!("-{out}")
    } else {
        out
    }
}

/// A duration in seconds as a person reads it: "0.65 ms", "7.99 s".
pub fn duration(seconds: f64) -> String {
    if seconds <= 0.0 {
        "0 s".into()
    } else if seconds < 0.001 {
        format!("{:.1} µs", seconds * 1e6)
    } else if seconds < 1.0 {
        format!("{:.2} ms", seconds * 1e3)
    } else if seconds < 120.0 {
        format!("{seconds:.2} s")
    } else {
        format!("{:.1} min", seconds / 60.0)
    }
}

/// A share as a percentage: 0.5041 → "50.4%".
pub fn percent(p: f64) -> String {
    format!("{:.1}%", p * 100.0)
}

fn is_chance(key: &str) -> bool {
    key.to_ascii_lowercase()
        .split('_')
        .any(|w| matches!(w, "chance" | "chances" | "probability" | "rate"))
}

/// Fields counting bytes (`peak_memory_bytes`) read as sizes: "5.6 MiB".
fn is_bytes(key: &str) -> bool {
    key.to_ascii_lowercase().ends_with("bytes")
}

/// A size in bytes as a person reads it: Tabula's one formatter, in binary units
/// (`5.6 MiB`), as every other size the program shows.
pub fn size(bytes: u64) -> String {
    tabula_core::format_bytes(bytes)
}

fn is_duration(key: &str) -> bool {
    key == "seconds" || key.ends_with("_seconds")
}

/// Whether a fraction field is a probability of winning (`first_mover_wins`): those
/// are the figures people compare to many places, so they keep nine.
fn is_win_probability(key: &str) -> bool {
    key.to_ascii_lowercase().rsplit('_').next() == Some("wins")
}

/// A number rounded for reading: 2 decimals at most above 1, four significant digits
/// below it, and powers of ten for tiny values (a tolerance of 1e-12 is not "0").
fn decimal(x: f64) -> String {
    if x != 0.0 && x.abs() < 1e-4 {
        return format!("{x:.1e}").replace(".0e", "e");
    }
    let places = if x.abs() >= 1.0 || x == 0.0 {
        2
    } else {
        (3 - x.abs().log10().floor() as i32).clamp(2, 8) as usize
    };
    let s = format!("{x:.places$}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" {
        "0".into()
    } else {
        s.to_string()
    }
}

/// One scalar (or a short list) as text, knowing the field's name; `None` for null.
pub fn scalar(key: &str, v: &Json) -> Option<String> {
    Some(match v {
        Json::Null => return None,
        Json::Bool(b) => if *b { "yes" } else { "no" }.into(),
        Json::Number(n) => {
            if let Some(i) = n.as_i64() {
                if is_chance(key) && (0..=1).contains(&i) {
                    percent(i as f64)
                } else if is_bytes(key) && i >= 0 {
                    size(i as u64)
                } else {
                    thousands(i as i128)
                }
            } else if let Some(u) = n.as_u64() {
                if is_bytes(key) {
                    size(u)
                } else {
                    thousands(u as i128)
                }
            } else {
                let x = n.as_f64().unwrap_or(0.0);
                if is_duration(key) {
                    duration(x)
                } else if is_win_probability(key) && (0.0..=1.0).contains(&x) {
                    format!("{:.2}% (probability {x:.9})", x * 100.0)
                } else if is_chance(key) && (0.0..=1.0).contains(&x) {
                    percent(x)
                } else {
                    decimal(x)
                }
            }
        }
        Json::String(s) => s.clone(),
        Json::Array(items) => {
            if items.is_empty() {
                return Some("none".into());
            }
            let parts: Vec<String> = items.iter().map(|i| brief(key, i)).collect();
            let shown = 24;
            if parts.len() > shown {
                format!(
                    "{} … ({} in all)",
                    parts[..shown].join(", "),
                    thousands(parts.len() as i128)
                )
            } else {
                parts.join(", ")
            }
        }
        Json::Object(o) => o
            .iter()
            .filter_map(|(k, v)| Some(format!("{} {}", k.replace('_', " "), brief_opt(k, v)?)))
            .collect::<Vec<_>>()
            .join(", "),
    })
}

fn brief_opt(key: &str, v: &Json) -> Option<String> {
    match v {
        Json::Object(o) => {
            // A record naming a move reads as the move (and why, when it says).
            if let Some(m) = o.get("move") {
                let m = brief(key, m);
                return Some(match o.get("reason").and_then(Json::as_str) {
                    Some(r) => format!("{m} ({r})"),
                    None => m,
                });
            }
            scalar(key, v)
        }
        other => scalar(key, other),
    }
}

fn brief(key: &str, v: &Json) -> String {
    brief_opt(key, v).unwrap_or_else(|| "—".into())
}

/// A list of lists of numbers (a grid), if `v` is one.
fn as_grid(v: &Json) -> Option<Vec<Vec<String>>> {
    let rows = v.as_array()?;
    if rows.is_empty() {
        return None;
    }
    rows.iter()
        .map(|r| {
            let cells = r.as_array()?;
            cells
                .iter()
                .map(|c| c.as_i64().map(|n| n.to_string()))
                .collect::<Option<Vec<_>>>()
        })
        .collect()
}

/// A grid of numbers as aligned rows, 1-based row and column numbers around it.
pub fn grid_text(rows: &[Vec<String>], indent: &str) -> String {
    let width = rows
        .iter()
        .flatten()
        .map(String::len)
        .max()
        .unwrap_or(1)
        .max(rows.first().map_or(1, |r| r.len().to_string().len()));
    let label = rows.len().to_string().len();
    let mut out = format!("{indent}{:label$} ", "");
    for c in 1..=rows.first().map_or(0, Vec::len) {
        out += &format!(" {c:>width$}");
    }
    out.push('\n');
    for (r, row) in rows.iter().enumerate() {
        out += &format!("{indent}{:>label$} ", r + 1);
        for cell in row {
            let shown = if cell == "0" { "." } else { cell };
            out += &format!(" {shown:>width$}");
        }
        out.push('\n');
    }
    out
}

/// A table with a header row; numbers are right-aligned.
pub fn table(header: &[&str], rows: Vec<Vec<String>>) -> Table {
    let mut t = Table::new();
    t.load_preset(UTF8_FULL_CONDENSED)
        .set_content_arrangement(ContentArrangement::Dynamic)
        .set_header(header.iter().map(Cell::new));
    // Outside a terminal (no width to ask), wrap long cells at 100 columns.
    if t.width().is_none() {
        t.set_width(100);
    }
    for row in rows {
        t.add_row(row.into_iter().enumerate().map(|(i, c)| {
            let numeric = i > 0
                && !c.is_empty()
                && !c.contains(", ")
                && c.chars()
                    .all(|ch| ch.is_ascii_digit() || ",.%-+ µmsin".contains(ch))
                && c.chars()
                    .next()
                    .is_some_and(|ch| ch.is_ascii_digit() || ch == '-' || ch == '+');
            let cell = Cell::new(c);
            if numeric {
                cell.set_alignment(CellAlignment::Right)
            } else {
                cell
            }
        }));
    }
    t
}

fn indent_block(text: &str, indent: &str) -> String {
    text.lines()
        .map(|l| format!("{indent}{l}\n"))
        .collect::<String>()
}

/// A list of records as one table (columns: every field any record has).
fn records_table(items: &[Json], indent: &str) -> Option<String> {
    let records: Vec<&Map<String, Json>> =
        items.iter().map(Json::as_object).collect::<Option<_>>()?;
    let mut keys: Vec<&String> = Vec::new();
    for r in &records {
        for (k, v) in r.iter() {
            if !v.is_null() && !keys.contains(&k) {
                keys.push(k);
            }
        }
    }
    if keys.is_empty() {
        return None;
    }
    let header: Vec<String> = keys.iter().map(|k| words(k)).collect();
    let header: Vec<&str> = header.iter().map(String::as_str).collect();
    let rows = records
        .iter()
        .map(|r| {
            keys.iter()
                .map(|k| r.get(*k).and_then(|v| brief_opt(k, v)).unwrap_or_default())
                .collect()
        })
        .collect();
    Some(indent_block(&table(&header, rows).to_string(), indent))
}

/// Every field of a JSON object as readable lines, skipping `skip`.
pub fn fields(obj: &Map<String, Json>, skip: &[&str], indent: &str) -> String {
    let mut out = String::new();
    // Records side by side with mostly the same fields: one table, a column each.
    let candidates: Vec<(&String, &Map<String, Json>)> = obj
        .iter()
        .filter(|(k, _)| !skip.contains(&k.as_str()))
        .filter_map(|(k, v)| Some((k, v.as_object()?)))
        .filter(|(_, o)| o.len() >= 3 && o.values().all(|v| !v.is_object()))
        .collect();
    let alike = |a: &Map<String, Json>, b: &Map<String, Json>| {
        a.keys().filter(|k| b.contains_key(*k)).count() * 2 > a.len().max(b.len())
    };
    // The records most others resemble, with those that resemble it.
    let side: Vec<(&String, &Map<String, Json>)> = candidates
        .iter()
        .max_by_key(|(_, a)| candidates.iter().filter(|(_, b)| alike(a, b)).count())
        .map(|(_, a)| {
            candidates
                .iter()
                .filter(|(_, b)| alike(a, b))
                .copied()
                .collect()
        })
        .unwrap_or_default();
    let grouped = side.len() >= 2;
    for (key, value) in obj {
        // `*_format` fields describe the JSON for programs, not the game.
        if skip.contains(&key.as_str()) || value.is_null() || key.ends_with("_format") {
            continue;
        }
        if grouped && side.iter().any(|(k, _)| *k == key) {
            continue;
        }
        match value {
            Json::Array(items) if as_grid(value).is_some() && items.len() > 1 => {
                out += &format!("{indent}{}:\n", words(key));
                out += &grid_text(&as_grid(value).unwrap_or_default(), &format!("{indent}  "));
            }
            Json::Array(items)
                if items.len() > 1 && items.iter().all(Json::is_object) && items.len() <= 200 =>
            {
                match records_table(items, &format!("{indent}  ")) {
                    Some(t) => {
                        out += &format!("{indent}{}:\n", words(key));
                        out += &t;
                    }
                    None => out += &format!("{indent}{}: {}\n", words(key), brief(key, value)),
                }
            }
            Json::Object(o) if o.values().any(|v| v.is_object() || v.is_array()) => {
                out += &format!("{indent}{}:\n", words(key));
                out += &fields(o, &[], &format!("{indent}  "));
            }
            other => {
                if let Some(text) = brief_opt(key, other) {
                    out += &format!("{indent}{}: {text}\n", words(key));
                }
            }
        }
    }
    if grouped {
        let mut rows_keys: Vec<&String> = Vec::new();
        for (_, o) in &side {
            for k in o.keys() {
                if !rows_keys.contains(&k) {
                    rows_keys.push(k);
                }
            }
        }
        let mut header = vec![String::new()];
        header.extend(side.iter().map(|(k, _)| words(k)));
        let header: Vec<&str> = header.iter().map(String::as_str).collect();
        let rows = rows_keys
            .iter()
            .map(|rk| {
                let mut row = vec![words(rk)];
                row.extend(side.iter().map(|(_, o)| {
                    o.get(*rk)
                        .and_then(|v| brief_opt(rk, v))
                        .unwrap_or_default()
                }));
                row
            })
            .collect();
        out += &indent_block(&table(&header, rows).to_string(), indent);
    }
    out
}

/// "a win for the side to move in 11 plies", "a draw", "a loss … in 6 plies".
pub fn value_phrase(value: &str, remoteness: Option<u64>, side: Option<&str>) -> String {
    let side = side.map_or("the side to move".to_string(), str::to_string);
    let plies = |n: u64| {
        if n == 1 {
            "1 ply".to_string()
        } else {
            format!("{n} plies")
        }
    };
    match (value, remoteness) {
        ("draw", _) => "a draw with perfect play".into(),
        ("win", Some(0)) => format!("won for {side} (the game is over)"),
        ("loss", Some(0)) => format!("lost for {side} (the game is over)"),
        ("win", Some(n)) => format!("a win for {side} in {}", plies(n)),
        ("loss", Some(n)) => format!("a loss for {side} in {}", plies(n)),
        (v, _) => v.to_string(),
    }
}

/// The moves of an analysis as a table: graded (result, plies) or by points, or a
/// compact list when ungraded.
pub fn moves_text(moves: &[Json]) -> String {
    if moves.is_empty() {
        return "No legal moves.\n".into();
    }
    let graded = moves
        .iter()
        .any(|m| m.get("value").is_some_and(|v| !v.is_null()));
    let pointed = moves
        .iter()
        .any(|m| m.get("points").is_some_and(|v| !v.is_null()));
    let chance_key = moves
        .first()
        .and_then(Json::as_object)
        .and_then(|o| o.keys().find(|k| is_chance(k)).cloned());
    let name = |m: &Json| m["move"].as_str().unwrap_or("").to_string();
    if graded {
        let rows = moves
            .iter()
            .map(|m| {
                let value = m["value"].as_str().unwrap_or("");
                let plies = match value {
                    "draw" => "—".to_string(),
                    _ => m["remoteness"]
                        .as_u64()
                        .map(|r| r.to_string())
                        .unwrap_or_default(),
                };
                vec![name(m), value.to_string(), plies]
            })
            .collect();
        let mut out =
            "Moves, best first (result for the mover; plies to the end with perfect play):\n"
                .to_string();
        out += &table(&["move", "result", "plies"], rows).to_string();
        return out + "\n";
    }
    if let Some(key) = chance_key {
        let rows = moves
            .iter()
            .map(|m| vec![name(m), scalar(&key, &m[&key]).unwrap_or_default()])
            .collect();
        let mut out = "Moves, best first:\n".to_string();
        out += &table(&["move", &words(&key).to_lowercase()], rows).to_string();
        return out + "\n";
    }
    if pointed {
        let shown = 15;
        let rows = moves
            .iter()
            .take(shown)
            .map(|m| {
                vec![
                    name(m),
                    m["points"]
                        .as_i64()
                        .map(|p| format!("+{p}"))
                        .unwrap_or_default(),
                ]
            })
            .collect();
        let mut out = format!(
            "Moves by the points they bring now ({} in all{}):\n",
            moves.len(),
            if moves.len() > shown {
                format!(", the best {shown} shown")
            } else {
                String::new()
            }
        );
        out += &table(&["move", "points"], rows).to_string();
        return out + "\n";
    }
    let names: Vec<String> = moves.iter().map(name).collect();
    let mut out = format!("Legal moves ({}):\n", names.len());
    let mut line = String::from(" ");
    for n in names {
        if line.len() + n.len() + 2 > 78 {
            out += &line;
            out.push('\n');
            line = String::from(" ");
        }
        line += &format!(" {n}");
    }
    out + &line + "\n"
}

/// `tabula analyze` (and the play prompt's `hint`) as readable text.
pub fn analysis_text(v: &Json, with_position: bool) -> String {
    let mut out = String::new();
    let side = v["to_move"].as_str();
    if with_position {
        out += &format!(
            "Position: {}{}\n",
            v["position"].as_str().unwrap_or(""),
            side.map(|s| format!(" ({s} to move)")).unwrap_or_default()
        );
    }
    if let Some(value) = v["value"].as_str() {
        out += &format!(
            "Value: {}.\n",
            value_phrase(value, v["remoteness"].as_u64(), side)
        );
    }
    if let Some(extra) = v.get("extra") {
        match extra.as_object() {
            Some(o) => {
                if let Some(rule) = o.get("rule").and_then(Json::as_str) {
                    out += &format!("{rule}\n");
                }
                out += &fields(
                    o,
                    &["rule", "seconds", "remoteness", "remoteness_exact"],
                    "",
                );
            }
            None => out += &format!("Analysis: {}\n", brief("analysis", extra)),
        }
    }
    let pointed = v["moves"]
        .as_array()
        .is_some_and(|m| m.iter().any(|m| m.get("points").is_some()));
    if let Some(note) = v["note"].as_str().filter(|_| !pointed) {
        out += &format!("({note})\n");
    }
    if let Some(moves) = v["moves"].as_array() {
        out += &moves_text(moves);
    }
    out
}

/// `tabula solve` as readable text: the strong solution of a two-player game, or
/// a game's own report (puzzle solvers, searches) field by field.
pub fn solve_text(title: &str, v: &Json) -> String {
    let Some(obj) = v.as_object() else {
        return format!("{v}\n");
    };
    let mut out = String::new();
    let start = v.get("start").and_then(Json::as_object);
    let strong = start.is_some() && obj.contains_key("wins") && obj.contains_key("positions");
    if !strong {
        out += &format!("{title}\n");
        out += &fields(obj, &["game", "seconds"], "");
        if let Some(s) = v["seconds"].as_f64() {
            out += &format!("Time: {}\n", duration(s));
        }
        return out;
    }
    let position = v["position"].as_str().unwrap_or("the start");
    out += &format!("{title}: strong solution from {position}\n");
    let value = start
        .and_then(|s| s.get("value"))
        .and_then(Json::as_str)
        .unwrap_or("");
    let rem = start
        .and_then(|s| s.get("remoteness"))
        .and_then(Json::as_u64);
    out += &format!(
        "Value of this position: {}.\n",
        value_phrase(value, rem, None)
    );
    let n = |k: &str| v[k].as_u64().unwrap_or(0);
    let total = n("positions").max(1);
    let rows = [
        ("won for the side to move", n("wins")),
        ("lost for the side to move", n("losses")),
        ("drawn", n("draws")),
    ]
    .iter()
    .map(|(what, c)| {
        vec![
            what.to_string(),
            thousands(*c as i128),
            percent(*c as f64 / total as f64),
        ]
    })
    .chain(std::iter::once(vec![
        "positions reachable".to_string(),
        thousands(n("positions") as i128),
        "100.0%".into(),
    ]))
    .collect();
    out += &table(&["positions", "count", "share"], rows).to_string();
    out.push('\n');
    if let Some(m) = v["max_remoteness"].as_u64() {
        out += &format!("Longest forced win: {m} plies.\n");
    }
    out += &fields(
        obj,
        &[
            "game",
            "variant",
            "position",
            "positions",
            "wins",
            "losses",
            "draws",
            "start",
            "max_remoteness",
            "seconds",
        ],
        "",
    );
    if let Some(s) = v["seconds"].as_f64() {
        out += &format!("Time: {}\n", duration(s));
    }
    out
}

/// `tabula count` as readable text.
pub fn count_text(title: &str, v: &Json) -> String {
    match v.as_object() {
        Some(o) => format!("{title}: counts\n{}", fields(o, &["game"], "")),
        None => format!("{v}\n"),
    }
}

/// `tabula train` as readable text: the summary and the learning curve as a chart.
pub fn train_text(title: &str, v: &Json) -> String {
    let Some(obj) = v.as_object() else {
        return format!("{v}\n");
    };
    let n = |k: &str| v[k].as_u64();
    let mut out = format!(
        "{title}: the learning machine ({}) trained for {} games against {}\n",
        v["learner"].as_str().unwrap_or("?"),
        thousands(n("games").unwrap_or(0) as i128),
        v["opponent"].as_str().unwrap_or("?"),
    );
    let games = n("games").unwrap_or(0).max(1) as f64;
    let rows = ["wins", "losses", "draws", "resignations"]
        .iter()
        .filter_map(|k| {
            let c = n(k)?;
            Some(vec![
                k.to_string(),
                thousands(c as i128),
                percent(c as f64 / games),
            ])
        })
        .collect();
    out += &table(&["the machine's games", "count", "share"], rows).to_string();
    out.push('\n');
    match (n("unbeatable_after"), v["unbeatable_checked"].as_bool()) {
        (Some(0), _) => out += "Unbeatable from the start: no line of play beats its beads.\n",
        (Some(g), _) => {
            out += &format!(
                "Unbeatable after game {}: no line of play beats the beads it has left.\n",
                thousands(g as i128)
            )
        }
        (None, Some(true)) => out += "Not yet unbeatable: some line of play still beats it.\n",
        (None, _) => {}
    }
    if let Some(g) = n("last_loss") {
        out += &format!("Its last loss: game {}.\n", thousands(g as i128));
    }
    if let Some(g) = n("first_run_of_100_non_losses_ended_at") {
        out += &format!(
            "First 100 games in a row without a loss: by game {}.\n",
            thousands(g as i128)
        );
    }
    if let Some(rules) = v["machine_rules"].as_str() {
        out += &format!("The machine: {rules}.\n");
    }
    if let (Some(boxes), Some(beads)) = (n("matchboxes"), n("beads")) {
        out += &format!(
            "It made {} matchboxes and has {} beads left in them",
            thousands(boxes as i128),
            thousands(beads as i128)
        );
        match (
            n("learner_positions"),
            n("learner_positions_up_to_symmetry"),
        ) {
            (Some(all), Some(classes)) => {
                out += &format!(
                    "; it can meet {} positions ({} up to symmetry).\n",
                    thousands(all as i128),
                    thousands(classes as i128)
                )
            }
            _ => out += ".\n",
        }
    }
    if let Some(seed) = n("seed") {
        out += &format!("Seed: {seed} (the same seed replays the same training).\n");
    }
    // Anything a newer engine adds, as plain fields.
    out += &fields(
        obj,
        &[
            "game",
            "games",
            "wins",
            "losses",
            "draws",
            "resignations",
            "curve",
            "learner",
            "opponent",
            "unbeatable_after",
            "unbeatable_checked",
            "learner_seat",
            "seconds",
            "last_loss",
            "first_run_of_100_non_losses_ended_at",
            "machine",
            "machine_rules",
            "matchboxes",
            "beads",
            "learner_positions",
            "learner_positions_up_to_symmetry",
            "seed",
            "block",
            "learned",
            "moves",
        ],
        "",
    );
    if let Some(curve) = v["curve"].as_array() {
        out += &curve_chart(curve);
    }
    if let Some(s) = v["seconds"].as_f64() {
        out += &format!("Time: {}\n", duration(s));
    }
    out
}

/// The learning curve: one bar per block of games, `#` for the machine's losses
/// and `=` for draws (a shrinking bar is a machine that learns).
pub fn curve_chart(curve: &[Json]) -> String {
    if curve.is_empty() {
        return String::new();
    }
    const WIDTH: usize = 40;
    let mut out = String::from(
        "Learning curve (each bar: the machine's losses # and draws = in a block of games):\n",
    );
    let size = |b: &Json| {
        ["wins", "losses", "draws"]
            .iter()
            .map(|k| b[k].as_u64().unwrap_or(0))
            .sum::<u64>()
    };
    let biggest = curve.iter().map(size).max().unwrap_or(1).max(1);
    let span = curve
        .last()
        .and_then(|b| b["to"].as_u64())
        .unwrap_or(0)
        .to_string()
        .len();
    for b in curve {
        let (from, to) = (
            b["from"].as_u64().unwrap_or(0),
            b["to"].as_u64().unwrap_or(0),
        );
        let (l, d) = (
            b["losses"].as_u64().unwrap_or(0),
            b["draws"].as_u64().unwrap_or(0),
        );
        let scale = |x: u64| ((x as f64 / biggest as f64) * WIDTH as f64).round() as usize;
        let bar = "#".repeat(scale(l)) + &"=".repeat(scale(d));
        out += &format!(
            "  games {from:>span$}-{to:<span$} |{bar:<WIDTH$}| {l} lost, {d} drawn of {}\n",
            size(b)
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn numbers_read_as_people_write_them() {
        assert_eq!(thousands(64_140_783), "64,140,783");
        assert_eq!(thousands(-1000), "-1,000");
        assert_eq!(thousands(999), "999");
        assert_eq!(scalar("seconds", &json!(0.000647)).unwrap(), "647.0 µs");
        assert_eq!(scalar("win_chance", &json!(0.504114)).unwrap(), "50.4%");
        assert_eq!(
            scalar("first_mover_wins", &json!(0.5041140662)).unwrap(),
            "50.41% (probability 0.504114066)"
        );
        assert_eq!(scalar("wins", &json!(3)).unwrap(), "3");
        assert_eq!(scalar("tolerance", &json!(1e-12)).unwrap(), "1e-12");
        assert_eq!(scalar("ratio", &json!(0.0123456)).unwrap(), "0.01235");
        assert_eq!(scalar("cpu_seconds", &json!(0.0)).unwrap(), "0 s");
        assert_eq!(
            scalar("peak_memory_bytes", &json!(5_853_184)).unwrap(),
            "5.6 MiB"
        );
        assert_eq!(scalar("table_bytes", &json!(999)).unwrap(), "999 bytes");
        assert_eq!(
            scalar("solving_bytes", &json!(54_146_207_850u64)).unwrap(),
            "50.4 GiB"
        );
        assert_eq!(
            scalar("solo_expected_turns", &json!(66.50292205810547)).unwrap(),
            "66.5"
        );
        assert_eq!(scalar("cached", &json!(false)).unwrap(), "no");
        assert_eq!(scalar("x", &json!(null)), None);
    }

    #[test]
    fn a_draw_has_no_remoteness() {
        let text = value_phrase("draw", Some(0), None);
        assert!(!text.contains('0'), "{text}");
        assert_eq!(
            value_phrase("loss", Some(6), Some("White")),
            "a loss for White in 6 plies"
        );
    }

    #[test]
    fn grids_and_side_by_side_records() {
        let g = grid_text(
            &[vec!["1".into(), "0".into()], vec!["0".into(), "1".into()]],
            "",
        );
        assert_eq!(g, "   1 2\n1  1 .\n2  . 1\n");
        let o = json!({"a": {"total": 1, "x": 2, "y": 3}, "b": {"total": 4, "x": 5, "y": 6}});
        let text = fields(o.as_object().unwrap(), &[], "");
        let total_line = text.lines().find(|l| l.contains("Total")).unwrap();
        assert!(
            total_line.contains('1') && total_line.contains('4'),
            "{text}"
        );
    }
}
