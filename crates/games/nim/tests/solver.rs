//! The nim crate against the generic solvers of tabula-ai.

use tabula_ai::grundy::{grundy_value, Grundy, GrundyError};
use tabula_ai::retrograde::Solution;
use tabula_core::{ExactAnalysis, Notation};
use tabula_core::{Game, Registered, Value, Variant};
use tabula_nim::{Nim, NimState, Play};

#[test]
fn grundy_value_of_a_heap_of_n_is_n() {
    let g = Nim::new(vec![0], Play::Normal);
    let mut memo = Grundy::new(100_000);
    for n in 0..=40u32 {
        assert_eq!(
            memo.value(&g, &NimState::new(vec![n])).unwrap(),
            n as u64,
            "heap {n}"
        );
    }
}

#[test]
fn grundy_value_of_a_sum_is_the_nim_sum() {
    let g = Nim::default();
    for heaps in [
        vec![1, 2, 3],
        vec![3, 4, 5],
        vec![2, 7, 4],
        vec![6, 6, 1, 2],
    ] {
        let expected = heaps.iter().fold(0u64, |a, &h| a ^ h as u64);
        assert_eq!(
            grundy_value(&g, &NimState::new(heaps.clone()), 1_000_000).unwrap(),
            expected,
            "{heaps:?}"
        );
    }
}

#[test]
fn grundy_refuses_misere_nim() {
    let g = Nim::new(vec![2], Play::Misere);
    assert!(matches!(
        grundy_value(&g, &NimState::new(vec![2]), 1000),
        Err(GrundyError::NotNormalPlay(_))
    ));
}

/// The exact oracle (rule + memoised remoteness) agrees with retrograde analysis on
/// every position reachable from the start, value and remoteness.
fn oracle_matches_retrograde(variant: &str) {
    let g = Nim::from_variant(&Variant::parse(variant).unwrap()).unwrap();
    assert!(g.is_small());
    let solution = Solution::solve(&g, &g.initial_state(), 1_000_000).unwrap();
    let oracle = g.exact_oracle(&|_| {}).unwrap().unwrap();
    let mut count = 0;
    for (state, graded) in solution.iter() {
        assert_eq!(
            oracle.grade(&g, state),
            Some(graded),
            "{variant}: {}",
            g.format_position(state)
        );
        count += 1;
    }
    assert_eq!(count, solution.stats().positions);
    assert_eq!(solution.stats().draws, 0);
}

#[test]
fn oracle_matches_retrograde_normal_play() {
    oracle_matches_retrograde("heaps=3-4-5");
    oracle_matches_retrograde("heaps=1-2-3-4");
}

#[test]
fn oracle_matches_retrograde_misere_play() {
    oracle_matches_retrograde("heaps=3-4-5,play=misere");
    oracle_matches_retrograde("heaps=1-1-2-5,play=misere");
}

#[test]
fn start_values() {
    // 3 4 5: nim-sum 2, first player wins; 1 2 3: nim-sum 0, first player loses.
    for (heaps, value) in [("3-4-5", Value::Win), ("1-2-3", Value::Loss)] {
        let g = Nim::from_variant(&Variant::parse(&format!("heaps={heaps}")).unwrap()).unwrap();
        let s = Solution::solve(&g, &g.initial_state(), 1_000_000).unwrap();
        assert_eq!(s.stats().start.value, value, "{heaps}");
    }
}
