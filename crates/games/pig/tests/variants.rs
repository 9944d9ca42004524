//! The engine's shared conformance checks on Pig's variants (the default one runs
//! with every registered game).

#[test]
fn every_variant_passes_the_shared_checks() {
    let entry = tabula_engine::registry()
        .into_iter()
        .find(|e| e.name == "pig")
        .expect("registered");
    for v in [
        "goal=2",
        "goal=20",
        "dice=2",
        "dice=2,goal=10,start=random",
        "start=2",
    ] {
        for seed in 1..=2 {
            entry
                .check(v, seed)
                .unwrap_or_else(|e| panic!("{v} (seed {seed}): {e}"));
        }
    }
}

#[test]
fn the_engine_offers_its_players_and_graded_hints() {
    let h = tabula_engine::build("pig", "goal=20").unwrap();
    let info = h.info();
    for p in ["optimal", "hold", "race", "random"] {
        assert!(info.players.iter().any(|k| k.name == p), "{p}");
    }
    let hint = tabula_core::Hint::from_analysis(h.analyze(Some("0-0:1+14")).unwrap());
    let best = hint.best.expect("a best move");
    assert!(
        hint.reason.contains("best chance to win"),
        "{}",
        hint.reason
    );
    assert!(best.notation == "hold" || best.notation == "roll");
    let report = h.simulate(["optimal", "hold:5"], 200, 1, &|| {}).unwrap();
    assert_eq!(report.games, 200);
}
