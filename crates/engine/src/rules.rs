//! The rules text of a game: its page `crates/games/NAME/docs/rules.md`, written for players (the
//! game crate includes it as [`tabula_core::Registered::RULES`]). `tabula rules
//! GAME` prints it, the web page shows it as "How to play", and the server serves it
//! at `GET /api/games/{game}/rules`.

/// The rules page as served: surrounding blank lines removed and one final
/// newline; empty when the game has no page.
pub fn rules_markdown(page: &str) -> String {
    let text = page.trim();
    if text.is_empty() {
        String::new()
    } else {
        format!("{text}\n")
    }
}

/// Words that belong in a programmer's page, not in rules for players: where a rule
/// came from, code names, option strings. Each found word is returned with the line
/// it is on, so a test can say what to rewrite.
pub fn developer_words(rules: &str) -> Vec<String> {
    const WORDS: [&str; 8] = [
        "seed",
        "crate",
        "tabula_",
        "implemented",
        "variant=",
        "Outcome",
        "legal_moves",
        "view model",
    ];
    let mut found = Vec::new();
    for line in rules.lines() {
        let lower = line.to_lowercase();
        for word in WORDS {
            if lower.contains(&word.to_lowercase()) {
                found.push(format!("'{word}' in: {line}"));
            }
        }
        // Identifiers in code spans (`legal_moves`, `canMove`, `rules=best`) are
        // program text; moves and positions in code spans are what a player types.
        for span in line.split('`').skip(1).step_by(2) {
            let camel = span
                .as_bytes()
                .windows(2)
                .any(|w| w[0].is_ascii_lowercase() && w[1].is_ascii_uppercase());
            if span.contains('_') || span.contains('=') || camel {
                found.push(format!("code name `{span}` in: {line}"));
            }
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::{developer_words, rules_markdown};

    #[test]
    fn pages_are_served_trimmed() {
        assert_eq!(rules_markdown("\n# Game\n\nText.\n\n"), "# Game\n\nText.\n");
        assert_eq!(rules_markdown("  \n"), "");
    }

    #[test]
    fn developer_words_are_caught() {
        let page =
            "# G\n\nAs the seed says.\n\nUse `canMove`, `rules=best` and `play_draw_rule`.\n\
                    Type `2-c` or `1:3->1`.\n";
        let found = developer_words(page);
        assert_eq!(found.len(), 4, "{found:?}");
        assert!(found[0].contains("seed"));
        assert!(found.iter().any(|f| f.contains("canMove")));
        assert!(!found.iter().any(|f| f.contains("2-c") || f.contains("1:3")));
    }
}
