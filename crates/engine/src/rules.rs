//! The rules text of a game, drawn from its page in `docs/games/` (the game crate
//! includes the page as [`tabula_core::Registered::RULES`]): the page's title and
//! opening paragraphs, its `## Rules as implemented` and `## Notation` sections
//! (with their subsections). `tabula rules GAME` prints it; the server serves it at
//! `GET /api/games/{game}/rules`.

/// The sections of a game page a player needs: the opening (title and the
/// paragraphs before the first `##`), then `## Rules…` and `## Notation` (each up
/// to the next `##` heading). Empty when the page is empty.
pub fn rules_markdown(page: &str) -> String {
    let mut out = String::new();
    // None: the opening, before any `##`; Some(keep): inside a `##` section.
    let mut section: Option<bool> = None;
    let mut in_code = false;
    for line in page.lines() {
        if line.trim_start().starts_with("```") {
            in_code = !in_code;
        }
        if !in_code && line.starts_with("## ") {
            let title = line[3..].trim().to_ascii_lowercase();
            section = Some(title.starts_with("rules") || title.starts_with("notation"));
        }
        if section.unwrap_or(true) {
            out.push_str(line);
            out.push('\n');
        }
    }
    out.trim_end().to_string() + if out.is_empty() { "" } else { "\n" }
}

#[cfg(test)]
mod tests {
    use super::rules_markdown;

    #[test]
    fn keeps_the_opening_rules_and_notation_only() {
        let page = "# Game\n\nIntro.\n\n## Rules as implemented\n\nR1.\n\n### Options\n\nO.\n\n\
                    ## Players\n\nP.\n\n```\n## not a heading\n```\n\n## Notation\n\nN.\n\n## Speed\n\nS.\n";
        let md = rules_markdown(page);
        for kept in [
            "# Game",
            "Intro.",
            "R1.",
            "### Options",
            "O.",
            "## Notation",
            "N.",
        ] {
            assert!(md.contains(kept), "{kept} missing from {md}");
        }
        for dropped in ["P.", "S.", "## Players", "not a heading"] {
            assert!(!md.contains(dropped), "{dropped} kept in {md}");
        }
        assert_eq!(rules_markdown(""), "");
    }
}
