//! Fuzzing every parser a user's text reaches, for every registered game: variants,
//! positions, moves (each game's notation), player names and their options, SameGame
//! boards, memory sizes and CGT sums. Arbitrary text and structured mutations of
//! valid text; asserted: no panic, a clear error (plain words, bounded), and
//! parse → print → parse stable wherever a printer exists.
//!
//! Fast by default (256 cases per property, about a second in all). To fuzz
//! longer: `PROPTEST_CASES=5000 cargo test --release -p tabula-engine --test engine fuzz::`.

use proptest::prelude::*;
use proptest::test_runner::{Config, TestCaseError, TestRunner};
use rand::Rng as _;
use tabula_core::{GameExt, Registered, Turn, Variant};
use tabula_engine::{build, parse_player_spec, MatchConfig};

/// Cases per property: `PROPTEST_CASES`, else 256.
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

fn run<S: Strategy>(name: &str, strategy: S, test: impl Fn(S::Value) -> Result<(), TestCaseError>)
where
    S::Value: std::fmt::Debug,
{
    let config = config();
    let calls = std::cell::Cell::new(0u32);
    let mut runner = TestRunner::new(config.clone());
    if let Err(e) = runner.run(&strategy, |v| {
        calls.set(calls.get() + 1);
        test(v)
    }) {
        panic!("{name}: {e}");
    }
    assert!(
        calls.get() >= config.cases,
        "{name}: {} cases run",
        calls.get()
    );
}

/// An error a user reads: words, not debug output, not empty, bounded.
fn clear(what: &str, input: &str, message: &str) -> Result<(), TestCaseError> {
    prop_assert!(!message.trim().is_empty(), "{what} {input:?}: empty error");
    prop_assert!(
        message.chars().count() <= 400 + 2 * input.chars().count(),
        "{what} {input:?}: a {} character error",
        message.len()
    );
    for noise in ["panicked", "ParseError", "Some(", "Err(", "Ok(", "unwrap"] {
        prop_assert!(
            !message.contains(noise),
            "{what} {input:?}: error reads like code: {message}"
        );
    }
    Ok(())
}

/// Arbitrary text: any printable characters, or the characters notations use.
fn text() -> impl Strategy<Value = String> {
    prop_oneof![
        "\\PC{0,40}",
        "[0-9a-zA-Z .,/:;=*+xX#|_-]{0,40}",
        "[0-9 ,/.-]{0,30}",
    ]
}

/// One edit of a valid text: insert, delete or replace a character, or cut it.
#[derive(Clone, Debug)]
enum Edit {
    Insert(usize, char),
    Delete(usize),
    Replace(usize, char),
    Truncate(usize),
    Duplicate,
}

fn edit_char() -> impl Strategy<Value = char> {
    prop_oneof![
        prop::sample::select(
            "0123456789 .,/:;=*+-xXoO#|\n\tabcdefghz"
                .chars()
                .collect::<Vec<_>>()
        ),
        any::<char>(),
    ]
}

fn edits() -> impl Strategy<Value = Vec<Edit>> {
    prop::collection::vec(
        prop_oneof![
            (any::<usize>(), edit_char()).prop_map(|(i, c)| Edit::Insert(i, c)),
            any::<usize>().prop_map(Edit::Delete),
            (any::<usize>(), edit_char()).prop_map(|(i, c)| Edit::Replace(i, c)),
            any::<usize>().prop_map(Edit::Truncate),
            Just(Edit::Duplicate),
        ],
        1..4,
    )
}

fn mutate(valid: &str, edits: &[Edit]) -> String {
    let mut chars: Vec<char> = valid.chars().collect();
    for e in edits {
        let at = |i: usize, len: usize| if len == 0 { 0 } else { i % len };
        match *e {
            Edit::Insert(i, c) => {
                let i = at(i, chars.len() + 1);
                chars.insert(i, c);
            }
            Edit::Delete(i) if !chars.is_empty() => {
                let i = at(i, chars.len());
                chars.remove(i);
            }
            Edit::Replace(i, c) if !chars.is_empty() => {
                let i = at(i, chars.len());
                chars[i] = c;
            }
            Edit::Truncate(i) => {
                let i = at(i, chars.len() + 1);
                chars.truncate(i);
            }
            Edit::Duplicate if chars.len() < 2000 => {
                let copy = chars.clone();
                chars.extend(copy);
            }
            _ => {}
        }
    }
    chars.into_iter().collect()
}

/// Values a variant option might be given: the default, numbers at and beyond
/// every limit, sizes, words, nonsense.
fn option_value(default: &'static str) -> impl Strategy<Value = String> {
    prop_oneof![
        Just(default.to_string()),
        prop::sample::select(vec![
            "0",
            "1",
            "2",
            "3",
            "4",
            "5",
            "7",
            "9",
            "10",
            "16",
            "30",
            "31",
            "32",
            "64",
            "100",
            "101",
            "128",
            "129",
            "255",
            "256",
            "257",
            "1000",
            "1001",
            "10000",
            "10001",
            "65535",
            "65536",
            "4294967296",
            "99999999999999999999999",
            "-1",
            "-0",
            "+3",
            "1.5",
            "0x0",
            "1x1",
            "2x1",
            "3x3",
            "7x4",
            "16x4",
            "30x30",
            "31x31",
            "100x100",
            "128x32",
            "129x32",
            "128x33",
            "x",
            "3x",
            "x3",
            "3xx3",
            "3-4-5",
            "1-1",
            "65535-65535-65535",
            "0-0",
            "3--4",
            "on",
            "off",
            "yes",
            "no",
            "true",
            "o",
            "x",
            "standard",
            "torus",
            "plane",
            "menace",
            "gamesman",
            "misere",
            "normal",
            "%",
            "\u{0}",
            "é",
        ])
        .prop_map(str::to_string),
        "[0-9]{1,6}",
        "[0-9]{1,3}x[0-9]{1,3}",
        "[0-9]{1,5}(-[0-9]{1,5}){0,6}",
        "[a-z]{1,8}",
        (Just(default), edits()).prop_map(|(d, e)| mutate(d, &e)),
    ]
}

/// A variant text: some of the game's options (and now and then an unknown one)
/// with values from [`option_value`], or arbitrary text.
fn variant_text<G: Registered>() -> BoxedStrategy<String> {
    let options = G::options();
    if options.is_empty() {
        return prop_oneof![text(), "[a-z]{1,6}=[0-9]{1,4}"].boxed();
    }
    let item = prop::sample::select(options)
        .prop_flat_map(|o| (Just(o.name), option_value(o.default)))
        .prop_map(|(k, v)| format!("{k}={v}"));
    prop_oneof![
        4 => prop::collection::vec(item, 0..4).prop_map(|items| items.join(",")),
        1 => text(),
        1 => "[a-z]{1,8}(=[a-z0-9]{0,5})?",
    ]
    .boxed()
}

/// Variants: never a panic; an accepted variant prints as a variant that builds
/// the same game; a refused one says why in words.
fn fuzz_variants<G: Registered>() {
    run(
        &format!("{} variants", G::NAME),
        (variant_text::<G>(), any::<u64>()),
        |(text, seed)| {
            let parsed = match Variant::parse(&text) {
                Ok(v) => v,
                Err(e) => return clear("variant", &text, &e.to_string()),
            };
            // Display → parse is the identity on parsed variants.
            prop_assert_eq!(
                Variant::parse(&parsed.to_string()).ok(),
                Some(parsed.clone())
            );
            // Through the registry (unknown options checked there too).
            if let Err(e) = build(G::NAME, &text) {
                clear("variant", &text, &e.to_string())?;
            }
            match G::from_variant(&parsed) {
                Err(e) => clear("variant", &text, &e.to_string())?,
                Ok(game) => {
                    let normal = game.variant();
                    let again = G::from_variant(&normal).map_err(|e| {
                        TestCaseError::fail(format!("{text:?} → {normal}: refused: {e}"))
                    })?;
                    prop_assert_eq!(again.variant(), normal.clone(), "{:?}", text);
                    if game.play_limit().is_none() {
                        // A playable variant has a start that prints and reads back.
                        let start = game.initial_state();
                        let printed = game.format_position(&start);
                        let back = game.parse_position(&printed).map_err(|e| {
                            TestCaseError::fail(format!("{normal}: start {printed:?}: {e}"))
                        })?;
                        prop_assert_eq!(game.format_position(&back), printed);
                        walk(&game, start, seed)?;
                    }
                }
            }
            Ok(())
        },
    );
}

/// A short random game in a fuzzed variant: each move's text reads back to a
/// legal move, each position prints and reads back to itself.
fn walk<G: Registered>(game: &G, mut state: G::State, seed: u64) -> Result<(), TestCaseError> {
    let mut rng = tabula_core::rng_from_seed(seed);
    for _ in 0..12 {
        if matches!(game.turn(&state), Turn::Over(_)) {
            break;
        }
        let moves = game.moves(&state);
        if moves.is_empty() {
            break;
        }
        let mv = moves[rng.gen_range(0..moves.len())];
        if let Turn::Move(_) = game.turn(&state) {
            let written = game.format_move(&state, mv);
            let read = game.parse_move(&state, &written).map_err(|e| {
                TestCaseError::fail(format!("legal move {written:?} does not read back: {e}"))
            })?;
            game.try_play(&mut state.clone(), read).map_err(|e| {
                TestCaseError::fail(format!("{written:?} read back as an illegal move: {e}"))
            })?;
        }
        game.play_unchecked(&mut state, mv);
        let printed = game.format_position(&state);
        let back = game
            .parse_position(&printed)
            .map_err(|e| TestCaseError::fail(format!("{printed:?} does not read back: {e}")))?;
        prop_assert_eq!(game.format_position(&back), printed);
    }
    Ok(())
}

/// A position reached by `plies` random moves (chance included) from the start.
fn reached<G: Registered>(game: &G, seed: u64, plies: usize) -> G::State {
    let mut rng = tabula_core::rng_from_seed(seed);
    let mut state = game.initial_state();
    for _ in 0..plies {
        if matches!(game.turn(&state), Turn::Over(_)) {
            break;
        }
        let moves = game.moves(&state);
        if moves.is_empty() {
            break;
        }
        let mv = moves[rng.gen_range(0..moves.len())];
        game.play_unchecked(&mut state, mv);
    }
    state
}

/// Everything a front end does with a position a user typed: none may panic.
fn use_position<G: Registered>(game: &G, state: &G::State) {
    let turn = game.turn(state);
    let mut moves = Vec::new();
    game.legal_moves(state, &mut moves);
    let _ = game.view(state);
    let _ = game.render_text(state);
    let _ = game.score(state);
    if let Turn::Move(_) = turn {
        for &mv in moves.iter().take(50) {
            let _ = game.format_move(state, mv);
            let mut next = state.clone();
            game.play_unchecked(&mut next, mv);
            let _ = game.turn(&next);
        }
    }
}

/// Positions: printed positions read back to themselves; mutated and arbitrary
/// ones either read (and then print stably and can be played from) or are refused
/// in words.
fn fuzz_positions<G: Registered>(game: G) {
    let name = format!("{} {} positions", G::NAME, game.variant());
    let g = &game;
    run(
        &name,
        (any::<u64>(), 0usize..80, edits(), text(), any::<bool>()),
        |(seed, plies, edits, junk, use_junk)| {
            let state = reached(g, seed, plies);
            let printed = g.format_position(&state);
            let back = g
                .parse_position(&printed)
                .map_err(|e| TestCaseError::fail(format!("{printed:?} does not read back: {e}")))?;
            prop_assert_eq!(g.format_position(&back), printed.clone());
            let input = if use_junk {
                junk
            } else {
                mutate(&printed, &edits)
            };
            match g.parse_position(&input) {
                Err(e) => clear("position", &input, &e.message)?,
                Ok(s) => {
                    let p = g.format_position(&s);
                    let s2 = g.parse_position(&p).map_err(|e| {
                        TestCaseError::fail(format!("{input:?} read, printed {p:?}: refused: {e}"))
                    })?;
                    prop_assert_eq!(g.format_position(&s2), p, "from {:?}", input);
                    use_position(g, &s);
                }
            }
            Ok(())
        },
    );
}

/// Moves: every legal move's text reads back to a move with the same effect;
/// mutated and arbitrary move texts are read or refused, never a panic, and a move
/// that reads is legal or refused by `try_play`.
fn fuzz_moves<G: Registered>(game: G) {
    let name = format!("{} {} moves", G::NAME, game.variant());
    let g = &game;
    run(
        &name,
        (any::<u64>(), 0usize..60, edits(), text(), any::<bool>()),
        |(seed, plies, edits, junk, use_junk)| {
            let state = reached(g, seed, plies);
            if !matches!(g.turn(&state), Turn::Move(_)) {
                return Ok(());
            }
            let moves = g.moves(&state);
            for &mv in &moves {
                let written = g.format_move(&state, mv);
                let read = g.parse_move(&state, &written).map_err(|e| {
                    TestCaseError::fail(format!("legal move {written:?} does not read back: {e}"))
                })?;
                let (mut a, mut b) = (state.clone(), state.clone());
                g.play_unchecked(&mut a, mv);
                g.try_play(&mut b, read).map_err(|e| {
                    TestCaseError::fail(format!("{written:?} read back as an illegal move: {e}"))
                })?;
                prop_assert_eq!(
                    g.format_position(&a),
                    g.format_position(&b),
                    "{:?}",
                    written
                );
            }
            let input = match (use_junk, moves.first()) {
                (false, Some(&mv)) => mutate(&g.format_move(&state, mv), &edits),
                _ => junk,
            };
            match g.parse_move(&state, &input) {
                Err(e) => clear("move", &input, &e.message)?,
                Ok(mv) => {
                    let mut s = state.clone();
                    if let Err(e) = g.try_play(&mut s, mv) {
                        clear("move", &input, &e.to_string())?;
                    }
                }
            }
            Ok(())
        },
    );
}

fn fuzz_game<G: Registered>(variants: &[&str]) {
    fuzz_variants::<G>();
    for v in variants {
        let game = G::from_variant(&Variant::parse(v).unwrap())
            .unwrap_or_else(|e| panic!("{} {v}: {e}", G::NAME));
        fuzz_positions(game.clone());
        fuzz_moves(game);
    }
}

#[test]
fn tictactoe() {
    fuzz_game::<tabula_tictactoe::TicTacToe>(&[""]);
}

#[test]
fn hexapawn() {
    fuzz_game::<tabula_hexapawn::Hexapawn>(&["", "columns=4,rows=5,capture=compulsory"]);
}

#[test]
fn kono() {
    fuzz_game::<tabula_kono::Kono>(&[""]);
}

#[test]
fn mutorere() {
    fuzz_game::<tabula_mutorere::MuTorere>(&[""]);
}

#[test]
fn nim() {
    fuzz_game::<tabula_nim::Nim>(&["", "heaps=1-2-30"]);
}

#[test]
fn northcott() {
    fuzz_game::<tabula_northcott::Northcott>(&["", "size=5x2"]);
}

#[test]
fn auto120() {
    fuzz_game::<tabula_auto120::Auto120>(&[""]);
}

#[test]
fn samegame() {
    fuzz_game::<tabula_samegame::SameGame>(&["", "size=5x5,colours=3,seed=4"]);
}

#[test]
fn poggle() {
    fuzz_game::<tabula_poggle::Poggle>(&["", "size=3,colours=3"]);
}

/// SameGame board files: printed boards read back; mutated and arbitrary ones are
/// read or refused in words; the literature-boards reader never panics.
#[test]
fn samegame_boards() {
    use tabula_samegame::{format_board, parse_board};
    let game = tabula_samegame::SameGame::from_variant(
        &Variant::parse("size=8x6,colours=4,seed=9").unwrap(),
    )
    .unwrap();
    let g = &game;
    run(
        "samegame boards",
        (any::<u64>(), 0usize..30, edits(), text(), any::<bool>()),
        |(seed, plies, edits, junk, use_junk)| {
            let board = reached(g, seed, plies);
            let printed = format_board(&board);
            let back = parse_board(&printed)
                .map_err(|e| TestCaseError::fail(format!("{printed:?}: {e}")))?;
            prop_assert_eq!(format_board(&back), printed.clone());
            let input = if use_junk {
                junk
            } else {
                mutate(&printed, &edits)
            };
            match parse_board(&input) {
                Err(e) => clear("board", &input, &e.message)?,
                Ok(b) => {
                    let p = format_board(&b);
                    let again = parse_board(&p)
                        .map_err(|e| TestCaseError::fail(format!("{input:?} → {p:?}: {e}")))?;
                    prop_assert_eq!(format_board(&again), p);
                }
            }
            let _ = tabula_samegame::standard::parse_literature_boards(&input);
            Ok(())
        },
    );
}

/// Player names and options (`alphabeta:ms=..,depth=..`, `matchbox:...`,
/// `level:66`, presets), structured and arbitrary: they parse, print back, and a
/// match seating them starts or is refused in words (the fuzzed seat moves second,
/// so nothing thinks here).
#[test]
fn player_specs() {
    let kinds = vec![
        "human",
        "random",
        "perfect",
        "level",
        "lookahead",
        "alphabeta",
        "expectimax",
        "matchbox",
        "menace",
        "nim",
        "search",
        "solver",
        "scenario",
        "off",
        "low",
        "medium",
        "high",
        "grundy",
        "HUMAN",
        "",
        "bogus",
    ];
    let option = prop_oneof![
        prop::sample::select(vec![
            "depth", "ms", "level", "base", "mode", "symmetry", "seconds", "reward", "punish",
            "draw", "initial", "beads", "menace", "x",
        ])
        .prop_flat_map(|k| (Just(k), option_value("1")))
        .prop_map(|(k, v)| format!("{k}={v}")),
        "[0-9]{1,6}",
        text(),
    ];
    let spec = (
        prop::sample::select(kinds),
        prop::collection::vec(option, 0..4),
        any::<bool>(),
    )
        .prop_map(|(k, opts, colon)| {
            if opts.is_empty() && !colon {
                k.to_string()
            } else {
                format!("{k}:{}", opts.join(","))
            }
        });
    let games = [
        "tictactoe",
        "nim",
        "northcott",
        "hexapawn",
        "mu-torere",
        "kono",
    ];
    run(
        "player specs",
        (
            prop_oneof![3 => spec, 1 => text()],
            prop::sample::select(games.to_vec()),
            any::<u64>(),
        ),
        |(text, game, seed)| {
            match parse_player_spec(&text) {
                Err(e) => return clear("player", &text, &e.to_string()),
                Ok(p) => {
                    prop_assert_eq!(parse_player_spec(&p.to_text()).ok(), Some(p.clone()));
                }
            }
            let handle = build(game, "").unwrap();
            let config = MatchConfig {
                players: vec!["human".into(), text.clone()],
                seed,
                ..MatchConfig::default()
            };
            if let Err(e) = handle.new_match(config) {
                clear("player", &text, &e.to_string())?;
            }
            Ok(())
        },
    );
    // The option readers on their own.
    run("player option readers", text(), |t| {
        for r in [
            tabula_ai::alphabeta::SearchLimits::parse(&t).map(|_| ()),
            tabula_ai::matchbox::MatchboxOptions::parse(&t).map(|_| ()),
            tabula_ai::train::Opponent::parse(&t).map(|_| ()),
        ] {
            if let Err(e) = r {
                clear("player options", &t, &e)?;
            }
        }
        Ok(())
    });
}

/// Memory sizes (`--max-memory`): never a panic; whole sizes read exactly.
#[test]
fn memory_sizes() {
    run(
        "memory sizes",
        prop_oneof![
            text(),
            (
                "[0-9]{1,25}(\\.[0-9]{0,4})?",
                prop::sample::select(vec!["", "k", "M", "GiB", "tb", "x", " G"])
            )
                .prop_map(|(n, u)| format!("{n}{u}")),
        ],
        |t| {
            if let Err(e) = tabula_core::parse_bytes(&t) {
                clear("memory size", &t, &e)?;
            }
            Ok(())
        },
    );
    run(
        "whole memory sizes",
        (0u64..1 << 20, 0usize..4),
        |(n, u)| {
            let (unit, scale) = [("", 1u64), ("K", 1 << 10), ("M", 1 << 20), ("G", 1 << 30)][u];
            prop_assert_eq!(
                tabula_core::parse_bytes(&format!("{n}{unit}")),
                Ok(n * scale)
            );
            Ok(())
        },
    );
}

/// CGT sums (`tabula cgt`): structured sums of integers and nimbers read, print
/// and read back to the same value; mutated ones are read or refused in words.
#[test]
fn cgt_expressions() {
    use tabula_nim::cgt::evaluate;
    let term = prop_oneof![
        (0u64..1000).prop_map(|n| n.to_string()),
        (0u64..1000).prop_map(|n| format!("{n}*")),
        (0u64..1000).prop_map(|n| format!("*{n}")),
        Just("*".to_string()),
        Just("99999999999999999999".to_string()),
        Just("*99999999999999999999".to_string()),
    ];
    let sum = (
        term.clone(),
        prop::collection::vec(
            (
                prop::sample::select(vec![" + ", " - ", "+", "-", " +- "]),
                term,
            ),
            0..6,
        ),
    )
        .prop_map(|(first, rest)| {
            let mut s = first;
            for (op, t) in rest {
                s.push_str(op);
                s.push_str(&t);
            }
            s
        });
    run(
        "cgt sums",
        (sum, edits(), any::<bool>()),
        |(expr, edits, mutated)| {
            let input = if mutated { mutate(&expr, &edits) } else { expr };
            match evaluate(&input) {
                Err(e) => clear("cgt", &input, &e.message)?,
                Ok(v) => {
                    let again = evaluate(&v.to_string())
                        .map_err(|e| TestCaseError::fail(format!("{input:?} = {v}: {e}")))?;
                    prop_assert_eq!(again, v);
                }
            }
            Ok(())
        },
    );
}

/// A huge input is refused with an error a person can read: it may quote the
/// input, but not all of it.
#[test]
fn errors_of_huge_inputs_stay_short() {
    let huge = "12345 x/y,z=".repeat(1000);
    let mut errors: Vec<(&str, String)> = Vec::new();
    if let Err(e) = Variant::parse(&huge) {
        errors.push(("variant", e.to_string()));
    }
    for entry in tabula_engine::registry() {
        if let Err(e) = build(entry.name, &format!("size={huge}")) {
            errors.push(("variant value", e.to_string()));
        }
        let handle = build(entry.name, "").unwrap();
        let config = MatchConfig {
            position: Some(huge.clone()),
            ..MatchConfig::default()
        };
        if let Err(e) = handle.new_match(config) {
            errors.push(("position", e.to_string()));
        }
        let mut m = handle.new_match(MatchConfig::default()).unwrap();
        if let Err(e) = m.play(&huge) {
            errors.push(("move", e.to_string()));
        }
    }
    if let Err(e) = parse_player_spec(&format!("alphabeta:{huge}")) {
        errors.push(("player", e.to_string()));
    }
    let handle = build("tictactoe", "").unwrap();
    let config = MatchConfig {
        players: vec!["human".into(), format!("alphabeta:{}", &huge[..150])],
        ..MatchConfig::default()
    };
    if let Err(e) = handle.new_match(config) {
        errors.push(("player options", e.to_string()));
    }
    if let Err(e) = tabula_nim::cgt::evaluate(&huge) {
        errors.push(("cgt", e.message));
    }
    if let Err(e) = tabula_core::parse_bytes(&huge) {
        errors.push(("memory size", e));
    }
    if let Err(e) = tabula_samegame::parse_board(&huge) {
        errors.push(("board", e.message));
    }
    assert!(errors.len() > 20, "{errors:?}");
    let long: Vec<String> = errors
        .iter()
        .filter(|(_, e)| e.chars().count() > 600)
        .map(|(what, e)| format!("{what}: {} chars: {}…", e.chars().count(), &e[..120]))
        .collect();
    assert!(
        long.is_empty(),
        "errors quoting a whole 12,000-character input:\n{}",
        long.join("\n")
    );
}
