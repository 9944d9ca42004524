//! Whether a player may make the computer think (build or read a table, or
//! search) before its move: the server runs only those under a thinking slot,
//! and asks the game ([`DynGame::player_may_think`]) instead of knowing
//! players by name.

use tabula_engine::{build, registry, DynGame};

#[test]
fn a_person_the_random_player_and_unknown_names_never_think() {
    for entry in registry() {
        let game = build(entry.name, "").unwrap();
        for player in ["human", "random", "no-such-player"] {
            assert!(
                !game.player_may_think(player),
                "{}: {player} thinks",
                entry.name
            );
        }
    }
}

#[test]
fn searching_players_and_levels_may_think() {
    let game = build("tictactoe", "").unwrap();
    for player in [
        "alphabeta",
        "alphabeta:depth=3",
        "lookahead",
        "level:66",
        "medium",
    ] {
        assert!(game.player_may_think(player), "{player}");
    }
}

#[test]
fn a_perfect_player_by_a_rule_that_keeps_no_table_does_not_think() {
    // Nim's perfect player is the nim-sum rule: nothing to build or read (too
    // many positions for the engine to solve again from a custom start).
    let nim = build("nim", "heaps=200-300-400").unwrap();
    assert!(nim.info().exact);
    assert!(!nim.player_may_think("perfect"));
    assert!(nim.player_may_think("alphabeta"));
}

/// A perfect player thinks until the game's table is built, and not after.
fn perfect_thinks_until_its_table_is_ready(game: &dyn DynGame) {
    assert_eq!(game.memory_bytes(), 0, "the table is not built yet");
    assert!(game.player_may_think("perfect"));
    assert!(game.prepare(&|_| {}));
    assert!(!game.player_may_think("perfect"));
    assert!(
        game.player_may_think("level:66"),
        "a level mixes in moves it may search for"
    );
}

/// In an engine of its own: another test may have built the process's table.
#[test]
fn a_perfect_player_thinks_only_until_its_table_is_ready() {
    let engine = crate::own_engine(tabula_core::DEFAULT_MAX_MEMORY);
    perfect_thinks_until_its_table_is_ready(&*engine.build("tictactoe", "").unwrap());
}
