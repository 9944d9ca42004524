//! Options a player does not take are refused in words, never ignored: a user
//! who typed `random:seed=-1` or `lookahead:depth=1e9` must learn that nothing
//! they asked for happens.

use tabula_engine::{build, EngineError, MatchConfig};

/// The words a match against `player` is refused with (panics if it starts).
fn refusal(game: &str, player: &str) -> String {
    let err = build(game, "")
        .unwrap()
        .new_match(MatchConfig {
            players: vec!["human".into(), player.into()],
            seed: 1,
            ..MatchConfig::default()
        })
        .err()
        .unwrap_or_else(|| panic!("{game}: {player} was accepted"));
    assert!(
        matches!(err, EngineError::Player { .. }),
        "{player}: {err:?}"
    );
    err.to_string()
}

#[test]
fn players_without_options_refuse_any_in_words() {
    for (player, words) in [
        ("random:seed=-1", "random takes no options"),
        ("random:foo", "random takes no options"),
        ("lookahead:depth=1e9", "lookahead takes no options"),
        ("lookahead:depth=2", "alphabeta:depth=N"),
        ("perfect:fast", "perfect takes no options"),
        ("perfect:level=50,x=1", "perfect takes no options"),
    ] {
        let said = refusal("tictactoe", player);
        assert!(said.contains(words), "{player}: {said}");
    }
}

#[test]
fn a_games_own_player_refuses_options_it_does_not_take() {
    for (game, player) in [("nim", "nim:fast"), ("northcott", "nim:depth=3")] {
        let said = refusal(game, player);
        assert!(
            said.contains("nim takes no options"),
            "{game} {player}: {said}"
        );
    }
    let poggle = build("poggle", "").unwrap().new_match(MatchConfig {
        players: vec!["solver:quick".into()],
        seed: 1,
        ..MatchConfig::default()
    });
    let said = poggle.err().expect("solver:quick was accepted").to_string();
    assert!(said.contains("solver takes no options"), "{said}");
}

/// Every player every registered game lists, given an option it does not have
/// and a value out of every range, is refused in a player's words: the option
/// named back, or that it takes none; never the reader's raw form.
#[test]
fn every_games_every_player_refuses_bad_options_in_words() {
    for entry in tabula_engine::registry() {
        let handle = build(entry.name, "").unwrap();
        for kind in handle.info().players {
            if kind.name == "human" {
                continue;
            }
            let seats = handle.info().seats.len();
            for options in ["nosuch=1", "nosuch", "=", "depth=-1,ms=0,level=101,at=0"] {
                let player = format!("{}:{options}", kind.name);
                let mut players = vec![player.clone()];
                players.resize(seats, "human".into());
                let err = handle
                    .new_match(MatchConfig {
                        players,
                        seed: 1,
                        ..MatchConfig::default()
                    })
                    .err()
                    .unwrap_or_else(|| panic!("{}: {player} was accepted", entry.name));
                let said = err.to_string();
                assert!(
                    matches!(err, EngineError::Player { .. }),
                    "{}: {player}: {said}",
                    entry.name
                );
                let plain = said.contains("takes no options")
                    || said.contains("has no option")
                    || said.contains(" must be ");
                assert!(
                    plain && !said.contains("bad value") && !said.contains("expected name=value"),
                    "{}: {player}: {said}",
                    entry.name
                );
            }
        }
    }
}

#[test]
fn the_same_players_without_options_still_play() {
    for player in [
        "random",
        "lookahead",
        "perfect",
        "perfect:level=50",
        "lookahead:level=25",
    ] {
        build("tictactoe", "")
            .unwrap()
            .new_match(MatchConfig {
                players: vec!["human".into(), player.into()],
                seed: 1,
                ..MatchConfig::default()
            })
            .unwrap_or_else(|e| panic!("{player}: {e}"));
    }
    build("nim", "")
        .unwrap()
        .new_match(MatchConfig {
            players: vec!["human".into(), "nim".into()],
            seed: 1,
            ..MatchConfig::default()
        })
        .unwrap();
}
