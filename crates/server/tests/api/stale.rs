//! Two servers on one database, as if the one-server lock had been got round:
//! a session's copy in one server goes stale when the other writes, and its
//! next write is refused in words and the copy read again, so no acknowledged
//! move is ever written over.

use crate::common::Server;
use serde_json::{json, Value};

fn moves(view: &Value) -> Vec<String> {
    view["log"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["move"].as_str().unwrap().to_string())
        .collect()
}

fn stored_moves(s: &Server, id: &str) -> Vec<String> {
    s.store()
        .session::<tabula_engine::MatchRecord>(id)
        .unwrap()
        .expect("stored")
        .moves
        .into_iter()
        .map(|m| m.mv)
        .collect()
}

/// X plays 5 through one server, Y plays 1 through the other (acknowledged),
/// X plays 3 through the first from its stale copy: refused, nothing lost.
#[test]
fn a_stale_copy_never_writes_over_an_acknowledged_move() {
    let x = Server::start();
    let y = x.beside();
    let (id, _) = x.session(json!({"game": "tictactoe", "players": ["human", "human"]}));
    let play = |s: &Server, mv: &str| {
        s.call(
            "POST",
            &format!("/api/sessions/{id}/moves"),
            Some(&json!({ "move": mv }).to_string()),
        )
    };
    let (st, out) = play(&x, "5");
    assert_eq!(st, 200, "{out}");
    let (st, out) = play(&y, "1");
    assert_eq!(st, 200, "{out}");
    assert_eq!(moves(&out["view"]), ["5", "1"]);

    let (st, out) = play(&x, "3");
    assert_eq!(st, 409, "{out}");
    let words = out["error"].as_str().unwrap();
    assert!(
        words.contains("changed elsewhere") && words.contains("try again"),
        "{words}"
    );
    assert_eq!(stored_moves(&x, &id), ["5", "1"], "Y's move is kept");
    // X's copy was read again: it shows Y's move, and X plays on top of it.
    let (_, now) = x.get(&format!("/api/sessions/{id}"));
    assert_eq!(moves(&now["view"]), ["5", "1"]);
    let (st, out) = play(&x, "3");
    assert_eq!(st, 200, "{out}");
    assert_eq!(moves(&out["view"]), ["5", "1", "3"]);
    assert_eq!(stored_moves(&x, &id), ["5", "1", "3"]);
    // Y's copy is stale now in turn: its undo is refused, then works.
    let (st, _) = y.post(&format!("/api/sessions/{id}/undo"), &json!({}));
    assert_eq!(st, 409);
    let (st, out) = y.post(&format!("/api/sessions/{id}/undo"), &json!({}));
    assert_eq!(st, 200, "{out}");
    assert_eq!(stored_moves(&x, &id), ["5", "1"]);
}
