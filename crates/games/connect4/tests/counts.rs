//! Positions the generic solver reaches from the empty board, against John
//! Tromp's counts, and every measured count the game declares as a size fact.
//! The large ones are ignored in the quick run:
//! `cargo test -p tabula-connect4 --release --test counts -- --ignored --nocapture`.

use tabula_ai::retrograde::Solution;
use tabula_connect4::analysis::MEASURED;
use tabula_connect4::{ConnectFour, Geometry};
use tabula_core::{Budget, ExactAnalysis, Game, Value};

fn board(width: u8, height: u8, connect: u8, popout: bool) -> ConnectFour {
    ConnectFour::new(
        Geometry::new(width, height, connect).unwrap(),
        false,
        popout,
    )
}

fn solve(game: &ConnectFour) -> Solution<ConnectFour> {
    Solution::solve(game, &game.initial_state(), 30_000_000).expect("within the solver's cap")
}

fn words(value: Value) -> &'static str {
    match value {
        Value::Win => "a first-player win",
        Value::Loss => "a second-player win",
        Value::Draw => "a draw",
    }
}

#[test]
fn four_by_four_has_trompss_161029_positions_and_is_a_draw() {
    let game = board(4, 4, 4, false);
    let solution = solve(&game);
    let stats = solution.stats();
    assert_eq!(stats.positions, 161_029);
    assert_eq!(stats.start.value, Value::Draw);
    assert_eq!(stats.wins + stats.losses + stats.draws, 161_029);
    // What the game declares before anyone solves it.
    assert!(game.is_small());
    assert!(game.position_bound(&game.initial_state()).unwrap() >= 161_029);
}

#[test]
#[ignore = "3.9 million positions: run with --release"]
fn five_by_four_has_tromps_3945711_positions() {
    let solution = solve(&board(5, 4, 4, false));
    assert_eq!(solution.stats().positions, 3_945_711);
}

/// Every count in the table is what the solver finds, and solving a board
/// the table names as small never goes past it. Prints each start's value.
#[test]
#[ignore = "solves every measured board: run with --release"]
fn every_measured_count_is_what_the_solver_finds() {
    for &(width, height, connect, popout, positions) in MEASURED {
        for misere in [false, true] {
            let game = ConnectFour::new(
                Geometry::new(width, height, connect).unwrap(),
                misere,
                popout,
            );
            let solution = solve(&game);
            let stats = solution.stats();
            println!(
                "{width}x{height} connect {connect}{}{}: {} positions, {} in {} plies, {:.1} s",
                if misere { " misère" } else { "" },
                if popout { " Pop Out" } else { "" },
                stats.positions,
                words(stats.start.value),
                stats.start.remoteness,
                stats.seconds
            );
            assert_eq!(
                stats.positions as u64, positions,
                "{width}x{height} connect {connect}"
            );
        }
    }
}

/// Which boards the solver takes, for the table: every board and line length
/// whose count is below the solver's cap (the rest stop at the cap).
#[test]
#[ignore = "a survey for the docs: run with --release --nocapture"]
fn survey_of_the_boards_the_solver_reaches() {
    for popout in [false, true] {
        for connect in [3, 4] {
            for height in 4..=6 {
                for width in 4..=7 {
                    let game = board(width, height, connect, popout);
                    if game.position_bound(&game.initial_state()).unwrap() > 200_000_000
                        && connect == 4
                    {
                        continue;
                    }
                    let start = game.initial_state();
                    // The bound the game declares would refuse most boards at
                    // once: the survey runs without a memory limit, up to the cap.
                    let budget = Budget::unlimited();
                    match Solution::solve_within(&game, &start, 12_000_000, &budget, &|_| {}) {
                        Ok(s) => {
                            let st = s.stats();
                            println!(
                                "({width}, {height}, {connect}, {popout}, {}), // {} in {} plies, {:.1} s",
                                st.positions,
                                words(st.start.value),
                                st.start.remoteness,
                                st.seconds
                            );
                        }
                        Err(e) => {
                            println!("{width}x{height} connect {connect} popout {popout}: {e}")
                        }
                    }
                }
            }
        }
    }
}
