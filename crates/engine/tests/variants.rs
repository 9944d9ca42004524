//! The shared conformance checks for the anchors' variants (issue 14): Hexapawn's
//! boards, misère play and compulsory capture, tic-tac-toe and Mu Torere misère,
//! Mu Torere's first-move rules, Poggle on a torus.

use tabula_engine::registry;

const VARIANTS: [(&str, &str); 16] = [
    ("hexapawn", "columns=4,rows=4"),
    ("hexapawn", "columns=5,rows=3"),
    ("hexapawn", "columns=3,rows=6"),
    ("hexapawn", "play=misere"),
    ("hexapawn", "capture=compulsory"),
    (
        "hexapawn",
        "columns=4,rows=5,play=misere,capture=compulsory",
    ),
    ("tictactoe", "play=misere"),
    ("mu-torere", "play=misere"),
    ("mu-torere", "rules=first_move"),
    ("mu-torere", "rules=free,play=misere"),
    ("mu-torere", "rules=first_move,play=misere"),
    ("poggle", "topology=torus"),
    ("poggle", "topology=torus,size=3,colours=3"),
    (
        "poggle",
        "topology=torus,size=4,colours=4,start=random,seed=3",
    ),
    ("poggle", "topology=torus,size=6,colours=2"),
    ("samegame", "size=10x8,colours=4"),
];

#[test]
fn new_variants_pass_the_shared_checks() {
    let mut failures = Vec::new();
    for (name, variant) in VARIANTS {
        let entry = registry()
            .into_iter()
            .find(|e| e.name == name)
            .expect("registered");
        for seed in 1..=2 {
            if let Err(e) = entry.check(variant, seed) {
                failures.push(format!("{name} {variant} (seed {seed}): {e}"));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn new_variants_are_listed_with_their_solver() {
    for (name, variant) in VARIANTS {
        let handle = tabula_engine::build(name, variant).unwrap();
        let info = handle.info();
        if ["hexapawn", "tictactoe", "mu-torere"].contains(&name) {
            assert!(info.exact, "{name} {variant}: solved");
            let report = handle.solve(&Default::default(), &|_| {}).unwrap();
            assert!(report.figures.positions.unwrap() > 0, "{name} {variant}");
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
