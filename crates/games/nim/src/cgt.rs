//! The blog's scoring-system calculator: sums of integers and nimbers.
//!
//! `evaluate("1* + 2* + 3*")` is `0` (the second player wins); `evaluate("-1 + 1*")` is
//! `-1 + 1*` (Right wins). Notation, as in the blog: `3*` is the nimber of a Nim heap of
//! three (`*3` in Winning Ways, also accepted), `*` alone is `1*`, a bare number is an
//! integer (that many free moves for Left, or for Right when negative). Terms are
//! joined by `+` and `-`; a term may carry one sign of its own (`1 - -2`). Subtracting a
//! nimber is adding it (every nimber is its own negative). `2*3` is refused as
//! ambiguous: write `2 + 3*` or `2* + 3`.

use crate::Nimber;
use serde::{Deserialize, Serialize};
use std::fmt;
use tabula_core::ParseError;

/// Who wins a game of this value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Winner {
    /// The value is positive: Left (Lucy) wins whoever starts.
    Left,
    /// The value is negative: Right (Robert) wins whoever starts.
    Right,
    /// Zero integer part and a non-zero nimber: fuzzy, the first player wins.
    FirstPlayer,
    /// The value is zero: the first player to move loses.
    SecondPlayer,
}

impl Winner {
    /// The outcome in words.
    pub fn describe(self) -> &'static str {
        match self {
            Winner::Left => "Left (Lucy) wins, whoever starts",
            Winner::Right => "Right (Robert) wins, whoever starts",
            Winner::FirstPlayer => "the first player wins",
            Winner::SecondPlayer => "the second player wins (the first player to move loses)",
        }
    }
}

/// An integer plus a nimber, the value of a sum like `-1 + 1* + 2*`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(into = "CgtJson", from = "CgtInput")]
pub struct CgtValue {
    /// The integer part (free moves: positive for Left, negative for Right).
    pub integer: i64,
    /// The nimber part.
    pub nimber: Nimber,
}

impl CgtValue {
    /// The value `integer + nimber`.
    pub fn new(integer: i64, nimber: Nimber) -> Self {
        CgtValue { integer, nimber }
    }

    /// Who wins a game of this value.
    pub fn winner(&self) -> Winner {
        match self.integer {
            i if i > 0 => Winner::Left,
            i if i < 0 => Winner::Right,
            _ if self.nimber.is_zero() => Winner::SecondPlayer,
            _ => Winner::FirstPlayer,
        }
    }
}

/// `0`, `2`, `-1`, `3*`, `2 + 3*`, `-1 + 1*`.
impl fmt::Display for CgtValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.integer, self.nimber.is_zero()) {
            (0, _) => write!(f, "{}", self.nimber),
            (i, true) => write!(f, "{i}"),
            (i, false) => write!(f, "{i} + {}", self.nimber),
        }
    }
}

/// The JSON form: `{"value":"2 + 3*","integer":2,"nimber":3,"winner":"left","outcome":"..."}`.
#[derive(Serialize)]
struct CgtJson {
    value: String,
    integer: i64,
    nimber: Nimber,
    winner: Winner,
    outcome: &'static str,
}

impl From<CgtValue> for CgtJson {
    fn from(v: CgtValue) -> Self {
        CgtJson {
            value: v.to_string(),
            integer: v.integer,
            nimber: v.nimber,
            winner: v.winner(),
            outcome: v.winner().describe(),
        }
    }
}

#[derive(Deserialize)]
struct CgtInput {
    #[serde(default)]
    integer: i64,
    #[serde(default)]
    nimber: Nimber,
}

impl From<CgtInput> for CgtValue {
    fn from(v: CgtInput) -> Self {
        CgtValue {
            integer: v.integer,
            nimber: v.nimber,
        }
    }
}

#[derive(Debug)]
enum Token<'a> {
    Term(&'a str, usize),
    Sign(bool, usize),
}

fn tokenize(expr: &str) -> Result<Vec<Token<'_>>, ParseError> {
    let mut tokens = Vec::new();
    let mut chars = expr.char_indices().peekable();
    while let Some(&(i, c)) = chars.peek() {
        match c {
            c if c.is_whitespace() => {
                chars.next();
            }
            '+' | '-' => {
                tokens.push(Token::Sign(c == '-', i + 1));
                chars.next();
            }
            c if c.is_ascii_digit() || c == '*' => {
                let mut end = i;
                while let Some(&(j, d)) = chars.peek() {
                    if d.is_ascii_digit() || d == '*' {
                        end = j + d.len_utf8();
                        chars.next();
                    } else {
                        break;
                    }
                }
                tokens.push(Token::Term(&expr[i..end], i + 1));
            }
            other => {
                // Name the whole bad word, not just its first character.
                let word: String = expr[i..]
                    .chars()
                    .take_while(|ch| !ch.is_whitespace() && *ch != '+' && *ch != '-')
                    .collect();
                return Err(ParseError::new(format!(
                    "unexpected '{word}' at position {} (starting with '{other}'): write integers like 2, nimbers like 3* or *3, joined by + and -",
                    expr[..i].chars().count() + 1
                )));
            }
        }
    }
    Ok(tokens)
}

fn term_value(text: &str, pos: usize) -> Result<CgtValue, ParseError> {
    let number = |digits: &str| -> Result<u64, ParseError> {
        digits.parse::<u64>().map_err(|_| {
            ParseError::new(format!(
                "number '{digits}' in '{text}' at position {pos} is too large"
            ))
        })
    };
    let stars = text.matches('*').count();
    if stars == 0 {
        let n = number(text)?;
        let i = i64::try_from(n).map_err(|_| {
            ParseError::new(format!("integer '{text}' at position {pos} is too large"))
        })?;
        return Ok(CgtValue::new(i, Nimber::ZERO));
    }
    if stars == 1 {
        if text == "*" {
            return Ok(CgtValue::new(0, Nimber::ONE));
        }
        if let Some(digits) = text.strip_suffix('*') {
            return Ok(CgtValue::new(0, Nimber(number(digits)?)));
        }
        if let Some(digits) = text.strip_prefix('*') {
            return Ok(CgtValue::new(0, Nimber(number(digits)?)));
        }
    }
    Err(ParseError::new(format!(
        "bad term '{text}' at position {pos}: write a nimber as 3* or *3 (or * for 1*), and an integer plus a nimber as 2 + 3*"
    )))
}

/// Evaluates a sum such as `1* + 2* + 3*`, `*3 + 2`, `-1 + 1*`, `0` or `*`.
pub fn evaluate(expr: &str) -> Result<CgtValue, ParseError> {
    let tokens = tokenize(expr)?;
    if tokens.is_empty() {
        return Err(ParseError::new(
            "empty expression: write a sum like 1* + 2* + 3*",
        ));
    }
    let mut total = CgtValue::default();
    // Sign of the next term; `None` between a term and the next operator.
    let mut pending: Option<bool> = Some(false);
    // Whether the pending term has already seen its own (unary) sign.
    let mut unary_used = false;
    let mut last_sign_pos = 0;
    for tok in &tokens {
        match *tok {
            Token::Sign(minus, pos) => match pending {
                None => {
                    pending = Some(minus);
                    unary_used = false;
                    last_sign_pos = pos;
                }
                Some(neg) if !unary_used => {
                    pending = Some(neg ^ minus);
                    unary_used = true;
                    last_sign_pos = pos;
                }
                Some(_) => {
                    return Err(ParseError::new(format!(
                        "too many signs in a row at position {pos}: '{}'",
                        if minus { '-' } else { '+' }
                    )))
                }
            },
            Token::Term(text, pos) => {
                let Some(neg) = pending else {
                    return Err(ParseError::new(format!(
                        "missing '+' or '-' before '{text}' at position {pos}"
                    )));
                };
                let v = term_value(text, pos)?;
                let int = if neg {
                    v.integer
                        .checked_neg()
                        .ok_or_else(|| ParseError::new(format!("'{text}' is too large")))?
                } else {
                    v.integer
                };
                total.integer = total.integer.checked_add(int).ok_or_else(|| {
                    ParseError::new(format!(
                        "the integer part overflows at '{text}' (position {pos})"
                    ))
                })?;
                total.nimber += v.nimber;
                pending = None;
                unary_used = false;
            }
        }
    }
    if pending.is_some() {
        return Err(ParseError::new(format!(
            "the expression ends with a sign at position {last_sign_pos}: a term must follow"
        )));
    }
    Ok(total)
}

/// The calculator as a tool the game offers (`tabula tool cgt EXPR`, the web
/// page's tool card, `POST /api/games/nim/tools/cgt`).
pub const TOOL: tabula_core::Tool = tabula_core::Tool {
    name: "cgt",
    title: "Sums of games",
    about: "Adds whole numbers (free moves: positive for Left, negative for Right) and nimbers \
            (3* is a Nim heap of three; * alone is 1*), and says who wins the sum.",
    example: "1* + 2* + 3*",
    run: tool_answer,
};

/// The tool's answer: the value and who wins, in words and as data.
fn tool_answer(input: &str) -> Result<tabula_core::ToolAnswer, tabula_core::ToolError> {
    let value = evaluate(input).map_err(|e| tabula_core::ToolError::Input(e.to_string()))?;
    let outcome = value.winner().describe();
    Ok(tabula_core::ToolAnswer {
        lines: vec![
            format!("{} = {}", input.trim(), value),
            format!("{}{}.", outcome[..1].to_uppercase(), &outcome[1..]),
        ],
        data: serde_json::to_value(value).unwrap_or(serde_json::Value::Null),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn ev(s: &str) -> CgtValue {
        evaluate(s).unwrap_or_else(|e| panic!("{s}: {e}"))
    }

    #[test]
    fn the_seed_identities() {
        assert_eq!(ev("1* + 2* + 3*"), CgtValue::new(0, Nimber(0)));
        assert_eq!(ev("1* + 2*"), CgtValue::new(0, Nimber(3)));
        assert_eq!(ev("1* + 3*"), CgtValue::new(0, Nimber(2)));
        assert_eq!(ev("2* + 3*"), CgtValue::new(0, Nimber(1)));
        for n in 0..50 {
            assert_eq!(ev(&format!("{n}* + {n}*")), CgtValue::default(), "n*+n*");
        }
        assert_eq!(ev("1* + 2* + 3*").winner(), Winner::SecondPlayer);
        assert_eq!(ev("1* + 2*").winner(), Winner::FirstPlayer);
        assert_eq!(ev("1* + 2*").to_string(), "3*");
    }

    #[test]
    fn integers_signs_and_stars() {
        assert_eq!(ev("*3 + 2"), CgtValue::new(2, Nimber(3)));
        assert_eq!(ev("*3 + 2").to_string(), "2 + 3*");
        assert_eq!(ev("*3 + 2").winner(), Winner::Left);
        assert_eq!(ev("-1 + 1*"), CgtValue::new(-1, Nimber(1)));
        assert_eq!(ev("-1 + 1*").to_string(), "-1 + 1*");
        assert_eq!(ev("-1 + 1*").winner(), Winner::Right);
        assert_eq!(ev("0"), CgtValue::default());
        assert_eq!(ev("0").to_string(), "0");
        assert_eq!(ev("*"), CgtValue::new(0, Nimber(1)));
        assert_eq!(ev("* + *"), CgtValue::default());
        assert_eq!(ev("3 - 5"), CgtValue::new(-2, Nimber(0)));
        assert_eq!(ev("1 - -2"), CgtValue::new(3, Nimber(0)));
        assert_eq!(ev("5* - 4*"), CgtValue::new(0, Nimber(1)));
        assert_eq!(ev("-3*"), CgtValue::new(0, Nimber(3)));
        assert_eq!(ev("2 - 2 + 7*").winner(), Winner::FirstPlayer);
        assert_eq!(ev("1*+2*+3*"), CgtValue::default());
    }

    #[test]
    fn bad_expressions_name_the_bad_token() {
        for (expr, needle) in [
            ("1* + x", "'x'"),
            ("1* + 2*3", "'2*3'"),
            ("**", "'**'"),
            ("1 2", "'2'"),
            ("1 +", "ends with a sign"),
            ("", "empty"),
            ("1 + + + 2", "too many signs"),
            ("99999999999999999999", "too large"),
            ("1* ^ 2*", "'^'"),
            ("3 + foo*", "'foo*'"),
        ] {
            let e = evaluate(expr).unwrap_err();
            assert!(e.message.contains(needle), "{expr}: {e}");
        }
    }

    #[test]
    fn json_has_the_value_and_the_winner() {
        let v = ev("-1 + 1*");
        let j = serde_json::to_value(v).unwrap();
        assert_eq!(j["value"], "-1 + 1*");
        assert_eq!(j["integer"], -1);
        assert_eq!(j["nimber"], 1);
        assert_eq!(j["winner"], "right");
        let back: CgtValue = serde_json::from_value(j).unwrap();
        assert_eq!(back, v);
        assert_eq!(
            serde_json::to_value(ev("1*+2*")).unwrap()["winner"],
            "first_player"
        );
    }

    proptest! {
        #[test]
        fn display_round_trips(i in -1000i64..1000, n in 0u64..10_000) {
            let v = CgtValue::new(i, Nimber(n));
            prop_assert_eq!(evaluate(&v.to_string()).unwrap(), v);
        }

        #[test]
        fn sums_of_heaps_are_their_nim_sum(heaps in proptest::collection::vec(0u64..1000, 1..10)) {
            let expr = heaps.iter().map(|h| format!("{h}*")).collect::<Vec<_>>().join(" + ");
            let x = heaps.iter().fold(0, |a, &h| a ^ h);
            prop_assert_eq!(evaluate(&expr).unwrap(), CgtValue::new(0, Nimber(x)));
        }

        #[test]
        fn arbitrary_text_never_panics(s in "\\PC{0,30}") {
            let _ = evaluate(&s);
        }
    }
}
