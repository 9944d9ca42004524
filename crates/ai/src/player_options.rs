//! One reader for the options of every computer player (what follows the `:`
//! of `alphabeta:depth=6,ms=200`, `hold:25`, `matchbox:menace,symmetry=off`).
//!
//! A player declares its options once, as a list of [`OptionSpec`]s (a name,
//! what it is in a player's words, and what it takes: a whole number in a
//! range, a number, a word from a list, on/off, a word on its own, any text);
//! [`PlayerOptions::read`] reads a text against that list and refuses it in a
//! player's words ("the search depth must be a whole number from 1 to 64"), so
//! every player accepts the same forms and no player splits the text itself.
//!
//! The forms: items separated by commas, each `name=value` (spaces around
//! names and values are allowed, names in any case) or a word on its own — a
//! flag's name, or the value of the player's one nameless option (`hold:25`
//! means `hold:at=25`). The last of a repeated option counts.

use thiserror::Error;

/// Longest options text a player reads (longer is refused before reading).
pub const MAX_OPTIONS_LEN: usize = 500;

/// Most numbers an option of [`Kind::WholeList`] takes.
pub const MAX_LIST_LEN: usize = 64;

/// What an option takes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Kind {
    /// A whole number from `min` to `max`.
    Whole {
        /// Smallest allowed.
        min: u64,
        /// Largest allowed.
        max: u64,
    },
    /// A number, decimals allowed, from `min` to `max`.
    Number {
        /// Smallest allowed.
        min: f64,
        /// Largest allowed.
        max: f64,
    },
    /// Whole numbers from `min` to `max` separated by `:` (`4:3:2:1`), one to
    /// [`MAX_LIST_LEN`] of them.
    WholeList {
        /// Smallest allowed.
        min: u64,
        /// Largest allowed.
        max: u64,
    },
    /// One word of a list (any case).
    Choice(&'static [&'static str]),
    /// `on` or `off` (also yes/no, true/false, 1/0).
    OnOff,
    /// A word on its own, with no value (`finish`).
    Flag,
    /// Any text that is not empty; the player checks it itself.
    Text,
}

/// One option a player takes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct OptionSpec {
    /// What is typed before the `=` (lower case).
    pub name: &'static str,
    /// What it is, in a player's words, lower case ("the search depth").
    pub what: &'static str,
    /// What it takes.
    pub kind: Kind,
}

impl OptionSpec {
    /// An option `name` that is `what` and takes `kind`.
    pub const fn new(name: &'static str, what: &'static str, kind: Kind) -> OptionSpec {
        OptionSpec { name, what, kind }
    }
}

/// The options a player takes: their specs and, if any, the one that a value
/// on its own sets.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PlayerOptions {
    /// Every option, in the order the player's help names them.
    pub specs: &'static [OptionSpec],
    /// The option a word on its own is the value of (`hold:25`), if any.
    pub nameless: Option<&'static str>,
}

/// A value read for an option.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// Of a [`Kind::Whole`].
    Whole(u64),
    /// Of a [`Kind::Number`].
    Number(f64),
    /// Of a [`Kind::WholeList`].
    List(Vec<u64>),
    /// Of a [`Kind::Choice`]: the list's own word.
    Choice(&'static str),
    /// Of a [`Kind::OnOff`].
    OnOff(bool),
    /// Of a [`Kind::Flag`]: it was given.
    Flag,
    /// Of a [`Kind::Text`], trimmed.
    Text(String),
}

/// The options read from a text, in the order given.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ReadOptions {
    given: Vec<(&'static str, Value)>,
}

/// Why a player's options cannot be read, in a player's words.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum PlayerOptionError {
    /// The text is longer than [`MAX_OPTIONS_LEN`].
    #[error("the player's options are too long (at most {MAX_OPTIONS_LEN} characters)")]
    TooLong,
    /// The player takes no options at all.
    #[error("this player takes no options (not '{0}')")]
    TakesNone(String),
    /// An item names no option of this player.
    #[error("this player has no option '{name}' (its options: {known})")]
    Unknown {
        /// The name as typed (or the whole item when it has no name).
        name: String,
        /// The player's option names, comma separated.
        known: String,
    },
    /// A whole number was wanted.
    #[error("{what} must be a whole number from {min} to {max}")]
    Whole {
        /// The option, in a player's words.
        what: &'static str,
        /// Smallest allowed.
        min: u64,
        /// Largest allowed.
        max: u64,
    },
    /// A number was wanted.
    #[error("{what} must be a number from {min} to {max}")]
    Number {
        /// The option, in a player's words.
        what: &'static str,
        /// Smallest allowed.
        min: String,
        /// Largest allowed.
        max: String,
    },
    /// A list of whole numbers was wanted.
    #[error("{what} must be whole numbers from {min} to {max} separated by ':' (such as 4:3:2:1), at most {MAX_LIST_LEN} of them")]
    WholeList {
        /// The option, in a player's words.
        what: &'static str,
        /// Smallest allowed.
        min: u64,
        /// Largest allowed.
        max: u64,
    },
    /// A word of a list was wanted.
    #[error("{what} must be {choices}")]
    Choice {
        /// The option, in a player's words.
        what: &'static str,
        /// The words allowed, as "a, b or c".
        choices: String,
    },
    /// On or off was wanted.
    #[error("{what} must be on or off")]
    OnOff {
        /// The option, in a player's words.
        what: &'static str,
    },
    /// A flag was given a value.
    #[error("{what} is a word on its own: write just '{name}'")]
    FlagWithValue {
        /// The option, in a player's words.
        what: &'static str,
        /// The flag's name.
        name: &'static str,
    },
    /// A text option was given nothing.
    #[error("{what} must be given after '{name}='")]
    Empty {
        /// The option, in a player's words.
        what: &'static str,
        /// The option's name.
        name: &'static str,
    },
}

/// "a, b or c".
fn either(words: &[&str]) -> String {
    match words {
        [] => String::new(),
        [one] => (*one).to_string(),
        [rest @ .., last] => format!("{} or {last}", rest.join(", ")),
    }
}

impl PlayerOptions {
    /// A player with these options and no nameless one.
    pub const fn new(specs: &'static [OptionSpec]) -> PlayerOptions {
        PlayerOptions {
            specs,
            nameless: None,
        }
    }

    /// The same, where a value on its own is the value of `name`.
    pub const fn nameless(self, name: &'static str) -> PlayerOptions {
        PlayerOptions {
            nameless: Some(name),
            ..self
        }
    }

    /// The option called `name` (any case).
    pub fn spec(&self, name: &str) -> Option<&'static OptionSpec> {
        self.specs
            .iter()
            .find(|s| s.name.eq_ignore_ascii_case(name))
    }

    fn unknown(&self, name: &str) -> PlayerOptionError {
        let name: String = name.chars().take(40).collect();
        if self.specs.is_empty() {
            return PlayerOptionError::TakesNone(name);
        }
        let known: Vec<&str> = self.specs.iter().map(|s| s.name).collect();
        PlayerOptionError::Unknown {
            name,
            known: known.join(", "),
        }
    }

    /// Reads an options text (see the module documentation).
    pub fn read(&self, text: &str) -> Result<ReadOptions, PlayerOptionError> {
        if text.len() > MAX_OPTIONS_LEN {
            return Err(PlayerOptionError::TooLong);
        }
        let mut read = ReadOptions::default();
        for item in text.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            let (spec, value) = match item.split_once('=') {
                Some((name, value)) => {
                    let name = name.trim();
                    let spec = self
                        .spec(name)
                        .ok_or_else(|| self.unknown(if name.is_empty() { item } else { name }))?;
                    (spec, Some(value.trim()))
                }
                None => match self.spec(item) {
                    Some(spec) if spec.kind == Kind::Flag => (spec, None),
                    // A name without its value: refused in the value's words.
                    Some(spec) => (spec, Some("")),
                    None => match self.nameless.and_then(|n| self.spec(n)) {
                        Some(spec) => (spec, Some(item)),
                        None => return Err(self.unknown(item)),
                    },
                },
            };
            read.given.push((spec.name, value_of(spec, value)?));
        }
        Ok(read)
    }
}

impl PlayerOptions {
    /// Reads the items that name one of these options and leaves every other
    /// item, in order, as the options text of another reader (a level read off
    /// `alphabeta:depth=6,level=50`, the rest for alpha-beta). A word on its
    /// own is left unless it is a flag of these.
    pub fn read_leaving_others(
        &self,
        text: &str,
    ) -> Result<(ReadOptions, String), PlayerOptionError> {
        if text.len() > MAX_OPTIONS_LEN {
            return Err(PlayerOptionError::TooLong);
        }
        let mut read = ReadOptions::default();
        let mut others = Vec::new();
        for item in text.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            let (name, value) = match item.split_once('=') {
                Some((name, value)) => (name.trim(), Some(value.trim())),
                None => (item, None),
            };
            match self.spec(name) {
                Some(spec) if value.is_some() || spec.kind == Kind::Flag => {
                    read.given.push((spec.name, value_of(spec, value)?));
                }
                _ => others.push(item),
            }
        }
        Ok((read, others.join(",")))
    }
}

/// The value of `spec` typed as `value` (`None`: the word alone).
fn value_of(spec: &OptionSpec, value: Option<&str>) -> Result<Value, PlayerOptionError> {
    let what = spec.what;
    let Some(value) = value else {
        return Ok(Value::Flag);
    };
    match spec.kind {
        Kind::Flag => Err(PlayerOptionError::FlagWithValue {
            what,
            name: spec.name,
        }),
        Kind::Whole { min, max } => value
            .parse::<u64>()
            .ok()
            .filter(|n| (min..=max).contains(n))
            .map(Value::Whole)
            .ok_or(PlayerOptionError::Whole { what, min, max }),
        Kind::Number { min, max } => value
            .parse::<f64>()
            .ok()
            .filter(|n| n.is_finite() && (min..=max).contains(n))
            .map(Value::Number)
            .ok_or_else(|| PlayerOptionError::Number {
                what,
                min: min.to_string(),
                max: max.to_string(),
            }),
        Kind::WholeList { min, max } => {
            let list: Option<Vec<u64>> = value
                .split(':')
                .map(|n| {
                    n.trim()
                        .parse::<u64>()
                        .ok()
                        .filter(|n| (min..=max).contains(n))
                })
                .collect();
            list.filter(|l| !l.is_empty() && l.len() <= MAX_LIST_LEN)
                .map(Value::List)
                .ok_or(PlayerOptionError::WholeList { what, min, max })
        }
        Kind::Choice(words) => words
            .iter()
            .find(|w| w.eq_ignore_ascii_case(value))
            .map(|w| Value::Choice(w))
            .ok_or_else(|| PlayerOptionError::Choice {
                what,
                choices: either(words),
            }),
        Kind::OnOff => match value.to_ascii_lowercase().as_str() {
            "on" | "yes" | "true" | "1" => Ok(Value::OnOff(true)),
            "off" | "no" | "false" | "0" => Ok(Value::OnOff(false)),
            _ => Err(PlayerOptionError::OnOff { what }),
        },
        Kind::Text if value.is_empty() => Err(PlayerOptionError::Empty {
            what,
            name: spec.name,
        }),
        Kind::Text => Ok(Value::Text(value.to_string())),
    }
}

impl ReadOptions {
    /// Every option given, in order (a repeated one each time).
    pub fn given(&self) -> impl Iterator<Item = (&'static str, &Value)> {
        self.given.iter().map(|(n, v)| (*n, v))
    }

    /// The value last given for `name`.
    pub fn get(&self, name: &str) -> Option<&Value> {
        self.given
            .iter()
            .rev()
            .find(|(n, _)| *n == name)
            .map(|(_, v)| v)
    }

    /// The whole number given for `name`.
    pub fn whole(&self, name: &str) -> Option<u64> {
        match self.get(name)? {
            Value::Whole(n) => Some(*n),
            _ => None,
        }
    }

    /// The number given for `name`.
    pub fn number(&self, name: &str) -> Option<f64> {
        match self.get(name)? {
            Value::Number(x) => Some(*x),
            _ => None,
        }
    }

    /// The list given for `name`.
    pub fn list(&self, name: &str) -> Option<&[u64]> {
        match self.get(name)? {
            Value::List(l) => Some(l),
            _ => None,
        }
    }

    /// The word given for `name`.
    pub fn choice(&self, name: &str) -> Option<&'static str> {
        match self.get(name)? {
            Value::Choice(w) => Some(w),
            _ => None,
        }
    }

    /// On or off, as given for `name`.
    pub fn on_off(&self, name: &str) -> Option<bool> {
        match self.get(name)? {
            Value::OnOff(b) => Some(*b),
            _ => None,
        }
    }

    /// Whether the flag `name` was given.
    pub fn flag(&self, name: &str) -> bool {
        self.get(name) == Some(&Value::Flag)
    }

    /// The text given for `name`.
    pub fn text(&self, name: &str) -> Option<&str> {
        match self.get(name)? {
            Value::Text(t) => Some(t),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const SPECS: &[OptionSpec] = &[
        OptionSpec::new("depth", "the search depth", Kind::Whole { min: 1, max: 20 }),
        OptionSpec::new(
            "seconds",
            "the thinking time",
            Kind::Number {
                min: 0.0,
                max: 3600.0,
            },
        ),
        OptionSpec::new(
            "initial",
            "the starting beads",
            Kind::WholeList { min: 1, max: 1000 },
        ),
        OptionSpec::new(
            "mode",
            "the learning rule",
            Kind::Choice(&["gardner", "menace"]),
        ),
        OptionSpec::new(
            "symmetry",
            "sharing boxes between mirror images",
            Kind::OnOff,
        ),
        OptionSpec::new("finish", "finishing first", Kind::Flag),
        OptionSpec::new("base", "the player to mix with", Kind::Text),
    ];
    const ALL: PlayerOptions = PlayerOptions::new(SPECS).nameless("mode");

    #[test]
    fn every_kind_is_read() {
        let read = ALL
            .read(" Depth = 7 ,seconds=0.5,initial=4:3:2:1,MENACE,symmetry=off,finish,base=alphabeta:depth=6")
            .unwrap();
        assert_eq!(read.whole("depth"), Some(7));
        assert_eq!(read.number("seconds"), Some(0.5));
        assert_eq!(read.list("initial"), Some(&[4, 3, 2, 1][..]));
        assert_eq!(read.choice("mode"), Some("menace"));
        assert_eq!(read.on_off("symmetry"), Some(false));
        assert!(read.flag("finish"));
        assert_eq!(read.text("base"), Some("alphabeta:depth=6"));
        // Nothing given: nothing read; the last of a repeated option counts.
        let read = ALL.read("").unwrap();
        assert_eq!((read.whole("depth"), read.flag("finish")), (None, false));
        assert_eq!(ALL.read("depth=3,depth=5").unwrap().whole("depth"), Some(5));
        assert_eq!(
            ALL.read("mode=gardner").unwrap().choice("mode"),
            Some("gardner")
        );
    }

    #[test]
    fn every_refusal_is_in_a_players_words() {
        let none = PlayerOptions::new(&[]);
        let cases: Vec<(PlayerOptions, String, &str)> = vec![
            (ALL, "x".repeat(MAX_OPTIONS_LEN + 1), "the player's options are too long (at most 500 characters)"),
            (none, "fast".into(), "this player takes no options (not 'fast')"),
            (PlayerOptions::new(SPECS), "speed=3".into(), "this player has no option 'speed' (its options: depth, seconds, initial, mode, symmetry, finish, base)"),
            (PlayerOptions::new(SPECS), "fast".into(), "this player has no option 'fast' (its options: depth, seconds, initial, mode, symmetry, finish, base)"),
            (ALL, "=5".into(), "this player has no option '=5' (its options: depth, seconds, initial, mode, symmetry, finish, base)"),
            (ALL, "depth=0".into(), "the search depth must be a whole number from 1 to 20"),
            (ALL, "depth=21".into(), "the search depth must be a whole number from 1 to 20"),
            (ALL, "depth=x".into(), "the search depth must be a whole number from 1 to 20"),
            (ALL, "depth=-3".into(), "the search depth must be a whole number from 1 to 20"),
            (ALL, "depth".into(), "the search depth must be a whole number from 1 to 20"),
            (ALL, "seconds=NaN".into(), "the thinking time must be a number from 0 to 3600"),
            (ALL, "seconds=4000".into(), "the thinking time must be a number from 0 to 3600"),
            (ALL, "initial=4::1".into(), "the starting beads must be whole numbers from 1 to 1000 separated by ':' (such as 4:3:2:1), at most 64 of them"),
            (ALL, "initial=0".into(), "the starting beads must be whole numbers from 1 to 1000 separated by ':' (such as 4:3:2:1), at most 64 of them"),
            (ALL, "mode=fast".into(), "the learning rule must be gardner or menace"),
            (ALL, "fast".into(), "the learning rule must be gardner or menace"),
            (ALL, "symmetry=maybe".into(), "sharing boxes between mirror images must be on or off"),
            (ALL, "finish=yes".into(), "finishing first is a word on its own: write just 'finish'"),
            (ALL, "base=".into(), "the player to mix with must be given after 'base='"),
        ];
        for (options, text, words) in cases {
            assert_eq!(
                options.read(&text).unwrap_err().to_string(),
                words,
                "{text}"
            );
        }
        // A list at its longest is read; one longer is not.
        let longest = vec!["1"; MAX_LIST_LEN].join(":");
        assert!(ALL.read(&format!("initial={longest}")).is_ok());
        assert!(ALL.read(&format!("initial={longest}:1")).is_err());
    }

    #[test]
    fn a_reader_can_leave_what_it_does_not_know_to_another() {
        const LEVEL: PlayerOptions = PlayerOptions::new(&[OptionSpec::new(
            "level",
            "the level",
            Kind::Whole { min: 0, max: 100 },
        )]);
        let level = LEVEL;
        let (read, rest) = level
            .read_leaving_others(" depth=6 , level = 50,ms=20,fast")
            .unwrap();
        assert_eq!(
            (read.whole("level"), rest.as_str()),
            (Some(50), "depth=6,ms=20,fast")
        );
        let (read, rest) = level.read_leaving_others("depth=6").unwrap();
        assert_eq!((read.whole("level"), rest.as_str()), (None, "depth=6"));
        assert_eq!(
            level
                .read_leaving_others("level=101")
                .unwrap_err()
                .to_string(),
            "the level must be a whole number from 0 to 100"
        );
        assert_eq!(
            level.read_leaving_others(&"x".repeat(MAX_OPTIONS_LEN + 1)),
            Err(PlayerOptionError::TooLong)
        );
    }

    proptest! {
        #[test]
        fn any_text_is_read_or_refused_without_a_panic(text in any::<String>()) {
            let _ = ALL.read(&text);
            let _ = PlayerOptions::new(&[]).read(&text);
            let _ = ALL.read_leaving_others(&text);
        }

        #[test]
        fn option_like_texts_are_read_or_refused_without_a_panic(
            text in "[a-z=,: .0-9-]{0,40}"
        ) {
            if let Err(e) = ALL.read(&text) {
                prop_assert!(!e.to_string().is_empty());
            }
        }
    }
}
