//! A computer move never waits for an exact table longer than its budget allows:
//! the table is built on a thread of its own and used once it is there.
//!
//! A test binary of its own, so that nothing in the process has built the table
//! before the first move.

use std::time::Duration;
use tabula_auto120::{exact, Auto120, Optimal};
use tabula_core::Notation;
use tabula_core::{rng_from_seed, Budget, Game, Strategy};

#[test]
fn optimal_moves_in_time_while_its_table_is_built_then_plays_from_it() {
    let game = Auto120::with_markers(2);
    let state = game
        .parse_position("1,1/1,1:1r3")
        .expect("a position with a roll");
    let mut rng = rng_from_seed(1);
    let mut optimal = Optimal::new(2);
    assert!(exact::cached(2).is_none(), "no table before the first move");

    let quick = || Budget::default().with_timeout(Duration::from_millis(2));
    let first = quick()
        .run(|| optimal.choose(&game, &state, 0, &mut rng))
        .expect("a move while the table is being built");
    assert!(
        first
            .reason
            .as_deref()
            .is_some_and(|r| r.contains("still being prepared")),
        "{:?}",
        first.reason
    );
    let mut legal = Vec::new();
    game.legal_moves(&state, &mut legal);
    assert!(legal.contains(&first.mv));

    // Without a deadline the player waits for the table (the same build).
    let waited = optimal
        .choose(&game, &state, 0, &mut rng)
        .expect("an optimal move");
    let solution = exact::cached(2).expect("the table is kept for the process");
    let (best, p) = solution.move_values(&state)[0];
    assert_eq!(
        waited.reason.as_deref(),
        Some(format!("optimal ({:.1}% to win)", 100.0 * p).as_str())
    );
    assert_eq!(waited.mv, tabula_auto120::Move::Marker(best));

    // Once built, a move in a hurry is an optimal one too.
    let again = quick()
        .run(|| optimal.choose(&game, &state, 0, &mut rng))
        .expect("a move");
    assert_eq!(again.mv, waited.mv);
    assert_eq!(again.reason, waited.reason);
}
