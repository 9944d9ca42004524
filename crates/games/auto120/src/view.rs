//! The track drawn as a 10 x 12 grid (positions 1..=120 row by row) for
//! graphical front ends, and for the terminal as the squares a marker can
//! stand on, six to a line.

use crate::board::{is_factor, is_penultimate, is_reachable, TARGET};
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

/// Squares on a line of the terminal drawing. Only the 34 squares between 1
/// and 120 that a marker can ever stand on are drawn (the others can never
/// hold one), nine to a line: with the markers' lines, the legend and the
/// status the board takes 9 lines, so that the game's title and its first
/// moves stay on a terminal of 24 lines.
const TEXT_COLUMNS: usize = 9;

/// The squares the terminal drawing shows: those a marker can stand on,
/// without start (1) and home (120), whose markers the lines below list.
fn drawn_squares() -> Vec<u32> {
    (2..TARGET as u32).filter(|&p| is_reachable(p)).collect()
}

/// What stands on a square in the terminal drawing: each marker by the name
/// the lines below give it, the player's letter and its number ("x1"; "o1o4"
/// for Player 2's markers 1 and 4, never "o14", which reads as marker 14).
/// Both players never share a square between 1 and 120: the later arrival
/// sends the other back to 1.
fn occupants(state: &State, p: u32) -> String {
    let mut out = String::new();
    for (markers, symbol) in state.markers.iter().zip(SYMBOL) {
        for m in (0..state.n as usize).filter(|&m| markers[m] as u32 == p) {
            out.push(symbol);
            out.push(char::from(b'1' + m as u8));
        }
    }
    out
}

/// A terminal drawing: the squares a marker can stand on, with `*` on those
/// one roll from 120 and `+` on those on the way to it, Player 1's markers as
/// `x1`..`x4` and Player 2's as `o1`..`o4`; every marker's square listed below
/// the grid (those on 1 and 120 only there), then the legend and the status.
///
/// Each column is as wide as its widest square now: eight markers at most
/// stand on the grid, so a line never passes 60 columns.
pub fn render_text(state: &State) -> String {
    let cells: Vec<String> = drawn_squares()
        .into_iter()
        .map(|p| {
            let sign = if is_penultimate(p) {
                '*'
            } else if is_factor(p) {
                '+'
            } else {
                ' '
            };
            format!("{p:>3}{sign}{}", occupants(state, p))
        })
        .collect();
    let widths: Vec<usize> = (0..TEXT_COLUMNS)
        .map(|c| {
            cells
                .iter()
                .skip(c)
                .step_by(TEXT_COLUMNS)
                .map(|cell| cell.chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect();
    let mut out = String::new();
    for row in cells.chunks(TEXT_COLUMNS) {
        let line: Vec<String> = row
            .iter()
            .zip(&widths)
            .map(|(cell, &w)| format!("{cell:<w$}"))
            .collect();
        out.push_str(line.join(" ").trim_end());
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
    out.push_str(LEGEND);
    out.push('\n');
    // Both status lines, as the view gives them: a front end shows the lines
    // the drawing lacks, so a line left out here would come back under it.
    for line in status(state) {
        out.push_str(&line);
        out.push('\n');
    }
    out
}

/// The line under the terminal drawing: which squares it shows and what its
/// signs mean.
const LEGEND: &str = "Squares a marker can reach.  * one roll from 120   + on the way to 120";

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
        // Two markers on 8, each by its own name: never "x12" (read as marker 12).
        assert!(t.contains("  8+x1x2"), "{t}");
        assert!(!t.contains("x12"), "{t}");
        assert!(t.contains(" 40*o1"), "{t}");
        assert!(!t.contains("roll N"), "{t}");
        assert!(t.contains("x4 retired"), "{t}");
        // Every status line of the view, so that none is added under the board.
        for line in status(&s) {
            assert!(t.contains(&line), "{line} in {t}");
        }
        assert!(t.contains("Player 2 rolled 3: choose a marker"), "{t}");
    }

    #[test]
    fn text_draws_only_the_squares_a_marker_can_stand_on() {
        let t = render_text(&State::start());
        let drawn: Vec<u32> = t
            .lines()
            .take_while(|l| !l.starts_with("Player"))
            .flat_map(|l| l.split(|c: char| !c.is_ascii_digit()))
            .filter_map(|w| w.parse().ok())
            .collect();
        let reachable: Vec<u32> = (2..120)
            .filter(|&p| crate::board::is_reachable(p))
            .collect();
        assert_eq!(drawn, reachable, "{t}");
        assert_eq!(drawn.len(), 34);
        // Squares no marker can reach (7, 11, 119) are left out.
        assert!(!drawn.contains(&7) && !drawn.contains(&119), "{t}");
    }

    /// Where each square's number ends on a line of the drawing: the number
    /// standing alone (a space or the line's start before it, no digit after).
    fn number_ends(line: &str, row: &[u32]) -> Vec<usize> {
        let mut from = 0;
        row.iter()
            .map(|p| {
                let word = p.to_string();
                let at = (from..line.len())
                    .find(|&i| {
                        line[i..].starts_with(&word)
                            && (i == 0 || line.as_bytes()[i - 1] == b' ')
                            && !line[i + word.len()..].starts_with(|c: char| c.is_ascii_digit())
                    })
                    .unwrap_or_else(|| panic!("no {p} in {line}"));
                from = at + word.len();
                from
            })
            .collect()
    }

    #[test]
    fn text_columns_line_up_and_fit_80_columns_in_9_lines() {
        // Four markers of each player on one square, in the widest columns.
        for text in [
            "108,108,108,108/40,40,40,40:2r3",
            "96,96,96,96/100,100,100,100:1r2",
            "5,10,40,9/2,3,60,72:1",
            "1,1,1,1/1,1,1,1:?",
        ] {
            let s = parse_position(text).unwrap();
            let t = render_text(&s);
            assert!(t.lines().all(|l| l.chars().count() <= 80), "{t}");
            // The board and its status leave room on 24 lines for the heading,
            // the first moves and the prompt.
            assert!(t.lines().count() <= 9, "{t}");
            // Every column's numbers end at the same place on every line.
            let ends: Vec<Vec<usize>> = t
                .lines()
                .zip(drawn_squares().chunks(TEXT_COLUMNS))
                .map(|(line, row)| number_ends(line, row))
                .collect();
            for row in &ends[1..] {
                assert_eq!(row[..], ends[0][..row.len()], "{t}");
            }
        }
        let s = parse_position("108,108,108,108/40,40,40,40:2r3").unwrap();
        let t = render_text(&s);
        assert!(t.contains("108 x1x2x3x4"), "{t}");
        assert!(t.contains(" 40*o1o2o3o4"), "{t}");
        assert!(
            t.contains("x1 on 108, x2 on 108, x3 on 108, x4 on 108"),
            "{t}"
        );
    }
}
