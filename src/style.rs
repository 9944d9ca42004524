//! Colour on terminals that support it. Everything is written through
//! `anstream`, which drops the colour codes when the output is not a terminal
//! (a pipe, a file), when `NO_COLOR` is set or `CLICOLOR=0`; `CLICOLOR_FORCE=1`
//! keeps them.

use anstyle::{AnsiColor, Style};
use tabula_core::View;

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

/// The board text with its cells coloured from the view, for boards drawn as a
/// grid: one or two header lines, then one line per row of the view's cells holding a row
/// label and one word per cell, left to right. Cells with a colour index are
/// painted in the palette's colour. Any other board is returned unchanged.
pub fn colour_board(text: &str, view: &View) -> String {
    let coloured: Vec<_> = view.cells.iter().filter(|c| c.colour.is_some()).collect();
    if coloured.is_empty() {
        return text.to_string();
    }
    let mut ys: Vec<i64> = view.cells.iter().map(|c| (c.y * 1000.0) as i64).collect();
    let mut xs: Vec<i64> = view.cells.iter().map(|c| (c.x * 1000.0) as i64).collect();
    ys.sort_unstable();
    ys.dedup();
    xs.sort_unstable();
    xs.dedup();
    let (rows, cols) = (ys.len(), xs.len());
    if rows * cols != view.cells.len() {
        return text.to_string();
    }
    let mut grid = vec![0u32; rows * cols];
    for c in &view.cells {
        let r = ys.binary_search(&((c.y * 1000.0) as i64)).unwrap_or(0);
        let k = xs.binary_search(&((c.x * 1000.0) as i64)).unwrap_or(0);
        grid[r * cols + k] = c.colour.unwrap_or(0);
    }
    let lines: Vec<&str> = text.lines().collect();
    // One header line, or two on a board whose column numbers are written in
    // two lines (tens above units) to fit 80 columns.
    let grid_at = |head: usize| {
        lines.len() >= head + rows
            && lines[head..head + rows]
                .iter()
                .all(|l| l.split_whitespace().count() == cols + 1)
    };
    let Some(head) = [1, 2].into_iter().find(|&h| grid_at(h)) else {
        return text.to_string();
    };
    let mut out = String::new();
    for (i, line) in lines.iter().enumerate() {
        if i < head || i >= head + rows {
            out += line;
            out.push('\n');
            continue;
        }
        let r = i - head;
        // Keep the spacing: paint each word after the row label in place.
        let mut word = 0usize;
        let mut rest = *line;
        while !rest.is_empty() {
            let start = rest.len() - rest.trim_start().len();
            out += &rest[..start];
            rest = &rest[start..];
            let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
            let w = &rest[..end];
            if word >= 1 && word <= cols {
                out += &paint(colour(grid[r * cols + word - 1]), w);
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
    }
}
