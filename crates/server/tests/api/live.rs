//! Training streamed as it goes ("watch it learn"): a train job's progress events
//! carry the learning curve so far, and with `watch` a fast run is spread out so a
//! person sees it grow.

use crate::common::Server;
use serde_json::json;

#[test]
fn a_watched_training_streams_its_curve_block_by_block() {
    let s = Server::start();
    let (st, job) = s.post(
        "/api/jobs",
        &json!({"kind": "train", "game": "tictactoe", "player": "menace", "seat": 0,
                "opponent": "random", "games": 200, "block": 10, "seed": 3, "watch": true}),
    );
    assert_eq!(st, 202, "{job}");
    let events = s.job_events(job["job_id"].as_str().unwrap());
    let (last, done) = events.last().unwrap();
    assert_eq!(last, "done", "{events:?}");
    let report = &done["result"]["report"];
    let full = report["curve"]["points"].as_array().unwrap();
    assert_eq!(full.len(), 20, "200 games in blocks of 10");
    // Every curve sent while training is the start of the final one, and they grow.
    let mut lengths = Vec::new();
    for (name, data) in &events {
        if let (true, Some(curve)) = (name == "progress", data["curve"].as_array()) {
            assert_eq!(
                &full[..curve.len()],
                &curve[..],
                "a streamed curve is the report's"
            );
            lengths.push(curve.len());
        }
    }
    assert!(lengths.windows(2).all(|w| w[0] <= w[1]), "{lengths:?}");
    lengths.dedup();
    // A few updates a second over the run: most blocks were seen as they ended.
    assert!(
        lengths.len() >= 10,
        "curves seen while training: {lengths:?}"
    );
    let games: u64 = full
        .iter()
        .map(|b| {
            b["wins"].as_u64().unwrap()
                + b["losses"].as_u64().unwrap()
                + b["draws"].as_u64().unwrap()
        })
        .sum();
    assert_eq!(games, 200);
}
