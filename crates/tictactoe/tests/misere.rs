//! Misère tic-tac-toe (`play=misere`: whoever completes three in a row loses).
//! Its value — a draw: X holds it by taking the centre and answering every O move
//! with the square opposite — is found by the generic retrograde solver and again
//! by a plain memoised negamax over the tree.

use std::collections::HashMap;
use tabula_ai::retrograde::Solution;
use tabula_core::{Game, GameExt, Outcome, Registered, Turn, Value, Variant};
use tabula_tictactoe::{Board, TicTacToe};

/// Value for the side to move: 1 win, 0 draw, -1 loss.
fn negamax(g: &TicTacToe, s: Board, memo: &mut HashMap<Board, i8>) -> i8 {
    if let Some(&v) = memo.get(&s) {
        return v;
    }
    let v = match g.turn(&s) {
        Turn::Over(Outcome::Win(w)) => {
            if w == s.side_to_move() {
                1
            } else {
                -1
            }
        }
        Turn::Over(_) => 0,
        _ => g
            .moves(&s)
            .into_iter()
            .map(|mv| {
                let mut t = s;
                g.play_unchecked(&mut t, mv);
                -negamax(g, t, memo)
            })
            .max()
            .unwrap_or(0),
    };
    memo.insert(s, v);
    v
}

fn misere() -> TicTacToe {
    TicTacToe::from_variant(&Variant::parse("play=misere").unwrap()).unwrap()
}

#[test]
fn misere_is_a_draw_by_two_methods() {
    let g = misere();
    let sol = Solution::solve(&g, &g.initial_state(), 100_000).unwrap();
    let st = sol.stats();
    assert_eq!(st.positions, 5478, "the same positions as normal play");
    assert_eq!(st.start.value, Value::Draw);
    let mut memo = HashMap::new();
    assert_eq!(negamax(&g, g.initial_state(), &mut memo), 0);
    for (s, &v) in &memo {
        let want = match v {
            1 => Value::Win,
            -1 => Value::Loss,
            _ => Value::Draw,
        };
        assert_eq!(
            sol.grade(s).unwrap().value,
            want,
            "{}",
            g.format_position(s)
        );
    }
    // X's centre opening keeps the draw; a corner opening loses for X.
    let centre = g.parse_move(&g.initial_state(), "5").unwrap();
    let corner = g.parse_move(&g.initial_state(), "1").unwrap();
    let after = |mv| {
        let mut s = g.initial_state();
        g.play_unchecked(&mut s, mv);
        s
    };
    assert_eq!(sol.grade(&after(centre)).unwrap().value, Value::Draw);
    assert_eq!(
        sol.grade(&after(corner)).unwrap().value,
        Value::Win,
        "O wins after X's corner"
    );
}

#[test]
fn three_in_a_row_loses_in_misere_play() {
    let g = misere();
    let s = g.parse_position("XXX/OO./... O").unwrap();
    assert_eq!(g.turn(&s), Turn::Over(Outcome::Win(1)));
    assert!(g.render_text(&s).contains("misère"));
    let normal = TicTacToe::default();
    assert_eq!(normal.turn(&s), Turn::Over(Outcome::Win(0)));
    assert_eq!(g.variant().to_string(), "play=misere");
    assert!(TicTacToe::from_variant(&Variant::parse("play=reverse").unwrap()).is_err());
}
