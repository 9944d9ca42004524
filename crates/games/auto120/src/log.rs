//! The move log in the posts' spirit: one line per decision, naming the roll, the
//! rule that chose the move and what the move did.
//!
//! A roll and the marker move that uses it are two plies; the roll is reported in
//! the marker line ("Player 2 rolls 5, scenario A: marker 3 from 8 to 40"), so a
//! roll of 2..=6 has an empty line of its own (callers skip empty lines). A roll of
//! 1 gets its own line, since no marker move follows it.

use crate::board::{MARKERS, TARGET};
use crate::state::{Move, MoveEffect, State};
use tabula_core::Words;

fn player(seat: usize) -> String {
    format!("Player {}", seat + 1)
}

fn list(items: &[usize]) -> String {
    let names: Vec<String> = items.iter().map(|m| (m + 1).to_string()).collect();
    match names.len() {
        0 => String::new(),
        1 => names[0].clone(),
        n => format!("{} and {}", names[..n - 1].join(", "), names[n - 1]),
    }
}

/// What a marker move did, without the roll: "marker 3 from 8 to 40, bumps ...".
pub fn describe_effect(state: &State, e: &MoveEffect) -> String {
    let mut text = format!("marker {} from {} ", e.marker + 1, e.from);
    if e.blew_out() {
        text.push_str(&format!("to {}: over {TARGET}, back to 1", e.product));
        return text;
    }
    text.push_str(&format!("to {}", e.to));
    if e.retires() {
        let done = state.retired(e.seat) + 1;
        text.push_str(&format!(", retired ({done} of {})", state.n));
    }
    let bumped: Vec<usize> = (0..MARKERS).filter(|&m| e.bumped[m]).collect();
    if !bumped.is_empty() {
        let noun = if bumped.len() == 1 {
            "marker"
        } else {
            "markers"
        };
        text.push_str(&format!(
            ", bumps {}'s {noun} {} back to 1",
            player(1 - e.seat),
            list(&bumped)
        ));
    }
    if e.wins {
        text.push_str(&format!(": {} wins", player(e.seat)));
    }
    text
}

/// A short description of any move in `state` (the engine's `describe_move`).
pub fn describe_move(state: &State, mv: Move) -> String {
    match mv {
        Move::Starter(s) => format!("{} goes first", player(s as usize)),
        Move::Roll(1) => "roll 1: turn forfeited".into(),
        Move::Roll(r) => format!("roll {r}"),
        Move::Marker(m) => describe_effect(state, &state.effect(m as usize)),
    }
}

/// The log line of a decision (empty for a roll of 2..=6, which the following
/// marker line reports).
pub fn log_line(state: &State, mv: Move, reason: Option<&str>) -> String {
    log_words(state, mv, reason).to_string()
}

/// [`log_line`] with typed parts: the rule of thumb the original program
/// followed ("scenario A") marked as a term of the game's glossary.
pub fn log_words(state: &State, mv: Move, reason: Option<&str>) -> Words {
    let seat = state.side().unwrap_or(0);
    match mv {
        Move::Starter(s) => Words::text(format!("{} goes first", player(s as usize))),
        Move::Roll(1) => Words::text(format!("{} rolls 1 and forfeits the turn", player(seat))),
        Move::Roll(_) => Words::new(),
        Move::Marker(m) => {
            let e = state.effect(m as usize);
            let said = Words::text(format!("{} rolls {}", player(seat), e.roll));
            let said = match reason {
                Some(r) if crate::scenario::RULE_NAMES.contains(&r) => {
                    said.and_text(", ").and_term(r)
                }
                Some(r) if !r.is_empty() => said.and_text(format!(", {r}")),
                _ => said,
            };
            said.and_text(format!(": {}", describe_effect(state, &e)))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::parse_position;

    #[test]
    fn the_seeds_example_line() {
        let s = parse_position("1,1,1,1/1,1,8,1:2r5").unwrap();
        assert_eq!(
            log_line(&s, Move::Marker(2), Some("scenario A")),
            "Player 2 rolls 5, scenario A: marker 3 from 8 to 40"
        );
    }

    #[test]
    fn the_rule_of_thumb_is_a_glossary_term_of_the_line() {
        let s = parse_position("1,1,1,1/1,1,8,1:2r5").unwrap();
        let w = log_words(&s, Move::Marker(2), Some("scenario A"));
        assert_eq!(w.terms().collect::<Vec<_>>(), ["scenario A"]);
        // Words that are not one of the rules are no term.
        let w = log_words(&s, Move::Marker(2), Some("level 10"));
        assert_eq!(w.terms().count(), 0);
        assert_eq!(
            w.to_string(),
            "Player 2 rolls 5, level 10: marker 3 from 8 to 40"
        );
    }

    #[test]
    fn rolls_blow_outs_bumps_and_wins_are_worded() {
        let s = parse_position("1,1,1,1/1,1,1,1:2").unwrap();
        assert_eq!(
            log_line(&s, Move::Roll(1), None),
            "Player 2 rolls 1 and forfeits the turn"
        );
        assert_eq!(log_line(&s, Move::Roll(4), None), "");
        let s = parse_position("30,1,1,1/1,1,1,1:1r5").unwrap();
        assert_eq!(
            log_line(&s, Move::Marker(0), None),
            "Player 1 rolls 5: marker 1 from 30 to 150: over 120, back to 1"
        );
        let s = parse_position("8,1,1,1/40,1,40,1:1r5").unwrap();
        assert_eq!(
            log_line(&s, Move::Marker(0), Some("scenario C")),
            "Player 1 rolls 5, scenario C: marker 1 from 8 to 40, bumps Player 2's markers 1 and 3 back to 1"
        );
        let s = parse_position("120,120,20,120/1,1,1,1:1r6").unwrap();
        assert_eq!(
            log_line(&s, Move::Marker(2), None),
            "Player 1 rolls 6: marker 3 from 20 to 120, retired (4 of 4): Player 1 wins"
        );
    }
}
