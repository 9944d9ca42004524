//! What a game shows of a position, declared by the game as typed data.
//!
//! A [`View`] is a function of the game, its variant and the position shown (with
//! the plies that led to it, [`History`]): the board's layout and where its labels
//! go, the cells a person clicks and what a click means ([`ClickTarget`]), the
//! cells' styles ([`Mark`]), the pieces, the facts beside the board, the cells of
//! the last move and the facts of the game's declared cards ([`PanelFacts`]). The
//! faces (the browser page, the terminal, Python) render this data and nothing
//! else: none of them knows a game's layout, reads meaning out of a string or
//! computes a fact of its own. A face shows the same [`View`] whether the position
//! is the game's latest or one of its earlier positions under review.

use crate::results::Fact;
use crate::{Game, Seat, SeatColour};
use serde::{Deserialize, Serialize};

/// What a game shows of one position, independent of how it is drawn.
///
/// Coordinates are in abstract units inside `0..width` x `0..height`; the web UI
/// scales them into an SVG view box, the CLI uses [`crate::Presentation::render_text`].
/// Cells are the places a user can click: a move is described to the UI by the list
/// of cell ids it touches ([`crate::Presentation::move_cells`]), so one generic renderer and
/// one click protocol serve every game.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct View {
    /// Width of the drawing area.
    pub width: f64,
    /// Height of the drawing area.
    pub height: f64,
    /// How the cells are laid out (a grid, a ring, heaps, …).
    #[serde(default)]
    pub layout: Layout,
    /// Where cell labels are drawn.
    #[serde(default)]
    pub labels: LabelPlace,
    /// Clickable places: squares, points, buttons, track positions.
    #[serde(serialize_with = "crate::cells_json::serialize")]
    pub cells: Vec<ViewCell>,
    /// Lines joining cells (the Mu Torere star, rows of a track).
    pub edges: Vec<ViewEdge>,
    /// Pieces standing on cells.
    pub pieces: Vec<ViewPiece>,
    /// The seats, in turn order: their names and the colours their pieces are
    /// drawn in unless a person chose others (the engine fills them from the
    /// game's seats and `GamePresentation::seat_colours`).
    #[serde(default)]
    pub seats: Vec<ViewSeat>,
    /// The position in a few lines of words, for a text face (the terminal).
    pub status: Vec<String>,
    /// Facts about the position shown beside the board ("Nim-sum: 3", "Gaps: 2 0 5");
    /// never whose turn it is or the result, which every face says itself.
    #[serde(default)]
    pub facts: Vec<Fact>,
    /// The cells of the last move that touched the board (the engine fills it from
    /// the position's history unless the game did).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_move: Option<LastMove>,
    /// What the game's declared cards show of this position, one entry per card
    /// that shows facts of the position (`GamePresentation::panels`).
    #[serde(default)]
    pub panels: Vec<PanelFacts>,
    /// Whether the board has sides a face may turn it round to see from (a
    /// board of squares, a ring, heaps): true unless the game says otherwise, as
    /// a board of buttons alone (Pig's roll and hold) does.
    #[serde(default = "turns_round")]
    pub flippable: bool,
}

/// A board turns round unless its game says it does not.
fn turns_round() -> bool {
    true
}

impl Default for View {
    fn default() -> Self {
        View {
            width: 0.0,
            height: 0.0,
            layout: Layout::default(),
            labels: LabelPlace::default(),
            cells: Vec::new(),
            edges: Vec::new(),
            pieces: Vec::new(),
            seats: Vec::new(),
            status: Vec::new(),
            facts: Vec::new(),
            last_move: None,
            panels: Vec::new(),
            flippable: turns_round(),
        }
    }
}

impl View {
    /// Gives every cell the game left unnamed its name by the layout: "row r,
    /// column c" on a grid, "heap h, place p" in heaps (places counted from the
    /// left), "square n" on a track, else its label, else "point n".
    pub fn name_cells(&mut self) {
        // Runs for every view a server sends: only the heaps' rows need the
        // sorted list, and only cells left unnamed get a name.
        let heaps: Vec<u64> = match self.layout {
            Layout::Heaps { .. } => {
                let mut ys: Vec<u64> = self.cells.iter().map(|c| c.y.to_bits()).collect();
                ys.sort_unstable_by(|a, b| f64::from_bits(*a).total_cmp(&f64::from_bits(*b)));
                ys.dedup();
                ys
            }
            _ => Vec::new(),
        };
        let name = |c: &ViewCell| match self.layout {
            Layout::Grid { columns, rows } => {
                let (cw, ch) = (
                    self.width / f64::from(columns.max(1)),
                    self.height / f64::from(rows.max(1)),
                );
                let column = ((c.x + c.w / 2.0) / cw).floor() as i64 + 1;
                let row = ((c.y + c.h / 2.0) / ch).floor() as i64 + 1;
                two_numbers("row ", row, ", column ", column)
            }
            Layout::Heaps { .. } => {
                let heap = heaps.iter().position(|y| *y == c.y.to_bits()).unwrap_or(0) + 1;
                let place = self
                    .cells
                    .iter()
                    .filter(|o| o.y.to_bits() == c.y.to_bits() && o.x < c.x)
                    .count()
                    + 1;
                two_numbers("heap ", heap as i64, ", place ", place as i64)
            }
            Layout::Track => format!("square {}", c.id),
            Layout::Free | Layout::Ring | Layout::Buttons => match &c.label {
                Some(label) => label.clone(),
                None => format!("point {}", c.id),
            },
        };
        let names: Vec<(usize, String)> = self
            .cells
            .iter()
            .enumerate()
            .filter(|(_, c)| c.name.is_none())
            .map(|(i, c)| (i, name(c)))
            .collect();
        for (i, name) in names {
            self.cells[i].name = Some(name);
        }
    }
}

/// `"{a}{m}{b}{n}"` ("row 2, column 3"), written without `format!`: a grid's
/// every cell is named so in every view a server sends, and the formatting
/// machinery cost more than the rest of a view's cells.
fn two_numbers(a: &str, m: i64, b: &str, n: i64) -> String {
    let (mut m_digits, mut n_digits) = (itoa::Buffer::new(), itoa::Buffer::new());
    let (m, n) = (m_digits.format(m), n_digits.format(n));
    let mut s = String::with_capacity(a.len() + m.len() + b.len() + n.len());
    for part in [a, m, b, n] {
        s.push_str(part);
    }
    s
}

/// How a board's cells are laid out: what a face needs to know of the board's
/// shape beyond the cells' coordinates (how to name a cell, how to paint a text
/// board, which way a board turns on a narrow screen).
#[derive(Clone, Copy, Debug, Default, Serialize, Deserialize, PartialEq, Eq)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Layout {
    /// Cells placed freely by their coordinates.
    #[default]
    Free,
    /// A grid of `columns` x `rows` unit cells: the cell at `x`, `y` is in column
    /// `x + 1`, row `y + 1` (as a player counts them).
    Grid {
        /// Columns.
        columns: u32,
        /// Rows.
        rows: u32,
    },
    /// Points around a centre point, joined by edges (a star).
    Ring,
    /// Numbered places along a track, laid out in rows: a cell's id is its
    /// place's number.
    Track,
    /// Rows of counters, one row a heap, each heap's place kept when it is empty.
    Heaps {
        /// How many heaps.
        heaps: u32,
    },
    /// A row of buttons to press (a dice game's decisions).
    Buttons,
}

/// Where a face draws the cells' labels.
#[derive(Clone, Copy, Debug, Default, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum LabelPlace {
    /// Small, in the cell's top-left corner (square numbers, track positions).
    #[default]
    Corner,
    /// Outside the cell, away from the board's centre (the points of a star).
    Outside,
    /// Before the cell, left of it: the name of the row it starts (a heap's name).
    RowStart,
    /// In the middle of the cell, as large as it fits (a button's word).
    Centre,
}

/// The outline of a cell.
#[derive(Clone, Copy, Debug, Default, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum Shape {
    /// A rectangle `w` x `h` with its top-left corner at `x`,`y`.
    #[default]
    Rect,
    /// A circle of diameter `w` centred at `x + w/2`, `y + h/2`.
    Circle,
}

/// What a click (or Enter) on a cell means.
#[derive(Clone, Copy, Debug, Default, Serialize, Deserialize, PartialEq, Eq)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ClickTarget {
    /// This cell: the moves whose cells start here.
    #[default]
    Cell,
    /// A group of cells acting as one (a SameGame group): a click on any of them
    /// means the move whose first cell is in the group, and the whole group
    /// lights up under the pointer.
    Group {
        /// The group's number, shared by every cell of the group.
        group: u32,
    },
    /// A column (a Connect Four column): a click anywhere in it means the move
    /// whose first cell is in the column, and the column lights up under the pointer.
    Column {
        /// The column's number, 0 the leftmost.
        column: u32,
    },
}

impl ClickTarget {
    /// True for the default, [`ClickTarget::Cell`] (left out of the JSON).
    pub fn is_cell(&self) -> bool {
        matches!(self, ClickTarget::Cell)
    }
}

/// The style of a special cell. Each face draws each mark its own way (a colour,
/// a letter) and names it in its legend with the game's words for it
/// (`GamePresentation::marks`, [`Mark::words`] by default).
#[derive(Clone, Copy, Debug, Serialize, Deserialize, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[serde(rename_all = "snake_case")]
pub enum Mark {
    /// A dark square of a chequered board.
    Dark,
    /// Where pieces start.
    Start,
    /// Where pieces finish: their goal.
    Home,
    /// One move from the goal.
    Near,
    /// On the way to the goal.
    OnPath,
    /// The centre point of a board.
    Centre,
    /// A cell of the line that decided the game.
    Win,
    /// A button to press.
    Button,
}

impl Mark {
    /// Every mark, in the order legends list them.
    pub const ALL: [Mark; 8] = [
        Mark::Dark,
        Mark::Start,
        Mark::Home,
        Mark::Near,
        Mark::OnPath,
        Mark::Centre,
        Mark::Win,
        Mark::Button,
    ];

    /// The mark in a player's words, for a legend, when the game gives none.
    pub fn words(self) -> &'static str {
        match self {
            Mark::Dark => "dark square",
            Mark::Start => "start",
            Mark::Home => "home",
            Mark::Near => "one move from home",
            Mark::OnPath => "on the way home",
            Mark::Centre => "the centre",
            Mark::Win => "the winning line",
            Mark::Button => "a button to press",
        }
    }
}

/// A clickable place on the board.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
pub struct ViewCell {
    /// Identifier used by [`crate::Presentation::move_cells`] (usually the square
    /// number); the same place keeps its id in every position of a game.
    pub id: u32,
    /// Left edge.
    pub x: f64,
    /// Top edge.
    pub y: f64,
    /// Width.
    pub w: f64,
    /// Height.
    pub h: f64,
    /// Outline.
    pub shape: Shape,
    /// Colour index of the cell itself (SameGame blocks, Poggle buttons), if coloured.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub colour: Option<u32>,
    /// A label, drawn where the view's [`LabelPlace`] says (square numbers, track positions).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    /// The cell's style, for special cells.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mark: Option<Mark>,
    /// How a player names the cell ("b3", "row 2, column 3", "heap 1, place 2"):
    /// the game's own name, else the engine fills it from the layout
    /// ([`View::name_cells`]), so no face composes or guesses one from a label.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// What a click here means; [`ClickTarget::Cell`] (left out) by default.
    #[serde(default, skip_serializing_if = "ClickTarget::is_cell")]
    pub target: ClickTarget,
}

/// A line between two cells' centres.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq, Eq)]
pub struct ViewEdge {
    /// One end (cell id).
    pub from: u32,
    /// The other end (cell id).
    pub to: u32,
}

/// A piece on a cell.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
pub struct ViewPiece {
    /// The cell it stands on.
    pub cell: u32,
    /// The seat that owns it (drawn in that seat's colour); none for a neutral
    /// counter.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub owner: Option<Seat>,
    /// Text on the piece (X/O, a marker number).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
}

/// A seat as a board shows it.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct ViewSeat {
    /// The seat's name in the game (`X`, `White`, `Player 1`).
    pub name: String,
    /// The colour of its pieces and swatches.
    pub colour: SeatColour,
}

/// The last move that touched the board.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq, Eq)]
pub struct LastMove {
    /// Who made it (`None`: chance).
    pub seat: Option<Seat>,
    /// The cells it touched, in click order (as [`crate::Presentation::move_cells`]).
    pub cells: Vec<u32>,
}

/// What one of the game's declared cards shows of the position
/// (`GamePresentation::panels` declares the card; the view of every position
/// carries its facts, so a card under review shows the position reviewed).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum PanelFacts {
    /// The dice card: the last roll and who rolled it, and facts of the turn in
    /// progress (its points so far).
    Dice {
        /// The faces of the last roll, one per die; empty before the first roll.
        roll: Vec<u8>,
        /// Whose roll it was.
        seat: Option<Seat>,
        /// Facts of the turn ("Points this turn: 12").
        facts: Vec<Fact>,
    },
    /// A puzzle's score card: the score so far and the coloured cells left.
    Score {
        /// The score.
        score: i64,
        /// Coloured cells (blocks, buttons) still on the board.
        left: u64,
    },
}

/// A position with the plies that led to it, for a view that shows something of
/// how it was reached (the last roll): `states[0]` the start, `states[i + 1]` the
/// position after `moves[i]`, the last state the position shown.
#[derive(Debug)]
pub struct History<'a, G: Game> {
    states: &'a [G::State],
    moves: &'a [G::Move],
}

impl<G: Game> Clone for History<'_, G> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<G: Game> Copy for History<'_, G> {}

impl<'a, G: Game> History<'a, G> {
    /// The positions and the moves between them; `None` unless there is exactly one
    /// more position than moves.
    pub fn new(states: &'a [G::State], moves: &'a [G::Move]) -> Option<Self> {
        (states.len() == moves.len() + 1).then_some(History { states, moves })
    }

    /// A position with no known history (it is its own start).
    pub fn start(state: &'a G::State) -> Self {
        History {
            states: std::slice::from_ref(state),
            moves: &[],
        }
    }

    /// The position shown.
    pub fn position(&self) -> &'a G::State {
        // `new` and `start` never leave `states` empty.
        &self.states[self.states.len() - 1]
    }

    /// How many plies led here.
    pub fn plies(&self) -> usize {
        self.moves.len()
    }

    /// The plies, last first: each the position it was played in and the move.
    pub fn recent(&self) -> impl Iterator<Item = (&'a G::State, G::Move)> + 'a {
        let (states, moves) = (self.states, self.moves);
        (0..moves.len()).rev().map(move |i| (&states[i], moves[i]))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_keeps_the_plain_cell_small_and_names_targets_and_marks() {
        let plain = ViewCell {
            id: 3,
            w: 1.0,
            h: 1.0,
            ..ViewCell::default()
        };
        let j = serde_json::to_value(&plain).unwrap();
        assert!(j.get("target").is_none(), "{j}");
        assert!(j.get("mark").is_none(), "{j}");
        let grouped = ViewCell {
            mark: Some(Mark::OnPath),
            target: ClickTarget::Group { group: 12 },
            ..plain
        };
        let j = serde_json::to_value(&grouped).unwrap();
        assert_eq!(j["mark"], "on_path");
        assert_eq!(j["target"]["kind"], "group");
        assert_eq!(j["target"]["group"], 12);
        let back: ViewCell = serde_json::from_value(j).unwrap();
        assert_eq!(back, grouped);
    }

    #[test]
    fn cells_are_named_by_the_layout_unless_the_game_named_them() {
        let cell = |id, x, y, label: Option<&str>| ViewCell {
            id,
            x,
            y,
            w: 1.0,
            h: 1.0,
            label: label.map(String::from),
            ..ViewCell::default()
        };
        let names = |mut view: View| {
            view.name_cells();
            view.cells
                .into_iter()
                .map(|c| c.name.unwrap())
                .collect::<Vec<_>>()
        };
        let mut own = cell(1, 1.0, 0.0, Some("5"));
        own.name = Some("b3".into());
        let grid = View {
            width: 2.0,
            height: 2.0,
            layout: Layout::Grid {
                columns: 2,
                rows: 2,
            },
            cells: vec![cell(0, 0.0, 1.0, Some("3")), own],
            ..View::default()
        };
        assert_eq!(names(grid), ["row 2, column 1", "b3"]);
        let heaps = View {
            layout: Layout::Heaps { heaps: 2 },
            cells: vec![
                cell(7, 3.0, 2.0, None),
                cell(8, 1.0, 2.0, None),
                cell(9, 1.0, 0.5, None),
            ],
            ..View::default()
        };
        assert_eq!(
            names(heaps),
            ["heap 2, place 2", "heap 2, place 1", "heap 1, place 1"]
        );
        let track = View {
            layout: Layout::Track,
            cells: vec![cell(1, 0.0, 0.0, Some("1 · start"))],
            ..View::default()
        };
        assert_eq!(names(track), ["square 1"]);
        let ring = View {
            layout: Layout::Ring,
            cells: vec![cell(0, 0.0, 0.0, Some("pūtahi")), cell(4, 1.0, 0.0, None)],
            ..View::default()
        };
        assert_eq!(names(ring), ["pūtahi", "point 4"]);
    }

    #[test]
    fn a_view_serialises_its_layout_labels_and_panels() {
        let v = View {
            layout: Layout::Grid {
                columns: 7,
                rows: 6,
            },
            labels: LabelPlace::Outside,
            panels: vec![PanelFacts::Score { score: 9, left: 4 }],
            ..View::default()
        };
        let j = serde_json::to_value(&v).unwrap();
        assert_eq!(j["layout"]["kind"], "grid");
        assert_eq!(j["layout"]["columns"], 7);
        assert_eq!(j["labels"], "outside");
        assert_eq!(j["panels"][0]["kind"], "score");
        assert!(j.get("last_move").is_none());
        assert_eq!(serde_json::from_value::<View>(j).unwrap(), v);
    }

    #[test]
    fn a_board_turns_round_unless_its_game_says_not() {
        assert!(View::default().flippable);
        let back: View = serde_json::from_value(serde_json::json!({
            "width": 1.0, "height": 1.0, "cells": [], "edges": [], "pieces": [], "status": []
        }))
        .unwrap();
        assert!(
            back.flippable,
            "a view written before the field turns round"
        );
        let buttons = View {
            flippable: false,
            ..View::default()
        };
        let j = serde_json::to_value(&buttons).unwrap();
        assert_eq!(j["flippable"], false);
    }

    #[test]
    fn every_mark_has_words() {
        for m in Mark::ALL {
            assert!(!m.words().is_empty());
        }
    }
}
