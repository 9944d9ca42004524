//! The stepping state ([`tabula_engine::DynState`]) against the typed games:
//! random playouts agree move by move, serialized states come back exactly, the
//! rules of actual play hold, and bad ids, texts and states are refused in words.

use rand::Rng as _;
use std::sync::Arc;
use tabula_core::{PlayEnd, UNBOUNDED_GAME_PLIES};
use tabula_engine::{build, DynGame, CHANCE_PLAYER, MAX_GAME_PLIES, TERMINAL_PLAYER};

/// Every registered game, in its usual variant and each variant it declares
/// ([`tabula_core::TestCases::variants`]): the stepping state agrees with the
/// typed game ([`tabula_engine::step_agreement`]).
#[test]
fn random_playouts_agree_with_the_typed_games_and_round_trip() {
    let mut failures = Vec::new();
    let mut checked = 0;
    for entry in tabula_engine::registry() {
        for variant in entry.checked_variants() {
            for seed in 1..=2 {
                checked += 1;
                if let Err(e) = entry.check_stepping(&variant, seed) {
                    failures.push(e);
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(checked >= 2 * tabula_engine::registry().len());
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
fn games_without_a_bound_are_cut_off_at_it_with_no_result() {
    // Northcott with both its draw rules off: random players wander on the
    // 16x4 board (7.5 million positions) past the engine's cap.
    let game = build("northcott", "repetition=0,progress=off").unwrap();
    let mut s = game.new_initial_state();
    let mut rng = tabula_core::rng_from_seed(5);
    while !s.is_terminal() {
        let ids = s.legal_actions();
        s.apply_action(ids[rng.gen_range(0..ids.len())]).unwrap();
    }
    assert_eq!(s.move_number(), UNBOUNDED_GAME_PLIES);
    assert_eq!(s.play_end(), Some(PlayEnd::CutOff(UNBOUNDED_GAME_PLIES)));
    assert_eq!(s.returns(), vec![0.0, 0.0]);
    assert_eq!(s.current_player(), TERMINAL_PLAYER);
    let back = game.deserialize_state(&s.serialize()).unwrap();
    assert!(back.is_terminal());
    assert_eq!(back.play_end(), s.play_end());
}

/// A puzzle ends unsolved at its press limit, a rule of actual play, not a
/// cut-off: random presses on Poggle's usual board (they never solve it) end
/// after 2 x (2 - 1) x 25 presses, twice the longest useful sequence.
#[test]
fn random_poggle_ends_unsolved_at_its_press_limit() {
    for (variant, presses) in [("", 50), ("colours=3", 100), ("topology=torus,size=6", 72)] {
        let game = build("poggle", variant).unwrap();
        assert_eq!(game.facts().max_game_length, presses, "{variant}");
        let mut s = game.new_initial_state();
        let mut rng = tabula_core::rng_from_seed(5);
        while !s.is_terminal() {
            let ids = s.legal_actions();
            s.apply_action(ids[rng.gen_range(0..ids.len())]).unwrap();
        }
        assert_eq!(s.move_number(), presses, "{variant}");
        assert_eq!(s.play_end(), Some(PlayEnd::NoProgress(presses as u32)));
        assert_eq!(s.returns(), vec![0.0]);
        let back = game.deserialize_state(&s.serialize()).unwrap();
        assert!(back.is_terminal());
    }
}

/// The rules of actual play hold in the stepping state as in matches (before,
/// it ignored them and ran Mu Torere to the 20,000-ply cap): perfect players
/// draw Mu Torere by the third repetition within the bound the rule gives.
#[test]
fn perfect_mu_torere_ends_drawn_by_repetition() {
    let game = build("mu-torere", "").unwrap();
    let bound = game.facts().max_game_length;
    assert_eq!(bound, 2 * 1260);
    let mut players = [
        game.new_state_player("perfect", 1).unwrap(),
        game.new_state_player("perfect", 2).unwrap(),
    ];
    let mut s = game.new_initial_state();
    while !s.is_terminal() {
        let seat = s.current_player() as usize;
        let a = players[seat].choose(s.as_ref()).unwrap();
        s.apply_action(a).unwrap();
    }
    assert_eq!(s.play_end(), Some(PlayEnd::Repetition(3)));
    assert_eq!(s.returns(), vec![0.0, 0.0]);
    assert!(s.move_number() < 100, "{} plies", s.move_number());
    // The count is rebuilt from the history: the serialized state is over too.
    let back = game.deserialize_state(&s.serialize()).unwrap();
    assert_eq!(back.play_end(), Some(PlayEnd::Repetition(3)));
}

/// Options that change only the rules of actual play are honoured: Northcott's
/// `repetition` and Kono's `nocapture`.
#[test]
fn play_rule_options_are_honoured() {
    // Northcott on one row: O and X step back and forth. The start's third
    // occurrence comes at ply 8; with repetition=2, its second at ply 4.
    for (variant, plies) in [("size=6x1", 8), ("size=6x1,repetition=2", 4)] {
        let game = build("northcott", variant).unwrap();
        let mut s = game.new_initial_state();
        let line = ["1:1->2", "1:6->5", "1:2->1", "1:5->6"];
        let mut played = 0;
        while !s.is_terminal() {
            let a = s.string_to_action(line[played % 4]).unwrap();
            s.apply_action(a).unwrap();
            played += 1;
        }
        assert_eq!(played, plies, "{variant}");
        assert!(matches!(s.play_end(), Some(PlayEnd::Repetition(_))));
    }
    // Without the rule, nothing but the bound ends it.
    let free = build("northcott", "size=6x1,repetition=0,progress=off").unwrap();
    assert_eq!(free.facts().max_game_length, UNBOUNDED_GAME_PLIES);
    // The progress rule alone: twice the 6 cells without a new low of the
    // gaps' total, after at most 4 new lows.
    let progress = build("northcott", "size=6x1,repetition=0").unwrap();
    assert_eq!(progress.facts().max_game_length, 5 * 12);
    // Kono: the bound follows the no-capture rule (17 runs of at most 150 plies).
    let usual = build("kono", "").unwrap().facts().max_game_length;
    let short = build("kono", "nocapture=20")
        .unwrap()
        .facts()
        .max_game_length;
    assert_eq!((usual, short), (17 * 150, 17 * 20));
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
/// stepping state (`cargo test --release -p tabula-engine --test engine
/// stepping::speed -- --ignored --nocapture`).
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
