//! What a front end shows of a variant follows the variant (issue 24): the summary
//! under the title names the board and the rules in force, and an option that
//! takes a few values lists them (a menu rather than free text), each accepted.

use tabula_engine::{build, registry};

/// The summary of `game` in `variant`, from the info a front end reads.
fn summary(game: &str, variant: &str) -> String {
    build(game, variant)
        .expect("a valid variant")
        .info()
        .summary
}

/// Each game's summary follows its variant as the game declares
/// ([`tabula_core::VariantCase::summary`]); a game that declares no words for its
/// usual variant keeps its registered sentence there.
#[test]
fn the_summary_follows_the_variant() {
    let mut checked = 0;
    for entry in registry() {
        let cases = (entry.test_cases)().variants;
        if !cases
            .iter()
            .any(|c| c.variant.is_empty() && !c.summary_says.is_empty())
        {
            assert_eq!(summary(entry.name, ""), entry.summary, "{}", entry.name);
        }
        for case in cases {
            let text = summary(entry.name, case.variant);
            for says in case.summary_says {
                assert!(
                    text.contains(says),
                    "{} {}: {text}",
                    entry.name,
                    case.variant
                );
                checked += 1;
            }
            for not in case.summary_not {
                assert!(
                    !text.contains(not),
                    "{} {}: {text}",
                    entry.name,
                    case.variant
                );
            }
        }
    }
    assert!(checked > 0, "no game declares the words of a summary");
}

#[test]
fn listed_choices_are_each_accepted_and_include_the_default() {
    for entry in registry() {
        for option in (entry.options)() {
            if option.choices.is_empty() {
                continue;
            }
            assert!(
                option.choice_values().any(|v| v == option.default),
                "{} {}",
                entry.name,
                option.name
            );
            for choice in option.choice_values() {
                let variant = format!("{}={choice}", option.name);
                assert!(
                    build(entry.name, &variant).is_ok(),
                    "{} {variant} is refused",
                    entry.name
                );
            }
        }
    }
}

/// A menu shows each value in a player's words, declared by the game beside the value:
/// never empty, never an internal token (`first_move`, `nobonus`), short enough for a
/// menu item, and no two alike in one menu. Only a number may read as itself.
#[test]
fn every_listed_choice_has_words_for_a_player() {
    let mut checked = 0;
    for entry in registry() {
        for option in (entry.options)() {
            let mut seen = Vec::new();
            for choice in option.choices {
                let (value, words) = (choice.value, choice.words);
                let at = format!("{} {}={value}: {words:?}", entry.name, option.name);
                assert!(!words.trim().is_empty() && words.trim() == words, "{at}");
                assert!(!words.contains(['_', '=', '`']), "{at}");
                assert!(
                    words.chars().count() <= 48,
                    "{at}: too long for a menu item"
                );
                assert!(
                    words != value || value.bytes().all(|b| b.is_ascii_digit()),
                    "{at}: a word value needs words that say what it does"
                );
                assert!(!seen.contains(&words), "{at}: two choices read alike");
                seen.push(words);
                checked += 1;
            }
        }
    }
    assert!(checked > 0, "no game lists choices");
}
