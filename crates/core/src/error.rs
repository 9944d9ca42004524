use thiserror::Error;

/// Text that could not be read as a position, a move or a variant value.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("{message}")]
pub struct ParseError {
    /// What was wrong, in words a user understands (it names the bad part).
    pub message: String,
}

impl ParseError {
    /// A parse error with the given message. Control characters in it (a
    /// message that quotes the bad text) are written as escapes, so that a
    /// terminal shows them rather than acts on them.
    pub fn new(message: impl Into<String>) -> Self {
        let message: String = message.into();
        let message = if message.chars().any(char::is_control) {
            message
                .chars()
                .map(|c| {
                    if c.is_control() {
                        c.escape_debug().to_string()
                    } else {
                        c.to_string()
                    }
                })
                .collect()
        } else {
            message
        };
        ParseError { message }
    }

    /// A move read but not playable here (a full column): said as such, not
    /// as text that "cannot be read".
    pub fn illegal(reason: impl std::fmt::Display) -> Self {
        ParseError::new(format!("{ILLEGAL_PREFIX}{reason}"))
    }
}

/// How [`ParseError::illegal`] begins: the move was read, the rules refuse it.
const ILLEGAL_PREFIX: &str = "cannot play that move: ";

/// A move that cannot be played in the current position.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum MoveError {
    /// The text is not a move of this game at all. The message says "cannot read
    /// move" once, whether or not the game's own message already does.
    #[error("{}", parse_message(.0))]
    Parse(#[from] ParseError),
    /// The move is well formed but the rules forbid it here.
    #[error("illegal move {mv}: {reason}")]
    Illegal {
        /// The move as written.
        mv: String,
        /// Why it is illegal.
        reason: String,
    },
    /// The move is not among the legal moves of the position (a game that does not
    /// say why; games that know the reason use [`MoveError::Illegal`]).
    #[error("that move is not legal in this position")]
    NotLegal,
    /// The game is already over.
    #[error("the game is over")]
    GameOver,
    /// It is not a player's turn (dice must be rolled first) or not this player's.
    #[error("not your turn: {0}")]
    NotYourTurn(String),
}

fn parse_message(e: &ParseError) -> String {
    if e.message.starts_with("cannot read move") || e.message.starts_with(ILLEGAL_PREFIX) {
        e.message.clone()
    } else {
        format!("cannot read move: {}", e.message)
    }
}

/// Variant options that do not describe a playable game.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum VariantError {
    /// The option name is not known for this game.
    #[error("unknown option '{name}' for {game} (known: {known})")]
    UnknownOption {
        /// The game.
        game: String,
        /// The option given.
        name: String,
        /// The options the game knows, comma separated.
        known: String,
    },
    /// The option value could not be read or is out of range.
    #[error("'{value}' cannot be used for {name}: {reason}")]
    BadValue {
        /// The option.
        name: String,
        /// The value given.
        value: String,
        /// What is wrong with it.
        reason: String,
    },
    /// The text is not a list of `name=value` pairs.
    #[error("cannot read variant '{0}': expected name=value pairs separated by commas")]
    Syntax(String),
}

impl VariantError {
    /// The error with its option named as a player reads it ("columns", "draw
    /// after quiet moves"), not by its typed name ("width", "nocapture"), from
    /// the game's `options`: a player who chose it from a menu never saw that
    /// name, and one who typed it still knows which option it was. A value that
    /// is none of a menu's choices is answered with the choices as the menu
    /// names them, each with what to type when that differs ("misère (three in
    /// a row loses), written misere"), not with the typed values alone.
    pub fn labelled(self, options: &[crate::VariantOption]) -> Self {
        match self {
            VariantError::BadValue {
                name,
                value,
                reason,
            } => {
                let option = options.iter().find(|o| o.name == name);
                let reason = match option {
                    Some(o)
                        if o.choices.iter().any(|c| !c.value.is_empty())
                            && !o.choice_values().any(|v| v.eq_ignore_ascii_case(&value)) =>
                    {
                        choices_in_words(o.choices)
                    }
                    _ => reason,
                };
                let name = match option {
                    Some(o) if !o.label.is_empty() => o.label.to_string(),
                    _ => name,
                };
                VariantError::BadValue {
                    name,
                    value,
                    reason,
                }
            }
            other => other,
        }
    }
}

/// A menu's choices as a player reads them, with the typed value where the
/// words do not begin with it: "choose one of: normal (three in a row wins);
/// misère (three in a row loses), written misere".
fn choices_in_words(choices: &[crate::VariantChoice]) -> String {
    let items: Vec<String> = choices
        .iter()
        .filter(|c| !c.value.is_empty())
        .map(|c| {
            let words = c.words.trim();
            if words.is_empty() || words.eq_ignore_ascii_case(c.value) {
                c.value.to_string()
            } else if words.to_lowercase().starts_with(&c.value.to_lowercase()) {
                words.to_string()
            } else {
                format!("{words}, written {}", c.value)
            }
        })
        .collect();
    format!("choose one of: {}", items.join("; "))
}

/// A user's text quoted in an error: the first 60 characters, then `…`, so a huge
/// input never makes a huge message.
pub fn clip(text: &str) -> String {
    const KEEP: usize = 60;
    match text.char_indices().nth(KEEP) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_value_off_the_menu_is_answered_with_the_menu_in_words() {
        use crate::{VariantChoice, VariantOption};
        let options = [VariantOption {
            name: "start",
            label: "who starts",
            default: "1",
            help: "",
            choices: &[
                VariantChoice {
                    value: "1",
                    words: "Player 1",
                },
                VariantChoice {
                    value: "random",
                    words: "at random",
                },
                VariantChoice {
                    value: "normal",
                    words: "normal (a line wins)",
                },
            ],
        }];
        let bad = |value: &str, reason: &str| VariantError::BadValue {
            name: "start".into(),
            value: value.into(),
            reason: reason.into(),
        };
        assert_eq!(
            bad("x", "expected one of: 1, random, normal")
                .labelled(&options)
                .to_string(),
            "'x' cannot be used for who starts: choose one of: Player 1, written 1; at random, \
             written random; normal (a line wins)"
        );
        // A value of the menu refused for another reason keeps that reason.
        assert_eq!(
            bad("1", "not with two dice").labelled(&options).to_string(),
            "'1' cannot be used for who starts: not with two dice"
        );
    }

    #[test]
    fn a_parse_error_shows_control_characters_as_escapes() {
        let e = ParseError::new("unknown character '\u{1b}[2J' or '\0'");
        assert!(!e.message.chars().any(char::is_control), "{e:?}");
        assert_eq!(e.message, "unknown character '\\u{1b}[2J' or '\\0'");
        // Plain text is kept as it is.
        assert_eq!(ParseError::new("row 2: 'é'").message, "row 2: 'é'");
    }
}
