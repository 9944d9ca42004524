//! A matchbox machine learns from a game's end exactly once: undoing the end
//! takes the lesson back (in the session and in the stored boxes), and redoing
//! it does not teach it a second time.

use crate::common::Server;
use serde_json::{json, Value};
use tabula_store::LearnedKey;

fn learned(s: &Server, id: &str) -> Value {
    let (st, l) = s.get(&format!("/api/sessions/{id}/learned?seat=1"));
    assert_eq!(st, 200, "{l}");
    l["learned"].clone()
}

fn stored_boxes(s: &Server) -> Option<Value> {
    s.store()
        .learned(&LearnedKey {
            game: "tictactoe".into(),
            variant: "".into(),
            seat: 1,
            player: "matchbox".into(),
        })
        .unwrap()
}

fn tallied_games(s: &Server) -> u64 {
    let (_, rows) = s.get("/api/tallies?game=tictactoe");
    rows.as_array()
        .unwrap()
        .iter()
        .map(|r| r["games"].as_u64().unwrap())
        .sum()
}

#[test]
fn undo_and_redo_of_a_final_move_teach_the_machine_once() {
    let s = Server::start();
    let (id, mut view) = s.session(json!({
        "game": "tictactoe", "players": ["human", "matchbox"], "seed": 7
    }));
    while view["outcome"].is_null() {
        let mv = view["legal_moves"][0]["move"].clone();
        let (st, out) = s.post(&format!("/api/sessions/{id}/moves"), &json!({ "move": mv }));
        assert_eq!(st, 200, "{out}");
        view = out["view"].clone();
    }
    let taught = learned(&s, &id);
    assert_eq!(taught["games"], 1, "one game learned from");
    assert_eq!(stored_boxes(&s).as_ref(), Some(&taught));
    assert_eq!(tallied_games(&s), 1);

    let (st, out) = s.post(&format!("/api/sessions/{id}/undo"), &json!({}));
    assert_eq!(st, 200, "{out}");
    let untaught = learned(&s, &id);
    assert_eq!(untaught["games"], 0, "the lesson went with the undone end");
    assert_eq!(
        stored_boxes(&s).as_ref(),
        Some(&untaught),
        "and from the store"
    );
    assert_eq!(tallied_games(&s), 0);

    for _ in 0..3 {
        let (st, out) = s.post(&format!("/api/sessions/{id}/redo"), &json!({}));
        assert_eq!(st, 200, "{out}");
        assert_eq!(out["view"]["tally"]["games"], 1);
        assert_eq!(
            learned(&s, &id),
            taught,
            "the same end, the same single lesson"
        );
        assert_eq!(stored_boxes(&s).as_ref(), Some(&taught));
        assert_eq!(tallied_games(&s), 1);
        let (st, _) = s.post(&format!("/api/sessions/{id}/undo"), &json!({}));
        assert_eq!(st, 200);
        assert_eq!(learned(&s, &id), untaught);
        assert_eq!(tallied_games(&s), 0);
    }
}
