use crate::alphabeta::{AlphaBeta, SearchLimits};
use crate::players::{LeveledPlayer, PerfectPlayer, RandomPlayer};
use crate::retrograde::{graded_moves, Solution};
use crate::simulate::{simulate, Rate};
use crate::testgame::{Pile, PileState};
use std::sync::Arc;
use tabula_core::{Actions, Game, GameExt, Strategy, Turn, Value};

#[test]
fn take_one_or_two_has_the_known_values_and_remoteness() {
    let game = Pile {
        start: 30,
        grow: false,
        cap: 0,
    };
    let sol = Solution::solve(&game, &game.initial_state(), 1000).unwrap();
    for n in 0..=30u32 {
        for to_move in 0..2 {
            let Some(g) = sol.grade(&PileState { n, to_move }) else {
                continue;
            };
            let k = n / 3;
            if n % 3 == 0 {
                assert_eq!((g.value, g.remoteness), (Value::Loss, 2 * k), "n={n}");
            } else {
                assert_eq!((g.value, g.remoteness), (Value::Win, 2 * k + 1), "n={n}");
            }
        }
    }
    let st = sol.stats();
    // Both sides to move for 0..=28 counters, then (29, B) and the start (30, A).
    assert_eq!(st.positions, 60);
    assert_eq!(st.losses, 21);
    assert_eq!(st.wins, 39);
    assert_eq!(st.start.value, Value::Loss);
    assert_eq!(st.max_remoteness, 20);
}

/// Every grade must be explained by the grades of the children.
fn check_consistent(game: &Pile, sol: &Solution<Pile>) {
    for (state, g) in sol.iter() {
        let Turn::Move(_) = game.turn(state) else {
            continue;
        };
        let children: Vec<_> = graded_moves(game, sol, state)
            .into_iter()
            .map(|(_, c)| c)
            .collect();
        match g.value {
            Value::Win => {
                let best = children
                    .iter()
                    .filter(|c| c.value == Value::Win)
                    .map(|c| c.remoteness)
                    .min();
                assert_eq!(best, Some(g.remoteness), "{state:?}");
            }
            Value::Loss => {
                assert!(children.iter().all(|c| c.value == Value::Loss), "{state:?}");
                assert_eq!(
                    children.iter().map(|c| c.remoteness).max(),
                    Some(g.remoteness),
                    "{state:?}"
                );
            }
            Value::Draw => {
                assert!(children.iter().all(|c| c.value != Value::Win), "{state:?}");
                assert!(children.iter().any(|c| c.value == Value::Draw), "{state:?}");
            }
        }
    }
}

#[test]
fn cyclic_graphs_get_draws_and_consistent_grades() {
    let game = Pile {
        start: 7,
        grow: true,
        cap: 9,
    };
    let sol = Solution::solve(&game, &game.initial_state(), 1000).unwrap();
    check_consistent(&game, &sol);
    assert!(
        sol.stats().draws > 0,
        "growing the pile must allow endless play"
    );
    // With no way to grow from 1 or 2 counters... taking the last counter still wins.
    assert_eq!(
        sol.grade(&PileState { n: 1, to_move: 0 }).unwrap().value,
        Value::Win
    );
}

#[test]
fn the_solver_refuses_graphs_over_its_limit() {
    let game = Pile {
        start: 100,
        grow: false,
        cap: 0,
    };
    assert!(Solution::solve(&game, &game.initial_state(), 10).is_err());
}

#[test]
fn perfect_player_wins_fastest_and_never_gives_away_a_win() {
    let game = Pile {
        start: 20,
        grow: true,
        cap: 22,
    };
    let sol = Arc::new(Solution::solve(&game, &game.initial_state(), 1000).unwrap());
    let mut perfect = PerfectPlayer::new(sol.clone());
    let mut rng = tabula_core::rng_from_seed(3);
    for n in 1..=20 {
        let s = PileState { n, to_move: 0 };
        let g = sol.grade(&s).unwrap();
        let c = perfect.choose(&game, &s, 0, &mut rng).unwrap();
        let mut child = s.clone();
        game.play_unchecked(&mut child, c.mv);
        let after = sol.grade(&child).unwrap();
        if g.value == Value::Win {
            assert_eq!(after.value, Value::Loss, "n={n}");
            assert_eq!(after.remoteness + 1, g.remoteness, "n={n}");
        }
    }
}

#[test]
fn alpha_beta_finds_the_winning_move() {
    let game = Pile {
        start: 10,
        grow: false,
        cap: 0,
    };
    let mut ab = AlphaBeta::<Pile>::new(SearchLimits {
        depth: 12,
        time: None,
    });
    let mut rng = tabula_core::rng_from_seed(1);
    for n in [4u32, 5, 7, 8, 10] {
        let (mv, score, _) = ab
            .search(&game, &PileState { n, to_move: 0 }, &mut rng)
            .unwrap();
        assert_eq!((n as i64 + mv as i64) % 3, 0, "n={n} move {mv}");
        assert!(score > 0);
    }
    assert!(SearchLimits::parse("depth=0").is_err());
    assert!(SearchLimits::parse("speed=3").is_err());
    assert_eq!(SearchLimits::parse("depth=5,ms=20").unwrap().depth, 5);
}

#[test]
fn alphabeta_options_keep_the_default_of_what_is_not_given() {
    let default = SearchLimits::default();
    assert_eq!(SearchLimits::parse("").unwrap(), default);
    let timed = SearchLimits::parse("ms=20").unwrap();
    assert_eq!(timed.depth, default.depth);
    assert_eq!(timed.time, Some(std::time::Duration::from_millis(20)));
    let deep = SearchLimits::parse("depth=12").unwrap();
    assert_eq!((deep.depth, deep.time), (12, default.time));
    assert_eq!(
        SearchLimits::parse("ms=10001").unwrap_err(),
        "the thinking time in milliseconds must be a whole number from 1 to 10000"
    );
}

#[test]
fn level_zero_is_random_and_level_100_is_the_strong_player() {
    let game = Pile {
        start: 30,
        grow: false,
        cap: 0,
    };
    let sol = Arc::new(Solution::solve(&game, &game.initial_state(), 1000).unwrap());
    let mut rng = tabula_core::rng_from_seed(9);
    let mut top = LeveledPlayer::new(100, Box::new(PerfectPlayer::new(sol.clone())));
    let mut bottom = LeveledPlayer::new(0, Box::new(PerfectPlayer::new(sol.clone())));
    let s = PileState { n: 7, to_move: 0 };
    let mut bottom_moves = std::collections::HashSet::new();
    for _ in 0..200 {
        assert_eq!(top.choose(&game, &s, 0, &mut rng).unwrap().mv, -1);
        bottom_moves.insert(bottom.choose(&game, &s, 0, &mut rng).unwrap().mv);
    }
    assert_eq!(bottom_moves.len(), 2, "level 0 plays both moves");
}

#[test]
fn simulation_is_reproducible_and_perfect_beats_random() {
    let game = Pile {
        start: 13,
        grow: false,
        cap: 0,
    };
    let sol = Arc::new(Solution::solve(&game, &game.initial_state(), 1000).unwrap());
    let make = |which: usize, _seed: u64| -> Box<dyn Strategy<Pile>> {
        if which == 0 {
            Box::new(PerfectPlayer::new(sol.clone()))
        } else {
            Box::new(RandomPlayer)
        }
    };
    let a = simulate(&game, ["perfect", "random"], make, 400, 5, &|| {});
    let b = simulate(&game, ["perfect", "random"], make, 400, 5, &|| {});
    assert_eq!(a.wins, b.wins);
    assert_eq!(a.wins[0] + a.wins[1] + a.draws + a.cut_off, 400);
    // 13 is a win for the first player: perfect wins every game it starts.
    assert!(a.wins[0] >= 200);
    let r = Rate::wilson(50, 100);
    assert!(r.low < 0.5 && r.high > 0.5 && (r.high - r.low - 0.19).abs() < 0.01);
}

#[test]
fn a_start_that_is_already_over_is_lost_for_the_side_to_move() {
    let game = Pile {
        start: 0,
        grow: false,
        cap: 0,
    };
    let sol = Solution::solve(&game, &PileState { n: 0, to_move: 1 }, 10).unwrap();
    assert_eq!(sol.stats().start.value, Value::Loss);
    assert_eq!(sol.stats().positions, 1);
}

/// Adds a counter whenever it may, else takes one: two of them keep a growing
/// pile going round the same positions for ever.
struct Grower;

impl Strategy<Pile> for Grower {
    fn choose(
        &mut self,
        game: &Pile,
        state: &PileState,
        _seat: usize,
        _rng: &mut tabula_core::Rng,
    ) -> Option<tabula_core::Choice<i8>> {
        let moves = game.moves(state);
        let mv = if moves.contains(&1) { 1 } else { -1 };
        Some(tabula_core::Choice::because(mv, "grows"))
    }
}

#[test]
fn simulations_follow_the_rules_of_actual_play() {
    // The pile goes 3, 4, 3, 4, ...: the start comes back with the same side to
    // move every two plies, and its third occurrence (ply 4) is a draw. Without
    // the rule every game would run to the length bound.
    let game = Pile {
        start: 3,
        grow: true,
        cap: 4,
    };
    let make = |_: usize, _: u64| -> Box<dyn Strategy<Pile>> { Box::new(Grower) };
    let r = simulate(&game, ["grow", "grow"], make, 10, 1, &|| {});
    assert_eq!((r.draws, r.cut_off, r.wins.clone()), (10, 0, vec![0, 0]));
    // Ply 4 ends it: two decisions each.
    assert_eq!(r.mean_turns, 4.0);
    // Its length bound comes from the rule: 10 positions (piles 0-4, either
    // side to move), each seen at most twice before a third time ends the game.
    assert_eq!(game.max_game_length(), 20);
}
