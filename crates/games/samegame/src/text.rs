//! The board text format.
//!
//! One row per line, top row first, one character per cell: `1`-`9` a block of
//! that colour, `0` or `.` an empty cell. `/` also separates rows, so a board fits
//! on one line (`112/2.1` is the same board as the two lines `112` and `2.1`). An
//! optional `score=N` token (after the last row, or on its own line) carries the
//! points made so far; without it the score is 0. Blank lines and lines starting
//! with `#` are ignored.

use crate::board::{Board, ShapeError, MAX_SIDE};
use tabula_core::ParseError;

/// Reads a board; errors name the line (and column) at fault.
pub fn parse_board(text: &str) -> Result<Board, ParseError> {
    let multi_line = text.trim().lines().count() > 1;
    // Where each row came from, for messages: (line number, row on that line).
    let mut origin: Vec<(usize, usize)> = Vec::new();
    let mut rows: Vec<Vec<u8>> = Vec::new();
    let mut score: Option<i64> = None;
    for (line_index, line) in text.lines().enumerate() {
        let line_no = line_index + 1;
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut board_tokens = 0;
        for token in line.split_whitespace() {
            if let Some(value) = token.strip_prefix("score=") {
                if score.is_some() {
                    return Err(err(format!("line {line_no}: score given twice")));
                }
                let n: i64 = value.parse().ok().filter(|n| *n >= 0).ok_or_else(|| {
                    err(format!("line {line_no}: score '{value}' is not a whole number of points (0 or more)"))
                })?;
                score = Some(n);
                continue;
            }
            if score.is_some() {
                return Err(err(format!(
                    "line {line_no}: rows after score= (the score comes last)"
                )));
            }
            board_tokens += 1;
            if board_tokens > 1 {
                return Err(err(format!(
                    "line {line_no}: a space inside a row (write one row per line, or separate rows with /)"
                )));
            }
            for (part_index, part) in token.split('/').enumerate() {
                let place = place(multi_line, line_no, rows.len());
                if part.is_empty() {
                    return Err(err(format!(
                        "{place}: empty row (every row needs at least one cell)"
                    )));
                }
                let mut row = Vec::with_capacity(part.len());
                for (c, ch) in part.chars().enumerate() {
                    row.push(match ch {
                        '1'..='9' => ch as u8 - b'0',
                        '0' | '.' => 0,
                        other => {
                            return Err(err(format!(
                                "{place}, column {c}: unknown character '{}' \
                                 (expected 1-9 for a colour, 0 or . for an empty cell)",
                                other.escape_debug()
                            )))
                        }
                    });
                }
                origin.push((line_no, part_index));
                rows.push(row);
                if rows.len() > MAX_SIDE {
                    return Err(err(format!("{place}: more than {MAX_SIDE} rows")));
                }
            }
        }
    }
    let at = |row: usize| place(multi_line, origin[row].0, row);
    Board::from_rows(&rows, score.unwrap_or(0)).map_err(|e| match e {
        ShapeError::NoRows => err("empty board: no rows (expected one line per row, top row first, like 1213/3121)"),
        ShapeError::EmptyRow { row } => err(format!("{}: empty row", at(row))),
        ShapeError::Ragged { row, len, expected } => err(format!(
            "{}: row has {len} cells but the first row has {expected} (rows must have the same length)",
            at(row)
        )),
        ShapeError::TooBig { rows, cols } => {
            err(format!("board is {cols} columns x {rows} rows; at most {MAX_SIDE} x {MAX_SIDE} are allowed"))
        }
        ShapeError::Floating { row, col } => err(format!(
            "{}, column {col}: a block above an empty cell (blocks must rest on the floor or on another block)",
            at(row)
        )),
        ShapeError::Gap { col } => err(format!(
            "column {col} is empty but column {} has blocks (empty columns close up to the left)",
            col + 1
        )),
        ShapeError::BadColour { row, col, colour } => {
            err(format!("{}, column {col}: colour {colour} is out of range", at(row)))
        }
    })
}

fn place(multi_line: bool, line_no: usize, row: usize) -> String {
    if multi_line {
        format!("line {line_no} (row {row})")
    } else {
        format!("row {row}")
    }
}

fn err(message: impl Into<String>) -> ParseError {
    ParseError::new(message)
}

/// The one-line form: rows joined by `/`, `.` for empty cells, then ` score=N`
/// when points have been made.
pub fn format_board(board: &Board) -> String {
    let mut out = rows_text(board).join("/");
    if board.score() != 0 {
        out.push_str(&format!(" score={}", board.score()));
    }
    out
}

/// The file form: one line per row, `.` for empty cells, then `score=N` on its own
/// line when points have been made.
pub fn format_board_lines(board: &Board) -> String {
    let mut out = rows_text(board).join("\n");
    out.push('\n');
    if board.score() != 0 {
        out.push_str(&format!("score={}\n", board.score()));
    }
    out
}

fn rows_text(board: &Board) -> Vec<String> {
    board
        .rows()
        .iter()
        .map(|row| {
            row.iter()
                .map(|&c| if c == 0 { '.' } else { (b'0' + c) as char })
                .collect()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_forms_read_the_same_board() {
        let a = parse_board("1.2\n211\n").unwrap();
        let b = parse_board("102/211").unwrap();
        assert_eq!(a, b);
        assert_eq!(a.colour(0, 0), 1);
        assert_eq!(a.colour(0, 1), 0);
        assert_eq!(a.colour(1, 0), 2);
        assert_eq!(a.colour(0, 2), 2);
        assert_eq!(format_board(&a), "1.2/211");
        assert_eq!(format_board_lines(&a), "1.2\n211\n");
        assert_eq!(parse_board("  1.2 \r\n 211\r\n").unwrap(), a);
    }

    #[test]
    fn score_suffix_round_trips() {
        let b = parse_board("11/22 score=17").unwrap();
        assert_eq!(b.score(), 17);
        assert_eq!(format_board(&b), "11/22 score=17");
        let c = parse_board("# a comment\n11\n22\nscore=17\n").unwrap();
        assert_eq!(b, c);
        assert_eq!(parse_board(&format_board_lines(&b)).unwrap(), b);
    }

    fn message(text: &str) -> String {
        parse_board(text).unwrap_err().message
    }

    #[test]
    fn bad_boards_name_the_line() {
        assert!(message("").contains("empty board"));
        assert!(message("  \n\n").contains("empty board"));
        assert!(message("score=3").contains("empty board"));
        let m = message("123\n12\n123");
        assert!(m.contains("line 2") && m.contains("2 cells"), "{m}");
        let m = message("123\n1x3");
        assert!(
            m.contains("line 2") && m.contains("'x'") && m.contains("column 1"),
            "{m}"
        );
        let m = message("12/1a");
        assert!(m.contains("row 1") && m.contains("'a'"), "{m}");
        let m = message("12//12");
        assert!(m.contains("empty row"), "{m}");
        let m = message("12\n.2\n12");
        assert!(
            m.contains("line 1") && m.contains("column 0") && m.contains("rest on"),
            "{m}"
        );
        let m = message(".2/.2");
        assert!(m.contains("column 0 is empty"), "{m}");
        assert!(message("12 21").contains("space inside a row"));
        assert!(message("12/21 score=-1").contains("score"));
        assert!(message("12/21 score=1 score=2").contains("twice"));
        let wide = "1".repeat(101);
        assert!(message(&wide).contains("at most 100"));
    }

    #[test]
    fn odd_input_never_panics() {
        for text in [
            "/",
            "//",
            "\u{0}",
            "é",
            "score=",
            "9",
            "0",
            ".",
            "1/",
            "/1",
            "99999999999999999999",
        ] {
            let _ = parse_board(text);
        }
        assert!(parse_board("0").unwrap().is_cleared());
    }
}
