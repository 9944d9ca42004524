//! Boards drawn as text for a terminal of [`BOARD_COLUMNS`] columns: rows of
//! cells under their column numbers, each row led by its number. A board too
//! wide for one line of cells is drawn in bands of columns, one under the other,
//! each under its own column numbers (and every band repeats the row numbers),
//! so that every number stands over its cell on every size.
//!
//! The layout, in order of preference:
//! 1. every column at least `min_cell` wide and its number written on one line;
//! 2. cells one character apart, column numbers written digit above digit
//!    (tens above units) when they are wider than a cell;
//! 3. as 2, in bands of columns: as many columns as fit the width, the bands as
//!    even as can be.

/// The widest line of a board: an 80-column terminal.
pub const BOARD_COLUMNS: usize = 80;

/// A board of `cells` (rows of words, all rows as long) under the column numbers
/// `first_column`, `first_column + 1`, …, each row led by its row number from
/// `first_row`, no line wider than `width`. Cells are right-aligned in columns of
/// at least `min_cell` characters (a space included) where that fits.
pub fn grid_text(
    cells: &[Vec<String>],
    first_row: usize,
    first_column: usize,
    min_cell: usize,
    width: usize,
) -> String {
    let rows = cells.len();
    let cols = cells.iter().map(Vec::len).max().unwrap_or(0);
    if rows == 0 || cols == 0 {
        return String::new();
    }
    let digits = |n: usize| n.to_string().len();
    let label = digits(first_row + rows - 1).max(3);
    let lead = label + 1;
    let content = cells
        .iter()
        .flatten()
        .map(|c| c.chars().count())
        .max()
        .unwrap_or(1)
        .max(1);
    let number = digits(first_column + cols - 1);
    let wide = min_cell.max(content + 1).max(number + 1);
    let (cell, stacked) = if lead + wide * cols <= width {
        (wide, false)
    } else {
        // Cells one character apart; numbers wider than that are stacked.
        let narrow = content + 1;
        (narrow, number + 1 > narrow)
    };
    let per_band = ((width.saturating_sub(lead)) / cell).max(1);
    // Bands as even as can be: the first ones one column longer where needed.
    let bands = cols.div_ceil(per_band);
    let (size, longer) = (cols / bands, cols % bands);
    let mut out = String::new();
    let mut start = 0;
    for band in 0..bands {
        let span = start..start + size + usize::from(band < longer);
        start = span.end;
        if band > 0 {
            out.push('\n');
        }
        // Column numbers: one line, or one line per digit (most significant first).
        let lines = if stacked { number } else { 1 };
        for line in 0..lines {
            let mut text = " ".repeat(lead);
            for c in span.clone() {
                let n = (first_column + c).to_string();
                let shown = if stacked {
                    // The digit of this line, blank where the number is shorter.
                    let pad = number - n.len();
                    if line < pad {
                        " ".to_string()
                    } else {
                        n[line - pad..=line - pad].to_string()
                    }
                } else {
                    n
                };
                text += &format!("{shown:>cell$}");
            }
            out += text.trim_end();
            out.push('\n');
        }
        for (r, row) in cells.iter().enumerate() {
            let mut text = format!("{:>label$} ", first_row + r);
            for c in span.clone() {
                let shown = row.get(c).map(String::as_str).unwrap_or("");
                text += &format!("{shown:>cell$}");
            }
            out += &text;
            out.push('\n');
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(rows: usize, cols: usize, cell: &str) -> Vec<Vec<String>> {
        vec![vec![cell.to_string(); cols]; rows]
    }

    /// The column number over each cell of every band: for each band, the
    /// numbers read down the ruler lines at each cell's last character.
    fn numbers_over_cells(text: &str, rows: usize, ruler: usize) -> Vec<usize> {
        let mut found = Vec::new();
        for band in text.split("\n\n") {
            let lines: Vec<&str> = band.lines().collect();
            assert_eq!(lines.len(), ruler + rows, "{text}");
            let first_row = lines[ruler];
            // Where each cell ends: the end of each word after the row number.
            let mut ends = Vec::new();
            let bytes = first_row.as_bytes();
            for i in 0..bytes.len() {
                let end = i + 1 == bytes.len() || bytes[i + 1] == b' ';
                if bytes[i] != b' ' && end {
                    ends.push(i);
                }
            }
            for &end in &ends[1..] {
                let digits: String = lines[..ruler]
                    .iter()
                    .filter_map(|l| l.as_bytes().get(end).map(|&b| b as char))
                    .filter(|c| c.is_ascii_digit())
                    .collect();
                // A one-line ruler right-aligns whole numbers at the cell's end.
                let n = if ruler == 1 {
                    let line = lines[0].as_bytes();
                    let mut start = end;
                    while start > 0 && line[start - 1].is_ascii_digit() {
                        start -= 1;
                    }
                    lines[0][start..=end].parse().unwrap()
                } else {
                    digits.parse().unwrap()
                };
                found.push(n);
            }
        }
        found
    }

    #[test]
    fn small_boards_keep_one_line_of_numbers() {
        let text = grid_text(&board(2, 2, "1"), 0, 0, 3, 80);
        assert_eq!(text, "      0  1\n  0   1  1\n  1   1  1\n");
    }

    #[test]
    fn every_size_fits_and_every_number_stands_over_its_cell() {
        for cols in [1, 10, 25, 26, 38, 39, 76, 77, 100, 128] {
            for (cell, first) in [("3", 0), ("3", 1), ("255", 1)] {
                let text = grid_text(&board(3, cols, cell), first, first, 3, BOARD_COLUMNS);
                assert!(
                    text.lines().all(|l| l.len() <= BOARD_COLUMNS),
                    "{cols} columns:\n{text}"
                );
                let bands = text.split("\n\n").count();
                let ruler = text.split("\n\n").next().unwrap().lines().count() - 3;
                let numbers = numbers_over_cells(&text, 3, ruler);
                let want: Vec<usize> = (first..first + cols).collect();
                assert_eq!(numbers, want, "{cols} columns, {bands} bands:\n{text}");
                // Every row whole in each band: its number and its cells.
                for band in text.split("\n\n") {
                    let rows: Vec<&str> = band.lines().skip(ruler).collect();
                    for (r, row) in rows.iter().enumerate() {
                        let words: Vec<&str> = row.split_whitespace().collect();
                        assert_eq!(words[0], (first + r).to_string(), "{text}");
                        assert!(words[1..].iter().all(|w| *w == cell), "{text}");
                    }
                }
            }
        }
    }

    #[test]
    fn bands_are_as_even_as_can_be() {
        // 100 one-character cells two columns apart: 38 fit a band, so three
        // bands of 34, 33 and 33.
        let text = grid_text(&board(1, 100, "1"), 0, 0, 3, 80);
        let sizes: Vec<usize> = text
            .split("\n\n")
            .map(|b| b.lines().last().unwrap().split_whitespace().count() - 1)
            .collect();
        assert_eq!(sizes, [34, 33, 33], "{text}");
    }
}
