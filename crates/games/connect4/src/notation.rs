//! Moves and positions as text.
//!
//! * A move is a column number, 1 at the left: `4` drops a disc into column 4.
//!   In Pop Out, `p4` (or `pop 4`) takes the mover's disc out of the bottom of
//!   column 4; `d4` and `drop 4` are read as drops.
//! * A position is the rows from the top, one character a cell (`R` Red, `Y`
//!   Yellow, `.` empty) joined by `/`, then a space and the side to move (`R`
//!   or `Y`): `......./......./......./......./...Y.../..RR... Y` is the classic
//!   board after Red 3, Yellow 4, Red 4... (here Red has two discs and Yellow
//!   one, so Yellow is to move).

use crate::board::Position;
use crate::rules::SEATS;
use crate::{ConnectFour, Move};
use tabula_core::{Game, Notation, ParseError, Seat, Turn};

/// The letter of each seat's discs.
pub(crate) const LETTERS: [char; 2] = ['R', 'Y'];

impl ConnectFour {
    fn column_of(&self, text: &str, whole: &str) -> Result<u8, ParseError> {
        let width = self.geometry().width();
        match text.trim().parse::<u8>() {
            Ok(n) if (1..=width).contains(&n) => Ok(n - 1),
            _ => Err(ParseError::new(format!(
                "'{}' is not a column: type a column number from 1 to {width}{}",
                clip(whole),
                if self.is_popout() {
                    " (p and a number to take your disc out from below)"
                } else {
                    ""
                }
            ))),
        }
    }
}

impl Notation for ConnectFour {
    fn parse_move(&self, s: &Position, text: &str) -> Result<Move, ParseError> {
        let t = text.trim().to_ascii_lowercase();
        let (pop, number) = if let Some(rest) = t.strip_prefix("pop") {
            (true, rest)
        } else if let Some(rest) = t.strip_prefix("drop") {
            (false, rest)
        } else if let Some(rest) = t.strip_prefix('p') {
            (true, rest)
        } else if let Some(rest) = t.strip_prefix('d') {
            (false, rest)
        } else {
            (false, t.as_str())
        };
        let column = self.column_of(number, text)?;
        let mv = if pop {
            Move::Pop(column)
        } else {
            Move::Drop(column)
        };
        if !matches!(self.turn(s), Turn::Move(_)) {
            return Err(ParseError::new("the game is over"));
        }
        match self.illegal_reason(s, mv) {
            Some(reason) => Err(ParseError::illegal(reason)),
            None => Ok(mv),
        }
    }

    fn format_move(&self, _s: &Position, mv: Move) -> String {
        mv.to_string()
    }

    fn parse_position(&self, text: &str) -> Result<Position, ParseError> {
        let g = self.geometry();
        let (w, h) = (g.width(), g.height());
        let example = format!(
            "{} {}",
            vec![".".repeat(usize::from(w)); usize::from(h)].join("/"),
            LETTERS[0]
        );
        let mut parts = text.split_whitespace();
        let (Some(rows), Some(side), None) = (parts.next(), parts.next(), parts.next()) else {
            return Err(ParseError::new(format!(
                "expected {h} rows of {w} cells joined by '/' and the side to move, like '{example}'"
            )));
        };
        let rows: Vec<&str> = rows.split('/').collect();
        if rows.len() != usize::from(h) {
            return Err(ParseError::new(format!(
                "expected {h} rows separated by '/', found {}",
                rows.len()
            )));
        }
        let mut discs = [0u64; 2];
        for (i, row_text) in rows.iter().enumerate() {
            if row_text.chars().count() != usize::from(w) {
                return Err(ParseError::new(format!(
                    "row {} from the top, '{}', must have {w} cells",
                    i + 1,
                    clip(row_text)
                )));
            }
            let row = h - 1 - i as u8;
            for (c, ch) in row_text.chars().enumerate() {
                let bit = g.bit(c as u8, row);
                match ch.to_ascii_uppercase() {
                    'R' => discs[0] |= bit,
                    'Y' => discs[1] |= bit,
                    '.' | '-' => {}
                    _ => {
                        return Err(ParseError::new(format!(
                            "unexpected '{ch}' in row {} from the top: use R, Y or '.'",
                            i + 1
                        )))
                    }
                }
            }
        }
        let to_move: Seat = match side.to_ascii_uppercase().as_str() {
            "R" | "RED" => 0,
            "Y" | "YELLOW" => 1,
            _ => {
                return Err(ParseError::new(format!(
                    "the side to move '{}' must be R or Y",
                    clip(side)
                )))
            }
        };
        let position = Position::from_parts(discs[0], discs[1], to_move);
        if let Some(reason) = self.unreachable_reason(&position) {
            return Err(ParseError::new(format!("impossible position: {reason}")));
        }
        Ok(position)
    }

    fn format_position(&self, s: &Position) -> String {
        let g = self.geometry();
        let mut rows = Vec::with_capacity(usize::from(g.height()));
        for row in (0..g.height()).rev() {
            rows.push(
                (0..g.width())
                    .map(|c| s.at(g, c, row).map_or('.', |seat| LETTERS[seat]))
                    .collect::<String>(),
            );
        }
        format!("{} {}", rows.join("/"), LETTERS[s.to_move()])
    }
}

/// Side names for messages.
pub(crate) fn seat_name(seat: Seat) -> &'static str {
    SEATS[seat & 1]
}

/// A user's text quoted in a message: at most 40 characters.
fn clip(text: &str) -> String {
    let mut out: String = text.chars().take(40).collect();
    if text.chars().count() > 40 {
        out.push('…');
    }
    out
}
