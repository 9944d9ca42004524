//! The track drawn as a 10 x 12 grid (positions 1..=120 row by row), for the
//! terminal and for graphical front ends.

use crate::board::{is_factor, is_penultimate, TARGET};
use crate::board_facts::SquareClass;
use crate::state::{Move, State};
use tabula_core::{
    Fact, FactValue, History, Layout, Mark, Outcome, PanelFacts, Turn, View, ViewCell, ViewPiece,
};

/// Columns of the grid.
pub const COLUMNS: u32 = 10;
/// Rows of the grid.
pub const ROWS: u32 = TARGET as u32 / COLUMNS;

const SYMBOL: [char; 2] = ['x', 'o'];

/// The style of a position, as the Auto120 posts' board colours it: the start
/// (1), home (120), one roll from home (the penultimate positions) and the path
/// home (the factors of 120); the other classes of [`crate::board_facts`] are
/// left plain.
pub fn mark(p: u32) -> Option<Mark> {
    match crate::board_facts::classify(p)? {
        SquareClass::Start => Some(Mark::Start),
        SquareClass::Home => Some(Mark::Home),
        SquareClass::Penultimate => Some(Mark::Near),
        SquareClass::Factor => Some(Mark::OnPath),
        SquareClass::OffPath | SquareClass::Prime | SquareClass::Unreachable => None,
    }
}

/// What the marks mean on this track, for legends.
pub const MARK_WORDS: [tabula_core::MarkWords; 4] = [
    tabula_core::MarkWords {
        mark: Mark::Start,
        words: "start (1)",
    },
    tabula_core::MarkWords {
        mark: Mark::Home,
        words: "home (120)",
    },
    tabula_core::MarkWords {
        mark: Mark::Near,
        words: "one roll from 120",
    },
    tabula_core::MarkWords {
        mark: Mark::OnPath,
        words: "on the path to 120",
    },
];

/// The glossary's term for markers brought home (the facts' labels use it).
pub const RETIRED: &str = "Retired";

/// The facts beside the board: how many markers each player has retired.
pub fn facts(state: &State) -> Vec<Fact> {
    (0..2)
        .map(|seat| {
            Fact::new(
                format!("Player {} retired", seat + 1),
                FactValue::Text(format!("{} of {}", state.retired(seat), state.n)),
            )
            .with_term(RETIRED)
        })
        .collect()
}

/// The view after `history`: the board, and the dice card's last roll (the roll
/// waiting to be used, else the last one rolled) and whose it was.
pub fn view_after(history: History<'_, crate::Auto120>) -> View {
    let state = history.position();
    let mut v = view(state);
    let rolled = history.recent().find_map(|(before, mv)| match mv {
        Move::Roll(r) => Some((r, before.side())),
        _ => None,
    });
    let (roll, seat) = match (state.pending_roll(), rolled) {
        (Some(r), _) if history.plies() == 0 => (vec![r], state.side()),
        (_, Some((r, seat))) => (vec![r], seat),
        _ => (Vec::new(), None),
    };
    v.panels = vec![PanelFacts::Dice {
        roll,
        seat,
        facts: Vec::new(),
    }];
    v
}

/// The status lines shown beside the board.
pub fn status(state: &State) -> Vec<String> {
    let first = match state.turn() {
        Turn::Over(Outcome::Win(w)) => format!("Player {} wins", w + 1),
        Turn::Over(_) => "Game over".into(),
        Turn::Chance => match state.side() {
            None => "Drawing the first player".into(),
            Some(s) => format!("Player {} to roll", s + 1),
        },
        Turn::Move(s) => format!("Player {} rolled {}: choose a marker", s + 1, state.roll),
    };
    vec![
        first,
        format!(
            "Retired: Player 1 {} of {n}, Player 2 {} of {n}",
            state.retired(0),
            state.retired(1),
            n = state.n
        ),
    ]
}

/// The view model: cell id = position, pieces labelled with their marker number.
/// Positions 2..=119 sit on the 10 x 12 grid; 1 (start) and 120 (home) are trays a
/// whole row wide above and below it, because every marker can stand there at
/// once and a grid square would draw eight markers too small to read on a phone.
/// Their grid squares stay empty.
pub fn view(state: &State) -> View {
    let cells = (1..=TARGET as u32)
        .map(|p| {
            let (x, y, w, label) = match p {
                1 => (0.0, 0.0, COLUMNS as f64, "1 · start".to_string()),
                p if p == TARGET as u32 => (
                    0.0,
                    (ROWS + 1) as f64,
                    COLUMNS as f64,
                    format!("{p} · home"),
                ),
                p => (
                    ((p - 1) % COLUMNS) as f64,
                    ((p - 1) / COLUMNS + 1) as f64,
                    1.0,
                    p.to_string(),
                ),
            };
            ViewCell {
                id: p,
                x,
                y,
                w,
                h: 1.0,
                label: Some(label),
                mark: mark(p),
                ..ViewCell::default()
            }
        })
        .collect();
    let mut pieces = Vec::new();
    for seat in 0..2 {
        for (m, &p) in state.markers[seat][..state.n as usize].iter().enumerate() {
            pieces.push(ViewPiece {
                cell: p as u32,
                owner: Some(seat),
                label: Some((m + 1).to_string()),
            });
        }
    }
    View {
        width: COLUMNS as f64,
        height: (ROWS + 2) as f64,
        layout: Layout::Track,
        cells,
        pieces,
        status: status(state),
        facts: facts(state),
        ..View::default()
    }
}

/// The cells a move touches: `[from, to]` for a marker move (to = 1 after a blow out).
pub fn move_cells(state: &State, mv: Move) -> Vec<u32> {
    match (state.turn(), mv) {
        (Turn::Move(_), Move::Marker(m)) if m < state.n => {
            let e = state.effect(m as usize);
            vec![e.from as u32, e.to as u32]
        }
        _ => Vec::new(),
    }
}

/// Squares on a line of the terminal drawing: ten, as in the view, so that the
/// board and the prompt fit a terminal of 80 columns and 24 lines.
const TEXT_COLUMNS: u32 = COLUMNS;

/// What stands on a square in the terminal drawing, at most three letters so
/// that ten squares fit a line: the player's letter and the number of the
/// marker there ("x1"); two or more markers of a player on one square show the
/// first and `…` ("o1…": "o14" read as marker 14), the lines below the board
/// list them all.
fn occupants(state: &State, p: u32) -> String {
    let mut out = String::new();
    if p == 1 || p == TARGET as u32 {
        return out;
    }
    for (markers, symbol) in state.markers.iter().zip(SYMBOL) {
        let here: Vec<char> = (0..state.n as usize)
            .filter(|&m| markers[m] as u32 == p)
            .map(|m| char::from(b'1' + m as u8))
            .collect();
        if here.is_empty() {
            continue;
        }
        out.push(symbol);
        out.push(here[0]);
        if here.len() > 1 {
            out.push('…');
        }
    }
    out
}

/// A terminal drawing: the grid with `*` on the squares one roll from 120 and
/// `+` on those on the way to it, Player 1's markers as `x` and Player 2's as
/// `o` followed by their marker numbers; every marker's square listed below the
/// grid (those on 1 and 120 only there), then the status lines.
pub fn render_text(state: &State) -> String {
    let mut out = String::new();
    for row in 0..TARGET as u32 / TEXT_COLUMNS {
        for col in 0..TEXT_COLUMNS {
            let p = row * TEXT_COLUMNS + col + 1;
            let sign = if is_penultimate(p) {
                '*'
            } else if is_factor(p) {
                '+'
            } else {
                ' '
            };
            // 3 + 1 + 3 columns and a space: 79 columns a line.
            out.push_str(&format!("{p:>3}{sign}{:<3}", occupants(state, p)));
            if col + 1 < TEXT_COLUMNS {
                out.push(' ');
            }
        }
        let end = out.trim_end_matches(' ').len();
        out.truncate(end);
        out.push('\n');
    }
    for (seat, symbol) in SYMBOL.iter().enumerate() {
        let places: Vec<String> = (0..state.n as usize)
            .map(|m| match state.markers[seat][m] {
                TARGET => format!("{symbol}{} retired", m + 1),
                p => format!("{symbol}{} on {p}", m + 1),
            })
            .collect();
        out.push_str(&format!(
            "Player {} ({}): {}\n",
            seat + 1,
            symbol,
            places.join(", ")
        ));
    }
    out.push_str("* one roll from 120   + on the way to 120   (type 'marker N' to move it)\n");
    // Not the count of retired markers: the lines above name each one.
    for line in status(state).into_iter().take(1) {
        out.push_str(&line);
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::parse_position;

    #[test]
    fn the_grid_marks_the_magic_positions() {
        let v = view(&State::start());
        assert_eq!(v.cells.len(), 120);
        let marked = |name: Mark| -> Vec<u32> {
            v.cells
                .iter()
                .filter(|c| c.mark == Some(name))
                .map(|c| c.id)
                .collect()
        };
        assert_eq!(marked(Mark::Near), vec![20, 24, 30, 40, 60]);
        assert_eq!(marked(Mark::OnPath).len(), 9);
        assert_eq!(marked(Mark::Start), vec![1]);
        assert_eq!(marked(Mark::Home), vec![120]);
        let at = |id: u32| v.cells.iter().find(|c| c.id == id).unwrap();
        // Start and home are trays a row wide, above and below the grid.
        assert_eq!((at(1).x, at(1).y, at(1).w), (0.0, 0.0, 10.0));
        assert_eq!((at(120).x, at(120).y, at(120).w), (0.0, 13.0, 10.0));
        assert_eq!((at(2).x, at(2).y), (1.0, 1.0));
        assert_eq!((at(119).x, at(119).y), (8.0, 12.0));
        assert_eq!(v.height, 14.0);
        // No two cells overlap.
        for a in &v.cells {
            for b in &v.cells {
                let apart =
                    a.x + a.w <= b.x || b.x + b.w <= a.x || a.y + a.h <= b.y || b.y + b.h <= a.y;
                assert!(a.id == b.id || apart, "{} and {} overlap", a.id, b.id);
            }
        }
        assert_eq!(v.pieces.len(), 8);
    }

    #[test]
    fn move_cells_go_from_to() {
        let s = parse_position("8,1,1,30/1,1,1,1:1r5").unwrap();
        assert_eq!(move_cells(&s, Move::Marker(0)), vec![8, 40]);
        assert_eq!(move_cells(&s, Move::Marker(3)), vec![30, 1]);
        assert!(move_cells(&s, Move::Roll(3)).is_empty());
    }

    #[test]
    fn text_shows_markers_and_status() {
        let s = parse_position("8,8,1,120/40,1,1,1:2r3").unwrap();
        let t = render_text(&s);
        // Two markers on 8: the first and "…", never "x12" (read as marker 12).
        assert!(t.contains("  8+x1…"), "{t}");
        assert!(!t.contains("x12"), "{t}");
        assert!(t.contains(" 40*o1"), "{t}");
        assert!(!t.contains("roll N"), "{t}");
        assert!(t.contains("x4 retired"), "{t}");
        assert!(t.contains("Player 2 rolled 3: choose a marker"), "{t}");
        // The markers' lines name the retired ones: no count line as well.
        assert!(!t.contains("Retired: "), "{t}");
    }

    #[test]
    fn text_fits_80_columns_and_24_lines_with_four_markers_on_a_square() {
        // Square 10 ends a line of the drawing: four markers are its widest cell.
        let s = parse_position("10,10,10,10/40,40,40,20:2r3").unwrap();
        let t = render_text(&s);
        assert!(t.contains(" 10+x1…"), "{t}");
        assert!(t.contains(" 40*o1…\n"), "{t}");
        assert!(t.contains(" 20*o4"), "{t}");
        assert!(t.contains("x1 on 10, x2 on 10, x3 on 10, x4 on 10"), "{t}");
        assert!(t.lines().all(|l| l.chars().count() <= 80), "{t}");
        // The board and its status leave room for the log and the prompt.
        assert!(t.lines().count() <= 17, "{t}");
    }
}
