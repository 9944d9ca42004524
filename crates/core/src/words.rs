//! A game's words with typed parts: plain text, references to the board's
//! colours, and the game's own terms that its glossary explains.
//!
//! A game that names one of its board's colours in words (SameGame's "3 blocks
//! of colour 2") says it as a [`WordPart::Colour`], not as text, so each face
//! names the colour its own way: the terminal, whose board shows colour numbers,
//! says "colour 2"; the browser, whose board shows colours, says the name of the
//! colour the player sees ("green", or "yellow" under another palette). No face
//! reads a colour back out of text.
//!
//! A word the game's glossary explains (Auto120's "scenario A") is a
//! [`WordPart::Term`], so a face that explains terms where they are used finds
//! them by that mark, never by searching the text for them.
//!
//! JSON: a list of parts, each `{"text": "…"}`, `{"colour": 2}` or `{"term": "scenario A"}`.

use serde::{Deserialize, Serialize};
use std::fmt;

/// One part of a game's words.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WordPart {
    /// Words as they are shown.
    Text(String),
    /// One of the board's colours, by the number its cells carry
    /// ([`crate::ViewCell::colour`]); said "colour N" where a face has no name for it.
    Colour(u32),
    /// A term of the game's glossary (`Presentation::glossary`), said as written.
    Term(String),
}

/// Words made of parts, said in order ([`WordPart`]).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Words(Vec<WordPart>);

impl Words {
    /// No words.
    pub fn new() -> Self {
        Words::default()
    }

    /// Words that are all text.
    pub fn text(text: impl Into<String>) -> Self {
        Words::new().and_text(text)
    }

    /// These words followed by `text` (joined to a text part before it).
    pub fn and_text(mut self, text: impl Into<String>) -> Self {
        let text = text.into();
        if text.is_empty() {
            return self;
        }
        match self.0.last_mut() {
            Some(WordPart::Text(last)) => last.push_str(&text),
            _ => self.0.push(WordPart::Text(text)),
        }
        self
    }

    /// These words followed by colour `colour` of the board.
    pub fn and_colour(mut self, colour: u32) -> Self {
        self.0.push(WordPart::Colour(colour));
        self
    }

    /// These words followed by `term`, a term of the game's glossary.
    pub fn and_term(mut self, term: impl Into<String>) -> Self {
        self.0.push(WordPart::Term(term.into()));
        self
    }

    /// These words followed by `more`.
    pub fn and(self, more: Words) -> Self {
        more.0.into_iter().fold(self, |words, part| match part {
            WordPart::Text(t) => words.and_text(t),
            WordPart::Colour(c) => words.and_colour(c),
            WordPart::Term(t) => words.and_term(t),
        })
    }

    /// The glossary terms these words use, in order.
    pub fn terms(&self) -> impl Iterator<Item = &str> {
        self.0.iter().filter_map(|p| match p {
            WordPart::Term(t) => Some(t.as_str()),
            _ => None,
        })
    }

    /// The parts, in order.
    pub fn parts(&self) -> &[WordPart] {
        &self.0
    }

    /// True when there are no words.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// The words as a face without colour names says them: "colour N" for a colour.
impl fmt::Display for Words {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for part in &self.0 {
            match part {
                WordPart::Text(t) => f.write_str(t)?,
                WordPart::Colour(c) => write!(f, "colour {c}")?,
                WordPart::Term(t) => f.write_str(t)?,
            }
        }
        Ok(())
    }
}

impl From<String> for Words {
    fn from(text: String) -> Self {
        Words::text(text)
    }
}

impl From<&str> for Words {
    fn from(text: &str) -> Self {
        Words::text(text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parts_join_text_and_keep_colours_apart() {
        let w = Words::text("3 blocks of ")
            .and_colour(2)
            .and_text(" (+")
            .and_text("1)");
        assert_eq!(
            w.parts(),
            [
                WordPart::Text("3 blocks of ".into()),
                WordPart::Colour(2),
                WordPart::Text(" (+1)".into()),
            ]
        );
        assert_eq!(w.to_string(), "3 blocks of colour 2 (+1)");
        let both = Words::text("X: ").and(w.clone()).and_text(" (why)");
        assert_eq!(both.to_string(), "X: 3 blocks of colour 2 (+1) (why)");
        assert_eq!(both.parts().len(), 3);
        assert!(Words::text("").is_empty());
    }

    #[test]
    fn json_is_a_list_of_text_and_colour_parts() {
        let w = Words::from("row 1: ").and_colour(4);
        let j = serde_json::to_value(&w).unwrap();
        assert_eq!(j, serde_json::json!([{"text": "row 1: "}, {"colour": 4}]));
        assert_eq!(serde_json::from_value::<Words>(j).unwrap(), w);
    }

    #[test]
    fn a_term_is_said_as_written_and_marked_apart() {
        let w = Words::text("Player 2 rolls 5, ")
            .and_term("scenario A")
            .and_text(": marker 3");
        assert_eq!(w.to_string(), "Player 2 rolls 5, scenario A: marker 3");
        assert_eq!(w.terms().collect::<Vec<_>>(), ["scenario A"]);
        assert_eq!(Words::text("scenario A").terms().count(), 0);
        let j = serde_json::to_value(&w).unwrap();
        assert_eq!(j[1], serde_json::json!({"term": "scenario A"}));
        let joined = Words::text("X: ").and(w.clone());
        assert_eq!(joined.terms().collect::<Vec<_>>(), ["scenario A"]);
    }
}
