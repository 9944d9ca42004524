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

#[test]
fn the_summary_follows_the_variant() {
    // The usual game keeps its registered sentence (Poggle names its k: 2 colours).
    for entry in registry() {
        let text = summary(entry.name, "");
        if entry.name == "poggle" {
            assert!(text.starts_with("Lights Out with 2 colours"), "{text}");
        } else {
            assert_eq!(text, entry.summary, "{}", entry.name);
        }
    }
    let cases = [
        ("hexapawn", "columns=4,rows=4", "4x4 board", "3x3"),
        ("hexapawn", "play=misere", "misère", "made to teach"),
        (
            "tictactoe",
            "play=misere",
            "three in a row loses",
            "three in a row wins",
        ),
        (
            "nim",
            "play=misere",
            "takes the last counter loses",
            "cannot move loses",
        ),
        (
            "mu-torere",
            "play=misere",
            "who cannot move wins",
            "cannot move loses",
        ),
        ("kono", "rules=gamesman", "one piece left loses", "\u{0}"),
        ("samegame", "scoring=blocks", "1 per block", "1000"),
        ("poggle", "colours=3", "3 colours", "k colours"),
        ("poggle", "topology=torus", "wrap around", "k colours"),
        ("pig", "goal=50,dice=2", "First to 50 wins", "First to 100"),
    ];
    for (game, variant, says, not) in cases {
        let text = summary(game, variant);
        assert!(text.contains(says), "{game} {variant}: {text}");
        assert!(!text.contains(not), "{game} {variant}: {text}");
    }
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
