//! Text forms of Kono positions and moves.
//!
//! Cells are named like chess squares: files `a`..`d` from left to right,
//! ranks `1`..`4` from bottom to top, so Top starts on ranks 4 and 3. Cell
//! numbers (view ids, bit indices) run 0..15 row by row from the top left:
//! `a4` = 0, `d4` = 3, `a1` = 12, `d1` = 15.
//!
//! Position: the ranks from 4 down to 1 separated by `/`, each four cells of
//! `x` (Top), `o` (Bottom) or `.` (empty; a digit 1-4 stands for that many empty
//! cells), a space, then the side to move `x` or `o`. Start: `xxxx/xxxx/oooo/oooo x`.
//!
//! Move: `FROM-TO` for a step (`b3-b2`), `FROMxTO` for a capture (`a4xa2`: the
//! piece on a4 jumps its friend on a3 and takes the enemy on a2). Either
//! separator is accepted for either kind, or none (`a4a2`).

use crate::KonoState;
use tabula_core::ParseError;

/// The name of cell `i` (`a4` for 0).
pub fn cell_name(i: u32) -> String {
    let file = (b'a' + (i % 4) as u8) as char;
    let rank = 4 - i / 4;
    format!("{file}{rank}")
}

/// Reads a cell name.
pub fn parse_cell(text: &str) -> Result<u32, ParseError> {
    let t = text.trim().to_ascii_lowercase();
    let b = t.as_bytes();
    if b.len() == 2 && (b'a'..=b'd').contains(&b[0]) && (b'1'..=b'4').contains(&b[1]) {
        let col = u32::from(b[0] - b'a');
        let rank = u32::from(b[1] - b'0');
        Ok((4 - rank) * 4 + col)
    } else {
        Err(ParseError::new(format!(
            "'{}' is not a cell: use a file a-d and a rank 1-4, like b3",
            text.chars().take(12).collect::<String>()
        )))
    }
}

/// Reads `FROM-TO`, `FROMxTO` or `FROMTO` into two cells.
pub fn parse_cells(text: &str) -> Result<(u32, u32), ParseError> {
    let t: String = text
        .trim()
        .chars()
        .take(20)
        .collect::<String>()
        .to_ascii_lowercase();
    let compact: String = t
        .chars()
        .filter(|c| !matches!(c, '-' | 'x' | ':' | ' '))
        .collect();
    if compact.len() != 4 || !compact.is_ascii() {
        return Err(ParseError::new(format!(
            "expected a move like b3-b2 or a4xa2, got '{t}'"
        )));
    }
    Ok((parse_cell(&compact[..2])?, parse_cell(&compact[2..])?))
}

/// Writes a position.
pub fn format_position(state: &KonoState) -> String {
    let mut out = String::with_capacity(21);
    for row in 0..4 {
        if row > 0 {
            out.push('/');
        }
        for col in 0..4 {
            let bit = 1u16 << (row * 4 + col);
            out.push(if state.top & bit != 0 {
                'x'
            } else if state.bottom & bit != 0 {
                'o'
            } else {
                '.'
            });
        }
    }
    out.push(' ');
    out.push(if state.to_move == 0 { 'x' } else { 'o' });
    out
}

/// Reads a position.
pub fn parse_position(text: &str) -> Result<KonoState, ParseError> {
    let mut fields = text.split_whitespace();
    let board = fields
        .next()
        .ok_or_else(|| ParseError::new("empty position: expected e.g. 'xxxx/xxxx/oooo/oooo x'"))?;
    let side = fields
        .next()
        .ok_or_else(|| ParseError::new("missing side to move after the board ('x' or 'o')"))?;
    if fields.next().is_some() {
        return Err(ParseError::new("too many fields: expected BOARD SIDE"));
    }
    let rows: Vec<&str> = board.split('/').collect();
    if rows.len() != 4 {
        return Err(ParseError::new(format!(
            "expected 4 ranks separated by '/', got {}",
            rows.len()
        )));
    }
    let (mut top, mut bottom) = (0u16, 0u16);
    for (r, row) in rows.iter().enumerate() {
        let mut col = 0usize;
        for ch in row.chars() {
            let run = match ch {
                '1'..='4' => ch as usize - '0' as usize,
                _ => 1,
            };
            if col + run > 4 {
                return Err(ParseError::new(format!(
                    "rank {} has more than 4 cells",
                    4 - r
                )));
            }
            let bit = 1u16 << (r * 4 + col);
            match ch.to_ascii_lowercase() {
                'x' => top |= bit,
                'o' => bottom |= bit,
                '.' | '1'..='4' => {}
                _ => {
                    return Err(ParseError::new(format!(
                        "unknown cell content '{}': use x, o, . or 1-4",
                        ch.escape_debug()
                    )))
                }
            }
            col += run;
        }
        if col != 4 {
            return Err(ParseError::new(format!(
                "rank {} has {col} cells, not 4",
                4 - r
            )));
        }
    }
    if top.count_ones() > 8 || bottom.count_ones() > 8 {
        return Err(ParseError::new(format!(
            "each side has at most 8 pieces (x has {}, o has {})",
            top.count_ones(),
            bottom.count_ones()
        )));
    }
    let to_move = match side.to_ascii_lowercase().as_str() {
        "x" | "top" => 0,
        "o" | "bottom" => 1,
        _ => {
            return Err(ParseError::new(format!(
                "side to move must be 'x' (Top) or 'o' (Bottom), not '{side}'"
            )))
        }
    };
    Ok(KonoState {
        top,
        bottom,
        to_move,
    })
}
