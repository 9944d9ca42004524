//! `tabula solve GAME --json`: the typed report's `figures.first_mover_wins`, the
//! chance of the player who moves first, for games with chance whose solve finds it.

use crate::cli::json;

/// Pig to 100 with one die: Neller and Presser's published 0.5306, to 4 places,
/// with the solver's other figures beside it.
#[test]
fn pig_solve_json_gives_the_first_movers_chance() {
    let j = json(&["solve", "pig", "--json"]);
    let f = &j["figures"];
    let p = f["first_mover_wins"]
        .as_f64()
        .unwrap_or_else(|| panic!("no first_mover_wins in {f}"));
    assert!((p - 0.5306).abs() < 0.00005, "first_mover_wins {p}");
    assert_eq!(f["positions"].as_u64(), Some(505_000));
    assert!(f["sweeps"].as_u64().is_some_and(|s| s > 0), "{f}");
    assert!(f["seconds"].as_f64().is_some(), "{f}");
    assert!(f["peak_bytes"].as_u64().is_some_and(|b| b > 0), "{f}");
}

/// A game without chance says nothing: the key is null, not a made-up figure.
#[test]
fn games_without_chance_give_no_first_movers_chance() {
    let j = json(&["solve", "tictactoe", "--json"]);
    assert!(
        j["figures"]["first_mover_wins"].is_null(),
        "{}",
        j["figures"]
    );
}

/// Auto120 (one marker each, small enough to solve here) gives the same key,
/// agreeing with the figure its own section writes out.
#[test]
fn auto120_solve_json_gives_the_first_movers_chance() {
    let j = json(&["solve", "auto120", "--variant", "markers=1", "--json"]);
    let p = j["figures"]["first_mover_wins"]
        .as_f64()
        .unwrap_or_else(|| panic!("no first_mover_wins in {}", j["figures"]));
    assert!((0.0..=1.0).contains(&p), "{p}");
    let text = j.to_string();
    assert!(
        text.contains(&format!("{:.9}", p)),
        "{p} not in the sections"
    );
}
