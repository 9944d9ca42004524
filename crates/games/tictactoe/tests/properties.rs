//! Property tests: random games stay legal, notation round-trips, symmetries commute.

use proptest::prelude::*;
use tabula_core::{Game, GameExt, Turn};
use tabula_core::{Notation, Symmetry};
use tabula_tictactoe::TicTacToe;

proptest! {
    #[test]
    fn random_games_are_legal_and_round_trip(picks in prop::collection::vec(0usize..9, 9), k in 0usize..8) {
        let g = TicTacToe::default();
        let mut s = g.initial_state();
        let mut image = g.map_state(&s, k);
        for pick in picks {
            let text = g.format_position(&s);
            prop_assert_eq!(g.parse_position(&text), Ok(s));
            let moves = g.moves(&s);
            if let Turn::Over(_) = g.turn(&s) {
                prop_assert!(moves.is_empty());
                break;
            }
            prop_assert!(!moves.is_empty());
            let mv = moves[pick % moves.len()];
            let mv_text = g.format_move(&s, mv);
            prop_assert_eq!(g.parse_move(&s, &mv_text), Ok(mv));
            let mapped = g.map_move(&s, mv, k);
            prop_assert!(g.moves(&image).contains(&mapped));
            let mut checked = s;
            prop_assert!(g.try_play(&mut checked, mv).is_ok());
            g.play_unchecked(&mut s, mv);
            prop_assert_eq!(checked, s);
            g.play_unchecked(&mut image, mapped);
            prop_assert_eq!(image, g.map_state(&s, k));
        }
    }

    #[test]
    fn parsing_any_text_never_panics(text in "\\PC{0,20}") {
        let g = TicTacToe::default();
        if let Ok(s) = g.parse_position(&text) {
            prop_assert_eq!(g.parse_position(&g.format_position(&s)), Ok(s));
        }
        let _ = g.parse_move(&g.initial_state(), &text);
    }

    #[test]
    fn board_like_text_is_accepted_only_when_reachable(cells in prop::collection::vec(prop::sample::select(vec!['X', 'O', '.']), 9), side in prop::sample::select(vec!['X', 'O'])) {
        let g = TicTacToe::default();
        let rows: Vec<String> = cells.chunks(3).map(|c| c.iter().collect()).collect();
        let text = format!("{} {}", rows.join("/"), side);
        if let Ok(s) = g.parse_position(&text) {
            prop_assert_eq!(g.format_position(&s), text);
        }
    }
}
