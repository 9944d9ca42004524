//! The terminal board (`render_text`) in the widest of three forms that fits an
//! 80-column terminal, so the terminal never wraps a board line (boards go up to
//! 128 cells a row):
//!
//! * [`BoardForm::Spaced`]: two or three columns a cell, numbers over every column
//!   (up to 33 cells a row; unchanged from the first terminal board);
//! * [`BoardForm::Compact`]: one column a cell under a ruler (tens over units,
//!   the tens digit every tenth column), up to 66 cells a row;
//! * [`BoardForm::Words`]: each row's O and X by cell number, for wider boards.
//!
//! The form depends on the board's width only, so it never changes during a game.

use crate::game::{side_word, Northcott, NorthcottState};
use std::fmt::Write as _;

/// The terminal width every line of the board fits.
pub(crate) const TEXT_COLUMNS: usize = 80;

/// How the board is drawn: see the module documentation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum BoardForm {
    /// Two or three columns a cell.
    Spaced,
    /// One column a cell under a ruler.
    Compact,
    /// Each row's pieces by cell number.
    Words,
}

/// Decimal digits of `n`.
fn digits(n: usize) -> usize {
    n.to_string().len()
}

/// Columns a cell takes in the spaced form: three while 80 columns hold them
/// (up to 22 cells), else two, column numbers then written tens above units.
fn spaced_cell_width(nx: usize) -> usize {
    if nx >= 10 && 13 + 3 * nx > TEXT_COLUMNS {
        2
    } else {
        digits(nx) + 1
    }
}

impl BoardForm {
    /// The widest form whose longest line (a row with the widest gap, `nx - 2`)
    /// fits [`TEXT_COLUMNS`].
    pub(crate) fn for_width(nx: usize) -> BoardForm {
        // A row is its label (4), the cells, then "   gap N" (7 + digits).
        let note = 7 + digits(nx.saturating_sub(2));
        if 4 + spaced_cell_width(nx) * nx + note <= TEXT_COLUMNS {
            BoardForm::Spaced
        } else if 5 + nx + note <= TEXT_COLUMNS {
            BoardForm::Compact
        } else {
            BoardForm::Words
        }
    }
}

/// The letter on cell `c` of row `r`.
fn cell(state: &NorthcottState, r: usize, c: usize) -> char {
    if c == state.o[r] as usize {
        'O'
    } else if c == state.x[r] as usize {
        'X'
    } else {
        '.'
    }
}

/// The board, then the nim-sum and whose move it is.
pub(crate) fn render_text(game: &Northcott, state: &NorthcottState) -> String {
    let mut s = match BoardForm::for_width(game.nx()) {
        BoardForm::Spaced => spaced(game, state),
        BoardForm::Compact => compact(game, state),
        BoardForm::Words => words(game, state),
    };
    let _ = writeln!(
        s,
        "nim-sum {}; {} to move (type ROW:CELL: your piece in that row goes to that cell)",
        game.nim_sum(state),
        side_word(state),
    );
    s
}

/// Two or three columns a cell (`   1  O  .  .  X   gap 2`).
fn spaced(game: &Northcott, state: &NorthcottState) -> String {
    let nx = game.nx();
    let w = spaced_cell_width(nx);
    let narrow = w == 2 && nx >= 10;
    let mut s = String::new();
    if narrow {
        let _ = write!(s, "{:>4}", "");
        for c in 1..=nx {
            match c / 10 {
                0 => s.push_str("  "),
                t => {
                    let _ = write!(s, "{t:>2}");
                }
            }
        }
        s.push('\n');
    }
    let _ = write!(s, "{:>4}", "");
    for c in 1..=nx {
        let label = if narrow { c % 10 } else { c };
        let _ = write!(s, "{label:>w$}");
    }
    s.push('\n');
    for r in 0..game.ny() {
        let _ = write!(s, "{:>4}", r + 1);
        for c in 0..nx {
            let _ = write!(s, "{:>w$}", cell(state, r, c));
        }
        let _ = writeln!(s, "   gap {}", state.gap(r));
    }
    s
}

/// One column a cell under a ruler: the tens digit over every tenth column, the
/// units digit over every column, so cell 47 is the 7 right of the 4.
fn compact(game: &Northcott, state: &NorthcottState) -> String {
    let nx = game.nx();
    let mut tens = format!("{:>5}", "");
    let mut units = tens.clone();
    for c in 1..=nx {
        tens.push(if c % 10 == 0 {
            char::from(b'0' + (c / 10 % 10) as u8)
        } else {
            ' '
        });
        units.push(char::from(b'0' + (c % 10) as u8));
    }
    let mut s = String::new();
    let _ = writeln!(s, "{}", tens.trim_end());
    let _ = writeln!(s, "{units}");
    for r in 0..game.ny() {
        let _ = write!(s, "{:>4} ", r + 1);
        s.extend((0..nx).map(|c| cell(state, r, c)));
        let _ = writeln!(s, "   gap {}", state.gap(r));
    }
    s
}

/// Too wide to draw: each row's O and X by cell number, in aligned columns
/// (`row  1: O on cell   1, X on cell 128, gap 126`).
fn words(game: &Northcott, state: &NorthcottState) -> String {
    let (nx, ny) = (game.nx(), game.ny());
    let (rw, cw, gw) = (digits(ny), digits(nx), digits(nx.saturating_sub(2)));
    let mut s = String::new();
    let _ = writeln!(
        s,
        "{nx} cells a row, too many to draw: where each row's O and X stand"
    );
    for r in 0..ny {
        let _ = writeln!(
            s,
            "row {:>rw$}: O on cell {:>cw$}, X on cell {:>cw$}, gap {:>gw$}",
            r + 1,
            state.o[r] as usize + 1,
            state.x[r] as usize + 1,
            state.gap(r),
        );
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_form_takes_the_widths_it_should() {
        let form = |nx| BoardForm::for_width(nx);
        assert_eq!(form(2), BoardForm::Spaced);
        assert_eq!(form(22), BoardForm::Spaced);
        assert_eq!(form(33), BoardForm::Spaced);
        assert_eq!(form(34), BoardForm::Compact);
        assert_eq!(form(66), BoardForm::Compact);
        assert_eq!(form(67), BoardForm::Words);
        assert_eq!(form(128), BoardForm::Words);
    }
}
