//! A variant in words for players: the options that differ from the game's
//! defaults, each under its label ("rules gamesman · draw after quiet moves 100"),
//! for titles in the terminal and the browser.

use tabula_core::{Variant, VariantOption};

/// The options of `variant` that differ from the defaults in `options`, in words,
/// joined by " · "; empty for the default game (or text that does not parse, which
/// a caller has refused before).
pub fn variant_words(options: &[VariantOption], variant: &str) -> String {
    let Ok(parsed) = Variant::parse(variant) else {
        return String::new();
    };
    options
        .iter()
        .filter_map(|o| {
            let value = parsed.get(o.name)?;
            (!value.eq_ignore_ascii_case(o.default)).then(|| {
                // A menu choice reads as its words, without their explanation in
                // brackets ("misère (last counter loses)": "misère").
                let chosen = o
                    .choices
                    .iter()
                    .find(|c| c.value.eq_ignore_ascii_case(value));
                if let Some(c) = chosen.filter(|c| !c.words.is_empty()) {
                    let short = c.words.split(" (").next().unwrap_or(c.words);
                    return format!("{} {short}", o.label);
                }
                let value = match (o.name, value) {
                    ("heaps", v) => v.replace(['-', '.', '/', '+', ':'], " "),
                    ("nocapture" | "repetition", "0") => "off".to_string(),
                    (_, v) => v.to_string(),
                };
                format!("{} {value}", o.label)
            })
        })
        .collect::<Vec<_>>()
        .join(" · ")
}

#[cfg(test)]
mod tests {
    use super::variant_words;
    use tabula_core::{VariantChoice, VariantOption};

    const OPTIONS: [VariantOption; 4] = [
        VariantOption {
            name: "rules",
            label: "rules",
            default: "standard",
            help: "",
            choices: &[],
        },
        VariantOption {
            name: "nocapture",
            label: "draw after quiet moves",
            default: "150",
            help: "",
            choices: &[],
        },
        VariantOption {
            name: "heaps",
            label: "heaps",
            default: "3-4-5",
            help: "",
            choices: &[],
        },
        VariantOption {
            name: "play",
            label: "play",
            default: "normal",
            help: "",
            choices: &[
                VariantChoice {
                    value: "normal",
                    words: "normal (last counter wins)",
                },
                VariantChoice {
                    value: "misere",
                    words: "misère (last counter loses)",
                },
            ],
        },
    ];

    #[test]
    fn only_changed_options_in_words() {
        assert_eq!(variant_words(&OPTIONS, ""), "");
        assert_eq!(variant_words(&OPTIONS, "nocapture=150,rules=standard"), "");
        assert_eq!(
            variant_words(&OPTIONS, "rules=gamesman,nocapture=0,heaps=1-2-3"),
            "rules gamesman · draw after quiet moves off · heaps 1 2 3"
        );
        // A menu choice in its words, without the explanation in brackets.
        assert_eq!(variant_words(&OPTIONS, "play=MISERE"), "play misère");
        assert_eq!(variant_words(&OPTIONS, "play=normal"), "");
    }
}
