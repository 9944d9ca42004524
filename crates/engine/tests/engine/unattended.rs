//! Actual play always ends: repetition is counted as plies come and go, and every
//! game stops at the ply cap, whoever plays it.

use tabula_core::{Outcome, Turn};
use tabula_engine::{build, Match, MatchConfig, MAX_GAME_PLIES};

fn start(game: &str, variant: &str, players: &[&str]) -> Box<dyn Match> {
    build(game, variant)
        .unwrap()
        .new_match(MatchConfig {
            players: players.iter().map(|s| s.to_string()).collect(),
            seed: 9,
            position: None,
            undo_depth: None,
        })
        .unwrap()
}

/// Plays the legal move touching exactly `cells`.
fn play_cells(m: &mut Box<dyn Match>, cells: [u32; 2]) {
    let mv = m
        .view()
        .legal_moves
        .into_iter()
        .find(|i| i.cells == cells)
        .unwrap_or_else(|| panic!("no move {cells:?}"))
        .mv;
    m.play(&mv).unwrap();
}

#[test]
fn threefold_repetition_counts_plies_taken_back_and_played_again() {
    let mut m = start("northcott", "", &["human", "human"]);
    // Row 1: O steps right and back, X steps left and back; twice more makes the
    // start's third occurrence.
    for round in 0..2 {
        for cells in [[0, 1], [15, 14], [1, 0], [14, 15]] {
            assert!(matches!(m.turn(), Turn::Move(_)), "round {round}");
            play_cells(&mut m, cells);
        }
    }
    assert_eq!(m.turn(), Turn::Over(Outcome::Draw));
    assert!(m.view().result.unwrap().contains("repetition"));
    // One ply back: only two occurrences, the game goes on; again: a draw again.
    assert!(m.undo());
    assert!(matches!(m.turn(), Turn::Move(_)));
    assert!(m.redo());
    assert_eq!(m.turn(), Turn::Over(Outcome::Draw));
    // A new game forgets the old one's positions.
    m.new_game();
    assert!(matches!(m.turn(), Turn::Move(_)));
    for cells in [[0, 1], [15, 14], [1, 0], [14, 15]] {
        play_cells(&mut m, cells);
    }
    assert!(
        matches!(m.turn(), Turn::Move(_)),
        "only the second occurrence"
    );
}

fn run_alone(m: &mut Box<dyn Match>) -> usize {
    let mut plies = 0;
    while m.step().unwrap().is_some() {
        plies += 1;
        assert!(plies <= MAX_GAME_PLIES, "the game went past the cap");
    }
    plies
}

#[test]
fn games_no_person_plays_always_end() {
    // Random Poggle almost never solves a 6x6 board: it stops at the cap, unsolved.
    let mut m = start("poggle", "size=6,colours=3", &["random"]);
    let plies = run_alone(&mut m);
    assert!(m.turn().is_over());
    if plies == MAX_GAME_PLIES {
        assert_eq!(m.turn(), Turn::Over(Outcome::Ended));
        assert!(m.view().result.is_some());
    }
    // Random Northcott without its draw rules: ends by a win or the cap.
    let mut m = start(
        "northcott",
        "repetition=0,progress=off",
        &["random", "random"],
    );
    let plies = run_alone(&mut m);
    assert!(m.turn().is_over());
    assert!(plies <= MAX_GAME_PLIES);
    if plies == MAX_GAME_PLIES {
        // Cut off: no result, and no game for the Cat.
        assert_eq!(m.turn(), Turn::Over(Outcome::Ended));
        assert!(m.view().result.unwrap().contains("cut off"));
        assert_eq!(m.view().tally.cat, 0);
    }
}

/// A game cut off at the length bound is reported as cut off, never as a draw,
/// and is not tallied: neither a win nor the Cat's. (Before, it was "draw: ...
/// moves without an end" and counted for the Cat.)
#[test]
fn a_game_cut_off_at_the_bound_is_no_draw() {
    // Northcott on one row without its draw rules: O and X step back and
    // forth for ever; only the length bound ends the game.
    let variant = "size=6x1,repetition=0,progress=off";
    let mut m = start("northcott", variant, &["human", "human"]);
    let bound = build("northcott", variant).unwrap().facts().max_game_length;
    assert_eq!(bound, MAX_GAME_PLIES);
    for ply in 0..bound {
        assert!(matches!(m.turn(), Turn::Move(_)), "ply {ply}");
        m.play(["1:1->2", "1:6->5", "1:2->1", "1:5->6"][ply % 4])
            .unwrap();
    }
    assert_eq!(m.turn(), Turn::Over(Outcome::Ended));
    let view = m.view();
    let result = view.result.unwrap();
    assert!(
        result.contains("cut off") && !result.contains("draw"),
        "{result}"
    );
    assert_eq!((view.tally.games, view.tally.cat), (0, 0));
    // Taken back, the game goes on; played again, it is cut off again.
    assert!(m.undo());
    assert!(matches!(m.turn(), Turn::Move(_)));
    assert!(m.redo());
    assert_eq!(m.view().tally.games, 0);
}

/// A person (or a script sending moves) cannot make a game grow without bound either:
/// a puzzle pressed for ever ends unsolved at its press limit, and undo takes it
/// back below.
#[test]
fn games_people_play_end_at_the_cap_too() {
    // From "every button at colour 1", pressing one corner over and over never
    // solves the board: the game ends unsolved after 2 x (3 - 1) x 36 presses,
    // twice the longest useful sequence, not cut off.
    let mut m = start("poggle", "size=6,colours=3", &["human"]);
    let corner = m.view().legal_moves[0].mv.clone();
    let mut plies = 0;
    while !m.turn().is_over() {
        m.play(&corner).unwrap();
        plies += 1;
        assert!(plies <= MAX_GAME_PLIES, "the game went past the cap");
    }
    assert_eq!(plies, 144);
    assert_eq!(m.turn(), Turn::Over(Outcome::Ended));
    let result = m.view().result.unwrap();
    assert_eq!(
        result,
        "game over: unsolved after 144 moves, the most one game allows"
    );
    assert!(m.play(&corner).is_err(), "no move after the end");
    assert!(m.undo());
    assert!(!m.turn().is_over());
}
