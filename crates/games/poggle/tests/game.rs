//! Poggle through the `Game` interface: rules, text forms, variants, views, reports.

use std::collections::{HashMap, VecDeque};
use tabula_core::{
    AnalysisExtra, FactValue, Game, GameExt, MoveGrade, Outcome, PuzzleSolution, Registered,
    Report, SolveReport, Turn, Variant,
};
use tabula_core::{ExactAnalysis, Notation, Players, Presentation, Symmetry};

/// A fact of a report's sections by its label.
fn fact(r: &SolveReport, label: &str) -> Option<FactValue> {
    r.sections
        .iter()
        .flat_map(|s| &s.facts)
        .find(|f| f.label == label)
        .map(|f| f.value.clone())
}

fn solvable(r: &SolveReport) -> bool {
    fact(r, "Solvable") == Some(FactValue::Flag(true))
}

/// The press grid of a solved report.
fn presses(r: &SolveReport) -> Vec<Vec<u8>> {
    match &r.solution {
        Some(PuzzleSolution::Presses { grid, .. }) => grid.clone(),
        other => panic!("no presses: {other:?}"),
    }
}

/// The presses a hint's analysis plans in all, and its first press.
fn planned(extra: &AnalysisExtra) -> Option<(u64, String)> {
    let first = extra.moves.as_ref()?.first()?.clone();
    match first.grade {
        MoveGrade::Plan { moves_left } => Some((moves_left, first.notation)),
        _ => None,
    }
}
use tabula_poggle::{Poggle, PoggleState, Press, StartRule};

fn game(v: &str) -> Poggle {
    Poggle::from_variant(&Variant::parse(v).unwrap()).unwrap()
}

#[test]
fn variants_parse_check_and_round_trip() {
    let g = game("");
    assert_eq!((g.size, g.colours, g.start), (5, 2, StartRule::Ones));
    let g = game("size=7,colours=5,start=random,seed=9");
    assert_eq!(
        (g.size, g.colours, g.start, g.seed),
        (7, 5, StartRule::Random, Some(9))
    );
    assert_eq!(Poggle::from_variant(&g.variant()).unwrap(), g);
    // Without a seed a random start names none: each new game deals its own.
    let g = game("start=random");
    assert_eq!(g.seed, None);
    assert_eq!(Poggle::from_variant(&g.variant()).unwrap(), g);
    for bad in [
        "size=0",
        "size=10001",
        "colours=1",
        "colours=257",
        "start=zeros",
        "size=x",
        "foo=1",
    ] {
        assert!(
            Poggle::from_variant(&Variant::parse(bad).unwrap()).is_err(),
            "{bad}"
        );
    }
}

#[test]
fn pressing_changes_a_plus_and_the_seed_solution_wins() {
    let g = game("size=3,colours=3");
    let mut s = g.initial_state();
    assert_eq!(g.format_position(&s), "111/111/111");
    assert_eq!(g.turn(&s), Turn::Move(0));
    let centre = g.parse_move(&s, "2,2").unwrap();
    g.play_unchecked(&mut s, centre);
    assert_eq!(g.format_position(&s), "121/222/121");
    let corner = g.parse_move(&s, "1,1").unwrap();
    g.play_unchecked(&mut s, corner);
    assert_eq!(g.format_position(&s), "201/022/121");
    // The blog's 3x3, 3-colour solution is 010/111/010.
    let mut s = g.initial_state();
    for mv in ["1,2", "2,1", "2,2", "2,3", "3,2"] {
        let m = g.parse_move(&s, mv).unwrap();
        g.try_play(&mut s, m).unwrap();
    }
    assert_eq!(g.turn(&s), Turn::Over(Outcome::Win(0)));
    assert!(g.moves(&s).is_empty());
}

#[test]
fn positions_and_moves_round_trip_and_refuse_bad_text() {
    let g = game("size=4,colours=12");
    let s = g.parse_position("0123/4567/89ab/0000").unwrap();
    assert_eq!(g.format_position(&s), "0123/4567/89ab/0000");
    for mv in g.moves(&s) {
        let text = g.format_move(&s, mv);
        assert_eq!(g.parse_move(&s, &text).unwrap(), mv);
        assert_eq!(
            g.move_cells(&s, mv),
            vec![mv.row as u32 * 4 + mv.col as u32]
        );
    }
    for bad in [
        "",
        "0123/4567/89ab",
        "0123/4567/89ac/0000",
        "01234/4567/89ab/0000",
        "0123/45 67/89ab/0000",
        "ü",
    ] {
        assert!(g.parse_position(bad).is_err(), "{bad:?}");
    }
    for bad in ["", "0,0", "5,1", "1", "1,2,3", "b3"] {
        assert!(g.parse_move(&s, bad).is_err(), "{bad:?}");
    }
}

#[test]
fn oversized_boards_are_refused_for_play_but_solved() {
    let g = game("size=31");
    assert!(g.play_error().unwrap().contains("tabula solve poggle"));
    let s = g.initial_state();
    assert!(g.turn(&s).is_over());
    assert!(g.moves(&s).is_empty());
    assert!(g.parse_position("1").is_err());
    assert!(g.render_text(&s).contains("too large"));
    let report = g
        .solve_report(&Report::default(), &|_| {})
        .unwrap()
        .unwrap();
    assert!(solvable(&report));
    assert_eq!(presses(&report).len(), 31);
}

#[test]
fn random_starts_are_solvable_and_reproducible() {
    for seed in 0..20 {
        let g = game(&format!("size=6,colours=6,start=random,seed={seed}"));
        let s = g.initial_state();
        assert_eq!(s, g.initial_state());
        assert_eq!(g.turn(&s), Turn::Move(0));
        let report = g
            .solve_report(&Report::default(), &|_| {})
            .unwrap()
            .unwrap();
        assert!(solvable(&report), "seed {seed}");
        assert_eq!(
            fact(&report, "Start"),
            Some(FactValue::Text("a random board".into()))
        );
    }
    assert_ne!(
        game("size=6,colours=6,start=random,seed=1").initial_state(),
        game("size=6,colours=6,start=random,seed=2").initial_state()
    );
}

#[test]
fn symmetries_commute_with_presses() {
    let g = game("size=5,colours=4");
    let mut s = g.initial_state();
    for mv in ["1,2", "3,5", "5,5", "2,2"] {
        let m = g.parse_move(&s, mv).unwrap();
        g.play_unchecked(&mut s, m);
    }
    let seen: std::collections::HashSet<_> = (0..8).map(|k| g.map_state(&s, k)).collect();
    assert_eq!(seen.len(), 8, "this position has no symmetry of its own");
    for k in 0..g.symmetry_count() {
        let back = g.map_state(&g.map_state(&s, k), g.inverse_symmetry(k));
        assert_eq!(back, s);
        for m in g.moves(&s) {
            let mut a = s.clone();
            g.play_unchecked(&mut a, m);
            let mut b = g.map_state(&s, k);
            g.play_unchecked(&mut b, g.map_move(&s, m, k));
            assert_eq!(g.map_state(&a, k), b);
        }
    }
}

#[test]
fn view_has_circle_buttons_coloured_by_colour() {
    let g = game("size=3,colours=5");
    let s = g.parse_position("012/340/000").unwrap();
    let v = g.view(&s);
    assert_eq!(v.cells.len(), 9);
    assert!(v
        .cells
        .iter()
        .all(|c| c.shape == tabula_core::Shape::Circle));
    let colours: Vec<u32> = v.cells.iter().map(|c| c.colour.unwrap()).collect();
    assert_eq!(colours, vec![0, 1, 2, 3, 4, 0, 0, 0, 0]);
    assert_eq!(v.cells[5].id, 5);
}

#[test]
fn solve_report_json() {
    let g = game("size=3,colours=4");
    let r = g
        .solve_report(&Report::default(), &|_| {})
        .unwrap()
        .unwrap();
    assert!(solvable(&r));
    assert_eq!(fact(&r, "Solutions"), Some(FactValue::Integer(1)));
    assert_eq!(
        presses(&r),
        vec![vec![3, 2, 3], vec![2, 3, 2], vec![3, 2, 3]]
    );
    assert_eq!(
        fact(&r, "Proven the fewest presses"),
        Some(FactValue::Flag(true))
    );
    assert!(r.figures.seconds >= 0.0);

    let g = game("size=4,colours=2");
    let r = g
        .solve_report(
            &Report {
                position: Some("1000/0000/0000/0000".into()),
                ..Report::default()
            },
            &|_| {},
        )
        .unwrap()
        .unwrap();
    assert!(!solvable(&r));
    assert_eq!(fact(&r, "Solutions"), Some(FactValue::Integer(0)));
    match &r.solution {
        Some(PuzzleSolution::Impossible { reason }) => {
            assert!(
                reason.contains("No presses can solve this board"),
                "{reason}"
            )
        }
        other => panic!("not refuted: {other:?}"),
    }
    assert_eq!(
        fact(&r, "The sum on this board"),
        Some(FactValue::Integer(1))
    );
    // The 4x4 board from all ones: 16 solutions, the fewest press four buttons.
    let r = g
        .solve_report(&Report::default(), &|_| {})
        .unwrap()
        .unwrap();
    assert_eq!(fact(&r, "Solutions"), Some(FactValue::Integer(16)));
    assert_eq!(fact(&r, "Presses in all"), Some(FactValue::Integer(4)));
    assert_eq!(
        fact(&r, "Proven the fewest presses"),
        Some(FactValue::Flag(true))
    );

    let bad = g
        .solve_report(
            &Report {
                position: Some("10/01".into()),
                ..Report::default()
            },
            &|_| {},
        )
        .unwrap();
    assert!(bad.unwrap_err().contains("expected 4 rows"));

    // Big counts are decimal strings; big boards list rows as text.
    let r = tabula_poggle::solve_report(1279, 2, None, "ones", &Default::default()).unwrap();
    match fact(&r, "Solutions") {
        Some(FactValue::Text(t)) => assert_eq!(t.len(), 309), // 2^1024
        other => panic!("{other:?}"),
    }
    match &r.solution {
        Some(PuzzleSolution::Presses { grid, rows, .. }) => {
            assert!(grid.is_empty());
            assert_eq!(rows[0].len(), 1279);
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(
        fact(&r, "Proven the fewest presses"),
        Some(FactValue::Flag(false))
    );
}

/// Breadth-first search over positions: the fewest single presses to solve.
fn bfs_distance(g: &Poggle, start: &PoggleState) -> Option<usize> {
    let mut dist: HashMap<PoggleState, usize> = HashMap::new();
    let mut queue = VecDeque::new();
    dist.insert(start.clone(), 0);
    queue.push_back(start.clone());
    while let Some(s) = queue.pop_front() {
        let d = dist[&s];
        if g.turn(&s) == Turn::Over(Outcome::Win(0)) {
            return Some(d);
        }
        for m in g.moves(&s) {
            let mut t = s.clone();
            g.play_unchecked(&mut t, m);
            if !dist.contains_key(&t) {
                dist.insert(t.clone(), d + 1);
                queue.push_back(t);
            }
        }
    }
    None
}

#[test]
fn fewest_presses_equal_breadth_first_distance_and_hints_follow_it() {
    for v in [
        "size=3,colours=2",
        "size=3,colours=3",
        "size=2,colours=6",
        "size=4,colours=2",
        "size=2,colours=8",
        "size=3,colours=4,start=random,seed=5",
        "size=2,colours=5",
        "size=2,colours=7",
    ] {
        let g = game(v);
        let mut s = g.initial_state();
        assert!(g.is_small(), "{v}");
        let extra = g.analysis_extra(&s).unwrap();
        let Some(d) = bfs_distance(&g, &s) else {
            assert_eq!(planned(&extra), None, "{v}");
            continue;
        };
        assert_eq!(planned(&extra).map(|p| p.0), Some(d as u64), "{v}");
        let note = extra.sections[0].note.clone().unwrap_or_default();
        assert!(note.contains("the fewest"), "{v}: {note}");
        // Following hints solves in exactly d presses.
        let mut plies = 0;
        while !g.turn(&s).is_over() {
            let hint = planned(&g.analysis_extra(&s).unwrap()).unwrap().1;
            let m: Press = g.parse_move(&s, &hint).unwrap();
            g.try_play(&mut s, m).unwrap();
            plies += 1;
        }
        assert_eq!(plies, d, "{v}");
        assert_eq!(g.turn(&s), Turn::Over(Outcome::Win(0)));
    }
    // Unsolvable positions are unreachable from solved.
    let g = game("size=4,colours=2");
    let s = g.parse_position("1000/0000/0000/0000").unwrap();
    assert_eq!(bfs_distance(&g, &s), None);
    let extra = g.analysis_extra(&s).unwrap();
    assert_eq!(planned(&extra), None);
    assert!(extra.sections[0]
        .note
        .as_deref()
        .unwrap_or_default()
        .contains("No presses"));
}

#[test]
fn solver_player_solves() {
    let g = game("size=8,colours=7,start=random,seed=3");
    let mut player = g.custom_player("solver", "", 0).unwrap().unwrap();
    let mut rng = tabula_core::rng_from_seed(0);
    let mut s = g.initial_state();
    for _ in 0..8 * 8 * 7 {
        if g.turn(&s).is_over() {
            break;
        }
        let c = player.choose(&g, &s, 0, &mut rng).unwrap();
        g.try_play(&mut s, c.mv).unwrap();
    }
    assert_eq!(g.turn(&s), Turn::Over(Outcome::Win(0)));
}

proptest::proptest! {
    #[test]
    fn untrusted_text_never_panics(text in "\\PC{0,40}", k in 2u32..=60, n in 1usize..=6) {
        let g = Poggle::new(n, k);
        let s = g.initial_state();
        if let Ok(p) = g.parse_position(&text) {
            proptest::prop_assert_eq!(g.parse_position(&g.format_position(&p)).unwrap(), p);
        }
        if let Ok(m) = g.parse_move(&s, &text) {
            proptest::prop_assert_eq!(g.parse_move(&s, &g.format_move(&s, m)).unwrap(), m);
        }
        let _ = g.solve_report(&Report { position: Some(text.clone()), ..Report::default() }, &|_| {});
        let _ = Variant::parse(&text).map(|v| Poggle::from_variant(&v));
    }

    #[test]
    fn board_like_text_round_trips(cells in proptest::collection::vec(0u8..40, 16), k in 2u32..=60) {
        let g = Poggle::new(4, k);
        let cells: Vec<u8> = cells.into_iter().map(|c| (c as u32 % k) as u8).collect();
        let s = PoggleState { cells };
        let text = g.format_position(&s);
        proptest::prop_assert_eq!(g.parse_position(&text).unwrap(), s);
    }
}

#[test]
fn two_hundred_fifty_six_colours_play_and_wrap() {
    // The largest documented colour count: every cell starts at 1 and a press wraps 255 to 0.
    let g = game("size=3,colours=256");
    let mut s = g.initial_state();
    assert_eq!(s.cells, vec![1u8; 9]);
    assert_eq!(g.turn(&s), Turn::Move(0));
    let centre = g.parse_move(&s, "2,2").unwrap();
    for _ in 0..255 {
        g.play_unchecked(&mut s, centre);
    }
    // The centre and its four neighbours went round once: 1 + 255 = 256 = 0 (mod 256).
    assert_eq!(s.cells, vec![1, 0, 1, 0, 0, 0, 1, 0, 1]);
    assert_eq!(g.view(&s).cells.len(), 9);
    assert_eq!(g.format_position(&s), "1.0.1/0.0.0/1.0.1");
    let r = g
        .solve_report(&Report::default(), &|_| {})
        .unwrap()
        .unwrap();
    assert!(solvable(&r));
}

#[test]
fn the_board_number_is_offered_only_where_a_start_is_dealt() {
    let fixed = game("").presentation();
    assert_eq!(fixed.board_number, None);
    assert_eq!(fixed.idle_options, ["seed"]);
    let dealt = game("start=random").presentation();
    assert_eq!(dealt.board_number, Some("seed"));
    assert!(dealt.idle_options.is_empty());
}
