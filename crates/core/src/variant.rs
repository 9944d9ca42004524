use crate::VariantError;
use serde::Serialize;
use std::collections::BTreeMap;
use std::fmt;

/// One option a game accepts in its variant string, for listings and validation.
///
/// Serialised as `{name, label, default, help, choices, choice_words}`: `choices`
/// the values as typed (what clients read since before `choice_words` existed),
/// `choice_words` their words for a player, in the same order.
#[derive(Clone, Debug)]
pub struct VariantOption {
    /// Option name as typed (`size`, `colours`, `rules`).
    pub name: &'static str,
    /// The name as a player reads it (`nocapture`: "draw after quiet moves"): the
    /// label of the browser's variant form and the words of a variant's title.
    pub label: &'static str,
    /// Default value as text.
    pub default: &'static str,
    /// What it does and which values it takes.
    pub help: &'static str,
    /// The only values it takes, when they are a few words or numbers (`normal`,
    /// `misere`), each with its words for a player: a front end offers a menu of
    /// them instead of free text. Empty: any text the game reads (a size, heaps, a
    /// board number).
    pub choices: &'static [VariantChoice],
}

/// One value of a menu option: the text a game reads and the words a player reads
/// for it (`nobonus`: "no bonus for clearing"), declared side by side by the game
/// so a front end never shows an internal option string. Games write it as a struct
/// literal: a `&[...]` of literals is promoted to `'static`, one of `const fn` calls is not.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VariantChoice {
    /// The value as typed in a variant and read by the game (`nobonus`).
    pub value: &'static str,
    /// The value as a menu item, in a player's words, short (`no bonus for clearing`).
    pub words: &'static str,
}

impl VariantOption {
    /// The values of [`VariantOption::choices`], as typed, in order.
    pub fn choice_values(&self) -> impl Iterator<Item = &'static str> {
        self.choices.iter().map(|c| c.value)
    }
}

impl Serialize for VariantOption {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut s = serializer.serialize_struct("VariantOption", 6)?;
        s.serialize_field("name", self.name)?;
        s.serialize_field("label", self.label)?;
        s.serialize_field("default", self.default)?;
        s.serialize_field("help", self.help)?;
        // `choices` stays the list of values it always was; the words ride beside it.
        s.serialize_field("choices", &self.choice_values().collect::<Vec<_>>())?;
        s.serialize_field(
            "choice_words",
            &self.choices.iter().map(|c| c.words).collect::<Vec<_>>(),
        )?;
        s.end()
    }
}

/// A named variant, as in Simon Tatham's "Type" menu: a few ready-made choices a
/// front end offers beside the custom form (`GET /api/games/{game}` lists them).
#[derive(Clone, Debug, Serialize)]
pub struct Preset {
    /// What a player reads (`10x10, 3 colours`), in plain words, no option strings.
    pub name: &'static str,
    /// The variant text it stands for (`size=10x10,colours=3`; empty: the usual game).
    pub variant: &'static str,
}

/// Parsed variant options: `name=value` pairs, e.g. `size=16x4,colours=3`.
///
/// A bare word without `=` is shorthand for `rules=word` (`--variant gamesman`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Variant {
    values: BTreeMap<String, String>,
}

impl Variant {
    /// Parses `k=v,k2=v2` (spaces around items are ignored; empty text is the default).
    pub fn parse(text: &str) -> Result<Variant, VariantError> {
        let mut values = BTreeMap::new();
        for item in text
            .split([',', ' '])
            .map(str::trim)
            .filter(|s| !s.is_empty())
        {
            let (k, v) = match item.split_once('=') {
                Some((k, v)) => (k.trim(), v.trim()),
                None => ("rules", item),
            };
            if k.is_empty()
                || v.is_empty()
                || !k
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
            {
                return Err(VariantError::Syntax(crate::error::clip(text)));
            }
            values.insert(k.to_ascii_lowercase(), v.to_string());
        }
        Ok(Variant { values })
    }

    /// The raw value of an option, if given.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.values.get(name).map(String::as_str)
    }

    /// Sets an option (used to write a normalised variant back).
    pub fn set(&mut self, name: &str, value: impl Into<String>) {
        self.values.insert(name.to_string(), value.into());
    }

    /// Fails if an option is not among `known`.
    pub fn check_known(&self, game: &str, known: &[VariantOption]) -> Result<(), VariantError> {
        for k in self.values.keys() {
            if !known.iter().any(|o| o.name == k) {
                return Err(VariantError::UnknownOption {
                    game: game.to_string(),
                    name: k.clone(),
                    known: known.iter().map(|o| o.name).collect::<Vec<_>>().join(", "),
                });
            }
        }
        Ok(())
    }

    /// Reads an integer option within `min..=max`, or `default` when absent.
    pub fn int(&self, name: &str, default: i64, min: i64, max: i64) -> Result<i64, VariantError> {
        match self.get(name) {
            None => Ok(default),
            Some(v) => {
                let n: i64 = v.parse().map_err(|_| VariantError::BadValue {
                    name: name.into(),
                    value: v.into(),
                    reason: "not a whole number".into(),
                })?;
                if n < min || n > max {
                    return Err(VariantError::BadValue {
                        name: name.into(),
                        value: v.into(),
                        reason: format!("must be between {min} and {max}"),
                    });
                }
                Ok(n)
            }
        }
    }

    /// Reads a `WxH` size option (e.g. `16x4`) within the given bounds, or the default.
    pub fn size(
        &self,
        name: &str,
        default: (usize, usize),
        min: (usize, usize),
        max: (usize, usize),
    ) -> Result<(usize, usize), VariantError> {
        let Some(v) = self.get(name) else {
            return Ok(default);
        };
        let bad = |reason: String| VariantError::BadValue {
            name: name.into(),
            value: v.into(),
            reason,
        };
        let (a, b) = v
            .split_once(['x', 'X', '*'])
            .ok_or_else(|| bad("expected WIDTHxHEIGHT, like 16x4".into()))?;
        let parse = |s: &str, what: &str| -> Result<usize, VariantError> {
            s.trim()
                .parse::<usize>()
                .map_err(|_| bad(format!("{what} '{s}' is not a whole number")))
        };
        let (w, h) = (parse(a, "width")?, parse(b, "height")?);
        if w < min.0 || w > max.0 || h < min.1 || h > max.1 {
            return Err(bad(format!(
                "the width must be {} to {} and the height {} to {}",
                min.0, max.0, min.1, max.1
            )));
        }
        Ok((w, h))
    }

    /// Reads one of a fixed set of words, or the default.
    pub fn choice<'a>(
        &self,
        name: &str,
        default: &'a str,
        allowed: &[&'a str],
    ) -> Result<&'a str, VariantError> {
        match self.get(name) {
            None => Ok(default),
            Some(v) => allowed
                .iter()
                .copied()
                .find(|a| a.eq_ignore_ascii_case(v))
                .ok_or_else(|| VariantError::BadValue {
                    name: name.into(),
                    value: v.into(),
                    reason: format!("expected one of: {}", allowed.join(", ")),
                }),
        }
    }

    /// True when no option was given.
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut first = true;
        for (k, v) in &self.values {
            if !first {
                f.write_str(",")?;
            }
            first = false;
            write!(f, "{k}={v}")?;
        }
        Ok(())
    }
}
