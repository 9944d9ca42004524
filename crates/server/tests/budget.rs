//! Live sessions' solution tables count against the one table budget: a client
//! opening many sessions with a perfect player over many variants cannot take
//! the server beyond it. Idle sessions leave memory (they stay in the store and
//! come back when asked for); a session that cannot fit is refused in plain words.
//!
//! Its own test binary: the table budget is one per process.

#[allow(dead_code)]
#[path = "api/common.rs"]
mod common;

use common::Server;
use serde_json::json;
use tabula_engine::{build, set_cache_max_memory, tables_in_use, trim_cache, DEFAULT_CACHE_BYTES};

/// Hexapawn's boards up to 3x5 and 4x4 in every play and capture rule (solved in
/// moments).
fn variants() -> Vec<String> {
    let mut out = Vec::new();
    for columns in 3..=4 {
        for rows in 3..=(8 - columns) {
            for play in ["normal", "misere"] {
                for capture in ["optional", "compulsory"] {
                    out.push(format!(
                        "columns={columns},rows={rows},play={play},capture={capture}"
                    ));
                }
            }
        }
    }
    out
}

#[test]
fn perfect_players_over_many_variants_stay_within_the_table_budget() {
    let variants = variants();
    let sizes: Vec<u64> = variants
        .iter()
        .map(|v| {
            let game = build("hexapawn", v).unwrap();
            assert!(game.prepare(&|_| {}));
            game.memory_bytes()
        })
        .collect();
    let largest = *sizes.iter().max().unwrap();
    let budget = largest + largest / 5;
    assert!(
        sizes.iter().sum::<u64>() > 2 * budget,
        "the variants' tables together must exceed the budget: {sizes:?}"
    );
    set_cache_max_memory(budget);
    trim_cache();
    assert!(tables_in_use() <= budget);

    let server = Server::start();
    let mut ids = Vec::new();
    for v in &variants {
        let (status, out) = server.post(
            "/api/sessions",
            &json!({"game": "hexapawn", "variant": v, "players": ["human", "perfect"], "seed": 1}),
        );
        assert_eq!(status, 201, "{v}: {out}");
        ids.push(out["id"].as_str().unwrap().to_string());
        assert!(
            tables_in_use() <= budget,
            "after {v}: {} bytes of tables alive, budget {budget}",
            tables_in_use()
        );
    }
    // The first session left memory long ago; it comes back from the store and plays.
    let (status, out) = server.get(&format!("/api/sessions/{}", ids[0]));
    assert_eq!(status, 200, "{out}");
    let mv = out["view"]["legal_moves"][0]["move"].clone();
    let (status, out) = server.post(
        &format!("/api/sessions/{}/moves", ids[0]),
        &json!({ "move": mv }),
    );
    assert_eq!(status, 200, "{out}");
    assert_eq!(
        out["played"].as_array().unwrap().len(),
        2,
        "the perfect reply"
    );
    assert!(tables_in_use() <= budget);

    // A budget smaller than any table: a session that needs one is refused, in
    // words, and one that needs none still starts.
    set_cache_max_memory(1);
    let (status, out) = server.call_any(
        "POST",
        "/api/sessions",
        Some(&json!({"game": "hexapawn", "variant": "columns=4,rows=5", "players": ["human", "perfect"]}).to_string()),
    );
    assert_eq!(status, 503, "{out}");
    let message = out["error"].as_str().unwrap();
    assert!(
        message.contains("memory for game solutions is full"),
        "{message}"
    );
    assert!(tables_in_use() <= 1);
    let (status, out) = server.post(
        "/api/sessions",
        &json!({"game": "hexapawn", "players": ["human", "human"]}),
    );
    assert_eq!(status, 201, "{out}");
    set_cache_max_memory(DEFAULT_CACHE_BYTES);
}
