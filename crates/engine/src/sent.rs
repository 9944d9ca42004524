//! How a log entry and a legal move are written as JSON: their `words` and
//! `parts` are left out where they only repeat what is already there, and read
//! back in full.
//!
//! In most games a move's words are its notation ("5") and have no colour or
//! glossary term. Sent with every move answer, once per log line and legal move,
//! those copies were most of what the answers grew by, and writing them most of
//! what a move cost the server. The rule a reader follows:
//! - no `words`: the words are the move's notation (`move`);
//! - no `parts`: the words are plain text, one part `[{"text": words}]`.
//!
//! In Rust both fields are always filled in: reading JSON without them fills
//! them by that rule, so a value written and read back is the same value.

use crate::matches::{LogEntry, MoveInfo};
use serde::{Deserialize, Serialize, Serializer};
use tabula_core::{Seat, WordPart, Words};

/// `words`, unless they are the notation `mv`.
fn words_unless_notation<'a>(words: &'a str, mv: &str) -> Option<&'a str> {
    (words != mv).then_some(words)
}

/// `parts`, unless they are exactly what a reader rebuilds from `words` alone
/// ([`plain_parts`]): then leaving them out loses nothing.
fn parts_unless_plain<'a>(parts: &'a Words, words: &str) -> Option<&'a Words> {
    let plain = match parts.parts() {
        [] => words.is_empty(),
        [WordPart::Text(text)] => text == words,
        _ => false,
    };
    (!plain).then_some(parts)
}

/// The parts of words that were sent without them: `words` as one text part.
fn plain_parts(words: &str) -> Words {
    Words::text(words)
}

/// A [`LogEntry`] as written.
#[derive(Serialize)]
struct LogEntryOut<'a> {
    ply: usize,
    seat: Option<Seat>,
    by: &'a str,
    #[serde(rename = "move")]
    mv: &'a str,
    reason: &'a Option<String>,
    text: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    words: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    parts: Option<&'a Words>,
}

impl Serialize for LogEntry {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        LogEntryOut {
            ply: self.ply,
            seat: self.seat,
            by: &self.by,
            mv: &self.mv,
            reason: &self.reason,
            text: &self.text,
            words: words_unless_notation(&self.words, &self.mv),
            parts: parts_unless_plain(&self.parts, &self.words),
        }
        .serialize(s)
    }
}

/// A [`LogEntry`] as read: `words` and `parts` may be missing.
#[derive(Deserialize)]
pub(crate) struct LogEntryIn {
    ply: usize,
    seat: Option<Seat>,
    #[serde(default)]
    by: String,
    #[serde(rename = "move")]
    mv: String,
    reason: Option<String>,
    text: String,
    words: Option<String>,
    parts: Option<Words>,
}

impl From<LogEntryIn> for LogEntry {
    fn from(e: LogEntryIn) -> Self {
        let words = e.words.unwrap_or_else(|| e.mv.clone());
        LogEntry {
            ply: e.ply,
            seat: e.seat,
            by: e.by,
            reason: e.reason,
            text: e.text,
            parts: e.parts.unwrap_or_else(|| plain_parts(&words)),
            words,
            mv: e.mv,
        }
    }
}

/// A [`MoveInfo`] as written.
#[derive(Serialize)]
struct MoveInfoOut<'a> {
    #[serde(rename = "move")]
    mv: &'a str,
    cells: &'a [u32],
    #[serde(skip_serializing_if = "Option::is_none")]
    words: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    parts: Option<&'a Words>,
}

impl Serialize for MoveInfo {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        MoveInfoOut {
            mv: &self.mv,
            cells: &self.cells,
            words: words_unless_notation(&self.words, &self.mv),
            parts: parts_unless_plain(&self.parts, &self.words),
        }
        .serialize(s)
    }
}

/// A [`MoveInfo`] as read: `words` and `parts` may be missing.
#[derive(Deserialize)]
pub(crate) struct MoveInfoIn {
    #[serde(rename = "move")]
    mv: String,
    cells: Vec<u32>,
    words: Option<String>,
    parts: Option<Words>,
}

impl From<MoveInfoIn> for MoveInfo {
    fn from(m: MoveInfoIn) -> Self {
        let words = m.words.unwrap_or_else(|| m.mv.clone());
        MoveInfo {
            parts: m.parts.unwrap_or_else(|| plain_parts(&words)),
            words,
            cells: m.cells,
            mv: m.mv,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn entry(mv: &str, parts: Words) -> LogEntry {
        LogEntry {
            ply: 3,
            seat: Some(1),
            by: "O".into(),
            mv: mv.into(),
            reason: None,
            text: format!("O: {mv}"),
            words: parts.to_string(),
            parts,
        }
    }

    #[test]
    fn words_that_are_the_notation_are_left_out_and_read_back() {
        let e = entry("5", Words::text("5"));
        let sent = serde_json::to_value(&e).unwrap();
        assert_eq!(
            sent,
            json!({"ply": 3, "seat": 1, "by": "O", "move": "5", "reason": null, "text": "O: 5"})
        );
        let back: LogEntry = serde_json::from_value(sent).unwrap();
        assert_eq!(back, e);
    }

    #[test]
    fn words_other_than_the_notation_are_sent_without_plain_parts() {
        let e = entry("a1-b2", Words::text("from a1 to b2"));
        let sent = serde_json::to_value(&e).unwrap();
        assert_eq!(sent["words"], "from a1 to b2");
        assert!(sent.get("parts").is_none(), "{sent}");
        assert_eq!(serde_json::from_value::<LogEntry>(sent).unwrap(), e);
    }

    #[test]
    fn parts_with_a_colour_or_a_term_are_sent() {
        let e = entry(
            "c3",
            Words::text("3 blocks of ")
                .and_colour(2)
                .and_term(" scenario A"),
        );
        let sent = serde_json::to_value(&e).unwrap();
        assert_eq!(sent["words"], e.words);
        assert_eq!(sent["parts"][1], json!({"colour": 2}));
        assert_eq!(serde_json::from_value::<LogEntry>(sent).unwrap(), e);
    }

    #[test]
    fn a_legal_move_leaves_out_the_same_and_reads_back() {
        let plain = MoveInfo {
            mv: "7".into(),
            cells: vec![7],
            words: "7".into(),
            parts: Words::text("7"),
        };
        let sent = serde_json::to_value(&plain).unwrap();
        assert_eq!(sent, json!({"move": "7", "cells": [7]}));
        assert_eq!(serde_json::from_value::<MoveInfo>(sent).unwrap(), plain);
        let coloured = MoveInfo {
            mv: "b2".into(),
            cells: vec![4, 5],
            words: "2 blocks of colour 1".into(),
            parts: Words::text("2 blocks of ").and_colour(1),
        };
        let sent = serde_json::to_value(&coloured).unwrap();
        assert_eq!(sent["parts"][1], json!({"colour": 1}));
        assert_eq!(serde_json::from_value::<MoveInfo>(sent).unwrap(), coloured);
    }
}
