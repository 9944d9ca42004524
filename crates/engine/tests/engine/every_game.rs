//! The shared checks, run for every registered game with several seeds.

use tabula_engine::registry;

#[test]
fn every_registered_game_passes_the_shared_checks() {
    let mut failures = Vec::new();
    for entry in registry() {
        for seed in 1..=3 {
            if let Err(e) = entry.check("", seed) {
                failures.push(format!("{} (seed {seed}): {e}", entry.name));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_game_lists_and_builds_with_its_defaults() {
    for entry in registry() {
        let handle = tabula_engine::build(entry.name, "").expect("default variant builds");
        let info = handle.info();
        assert_eq!(info.name, entry.name);
        assert!(!info.seats.is_empty());
        assert!(info.players.iter().any(|p| p.name == "random"));
        // "Solved" on the home page and the `perfect` player go together.
        let perfect = info.players.iter().any(|p| p.name == "perfect");
        assert_eq!(
            info.exact, perfect,
            "{}: exact flag vs perfect player",
            entry.name
        );
        // What the game declares of its usual variant (`crates/engine/tests/engine/variants.rs`
        // checks every declared variant the same way).
        if let Some(usual) = (entry.test_cases)()
            .variants
            .into_iter()
            .find(|c| c.variant.is_empty())
        {
            assert_eq!(info.exact, usual.exact, "{}: exact flag", entry.name);
        }
        // A form label is words, not the option string a command line types.
        for o in &info.options {
            assert!(
                !o.label.trim().is_empty()
                    && !o.label.contains(['_', '=', ','])
                    && o.label.chars().all(|c| c.is_lowercase() || c == ' '),
                "{}: option {} is labelled {:?}",
                entry.name,
                o.name,
                o.label
            );
        }
    }
}

#[test]
fn unknown_games_and_options_are_refused_with_words() {
    let e = tabula_engine::build("chess", "").err().expect("no chess");
    assert!(e.to_string().contains("unknown game"));
    for entry in registry() {
        let e = tabula_engine::build(entry.name, "nosuchoption=1")
            .err()
            .expect("unknown option refused");
        assert!(
            e.to_string().contains("nosuchoption"),
            "{}: {e}",
            entry.name
        );
    }
}

#[test]
fn every_game_has_rules_written_for_players() {
    for entry in registry() {
        let handle = tabula_engine::build(entry.name, "").expect("default variant builds");
        let rules = handle.rules();
        assert!(rules.starts_with("# "), "{}: no title", entry.name);
        assert!(
            rules.contains("## How to play"),
            "{}: no 'How to play' section",
            entry.name
        );
        assert!(
            rules.contains("## Writing moves"),
            "{}: no 'Writing moves' section",
            entry.name
        );
        let words = tabula_engine::developer_words(&rules);
        assert!(words.is_empty(), "{}:\n{}", entry.name, words.join("\n"));
    }
}

/// Every game's length bound is finite and honest in every variant checked:
/// at most the engine's cap, and random games under the rules of actual play
/// (repetition, no progress) never reach a bound below the cap without ending:
/// a bound below it is a real bound of the game, not a cut.
#[test]
fn every_length_bound_is_finite_and_honest() {
    let mut below_the_cap = 0;
    for entry in registry() {
        for variant in entry.checked_variants() {
            let handle = tabula_engine::build(entry.name, &variant).unwrap();
            let most = handle.facts().max_game_length;
            let at = format!("{} [{variant}]", entry.name);
            assert!(
                most > 0 && most <= tabula_engine::MAX_GAME_PLIES,
                "{at}: {most}"
            );
            if most == tabula_engine::MAX_GAME_PLIES {
                continue;
            }
            below_the_cap += 1;
            let mut rng = tabula_core::rng_from_seed(7);
            for _ in 0..3 {
                let mut s = handle.new_initial_state();
                while !s.is_terminal() {
                    let ids = s.legal_actions();
                    let pick = rand::Rng::gen_range(&mut rng, 0..ids.len());
                    s.apply_action(ids[pick]).unwrap();
                }
                assert!(s.move_number() <= most, "{at}");
                assert!(
                    !s.play_end().is_some_and(|e| e.is_cut_off()),
                    "{at}: a game reached the bound {most} with no end"
                );
            }
        }
    }
    // Mu Torere's and Kono's draw rules give them bounds: they count here.
    assert!(below_the_cap > registry().len());
}

/// Every player a game lists, its own included, has a few words for a menu,
/// declared once with the player (its name, words and help in one place): not
/// its help sentence standing in, and no two players of a game with the same
/// words.
#[test]
fn every_games_players_have_their_own_words_for_a_menu() {
    for entry in registry() {
        let info = tabula_engine::build(entry.name, "").unwrap().info();
        let mut seen = std::collections::HashSet::new();
        for kind in &info.players {
            let words = kind.words.trim();
            assert!(
                !words.is_empty() && words.chars().count() <= 40 && !words.ends_with('.'),
                "{}: player {} has the words {:?}",
                entry.name,
                kind.name,
                kind.words
            );
            assert!(
                !kind.help.trim().eq_ignore_ascii_case(words),
                "{}: player {} is named by its help: {:?}",
                entry.name,
                kind.name,
                kind.words
            );
            assert!(
                seen.insert(words.to_lowercase()),
                "{}: two players are both {words:?}",
                entry.name
            );
        }
    }
}
