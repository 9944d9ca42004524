use super::*;
use crate::reach::Seated;
use proptest::prelude::*;
use std::collections::HashSet;
use tabula_ai::lookahead::Lookahead;
use tabula_ai::players::{LeveledPlayer, PerfectPlayer, RandomPlayer};
use tabula_ai::retrograde::Solution;
use tabula_core::{rng_from_seed, GameExt, Strategy, Value};

fn standard() -> Kono {
    Kono::new(KonoRules::Standard)
}

fn gamesman() -> Kono {
    Kono::new(KonoRules::Gamesman)
}

fn moves_text(game: &Kono, state: &KonoState) -> Vec<String> {
    let mut v: Vec<String> = game
        .moves(state)
        .iter()
        .map(|&m| game.format_move(state, m))
        .collect();
    v.sort();
    v
}

fn pos(game: &Kono, text: &str) -> KonoState {
    game.parse_position(text)
        .unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn seated(state: &KonoState) -> Seated {
    let (mover, opponent) = state.masks();
    Seated {
        mover,
        opponent,
        seat: state.to_move,
    }
}

/// Small positions (at most 6 pieces) used to compare the fast solver with the generic one.
const SMALL_STARTS: [&str; 6] = [
    "x.../.o../..x./...o x",
    "xx../.o../o.x./...o o",
    "xxx./..../.ooo/.... x",
    "x.x./.x.o/o..o/.... x",
    "..../xxo./.oo./.x.. o",
    "xo../ox../..../.... x",
];

#[test]
fn start_has_only_the_four_captures() {
    let g = standard();
    let s = g.initial_state();
    assert_eq!(g.format_position(&s), "xxxx/xxxx/oooo/oooo x");
    assert_eq!(moves_text(&g, &s), vec!["a4xa2", "b4xb2", "c4xc2", "d4xd2"]);
    assert_eq!(g.turn(&s), Turn::Move(0));
    let mv = g.parse_move(&s, "a4xa2").unwrap();
    assert!(mv.is_capture());
    assert_eq!(g.describe_move(&s, mv), "a4xa2 (jumps a3, takes a2)");
    let mut t = s;
    g.try_play(&mut t, mv).unwrap();
    assert_eq!(g.format_position(&t), ".xxx/xxxx/xooo/oooo o");
    // The only empty cell, a4, has no Bottom neighbour: Bottom must capture, and
    // a1 cannot jump a2, which is Top's now.
    assert_eq!(moves_text(&g, &t), vec!["b1xb3", "c1xc3", "c2xa2", "d1xd3"]);
}

#[test]
fn steps_and_optional_captures() {
    let g = standard();
    // Top: a4, a3; Bottom: a2, d1. Top may capture a4xa2 or step.
    let s = pos(&g, "x.../x.../o.../...o x");
    assert_eq!(moves_text(&g, &s), vec!["a3-b3", "a4-b4", "a4xa2"]);
    let gm = gamesman();
    assert_eq!(
        moves_text(&gm, &s),
        vec!["a4xa2"],
        "captures are compulsory under gamesman rules"
    );
}

#[test]
fn losing_conditions() {
    let g = standard();
    // Bottom to move with no pieces: lost.
    let s = pos(&g, "x.../..../..../.... o");
    assert_eq!(g.turn(&s), Turn::Over(Outcome::Win(0)));
    // Bottom's only piece in the corner, blocked by Top pieces it cannot jump.
    let s = pos(&g, "..../..../x.../ox.. o");
    assert_eq!(g.turn(&s), Turn::Over(Outcome::Win(0)));
    // One piece that can move: the game goes on under the standard rules...
    let s = pos(&g, "..../..../..../o..x o");
    assert_eq!(g.turn(&s), Turn::Move(1));
    // ...but under GamesmanClassic's rules one piece left loses.
    assert_eq!(gamesman().turn(&s), Turn::Over(Outcome::Win(0)));
    let s = pos(&g, "..../..../..../oo.x o");
    assert_eq!(gamesman().turn(&s), Turn::Move(1));
}

#[test]
fn try_play_explains_illegal_moves() {
    let g = standard();
    let s = pos(&g, "x.../x.../o.../...o x");
    let err = |game: &Kono, text: &str| {
        let mut t = s;
        let mv = game.parse_move(&s, text).unwrap();
        game.try_play(&mut t, mv).unwrap_err().to_string()
    };
    assert!(err(&g, "a2-b2").contains("not yours"));
    assert!(err(&g, "b4-c4").contains("no piece"));
    assert!(err(&g, "a3-a2").contains("empty cell"));
    assert!(err(&g, "a3xa1").contains("own pieces"));
    let mut empty_landing = pos(&g, "x.../x.../..../...o x");
    let mv = g.parse_move(&empty_landing, "a4xa2").unwrap();
    assert!(g
        .try_play(&mut empty_landing, mv)
        .unwrap_err()
        .to_string()
        .contains("enemy"));
    assert!(err(&gamesman(), "a4-b4").contains("compulsory"));
    assert!(g.parse_move(&s, "a4-c2").is_err(), "not in a line");
    assert!(g.parse_move(&s, "a4-a4").is_err());
    assert!(g.parse_move(&s, "e4-a4").is_err());
    assert!(g.parse_move(&s, "").is_err());
    assert!(g.parse_move(&s, "a4").is_err());
}

#[test]
fn bad_positions_are_rejected() {
    let g = standard();
    for bad in [
        "",
        "xxxx/xxxx/oooo/oooo",
        "xxxx/xxxx/oooo/oooo z",
        "xxxx/xxxx/oooo x",
        "xxxx/xxxx/oooo/ooo x",
        "xxxx/xxxx/oooo/ooooo x",
        "xxxx/xxxx/xooo/oooo o",
        "xxxx/xxxx/oo?o/oooo x",
        "5/4/4/4 x",
        "xxxx/xxxx/oooo/oooo x x",
    ] {
        assert!(g.parse_position(bad).is_err(), "{bad:?} should be rejected");
    }
    assert_eq!(pos(&g, "4/x3/2o1/4 o"), pos(&g, "..../x.../..o./.... o"));
}

#[test]
fn fast_solver_agrees_with_the_generic_solver() {
    for rules in [KonoRules::Standard, KonoRules::Gamesman] {
        let g = Kono::new(rules);
        for text in SMALL_STARTS {
            let start = pos(&g, text);
            let table = KonoTable::solve_from(rules, seated(&start), &|_| {});
            let generic = Solution::solve(&g, &start, 5_000_000).unwrap();
            let mut compared = 0;
            for (state, grade) in generic.iter() {
                let (m, o) = state.masks();
                assert_eq!(
                    table.grade(m, o),
                    Some(grade),
                    "{rules:?} {}",
                    g.format_position(state)
                );
                compared += 1;
            }
            let st = generic.stats();
            let s = table.summary;
            assert_eq!(
                (s.positions, s.wins, s.losses, s.draws, s.max_remoteness),
                (
                    st.positions as u64,
                    st.wins as u64,
                    st.losses as u64,
                    st.draws as u64,
                    st.max_remoteness
                ),
                "{rules:?} from {text}"
            );
            assert_eq!(s.start, st.start);
            assert!(compared > 10);
        }
    }
}

#[test]
fn small_tables_pass_the_independent_check() {
    for rules in [KonoRules::Standard, KonoRules::Gamesman] {
        let table =
            KonoTable::solve_from(rules, seated(&pos(&standard(), SMALL_STARTS[1])), &|_| {});
        let check = verify::check_table(rules, &table.values, table.max_total);
        assert_eq!(check.errors, 0, "{rules:?}: {:?}", check.examples);
        assert_eq!(check.checked, table.values.len() as u64);
        // The check can fail: spoil one decided value and it is caught.
        let mut spoiled = table.values.clone();
        let i = spoiled
            .iter()
            .position(|v| v & solve::KIND == solve::WIN)
            .unwrap();
        spoiled[i] = solve::LOSS | (spoiled[i] & solve::REMOTENESS);
        assert!(verify::check_table(rules, &spoiled, table.max_total).errors > 0);
    }
}

#[test]
fn symmetric_positions_share_values() {
    let rules = KonoRules::Standard;
    let table = KonoTable::solve_from(rules, seated(&pos(&standard(), SMALL_STARTS[2])), &|_| {});
    let s = &*sym::SYM;
    let mut checked = 0;
    for index in (0..table.values.len() as u64).step_by(97) {
        let (m, o) = index::INDEX.position(index);
        let v = table.grade(m, o);
        for g in 0..8 {
            assert_eq!(table.grade(s.apply(g, m), s.apply(g, o)), v);
        }
        checked += 1;
    }
    assert!(checked > 1000);
}

#[test]
fn mirror_symmetry_maps_moves() {
    let g = standard();
    let mut rng = rng_from_seed(3);
    for _ in 0..50 {
        let mut s = g.initial_state();
        g.random_playout(&mut s, &mut rng, 12);
        for k in 0..g.symmetry_count() {
            let image = g.map_state(&s, k);
            assert_eq!(g.map_state(&image, g.inverse_symmetry(k)), s);
            let mut mapped: Vec<KonoMove> =
                g.moves(&s).iter().map(|&m| g.map_move(&s, m, k)).collect();
            let mut direct = g.moves(&image);
            mapped.sort();
            direct.sort();
            assert_eq!(mapped, direct);
        }
    }
}

#[test]
fn reachability_counts_both_seats() {
    // From a position with Top to move, the same board with Bottom to move is a
    // different position; counts include the side to move.
    let g = standard();
    let start = pos(&g, SMALL_STARTS[0]);
    let table = KonoTable::solve_from(KonoRules::Standard, seated(&start), &|_| {});
    let mut seen = HashSet::new();
    let mut stack = vec![start];
    while let Some(s) = stack.pop() {
        if !seen.insert(s) {
            continue;
        }
        for mv in g.moves(&s) {
            let mut t = s;
            g.play_unchecked(&mut t, mv);
            stack.push(t);
        }
    }
    assert_eq!(table.summary.positions, seen.len() as u64);
}

#[test]
fn cache_round_trip_and_rejects_damage() {
    let dir = std::env::temp_dir().join(format!("tabula-kono-test-{}", std::process::id()));
    let disk = tabula_core::DiskCache::new(&dir, 1 << 30);
    let len = index::INDEX.len() as usize;
    let values: Vec<u16> = (0..len)
        .map(|i| [solve::DRAW, solve::WIN | 3, solve::LOSS | 2][i % 3])
        .collect();
    let table = KonoTable {
        rules: KonoRules::Standard,
        values,
        max_total: 16,
        start: table::start(),
        summary: reach::Summary {
            positions: 10,
            wins: 5,
            losses: 3,
            draws: 2,
            start: Graded {
                value: Value::Draw,
                remoteness: 0,
            },
            max_remoteness: 7,
        },
        solve_seconds: 1.5,
    };
    let path = cache::save(&disk, &table).unwrap();
    let back = cache::load(&disk, KonoRules::Standard).unwrap();
    assert_eq!(back.values, table.values);
    assert_eq!(back.summary, table.summary);
    assert_eq!(back.solve_seconds, 1.5);
    assert!(
        cache::load(&disk, KonoRules::Gamesman).is_err(),
        "other rules"
    );
    // One flipped byte in the data: ignored, never trusted.
    let mut bytes = std::fs::read(&path).unwrap();
    let mid = bytes.len() / 2;
    bytes[mid] ^= 0x40;
    std::fs::write(&path, &bytes).unwrap();
    let err = cache::load(&disk, KonoRules::Standard)
        .err()
        .expect("a damaged file is refused");
    assert!(err.to_string().contains("damaged"), "{err}");
    // A truncated file, a file of another version, a missing file.
    bytes[mid] ^= 0x40;
    std::fs::write(&path, &bytes[..bytes.len() - 2]).unwrap();
    assert!(cache::load(&disk, KonoRules::Standard).is_err());
    bytes[12] = bytes[12].wrapping_add(1);
    std::fs::write(&path, &bytes).unwrap();
    assert!(cache::load(&disk, KonoRules::Standard).is_err());
    std::fs::remove_file(&path).unwrap();
    assert!(cache::load(&disk, KonoRules::Standard).is_err());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn cache_path_follows_the_environment_variable() {
    // Only reads the variable when set; the default is the platform cache dir.
    if let Some(p) = cache::cache_path(KonoRules::Gamesman) {
        let name = p.file_name().unwrap().to_string_lossy().to_string();
        assert!(name.starts_with("kono-gamesman-v"), "{name}");
    }
}

/// Plays a game between the perfect player (seat `perfect_seat`) and another;
/// the perfect side's value must never get worse.
fn play_and_check(
    g: &Kono,
    start: KonoState,
    oracle: &KonoOracle,
    opponent: Box<dyn Strategy<Kono>>,
    perfect_seat: usize,
    seed: u64,
) {
    let perfect: Box<dyn Strategy<Kono>> = Box::new(PerfectPlayer::new(Arc::new(KonoOracle {
        table: oracle.table.clone(),
    })));
    let mut players = if perfect_seat == 0 {
        [perfect, opponent]
    } else {
        [opponent, perfect]
    };
    let mut rng = rng_from_seed(seed);
    let value_for_perfect = |s: &KonoState| {
        let v = oracle.grade(g, s).expect("covered").value;
        if usize::from(s.to_move) == perfect_seat {
            v
        } else {
            v.flip()
        }
    };
    let mut s = start;
    let initial = value_for_perfect(&s);
    for _ in 0..200 {
        let Turn::Move(seat) = g.turn(&s) else { break };
        let c = players[seat].choose(g, &s, seat, &mut rng).expect("a move");
        g.try_play(&mut s, c.mv).expect("legal");
        assert!(
            value_for_perfect(&s) >= initial,
            "perfect player's value fell from {initial:?}"
        );
    }
    if initial != Value::Loss {
        assert_ne!(g.turn(&s), Turn::Over(Outcome::Win(1 - perfect_seat)));
    }
    if initial == Value::Win {
        assert_eq!(
            g.turn(&s),
            Turn::Over(Outcome::Win(perfect_seat)),
            "a won position is converted"
        );
    }
}

#[test]
fn perfect_player_never_loses_a_drawn_or_won_position() {
    for rules in [KonoRules::Standard, KonoRules::Gamesman] {
        let g = Kono::new(rules);
        for (i, text) in SMALL_STARTS.iter().enumerate() {
            let start = pos(&g, text);
            let oracle = KonoOracle {
                table: Arc::new(KonoTable::solve_from(rules, seated(&start), &|_| {})),
            };
            for game_no in 0..16u64 {
                let seed = game_no * 31 + i as u64;
                let mut rng = rng_from_seed(seed);
                let mut s = start;
                g.random_playout(&mut s, &mut rng, (game_no % 5) as usize);
                if g.turn(&s).is_over() {
                    continue;
                }
                let perfect = || {
                    PerfectPlayer::new(Arc::new(KonoOracle {
                        table: oracle.table.clone(),
                    }))
                };
                let opponent: Box<dyn Strategy<Kono>> = match game_no % 4 {
                    0 => Box::new(RandomPlayer),
                    1 => Box::new(Lookahead),
                    2 => Box::new(LeveledPlayer::new(
                        [25, 66, 95][(game_no / 4 % 3) as usize],
                        Box::new(perfect()),
                    )),
                    _ => Box::new(perfect()),
                };
                play_and_check(&g, s, &oracle, opponent, (game_no / 4 % 2) as usize, seed);
            }
        }
    }
}

#[test]
fn lookahead_takes_wins_and_is_the_level_base() {
    let g = standard();
    assert_eq!(g.level_base(), "lookahead");
    // Top captures Bottom's last piece: a4xa2 wins at once.
    let s = pos(&g, "x.../x.../o.../.... x");
    let mut player = Lookahead;
    let c = player.choose(&g, &s, 0, &mut rng_from_seed(1)).unwrap();
    assert_eq!(g.format_move(&s, c.mv), "a4xa2");
}

#[test]
fn view_is_a_four_by_four_grid() {
    let g = standard();
    let s = g.initial_state();
    let v = g.view(&s);
    assert_eq!(v.cells.len(), 16);
    assert_eq!(v.pieces.len(), 16);
    assert_eq!(v.cells[0].label.as_deref(), Some("a4"));
    assert_eq!(v.cells[15].label.as_deref(), Some("d1"));
    assert_eq!(v.pieces.iter().filter(|p| p.owner == Some(0)).count(), 8);
    let mv = g.parse_move(&s, "b4xb2").unwrap();
    assert_eq!(g.move_cells(&s, mv), vec![1, 9]);
    let text = g.render_text(&s);
    assert!(text.contains("4 x x x x 4"), "{text}");
    assert!(text.contains("Top (x) to move"));
}

#[test]
fn variants_and_draw_rules() {
    for text in [
        "",
        "standard",
        "gamesman",
        "rules=gamesman,nocapture=0",
        "nocapture=40",
    ] {
        let g = Kono::from_variant(&Variant::parse(text).unwrap()).unwrap();
        assert_eq!(Kono::from_variant(&g.variant()).unwrap(), g);
    }
    let g = Kono::from_variant(&Variant::parse("nocapture=40").unwrap()).unwrap();
    assert_eq!(g.play_draw_rule().plies_without_progress, Some(40));
    assert_eq!(g.play_draw_rule().repetitions, Some(3));
    let g = Kono::from_variant(&Variant::parse("nocapture=0").unwrap()).unwrap();
    assert_eq!(g.play_draw_rule().plies_without_progress, None);
    assert_eq!(
        standard().play_draw_rule().plies_without_progress,
        Some(DEFAULT_NO_CAPTURE)
    );
    for bad in ["rules=chess", "nocapture=-1", "nocapture=x", "size=5"] {
        assert!(
            Kono::from_variant(&Variant::parse(bad).unwrap()).is_err(),
            "{bad}"
        );
    }
    let s = standard().initial_state();
    let capture = standard().parse_move(&s, "a4xa2").unwrap();
    assert!(standard().is_progress(&s, capture));
    assert!(!standard().is_progress(&s, KonoMove { from: 4, to: 0 }));
}

#[test]
fn oracle_refuses_other_rules_and_uncovered_positions() {
    let table = Arc::new(KonoTable::solve_from(
        KonoRules::Standard,
        seated(&pos(&standard(), SMALL_STARTS[0])),
        &|_| {},
    ));
    let oracle = KonoOracle { table };
    assert!(oracle
        .grade(&gamesman(), &pos(&standard(), SMALL_STARTS[0]))
        .is_none());
    assert!(
        oracle
            .grade(&standard(), &standard().initial_state())
            .is_none(),
        "16 pieces: beyond this table"
    );
    assert!(oracle
        .grade(&standard(), &pos(&standard(), SMALL_STARTS[0]))
        .is_some());
}

proptest! {
    #[test]
    fn notation_round_trips_and_moves_are_legal(seed in 0u64..100_000, plies in 0usize..30, gm in any::<bool>()) {
        let g = if gm { gamesman() } else { standard() };
        let mut rng = rng_from_seed(seed);
        let mut s = g.initial_state();
        g.random_playout(&mut s, &mut rng, plies);
        let text = g.format_position(&s);
        prop_assert_eq!(g.parse_position(&text).unwrap(), s);
        let legal: HashSet<KonoMove> = g.moves(&s).into_iter().collect();
        for &mv in &legal {
            let t = g.format_move(&s, mv);
            prop_assert_eq!(g.parse_move(&s, &t).unwrap(), mv);
            let mut after = s;
            prop_assert!(g.try_play(&mut after, mv).is_ok());
        }
        // Every other step or jump is refused by try_play.
        for from in 0..16u8 {
            for to in 0..16u8 {
                let mv = KonoMove { from, to };
                if legal.contains(&mv) || !(rules::is_step(from.into(), to.into()) || rules::is_jump(from.into(), to.into())) {
                    continue;
                }
                let mut after = s;
                prop_assert!(g.try_play(&mut after, mv).is_err());
            }
        }
    }

    #[test]
    fn parsing_never_panics(text in ".{0,40}") {
        let g = standard();
        let _ = g.parse_position(&text);
        let _ = g.parse_move(&g.initial_state(), &text);
    }
}

/// A solve asks whether to stop between its levels, and stops when told: a
/// cancelled build of the table gives its thread and memory back early.
#[test]
fn a_solve_stops_when_told_and_otherwise_matches() {
    use std::sync::atomic::{AtomicUsize, Ordering};
    let rules = KonoRules::Standard;
    let whole = crate::solve::solve(rules, 5, &|_| {});
    let asked = AtomicUsize::new(0);
    let never = crate::solve::solve_until(rules, 5, &|_| {}, &|| {
        asked.fetch_add(1, Ordering::Relaxed);
        false
    })
    .expect("never stopped");
    assert_eq!(never.values, whole.values);
    let questions = asked.load(Ordering::Relaxed);
    assert!(questions > 6, "asked {questions} times for 6 groups");
    // Told to stop at the third question: no table, and no more work asked about.
    let asked = AtomicUsize::new(0);
    let stopped = crate::solve::solve_until(rules, 5, &|_| {}, &|| {
        asked.fetch_add(1, Ordering::Relaxed) >= 2
    });
    assert!(stopped.is_none());
    assert_eq!(asked.load(Ordering::Relaxed), 3);
}
