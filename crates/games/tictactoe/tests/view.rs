//! The view model marks the line that won, for front ends to show.

use tabula_core::{Notation, Presentation};
use tabula_tictactoe::TicTacToe;

fn marked(text: &str) -> Vec<u32> {
    let g = TicTacToe::default();
    let s = g
        .parse_position(text)
        .unwrap_or_else(|e| panic!("{text}: {e}"));
    g.view(&s)
        .cells
        .iter()
        .filter(|c| c.mark == Some(tabula_core::Mark::Win))
        .map(|c| c.id)
        .collect()
}

#[test]
fn the_winning_line_is_marked_and_nothing_else() {
    assert_eq!(marked("XXX/OO./... O"), vec![1, 2, 3]);
    assert_eq!(marked("OX./OX./.X. O"), vec![2, 5, 8]);
    assert_eq!(marked("XO./.X./O.X O"), vec![1, 5, 9]);
    assert!(marked("XX./OO./... X").is_empty(), "no line yet");
    assert!(marked("XOX/XOO/OXX O").is_empty(), "a draw has no line");
}
