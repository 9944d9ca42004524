//! The terminal board fits 80 columns on every board size (2 to 128 cells a row,
//! 1 to 32 rows) and still tells where every piece stands: boards that fitted
//! before keep their old drawing, wider ones are drawn one column a cell under a
//! ruler, and the widest are described row by row in words.

mod common;
use common::random_state;
use tabula_core::{rng_from_seed, Game, Notation, Presentation, Rng};
use tabula_northcott::{Northcott, NorthcottState, MAX_COLS, MAX_ROWS};

const WIDTH: usize = 80;

fn game(nx: usize, ny: usize) -> Northcott {
    Northcott::new(nx, ny).expect("a size in range")
}

/// The start (every gap at its widest), X to move there, every row closed up at
/// the far end, and random positions.
fn states(g: &Northcott, rng: &mut Rng) -> Vec<NorthcottState> {
    let start = g.initial_state();
    let mut x_to_move = start;
    x_to_move.mover = 1;
    let mut closed = start;
    for r in 0..g.ny() {
        closed.o[r] = (g.nx() - 2) as u8;
    }
    let mut all = vec![start, x_to_move, closed];
    all.extend((0..3).map(|_| random_state(g, rng)));
    all
}

/// Each row's (O cell, X cell, gap), 0-based cells, read back from the text the
/// way a player reads it, whichever form the board is drawn in.
fn read_back(text: &str, nx: usize, ny: usize) -> Vec<(usize, usize, usize)> {
    let mut rows = Vec::new();
    for line in text.lines() {
        if let Some(rest) = line.strip_prefix("row ") {
            // Words: "row  1: O on cell   1, X on cell 128, gap 126".
            let (label, rest) = rest.split_once(": ").expect("row label");
            assert_eq!(
                label.trim().parse::<usize>().unwrap(),
                rows.len() + 1,
                "{line}"
            );
            let nums: Vec<usize> = rest
                .split(", ")
                .map(|part| {
                    part.rsplit(' ')
                        .next()
                        .and_then(|n| n.parse().ok())
                        .unwrap_or_else(|| panic!("no number in {part:?}: {line}"))
                })
                .collect();
            assert!(
                rest.starts_with("O on cell") && rest.contains(", X on cell"),
                "{line}"
            );
            assert_eq!(nums.len(), 3, "{line}");
            rows.push((nums[0] - 1, nums[1] - 1, nums[2]));
        } else if let Some((board, gap)) = line.split_once("   gap ") {
            // Drawn: a right-aligned row label in 4 columns, then the cells, one
            // character each, spaced or not.
            let (label, cells) = board.split_at(4);
            assert_eq!(
                label.trim().parse::<usize>().unwrap(),
                rows.len() + 1,
                "{line}"
            );
            let cells: Vec<char> = cells.split_whitespace().flat_map(str::chars).collect();
            let at = |piece| cells.iter().position(|&c| c == piece).expect("a piece");
            assert_eq!(cells.len(), nx, "{line}");
            assert_eq!(cells.iter().filter(|&&c| c != '.').count(), 2, "{line}");
            rows.push((at('O'), at('X'), gap.parse().unwrap()));
        }
    }
    assert_eq!(rows.len(), ny, "{text}");
    rows
}

#[test]
fn every_line_fits_80_columns_and_every_piece_reads_back() {
    let mut rng = rng_from_seed(7);
    let mut checked = 0;
    for nx in 2..=MAX_COLS {
        for ny in 1..=MAX_ROWS {
            let g = game(nx, ny);
            for s in states(&g, &mut rng) {
                let text = g.render_text(&s);
                for line in text.lines() {
                    assert!(
                        line.chars().count() <= WIDTH,
                        "{nx}x{ny}: {} columns: {line}",
                        line.chars().count()
                    );
                }
                let want: Vec<_> = (0..ny)
                    .map(|r| (s.o[r] as usize, s.x[r] as usize, s.gap(r) as usize))
                    .collect();
                assert_eq!(read_back(&text, nx, ny), want, "{nx}x{ny}:\n{text}");
                checked += 1;
            }
        }
    }
    assert_eq!(checked, (MAX_COLS - 1) * MAX_ROWS * 6);
}

/// The cell number a player reads off the ruler of the one-column-a-cell board at
/// character `at`: the units digit above it and the last tens digit at or left of it.
fn ruler_number(tens: &str, units: &str, at: usize) -> usize {
    let unit = units
        .chars()
        .nth(at)
        .and_then(|c| c.to_digit(10))
        .expect("a unit");
    let ten = tens
        .chars()
        .take(at + 1)
        .filter_map(|c| c.to_digit(10))
        .last()
        .unwrap_or(0);
    (ten * 10 + unit) as usize
}

#[test]
fn the_ruler_of_a_wide_board_names_the_cells_of_the_pieces() {
    let mut rng = rng_from_seed(11);
    for nx in [34, 35, 40, 49, 50, 51, 60, 66] {
        let g = game(nx, 5);
        for s in states(&g, &mut rng) {
            let text = g.render_text(&s);
            let lines: Vec<&str> = text.lines().collect();
            let (tens, units) = (lines[0], lines[1]);
            assert!(units.trim_start().starts_with("1234567890"), "{text}");
            for r in 0..g.ny() {
                let row = lines[2 + r];
                for (piece, cell) in [('O', s.o[r]), ('X', s.x[r])] {
                    let at = row.find(piece).expect("the piece is drawn");
                    assert_eq!(
                        ruler_number(tens, units, at),
                        cell as usize + 1,
                        "{piece} of row {}:\n{text}",
                        r + 1
                    );
                }
            }
        }
    }
}

#[test]
fn boards_that_fitted_keep_their_drawing() {
    // The 16x4 board of the programmer's page, and the widest two-column board.
    let g = game(16, 4);
    let s = g.parse_position("O14X/2O12X/O14X/O14X X").unwrap();
    assert_eq!(
        g.render_text(&s),
        "      1  2  3  4  5  6  7  8  9 10 11 12 13 14 15 16
   1  O  .  .  .  .  .  .  .  .  .  .  .  .  .  .  X   gap 14
   2  .  .  O  .  .  .  .  .  .  .  .  .  .  .  .  X   gap 12
   3  O  .  .  .  .  .  .  .  .  .  .  .  .  .  .  X   gap 14
   4  O  .  .  .  .  .  .  .  .  .  .  .  .  .  .  X   gap 14
nim-sum 2; X to move (type ROW:CELL: your piece in that row goes to that cell)
"
    );
    let g = game(33, 2);
    let s = g.parse_position("O31X/4O4X23 X").unwrap();
    assert_eq!(
        g.render_text(&s),
        "                       1 1 1 1 1 1 1 1 1 1 2 2 2 2 2 2 2 2 2 2 3 3 3 3
     1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3
   1 O . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . . X   gap 31
   2 . . . . O . . . . X . . . . . . . . . . . . . . . . . . . . . . .   gap 4
nim-sum 27; X to move (type ROW:CELL: your piece in that row goes to that cell)
"
    );
}

#[test]
fn wider_boards_take_one_column_a_cell_then_words() {
    let g = game(34, 2);
    let s = g.parse_position("O32X/9O3X20 O").unwrap();
    assert_eq!(
        g.render_text(&s),
        "              1         2         3
     1234567890123456789012345678901234
   1 O................................X   gap 32
   2 .........O...X....................   gap 3
nim-sum 35; O to move (type ROW:CELL: your piece in that row goes to that cell)
"
    );
    let g = game(128, 2);
    let s = g.parse_position("O126X/9O3X114 X").unwrap();
    assert_eq!(
        g.render_text(&s),
        "128 cells a row, too many to draw: where each row's O and X stand
row 1: O on cell   1, X on cell 128, gap 126
row 2: O on cell  10, X on cell  14, gap   3
nim-sum 125; X to move (type ROW:CELL: your piece in that row goes to that cell)
"
    );
}
