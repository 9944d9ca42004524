//! The exact solver against the generic retrograde solver: on every board the
//! retrograde solver holds, the same value and remoteness at every position it
//! reaches; and the known values of the classic start.
//! Every board together takes a few seconds (1.7 and 3.9 million positions on
//! 4x5 and 5x4).

use tabula_ai::retrograde::Solution;
use tabula_connect4::solver::{
    remoteness, solver_board, Book, Limits, Shape, Solved, Solver, SolverBoard,
};
use tabula_connect4::{ConnectFour, Geometry, Position};
use tabula_core::{Game, Notation, Turn, Value};

fn board(width: u8, height: u8, connect: u8) -> ConnectFour {
    ConnectFour::new(Geometry::new(width, height, connect).unwrap(), false, false)
}

/// Solves every position the retrograde solver reaches and compares.
fn agrees_everywhere(game: &ConnectFour) {
    let solution =
        Solution::solve(game, &game.initial_state(), 30_000_000).expect("within the cap");
    let mut solver = Solver::new(game.shape(), 1 << 20 | 1, None);
    let cells = game.geometry().cells();
    let mut checked = 0u64;
    for (state, expected) in solution.iter() {
        if !matches!(game.turn(state), Turn::Move(_)) {
            continue;
        }
        let b = solver_board(game, state).expect("a live position has no line");
        let Solved::Exact(score) = solver.solve(&b, Limits::default()) else {
            panic!("no limits, so the solve is exact");
        };
        let got = remoteness(score, b.discs(), cells);
        assert_eq!(
            got,
            expected,
            "{}: score {score}",
            game.format_position(state)
        );
        checked += 1;
    }
    assert!(checked > 1000, "{checked}");
}

#[test]
fn the_solver_equals_the_retrograde_solver_on_four_by_four() {
    agrees_everywhere(&board(4, 4, 4));
}

#[test]
fn the_solver_equals_the_retrograde_solver_with_three_in_a_row_on_four_by_four() {
    agrees_everywhere(&board(4, 4, 3));
}

#[test]
fn the_solver_equals_the_retrograde_solver_with_three_in_a_row_on_four_by_five() {
    agrees_everywhere(&board(4, 5, 3));
}

#[test]
fn the_solver_equals_the_retrograde_solver_on_four_by_five() {
    agrees_everywhere(&board(4, 5, 4));
}

#[test]
fn the_solver_equals_the_retrograde_solver_on_five_by_four() {
    agrees_everywhere(&board(5, 4, 4));
}

#[test]
fn the_solver_equals_the_retrograde_solver_on_the_other_three_in_a_row_boards() {
    for (w, h) in [(5, 4), (5, 5), (4, 6)] {
        agrees_everywhere(&board(w, h, 3));
    }
}

/// The score's remoteness: a win at once is 1 ply, a loss to the opponent's
/// next disc 2, and every score maps to a different remoteness.
#[test]
fn scores_and_remoteness_correspond_one_to_one() {
    let cells = 42;
    for discs in 0..42 {
        let left = (cells - discs) as i32;
        let mut seen = std::collections::HashSet::new();
        for score in -(left / 2)..=((left + 1) / 2) {
            let g = remoteness(score, discs, cells);
            assert!(seen.insert((g.value, g.remoteness)), "{discs} {score}");
            assert!(g.remoteness <= cells - discs);
            match g.value {
                Value::Win => assert_eq!(g.remoteness % 2, 1),
                Value::Loss => assert_eq!(g.remoteness % 2, 0),
                Value::Draw => assert_eq!(score, 0),
            }
        }
        assert_eq!(remoteness((left + 1) / 2, discs, cells).remoteness, 1);
        if left >= 2 {
            assert_eq!(remoteness(-(left / 2), discs, cells).remoteness, 2);
        }
    }
}

fn parse(game: &ConnectFour, text: &str) -> Position {
    game.parse_position(text).unwrap()
}

/// A position from the report that the search graded one ply short: column 5
/// loses in 12 plies, and the others in 2.
#[test]
fn a_late_position_has_its_exact_remoteness_per_move() {
    let game = ConnectFour::classic();
    let p = parse(&game, "......R/...Y..Y/RRRYY.R/YYYRYRY/YRYRYRR/RYYRRYR R");
    let shape = game.shape();
    let mut solver = Solver::new(shape, 1 << 20 | 1, None);
    let mut moves = Vec::new();
    game.legal_moves(&p, &mut moves);
    for mv in moves {
        let mut child = p;
        game.play_unchecked(&mut child, mv);
        let b = SolverBoard::from_position(&child);
        let Solved::Exact(score) = solver.solve(&b, Limits::default()) else {
            panic!()
        };
        // The mover's grade: the child's value flipped, one ply further.
        let g = remoteness(score, b.discs(), 42).as_move_grade();
        let expected = if mv.to_string() == "5" { 12 } else { 2 };
        assert_eq!((g.value, g.remoteness), (Value::Loss, expected), "{mv}");
    }
}

/// A book read back from its bytes is the same book, and mirror images share
/// an entry.
#[test]
fn a_book_round_trips_and_mirror_images_share_an_entry() {
    let game = board(5, 4, 4);
    let shape = Shape::new(game.geometry());
    let dir = std::env::temp_dir().join(format!("c4book-{}", std::process::id()));
    let _ = std::fs::remove_file(&dir);
    let book = tabula_connect4::solver::building::build_book(
        game.geometry(),
        3,
        &dir,
        &Limits::default(),
        &|_| {},
    )
    .unwrap();
    let _ = std::fs::remove_file(&dir);
    let bytes = book.to_bytes();
    let again = Book::read(&bytes).unwrap();
    assert_eq!(again.entries(), book.entries());
    assert_eq!(again.to_bytes(), bytes);
    // 1 + 3 + 13 + ... positions up to three discs, mirror images once.
    assert!(book.len() > 20, "{}", book.len());
    let left = parse(&game, "...../...../...../R.... Y");
    let right = parse(&game, "...../...../...../....R Y");
    let key = |p: &Position| SolverBoard::from_position(p).canonical_key(&shape);
    assert_eq!(key(&left), key(&right));
    assert!(book.score(key(&left)).is_some());
    // Every entry is the solver's own value of its position.
    let solution = Solution::solve(&game, &game.initial_state(), 30_000_000).unwrap();
    for (state, g) in solution.iter() {
        let Some(b) = solver_board(&game, state) else {
            continue;
        };
        if b.discs() > 3 || !matches!(game.turn(state), Turn::Move(_)) {
            continue;
        }
        let score = book.score(b.canonical_key(&shape)).expect("every position");
        assert_eq!(remoteness(score, b.discs(), 20), g);
    }
    // Damaged files are refused, not misread.
    assert!(Book::read(&bytes[..bytes.len() - 1]).is_err());
    assert!(Book::read(b"not a book at all").is_err());
}

/// The position after `columns` (Pascal Pons's notation: 1-based columns).
fn after_columns(game: &ConnectFour, columns: &str) -> Position {
    let mut p = game.initial_state();
    for c in columns.chars() {
        let mv = game.parse_move(&p, &c.to_string()).unwrap();
        game.play_unchecked(&mut p, mv);
    }
    p
}

/// A search stopped by its deadline keeps the bounds it proved, and they hold:
/// the exact score lies between them, at every deadline from a tenth of a
/// millisecond until the search finishes. Some deadline leaves bounds tighter
/// than the widest possible.
#[test]
fn a_search_out_of_time_proves_bounds_that_hold() {
    let game = ConnectFour::classic();
    let p = after_columns(&game, "34735257377645");
    let b = SolverBoard::from_position(&p);
    let Solved::Exact(exact) =
        Solver::new(game.shape(), 1 << 20 | 1, None).solve(&b, Limits::default())
    else {
        panic!("no limits, so the solve is exact");
    };
    let widest = (-(42 - 14) / 2, (42 + 1 - 14) / 2);
    let mut informative = 0;
    let mut wait = std::time::Duration::from_micros(100);
    loop {
        let limits = Limits {
            deadline: Some(std::time::Instant::now() + wait),
            cancel: None,
        };
        match Solver::new(game.shape(), 1 << 20 | 1, None).solve(&b, limits) {
            Solved::Exact(score) => {
                assert_eq!(score, exact);
                break;
            }
            Solved::Bounds { low, high } => {
                assert!(
                    low <= exact && exact <= high,
                    "{low}..{high} misses {exact}"
                );
                if (low, high) != widest {
                    informative += 1;
                }
            }
        }
        wait = wait * 3 / 2;
    }
    assert!(
        informative > 0,
        "no deadline left bounds narrower than the widest"
    );
}

/// The oracle lists what a search out of time proved about a position it
/// could not grade, as values for the side to move, and they hold.
#[test]
fn the_oracle_keeps_the_bounds_of_a_search_out_of_time() {
    use tabula_connect4::solver::oracle::SolverOracle;
    use tabula_core::{Budget, Oracle};
    let game = ConnectFour::classic();
    let p = after_columns(&game, "34735257377645");
    let b = SolverBoard::from_position(&p);
    let Solved::Exact(exact) =
        Solver::new(game.shape(), 1 << 20 | 1, None).solve(&b, Limits::default())
    else {
        panic!("no limits, so the solve is exact");
    };
    let truth = remoteness(exact, b.discs(), 42).value;
    let mut wait = std::time::Duration::from_micros(100);
    let mut seen = 0;
    loop {
        // A new oracle each time: one that knows the score answers at once.
        let oracle = SolverOracle::new(game, None);
        let budget = Budget::unlimited().with_deadline(std::time::Instant::now() + wait);
        if budget.run(|| oracle.grade(&game, &p)).is_some() {
            break;
        }
        if let Some(bounds) = oracle.bounds(&game, &p) {
            assert!(
                bounds.low.rank() <= truth.rank() && truth.rank() <= bounds.high.rank(),
                "{bounds:?} misses {truth:?}"
            );
            seen += 1;
        }
        wait = wait * 3 / 2;
    }
    assert!(seen > 0, "no search out of time left its bounds");
}
