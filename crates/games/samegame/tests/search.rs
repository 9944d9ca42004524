//! The search player: its lines are replayed with the rules, through the public
//! notation, and must score what the search claims.

use tabula_core::{ExactAnalysis, Notation, Players};
use tabula_core::{FactValue, Game, PuzzleSolution, Registered, Report, Variant};
use tabula_samegame::search::{search, Algorithm, SearchOptions};
use tabula_samegame::{Board, SameGame, Scoring};

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

/// The best score over every game from `board`, by plain exhaustive search.
fn exhaustive(g: &SameGame, board: &Board) -> i64 {
    let mut moves = Vec::new();
    g.legal_moves(board, &mut moves);
    moves
        .iter()
        .map(|&m| {
            let mut b = board.clone();
            g.play_unchecked(&mut b, m);
            exhaustive(g, &b)
        })
        .max()
        .unwrap_or(board.score())
}

#[test]
fn fixed_level_lines_replay_to_their_score() {
    for (variant, level) in [
        ("size=10x10,colours=3,seed=4", 1),
        ("size=8x8,colours=4,seed=9,scoring=blocks", 2),
    ] {
        let g = SameGame::from_variant(&Variant::parse(variant).unwrap()).unwrap();
        let start = g.initial_state();
        let options = SearchOptions {
            level: Some(level),
            runs: Some(2),
            seed: 3,
            ..SearchOptions::default()
        };
        let r = search(&start, g.scoring, &options, &|_| {});
        let end = replay(&g, &start, &r.moves);
        assert!(
            g.turn(&end).is_over(),
            "the line must play the game to its end"
        );
        assert_eq!(end.score(), r.score);
        assert_eq!(end.is_cleared(), r.cleared);
        assert_eq!(end.blocks_left(), r.blocks_left);
        // Same seed and fixed work: the same line.
        let again = search(&start, g.scoring, &options, &|_| {});
        assert_eq!(again.moves, r.moves);
    }
}

#[test]
fn nested_fixed_level_lines_replay_to_their_score() {
    let g =
        SameGame::from_variant(&Variant::parse("size=10x10,colours=3,seed=4").unwrap()).unwrap();
    let start = g.initial_state();
    let options = SearchOptions {
        algorithm: Algorithm::Nested,
        level: Some(1),
        seed: 3,
        ..SearchOptions::default()
    };
    let r = search(&start, g.scoring, &options, &|_| {});
    let end = replay(&g, &start, &r.moves);
    assert!(g.turn(&end).is_over());
    assert_eq!(end.score(), r.score);
    let again = search(&start, g.scoring, &options, &|_| {});
    assert_eq!(again.moves, r.moves);
}

/// The caller's cancel flag stops a long search at once, with a whole game.
#[test]
fn a_cancelled_search_stops_with_a_game() {
    let g =
        SameGame::from_variant(&Variant::parse("size=15x15,colours=5,seed=3").unwrap()).unwrap();
    let start = g.initial_state();
    let budget = tabula_core::Budget::default();
    budget.cancel();
    let t = std::time::Instant::now();
    let r = search(
        &start,
        g.scoring,
        &SearchOptions {
            seconds: 600.0,
            budget,
            ..SearchOptions::default()
        },
        &|_| {},
    );
    assert!(
        t.elapsed().as_secs_f64() < 60.0,
        "the search ignored the cancel flag"
    );
    let end = replay(&g, &start, &r.moves);
    assert!(g.turn(&end).is_over());
    assert_eq!(end.score(), r.score);
}

#[test]
fn beam_lines_replay_to_their_score() {
    let g = SameGame::from_variant(&Variant::parse("size=9x7,colours=3,seed=2").unwrap()).unwrap();
    let start = g.initial_state();
    let options = SearchOptions {
        algorithm: Algorithm::Beam,
        width: Some(8),
        seed: 1,
        ..SearchOptions::default()
    };
    let r = search(&start, g.scoring, &options, &|_| {});
    assert_eq!(replay(&g, &start, &r.moves).score(), r.score);
}

#[test]
fn finds_the_optimum_of_small_boards() {
    // Boards small enough for exhaustive search: level 3 should reach the optimum.
    let mut hit = 0;
    for seed in 0..6 {
        let g = SameGame::from_variant(
            &Variant::parse(&format!("size=5x4,colours=3,seed={seed}")).unwrap(),
        )
        .unwrap();
        let start = g.initial_state();
        let best = exhaustive(&g, &start);
        let r = search(
            &start,
            g.scoring,
            &SearchOptions {
                level: Some(3),
                ..SearchOptions::default()
            },
            &|_| {},
        );
        assert!(r.score <= best);
        assert_eq!(replay(&g, &start, &r.moves).score(), r.score);
        hit += (r.score == best) as usize;
    }
    assert!(
        hit >= 5,
        "level 3 found the optimum on only {hit} of 6 boards"
    );
}

#[test]
fn solve_report_json() {
    let g = SameGame::default();
    let board = "1122\n1221\n3312\n";
    let request = Report {
        position: Some(board.into()),
        seconds: Some(5.0),
        seed: 7,
        ..Report::default()
    };
    let report = g.solve_report(&request, &|_| {}).unwrap().unwrap();
    let start = g.parse_position(board).unwrap();
    let Some(PuzzleSolution::Line {
        moves,
        score,
        cleared,
    }) = &report.solution
    else {
        panic!("a line of clicks: {report:?}")
    };
    // The moves as a player types them: "row column".
    let moves: Vec<[usize; 2]> = moves
        .iter()
        .map(|m| {
            let (r, c) = m.split_once(' ').unwrap();
            [r.parse().unwrap(), c.parse().unwrap()]
        })
        .collect();
    let end = replay(&g, &start, &moves);
    assert_eq!(*score, end.score());
    assert_eq!(*cleared, end.is_cleared());
    assert!(report.figures.seconds >= 0.0);
    let fact = |label: &str| {
        report
            .sections
            .iter()
            .flat_map(|s| &s.facts)
            .find(|f| f.label == label)
            .map(|f| f.value.clone())
    };
    assert_eq!(fact("Random seed"), Some(FactValue::Integer(7)));
    // Twelve blocks: no game is longer than six clicks, so the search climbs to an
    // exhaustive level within the budget and says its score is the optimum.
    assert_eq!(fact("Proven best"), Some(FactValue::Flag(true)));
    assert!(
        report.summary.contains("the best possible"),
        "{}",
        report.summary
    );
    assert_eq!(exhaustive(&g, &start), end.score());

    let bad = Report {
        position: Some("12\n1".into()),
        seconds: Some(1.0),
        seed: 0,
        ..Report::default()
    };
    let err = g.solve_report(&bad, &|_| {}).unwrap().unwrap_err();
    assert!(err.contains("line 2"), "{err}");
}

#[test]
fn a_finished_board_reports_its_own_score() {
    let start: Board = tabula_samegame::parse_board("12/21 score=40").unwrap();
    let r = search(
        &start,
        Scoring::Standard,
        &SearchOptions::default(),
        &|_| {},
    );
    assert_eq!((r.score, r.moves.len(), r.cleared), (40, 0, false));
}

#[test]
fn search_player_plays_whole_games() {
    let g = SameGame::from_variant(&Variant::parse("size=8x8,colours=3,seed=11").unwrap()).unwrap();
    let mut player = g
        .custom_player("search", "seconds=0.2", 5)
        .expect("search player")
        .expect("its options");
    // Bad options are refused in the player's words.
    let refusal = |options: &str| match g.custom_player("search", options, 5) {
        Some(Err(words)) => words,
        _ => panic!("search:{options} was not refused"),
    };
    assert_eq!(
        refusal("seconds=abc"),
        "the thinking time in seconds must be a number from 0 to 3600"
    );
    assert_eq!(
        refusal("level=4"),
        "the search level must be a whole number from 1 to 3"
    );
    assert_eq!(
        refusal("depth=3"),
        "this player has no option 'depth' (its options: seconds, level)"
    );
    assert!(g.custom_player("other", "", 5).is_none());
    let mut s = g.initial_state();
    let mut rng = tabula_core::rng_from_seed(1);
    while !g.turn(&s).is_over() {
        let choice = player.choose(&g, &s, 0, &mut rng).expect("a move");
        g.try_play(&mut s, choice.mv).unwrap();
    }
    assert!(s.score() >= 0);
}

/// A search given a plan (an earlier search's line) starts from it: with far less
/// work it still scores at least the plan, for every algorithm, and its line replays.
/// A plan cut short is finished by NRPA; a plan that does not fit the board is ignored.
#[test]
fn a_kept_plan_is_never_lost() {
    let g =
        SameGame::from_variant(&Variant::parse("size=12x12,colours=4,seed=21").unwrap()).unwrap();
    let start = g.initial_state();
    let strong = search(
        &start,
        g.scoring,
        &SearchOptions {
            level: Some(2),
            iterations: Some(40),
            runs: Some(2),
            seed: 5,
            ..SearchOptions::default()
        },
        &|_| {},
    );
    let weak = |algorithm, plan: Vec<[usize; 2]>| {
        let r = search(
            &start,
            g.scoring,
            &SearchOptions {
                algorithm,
                level: Some(1),
                iterations: Some(1),
                width: Some(1),
                runs: Some(1),
                seed: 6,
                plan,
                ..SearchOptions::default()
            },
            &|_| {},
        );
        let end = replay(&g, &start, &r.moves);
        assert!(g.turn(&end).is_over());
        assert_eq!(end.score(), r.score);
        r.score
    };
    let alone = weak(Algorithm::Nrpa, Vec::new());
    assert!(
        alone < strong.score,
        "one playout ({alone}) should not match level 2 ({})",
        strong.score
    );
    for algorithm in [Algorithm::Nrpa, Algorithm::Nested, Algorithm::Beam] {
        assert!(weak(algorithm, strong.moves.clone()) >= strong.score);
    }
    // Cut short: NRPA finishes it; it still replays.
    weak(Algorithm::Nrpa, strong.moves[..3].to_vec());
    // Off the board, or a click on a lone block: ignored.
    let mut bad = strong.moves.clone();
    bad[0] = [99, 0];
    weak(Algorithm::Nrpa, bad.clone());
    weak(Algorithm::Nested, bad);
    let mut twice = strong.moves.clone();
    twice.insert(1, strong.moves[0]);
    weak(Algorithm::Nrpa, twice);
}
