//! The cache of built games and their solutions: variants that differ only in
//! rules of actual play share one solution, and the cache is bounded in bytes.
//! (In an engine of its own: other tests' tables would be in the process's.)

use tabula_core::DEFAULT_MAX_MEMORY;

#[test]
fn solutions_are_shared_by_play_rules_and_bounded_in_bytes() {
    let engine = crate::own_engine(DEFAULT_MAX_MEMORY);
    let build = |name: &str, variant: &str| engine.build(name, variant).unwrap();
    // Northcott's `repetition` and Kono's `nocapture` change only actual play.
    let a = build("northcott", "size=5x2");
    let b = build("northcott", "size=5x2,repetition=0");
    let c = build("northcott", "size=6x2");
    assert_eq!(a.tables_id(), b.tables_id());
    assert_ne!(a.tables_id(), c.tables_id());
    assert_eq!(
        a.info().variant,
        "first=o,progress=on,repetition=3,size=5x2"
    );
    assert_eq!(
        b.info().variant,
        "first=o,progress=on,repetition=0,size=5x2"
    );
    let k1 = build("kono", "nocapture=0");
    let k2 = build("kono", "");
    assert_eq!(k1.tables_id(), k2.tables_id());

    assert_eq!(a.memory_bytes(), 0, "nothing is solved before it is needed");
    assert!(a.prepare(&|_| {}));
    let solved = a.memory_bytes();
    assert!(solved > 1000, "a solved board reports its size ({solved})");
    assert_eq!(b.memory_bytes(), solved, "one solution for both variants");
    let (_, bytes) = engine.cache_usage();
    assert!(bytes >= solved);
    drop((a, b, c, k1, k2));

    // A bound of a little more than one solution: solving others forgets the
    // least recently used, and a forgotten game is built again unsolved.
    engine.set_cache_max_memory(solved + solved / 2);
    for cols in [6, 7, 8] {
        let h = build("northcott", &format!("size={cols}x2"));
        assert!(h.prepare(&|_| {}));
        drop(h);
        build("tictactoe", "");
        let (_, bytes) = engine.cache_usage();
        let newest = build("northcott", &format!("size={cols}x2")).memory_bytes();
        assert!(
            bytes <= (solved + solved / 2).max(newest),
            "{bytes} bytes cached over the bound"
        );
    }
    let again = build("northcott", "size=5x2,repetition=0");
    assert_eq!(again.memory_bytes(), 0, "the evicted solution was freed");
}

#[test]
fn engines_keep_their_games_and_tables_apart() {
    let first = crate::own_engine(DEFAULT_MAX_MEMORY);
    let second = crate::own_engine(DEFAULT_MAX_MEMORY);
    let solved = first.build("tictactoe", "").unwrap();
    assert!(solved.prepare(&|_| {}));
    assert!(first.tables_in_use() > 1000, "{}", first.tables_in_use());
    assert!(first.ledger().in_use() >= solved.memory_bytes());
    let other = second.build("tictactoe", "").unwrap();
    assert_ne!(solved.tables_id(), other.tables_id());
    assert_eq!(other.memory_bytes(), 0, "the other engine solved nothing");
    assert_eq!(second.tables_in_use(), 0);
    assert_eq!(second.ledger().in_use(), 0);
    assert_eq!(second.cache_usage(), (1, 0));
}
