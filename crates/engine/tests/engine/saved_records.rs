//! Saved games come back from files, the database and clients: a record with any
//! field changed (out of range, negative, huge, of the wrong type, missing, extra,
//! nested deep) is either refused with a clear message or replays into a match
//! that works and saves a record that replays again. Nothing panics.
//!
//! Fast by default (256 mutated records, about a second). To fuzz longer:
//! `PROPTEST_CASES=5000 cargo test --release -p tabula-engine --test engine saved_records::`.

use proptest::prelude::*;
use proptest::test_runner::{Config, TestCaseError, TestRunner};
use serde_json::{json, Value};
use tabula_engine::{build, EngineError, Match, MatchConfig, MatchRecord};

fn start(game: &str, variant: &str, players: &[&str]) -> Box<dyn Match> {
    build(game, variant)
        .unwrap()
        .new_match(MatchConfig {
            players: players.iter().map(|s| s.to_string()).collect(),
            seed: 5,
            ..MatchConfig::default()
        })
        .unwrap()
}

/// Plays the first legal move `n` times (replies come by themselves).
fn play_first(m: &mut dyn Match, n: usize) {
    for _ in 0..n {
        let Some(mv) = m.view().legal_moves.first().map(|i| i.mv.clone()) else {
            return;
        };
        m.play(&mv).unwrap();
        m.advance().unwrap();
    }
}

/// Valid records of every kind the fuzzing starts from: a learner with its
/// boxes and a tally, a resignation, dice, a dealt start, a finished game.
fn valid_records() -> Vec<MatchRecord> {
    let mut out = Vec::new();
    let mut m = start("tictactoe", "", &["human", "matchbox"]);
    play_first(m.as_mut(), 5);
    m.new_game();
    m.advance().unwrap();
    play_first(m.as_mut(), 2);
    out.push(m.record());

    let mut m = start("tictactoe", "", &["human", "human"]);
    play_first(m.as_mut(), 3);
    m.resign().unwrap();
    out.push(m.record());

    let mut m = start("hexapawn", "", &["menace", "human"]);
    m.advance().unwrap();
    play_first(m.as_mut(), 1);
    out.push(m.record());

    let mut m = start("auto120", "", &["random", "random"]);
    m.advance().unwrap();
    out.push(m.record());

    let mut m = start("samegame", "size=5x5,colours=2", &["human"]);
    play_first(m.as_mut(), 2);
    out.push(m.record());
    out
}

/// One step down a JSON tree.
#[derive(Clone, Debug)]
enum Step {
    Key(String),
    Index(usize),
}

/// Most nodes [`paths`] lists: a deep value repeated many times would otherwise
/// make millions of long paths (the test's own memory, not the engine's).
const MAX_PATHS: usize = 20_000;

/// Most nodes one [`Mutation::Repeat`] adds.
const MAX_REPEATED_NODES: usize = 300_000;

/// Nodes in a tree (the root included).
fn nodes(v: &Value) -> usize {
    1 + match v {
        Value::Object(map) => map.values().map(nodes).sum(),
        Value::Array(items) => items.iter().map(nodes).sum(),
        _ => 0,
    }
}

/// Every node of the tree, by its path from the root (the root included), up to
/// [`MAX_PATHS`] of them.
fn paths(v: &Value, here: &mut Vec<Step>, out: &mut Vec<Vec<Step>>) {
    if out.len() >= MAX_PATHS {
        return;
    }
    out.push(here.clone());
    match v {
        Value::Object(map) => {
            for (k, child) in map {
                here.push(Step::Key(k.clone()));
                paths(child, here, out);
                here.pop();
            }
        }
        Value::Array(items) => {
            for (i, child) in items.iter().enumerate() {
                here.push(Step::Index(i));
                paths(child, here, out);
                here.pop();
            }
        }
        _ => {}
    }
}

fn node<'a>(v: &'a mut Value, path: &[Step]) -> &'a mut Value {
    path.iter().fold(v, |v, step| match step {
        Step::Key(k) => &mut v[k.as_str()],
        Step::Index(i) => &mut v[*i],
    })
}

/// Values a hostile or damaged file might hold anywhere.
fn odd_values() -> Vec<Value> {
    let mut deep = json!(0);
    for _ in 0..300 {
        deep = json!([deep]);
    }
    vec![
        json!(-1),
        json!(0),
        json!(1),
        json!(2),
        json!(3),
        json!(99),
        json!(-99),
        json!(1u64 << 53),
        json!(u64::MAX),
        json!(u64::MAX - 1),
        json!(i64::MIN),
        json!(-0.5),
        json!(1e300),
        json!(""),
        json!("x"),
        json!("99"),
        json!("a".repeat(10_000)),
        json!("\u{1b}[2J\u{1b}[31mred"),
        json!("nul\u{0}byte"),
        json!("human"),
        json!("level:101"),
        Value::Null,
        json!(true),
        json!([]),
        json!({}),
        json!([0, 0, 0]),
        json!([u64::MAX, u64::MAX]),
        json!({"format": "tabula-matchbox-1", "game": "tictactoe", "boxes": []}),
        deep,
    ]
}

#[derive(Clone, Debug)]
enum Mutation {
    /// Put a value in place of the node.
    Replace(usize),
    /// Take the node out of its object or array.
    Remove,
    /// Add a key the format does not know (to the node or its parent object).
    Extra,
    /// Repeat an array's last item many times.
    Repeat,
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        6 => (0..odd_values().len()).prop_map(Mutation::Replace),
        2 => Just(Mutation::Remove),
        1 => Just(Mutation::Extra),
        1 => Just(Mutation::Repeat),
    ]
}

fn mutate(record: &MatchRecord, which: usize, how: &[Mutation]) -> Value {
    let mut v = serde_json::to_value(record).unwrap();
    for (n, how) in how.iter().enumerate() {
        let mut all = Vec::new();
        paths(&v, &mut Vec::new(), &mut all);
        let path = &all[(which + n * 7919) % all.len()];
        match how {
            Mutation::Replace(i) => *node(&mut v, path) = odd_values()[*i].clone(),
            Mutation::Remove => {
                if let Some((last, parent)) = path.split_last() {
                    match (node(&mut v, parent), last) {
                        (Value::Object(map), Step::Key(k)) => {
                            map.remove(k);
                        }
                        (Value::Array(items), Step::Index(i)) => {
                            items.remove(*i);
                        }
                        _ => {}
                    }
                }
            }
            Mutation::Extra => {
                if let Value::Object(map) = node(&mut v, path) {
                    map.insert("unexpected".into(), json!({"deep": [1, 2, 3]}));
                }
            }
            Mutation::Repeat => {
                if let Value::Array(items) = node(&mut v, path) {
                    if let Some(last) = items.last().cloned() {
                        let times = (MAX_REPEATED_NODES / nodes(&last)).min(30_000);
                        items.extend(std::iter::repeat(last).take(times));
                    }
                }
            }
        }
    }
    v
}

/// A refusal a user reads: words, bounded, nothing a terminal would act on.
fn clear(message: &str) -> Result<(), TestCaseError> {
    prop_assert!(!message.trim().is_empty(), "empty error");
    prop_assert!(
        message.chars().count() <= 1000,
        "a {} character error: {}…",
        message.len(),
        message.chars().take(200).collect::<String>()
    );
    prop_assert!(
        !message.chars().any(|c| c.is_control()),
        "control characters in the error {message:?}"
    );
    Ok(())
}

/// The mutated record, read as the command line and the server read it.
fn check(v: &Value) -> Result<(), TestCaseError> {
    let text = serde_json::to_string(v).unwrap();
    let record: MatchRecord = match serde_json::from_str(&text) {
        Ok(r) => r,
        Err(_) => return Ok(()),
    };
    let handle = match build(&record.game, &record.variant) {
        Ok(h) => h,
        Err(e) => return clear(&e.to_string()),
    };
    let mut m = match handle.resume(&record) {
        Ok(m) => m,
        Err(e) => return clear(&e.to_string()),
    };
    // Accepted: the match works, and what it saves replays.
    let view = m.view();
    prop_assert_eq!(view.tally.wins.len(), view.seats.len());
    let again = handle.resume(&m.record());
    prop_assert!(
        again.is_ok(),
        "its own record is refused: {:?}",
        again.err()
    );
    m.undo();
    m.redo();
    m.undo();
    m.advance()
        .map_err(|e| TestCaseError::fail(e.to_string()))
        .ok();
    let _ = m.hint();
    m.view();
    m.new_game();
    m.view();
    Ok(())
}

fn config() -> Config {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|c| c.parse().ok())
        .unwrap_or(256);
    Config {
        cases,
        failure_persistence: None,
        ..Config::default()
    }
}

#[test]
fn mutated_records_are_refused_clearly_or_replay() {
    let records = valid_records();
    let strategy = (
        0..records.len(),
        any::<usize>(),
        prop::collection::vec(mutation(), 1..=3),
    );
    let mut runner = TestRunner::new(config());
    if let Err(e) = runner.run(&strategy, |(base, which, how)| {
        if std::env::var_os("TRACE_RECORDS").is_some() {
            eprintln!("start {base} {which} {how:?}");
        }
        let t = std::time::Instant::now();
        let r = check(&mutate(&records[base], which, &how));
        if std::env::var_os("TRACE_RECORDS").is_some() {
            eprintln!("case {base} {which} {how:?} {:?}", t.elapsed());
        }
        r
    }) {
        panic!("{e}");
    }
}

/// Each field of a record, set out of range, gives a message naming it.
fn refused(record: &MatchRecord, what: &str) -> String {
    let handle = build(&record.game, &record.variant).unwrap();
    match handle.resume(record) {
        Ok(_) => panic!("{what}: a record with it replays"),
        Err(e) => {
            assert!(matches!(e, EngineError::Replay(_)), "{what}: {e}");
            e.to_string()
        }
    }
}

#[test]
fn a_resigned_seat_out_of_range_is_refused_not_a_panic() {
    let mut record = valid_records().swap_remove(1);
    for seat in [2, 99, usize::MAX] {
        record.resigned = Some(seat);
        let e = refused(&record, "resigned");
        assert!(e.contains("resigned") && e.contains("2 player"), "{e}");
    }
}

#[test]
fn a_game_every_player_resigned_replays_and_a_forged_one_is_refused() {
    let mut m = start("tictactoe", "", &["human", "human"]);
    play_first(m.as_mut(), 1);
    m.resign().unwrap();
    m.resign().unwrap();
    let record = m.record();
    let back = build("tictactoe", "").unwrap().resume(&record).unwrap();
    assert_eq!(back.view().result, m.view().result);
    assert!(
        back.view().result.unwrap().contains("so the Cat wins"),
        "the Cat's game comes back"
    );
    assert_eq!(back.record().tally.cat, 1);
    // Every player resigned, yet no one did: refused.
    let mut forged = record.clone();
    forged.resigned = None;
    let e = refused(&forged, "all resigned without a resignation");
    assert!(e.contains("every player resigned"), "{e}");
}

#[test]
fn each_out_of_range_field_is_named() {
    let base = valid_records();
    let ttt = &base[0];
    let mut r = ttt.clone();
    r.tally.wins = vec![1, 1, 1];
    r.tally.games = 3;
    assert!(refused(&r, "three tallies").contains("scores"));

    let mut r = ttt.clone();
    r.tally.games = u64::MAX;
    r.tally.cat = u64::MAX;
    r.tally.wins = vec![0, 0];
    assert!(refused(&r, "huge tally").contains("scores"));

    let mut r = ttt.clone();
    r.tally.wins = vec![u64::MAX, 1];
    assert!(refused(&r, "overflowing tally").contains("scores"));

    let mut r = ttt.clone();
    r.learned = vec![None, None, None];
    assert!(refused(&r, "three learned").contains("learned"));

    let mut r = ttt.clone();
    r.learned.swap(0, 1);
    assert!(refused(&r, "learned for the human").contains("player 1"));

    let mut r = ttt.clone();
    r.moves[0].reason = Some("\u{1b}[2Jgotcha".into());
    assert!(refused(&r, "escape codes").contains("move 1"));

    let mut r = ttt.clone();
    r.moves[1].mv = "5".repeat(10_000);
    assert!(refused(&r, "a long move").contains("move 2"));

    let mut r = ttt.clone();
    r.current.as_mut().unwrap().seconds = Some(-3.0);
    assert!(refused(&r, "negative time").contains("time"));

    let mut r = base[4].clone();
    r.current.as_mut().unwrap().dealt_variant = Some("size=banana".into());
    assert!(refused(&r, "a bad dealt variant").contains("dealt"));

    // A resignation after the end of the game, or with dice to roll.
    let mut r = base[3].clone();
    r.resigned = Some(0);
    assert!(refused(&r, "resigned after the end").contains("resigned"));
}

#[test]
fn a_deep_value_repeated_stays_within_the_tests_own_bounds() {
    // Found by the fuzzing above: the 300-deep value put in a record, repeated
    // 30,000 times, then listed path by path, took more than 24 GB.
    let records = valid_records();
    let how = [
        Mutation::Replace(28),
        Mutation::Repeat,
        Mutation::Replace(1),
    ];
    let v = mutate(&records[1], 9653023844385562133, &how);
    assert!(nodes(&v) <= 2 * MAX_REPEATED_NODES, "{} nodes", nodes(&v));
    check(&v).unwrap();
}
