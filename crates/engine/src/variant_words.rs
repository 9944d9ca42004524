//! A variant in words for players: the options that differ from the game's
//! defaults, each with its label ("5 columns, three in a row, draw after quiet
//! moves 100"), for titles in the terminal and the browser.

use tabula_core::{Variant, VariantOption};

/// The options of `variant` that differ from the defaults in `options`, in words,
/// joined by ", "; empty for the default game (or text that does not parse, which
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
                if let Some(c) = chosen.filter(|c| !c.words.is_empty() && c.words != c.value) {
                    let short = c.words.split(" (").next().unwrap_or(c.words);
                    // Words that already say what the option is ("three in
                    // a row" for "discs in a row") are not said after its label.
                    return if says_label(short, o.label) {
                        short.to_string()
                    } else {
                        format!("{} {short}", o.label)
                    };
                }
                let value = match (o.name, value) {
                    ("heaps", v) => v.replace(['-', '.', '/', '+', ':'], " "),
                    ("nocapture" | "repetition", "0") => "off".to_string(),
                    (_, v) => v.to_string(),
                };
                counted(&value, o.label).unwrap_or_else(|| format!("{} {value}", o.label))
            })
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// Whether `words` end with the last word of `label`, so say what it is.
fn says_label(words: &str, label: &str) -> bool {
    let last = |t: &str| t.split_whitespace().last().map(str::to_lowercase);
    last(label).is_some() && last(words) == last(label)
}

/// A count of things said as players count them ("5 columns", "1 marker"),
/// when the label is one plural word and the value a whole number.
fn counted(value: &str, label: &str) -> Option<String> {
    let n: u64 = value.parse().ok()?;
    let one = label.strip_suffix('s')?;
    if label.contains(' ') || one.is_empty() {
        return None;
    }
    Some(if n == 1 {
        format!("1 {one}")
    } else {
        format!("{n} {label}")
    })
}

#[cfg(test)]
mod tests {
    use super::variant_words;
    use tabula_core::{VariantChoice, VariantOption};

    const OPTIONS: [VariantOption; 6] = [
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
        VariantOption {
            name: "width",
            label: "columns",
            default: "7",
            help: "",
            choices: &[],
        },
        VariantOption {
            name: "connect",
            label: "discs in a row",
            default: "4",
            help: "",
            choices: &[
                VariantChoice {
                    value: "4",
                    words: "four in a row",
                },
                VariantChoice {
                    value: "3",
                    words: "three in a row",
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
            "rules gamesman, draw after quiet moves off, heaps 1 2 3"
        );
        // A count before its plural label; words that say what the option is
        // alone, not after its label ("in a row three in a row").
        assert_eq!(
            variant_words(&OPTIONS, "width=5,connect=3"),
            "5 columns, three in a row"
        );
        assert_eq!(variant_words(&OPTIONS, "width=1"), "1 column");
        // A menu choice in its words, without the explanation in brackets.
        assert_eq!(variant_words(&OPTIONS, "play=MISERE"), "play misère");
        assert_eq!(variant_words(&OPTIONS, "play=normal"), "");
    }
}
