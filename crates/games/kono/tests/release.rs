//! The full Kono solve, checked from every side. Too slow for a debug build:
//! `cargo test --release -p tabula-kono -- --ignored`.

use std::collections::VecDeque;
use std::sync::Arc;
use tabula_core::{Game, GameExt, Oracle, Value};
use tabula_kono::index::INDEX;
use tabula_kono::{cache, verify, Kono, KonoOracle, KonoRules, KonoState, KonoTable};

/// Counts of a plain breadth-first search over real positions through the
/// `Game` interface only (no masks, no symmetry, no index), graded by the oracle.
fn plain_counts(game: &Kono, oracle: &KonoOracle) -> (u64, u64, u64, u64, u32) {
    let code = |s: &KonoState| {
        let mut c = 0u64;
        for cell in (0..16).rev() {
            let v = if s.top >> cell & 1 == 1 {
                1
            } else if s.bottom >> cell & 1 == 1 {
                2
            } else {
                0
            };
            c = c * 3 + v;
        }
        c * 2 + u64::from(s.to_move)
    };
    let mut seen = vec![0u64; (2 * 3u64.pow(16)).div_ceil(64) as usize];
    let mut mark = |s: &KonoState| {
        let c = code(s);
        let (w, b) = ((c / 64) as usize, c % 64);
        let new = seen[w] >> b & 1 == 0;
        seen[w] |= 1 << b;
        new
    };
    let start = game.initial_state();
    mark(&start);
    let mut queue = VecDeque::from([start]);
    let (mut positions, mut wins, mut losses, mut draws, mut max_r) =
        (0u64, 0u64, 0u64, 0u64, 0u32);
    let mut buf = Vec::new();
    while let Some(s) = queue.pop_front() {
        positions += 1;
        let g = oracle
            .grade(game, &s)
            .expect("every position is in the table");
        match g.value {
            Value::Win => wins += 1,
            Value::Loss => losses += 1,
            Value::Draw => draws += 1,
        }
        if g.value != Value::Draw {
            max_r = max_r.max(g.remoteness);
        }
        if game.turn(&s).is_over() {
            continue;
        }
        buf.clear();
        game.legal_moves(&s, &mut buf);
        for &mv in &buf {
            let mut t = s;
            game.play_unchecked(&mut t, mv);
            if mark(&t) {
                queue.push_back(t);
            }
        }
    }
    (positions, wins, losses, draws, max_r)
}

#[test]
#[ignore = "solves all of Kono twice; run in release mode with --ignored"]
fn full_solve_release() {
    // The two rule sets at once: each solve and check spreads over the cores, but
    // the plain search below runs on one, and it is most of the time.
    std::thread::scope(|scope| {
        let checks = [KonoRules::Standard, KonoRules::Gamesman]
            .map(|rules| scope.spawn(move || check_rules(rules)));
        for check in checks {
            if let Err(panic) = check.join() {
                std::panic::resume_unwind(panic);
            }
        }
    });
}

/// One rule set's full solve, checked from every side.
fn check_rules(rules: KonoRules) {
    let game = Kono::new(rules);
    let table = KonoTable::solve_full(rules, &|_| {});
    let s = table.summary;
    println!(
        "{}: {} positions, {} wins, {} losses, {} draws, start {:?}, max remoteness {}, {:.2} s",
        rules.word(),
        s.positions,
        s.wins,
        s.losses,
        s.draws,
        s.start,
        s.max_remoteness,
        table.solve_seconds
    );
    assert_eq!(s.positions, s.wins + s.losses + s.draws);
    assert_eq!(table.values.len() as u64, INDEX.len());

    // Every win has a move to a loss one ply nearer the end and none to a nearer
    // loss; every loss moves only to wins; every draw keeps a draw and gives no loss.
    let check = verify::check_table(rules, &table.values, 16);
    assert_eq!(check.checked, INDEX.len());
    assert_eq!(
        check.errors, 0,
        "inconsistent positions: {:?}",
        check.examples
    );

    // The counts again, by a search that shares no code with the solver's.
    let table = Arc::new(table);
    let oracle = KonoOracle {
        table: table.clone(),
    };
    let plain = plain_counts(&game, &oracle);
    assert_eq!(
        plain,
        (s.positions, s.wins, s.losses, s.draws, s.max_remoteness)
    );

    // The start's value is what its best move says.
    let start = game.initial_state();
    let best = game
        .moves(&start)
        .into_iter()
        .map(|mv| {
            let mut t = start;
            game.play_unchecked(&mut t, mv);
            oracle.grade(&game, &t).expect("graded").as_move_grade()
        })
        .max_by_key(|g| g.rank())
        .expect("the start has moves");
    assert_eq!(best, s.start);

    // The cache file holds exactly the table.
    let dir = std::env::temp_dir().join(format!(
        "tabula-kono-release-{}-{}",
        std::process::id(),
        rules.word()
    ));
    let disk = tabula_core::DiskCache::new(&dir, 1 << 30);
    cache::save(&disk, &table).expect("write cache");
    let back = cache::load(&disk, rules).expect("read cache");
    assert_eq!(back.values, table.values);
    assert_eq!(back.summary, table.summary);
    let _ = std::fs::remove_dir_all(&dir);
}
