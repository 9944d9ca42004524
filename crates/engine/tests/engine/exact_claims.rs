//! Whether a game has an exact solution (a perfect player, graded hints) is a
//! size fact, known before anything is built: the same before and after anyone
//! asks for the perfect player, for every game and every listed variant. (In an
//! engine of its own, whose ledger's limit it sets.)

use std::time::Duration;
use tabula_core::{Budget, DEFAULT_MAX_MEMORY};
use tabula_engine::{registry, DynGame, MatchConfig};

fn offers_perfect(game: &dyn DynGame) -> bool {
    game.info().players.iter().any(|p| p.name == "perfect")
}

/// Asks for a match against the perfect player, waiting at most a moment for a
/// table being built (the build goes on).
fn ask_for_perfect(game: &dyn DynGame) -> Result<(), String> {
    let seats = game.info().seats.len();
    let mut players = vec!["perfect".to_string()];
    players.resize(seats.max(1), "human".to_string());
    Budget::default()
        .with_timeout(Duration::from_millis(200))
        .run(|| {
            game.new_match(MatchConfig {
                players,
                seed: 1,
                ..MatchConfig::default()
            })
        })
        .map(|_| ())
        .map_err(|e| e.to_string())
}

#[test]
fn the_exact_claim_is_the_same_before_and_after_the_perfect_player_is_asked_for() {
    // Below what Kono's table takes even when read back from disk (about 148
    // MiB): Kono has no exact solution here, whatever anyone asks.
    let engine = crate::own_engine(100 << 20);
    let build = |name: &str, variant: &str| engine.build(name, variant);
    let mut checked = 0;
    for entry in registry() {
        let usual = build(entry.name, "").unwrap();
        let mut variants = vec![String::new()];
        variants.extend(
            usual
                .info()
                .presets
                .into_iter()
                .map(|p| p.variant.to_string()),
        );
        for variant in variants {
            let game = build(entry.name, &variant).unwrap();
            let before = game.info().exact;
            assert_eq!(
                before,
                offers_perfect(&*game),
                "{} {variant}: the perfect player goes with the claim",
                entry.name
            );
            let asked = ask_for_perfect(&*game);
            if !before {
                assert!(
                    asked.is_err(),
                    "{} {variant}: perfect without a claim",
                    entry.name
                );
            }
            for again in [&game, &build(entry.name, &variant).unwrap()] {
                assert_eq!(
                    again.info().exact,
                    before,
                    "{} {variant}: the claim changed after the player was asked for ({asked:?})",
                    entry.name
                );
                assert_eq!(offers_perfect(&**again), before);
            }
            checked += 1;
        }
    }
    assert!(checked > 20, "{checked} variants");
    assert!(!build("kono", "").unwrap().info().exact);
    assert!(!build("kono", "rules=gamesman").unwrap().info().exact);
    // Within the usual limit the table fits: claimed before it is built.
    engine.ledger().set_limit(Some(DEFAULT_MAX_MEMORY));
    let kono = build("kono", "").unwrap();
    assert!(kono.info().exact && offers_perfect(&*kono));
    assert_eq!(kono.memory_bytes(), 0, "nothing was built to say so");
}
