//! The exact solution: the published figure, and agreement with an independent
//! calculation written differently (plain arrays, the equations by hand).

use tabula_ai::chance_solve::{self, ChanceIndex};
use tabula_core::{Budget, Game, Notation};
use tabula_pig::{Pig, Start};

/// P[i][j][k] by Neller and Presser's equations, for one or two dice, by
/// Gauss-Seidel sweeps over the whole table (no stages, no blocks) until nothing
/// moves by more than 1e-15.
fn by_hand(goal: usize, dice: u8) -> Vec<Vec<Vec<f64>>> {
    let mut p = vec![vec![vec![0.5f64; goal]; goal]; goal];
    // (points, probability) of a roll that scores; `bust` ends the turn, `wipe`
    // also loses the banked score.
    let (scoring, bust, wipe): (Vec<(usize, f64)>, f64, f64) = if dice == 1 {
        ((2..=6).map(|r| (r, 1.0 / 6.0)).collect(), 1.0 / 6.0, 0.0)
    } else {
        let mut s = Vec::new();
        for a in 2..=6 {
            for b in 2..=6 {
                s.push((a + b, 1.0 / 36.0));
            }
        }
        (s, 10.0 / 36.0, 1.0 / 36.0)
    };
    for _ in 0..100_000 {
        let mut change = 0f64;
        for i in (0..goal).rev() {
            for j in (0..goal).rev() {
                for k in (0..goal - i).rev() {
                    let mut roll = bust * (1.0 - p[j][i][0]) + wipe * (1.0 - p[j][0][0]);
                    for &(r, q) in &scoring {
                        roll += q * if i + k + r >= goal {
                            1.0
                        } else {
                            p[i][j][k + r]
                        };
                    }
                    let hold = if k == 0 { 0.0 } else { 1.0 - p[j][i + k][0] };
                    let v = roll.max(hold);
                    change = change.max((v - p[i][j][k]).abs());
                    p[i][j][k] = v;
                }
            }
        }
        if change < 1e-15 {
            break;
        }
    }
    p
}

fn solved(game: &Pig) -> chance_solve::ChanceSolution<Pig> {
    chance_solve::solve(game, 1e-14, &Budget::unlimited(), &|_| {}).expect("solves")
}

fn compare(goal: u16, dice: u8) {
    let game = Pig::new(goal, dice, Start::First);
    let sol = solved(&game);
    let want = by_hand(goal as usize, dice);
    let mut worst = 0f64;
    for i in 0..game.index_len() {
        let s = game.state_at(i);
        assert_eq!(game.index_of(&s), Some(i));
        let w = want[s.scores[0] as usize][s.scores[1] as usize][s.turn_total as usize];
        worst = worst.max((sol.value_at(i).unwrap() - w).abs());
    }
    assert!(worst < 1e-9, "goal {goal}, {dice} dice: off by {worst}");
    assert!(sol.convergence().converged);
}

#[test]
fn first_mover_wins_the_published_share_of_pig_to_100() {
    let game = Pig::default();
    let sol = solved(&game);
    let p = sol.chance_for(&game.initial_state(), 0).unwrap();
    // Neller and Presser: the first player wins 53.06% with optimal play.
    assert!((p - 0.5306).abs() < 0.00005, "{p}");
    let c = sol.convergence();
    assert_eq!(c.positions, 505_000);
    assert!(c.converged && c.sweeps > 1, "{c:?}");
    // The same by hand.
    let want = by_hand(100, 1)[0][0][0];
    assert!((p - want).abs() < 1e-9, "{p} vs {want}");
    // A known decision: at 0-0 with 20 points this turn, holding is right (the
    // hold-at-20 rule's choice) and at 0-0 with 2 points rolling is.
    let at = |t: &str| game.parse_position(t).unwrap();
    assert_eq!(sol.move_values(&at("0-0:1+2"))[0].0, tabula_pig::Move::Roll);
    assert_eq!(
        sol.move_values(&at("0-0:1+26"))[0].0,
        tabula_pig::Move::Hold
    );
}

#[test]
fn every_position_agrees_with_the_hand_iteration_for_small_goals() {
    for goal in [2, 3, 10, 25] {
        compare(goal, 1);
    }
    for goal in [2, 5, 20] {
        compare(goal, 2);
    }
}

#[test]
fn the_seats_share_one_table() {
    let game = Pig::new(30, 1, Start::First);
    let sol = solved(&game);
    let a = game.parse_position("10-20:1+4").unwrap();
    let b = game.parse_position("20-10:2+4").unwrap();
    assert_eq!(game.index_of(&a), game.index_of(&b));
    let pa = sol.chance_for(&a, 0).unwrap();
    assert!((pa - sol.chance_for(&b, 1).unwrap()).abs() < 1e-15);
    assert!((pa + sol.chance_for(&a, 1).unwrap() - 1.0).abs() < 1e-12);
    // A rolling position is the average over the die.
    let r = game.parse_position("10-20:1+4r").unwrap();
    let mut avg = 0.0;
    for d in 1..=6 {
        let mut s = r;
        game.play_unchecked(&mut s, tabula_pig::Move::Die(d));
        avg += sol.chance_for(&s, 0).unwrap() / 6.0;
    }
    assert!((avg - sol.chance_for(&r, 0).unwrap()).abs() < 1e-15);
}

#[test]
fn the_budget_refuses_and_cancels() {
    let game = Pig::new(200, 1, Start::First);
    let e = chance_solve::solve(&game, 1e-12, &Budget::new(1 << 20), &|_| {}).err();
    assert!(e.unwrap().to_string().contains("memory limit"));
    let b = Budget::unlimited();
    b.cancel();
    assert!(chance_solve::solve(&game, 1e-12, &b, &|_| {}).is_err());
}

/// The exact chance that `optimal` beats `hold:N` over a pair of games (each
/// seat once), by evaluating both fixed policies: W[x][a][b][k] is the optimal
/// player's chance when player x (0 optimal, 1 hold) is to move with score a
/// against b and k points this turn.
fn optimal_against_hold(goal: usize, at: usize) -> f64 {
    let game = Pig::new(goal as u16, 1, Start::First);
    let sol = solved(&game);
    let mut rolls = vec![vec![vec![false; goal]; goal]; goal];
    for (i, plane) in rolls.iter_mut().enumerate() {
        for (j, row) in plane.iter_mut().enumerate() {
            for (k, r) in row.iter_mut().enumerate().take(goal - i) {
                let s = game
                    .parse_position(&format!(
                        "{i}-{j}:1{}",
                        if k > 0 {
                            format!("+{k}")
                        } else {
                            String::new()
                        }
                    ))
                    .ok();
                *r = match s {
                    Some(s) => sol.move_values(&s)[0].0 == tabula_pig::Move::Roll,
                    None => true,
                };
            }
        }
    }
    let mut w = vec![vec![vec![vec![0.5f64; goal]; goal]; goal]; 2];
    for _ in 0..100_000 {
        let mut change = 0f64;
        for x in 0..2 {
            for i in (0..goal).rev() {
                for j in (0..goal).rev() {
                    for k in (0..goal - i).rev() {
                        let win = if x == 0 { 1.0 } else { 0.0 };
                        let roll_on = if x == 0 {
                            rolls[i][j][k]
                        } else {
                            k == 0 || k < at
                        };
                        let v = if roll_on {
                            let mut v = w[1 - x][j][i][0] / 6.0;
                            for r in 2..=6 {
                                v += if i + k + r >= goal {
                                    win
                                } else {
                                    w[x][i][j][k + r]
                                } / 6.0;
                            }
                            v
                        } else {
                            w[1 - x][j][i + k][0]
                        };
                        change = change.max((v - w[x][i][j][k]).abs());
                        w[x][i][j][k] = v;
                    }
                }
            }
        }
        if change < 1e-14 {
            break;
        }
    }
    (w[0][0][0][0] + w[1][0][0][0]) / 2.0
}

#[test]
fn optimal_beats_hold_at_20() {
    let p = optimal_against_hold(100, 20);
    // `tabula simulate pig --players optimal,hold:20 --games 100000` (seed 1)
    // won 53.91% (95% interval 53.60%..54.22%).
    assert!(p > 0.5360 && p < 0.5422, "{p}");
    println!("optimal against hold:20, exactly: {p}");
}
