//! The standard test set of the SameGame literature (Schadd et al. 2008) and the
//! games Tabula reports on it: every saved line is replayed with the rules, through
//! the public move notation, and must end with the score reported.

use tabula_core::Notation;
use tabula_core::{Game, Registered, Variant};
use tabula_samegame::search::{search, Algorithm, SearchOptions};
use tabula_samegame::standard::standard_boards;
use tabula_samegame::{Board, SameGame};

fn game() -> SameGame {
    SameGame::from_variant(&Variant::parse("colours=5").unwrap()).unwrap()
}

/// Plays `[row, column]` clicks as a user would type them; returns the final board.
fn replay(g: &SameGame, start: &Board, moves: &[[usize; 2]]) -> Board {
    let mut s = start.clone();
    for [r, c] in moves {
        let m = g
            .parse_move(&s, &format!("{r} {c}"))
            .unwrap_or_else(|e| panic!("{r} {c}: {e}"));
        g.try_play(&mut s, m).unwrap();
    }
    s
}

#[test]
fn the_standard_boards_are_the_published_ones() {
    let boards = standard_boards();
    assert_eq!(boards.len(), 20);
    for b in &boards {
        assert_eq!((b.width(), b.height()), (15, 15));
        assert_eq!(b.blocks_left(), 225);
        assert_eq!(b.max_colour(), 5);
    }
    // The literature's colours 0-4 are Tabula's 1-5.
    let first_row: Vec<u8> = (0..15).map(|c| boards[0].colour(0, c)).collect();
    let published = [3, 1, 1, 4, 1, 0, 4, 0, 4, 4, 1, 1, 0, 2, 3];
    assert_eq!(first_row, published.map(|c| c + 1));
    // The set's design: boards 11-15 have 45 blocks of every colour, boards 16-20
    // 65 of one colour (1, 2, 3, 4, then 0 in the published numbering) and 40 of the others.
    for (i, b) in boards.iter().enumerate().skip(10) {
        let counts = &b.colour_counts()[1..=5];
        if i < 15 {
            assert_eq!(counts, [45; 5], "board {}", i + 1);
        } else {
            let big = (i - 15 + 1) % 5; // published colour with 65 blocks
            let expected: Vec<u16> = (0..5).map(|c| if c == big { 65 } else { 40 }).collect();
            assert_eq!(counts, expected.as_slice(), "board {}", i + 1);
        }
    }
}

/// Reads a file saved by `samegame_bench --save`: `board score r,c r,c …` lines.
fn saved_lines(text: &str) -> Vec<(usize, i64, Vec<[usize; 2]>)> {
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let mut it = l.split_whitespace();
            let board = it.next().unwrap().parse().unwrap();
            let score = it.next().unwrap().parse().unwrap();
            let moves = it
                .map(|m| {
                    let (r, c) = m.split_once(',').unwrap();
                    [r.parse().unwrap(), c.parse().unwrap()]
                })
                .collect();
            (board, score, moves)
        })
        .collect()
}

/// Every score reported in `crates/games/samegame/docs/samegame.md` comes from one of the files the
/// benchmark saved (`standard_*_lines.txt`: the standard boards; `random_*_lines.txt`:
/// `Board::random(15, 15, 5, board)`); each line must replay to exactly its score.
#[test]
fn reported_lines_replay_to_their_scores() {
    let g = game();
    let boards = standard_boards();
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data");
    let mut files = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let standard = name.starts_with("standard_");
        if !(standard || name.starts_with("random_")) || !name.ends_with("_lines.txt") {
            continue;
        }
        files += 1;
        let lines = saved_lines(&std::fs::read_to_string(&path).unwrap());
        assert!(!lines.is_empty(), "{name} has no lines");
        for (board, score, moves) in lines {
            let start = if standard {
                boards[board - 1].clone()
            } else {
                Board::random(15, 15, 5, board as u64)
            };
            let end = replay(&g, &start, &moves);
            assert!(
                g.turn(&end).is_over(),
                "{name} board {board}: the game goes on"
            );
            assert_eq!(end.score(), score, "{name} board {board}");
        }
    }
    assert!(files >= 4, "saved lines missing in {dir}");
}

/// A short NRPA search on a standard board: fixed work gives the same line twice,
/// and the line replays to its score.
#[test]
fn nrpa_fixed_work_is_reproducible_and_replays() {
    let g = game();
    let board = &standard_boards()[1];
    let options = SearchOptions {
        algorithm: Algorithm::Nrpa,
        level: Some(1),
        iterations: Some(30),
        runs: Some(3),
        seed: 5,
        ..SearchOptions::default()
    };
    let r = search(board, g.scoring, &options, &|_| {});
    let end = replay(&g, board, &r.moves);
    assert!(g.turn(&end).is_over());
    assert_eq!(end.score(), r.score);
    assert_eq!(end.is_cleared(), r.cleared);
    assert_eq!(r.playouts, 3 * 30);
    let again = search(board, g.scoring, &options, &|_| {});
    assert_eq!(again.moves, r.moves);
    assert_eq!(again.score, r.score);
}
