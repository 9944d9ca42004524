//! The search player against the exact solution, and its hints on the large board.

use rand::{Rng as _, SeedableRng};
use std::time::Duration;
use tabula_ai::retrograde::Solution;
use tabula_connect4::search::{SearchLimits, SearchPlayer};
use tabula_connect4::{ConnectFour, Geometry, Move};
use tabula_core::{ExactAnalysis, Game, GameExt, MoveGrade, Notation, Rng, Strategy, Turn, Value};

fn four_by_four(misere: bool) -> ConnectFour {
    ConnectFour::new(Geometry::new(4, 4, 4).unwrap(), misere, false)
}

fn limits() -> SearchLimits {
    SearchLimits {
        depth: None,
        time: Duration::from_secs(20),
    }
}

/// On 4x4 the search reaches every end: its value of each position is the
/// solver's, and so is the value of the move it plays.
#[test]
fn the_search_agrees_with_the_exact_solution_on_four_by_four() {
    for misere in [false, true] {
        let game = four_by_four(misere);
        let solution = Solution::solve(&game, &game.initial_state(), 1_000_000).unwrap();
        let mut rng = Rng::seed_from_u64(5);
        let mut checked = 0;
        for _ in 0..12 {
            let mut s = game.initial_state();
            let plies = rng.gen_range(4..12);
            game.random_playout(&mut s, &mut rng, plies);
            if !matches!(game.turn(&s), Turn::Move(_)) {
                continue;
            }
            let result = game.search_position(&s, limits(), false, None).unwrap();
            let best = result.moves[0];
            // A proven win or loss ends the deepening early; a draw needs every end.
            assert!(
                result.complete || best.proven_plies().is_some(),
                "{}",
                game.format_position(&s)
            );
            let value = match best.proven_plies() {
                Some(_) if best.score > 0 => Value::Win,
                Some(_) => Value::Loss,
                None => Value::Draw,
            };
            let exact = solution.grade(&s).unwrap();
            assert_eq!(value, exact.value, "{}", game.format_position(&s));
            // The move it plays keeps that value.
            let mut after = s;
            game.play_unchecked(&mut after, best.mv);
            let reply = solution.grade(&after).unwrap();
            let flipped = match reply.value {
                Value::Win => Value::Loss,
                Value::Loss => Value::Win,
                Value::Draw => Value::Draw,
            };
            assert_eq!(flipped, exact.value, "{}", game.format_position(&s));
            checked += 1;
        }
        assert!(checked >= 6);
    }
}

#[test]
fn the_player_wins_at_once_and_blocks_a_line() {
    let game = ConnectFour::default();
    let mut player = SearchPlayer::new(SearchLimits {
        depth: Some(6),
        time: Duration::from_secs(5),
    });
    let mut rng = Rng::seed_from_u64(1);
    // Red to move with three in the bottom row: column 4 wins.
    let s = game
        .parse_position("......./......./......./......./YYY..../RRR.... R")
        .unwrap();
    let choice = player.choose(&game, &s, 0, &mut rng).unwrap();
    assert_eq!(choice.mv, Move::Drop(3));
    assert!(choice.reason.unwrap().contains("forced win"));
    // Yellow to move must block column 4 (or lose at once).
    let s = game
        .parse_position("......./......./......./......./Y....../RRR..Y. Y")
        .unwrap();
    let choice = player.choose(&game, &s, 1, &mut rng).unwrap();
    assert_eq!(choice.mv, Move::Drop(3));
}

/// On the 7x6 board in misère play (which the exact solver does not take) the
/// hint comes from the search and says so.
#[test]
fn a_misere_hint_on_the_classic_board_says_it_comes_from_a_search() {
    let game = ConnectFour::new(Geometry::new(7, 6, 4).unwrap(), true, false);
    assert!(!game.is_small() && !game.solver_answers());
    let s = game.initial_state();
    let extra = game.analysis_extra(&s).expect("a searched hint");
    let moves = extra.moves.unwrap();
    assert_eq!(moves.len(), 7);
    assert!(moves
        .iter()
        .all(|m| matches!(m.grade, MoveGrade::WinChance { exact: false, .. })));
    let note = extra.sections[0].note.clone().unwrap();
    assert!(note.contains("not a proof"), "{note}");
    assert!(
        extra.value.is_none(),
        "the start is not proven by a short search"
    );
    // Near the end (nine empty cells) the search reaches every end: exact.
    let mut rng = Rng::seed_from_u64(9);
    let late = loop {
        let mut t = game.initial_state();
        game.random_playout(&mut t, &mut rng, 33);
        if matches!(game.turn(&t), Turn::Move(_)) {
            break t;
        }
    };
    let extra = game.analysis_extra(&late).unwrap();
    assert!(extra.value.is_some(), "{}", game.format_position(&late));
    let note = extra.sections[0].note.clone().unwrap();
    assert!(note.contains("exact"), "{note}");
    assert!(game.moves(&s).len() == 7);
}

/// The player's options: a second a move and no depth limit unless told, and
/// refusals in the shared search options' words.
#[test]
fn search_options_keep_the_players_own_defaults() {
    let default = SearchLimits::default();
    assert_eq!(default.time, Duration::from_millis(1000));
    assert_eq!(SearchLimits::parse("").unwrap(), default);
    let deep = SearchLimits::parse("depth=9").unwrap();
    assert_eq!((deep.depth, deep.time), (Some(9), default.time));
    let quick = SearchLimits::parse(" ms = 50 ").unwrap();
    assert_eq!((quick.depth, quick.time), (None, Duration::from_millis(50)));
    assert_eq!(
        SearchLimits::parse("depth=65").unwrap_err(),
        "the search depth must be a whole number from 1 to 64"
    );
    assert_eq!(
        SearchLimits::parse("moves=3").unwrap_err(),
        "this player has no option 'moves' (its options: depth, ms)"
    );
}
