//! Northcott against the generic retrograde solver, and the slides' computer player.

mod common;
use common::random_state;
use proptest::prelude::*;
use std::collections::HashMap;
use tabula_ai::retrograde::Solution;
use tabula_core::{rng_from_seed, Game, GameExt, Oracle, Registered, Rng, Turn, Value, Variant};
use tabula_core::{ExactAnalysis, MatchRules, Notation};
use tabula_northcott::analysis::{remoteness_upper_bound, winning_moves};
use tabula_northcott::player::nim_reply;
use tabula_northcott::{
    xpat_reply, Northcott, NorthcottMove, NorthcottOracle, NorthcottState, Side,
};

fn game(size: &str) -> Northcott {
    Northcott::from_variant(&Variant::parse(&format!("size={size}")).unwrap()).unwrap()
}

#[test]
fn retrograde_agrees_with_the_nim_sum_on_every_position_of_small_boards() {
    for nx in 2..=6 {
        for ny in 1..=3 {
            let g = game(&format!("{nx}x{ny}"));
            assert!(g.is_small());
            let sol = Solution::solve(&g, &g.initial_state(), 1_000_000).unwrap();
            let stats = sol.stats();
            assert_eq!(stats.draws, 0, "{nx}x{ny}: the loser cannot force a cycle");
            assert!(stats.positions as u64 <= g.position_count());
            for (state, graded) in sol.iter() {
                let by_rule = if g.nim_sum(state) != 0 {
                    Value::Win
                } else {
                    Value::Loss
                };
                assert_eq!(
                    graded.value,
                    by_rule,
                    "{nx}x{ny} {}",
                    g.format_position(state)
                );
                let bound = remoteness_upper_bound(&g, state);
                assert!(
                    graded.remoteness <= bound,
                    "{} {} > {}",
                    g.format_position(state),
                    graded.remoteness,
                    bound
                );
            }
        }
    }
}

/// Every placement of the pieces on the board, with either side to move.
fn all_positions(g: &Northcott) -> Vec<NorthcottState> {
    let mut out = vec![];
    let mut s = g.initial_state();
    fn rec(g: &Northcott, r: usize, s: &mut NorthcottState, out: &mut Vec<NorthcottState>) {
        if r == g.ny() {
            for mover in 0..2 {
                s.mover = mover;
                out.push(*s);
            }
            return;
        }
        for o in 0..g.nx() - 1 {
            for x in o + 1..g.nx() {
                s.o[r] = o as u8;
                s.x[r] = x as u8;
                rec(g, r + 1, s, out);
            }
        }
    }
    rec(g, 0, &mut s, &mut out);
    out
}

#[test]
fn oracle_is_exact_and_agrees_with_the_solver_on_every_position_up_to_6x3() {
    // The positions the start cannot reach are solved by the generic solver from
    // themselves: every position of these boards gets an exact grade.
    for (nx, ny) in [(2, 3), (3, 2), (4, 2), (5, 3), (6, 2), (6, 3)] {
        let g = game(&format!("{nx}x{ny}"));
        let oracle = NorthcottOracle::new(g, &|_| {});
        let all = all_positions(&g);
        assert_eq!(all.len() as u64, g.position_count());
        for (i, s) in all.iter().enumerate() {
            let (r, exact) = oracle.remoteness(&g, s);
            assert!(exact, "{}", g.format_position(s));
            let grade = oracle.grade(&g, s).unwrap();
            let by_rule = if g.nim_sum(s) != 0 {
                Value::Win
            } else {
                Value::Loss
            };
            assert_eq!(grade.value, by_rule);
            assert_eq!(grade.remoteness, r);
            // Cross-check against a solve from the position itself (every position of the
            // small boards, every 97th of the larger ones). A start that is already over
            // is left out: the generic solver takes seat 0 to be "to move" there.
            if (nx * ny <= 12 || i % 97 == 0) && !g.turn(s).is_over() {
                let own = Solution::solve(&g, s, 1_000_000).unwrap();
                assert_eq!(own.grade(s), Some(grade), "{}", g.format_position(s));
            }
        }
    }
}

#[test]
fn first_player_wins_6x3_and_loses_6x2() {
    let g = game("6x3");
    let sol = Solution::solve(&g, &g.initial_state(), 1_000_000).unwrap();
    assert_eq!(sol.stats().start.value, Value::Win);
    let g = game("6x2");
    let sol = Solution::solve(&g, &g.initial_state(), 1_000_000).unwrap();
    assert_eq!(sol.stats().start.value, Value::Loss);
}

#[test]
fn oracle_gives_exact_remoteness_on_small_boards() {
    let g = game("5x3");
    let oracle = g.exact_oracle(&|_| {}).unwrap().unwrap();
    let sol = Solution::solve(&g, &g.initial_state(), 1_000_000).unwrap();
    for (state, graded) in sol.iter() {
        assert_eq!(oracle.grade(&g, state), Some(graded));
    }
    // Large boards: the value still, with a bound for remoteness.
    let big = game("16x4");
    let oracle = big.exact_oracle(&|_| {}).unwrap().unwrap();
    let grade = oracle.grade(&big, &big.initial_state()).unwrap();
    assert_eq!(grade.value, Value::Loss);
    assert_eq!(
        grade.remoteness,
        remoteness_upper_bound(&big, &big.initial_state())
    );
}

#[test]
fn seed_player_wins_every_won_position_of_small_boards() {
    // From every position where the nim-sum is not zero, the slides' computer wins
    // against every defence (checked exhaustively by the solver on 5x2 boards: its
    // move always leads to a position lost for the opponent).
    let g = game("5x3");
    let sol = Solution::solve(&g, &g.initial_state(), 1_000_000).unwrap();
    for (state, graded) in sol.iter() {
        if graded.value == Value::Win {
            let (mv, _) = xpat_reply(&g, state).unwrap();
            let mut t = *state;
            g.play_unchecked(&mut t, mv);
            assert_eq!(
                sol.grade(&t).unwrap().value,
                Value::Loss,
                "{}",
                g.format_position(state)
            );
        }
    }
}

/// An opponent that retreats whenever it can (a random row, a random distance),
/// else plays a random legal move.
fn retreating_move(g: &Northcott, s: &NorthcottState, rng: &mut Rng) -> Option<NorthcottMove> {
    use rand::Rng as _;
    let side = s.side();
    let moves = g.moves(s);
    let retreats: Vec<_> = moves
        .iter()
        .copied()
        .filter(|m| {
            let from = s.piece(side, m.row as usize);
            match side {
                Side::O => m.to < from,
                Side::X => m.to > from,
            }
        })
        .collect();
    let pool = if retreats.is_empty() {
        &moves
    } else {
        &retreats
    };
    (!pool.is_empty()).then(|| pool[rng.gen_range(0..pool.len())])
}

fn random_move(g: &Northcott, s: &NorthcottState, rng: &mut Rng) -> Option<NorthcottMove> {
    use rand::Rng as _;
    let moves = g.moves(s);
    (!moves.is_empty()).then(|| moves[rng.gen_range(0..moves.len())])
}

/// How a play-out ended.
#[derive(Debug, PartialEq, Eq)]
enum End {
    /// Someone cannot move.
    Stalemate,
    /// The variant's repetition rule (a position for the third time).
    Repetition,
    /// Still going after the ply limit.
    Unfinished,
}

/// Plays the slides' computer (as `computer`) against `opponent` until the game ends
/// (stalemate, or the game's repetition rule) or `max_plies`. Returns the plies, how it
/// ended, and whether the computer ever had a non-zero nim-sum on its turn.
fn play_out(
    g: &Northcott,
    mut s: NorthcottState,
    computer: Side,
    rng: &mut Rng,
    opponent: fn(&Northcott, &NorthcottState, &mut Rng) -> Option<NorthcottMove>,
    max_plies: usize,
) -> (usize, End, bool) {
    let mut seen: HashMap<NorthcottState, u32> = HashMap::new();
    let mut computer_won_once = false;
    let limit = g.play_draw_rule().repetitions;
    for ply in 0..max_plies {
        if g.turn(&s).is_over() {
            return (ply, End::Stalemate, computer_won_once);
        }
        let count = seen.entry(s).or_insert(0);
        *count += 1;
        if Some(*count) == limit {
            return (ply, End::Repetition, computer_won_once);
        }
        let mv = if s.side() == computer {
            let before = g.nim_sum(&s);
            let (mv, _) = xpat_reply(g, &s).expect("a side that can move has a reply");
            let mut t = s;
            g.play_unchecked(&mut t, mv);
            if before != 0 {
                computer_won_once = true;
                assert_eq!(
                    g.nim_sum(&t),
                    0,
                    "reply {} from {}",
                    g.format_move(&s, mv),
                    g.format_position(&s)
                );
            }
            mv
        } else {
            opponent(g, &s, rng).expect("a side that can move has a move")
        };
        assert!(g.moves(&s).contains(&mv));
        g.play_unchecked(&mut s, mv);
    }
    let end = if g.turn(&s).is_over() {
        End::Stalemate
    } else {
        End::Unfinished
    };
    (max_plies, end, computer_won_once)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn nim_reply_leaves_nim_sum_zero(nx in 2usize..=64, ny in 1usize..=16, seed: u64) {
        let g = game(&format!("{nx}x{ny}"));
        let mut rng = rng_from_seed(seed);
        let s = random_state(&g, &mut rng);
        let sum = g.nim_sum(&s);
        match nim_reply(&g, &s) {
            None => prop_assert_eq!(sum, 0),
            Some(mv) => {
                prop_assert!(sum != 0);
                prop_assert!(g.moves(&s).contains(&mv));
                prop_assert!(winning_moves(&g, &s).contains(&mv));
                let mut t = s;
                g.play_unchecked(&mut t, mv);
                prop_assert_eq!(g.nim_sum(&t), 0);
            }
        }
    }

    #[test]
    fn a_winning_computer_ends_the_game_within_the_bound(nx in 2usize..=64, ny in 1usize..=16, seed: u64, retreat: bool) {
        // Against any opponent (random, or retreating whenever it can) the computer,
        // once the nim-sum is not zero on its turn, only advances: the game ends within
        // the remoteness bound, and the computer wins.
        let g = game(&format!("{nx}x{ny}"));
        let mut rng = rng_from_seed(seed);
        let mut s = random_state(&g, &mut rng);
        if g.nim_sum(&s) == 0 || g.turn(&s).is_over() {
            return Ok(());
        }
        let computer = s.side();
        let bound = remoteness_upper_bound(&g, &s) as usize;
        let opponent = if retreat { retreating_move } else { random_move };
        let (plies, end, _) = play_out(&g, s, computer, &mut rng, opponent, bound + 1);
        prop_assert_eq!(end, End::Stalemate, "{} not over after {} plies", g.format_position(&s), plies);
        prop_assert!(plies <= bound);
        s = g.initial_state();
        prop_assert!(!g.turn(&s).is_over() || g.nx() == 2);
    }

    #[test]
    fn games_against_a_retreating_opponent_end(nx in 2usize..=64, ny in 1usize..=16, seed: u64) {
        // From any position: either the computer gets a non-zero nim-sum and then wins
        // within the bound (its pieces only advance, so no position repeats), or the
        // opponent keeps it lost by retreating and the repetition rule (default 3)
        // draws the game. A repetition draw never happens once the computer stood to win.
        let g = game(&format!("{nx}x{ny}"));
        let mut rng = rng_from_seed(seed);
        let s = random_state(&g, &mut rng);
        let computer = if seed % 2 == 0 { Side::O } else { Side::X };
        let limit = 200_000;
        let (plies, end, computer_won_once) = play_out(&g, s, computer, &mut rng, retreating_move, limit);
        prop_assert!(end != End::Unfinished, "{} not over after {} plies", g.format_position(&s), plies);
        if end == End::Repetition {
            prop_assert!(!computer_won_once);
        }
    }

    #[test]
    fn computer_against_computer_ends_from_the_start(nx in 2usize..=64, ny in 1usize..=16) {
        let g = game(&format!("{nx}x{ny}"));
        let mut s = g.initial_state();
        let limit = 4 * nx * ny + 10;
        let mut plies = 0;
        while !g.turn(&s).is_over() && plies < limit {
            let (mv, _) = xpat_reply(&g, &s).unwrap();
            g.play_unchecked(&mut s, mv);
            plies += 1;
        }
        prop_assert!(g.turn(&s).is_over());
        // The winner is the one the nim-sum rule names at the start.
        let start = g.initial_state();
        let winner = if g.nim_sum(&start) != 0 { start.side() } else { start.side().other() };
        prop_assert_eq!(g.turn(&s), Turn::Over(tabula_core::Outcome::Win(winner.seat())));
    }
}

#[test]
fn a_winning_opponent_can_keep_a_losing_computer_going_forever() {
    // Documented limit of "games always end": the slides' rules allow a cycle when the
    // computer is LOST and its opponent chooses to loop instead of winning.
    let g = game("4x2");
    let start = g.parse_position("1OX1/1OX1 O").unwrap();
    let mut s = start;
    let opponent_line = ["2:3->4", "2:4->3"];
    for reply_text in opponent_line {
        let (mv, _) = xpat_reply(&g, &s).unwrap(); // O retreats in row 1 / advances back
        g.play_unchecked(&mut s, mv);
        let reply = g.parse_move(&s, reply_text).unwrap();
        g.play_unchecked(&mut s, reply);
        assert_eq!(g.nim_sum(&s), 0);
    }
    assert_eq!(s, start);
    // Without the repetition rule (repetition=0, the slides' program) this goes on for
    // ever; with the default rule a match stops at the third occurrence.
    assert_eq!(g.play_draw_rule().repetitions, Some(3));
}
