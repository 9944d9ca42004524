//! The strong solution by the generic retrograde solver agrees with the published figures.

use tabula_ai::retrograde::Solution;
use tabula_core::Notation;
use tabula_core::{Game, Value};
use tabula_tictactoe::TicTacToe;

#[test]
fn strong_solve_finds_5478_positions_and_a_draw() {
    let g = TicTacToe::default();
    let solution = Solution::solve(&g, &g.initial_state(), 100_000).expect("small game");
    let stats = solution.stats();
    assert_eq!(stats.positions, 5478);
    assert_eq!(stats.start.value, Value::Draw);
    assert_eq!(stats.wins + stats.losses + stats.draws, 5478);
    // Every X opening draws; after 1 (corner) only O's centre reply holds the draw.
    let corner = g.parse_position("X../.../... O").unwrap();
    let mut moves = Vec::new();
    g.legal_moves(&corner, &mut moves);
    for mv in moves {
        let mut t = corner;
        g.play_unchecked(&mut t, mv);
        let expected = if g.format_move(&corner, mv) == "5" {
            Value::Draw
        } else {
            Value::Win
        };
        assert_eq!(solution.grade(&t).unwrap().value, expected);
    }
}
