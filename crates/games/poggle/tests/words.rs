//! Poggle's words for a player (issue 44): a press named in words, and a
//! solved board said to be solved once.

use tabula_core::{Game, Notation, Presentation};
use tabula_poggle::{Poggle, Press};

#[test]
fn a_press_in_words_names_its_row_and_column() {
    let game = Poggle::new(3, 2);
    let state = game.initial_state();
    assert_eq!(
        game.move_words(&state, Press { row: 0, col: 2 }),
        "press the button in row 1, column 3"
    );
}

#[test]
fn a_solved_board_is_not_said_to_be_solved_in_its_status() {
    let game = Poggle::new(3, 2);
    let solved = game.parse_position("000/000/000").unwrap();
    let status = game.view(&solved).status;
    assert!(!status.iter().any(|s| s.contains("solved")), "{status:?}");
    let unsolved = game.initial_state();
    assert!(
        game.view(&unsolved)
            .status
            .iter()
            .any(|s| s.contains("not yet the goal colour")),
        "{:?}",
        game.view(&unsolved).status
    );
}
