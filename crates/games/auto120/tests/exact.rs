//! The exact solver against a second, independent calculation.
//!
//! The reference here uses nothing of `tabula_auto120::exact`: it discovers the
//! positions from the start through the public `Game` interface (the game's own
//! rules: `legal_moves`, `chance_outcomes`, `play_unchecked`), merges positions
//! that differ only by the names of markers on one square and by which seat rolls,
//! and runs synchronous (Jacobi) value iteration over all of them at once from
//! zero, instead of the solver's in-place sweeps layer by layer from 0.5 over
//! dense ranks.

use std::collections::HashMap;
use std::sync::OnceLock;
use tabula_auto120::exact::{self, Solution};
use tabula_auto120::{Auto120, Move, State};
use tabula_core::Notation;
use tabula_core::{Game, Registered, Turn, Variant};

/// A position with the die to roll, from the roller's side: both players'
/// marker positions sorted.
type Key = ([u8; 4], [u8; 4]);

fn key(state: &State) -> Key {
    let s = state.side().expect("the first player has been drawn");
    let mut a = state.markers(s);
    let mut b = state.markers(1 - s);
    a.sort_unstable();
    b.sort_unstable();
    (a, b)
}

enum Option_ {
    Win,
    /// The other player rolls next in this position (index).
    Next(usize),
}

struct Reference {
    keys: Vec<Key>,
    states: Vec<State>,
    /// Per position: for each roll outcome, its probability and the options.
    rolls: Vec<Vec<(f64, Vec<Option_>)>>,
}

fn reference(game: &Auto120) -> Reference {
    let mut start = game.initial_state();
    game.play_unchecked(&mut start, Move::Starter(0));
    let mut index: HashMap<Key, usize> = HashMap::new();
    let mut r = Reference {
        keys: vec![key(&start)],
        states: vec![start],
        rolls: Vec::new(),
    };
    index.insert(key(&start), 0);
    let mut i = 0;
    let mut outcomes = Vec::new();
    let mut moves = Vec::new();
    while i < r.states.len() {
        let state = r.states[i];
        let mover = state.side().unwrap();
        outcomes.clear();
        game.chance_outcomes(&state, &mut outcomes);
        let mut per_roll = Vec::new();
        for &(roll, p) in &outcomes {
            let mut rolled = state;
            game.play_unchecked(&mut rolled, roll);
            let mut options = Vec::new();
            let mut after_list = Vec::new();
            match game.turn(&rolled) {
                Turn::Chance => after_list.push(rolled),
                Turn::Move(_) => {
                    moves.clear();
                    game.legal_moves(&rolled, &mut moves);
                    for &mv in &moves {
                        let mut after = rolled;
                        game.play_unchecked(&mut after, mv);
                        after_list.push(after);
                    }
                }
                Turn::Over(_) => unreachable!(),
            }
            for after in after_list {
                if let Turn::Over(_) = game.turn(&after) {
                    assert_eq!(after.winner(), Some(mover));
                    options.push(Option_::Win);
                    continue;
                }
                let k = key(&after);
                let j = *index.entry(k).or_insert_with(|| {
                    r.keys.push(k);
                    r.states.push(after);
                    r.keys.len() - 1
                });
                options.push(Option_::Next(j));
            }
            per_roll.push((p, options));
        }
        r.rolls.push(per_roll);
        i += 1;
    }
    r
}

/// Value iteration from zero, in place (Gauss-Seidel), until a sweep changes no
/// value by more than `tol`. Sweeps run from the last position discovered to
/// the first: markers only move forward between captures, so a position's
/// successors were mostly discovered after it and are already updated when it
/// is, and a sweep carries values back through many plies at once instead of
/// one (the same fixed point as sweeping in any order, in far fewer sweeps).
fn iterate(r: &Reference, tol: f64) -> Vec<f64> {
    let mut v = vec![0.0f64; r.states.len()];
    loop {
        let mut change = 0.0f64;
        for (i, rolls) in r.rolls.iter().enumerate().rev() {
            let mut x = 0.0;
            for (p, options) in rolls {
                let best = options
                    .iter()
                    .map(|o| match o {
                        Option_::Win => 1.0,
                        Option_::Next(j) => 1.0 - v[*j],
                    })
                    .fold(0.0f64, f64::max);
                x += p * best;
            }
            change = change.max((x - v[i]).abs());
            v[i] = x;
        }
        if change < tol {
            return v;
        }
    }
}

/// The solver's solutions, each solved once for all the tests here.
fn solved(markers: usize) -> &'static Solution {
    static SOLVED: [OnceLock<Solution>; 2] = [OnceLock::new(), OnceLock::new()];
    SOLVED[markers - 1]
        .get_or_init(|| exact::solve(markers, 1e-12, u64::MAX, &|| false, &|_| {}).unwrap())
}

#[test]
fn one_marker_first_player_wins_0_504114066() {
    let s = solved(1);
    let p = s.stats().first_mover_wins;
    // The independent calculation: 0.504114066.
    assert!((p - 0.504114066).abs() < 1e-9, "{p}");
    let game = Auto120::from_variant(&Variant::parse("markers=1").unwrap()).unwrap();
    let r = reference(&game);
    let v = iterate(&r, 1e-13);
    assert!((v[0] - 0.504114066).abs() < 1e-9, "{}", v[0]);
    assert!((v[0] - p).abs() < 1e-9);
}

#[test]
fn two_markers_agree_with_the_reference_everywhere() {
    let game = Auto120::with_markers(2);
    let s = solved(2);
    let r = reference(&game);
    let v = iterate(&r, 1e-12);
    assert!((v[0] - s.stats().first_mover_wins).abs() < 1e-9);
    // Every position the reference discovered (all reachable ones), through the
    // solution's public lookup of the game's own states.
    let mut worst = 0.0f64;
    for (state, &x) in r.states.iter().zip(&v) {
        let y = s.value(state).expect("a position with the die to roll");
        worst = worst.max((x - y).abs());
    }
    assert!(worst < 1e-9, "largest difference {worst}");
    // Every reachable position is in the solver's count, which also counts
    // unreachable pairs of multisets such as both players far ahead.
    assert!(s.stats().positions >= r.states.len() as u64);
}

#[test]
fn optimal_moves_are_consistent_with_the_values() {
    let game = Auto120::with_markers(2);
    let s = solved(2);
    // At a decision node, the value is the best move's value, and a move that
    // retires the last marker is worth 1.
    let state = game.parse_position("20,120/4,1:1r6").unwrap();
    let mv = s.move_values(&state);
    assert_eq!(mv[0], (0, 1.0));
    let state = game.parse_position("1,1/30,1:1").unwrap();
    let v = s.value(&state).unwrap();
    assert!(v > 0.0 && v < 0.5, "behind: {v}");
    // The value at the die equals the average over the rolls of the best choice.
    let mut total = 0.0;
    for roll in 1..=6 {
        let mut t = state;
        game.try_play(&mut t, Move::Roll(roll)).unwrap();
        total += match game.turn(&t) {
            Turn::Move(_) => s.move_values(&t)[0].1,
            _ => 1.0 - s.value(&t).unwrap(),
        };
    }
    assert!((total / 6.0 - v).abs() < 1e-8, "{} vs {v}", total / 6.0);
    // Another variant's positions are not answered.
    assert!(s.value(&Auto120::default().initial_state()).is_none());
}

#[test]
fn another_iteration_order_gives_the_same_values() {
    for markers in 1..=2 {
        let a = solved(markers);
        let b = exact::solve_with(
            markers,
            1e-12,
            u64::MAX,
            exact::Order::Global,
            &|| false,
            &|_| {},
        )
        .unwrap();
        let d = (a.stats().first_mover_wins - b.stats().first_mover_wins).abs();
        assert!(d < 1e-10, "{markers}: {d}");
        assert!(a.max_difference(&b) < 1e-9, "{markers}");
        assert_eq!(a.stats().positions, b.stats().positions);
    }
}
