use crate::Seat;
use serde::{Deserialize, Serialize};

/// What a game shows, independent of how it is drawn.
///
/// Coordinates are in abstract units inside `0..width` x `0..height`; the web UI
/// scales them into an SVG view box, the CLI uses [`crate::Presentation::render_text`].
/// Cells are the places a user can click: a move is described to the UI by the list
/// of cell ids it touches ([`crate::Presentation::move_cells`]), so one generic renderer and
/// one click protocol serve every game.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
pub struct View {
    /// Width of the drawing area.
    pub width: f64,
    /// Height of the drawing area.
    pub height: f64,
    /// Clickable places: squares, points, buttons, track positions.
    pub cells: Vec<ViewCell>,
    /// Lines joining cells (the Mu Torere star, rows of a track).
    pub edges: Vec<ViewEdge>,
    /// Pieces standing on cells.
    pub pieces: Vec<ViewPiece>,
    /// Short status lines the UI shows beside the board (score, nim-sum, blocks left).
    pub status: Vec<String>,
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

/// A clickable place on the board.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
pub struct ViewCell {
    /// Identifier used by [`crate::Presentation::move_cells`] (usually the square number).
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
    /// A small label drawn in the corner (square numbers, track positions).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    /// A style class for special cells (`"penultimate"`, `"factor"`, `"dark"`, `"home"`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mark: Option<String>,
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
    /// The seat that owns it (drawn in that player's colour).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub owner: Option<Seat>,
    /// Text on the piece (X/O, a marker number).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
}
