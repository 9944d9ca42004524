//! Text forms of positions and moves.
//!
//! Position: the rim points 1..8 in order, `/`, the putahi, a space, the side to
//! move, and — under `rules=best` only — a space and the number of plies played
//! so far (counted up to the end of the restricted opening). Pieces are `w`
//! (White) and `b` (Black), the empty point is `.`. The start is
//! `wwbbbbww/. w` (`wwbbbbww/. w 0` under `rules=best`).
//!
//! Move: `FROM-TO` with points `1`..`8` and `c` (or `0`) for the putahi, e.g.
//! `2-c`, `c-7`, `3-2`. Since a piece always goes to the one empty point, the
//! origin alone (`2`, `c`) is accepted too.

use crate::board::{Cell, MtMove, MtState, CENTRE, POINTS};
use crate::rules::MtRules;
use tabula_core::ParseError;

/// The letter of a seat's pieces.
pub fn piece_char(seat: u8) -> char {
    if seat == 0 {
        'w'
    } else {
        'b'
    }
}

fn cell_char(cell: Cell) -> char {
    match cell {
        Cell::Empty => '.',
        Cell::Piece(s) => piece_char(s),
    }
}

/// The name of a point in move text.
pub fn point_name(p: u8) -> String {
    if p == CENTRE {
        "c".to_string()
    } else {
        p.to_string()
    }
}

/// Reads a point name (`1`..`8`, `c`/`0`/`p` for the putahi).
pub fn parse_point(text: &str) -> Result<u8, ParseError> {
    match text.trim().to_ascii_lowercase().as_str() {
        "c" | "0" | "p" | "putahi" | "centre" | "center" => Ok(CENTRE),
        t => match t.parse::<u8>() {
            Ok(p @ 1..=8) => Ok(p),
            _ => Err(ParseError::new(format!(
                "'{}' is not a point: use 1 to 8 for the rim and c (or 0) for the putahi",
                t.chars().take(20).collect::<String>()
            ))),
        },
    }
}

/// Writes a position.
pub fn format_position(rules: MtRules, state: &MtState) -> String {
    let rim: String = (1..POINTS).map(|p| cell_char(state.cells[p])).collect();
    let mut text = format!(
        "{rim}/{} {}",
        cell_char(state.cells[0]),
        piece_char(state.to_move)
    );
    if rules.opening_cap() > 0 {
        text.push_str(&format!(" {}", state.opening_plies));
    }
    text
}

/// Reads a position, checking it has four pieces a side and one empty point.
pub fn parse_position(rules: MtRules, text: &str) -> Result<MtState, ParseError> {
    let mut fields = text.split_whitespace();
    let board = fields
        .next()
        .ok_or_else(|| ParseError::new("empty position: expected e.g. 'wwbbbbww/. w'"))?;
    let side = fields
        .next()
        .ok_or_else(|| ParseError::new("missing side to move after the board ('w' or 'b')"))?;
    let plies = fields.next();
    if fields.next().is_some() {
        return Err(ParseError::new(
            "too many fields: expected BOARD SIDE (and plies under rules=best)",
        ));
    }
    let (rim, centre) = board.split_once('/').ok_or_else(|| {
        ParseError::new("the board must be the 8 rim points, '/', then the putahi, e.g. wwbbbbww/.")
    })?;
    let rim: Vec<char> = rim.chars().collect();
    let centre: Vec<char> = centre.chars().collect();
    if rim.len() != 8 || centre.len() != 1 {
        return Err(ParseError::new(format!(
            "expected 8 rim points and 1 putahi, got {} and {}",
            rim.len(),
            centre.len()
        )));
    }
    let mut cells = [Cell::Empty; POINTS];
    for (i, ch) in centre.iter().chain(rim.iter()).enumerate() {
        cells[i] = match ch.to_ascii_lowercase() {
            'w' => Cell::Piece(0),
            'b' => Cell::Piece(1),
            '.' | '-' | '_' => Cell::Empty,
            _ => {
                return Err(ParseError::new(format!(
                    "unknown point content '{}': use w, b or .",
                    ch.escape_debug()
                )))
            }
        };
    }
    let count = |c: Cell| cells.iter().filter(|&&x| x == c).count();
    if count(Cell::Piece(0)) != 4 || count(Cell::Piece(1)) != 4 || count(Cell::Empty) != 1 {
        return Err(ParseError::new(format!(
            "each side has exactly 4 pieces and one point is empty (got {} w, {} b, {} empty)",
            count(Cell::Piece(0)),
            count(Cell::Piece(1)),
            count(Cell::Empty)
        )));
    }
    let to_move = match side.to_ascii_lowercase().as_str() {
        "w" | "white" => 0,
        "b" | "black" => 1,
        _ => {
            return Err(ParseError::new(format!(
                "side to move must be 'w' or 'b', not '{side}'"
            )))
        }
    };
    let cap = rules.opening_cap();
    let opening_plies = match (cap > 0, plies) {
        (true, Some(p)) => {
            let n: u32 = p
                .parse()
                .map_err(|_| ParseError::new(format!("'{p}' is not a number of plies")))?;
            n.min(cap as u32) as u8
        }
        // Without a count the opening is taken as over: a typed-in position is a middle game.
        (true, None) => cap,
        (false, Some(_)) => {
            return Err(ParseError::new(
                "a ply count is only part of the position under rules=best and rules=first_move",
            ));
        }
        (_, None) => 0,
    };
    Ok(MtState {
        cells,
        to_move,
        opening_plies,
    })
}

/// Writes a move.
pub fn format_move(mv: MtMove) -> String {
    format!("{}-{}", point_name(mv.from), point_name(mv.to))
}

/// Reads a move in a position (the destination must be the empty point).
pub fn parse_move(state: &MtState, text: &str) -> Result<MtMove, ParseError> {
    let text = text.trim();
    if text.is_empty() || text.len() > 40 {
        return Err(ParseError::new("expected a move like 2-c, c-7 or 3-2"));
    }
    let parts: Vec<&str> = text
        .split(['-', ' ', '>', ','])
        .filter(|s| !s.is_empty())
        .collect();
    let empty = state.empty_point();
    let (from, to) = match parts.as_slice() {
        [from] => (parse_point(from)?, empty),
        [from, to] => (parse_point(from)?, parse_point(to)?),
        _ => return Err(ParseError::new("expected FROM-TO, like 2-c")),
    };
    if to != empty {
        return Err(ParseError::new(format!(
            "a piece can only move to the empty point ({}), not {}",
            point_name(empty),
            point_name(to)
        )));
    }
    if from == to {
        return Err(ParseError::new("a move must leave its point"));
    }
    Ok(MtMove { from, to })
}
