//! The 2006 blog's AI level mixes random moves with any computer player: the game's
//! own base (the one-ply look-ahead in Mu Torere and Kono, the perfect player
//! elsewhere) or one the user names.

use tabula_engine::{build, Match, MatchConfig};

fn computer_game(game: &str, players: [&str; 2], seed: u64) -> Box<dyn Match> {
    build(game, "")
        .unwrap()
        .new_match(MatchConfig {
            players: players.iter().map(|s| s.to_string()).collect(),
            seed,
            ..MatchConfig::default()
        })
        .unwrap()
}

/// The reasons the computer in seat 0 gave for its moves over a few games.
fn reasons(game: &str, player: &str, games: u64) -> Vec<String> {
    let mut out = Vec::new();
    for seed in 1..=games {
        let m = computer_game(game, [player, "random"], seed);
        out.extend(
            m.view()
                .log
                .iter()
                .filter(|e| e.seat == Some(0))
                .filter_map(|e| e.reason.clone()),
        );
    }
    assert!(!out.is_empty(), "{game} {player}: no computer moves");
    out
}

fn lookahead_reason(r: &str) -> bool {
    [
        "winning move",
        "safe move",
        "every move lets the opponent win",
    ]
    .iter()
    .any(|w| r.ends_with(w))
}

#[test]
fn mu_torere_and_kono_levels_mix_with_the_seeds_lookahead() {
    for game in ["mu-torere"] {
        for (player, level) in [
            ("level:100", 100),
            ("high", 95),
            ("medium", 66),
            ("low", 25),
        ] {
            let rs = reasons(game, player, 6);
            let prefix = format!("level {level}: ");
            assert!(
                rs.iter().all(|r| r.starts_with(&prefix)),
                "{player}: {rs:?}"
            );
            let strong: Vec<_> = rs
                .iter()
                .filter(|r| !r.ends_with("a random move"))
                .collect();
            assert!(!strong.is_empty(), "{player}: never the base player");
            assert!(
                strong.iter().all(|r| lookahead_reason(r)),
                "{game} {player}: {strong:?}"
            );
        }
        // Perfect is the fifth preset: the perfect player itself.
        let rs = reasons(game, "perfect", 3);
        assert!(rs.iter().all(|r| r.starts_with("perfect")), "{rs:?}");
    }
    let info = build("kono", "").unwrap().info();
    assert_eq!(info.level_base.as_deref(), Some("lookahead"));
    let info = build("mu-torere", "").unwrap().info();
    assert_eq!(info.level_base.as_deref(), Some("lookahead"));
    let names: Vec<_> = info.level_presets.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, ["off", "low", "medium", "high", "perfect"]);
}

#[test]
fn other_games_mix_with_the_perfect_player_unless_told() {
    let rs = reasons("tictactoe", "level:100", 4);
    assert!(
        rs.iter().all(|r| r.starts_with("level 100: perfect")),
        "{rs:?}"
    );
    assert_eq!(
        build("tictactoe", "").unwrap().info().level_base.as_deref(),
        Some("perfect")
    );
    for spec in ["level:100,base=lookahead", "lookahead:level=100"] {
        let rs = reasons("tictactoe", spec, 4);
        assert!(
            rs.iter()
                .all(|r| r.starts_with("level 100: ") && lookahead_reason(r)),
            "{spec}: {rs:?}"
        );
    }
    let rs = reasons("hexapawn", "alphabeta:depth=3,level=100", 3);
    assert!(
        rs.iter().all(|r| r.starts_with("level 100: ")
            && !r.contains("perfect")
            && !lookahead_reason(r)),
        "{rs:?}"
    );
    let rs = reasons("mu-torere", "perfect:level=100", 3);
    assert!(
        rs.iter().all(|r| r.starts_with("level 100: perfect")),
        "{rs:?}"
    );
    let rs = reasons("mu-torere", "high:base=perfect", 3);
    assert!(
        rs.iter()
            .all(|r| r.starts_with("level 95: perfect") || r == "level 95: a random move"),
        "{rs:?}"
    );
}

#[test]
fn level_zero_is_always_random_whatever_the_base() {
    for spec in ["off", "level:0,base=perfect", "lookahead:level=0"] {
        let rs = reasons("mu-torere", spec, 3);
        assert!(
            rs.iter().all(|r| r == "level 0: a random move"),
            "{spec}: {rs:?}"
        );
    }
}

#[test]
fn bad_level_specs_are_refused_with_words() {
    let g = build("tictactoe", "").unwrap();
    for bad in [
        "level:101",
        "level:x",
        "level:25,base=human",
        "level:25,base=random",
        "level:25,base=level",
        "level:25,base=nosuch",
        "low:base=high",
        "lookahead:level=200",
        "level:25,colour=red",
    ] {
        let e = g
            .new_match(MatchConfig {
                players: vec![bad.into(), "human".into()],
                seed: 1,
                ..MatchConfig::default()
            })
            .err()
            .unwrap_or_else(|| panic!("{bad} accepted"));
        assert!(!e.to_string().is_empty(), "{bad}");
    }
}

/// The prescribed opponent is the built game's, so it follows the variant:
/// Gardner's matchbox machine is Hexapawn's on his 3x3 board only.
#[test]
fn the_default_opponent_follows_the_variant() {
    let usual = build("hexapawn", "").unwrap().info();
    assert_eq!(usual.default_opponent, "matchbox");
    for variant in ["columns=4", "rows=4", "columns=5,rows=5"] {
        let info = build("hexapawn", variant).unwrap().info();
        assert_ne!(info.default_opponent, "matchbox", "{variant}");
        assert!(
            info.players
                .iter()
                .any(|p| p.name == info.default_opponent
                    || info.default_opponent.starts_with("level")),
            "{variant}: {} is not offered",
            info.default_opponent
        );
    }
}
