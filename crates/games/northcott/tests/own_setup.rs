//! The Northcott slides' correction of the mover's own piece: `set O 1:3` moves O while O is to
//! move and keeps the turn; it is written back the same way, so records replay it.

use tabula_core::{Game, Registered, Variant};
use tabula_core::{MatchRules, Notation, Presentation};
use tabula_northcott::Northcott;

#[test]
fn a_set_up_of_the_movers_own_piece_keeps_the_turn_and_reads_back() {
    let g = Northcott::from_variant(&Variant::parse("size=8x2").unwrap()).unwrap();
    let s = g.parse_position("O6X/O6X O").unwrap();
    let mv = g.parse_move(&s, "set O 1:3").unwrap();
    assert_ne!(
        mv,
        g.parse_move(&s, "O 1:3").unwrap(),
        "a plain click is a move"
    );
    assert_eq!(g.format_move(&s, mv), "set O 1:3");
    assert_eq!(
        g.describe_move(&s, mv),
        "set O 1:3 (set-up: O put on cell 3 of row 1, gap 6 -> 4)"
    );
    assert_eq!(g.parse_move(&s, &g.format_move(&s, mv)), Ok(mv));
    let mut t = s;
    g.try_setup(&mut t, mv).unwrap().unwrap();
    assert_eq!(
        g.format_position(&t),
        "2O4X/O6X O",
        "O moved, O still to move"
    );
    // Never a move in play, and the other side's set-up reads as before.
    assert!(g.try_play(&mut s.clone(), mv).is_err());
    let x = g.parse_move(&s, "set X 2:5").unwrap();
    assert_eq!(g.format_move(&s, x), "X 2:5");
    assert_eq!(g.parse_move(&s, "X 2:5"), Ok(x));
    let told = g.describe_move(&s, x);
    assert!(
        told.contains("set-up: X put on cell 5 of row 2") && !told.contains("advances"),
        "{told}"
    );
    // Words for what cannot be read or cannot be.
    assert!(g
        .parse_move(&s, "set 1:3")
        .unwrap_err()
        .to_string()
        .contains("set O ROW:CELL"));
    assert!(g.parse_move(&s, "set O 1:8").is_err(), "O onto X");
}
