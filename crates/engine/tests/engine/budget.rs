//! The generic solver within its memory budget: what cannot fit is refused before
//! anything is built, what fits is solved, and a cancelled solve stops.

use std::time::{Duration, Instant};
use tabula_core::{Budget, Report};
use tabula_engine::build;

fn solve(game: &str, variant: &str, budget: Budget) -> Result<serde_json::Value, String> {
    let request = Report {
        budget,
        ..Report::default()
    };
    build(game, variant)
        .unwrap()
        .solve(&request, &|_| {})
        .map(|r| serde_json::to_value(r).unwrap())
        .map_err(|e| e.to_string())
}

#[test]
fn too_large_graphs_are_refused_at_once() {
    for (game, variant) in [
        ("northcott", ""),
        ("northcott", "size=128x32"),
        ("nim", "heaps=300-300-300"),
        ("nim", "heaps=65535-65535-65535-65535"),
    ] {
        let started = Instant::now();
        let err = solve(game, variant, Budget::new(1 << 30)).unwrap_err();
        assert!(
            started.elapsed() < Duration::from_secs(1),
            "{game} {variant} took {:?}",
            started.elapsed()
        );
        assert!(
            err.contains("memory limit of 1 GiB"),
            "{game} {variant}: {err}"
        );
    }
}

#[test]
fn what_fits_is_solved_and_the_limit_is_the_callers() {
    // Nim 3-4-5: at most 4 x 5 x 6 heap sizes x 2 sides = 240 positions.
    let v = solve("nim", "heaps=3-4-5", Budget::new(1 << 30)).unwrap();
    let positions = v["figures"]["positions"].as_u64().unwrap();
    assert!(positions > 100 && positions <= 240, "{v}");
    assert_eq!(v["value"]["value"], "win");
    // The same refused under a budget of 10 KB, and solved again under 10 MB.
    assert!(solve("nim", "heaps=3-4-5", Budget::new(10 << 10))
        .unwrap_err()
        .contains("memory limit"));
    assert_eq!(
        solve("nim", "heaps=3-4-5", Budget::new(10 << 20)).unwrap()["figures"]["positions"],
        positions
    );
    // Northcott 6x3 (first player wins in 17) is small.
    let v = solve("northcott", "size=6x3", Budget::default()).unwrap();
    assert_eq!(
        (
            v["value"]["value"].as_str(),
            v["value"]["remoteness"]["plies"].as_u64()
        ),
        (Some("win"), Some(17))
    );
}

#[test]
fn a_cancelled_or_expired_solve_stops() {
    let budget = Budget::default();
    budget.cancel();
    let err = solve("nim", "heaps=40-40-40", budget).unwrap_err();
    assert!(err.contains("cancelled"), "{err}");
    let err = solve(
        "nim",
        "heaps=40-40-40",
        Budget::default().with_timeout(Duration::ZERO),
    )
    .unwrap_err();
    assert!(err.contains("time limit"), "{err}");
}
