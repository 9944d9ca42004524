//! How a finished game ended, as typed data: who won and how, or why it was
//! drawn or cut off. Every face says it in its own words from this (the page's
//! status line, "You lost: you resigned"); none reads it out of the result line.

use serde::{Deserialize, Serialize};
use tabula_core::{PlayEnd, Seat};

/// How a finished game ended (`MatchView::ending`).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Ending {
    /// The game's rules gave `seat` the win.
    Won {
        /// The winner.
        seat: Seat,
    },
    /// `seat` resigned, so `winner` won.
    Resigned {
        /// The seat that resigned.
        seat: Seat,
        /// The seat that won by it.
        winner: Seat,
    },
    /// `seat` declared its own win (the testers' `win` command of Stenger's
    /// "Associative Arrays"), without the rules deciding it.
    Claimed {
        /// The seat that declared the win.
        seat: Seat,
    },
    /// Every player resigned, `first` first: the Cat wins (a draw in the tally).
    AllResigned {
        /// The seat that resigned first, when it is known.
        first: Option<Seat>,
    },
    /// A draw, `reason` in a player's words: the game's own rules ("the Cat's
    /// game") or a draw rule of actual play ("3-fold repetition").
    Drawn {
        /// Why the game is drawn, without the word "draw".
        reason: String,
    },
    /// Cut off after `plies` plies, the most one game may last: no result.
    CutOff {
        /// The plies played.
        plies: usize,
    },
    /// The one seat of a puzzle reached its goal.
    Solved,
    /// A puzzle ended with no move left, unsolved.
    Over,
    /// A puzzle ended unsolved after `plies` moves, the most its rules of
    /// actual play allow one game (Poggle's press limit).
    OutOfMoves {
        /// The moves played.
        plies: usize,
    },
}

impl Ending {
    /// The draw of a draw rule of actual play, or the cut-off of the length bound.
    pub fn of_play_end(end: PlayEnd) -> Ending {
        match end {
            PlayEnd::CutOff(plies) => Ending::CutOff { plies },
            PlayEnd::Repetition(n) => Ending::Drawn {
                reason: format!("{n}-fold repetition"),
            },
            PlayEnd::NoProgress(n) => Ending::Drawn {
                reason: format!("{n} plies (moves of either side) without progress"),
            },
        }
    }

    /// The result line in words (`MatchView::result`, the terminal, saved
    /// games): `seats` the game's seat names, `goal` a puzzle's goal in its
    /// words, `score` a puzzle's score.
    pub fn words(&self, seats: &[&str], goal: &str, score: Option<i64>) -> String {
        let name = |s: Seat| seats.get(s).copied().unwrap_or("?");
        let scored = |text: String| match score {
            Some(s) => format!("{text} (score {s})"),
            None => text,
        };
        match self {
            Ending::Won { seat } => format!("{} wins", name(*seat)),
            Ending::Resigned { seat, winner } => {
                format!("{} resigns: {} wins", name(*seat), name(*winner))
            }
            Ending::Claimed { seat } => {
                format!("{} says they win (the testers' 'win' command)", name(*seat))
            }
            Ending::AllResigned { first: Some(r) } if seats.len() == 2 => format!(
                "{} resigns, then {} too: every player resigned, so the Cat wins",
                name(*r),
                name(1 - r)
            ),
            Ending::AllResigned { .. } => "every player resigned: the Cat wins".to_string(),
            Ending::Drawn { reason } => format!("draw: {reason}"),
            Ending::CutOff { plies } => scored(format!(
                "cut off after {plies} moves without an end (the most one game may last): no result"
            )),
            Ending::Solved => goal.to_string(),
            Ending::Over => match score {
                Some(s) => format!("game over: score {s}"),
                None => "game over".to_string(),
            },
            Ending::OutOfMoves { plies } => scored(format!(
                "game over: unsolved after {plies} moves, the most one game allows"
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_ending_serialises_as_a_tagged_kind_with_seats_as_numbers() {
        let j = serde_json::to_value(Ending::Resigned { seat: 1, winner: 0 }).unwrap();
        assert_eq!(
            j,
            serde_json::json!({"kind": "resigned", "seat": 1, "winner": 0})
        );
        let j = serde_json::to_value(Ending::of_play_end(PlayEnd::Repetition(3))).unwrap();
        assert_eq!(
            j,
            serde_json::json!({"kind": "drawn", "reason": "3-fold repetition"})
        );
        let j = serde_json::to_value(Ending::of_play_end(PlayEnd::CutOff(400))).unwrap();
        assert_eq!(j, serde_json::json!({"kind": "cut_off", "plies": 400}));
    }

    #[test]
    fn the_result_line_is_the_ending_in_words() {
        let seats = ["X", "O"];
        let draw = Ending::of_play_end(PlayEnd::NoProgress(40));
        assert_eq!(
            draw.words(&seats, "", None),
            PlayEnd::NoProgress(40).words()
        );
        assert_eq!(
            Ending::AllResigned { first: Some(1) }.words(&seats, "", None),
            "O resigns, then X too: every player resigned, so the Cat wins"
        );
    }
}
