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
                let value = match (o.name, value) {
                    ("play", v) if v.eq_ignore_ascii_case("misere") => "misère".to_string(),
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
    use tabula_core::VariantOption;

    const OPTIONS: [VariantOption; 3] = [
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
    ];

    #[test]
    fn only_changed_options_in_words() {
        assert_eq!(variant_words(&OPTIONS, ""), "");
        assert_eq!(variant_words(&OPTIONS, "nocapture=150,rules=standard"), "");
        assert_eq!(
            variant_words(&OPTIONS, "rules=gamesman,nocapture=0,heaps=1-2-3"),
            "rules gamesman · draw after quiet moves off · heaps 1 2 3"
        );
    }
}
