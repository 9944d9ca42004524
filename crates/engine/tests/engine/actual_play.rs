//! The rules of actual play in simulations, as in matches and the stepping state:
//! `tabula simulate` used to run Mu Torere between perfect players to the
//! 20,000-ply cap and call every game a draw.

use tabula_engine::build;

#[test]
fn perfect_mu_torere_simulations_end_drawn_by_repetition() {
    let handle = build("mu-torere", "").unwrap();
    let report = handle
        .simulate(["perfect", "perfect"], 100, 1, &|| {})
        .unwrap();
    assert_eq!(report.games, 100);
    assert_eq!((report.draws, report.cut_off), (100, 0));
    assert_eq!(report.wins, vec![0, 0]);
    // Each side decides about half the plies; the third occurrence of a position
    // comes within a few dozen.
    assert!(report.mean_turns < 100.0, "{}", report.mean_turns);
}

#[test]
fn games_cut_off_at_the_bound_are_counted_apart_from_draws() {
    // Northcott without its draw rules: random players end it by a win or
    // play on to the bound.
    let handle = build("northcott", "size=6x1,repetition=0,progress=off").unwrap();
    let report = handle.simulate(["random", "random"], 2, 1, &|| {}).unwrap();
    assert_eq!(report.games, 2);
    assert_eq!(report.draws, 0, "a cut-off game is no draw");
    assert_eq!(
        report.wins.iter().sum::<u64>() + report.cut_off,
        report.games
    );
}

#[test]
fn random_northcott_simulations_end_by_the_progress_rule() {
    // On the usual board random players wander: before the progress rule they
    // ran to the 20,000-ply cap. Now no game is cut off and they last hundreds
    // of plies.
    let handle = build("northcott", "").unwrap();
    let report = handle
        .simulate(["random", "random"], 20, 1, &|| {})
        .unwrap();
    assert_eq!(report.games, 20);
    assert_eq!(report.cut_off, 0);
    assert!(report.draws > 0);
    assert!(report.mean_turns < 1000.0, "{}", report.mean_turns);
}
