//! The Northcott slides' clicks: a cell left of O always takes O and a cell right of X always
//! X (the nearest piece, whatever the button), in play as in set-up; set-up moves
//! either side's piece without a reply and without changing the side to move.

use tabula_core::{Game, Registered, Variant};
use tabula_core::{MatchRules, Notation};
use tabula_northcott::{Northcott, Side};

fn game() -> Northcott {
    Northcott::from_variant(&Variant::parse("size=8x2").unwrap()).unwrap()
}

#[test]
fn the_nearest_piece_takes_a_cell_beyond_it() {
    let g = game();
    let s = g.parse_position("1O3X2/O6X O").unwrap();
    // Row 1: O on cell 2, X on cell 6 (1-based).
    assert_eq!(g.clicked_piece(&s, 0, 0, Side::X), Side::O, "left of O");
    assert_eq!(g.clicked_piece(&s, 0, 7, Side::O), Side::X, "right of X");
    assert_eq!(
        g.clicked_piece(&s, 0, 3, Side::X),
        Side::X,
        "between: the button's piece"
    );
    assert_eq!(g.clicked_piece(&s, 0, 3, Side::O), Side::O);
    // In play, O to move: a right-button click left of O still moves O there.
    let mv = g.parse_move(&s, "X 1:1").unwrap();
    assert_eq!(mv, g.parse_move(&s, "1:1").unwrap());
    let mut t = s;
    g.try_play(&mut t, mv).unwrap();
    assert_eq!(g.format_position(&t), "O4X2/O6X X");
    // A click that would move X while O is to move is a set-up move, refused in play.
    let setup = g.parse_move(&s, "X 1:8").unwrap();
    let mut t = s;
    let err = g.try_play(&mut t, setup).unwrap_err();
    assert!(err.to_string().contains("set-up"), "{err}");
    assert_eq!(g.format_move(&s, setup), "X 1:8");
    assert_eq!(g.parse_move(&s, &g.format_move(&s, setup)), Ok(setup));
    // ... and played as a set-up it moves X and leaves O to move.
    let mut t = s;
    g.try_setup(&mut t, setup).unwrap().unwrap();
    assert_eq!(g.format_position(&t), "1O5X/O6X O");
}
