//! The stepping state ([`tabula_engine::DynState`]) against the typed games:
//! random playouts agree move by move, serialized states come back exactly, and
//! bad ids, texts and states are refused in words.

use rand::Rng as _;
use std::sync::Arc;
use tabula_core::{GameExt, Outcome, Registered, Turn, Variant, UNBOUNDED_GAME_PLIES};
use tabula_engine::{
    build, DynGame, DynState, Handle, StepState, CHANCE_PLAYER, MAX_GAME_PLIES, TERMINAL_PLAYER,
};

/// Every game type with the variants the Python package's tests name.
const CASES: [(&str, &str); 16] = [
    ("tictactoe", ""),
    ("tictactoe", "play=misere"),
    ("hexapawn", ""),
    ("hexapawn", "columns=4"),
    ("kono", ""),
    ("kono", "rules=gamesman"),
    ("mu-torere", ""),
    ("nim", ""),
    ("nim", "heaps=1-2-3,play=misere"),
    ("northcott", ""),
    ("pig", "goal=20,start=random"),
    ("auto120", "markers=1"),
    ("auto120", ""),
    ("poggle", "colours=3"),
    ("samegame", "size=5x5"),
    ("samegame", "size=6x4,colours=4,seed=3"),
];

/// Plays random games through a [`StepState`] and the typed game side by side.
fn agree<G: Registered>(variant: &str, seed: u64) -> Result<(), String> {
    let game = G::from_variant(&Variant::parse(variant).map_err(|e| e.to_string())?)
        .map_err(|e| e.to_string())?;
    let handle = Handle::new(game);
    let game = handle.game().clone();
    let facts = handle.facts();
    let mut rng = tabula_core::rng_from_seed(seed);
    for _ in 0..3 {
        let mut dynamic = StepState::new(handle.clone());
        let mut typed = game.initial_state();
        let mut rewards = 0.0;
        // Long games are followed for a while; the length cap has its own test.
        for ply in 0..1500usize {
            let name = format!("{} {variant} after {ply} plies", G::NAME);
            if dynamic.position() != game.format_position(&typed) {
                return Err(format!("{name}: the positions differ"));
            }
            let expected_player = match game.turn(&typed) {
                Turn::Move(s) => s as i32,
                Turn::Chance => CHANCE_PLAYER,
                Turn::Over(_) => TERMINAL_PLAYER,
            };
            if dynamic.current_player() != expected_player {
                return Err(format!("{name}: current player differs"));
            }
            let mut ids: Vec<usize> = game
                .moves(&typed)
                .into_iter()
                .map(|m| game.action_of(&typed, m))
                .collect();
            ids.sort_unstable();
            if dynamic.legal_actions() != ids {
                return Err(format!("{name}: legal actions differ"));
            }
            if dynamic.move_number() != ply || dynamic.history().len() != ply {
                return Err(format!("{name}: move number differs"));
            }
            let size: usize = facts.observation_shape.iter().product();
            if (0..facts.num_players).any(|s| dynamic.observation_tensor(s).len() != size) {
                return Err(format!("{name}: observation size"));
            }
            if ply < 10 || ply.is_power_of_two() {
                let text = dynamic.serialize();
                let back = handle
                    .deserialize_state(&text)
                    .map_err(|e| format!("{name}: does not deserialize: {e}"))?;
                if back.position() != dynamic.position()
                    || back.history() != dynamic.history()
                    || back.returns() != dynamic.returns()
                {
                    return Err(format!("{name}: the deserialized state differs"));
                }
            }
            if ply == 3 || ply == 40 {
                // A position given as text starts a history of its own, and
                // survives serialization with it.
                let mut from = handle
                    .state_from_position(&dynamic.position())
                    .map_err(|e| format!("{name}: its position is refused: {e}"))?;
                if let Some(&a) = from.legal_actions().first() {
                    from.apply_action(a).map_err(|e| format!("{name}: {e}"))?;
                }
                let back = handle
                    .deserialize_state(&from.serialize())
                    .map_err(|e| format!("{name}: from a position: {e}"))?;
                if back.position() != from.position() || back.history() != from.history() {
                    return Err(format!(
                        "{name}: a state from a position does not round-trip"
                    ));
                }
            }
            if dynamic.is_terminal() {
                break;
            }
            let action = if dynamic.is_chance_node() {
                let outcomes = dynamic.chance_outcomes();
                let total: f64 = outcomes.iter().map(|o| o.1).sum();
                if (total - 1.0).abs() > 1e-9
                    || outcomes.iter().map(|o| o.0).collect::<Vec<_>>() != ids
                {
                    return Err(format!("{name}: chance outcomes"));
                }
                outcomes[rng.gen_range(0..outcomes.len())].0
            } else {
                ids[rng.gen_range(0..ids.len())]
            };
            let text = dynamic
                .action_to_string(action)
                .map_err(|e| format!("{name}: {e}"))?;
            if dynamic.string_to_action(&text) != Ok(action) {
                return Err(format!("{name}: '{text}' does not map back to {action}"));
            }
            let mv = game
                .move_of(&typed, action)
                .ok_or_else(|| format!("{name}: no move {action}"))?;
            dynamic
                .apply_action(action)
                .map_err(|e| format!("{name}: {e}"))?;
            game.play_unchecked(&mut typed, mv);
            rewards += dynamic.rewards().iter().sum::<f64>();
        }
        let returns = dynamic.returns();
        match game.turn(&typed) {
            Turn::Over(Outcome::Win(w)) if facts.num_players == 2 => {
                if returns[w] != 1.0 || returns[1 - w] != -1.0 {
                    return Err(format!("{} {variant}: returns {returns:?}", G::NAME));
                }
            }
            _ if facts.num_players == 2 => {
                if returns != [0.0, 0.0] {
                    return Err(format!("{} {variant}: returns {returns:?}", G::NAME));
                }
            }
            _ => {
                if (returns[0] - rewards).abs() > 1e-9 {
                    return Err(format!(
                        "{} {variant}: rewards add up to {rewards}, returns {returns:?}",
                        G::NAME
                    ));
                }
                if let Some(points) = game.score(&typed) {
                    if returns[0] != points as f64 {
                        return Err(format!("{} {variant}: returns {returns:?}", G::NAME));
                    }
                }
            }
        }
        if returns
            .iter()
            .any(|&r| r < facts.min_utility || r > facts.max_utility)
        {
            return Err(format!(
                "{} {variant}: returns {returns:?} outside the utility range",
                G::NAME
            ));
        }
    }
    Ok(())
}

fn agree_by_name(name: &str, variant: &str, seed: u64) -> Result<(), String> {
    match name {
        "tictactoe" => agree::<tabula_tictactoe::TicTacToe>(variant, seed),
        "hexapawn" => agree::<tabula_hexapawn::Hexapawn>(variant, seed),
        "kono" => agree::<tabula_kono::Kono>(variant, seed),
        "mu-torere" => agree::<tabula_mutorere::MuTorere>(variant, seed),
        "nim" => agree::<tabula_nim::Nim>(variant, seed),
        "northcott" => agree::<tabula_northcott::Northcott>(variant, seed),
        "pig" => agree::<tabula_pig::Pig>(variant, seed),
        "auto120" => agree::<tabula_auto120::Auto120>(variant, seed),
        "poggle" => agree::<tabula_poggle::Poggle>(variant, seed),
        "samegame" => agree::<tabula_samegame::SameGame>(variant, seed),
        other => Err(format!("{other}: no typed game in this test")),
    }
}

#[test]
fn random_playouts_agree_with_the_typed_games_and_round_trip() {
    let mut failures = Vec::new();
    for (name, variant) in CASES {
        for seed in 1..=2 {
            if let Err(e) = agree_by_name(name, variant, seed) {
                failures.push(e);
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_registered_game_is_covered() {
    for entry in tabula_engine::registry() {
        assert!(
            CASES.iter().any(|(n, _)| *n == entry.name),
            "{} has no stepping case",
            entry.name
        );
    }
}

#[test]
fn the_length_cap_is_the_engines() {
    assert_eq!(UNBOUNDED_GAME_PLIES, MAX_GAME_PLIES);
}

#[test]
fn facts_say_what_openspiel_needs() {
    let ttt = build("tictactoe", "").unwrap().facts();
    assert_eq!(
        (
            ttt.num_players,
            ttt.num_distinct_actions,
            ttt.max_game_length
        ),
        (2, 9, 9)
    );
    assert!(ttt.zero_sum && !ttt.explicit_chance && ttt.utility_sum == Some(0.0));
    assert_eq!(ttt.observation_shape, vec![3, 3, 3]);
    let auto = build("auto120", "markers=1").unwrap().facts();
    assert!(auto.explicit_chance);
    assert_eq!(
        (auto.num_distinct_actions, auto.max_chance_outcomes),
        (1, 6)
    );
    let same = build("samegame", "size=5x5").unwrap().facts();
    assert!(same.one_player && !same.zero_sum);
    assert_eq!((same.num_distinct_actions, same.max_game_length), (25, 12));
    assert!(same.min_utility < same.max_utility);
    let nim = build("nim", "heaps=1-2-3").unwrap().facts();
    assert_eq!((nim.num_distinct_actions, nim.max_game_length), (9, 6));
    let pig = build("pig", "dice=2").unwrap().facts();
    assert_eq!((pig.num_distinct_actions, pig.max_chance_outcomes), (2, 21));
}

#[test]
fn tic_tac_toe_uses_openspiels_cells() {
    let game = build("tictactoe", "").unwrap();
    let mut s = game.new_initial_state();
    assert_eq!(s.legal_actions(), (0..9).collect::<Vec<_>>());
    // OpenSpiel's cell 4 is the centre, square 5 in Tabula's notation.
    assert_eq!(s.action_to_string(4).unwrap(), "5");
    s.apply_action(4).unwrap();
    s.apply_action(0).unwrap();
    assert_eq!(s.position(), "O../.X./... X");
    assert_eq!(s.history(), vec![4, 0]);
}

#[test]
fn bad_ids_and_texts_are_refused_in_words() {
    let game = build("tictactoe", "").unwrap();
    let mut s = game.new_initial_state();
    s.apply_action(4).unwrap();
    for bad in [4, 9, 1000, usize::MAX] {
        let e = s.apply_action(bad).unwrap_err().to_string();
        assert!(e.contains("not the number of a legal move"), "{e}");
        assert!(s.action_to_string(bad).is_err());
    }
    assert_eq!(s.history(), vec![4], "a refused action changes nothing");
    assert!(s.string_to_action("5").is_err(), "square 5 is taken");
    assert!(s.string_to_action("tea").is_err());
    assert!(s.string_to_action(&"9".repeat(100_000)).is_err());
    for text in [
        "x",
        "4\n4",
        "-1",
        "4\n99999999999999999999999",
        "position: garbage",
    ] {
        let e = game.deserialize_state(text).unwrap_err().to_string();
        assert!(!e.is_empty() && !e.contains("panicked"), "{text}: {e}");
    }
    // A finished game takes no more moves.
    let mut done = game.deserialize_state("0\n3\n1\n4\n2").unwrap();
    assert!(done.is_terminal());
    assert_eq!(done.returns(), vec![1.0, -1.0]);
    assert_eq!(done.current_player(), TERMINAL_PLAYER);
    assert!(done.legal_actions().is_empty());
    assert!(done.apply_action(5).is_err());
    // Too many moves for the game.
    let long = vec!["0"; 50].join("\n");
    assert!(game.deserialize_state(&long).is_err());
}

#[test]
fn chance_nodes_take_only_outcomes() {
    let game = build("pig", "").unwrap();
    let mut s = game.new_initial_state();
    s.apply_action(0).unwrap(); // roll
    assert!(s.is_chance_node());
    assert_eq!(s.current_player(), CHANCE_PLAYER);
    let outcomes = s.chance_outcomes();
    assert_eq!(outcomes.len(), 6);
    assert!(outcomes.iter().all(|&(_, p)| (p - 1.0 / 6.0).abs() < 1e-12));
    assert!(s.apply_action(6).is_err());
    assert_eq!(s.action_to_string(3).unwrap(), "die 4");
    s.apply_action(3).unwrap(); // a four
    assert_eq!(s.current_player(), 0);
    assert_eq!(s.legal_actions(), vec![0, 1]);
    // A player does not roll the dice.
    let mut p = game.new_state_player("random", 1).unwrap();
    s.apply_action(0).unwrap();
    assert!(p.choose(s.as_ref()).is_err());
}

#[test]
fn positions_start_a_history_and_must_fit_the_variant() {
    let nim = build("nim", "heaps=1-2-3").unwrap();
    let s = nim.state_from_position("1 2 2 L").unwrap();
    assert_eq!(s.history(), Vec::<usize>::new());
    let back = nim.deserialize_state(&s.serialize()).unwrap();
    assert_eq!(back.position(), s.position());
    let e = nim.state_from_position("1 2 7 L").unwrap_err().to_string();
    assert!(e.contains("more than the 3"), "{e}");
    assert!(nim.state_from_position("1 2 L").is_err());
    let same = build("samegame", "size=5x5").unwrap();
    assert!(same.state_from_position("12/21").is_err());
}

#[test]
fn players_choose_legal_actions_of_their_own_game() {
    let ttt = build("tictactoe", "").unwrap();
    let mut x = ttt.new_state_player("perfect", 1).unwrap();
    let mut o = ttt.new_state_player("perfect", 2).unwrap();
    let mut s = ttt.new_initial_state();
    while !s.is_terminal() {
        let p = if s.current_player() == 0 {
            &mut x
        } else {
            &mut o
        };
        let a = p.choose(s.as_ref()).unwrap();
        assert!(s.legal_actions().contains(&a));
        s.apply_action(a).unwrap();
    }
    assert_eq!(s.returns(), vec![0.0, 0.0], "perfect play draws");
    let hexapawn = build("hexapawn", "").unwrap();
    let e = x
        .choose(hexapawn.new_initial_state().as_ref())
        .unwrap_err()
        .to_string();
    assert!(e.contains("another game"), "{e}");
    let misere = build("tictactoe", "play=misere").unwrap();
    assert!(x.choose(misere.new_initial_state().as_ref()).is_err());
    assert!(ttt.new_state_player("human", 1).is_err());
    assert!(ttt.new_state_player("grandmaster", 1).is_err());
    assert_eq!(
        ttt.new_state_player("level:50", 1).unwrap().name(),
        "level:50"
    );
}

#[test]
fn games_without_a_bound_end_drawn_at_the_cap() {
    let game = build("poggle", "").unwrap();
    let mut s = game.new_initial_state();
    let mut rng = tabula_core::rng_from_seed(5);
    while !s.is_terminal() {
        let ids = s.legal_actions();
        s.apply_action(ids[rng.gen_range(0..ids.len())]).unwrap();
    }
    // Random presses do not solve a 5x5 board in 20,000 (2^25 positions).
    assert_eq!(s.move_number(), UNBOUNDED_GAME_PLIES);
    assert_eq!(s.returns(), vec![0.0]);
    assert_eq!(s.current_player(), TERMINAL_PLAYER);
    let back = game.deserialize_state(&s.serialize()).unwrap();
    assert!(back.is_terminal());
}

#[test]
fn analysis_grades_the_moves() {
    let s = build("tictactoe", "").unwrap().new_initial_state();
    let a = s.analyze().unwrap();
    assert_eq!(a.moves.len(), 9);
}

#[test]
fn clones_are_independent() {
    let game: Arc<dyn DynGame> = build("hexapawn", "").unwrap();
    let s = game.new_initial_state();
    let mut c = s.clone();
    let a = c.legal_actions()[0];
    c.apply_action(a).unwrap();
    assert_eq!(s.move_number(), 0);
    assert_eq!(c.move_number(), 1);
}

/// A figure, not a check: random Tic-tac-toe playouts per second through the
/// stepping state (`cargo test --release -p tabula-engine --test stepping
/// speed -- --ignored --nocapture`).
#[test]
#[ignore]
fn speed_of_random_playouts() {
    let game = build("tictactoe", "").unwrap();
    let mut rng = tabula_core::rng_from_seed(1);
    let began = std::time::Instant::now();
    let mut games = 0u64;
    while began.elapsed().as_secs_f64() < 2.0 {
        let mut s = game.new_initial_state();
        while !s.is_terminal() {
            let ids = s.legal_actions();
            s.apply_action(ids[rng.gen_range(0..ids.len())]).unwrap();
        }
        games += 1;
    }
    let rate = games as f64 / began.elapsed().as_secs_f64();
    println!("tictactoe: {rate:.0} random playouts per second through DynState");
}
