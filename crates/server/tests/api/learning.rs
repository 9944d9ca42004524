//! A matchbox machine learns from a game's end exactly once: undoing the end
//! takes the lesson back (in the session and in the stored boxes), and redoing
//! it does not teach it a second time.

use crate::common::Server;
use serde_json::{json, Value};
use tabula_store::LearnedKey;

fn learned(s: &Server, id: &str) -> Value {
    let (st, l) = s.get(&format!("/api/sessions/{id}/learned?seat=1"));
    assert_eq!(st, 200, "{l}");
    tabula_engine::learned_as_stored(&l["learned"])
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
    rows["tallies"]
        .as_array()
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

/// The machine's seat given to another player after the end taught it: undoing
/// that end still takes the lesson out of the stored boxes, as it takes the
/// game out of the tallies.
#[test]
fn undoing_an_end_after_the_seat_changed_player_takes_the_lesson_back() {
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
    let taught = stored_boxes(&s).unwrap();
    assert_eq!(taught["games"], 1);
    assert_eq!(tallied_games(&s), 1);
    for player in ["random", "human"] {
        let (st, out) = s.call(
            "PUT",
            &format!("/api/sessions/{id}/players"),
            Some(&json!({"seat": 1, "player": player}).to_string()),
        );
        assert_eq!(st, 200, "{out}");
    }
    let (st, out) = s.post(&format!("/api/sessions/{id}/undo"), &json!({}));
    assert_eq!(st, 200, "{out}");
    assert_eq!(tallied_games(&s), 0);
    let boxes = stored_boxes(&s).expect("the boxes stay stored");
    assert_eq!(boxes["games"], 0, "the lesson went with the undone end");
    assert_ne!(boxes, taught);
}

/// Stored boxes the machine cannot use (JSON, but not its boxes) are set
/// aside, kept and listed as damaged, and the machine starts afresh.
#[test]
fn boxes_the_machine_cannot_use_are_set_aside_and_it_starts_afresh() {
    let s = Server::start();
    let key = LearnedKey {
        game: "tictactoe".into(),
        variant: "".into(),
        seat: 1,
        player: "matchbox".into(),
    };
    s.store()
        .put_learned(&key, &json!({"boxes": "not boxes", "games": 40}))
        .unwrap();
    let (id, _) = s.session(json!({"game": "tictactoe", "players": ["human", "matchbox"]}));
    assert_eq!(learned(&s, &id)["games"], 0, "afresh");
    assert_eq!(stored_boxes(&s), None, "set aside");
    let (st, damaged) = s.get("/api/damaged");
    assert_eq!(st, 200);
    let message = damaged["damaged"][0]["message"].as_str().unwrap();
    assert!(
        message.starts_with("The learned state of matchbox in seat 2 of Tic-tac-toe cannot be read: its learner cannot use it"),
        "{message}"
    );
}
