//! One memory ledger for every table of an engine: its cache makes room for
//! another table, and a table that does not fit beside the ones held is refused
//! up front. (In an engine of its own, over a ledger of its own: other tests'
//! tables would be in the process's.)

use rusty_fork::rusty_fork_test;
use tabula_core::{set_default_max_memory, Budget, Ledger, Report};
use tabula_engine::MatchConfig;

#[test]
fn tables_share_one_limit_the_cache_makes_room_and_a_build_is_refused_beside_held_tables() {
    let engine = crate::own_engine(300 << 20);
    let ledger = engine.ledger();
    let build = |name: &str, variant: &str| engine.build(name, variant).unwrap();

    // A solved game in the engine's cache is counted in the ledger.
    let before = ledger.in_use();
    let game = build("northcott", "size=5x2");
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
    let again = build("northcott", "size=5x2");
    assert_eq!(again.memory_bytes(), 0, "the cached solution was forgotten");
    drop(again);
    drop(other);

    // The engine's generic solutions reserve their build before it starts.
    // Everything but 1 KiB is held by another table (the cache is emptied).
    let room_left = 1024;
    let held = ledger
        .reserve(
            "another table",
            ledger.limit() - ledger.reserved() - room_left,
        )
        .unwrap();
    // Nim bounds its positions and `tabula solve` runs the generic solver on it,
    // whose estimate does not fit the 1 KiB left.
    let reserved = ledger.reserved();
    let nim = build("nim", "");
    let err = nim
        .solve(&Report::default(), &|_| {})
        .expect_err("no room for Nim's solve");
    let text = err.to_string();
    assert!(
        text.contains("Nim") && text.contains("other tables already hold"),
        "{text}"
    );
    assert_eq!(ledger.reserved(), reserved, "a refused build holds nothing");
    // Tic-tac-toe does not bound its positions: it solves under the caller's
    // budget (the server makes room by evicting idle sessions first).
    let ttt = build("tictactoe", "");
    let perfect = |game: &dyn tabula_engine::DynGame| {
        game.new_match(MatchConfig {
            players: vec!["perfect".into(), "human".into()],
            seed: 1,
            position: None,
            undo_depth: None,
        })
        .map(|_| ())
    };
    drop(held);
    // ...and built once the room is there (the refusal was not kept).
    perfect(&*ttt).expect("room for tic-tac-toe's solution now");
    assert!(ttt.memory_bytes() > 1000, "{}", ttt.memory_bytes());
    // A solve holds its reservation only while it runs.
    let reserved = ledger.reserved();
    nim.solve(&Report::default(), &|_| {})
        .expect("room for Nim's solve now");
    assert_eq!(ledger.reserved(), reserved, "the reservation was released");
    drop((nim, ttt));

    // A game's own solver (Poggle's linear algebra: about 4 bytes a button, 244
    // MiB for 8000x8000) reserves what it uses while it runs: refused beside
    // tables that leave it 100 MiB, within the ledger's 300 MiB and the solve's
    // own 1 GiB.
    let held = ledger
        .reserve(
            "another table",
            ledger.limit() - ledger.reserved() - (100 << 20),
        )
        .unwrap();
    let reserved = ledger.reserved();
    let poggle = build("poggle", "size=8000");
    let err = poggle
        .solve(&Report::default(), &|_| {})
        .expect_err("no room for an 8000x8000 Poggle solve");
    let text = err.to_string();
    assert!(
        text.contains("Poggle") && text.contains("other tables already hold"),
        "{text}"
    );
    assert_eq!(ledger.reserved(), reserved, "a refused solve holds nothing");
    // A board that fits the room left is solved, and gives its room back.
    build("poggle", "size=500")
        .solve(&Report::default(), &|_| {})
        .expect("a 500x500 board fits");
    assert_eq!(ledger.reserved(), reserved, "the reservation was released");
    drop(held);
}

// Kono's table is kept for the process once built (another test of this binary
// may have built it): this one runs in a process of its own, where it is not.
rusty_fork_test! {
    #![rusty_fork(timeout_ms = crate::OWN_PROCESS_TIMEOUT_MS)]

    #[test]
    fn a_game_table_that_does_not_fit_beside_the_held_ones_is_refused_at_once() {
        let engine = crate::own_engine(300 << 20);
        let ledger = engine.ledger();
        // Kono's table (about 150 MiB to load, 260 MiB to solve) fits 300 MiB
        // alone, but not beside 200 MiB held by another table: refused at once,
        // saying why.
        let held = ledger.reserve("another table", 200 << 20).unwrap();
        let kono = engine.build("kono", "").unwrap();
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
    }

    #[test]
    fn the_process_max_memory_is_its_default_ledgers_limit_and_its_default_budgets() {
        set_default_max_memory(123 << 20);
        assert_eq!(Ledger::global().limit(), 123 << 20);
        assert_eq!(Budget::default().max_memory_bytes, 123 << 20);
        // An engine of its own keeps its own limit.
        let engine = crate::own_engine(300 << 20);
        assert_eq!(Budget::within(engine.ledger()).max_memory_bytes, 300 << 20);
    }
}
