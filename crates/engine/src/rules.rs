//! The rules text of a game, drawn from its page in `docs/games/` (the game crate
//! includes the page as [`tabula_core::Registered::RULES`]): the page's title and
//! opening paragraphs, its `## Rules as implemented` and `## Notation` sections
//! (with their subsections). `tabula rules GAME` prints it; the server serves it at
//! `GET /api/games/{game}/rules`.

/// The sections of a game page a player needs: the title, then `## Rules…` and
/// `## Notation` (each up to the next `##` heading), with the page's references to
/// its source documents in plain words. The opening paragraphs are left out: they
/// name crates, types and sources, which is for programmers. Empty when the page is
/// empty.
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
            // SameGame's page calls its notation "Position text" and "Moves".
            section = Some(
                title.starts_with("rules")
                    || title.starts_with("notation")
                    || title == "moves"
                    || title == "position text",
            );
        }
        let keep = match section {
            None => line.starts_with("# "),
            Some(keep) => keep,
        };
        if keep {
            out.push_str(line);
            out.push('\n');
            if section.is_none() {
                out.push('\n');
            }
        }
    }
    let out = plain_sources(&out);
    out.trim_end().to_string() + if out.is_empty() { "" } else { "\n" }
}

/// The pages cite the documents the rules were taken from ("seed 002", "the
/// seed's"); a player reads those as the original program.
fn plain_sources(text: &str) -> String {
    let mut out = text.to_string();
    for n in 0..=4 {
        out = out
            .replace(&format!("seed 00{n}'s"), "the original program's")
            .replace(&format!("Seed 00{n}'s"), "The original program's")
            .replace(&format!("seed 00{n}"), "the original program")
            .replace(&format!("Seed 00{n}"), "The original program");
    }
    out.replace("The seed's", "The original program's")
        .replace("the seed's", "the original program's")
        .replace("The seed ", "The original program ")
        .replace("the seed", "the original program")
        .replace(
            "the original program the original program",
            "the original program",
        )
}

#[cfg(test)]
mod tests {
    use super::rules_markdown;

    #[test]
    fn keeps_the_opening_rules_and_notation_only() {
        let page = "# Game\n\nIntro.\n\n## Rules as implemented\n\nR1.\n\n### Options\n\nO.\n\n\
                    ## Players\n\nP.\n\n```\n## not a heading\n```\n\n## Notation\n\nN.\n\n## Speed\n\nS.\n";
        let md = rules_markdown(page);
        for kept in ["# Game", "R1.", "### Options", "O.", "## Notation", "N."] {
            assert!(md.contains(kept), "{kept} missing from {md}");
        }
        for dropped in ["Intro.", "P.", "S.", "## Players", "not a heading"] {
            assert!(!md.contains(dropped), "{dropped} kept in {md}");
        }
        assert_eq!(rules_markdown(""), "");
    }

    #[test]
    fn sources_read_as_the_original_program() {
        let page = "# G\n\nCrate `x`.\n\n## Rules\n\nAs seed 002 says, the seed's rule; \
                    The seed draws O; `rules=seed` stays.\n";
        let md = rules_markdown(page);
        assert!(!md.contains("Crate"), "{md}");
        assert!(
            md.contains("As the original program says, the original program's rule"),
            "{md}"
        );
        assert!(md.contains("The original program draws O"), "{md}");
        assert!(md.contains("`rules=seed` stays"), "{md}");
    }
}
