//! Colour on terminals that support it. Everything is written through
//! `anstream`, which drops the colour codes when the output is not a terminal
//! (a pipe, a file), when `NO_COLOR` is set or `CLICOLOR=0`; `CLICOLOR_FORCE=1`
//! keeps them.

use anstyle::{AnsiColor, Style};
use tabula_core::{Layout, View};

/// The palette for colour indices 1, 2, … (SameGame blocks, Poggle buttons).
const PALETTE: [AnsiColor; 9] = [
    AnsiColor::Red,
    AnsiColor::Green,
    AnsiColor::Blue,
    AnsiColor::Yellow,
    AnsiColor::Magenta,
    AnsiColor::Cyan,
    AnsiColor::BrightRed,
    AnsiColor::BrightGreen,
    AnsiColor::BrightBlue,
];

/// The style of colour index `k` (0: none).
pub fn colour(k: u32) -> Style {
    if k == 0 {
        return Style::new();
    }
    Style::new()
        .fg_color(Some(PALETTE[(k as usize - 1) % PALETTE.len()].into()))
        .bold()
}

/// Text in a style.
pub fn paint(style: Style, text: &str) -> String {
    format!("{style}{text}{style:#}")
}

/// Bold text (headings, prompts).
pub fn bold(text: &str) -> String {
    paint(Style::new().bold(), text)
}

/// The board text with its cells coloured from the view, for boards the game
/// lays out as a grid ([`Layout::Grid`]) drawn as one to three header lines,
/// then one line per row of the grid holding a row label and one word per cell,
/// left to right; or such grids of a few columns each, one under the other (a
/// wide board's bands of columns). Cells with a colour index are painted in the
/// palette's colour. Any other board is returned unchanged.
pub fn colour_board(text: &str, view: &View) -> String {
    let Layout::Grid { columns, rows } = view.layout else {
        return text.to_string();
    };
    if !view.cells.iter().any(|c| c.colour.is_some()) || columns == 0 || rows == 0 {
        return text.to_string();
    }
    let (rows, cols) = (rows as usize, columns as usize);
    // Each cell's place on the grid, from its centre.
    let (cw, ch) = (view.width / cols as f64, view.height / rows as f64);
    let mut grid = vec![0u32; rows * cols];
    for c in &view.cells {
        let k = ((c.x + c.w / 2.0) / cw).floor();
        let r = ((c.y + c.h / 2.0) / ch).floor();
        if (0.0..cols as f64).contains(&k) && (0.0..rows as f64).contains(&r) {
            grid[r as usize * cols + k as usize] = c.colour.unwrap_or(0);
        }
    }
    let lines: Vec<&str> = text.lines().collect();
    // The board's rows of cells: one band of columns, or several one under the
    // other on a board wider than the terminal (tabula_core::text_grid), each
    // under one to three lines of column numbers (digits stacked on a wide
    // board), the same for every band.
    let Some(bands) = (1..=3).find_map(|head| bands_at(&lines, head, rows, cols)) else {
        return text.to_string();
    };
    // For each line of cells: its row and the board column of its first cell.
    let mut cells_of_line = vec![None; lines.len()];
    for &(first, col, _) in &bands {
        for r in 0..rows {
            cells_of_line[first + r] = Some((r, col));
        }
    }
    let mut out = String::new();
    for (line, cells) in lines.iter().zip(&cells_of_line) {
        let Some((r, col)) = *cells else {
            out += line;
            out.push('\n');
            continue;
        };
        // Keep the spacing: paint each word after the row label in place.
        let mut word = 0usize;
        let mut rest = *line;
        while !rest.is_empty() {
            let start = rest.len() - rest.trim_start().len();
            out += &rest[..start];
            rest = &rest[start..];
            let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
            let w = &rest[..end];
            if word >= 1 {
                out += &paint(colour(grid[r * cols + col + word - 1]), w);
            } else {
                out += w;
            }
            word += 1;
            rest = &rest[end..];
        }
        out.push('\n');
    }
    if !text.ends_with('\n') {
        out.pop();
    }
    out
}

/// Where the rows of cells are when each band of columns has `head` lines of
/// column numbers: for each band, its first line, the board column of its first
/// cell and how many columns it holds; `None` unless the bands from the top of
/// the board hold exactly `cols` columns in `rows` lines each.
fn bands_at(
    lines: &[&str],
    head: usize,
    rows: usize,
    cols: usize,
) -> Option<Vec<(usize, usize, usize)>> {
    let mut bands = Vec::new();
    let (mut at, mut col) = (0usize, 0usize);
    while col < cols {
        // Bands after the first are parted by a blank line.
        if !bands.is_empty() {
            if !lines.get(at).is_some_and(|l| l.trim().is_empty()) {
                return None;
            }
            while lines.get(at).is_some_and(|l| l.trim().is_empty()) {
                at += 1;
            }
        }
        let first = at + head;
        let block = lines.get(first..first + rows)?;
        let words = block[0].split_whitespace().count();
        let label = |l: &str| l.split_whitespace().next().map(str::to_string);
        let same_labels = bands.first().map_or(true, |&(first0, _, _)| {
            (0..rows).all(|r| label(block[r]) == label(lines[first0 + r]))
        });
        if words < 2
            || words - 1 > cols - col
            || !same_labels
            || block.iter().any(|l| l.split_whitespace().count() != words)
        {
            return None;
        }
        bands.push((first, col, words - 1));
        col += words - 1;
        at = first + rows;
    }
    Some(bands)
}

#[cfg(test)]
mod tests {
    use super::*;
    use tabula_core::ViewCell;

    #[test]
    fn grid_boards_get_their_cells_painted_and_others_stay() {
        let cell = |id, x, y, colour| ViewCell {
            id,
            x,
            y,
            w: 1.0,
            h: 1.0,
            colour: Some(colour),
            ..ViewCell::default()
        };
        let view = View {
            width: 2.0,
            height: 2.0,
            layout: Layout::Grid {
                columns: 2,
                rows: 2,
            },
            cells: vec![
                cell(0, 0.0, 0.0, 1),
                cell(1, 1.0, 0.0, 2),
                cell(2, 0.0, 1.0, 0),
                cell(3, 1.0, 1.0, 1),
            ],
            ..View::default()
        };
        let text = "     0  1\n  0  1  2\n  1  .  1\nscore 0\n";
        let painted = colour_board(text, &view);
        assert!(painted.contains(&paint(colour(2), "2")), "{painted:?}");
        assert_eq!(anstream::adapter::strip_str(&painted).to_string(), text);
        // Column numbers in two lines (a wide board) are a header too.
        let two = "        1\n     0  1\n  0  1  2\n  1  .  1\nscore 0\n";
        let painted = colour_board(two, &view);
        assert!(painted.contains(&paint(colour(2), "2")), "{painted:?}");
        assert_eq!(anstream::adapter::strip_str(&painted).to_string(), two);
        // A board that is not such a grid is left alone.
        assert_eq!(colour_board("x\ny\n", &view), "x\ny\n");
        // A wide board in two bands of one column each: each band's cells
        // painted with its own column's colours.
        let banded = "     0\n  0  1\n  1  .\n\n     1\n  0  2\n  1  1\nscore 0\n";
        let painted = colour_board(banded, &view);
        assert_eq!(anstream::adapter::strip_str(&painted).to_string(), banded);
        let second_band = &painted[painted.find("\n\n").unwrap()..];
        assert!(second_band.contains(&paint(colour(2), "2")), "{painted:?}");
        assert!(second_band.contains(&paint(colour(1), "1")), "{painted:?}");
        assert!(!second_band.contains(&paint(colour(1), "2")), "{painted:?}");
        // So is a board the game does not lay out as a grid, whatever its cells.
        let free = View {
            layout: Layout::Free,
            ..view
        };
        assert_eq!(colour_board(text, &free), text);
    }
}
