//! The shared checks on the variants each game declares
//! ([`tabula_core::TestCases::variants`]; Hexapawn's boards, misère play and
//! compulsory capture, Mu Torere's first-move rules, Poggle on a torus, ...), what
//! each promises (an exact solution), and the figures games declare.

use tabula_engine::{build, registry};

#[test]
fn declared_variants_pass_the_shared_checks() {
    let mut failures = Vec::new();
    for entry in registry() {
        for variant in entry.checked_variants().into_iter().skip(1) {
            for seed in 1..=2 {
                if let Err(e) = entry.check(&variant, seed) {
                    failures.push(format!("{} {variant} (seed {seed}): {e}", entry.name));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// A variant declared solved exactly is listed `exact` and offers the perfect
/// player, and one declared otherwise neither: the listing does not change once
/// someone asked for the player either.
#[test]
fn declared_variants_are_listed_with_their_solver() {
    for entry in registry() {
        for case in (entry.test_cases)().variants {
            let at = format!("{} [{}]", entry.name, case.variant);
            let handle = build(entry.name, case.variant).unwrap();
            let info = handle.info();
            assert_eq!(info.exact, case.exact, "{at}: exact");
            let perfect = info.players.iter().any(|p| p.name == "perfect");
            assert_eq!(perfect, case.exact, "{at}: the perfect player");
        }
    }
}

/// The published counts a game declares are what `tabula solve` finds: positions
/// reachable from the start, and the start's value and remoteness.
#[test]
fn declared_counts_are_what_the_solver_finds() {
    use tabula_core::{PositionValue, Remoteness};
    let mut checked = 0;
    for entry in registry() {
        for known in (entry.test_cases)().counts {
            let at = format!("{} [{}] ({})", entry.name, known.variant, known.source);
            let report = build(entry.name, known.variant)
                .unwrap()
                .solve(&Default::default(), &|_| {})
                .unwrap_or_else(|e| panic!("{at}: {e}"));
            assert_eq!(report.figures.positions, Some(known.positions), "{at}");
            if let Some(value) = known.value {
                let Some(PositionValue::Solved {
                    value: found,
                    remoteness,
                }) = report.value
                else {
                    panic!("{at}: no solved value");
                };
                assert_eq!(found, value, "{at}");
                let plies = remoteness.and_then(|r| match r {
                    Remoteness::Exact(n) | Remoteness::AtMost(n) => Some(n),
                    Remoteness::Unknown => None,
                });
                assert_eq!(plies, known.remoteness, "{at}: remoteness");
            }
            checked += 1;
        }
    }
    assert!(checked > 0, "no game declares a count");
}

/// The positions with known values a game declares are what its analysis says.
#[test]
fn declared_positions_have_their_known_values() {
    use tabula_core::{PositionValue, Remoteness};
    for entry in registry() {
        for known in (entry.test_cases)().positions {
            let at = format!("{} [{}] {}", entry.name, known.variant, known.position);
            let handle = build(entry.name, known.variant).unwrap();
            let state = handle
                .state_from_position(known.position)
                .unwrap_or_else(|e| panic!("{at}: {e}"));
            let analysis = state.analyze().unwrap();
            let Some(PositionValue::Solved { value, remoteness }) = analysis.value else {
                panic!("{at}: not solved: {:?}", analysis.value);
            };
            assert_eq!(value, known.value, "{at}");
            let plies = remoteness.and_then(|r| match r {
                Remoteness::Exact(n) | Remoteness::AtMost(n) => Some(n),
                Remoteness::Unknown => None,
            });
            assert_eq!(plies, known.remoteness, "{at}: remoteness");
        }
    }
}

/// Every game's presets (its "Type" menu) name a variant it accepts, in plain words
/// (no option strings), with no two presets the same game, and the usual game among
/// them where a game has presets at all.
#[test]
fn presets_are_playable_and_named_in_words() {
    let mut with_presets = 0;
    for entry in registry() {
        let info = tabula_engine::build(entry.name, "").unwrap().info();
        let usual = info.variant.clone();
        let mut seen = std::collections::BTreeSet::new();
        for p in &info.presets {
            assert!(
                !p.name.contains('=') && !p.name.contains('_'),
                "{}: preset name {:?} reads like an option string",
                entry.name,
                p.name
            );
            let built = tabula_engine::build(entry.name, p.variant)
                .unwrap_or_else(|e| panic!("{}: preset {:?}: {e}", entry.name, p.name));
            let normal = built.info().variant;
            assert!(
                seen.insert(normal.clone()),
                "{}: two presets are the same game ({normal})",
                entry.name
            );
        }
        if !info.presets.is_empty() {
            with_presets += 1;
            assert!(
                seen.contains(&usual),
                "{}: the usual game is not among its presets",
                entry.name
            );
            assert!(
                info.presets.len() >= 2,
                "{}: one preset is no choice",
                entry.name
            );
        }
    }
    assert_eq!(with_presets, registry().len(), "every game offers presets");
}

#[test]
fn a_variant_is_said_in_plain_words_and_refused_by_the_names_players_see() {
    // The chip of a small Connect Four: a count before its plural, and the
    // line's length said once ("in a row three in a row" was read before).
    let game = build("connect4", "width=5,height=4,connect=3").unwrap();
    assert_eq!(
        game.info().variant_words,
        "5 columns, 4 rows, three in a row"
    );
    // A refusal names the option as its menu does, not as typed ("(width)").
    for (variant, label, typed) in [
        ("width=9", "columns", "width"),
        ("connect=5", "discs in a row", "connect"),
    ] {
        let said = build("connect4", variant).err().expect(variant).to_string();
        assert!(said.contains(&format!("for {label}:")), "{said}");
        assert!(!said.contains(&format!("({typed})")), "{said}");
    }
}
