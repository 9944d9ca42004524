use super::*;
use std::collections::{HashMap, HashSet};
use tabula_core::GameExt;
use tabula_core::{Notation, Presentation};

fn play(g: &TicTacToe, squares: &[u8]) -> Board {
    let mut s = g.initial_state();
    for &n in squares {
        let mv = g.parse_move(&s, &n.to_string()).expect("legal square");
        g.try_play(&mut s, mv).expect("legal move");
    }
    s
}

fn reachable(g: &TicTacToe) -> HashSet<Board> {
    let mut seen = HashSet::from([g.initial_state()]);
    let mut stack = vec![g.initial_state()];
    while let Some(s) = stack.pop() {
        for mv in g.moves(&s) {
            let mut t = s;
            g.play_unchecked(&mut t, mv);
            if seen.insert(t) {
                stack.push(t);
            }
        }
    }
    seen
}

/// Plain negamax over the game tree: +1 win, 0 draw, -1 loss for the side to move.
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

#[test]
fn start_is_empty_with_x_to_move() {
    let g = TicTacToe::default();
    let s = g.initial_state();
    assert_eq!(g.turn(&s), Turn::Move(0));
    assert_eq!(g.moves(&s).len(), 9);
    assert_eq!(g.format_position(&s), ".../.../... X");
    assert_eq!(g.parse_position(".../.../... X"), Ok(s));
}

#[test]
fn three_in_a_row_wins_and_full_board_draws() {
    let g = TicTacToe::default();
    // X: 1 2 3 across the top; O: 4 5.
    let s = play(&g, &[1, 4, 2, 5, 3]);
    assert_eq!(g.turn(&s), Turn::Over(Outcome::Win(0)));
    assert!(g.moves(&s).is_empty());
    // O down the middle column: X 1 3 9, O 2 5 8.
    let s = play(&g, &[1, 2, 3, 5, 9, 8]);
    assert_eq!(g.turn(&s), Turn::Over(Outcome::Win(1)));
    // The anti-diagonal 3-5-7.
    let s = play(&g, &[3, 1, 5, 2, 7]);
    assert_eq!(g.turn(&s), Turn::Over(Outcome::Win(0)));
    // X O X / X O O / O X X: no line.
    let s = play(&g, &[1, 2, 3, 5, 4, 6, 8, 7, 9]);
    assert_eq!(g.turn(&s), Turn::Over(Outcome::Draw));
    assert_eq!(g.format_position(&s), "XOX/XOO/OXX O");
}

#[test]
fn moves_read_and_write_square_numbers() {
    let g = TicTacToe::default();
    let s = play(&g, &[5]);
    assert_eq!(g.parse_move(&s, " 9 "), Ok(Square(8)));
    assert_eq!(g.format_move(&s, Square(8)), "9");
    assert!(g
        .parse_move(&s, "5")
        .unwrap_err()
        .message
        .contains("already taken"));
    for bad in ["", "0", "10", "a", "-1", "5 5", "१"] {
        assert!(g.parse_move(&s, bad).is_err(), "{bad:?}");
    }
    let over = play(&g, &[1, 4, 2, 5, 3]);
    assert!(g.parse_move(&over, "9").is_err());
    assert_eq!(g.move_cells(&s, Square(8)), vec![9]);
}

#[test]
fn position_text_round_trips_and_rejects_impossible_boards() {
    let g = TicTacToe::default();
    let s = g.parse_position("x.o/.X./... o").unwrap();
    assert_eq!(g.format_position(&s), "X.O/.X./... O");
    assert_eq!(g.turn(&s), Turn::Move(1));
    for (bad, why) in [
        ("X.O/.X./... X", "turn"),
        ("XX./.../... O", "marks"),
        ("OO./.../... X", "marks"),
        ("XXX/OOO/... X", "both"),
        ("XXX/OO./O.. X", "stopped earlier"), // O moved after X had won
        ("XXX/X../X.. O", "marks"),
        ("OOO/XX./XX. X", "stopped earlier"), // X moved after O had won
        ("X.O/.X. O", "3 rows"),
        ("X.O/.X/... O", "3 squares"),
        ("X.Q/.../... O", "unexpected"),
        ("X.O/.X./...", "expected"),
        ("X.O/.X./... O extra", "expected"),
        ("", "expected"),
        ("ÄÄÄ/.../... X", "unexpected"),
    ] {
        let err = g.parse_position(bad).expect_err(bad);
        assert!(err.message.contains(why), "{bad}: {}", err.message);
    }
    // Two lines at once are fine when one last mark completed both.
    let double = g.parse_position("XXX/OXO/OOX O").unwrap();
    assert_eq!(g.turn(&double), Turn::Over(Outcome::Win(0)));
}

#[test]
fn reachable_positions_are_5478_and_765_up_to_symmetry() {
    let g = TicTacToe::default();
    let by_play = reachable(&g);
    assert_eq!(by_play.len(), 5478);
    // The position text accepts exactly the reachable boards.
    let (by_rule, distinct) = symmetry::count_reachable();
    assert_eq!(by_rule, 5478);
    assert_eq!(distinct, 765);
    for s in &by_play {
        assert_eq!(g.parse_position(&g.format_position(s)).as_ref(), Ok(s));
    }
}

#[test]
fn terminal_positions_and_games_match_published_counts() {
    let g = TicTacToe::default();
    let (mut xw, mut ow, mut draws) = (0, 0, 0);
    for s in reachable(&g) {
        match g.turn(&s) {
            Turn::Over(Outcome::Win(0)) => xw += 1,
            Turn::Over(Outcome::Win(_)) => ow += 1,
            Turn::Over(_) => draws += 1,
            _ => {}
        }
    }
    assert_eq!((xw, ow, draws), (626, 316, 16));

    // Every game from the start, move by move: 255,168 of them.
    fn games(g: &TicTacToe, s: Board, tally: &mut [u64; 3]) {
        match g.turn(&s) {
            Turn::Over(Outcome::Win(w)) => tally[w] += 1,
            Turn::Over(_) => tally[2] += 1,
            _ => {
                for mv in g.moves(&s) {
                    let mut t = s;
                    g.play_unchecked(&mut t, mv);
                    games(g, t, tally);
                }
            }
        }
    }
    let mut tally = [0; 3];
    games(&g, g.initial_state(), &mut tally);
    assert_eq!(tally, [131_184, 77_904, 46_080]);
}

#[test]
fn perfect_play_draws_from_the_start() {
    let g = TicTacToe::default();
    let mut memo = HashMap::new();
    assert_eq!(negamax(&g, g.initial_state(), &mut memo), 0);
    // After X in a corner, O must take the centre: every other reply loses.
    let corner = play(&g, &[1]);
    for mv in g.moves(&corner) {
        let mut t = corner;
        g.play_unchecked(&mut t, mv);
        let expected = if mv.number() == 5 { 0 } else { 1 };
        assert_eq!(
            negamax(&g, t, &mut memo),
            expected,
            "O plays {}",
            mv.number()
        );
    }
}

#[test]
fn symmetries_commute_with_play() {
    let g = TicTacToe::default();
    let all = reachable(&g);
    for s in &all {
        for k in 0..g.symmetry_count() {
            let image = g.map_state(s, k);
            assert!(all.contains(&image));
            assert_eq!(g.map_state(&image, g.inverse_symmetry(k)), *s);
            assert_eq!(g.turn(&image), g.turn(s));
            for mv in g.moves(s) {
                let mut after = *s;
                g.play_unchecked(&mut after, mv);
                let mut image_after = image;
                g.play_unchecked(&mut image_after, g.map_move(s, mv, k));
                assert_eq!(image_after, g.map_state(&after, k));
            }
        }
    }
    // The eight images of a board with no symmetry are all different.
    let s = play(&g, &[1, 2]);
    let images: HashSet<Board> = (0..8).map(|k| g.map_state(&s, k)).collect();
    assert_eq!(images.len(), 8);
    // Rotating clockwise sends square 1 to 3, and mirroring sends 1 to 3 too.
    assert_eq!(symmetry::map_index(0, 1), 2);
    assert_eq!(symmetry::map_index(0, 4), 2);
    assert_eq!(symmetry::map_index(0, 6), 0);
}

#[test]
fn render_shows_square_numbers_and_marks() {
    let g = TicTacToe::default();
    let s = play(&g, &[5, 1]);
    let text = g.render_text(&s);
    assert!(text.starts_with(" O | 2 | 3\n"));
    assert!(text.contains(" 4 | X | 6"));
    assert!(text.contains("X to move"));
    let v = g.view(&s);
    assert_eq!(v.cells.len(), 9);
    assert_eq!(v.pieces.len(), 2);
    assert!(v.pieces.iter().any(|p| p.cell == 5 && p.owner == Some(0)));
}

#[test]
fn variant_has_no_options() {
    assert!(TicTacToe::from_variant(&Variant::default()).is_ok());
    let bad = Variant::parse("size=4").unwrap();
    assert!(TicTacToe::from_variant(&bad).is_err());
    assert!(TicTacToe::default().variant().is_empty());
}

#[test]
fn evaluate_prefers_open_lines_and_knows_wins() {
    let g = TicTacToe::default();
    let won = play(&g, &[1, 4, 2, 5, 3]);
    assert_eq!(g.evaluate(&won, 0), 1.0);
    assert_eq!(g.evaluate(&won, 1), -1.0);
    let centre = play(&g, &[5]);
    assert!(g.evaluate(&centre, 0) > g.evaluate(&play(&g, &[2]), 0));
}

/// Misère tic-tac-toe (`play=misere`: whoever completes three in a row loses).
/// Its value — a draw: X holds it by taking the centre and answering every O move
/// with the square opposite — is found by the generic retrograde solver and again
/// by the plain negamax above.
mod misere {
    use super::negamax;
    use crate::TicTacToe;
    use std::collections::HashMap;
    use tabula_ai::retrograde::Solution;
    use tabula_core::{Game, Notation, Outcome, Presentation, Registered, Turn, Value, Variant};

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
        // X's centre opening keeps the draw; a corner or an edge opening loses for X.
        let centre = g.parse_move(&g.initial_state(), "5").unwrap();
        let corner = g.parse_move(&g.initial_state(), "1").unwrap();
        let edge = g.parse_move(&g.initial_state(), "2").unwrap();
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
        assert_eq!(
            sol.grade(&after(edge)).unwrap().value,
            Value::Win,
            "O wins after X's edge"
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
}
