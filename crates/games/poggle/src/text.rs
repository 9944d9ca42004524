//! Text forms: boards (rows of colours) and presses (`row,col`, 1-based).
//!
//! A board is its rows from the top, separated by `/` (or line breaks), each row one
//! base-36 digit per button (`0`-`9`, then `a`-`z` for colours 10-35) when there are at
//! most 36 colours, otherwise the colours in decimal separated by `.`: `110/011/000`.
//! There is only one player, so no side to move is written.

use tabula_core::ParseError;

/// Largest number of colours written one character per button.
pub const DIGIT_COLOURS: u32 = 36;

/// Writes one row of values (colours or press counts).
pub fn format_row(values: &[u8], k: u32) -> String {
    if k <= DIGIT_COLOURS {
        values
            .iter()
            .map(|&v| char::from_digit(v as u32, 36).unwrap_or('?'))
            .collect()
    } else {
        values
            .iter()
            .map(|v| v.to_string())
            .collect::<Vec<_>>()
            .join(".")
    }
}

/// Writes a board (row-major values) in the position format.
pub fn format_board(values: &[u8], n: usize, k: u32) -> String {
    values
        .chunks(n.max(1))
        .map(|row| format_row(row, k))
        .collect::<Vec<_>>()
        .join("/")
}

/// Reads an `n x n` board of colours `0..k`.
pub fn parse_board(text: &str, n: usize, k: u32) -> Result<Vec<u8>, ParseError> {
    let rows: Vec<&str> = text
        .split(['/', '\n'])
        .map(str::trim)
        .filter(|r| !r.is_empty())
        .collect();
    if rows.is_empty() {
        return Err(ParseError::new(
            "empty position: expected rows of colours separated by '/'",
        ));
    }
    if rows.len() != n {
        return Err(ParseError::new(format!(
            "expected {n} rows for a {n}x{n} board, found {}",
            rows.len()
        )));
    }
    let mut cells = Vec::with_capacity(n * n);
    for (r, row) in rows.iter().enumerate() {
        let before = cells.len();
        if row.contains('.') || k > DIGIT_COLOURS {
            for item in row.split('.') {
                let item = item.trim();
                let v: u32 = item.parse().map_err(|_| {
                    ParseError::new(format!("row {}: '{item}' is not a colour number", r + 1))
                })?;
                push_colour(&mut cells, v, k, r)?;
            }
        } else {
            for ch in row.chars() {
                let v = ch.to_digit(36).ok_or_else(|| {
                    ParseError::new(format!(
                        "row {}: '{ch}' is not a colour (use 0-9 and a-z)",
                        r + 1
                    ))
                })?;
                push_colour(&mut cells, v, k, r)?;
            }
        }
        let got = cells.len() - before;
        if got != n {
            return Err(ParseError::new(format!(
                "row {} has {got} buttons, expected {n}",
                r + 1
            )));
        }
    }
    Ok(cells)
}

fn push_colour(cells: &mut Vec<u8>, v: u32, k: u32, r: usize) -> Result<(), ParseError> {
    if v >= k {
        return Err(ParseError::new(format!(
            "row {}: colour {v} does not exist with {k} colours (0 to {})",
            r + 1,
            k - 1
        )));
    }
    cells.push(v as u8);
    Ok(())
}

/// Reads a press `row,col` (1-based, row 1 at the top; a space also separates).
pub fn parse_press(text: &str, n: usize) -> Result<(usize, usize), ParseError> {
    let t = text.trim();
    let parts: Vec<&str> = t
        .split([',', ' '])
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .collect();
    if parts.len() != 2 {
        return Err(ParseError::new(format!(
            "expected a button as row,col (like 1,2), not '{t}'"
        )));
    }
    let num = |s: &str, what: &str| -> Result<usize, ParseError> {
        let v: usize = s
            .parse()
            .map_err(|_| ParseError::new(format!("{what} '{s}' is not a number")))?;
        if v == 0 || v > n {
            return Err(ParseError::new(format!(
                "{what} {v} is off the board (1 to {n})"
            )));
        }
        Ok(v - 1)
    };
    Ok((num(parts[0], "row")?, num(parts[1], "column")?))
}

/// Writes a press `row,col` (1-based).
pub fn format_press(row: usize, col: usize) -> String {
    format!("{},{}", row + 1, col + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn boards_round_trip() {
        let cells = vec![0, 1, 2, 3, 4, 5, 6, 7, 8];
        let t = format_board(&cells, 3, 12);
        assert_eq!(t, "012/345/678");
        assert_eq!(parse_board(&t, 3, 12).unwrap(), cells);
        let wide: Vec<u8> = (0..16).map(|i| (i * 17 % 40) as u8).collect();
        let t = format_board(&wide, 4, 40);
        assert_eq!(parse_board(&t, 4, 40).unwrap(), wide);
        let big: Vec<u8> = (0..4).map(|i| i * 10).collect();
        assert_eq!(format_board(&big, 2, 36), "0a/ku");
        assert_eq!(parse_board("0a\nku", 2, 36).unwrap(), big);
    }

    #[test]
    fn bad_boards_are_refused_with_reasons() {
        for (text, needle) in [
            ("", "empty"),
            ("11/11", "expected 3 rows"),
            ("111/11/111", "row 2 has 2"),
            ("111/1#1/111", "'#' is not a colour"),
            ("111/1x1/111", "colour 33 does not exist"),
            ("111/131/111", "colour 3 does not exist"),
            ("1.1.1/1.1/1.1.1", "row 2 has 2"),
            ("1.1.z/111/111", "not a colour number"),
            ("1111/111/111", "row 1 has 4"),
        ] {
            let err = parse_board(text, 3, 3).unwrap_err().message;
            assert!(err.contains(needle), "{text:?}: {err}");
        }
    }

    #[test]
    fn presses_round_trip_and_refuse_nonsense() {
        assert_eq!(parse_press("1,1", 5).unwrap(), (0, 0));
        assert_eq!(parse_press(" 5 , 3 ", 5).unwrap(), (4, 2));
        assert_eq!(parse_press("5 3", 5).unwrap(), (4, 2));
        for r in 0..7 {
            for c in 0..7 {
                assert_eq!(parse_press(&format_press(r, c), 7).unwrap(), (r, c));
            }
        }
        for bad in [
            "",
            "1",
            "0,1",
            "6,1",
            "1,6",
            "a,b",
            "1,2,3",
            "-1,2",
            "99999999999999999999999,1",
        ] {
            assert!(parse_press(bad, 5).is_err(), "{bad}");
        }
    }
}
