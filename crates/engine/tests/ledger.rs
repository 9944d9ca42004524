//! One memory ledger for every table of the process: the engine's cache makes
//! room for another table, and a table that does not fit beside the ones held
//! is refused up front. (One test: the ledger and the cache are process-wide.)

use tabula_core::{set_default_max_memory, Budget, Ledger, Report};
use tabula_engine::build;

#[test]
fn tables_share_one_limit_the_cache_makes_room_and_a_build_is_refused_beside_held_tables() {
    let ledger = Ledger::global();
    ledger.set_limit(Some(300 << 20));

    // A solved game in the engine's cache is counted in the ledger.
    let before = ledger.in_use();
    let game = build("northcott", "size=5x2").unwrap();
    assert!(game.prepare(&|_| {}));
    let solved = game.memory_bytes();
    assert!(solved > 1000, "{solved}");
    assert!(
        ledger.in_use() >= before + solved,
        "the cache's tables are in the ledger"
    );
    drop(game);

    // Another table takes all the room but a little less than that solution:
    // the cache forgets the game to make room.
    let other = ledger
        .reserve("another table", (300 << 20) - ledger.in_use() + solved / 2)
        .expect("the cache makes room");
    let again = build("northcott", "size=5x2").unwrap();
    assert_eq!(again.memory_bytes(), 0, "the cached solution was forgotten");
    drop(again);
    drop(other);

    // Kono's table (about 150 MiB to load, 260 MiB to solve) fits 300 MiB
    // alone, but not beside 200 MiB held by another table: refused at once,
    // saying why.
    let held = ledger.reserve("another table", 200 << 20).unwrap();
    let kono = build("kono", "").unwrap();
    let request = Report {
        budget: Budget::default(),
        ..Report::default()
    };
    let started = std::time::Instant::now();
    let err = kono.solve(&request, &|_| {}).expect_err("no room for Kono");
    let text = err.to_string();
    assert!(
        text.contains("Kono") && text.contains("other tables already hold"),
        "{text}"
    );
    assert!(started.elapsed().as_secs() < 10, "refused before solving");
    drop(held);

    // Without a limit of its own the ledger's is the process's --max-memory.
    ledger.set_limit(None);
    set_default_max_memory(123 << 20);
    assert_eq!(ledger.limit(), 123 << 20);
}
