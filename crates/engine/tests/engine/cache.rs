//! The cache of built games and their solutions: variants that differ only in
//! rules of actual play share one solution, and the cache is bounded in bytes.
//! (It runs in a process of its own: the cache is process-wide, and other
//! tests' tables would be in it.)

use rusty_fork::rusty_fork_test;
use tabula_engine::{build, cache_usage, set_cache_max_memory};

rusty_fork_test! {
    #![rusty_fork(timeout_ms = crate::OWN_PROCESS_TIMEOUT_MS)]

    #[test]
    fn solutions_are_shared_by_play_rules_and_bounded_in_bytes() {
        // Northcott's `repetition` and Kono's `nocapture` change only actual play.
        let a = build("northcott", "size=5x2").unwrap();
        let b = build("northcott", "size=5x2,repetition=0").unwrap();
        let c = build("northcott", "size=6x2").unwrap();
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
        let k1 = build("kono", "nocapture=0").unwrap();
        let k2 = build("kono", "").unwrap();
        assert_eq!(k1.tables_id(), k2.tables_id());

        assert_eq!(a.memory_bytes(), 0, "nothing is solved before it is needed");
        assert!(a.prepare(&|_| {}));
        let solved = a.memory_bytes();
        assert!(solved > 1000, "a solved board reports its size ({solved})");
        assert_eq!(b.memory_bytes(), solved, "one solution for both variants");
        let (_, bytes) = cache_usage();
        assert!(bytes >= solved);
        drop((a, b, c, k1, k2));

        // A bound of a little more than one solution: solving others forgets the
        // least recently used, and a forgotten game is built again unsolved.
        set_cache_max_memory(solved + solved / 2);
        for cols in [6, 7, 8] {
            let h = build("northcott", &format!("size={cols}x2")).unwrap();
            assert!(h.prepare(&|_| {}));
            drop(h);
            build("tictactoe", "").unwrap();
            let (_, bytes) = cache_usage();
            let newest = build("northcott", &format!("size={cols}x2"))
                .unwrap()
                .memory_bytes();
            assert!(
                bytes <= (solved + solved / 2).max(newest),
                "{bytes} bytes cached over the bound"
            );
        }
        let again = build("northcott", "size=5x2,repetition=0").unwrap();
        assert_eq!(again.memory_bytes(), 0, "the evicted solution was freed");
    }
}
