//! Watching, review, the line of best play and the value history (docs/API.md),
//! over real HTTP on loopback.

use crate::common::Server;
use serde_json::{json, Value};

fn create(s: &Server, body: Value) -> (String, Value) {
    let (status, out) = s.post("/api/sessions", &body);
    assert_eq!(status, 201, "{out}");
    (out["id"].as_str().unwrap().to_string(), out["view"].clone())
}

fn play(s: &Server, id: &str, mv: &str) -> Value {
    let (status, out) = s.post(&format!("/api/sessions/{id}/moves"), &json!({ "move": mv }));
    assert_eq!(status, 200, "{out}");
    out
}

#[test]
fn computer_against_computer_starts_at_its_first_ply_and_advances_by_step() {
    let s = Server::start();
    let (id, view) = create(
        &s,
        json!({"game": "tictactoe", "players": ["random", "random"], "seed": 3}),
    );
    assert_eq!(view["log"].as_array().unwrap().len(), 0);
    for n in 1..=3 {
        let (status, out) = s.post(&format!("/api/sessions/{id}/step"), &json!({}));
        assert_eq!(status, 200, "{out}");
        assert_eq!(out["view"]["log"].as_array().unwrap().len(), n);
        let played = out["played"].as_array().unwrap();
        assert_eq!(played.len(), 1);
        // The cells of the move: a tic-tac-toe move is its square.
        let square: u32 = played[0]["move"].as_str().unwrap().parse().unwrap();
        assert_eq!(played[0]["cells"], json!([square]));
    }
    // New game: back to the first ply, still watched.
    let (_, out) = s.post(&format!("/api/sessions/{id}/new"), &json!({}));
    assert_eq!(out["view"]["log"].as_array().unwrap().len(), 0);
    // Seating the computer in the last human seat does not play the game through.
    let (id2, _) = create(
        &s,
        json!({"game": "tictactoe", "players": ["human", "random"], "seed": 3}),
    );
    let (_, out) = s.call(
        "PUT",
        &format!("/api/sessions/{id2}/players"),
        Some(&json!({"seat": 0, "player": "random"}).to_string()),
    );
    assert_eq!(out["view"]["log"].as_array().unwrap().len(), 0);
}

#[test]
fn a_move_answer_names_the_cells_of_the_reply() {
    let s = Server::start();
    let (id, _) = create(
        &s,
        json!({"game": "tictactoe", "players": ["human", "perfect"], "seed": 1}),
    );
    let out = play(&s, &id, "1");
    let played = out["played"].as_array().unwrap();
    assert_eq!(played.len(), 2);
    assert_eq!(played[0]["cells"], json!([1]));
    let reply: u32 = played[1]["move"].as_str().unwrap().parse().unwrap();
    assert_eq!(played[1]["cells"], json!([reply]));
}

#[test]
fn review_shows_earlier_positions_and_play_from_here_continues_from_one() {
    let s = Server::start();
    let (id, _) = create(
        &s,
        json!({"game": "tictactoe", "players": ["human", "human"], "seed": 1}),
    );
    for mv in ["1", "2", "5"] {
        play(&s, &id, mv);
    }
    let (status, out) = s.get(&format!("/api/sessions/{id}/review?ply=1"));
    assert_eq!(status, 200, "{out}");
    assert_eq!(out["plies"], 3);
    assert_eq!(out["view"]["view"]["pieces"].as_array().unwrap().len(), 1);
    assert_eq!(out["view"]["log"].as_array().unwrap().len(), 1);
    // The session itself is untouched.
    let (_, now) = s.get(&format!("/api/sessions/{id}"));
    assert_eq!(now["view"]["log"].as_array().unwrap().len(), 3);
    assert_eq!(s.get(&format!("/api/sessions/{id}/review?ply=4")).0, 400);

    let (status, from) = s.post(&format!("/api/sessions/{id}/from?ply=2"), &json!({}));
    assert_eq!(status, 201, "{from}");
    assert_ne!(from["id"], json!(id));
    let moves: Vec<&str> = from["view"]["log"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["move"].as_str().unwrap())
        .collect();
    assert_eq!(moves, ["1", "2"]);
}

#[test]
fn the_value_history_marks_the_move_that_threw_away_the_draw() {
    let s = Server::start();
    let (id, _) = create(
        &s,
        json!({"game": "tictactoe", "players": ["human", "human"], "seed": 1}),
    );
    // X takes a corner (still a draw); O answers on the next edge square, which
    // loses (a known tic-tac-toe fact): X wins from there.
    play(&s, &id, "1");
    play(&s, &id, "2");
    let (status, out) = s.get(&format!("/api/sessions/{id}/history"));
    assert_eq!(status, 200, "{out}");
    let values = out["values"].as_array().unwrap();
    assert_eq!(values.len(), 3);
    assert_eq!(values[0]["value"]["value"], "draw");
    assert_eq!(values[1]["value"]["value"], "draw");
    assert_eq!(values[1]["to_move"], "O");
    assert_eq!(values[2]["value"]["value"], "win", "X to move now wins");
    assert_eq!(values[2]["to_move"], "X");
    // Whose value it is, by the seat's number: a face never matches seat names.
    let seats: Vec<&Value> = values.iter().map(|v| &v["seat"]).collect();
    assert_eq!(seats, [&json!(0), &json!(1), &json!(0)]);
}

#[test]
fn a_finished_game_declares_its_ending_as_typed_data() {
    let s = Server::start();
    let (id, view) = create(
        &s,
        json!({"game": "tictactoe", "players": ["human", "human"], "seed": 1}),
    );
    assert!(
        view.get("ending").is_none(),
        "no ending while the game goes on"
    );
    play(&s, &id, "5");
    let (_, out) = s.post(&format!("/api/sessions/{id}/resign"), &json!({}));
    assert_eq!(
        out["view"]["ending"],
        json!({"kind": "resigned", "seat": 1, "winner": 0})
    );
    let (_, out) = s.post(&format!("/api/sessions/{id}/resign"), &json!({}));
    assert_eq!(
        out["view"]["ending"],
        json!({"kind": "all_resigned", "first": 1})
    );
    // A win by the rules, and a full board: the Cat's game, with its reason.
    let (id, _) = create(
        &s,
        json!({"game": "tictactoe", "players": ["human", "human"], "position": "XX./OO./... X"}),
    );
    let out = play(&s, &id, "3");
    assert_eq!(out["view"]["ending"], json!({"kind": "won", "seat": 0}));
    let (id, _) = create(
        &s,
        json!({"game": "tictactoe", "players": ["human", "human"], "position": "XOX/XOO/OX. X"}),
    );
    let out = play(&s, &id, "9");
    assert_eq!(
        out["view"]["ending"],
        json!({"kind": "drawn", "reason": "the Cat's game"})
    );
}

#[test]
fn every_cell_of_a_view_carries_its_name() {
    let s = Server::start();
    let (_, view) = create(
        &s,
        json!({"game": "tictactoe", "players": ["human", "human"]}),
    );
    let cells = view["view"]["cells"].as_array().unwrap();
    let five = cells.iter().find(|c| c["id"] == 5).unwrap();
    assert_eq!(five["name"], "row 2, column 2");
}

#[test]
fn the_line_of_best_play_is_found_from_a_reviewed_position() {
    // A player reviewing an earlier position asks why a move there was best
    // (an analysis board), not only in the game's own position.
    let s = Server::start();
    let (id, _) = create(
        &s,
        json!({"game": "tictactoe", "players": ["human", "human"], "seed": 1, "position": "XX./OO./... X"}),
    );
    play(&s, &id, "7");
    play(&s, &id, "6");
    // The game is over; after its first ply X could not play 3 any more.
    assert_ne!(s.get(&format!("/api/sessions/{id}/line?move=3")).0, 200);
    let (status, out) = s.get(&format!("/api/sessions/{id}/line?move=3&ply=0"));
    assert_eq!(status, 200, "{out}");
    let line = out["line"].as_array().unwrap();
    assert_eq!(line.len(), 1, "3 wins at once: {out}");
    assert_eq!(line[0]["grade"]["value"], "win");
    // Who moves is said apart from the move's words.
    assert_eq!(line[0]["by"], "X");
    assert!(
        !line[0]["words"].as_str().unwrap().starts_with("X:"),
        "{out}"
    );
    let (status, out) = s.get(&format!("/api/sessions/{id}/line?move=6&ply=1"));
    assert_eq!(status, 200, "{out}");
    assert_eq!(out["line"][0]["by"], "O");
    // A ply beyond the game's end is refused in words.
    let (status, out) = s.get(&format!("/api/sessions/{id}/line?move=3&ply=9"));
    assert_eq!(status, 400, "{out}");
    assert!(
        out["error"].as_str().unwrap().contains("beyond its end"),
        "{out}"
    );
}

#[test]
fn the_line_of_best_play_follows_a_move_to_the_end() {
    let s = Server::start();
    let (id, _) = create(
        &s,
        json!({"game": "tictactoe", "players": ["human", "human"], "seed": 1, "position": "XX./OO./... X"}),
    );
    let (status, out) = s.get(&format!("/api/sessions/{id}/line?move=3"));
    assert_eq!(status, 200, "{out}");
    let line = out["line"].as_array().unwrap();
    assert_eq!(line.len(), 1, "3 wins at once: {out}");
    assert_eq!(line[0]["grade"]["value"], "win");
    // A move that lets O win: the line goes on to O's win.
    let (_, out) = s.get(&format!("/api/sessions/{id}/line?move=7"));
    let line = out["line"].as_array().unwrap();
    assert_eq!(line[0]["grade"]["value"], "loss");
    assert_eq!(line.last().unwrap()["move"], "6");
    assert_eq!(s.get(&format!("/api/sessions/{id}/line?move=1")).0, 422);
    // A game without exact values has no line.
    let (pid, _) = create(&s, json!({"game": "poggle"}));
    assert_eq!(s.get(&format!("/api/sessions/{pid}/line?move=1,1")).0, 404);
}

#[test]
fn a_session_started_from_moves_replays_their_rolls_and_names_a_move_it_cannot_play() {
    let s = Server::start();
    // A dice game played on by two people: its plies, rolls included.
    let (id, mut view) = create(
        &s,
        json!({"game": "pig", "players": ["human", "human"], "seed": 5}),
    );
    for _ in 0..8 {
        let mv = view["legal_moves"][0]["move"].as_str().unwrap().to_string();
        view = play(&s, &id, &mv)["view"].clone();
    }
    // `moves` is left out when it is the log's moves (every ply has its line).
    let logged: Vec<Value> = view["log"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["move"].clone())
        .collect();
    let moves = match view["moves"].as_array() {
        Some(all) => Value::from(all.clone()),
        None => Value::from(logged.clone()),
    };
    assert!(moves.as_array().unwrap().len() >= logged.len());
    // Another seed would roll other dice: the moves given are played as they were.
    let (_, again) = create(
        &s,
        json!({"game": "pig", "players": ["human", "human"], "seed": 6, "moves": moves}),
    );
    assert_eq!(again["position"], view["position"]);
    assert_eq!(again["log"], view["log"]);
    // A move that cannot be played is named, and nothing is made.
    let (status, out) = s.post(
        "/api/sessions",
        &json!({"game": "tictactoe", "players": ["human", "human"], "moves": ["5", "5"]}),
    );
    assert_eq!(status, 400, "{out}");
    assert!(
        out["error"]
            .as_str()
            .unwrap()
            .starts_with("Move 2 (5) cannot be played"),
        "{out}"
    );
}
