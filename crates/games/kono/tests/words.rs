//! Kono's moves in words for a player who clicks (the browser's hint list and
//! log), not in the notation typed at the terminal (issue 44).

use tabula_core::{Game, GameExt, Notation, Presentation};
use tabula_kono::{Kono, KonoMove};

#[test]
fn a_move_in_words_names_the_piece_and_where_it_goes() {
    let game = Kono::default();
    let start = game.initial_state();
    // A step and a jump, each named by the squares a player sees on the board.
    let step = KonoMove { from: 0, to: 1 };
    assert_eq!(game.move_words(&start, step), "the piece on a4 moves to b4");
    let jump = KonoMove { from: 0, to: 8 };
    assert!(jump.is_capture());
    assert_eq!(
        game.move_words(&start, jump),
        "the piece on a4 jumps over a3 and takes a2"
    );
    // Every legal move of the start reads so, never as its bare notation.
    for mv in game.moves(&start) {
        let words = game.move_words(&start, mv);
        assert!(words.starts_with("the piece on "), "{words}");
        assert!(!words.contains(&game.format_move(&start, mv)), "{words}");
    }
}
