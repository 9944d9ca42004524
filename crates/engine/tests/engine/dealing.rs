//! The Same Game tutorial's New: a SameGame variant without `seed` deals a fresh random board for
//! every new game; the dealt board replays from the record, and the dealt variant
//! (with its seed) restarts it. The time a game takes is kept in the record.

use tabula_engine::{build, Match, MatchConfig};

fn samegame(variant: &str, seed: u64) -> Box<dyn Match> {
    build("samegame", variant)
        .unwrap()
        .new_match(MatchConfig {
            players: vec!["human".into()],
            seed,
            ..MatchConfig::default()
        })
        .unwrap()
}

#[test]
fn new_deals_a_fresh_board_and_restart_replays_it() {
    let a = samegame("", 1);
    let b = samegame("", 2);
    assert_ne!(
        a.view().position,
        b.view().position,
        "each match deals its own board"
    );
    let mut m = samegame("size=8x6,colours=3", 3);
    let first = m.view().position;
    let dealt = m.view().dealt_variant.expect("a dealt variant");
    assert!(dealt.contains("seed="), "{dealt}");
    assert!(
        !m.view().variant.contains("seed="),
        "the base variant pins nothing"
    );
    // Restart / a shared link: the dealt variant builds the same board.
    let again = build("samegame", &dealt)
        .unwrap()
        .new_match(MatchConfig {
            players: vec!["human".into()],
            seed: 99,
            ..MatchConfig::default()
        })
        .unwrap();
    assert_eq!(again.view().position, first);
    assert_eq!(
        again.view().dealt_variant,
        None,
        "a pinned seed deals nothing"
    );
    // The record replays the dealt board exactly, moves included.
    let mv = m.view().legal_moves[0].mv.clone();
    m.play(&mv).unwrap();
    let record = m.record();
    let replayed = build("samegame", &record.variant)
        .unwrap()
        .resume(&record)
        .unwrap();
    assert_eq!(replayed.view().position, m.view().position);
    assert_eq!(
        replayed.view().dealt_variant.as_deref(),
        Some(dealt.as_str())
    );
    // New: another board (the Same Game tutorial's OnNewDocument sets the board up afresh).
    m.new_game();
    let second = m.view().position;
    assert_ne!(second, first);
    assert_ne!(m.view().dealt_variant.as_deref(), Some(dealt.as_str()));
    // A resumed match deals afresh too.
    let mut replayed = replayed;
    replayed.new_game();
    assert_ne!(replayed.view().position, first);
}

#[test]
fn a_pinned_seed_gives_the_same_board_on_new() {
    let mut m = samegame("seed=5", 1);
    let first = m.view().position;
    assert_eq!(m.view().dealt_variant, None);
    m.new_game();
    assert_eq!(m.view().position, first);
    assert_eq!(samegame("seed=5", 2).view().position, first);
}

#[test]
fn the_time_a_game_takes_is_kept_in_the_record() {
    let m = build("tictactoe", "")
        .unwrap()
        .new_match(MatchConfig {
            players: vec!["random".into(), "random".into()],
            seed: 3,
            ..MatchConfig::default()
        })
        .unwrap();
    assert!(
        m.view().outcome.is_some(),
        "computer against computer plays to the end"
    );
    let record = m.record();
    let current = record.current.clone().expect("a clock");
    let seconds = current.seconds.expect("a finished game has its time");
    assert!((0.0..60.0).contains(&seconds), "{seconds}");
    assert_eq!(m.view().seconds, seconds);
    let json = serde_json::to_value(&record).unwrap();
    assert!(json["current"]["started_ms"].as_u64().unwrap() > 0);
    let replayed = build("tictactoe", "").unwrap().resume(&record).unwrap();
    assert_eq!(replayed.record().current.unwrap().seconds, Some(seconds));
    let mut again = replayed;
    again.new_game();
    assert_eq!(
        again.record().current.unwrap().seconds,
        None,
        "a new game starts its clock"
    );
}
