//! Analysis (and so every hint) takes its chances from one source, whatever
//! tables the process already holds: the exact table where there is one, else
//! the `best` player's estimates as it plays them, with its exact endgames.
//!
//! A test binary of its own with a solver cache of its own, so that no table is
//! there, in the process or on the disk, before the first analysis.

use tabula_auto120::{exact, Auto120, Best, Move, State};
use tabula_core::{AnalysisExtra, ExactAnalysis, Game, MoveGrade, Notation};

/// Points the solver cache at an empty folder of this test binary's own.
fn empty_cache() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("auto120-analysis-tables");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a folder for the cache");
    std::env::set_var("TABULA_CACHE_DIR", &dir);
}

/// The graded moves of an analysis: (marker number, chance, exact).
fn graded(extra: &AnalysisExtra) -> Vec<(String, f64, bool)> {
    extra
        .moves
        .iter()
        .flatten()
        .filter_map(|m| match m.grade {
            MoveGrade::WinChance { chance, exact } => Some((m.notation.clone(), chance, exact)),
            _ => None,
        })
        .collect()
}

/// `ranked` (one marker a square) as every marker in play, by its notation.
fn by_marker(state: &State, ranked: &[(u8, f64)]) -> Vec<(String, f64)> {
    let side = state.side().expect("a side to move");
    let mine = state.markers(side);
    let mut out: Vec<(String, f64)> = (0..state.markers_per_side())
        .filter(|&m| mine[m] != 120)
        .map(|m| {
            let p = ranked
                .iter()
                .find(|&&(j, _)| mine[j as usize] == mine[m])
                .expect("every square valued")
                .1;
            (format!("marker {}", m + 1), p)
        })
        .collect();
    out.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    out
}

/// One test, its steps in order: the first must find nothing built yet, and
/// the last starts the three-marker table, which builds the endgame table first.
#[test]
fn analysis_reads_one_source_of_chances() {
    empty_cache();
    estimates_are_the_best_players_with_its_endgames_in_a_fresh_process();
    every_marker_in_play_is_graded_as_the_exact_table_grades_them();
    three_markers_without_a_table_answer_at_once_and_say_it_is_being_worked_out();
}

fn estimates_are_the_best_players_with_its_endgames_in_a_fresh_process() {
    let game = Auto120::default();
    // Two markers each still in play: the endgame table values this exactly
    // where the race alone only estimates.
    let state = game
        .parse_position("120,120,20,24/120,120,30,5:1r5")
        .unwrap();
    assert!(exact::cached(2).is_none(), "no endgame table before");
    // Before this process has the endgame table, the analysis used to value
    // the moves by the race alone: a hint in a game against `best` (which
    // builds the table) then differed from a fresh `tabula analyze`.
    let extra = game.analysis_extra(&state).unwrap();
    let moves = graded(&extra);
    assert_eq!(moves.len(), 2, "{moves:?}");
    assert!(moves.iter().all(|m| !m.2), "estimates: {moves:?}");
    let best = by_marker(&state, &Best::default().for_markers(4).rank_moves(&state));
    let race = by_marker(
        &state,
        &Best {
            exact: 0,
            ..Best::default()
        }
        .rank_moves(&state),
    );
    let shown: Vec<(String, f64)> = moves.iter().map(|m| (m.0.clone(), m.1)).collect();
    assert_eq!(shown, best, "the analysis grades as best plays");
    assert_ne!(best, race, "the endgame table changes the estimates here");
    // Asked again, now that the process holds the table: the same answer.
    assert_eq!(graded(&game.analysis_extra(&state).unwrap()), moves);
}

fn every_marker_in_play_is_graded_as_the_exact_table_grades_them() {
    let game = Auto120::default();
    // Every marker on 1: four moves that do the same, each listed.
    let state = game.parse_position("1,1,1,1/1,1,1,1:1r5").unwrap();
    let moves = graded(&game.analysis_extra(&state).unwrap());
    let names: Vec<&str> = moves.iter().map(|m| m.0.as_str()).collect();
    assert_eq!(
        names,
        ["marker 1", "marker 2", "marker 3", "marker 4"],
        "{moves:?}"
    );
    assert!(moves.windows(2).all(|w| w[0].1 == w[1].1), "{moves:?}");
    // The exact table of two markers lists every marker too.
    let two = Auto120::with_markers(2);
    let state = two.parse_position("1,1/1,1:1r5").unwrap();
    let moves = graded(&two.analysis_extra(&state).unwrap());
    assert_eq!(moves.len(), 2, "{moves:?}");
    assert!(moves.iter().all(|m| m.2), "exact: {moves:?}");
}

fn three_markers_without_a_table_answer_at_once_and_say_it_is_being_worked_out() {
    let game = Auto120::with_markers(3);
    assert!(!exact::kept_on_disk(3), "the cache is empty");
    let mut state = game.initial_state();
    for mv in [Move::Starter(0), Move::Roll(4)] {
        game.play_unchecked(&mut state, mv);
    }
    // Not built in this process and not on the disk: the analysis starts the
    // table and does not wait minutes for it; the moves are estimates, and
    // the analysis says why and how to keep the table.
    let extra = game.analysis_extra(&state).unwrap();
    assert!(extra.value.is_none(), "{extra:?}");
    let moves = graded(&extra);
    assert_eq!(moves.len(), 3, "{moves:?}");
    assert!(moves.iter().all(|m| !m.2), "estimates: {moves:?}");
    let note = extra
        .sections
        .iter()
        .find(|s| s.title == "Exact chances")
        .and_then(|s| s.note.clone())
        .unwrap_or_default();
    assert!(
        note.contains("is being worked out")
            && note.contains("tabula solve auto120 --variant markers=3"),
        "{note}"
    );
    assert!(
        exact::cached(3).is_some() || exact::build_progress(3).is_some(),
        "the table is being built for the hints that follow"
    );
}
