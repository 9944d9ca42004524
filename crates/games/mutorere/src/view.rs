//! The star as points and edges, and the terminal drawing.
//!
//! Cell ids are the point numbers of the notation: 0 the putahi, 1..=8 the rim
//! clockwise from the top-left point. Edges join rim neighbours and every rim
//! point to the putahi.

use crate::board::{next, Cell, MtState, POINTS, RIM};
use crate::notation::piece_char;
use tabula_core::{LabelPlace, Layout, Mark, Shape, View, ViewCell, ViewEdge, ViewPiece};

const SIZE: f64 = 100.0;
const RADIUS: f64 = 38.0;
const POINT_DIAMETER: f64 = 14.0;

/// Centre of a point in view units.
pub fn point_centre(p: u8) -> (f64, f64) {
    if p == 0 {
        return (SIZE / 2.0, SIZE / 2.0);
    }
    // Point 1 sits just left of the top, as the blog draws the octagon.
    let angle = (-112.5 + 45.0 * f64::from(p - 1)).to_radians();
    (
        SIZE / 2.0 + RADIUS * angle.cos(),
        SIZE / 2.0 + RADIUS * angle.sin(),
    )
}

/// The view model of a position.
pub fn view(state: &MtState, seats: &[&str], status: Vec<String>) -> View {
    let cells = (0..POINTS as u8)
        .map(|p| {
            let (x, y) = point_centre(p);
            ViewCell {
                id: u32::from(p),
                x: x - POINT_DIAMETER / 2.0,
                y: y - POINT_DIAMETER / 2.0,
                w: POINT_DIAMETER,
                h: POINT_DIAMETER,
                shape: Shape::Circle,
                colour: None,
                label: Some(crate::notation::point_name(p)),
                mark: (p == 0).then_some(Mark::Centre),
                ..ViewCell::default()
            }
        })
        .collect();
    let mut edges = Vec::new();
    for p in 1..=RIM {
        edges.push(ViewEdge {
            from: u32::from(p),
            to: u32::from(next(p)),
        });
        edges.push(ViewEdge {
            from: u32::from(p),
            to: 0,
        });
    }
    let pieces = state
        .cells
        .iter()
        .enumerate()
        .filter_map(|(i, c)| match c {
            Cell::Piece(s) => Some(ViewPiece {
                cell: i as u32,
                owner: Some(usize::from(*s)),
                label: Some(
                    seats[usize::from(*s)]
                        .chars()
                        .next()
                        .unwrap_or('?')
                        .to_string(),
                ),
            }),
            Cell::Empty => None,
        })
        .collect();
    View {
        width: SIZE,
        height: SIZE,
        layout: Layout::Ring,
        labels: LabelPlace::Outside,
        cells,
        edges,
        pieces,
        status,
        ..View::default()
    }
}

/// The terminal drawing: the star with point numbers beside the pieces.
pub fn render_text(state: &MtState, footer: &str) -> String {
    let c = |p: usize| match state.cells[p] {
        Cell::Empty => '.',
        Cell::Piece(s) => piece_char(s),
    };
    let mut out = String::new();
    out.push_str(&format!("        1:{}   2:{}\n", c(1), c(2)));
    out.push_str("           \\ /\n");
    out.push_str(&format!("   8:{} --  c:{}  -- 3:{}\n", c(8), c(0), c(3)));
    out.push_str(&format!("   7:{} --       -- 4:{}\n", c(7), c(4)));
    out.push_str("           / \\\n");
    out.push_str(&format!("        6:{}   5:{}\n", c(6), c(5)));
    out.push_str("   (rim 1-2-3-4-5-6-7-8-1; every point joins the putahi c)\n");
    out.push_str(footer);
    out.push('\n');
    out
}
