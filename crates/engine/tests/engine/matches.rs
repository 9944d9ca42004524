//! Match behaviour through the object-safe interface: undo depth, redo, tallies,
//! resignation, draw rules, replay, set-up moves.

use tabula_core::{Outcome, Turn};
use tabula_engine::{build, learned_as_stored, Match, MatchConfig};

fn start(game: &str, players: &[&str], undo: Option<usize>) -> Box<dyn Match> {
    build(game, "")
        .unwrap()
        .new_match(MatchConfig {
            players: players.iter().map(|s| s.to_string()).collect(),
            seed: 4,
            position: None,
            undo_depth: undo,
        })
        .unwrap()
}

#[test]
fn undo_takes_back_the_human_move_and_the_reply_and_is_bounded_by_the_depth() {
    let mut m = start("tictactoe", &["human", "perfect"], Some(2));
    let empty = m.view().position;
    m.play("5").unwrap();
    m.advance().unwrap();
    let after_one = m.view().position;
    assert_eq!(m.view().log.len(), 2, "the computer answered");
    let second = m.view().legal_moves[0].mv.clone();
    m.play(&second).unwrap();
    m.advance().unwrap();
    let third = m.view().legal_moves[0].mv.clone();
    m.play(&third).unwrap();
    m.advance().unwrap();
    assert!(m.undo());
    assert!(m.undo());
    assert_eq!(m.view().position, after_one);
    assert!(!m.undo(), "the queue is only two deep");
    assert_ne!(m.view().position, empty);
    assert!(m.redo());
    assert!(m.redo());
    assert!(!m.redo());
    assert_eq!(m.view().log.len(), 6);
}

#[test]
fn bad_moves_leave_the_match_unchanged() {
    let mut m = start("tictactoe", &["human", "human"], None);
    m.play("5").unwrap();
    // The game clock ticks between reads; everything else must stay as it was.
    let untimed = |mut view: tabula_engine::MatchView| {
        view.seconds = 0.0;
        view
    };
    let before = untimed(m.view());
    for bad in ["5", "0", "10", "", "x", "99999999999999999999", "5 5"] {
        assert!(m.play(bad).is_err(), "{bad:?} accepted");
        assert_eq!(untimed(m.view()), before);
    }
}

#[test]
fn computer_seats_refuse_human_moves() {
    let m = start("tictactoe", &["perfect", "human"], None);
    // X (the computer) has already moved; O is to move.
    assert_eq!(m.view().log.len(), 1);
    assert_eq!(m.turn(), Turn::Move(1));
    let mut m2 = start("tictactoe", &["perfect", "perfect"], None);
    assert!(m2.turn().is_over());
    assert!(m2.play("1").is_err());
}

#[test]
fn tallies_count_wins_and_the_cat_across_games() {
    let mut m = start("hexapawn", &["human", "perfect"], None);
    m.resign().unwrap();
    assert_eq!(m.turn(), Turn::Over(Outcome::Win(1)));
    assert_eq!(m.view().tally.wins, vec![0, 1]);
    m.new_game();
    m.resign().unwrap();
    assert_eq!(m.view().tally.wins, vec![0, 2]);
    // Undoing a finished game takes it out of the tally again.
    assert!(m.undo());
    assert_eq!(m.view().tally.wins, vec![0, 1]);
    let mut c = start("tictactoe", &["perfect", "perfect"], None);
    assert_eq!(c.view().tally.cat, 1);
    c.new_game();
    c.advance().unwrap();
    assert_eq!(c.view().tally.cat, 2);
    assert_eq!(c.view().tally.games, 2);
}

#[test]
fn threefold_repetition_ends_actual_play_in_a_draw() {
    // Mu Torere between two random players cycles; the match must end.
    let m = start("mu-torere", &["random", "random"], None);
    assert!(m.turn().is_over(), "random vs random Mu Torere did not end");
}

#[test]
fn records_replay_exactly_including_dice() {
    let mut m = start("auto120", &["random", "random"], None);
    m.advance().unwrap();
    let record = m.record();
    assert!(record
        .moves
        .iter()
        .any(|mv| mv.mv.contains("roll") || mv.mv.contains('r')));
    let again = build("auto120", "").unwrap().resume(&record).unwrap();
    assert_eq!(again.view().position, m.view().position);
    assert_eq!(again.view().log, m.view().log);
}

#[test]
fn one_undo_depth_limit_from_0_to_max() {
    let start = |d| {
        build("tictactoe", "").unwrap().new_match(MatchConfig {
            players: vec![],
            seed: 1,
            position: None,
            undo_depth: Some(d),
        })
    };
    let e = start(tabula_engine::MAX_UNDO_DEPTH + 1)
        .err()
        .expect("refused");
    assert!(e.to_string().contains("from 0 to 1000"), "{e}");
    assert!(tabula_engine::check_undo_depth(Some(1001)).is_err());
    assert!(tabula_engine::check_undo_depth(None).is_ok());
    assert!(start(tabula_engine::MAX_UNDO_DEPTH).is_ok());
    // Depth 0: undo is off.
    let mut m = start(0).unwrap();
    m.play("5").unwrap();
    assert!(!m.undo());
    // Depth 1: one move back, not two.
    let mut m = start(1).unwrap();
    m.play("5").unwrap();
    m.play("1").unwrap();
    assert!(m.undo());
    assert!(!m.undo());
}

#[test]
fn a_custom_start_position_is_played_perfectly() {
    let mut m = build("tictactoe", "")
        .unwrap()
        .new_match(MatchConfig {
            players: vec!["human".into(), "perfect".into()],
            seed: 2,
            position: Some("XX./.O./... O".into()),
            undo_depth: None,
        })
        .unwrap();
    // O must block at 3.
    m.advance().unwrap();
    assert_eq!(
        m.view().log.first().map(|e| e.mv.clone()),
        Some("3".to_string())
    );
}

/// The matchbox machine's count of games it learned from.
fn learned_games(m: &dyn Match) -> u64 {
    m.learned(1).expect("seat 1 learns")["games"]
        .as_u64()
        .expect("a count of games")
}

/// Plays the human's first legal move until the game ends.
fn play_out(m: &mut Box<dyn Match>) {
    while !m.turn().is_over() {
        let mv = m.view().legal_moves[0].mv.clone();
        m.play(&mv).unwrap();
        m.advance().unwrap();
    }
}

/// The learner's state in words is the stored state with each box's beads
/// named, and nothing else: taking the words away gives the stored state back.
#[test]
fn the_learned_state_in_words_is_the_stored_state_and_the_beads_words() {
    let mut m = start("tictactoe", &["human", "matchbox"], None);
    play_out(&mut m);
    let stored = m.learned(1).expect("seat 1 learns");
    let in_words = m.learned_in_words(1).expect("seat 1 learns");
    let boxes = in_words["boxes"].as_array().expect("boxes");
    assert!(!boxes.is_empty());
    for b in boxes {
        let words = b["words"].as_array().expect("each box's beads in words");
        assert_eq!(words.len(), b["beads"].as_array().unwrap().len());
    }
    assert_ne!(in_words, stored);
    assert_eq!(learned_as_stored(&in_words), stored);
    assert_eq!(learned_as_stored(&stored), stored);
}

#[test]
fn a_game_teaches_a_learner_once_however_often_its_end_is_undone_and_redone() {
    let mut m = start("tictactoe", &["human", "matchbox"], None);
    play_out(&mut m);
    let taught = m.learned(1);
    assert_eq!(learned_games(m.as_ref()), 1);
    assert_eq!(m.view().tally.games, 1);
    assert!(m.undo());
    // The boxes opened during the game stay; the lesson of its end is gone.
    let untaught = m.learned(1);
    assert_eq!(
        learned_games(m.as_ref()),
        0,
        "the undone end's lesson is taken back"
    );
    assert!(m.redo());
    for _ in 0..3 {
        assert_eq!(
            m.learned(1),
            taught,
            "the same end teaches the same lesson once"
        );
        assert_eq!(m.view().tally.games, 1);
        assert!(m.undo());
        assert_eq!(m.learned(1), untaught);
        assert_eq!(m.view().tally.games, 0);
        assert!(m.redo());
    }
    // From the record (a server restarted), the end is still taken back exactly.
    let record = m.record();
    let mut again = build("tictactoe", "").unwrap().resume(&record).unwrap();
    assert_eq!(again.learned(1), taught);
    assert!(again.undo());
    assert_eq!(again.learned(1), untaught);
    assert_eq!(again.view().tally.games, 0);
}

/// A learner whose seat went to another player after the end taught it: undoing
/// that end takes the lesson back for it too (its state from before the end is
/// handed out as `untaught`), also from the record after a restart, and a seat
/// given back to the same learner before the undo gets its lesson taken back in
/// place.
#[test]
fn undoing_an_end_takes_the_lesson_back_from_a_learner_that_left_its_seat() {
    // The same game (same seed, same moves) with the learner kept in its seat:
    // what its undo leaves is the learner's state from before the end.
    let mut twin = start("tictactoe", &["human", "matchbox"], None);
    play_out(&mut twin);
    assert!(twin.undo());
    let before = twin.learned(1).expect("seat 1 learns");
    assert_eq!(before["games"], 0);

    let mut m = start("tictactoe", &["human", "matchbox"], None);
    play_out(&mut m);
    assert_eq!(learned_games(m.as_ref()), 1);
    m.set_player(1, "random").unwrap();
    let record = m.record();
    for m in [
        &mut m,
        &mut build("tictactoe", "").unwrap().resume(&record).unwrap(),
    ] {
        assert!(m.undo());
        assert_eq!(m.view().tally.games, 0);
        let untaught = m.record().current.expect("current game").untaught;
        assert_eq!(untaught.len(), 1, "{untaught:?}");
        assert_eq!(
            (untaught[0].seat, untaught[0].player.as_str()),
            (1, "matchbox")
        );
        assert_eq!(untaught[0].learned["games"], 0);
        assert_eq!(untaught[0].learned, before, "the state from before the end");
        assert_eq!(m.learned(1), None, "the random player learns nothing");
    }

    // Away and back to the same learner: the lesson is taken back in place.
    let mut m = start("tictactoe", &["human", "matchbox"], None);
    play_out(&mut m);
    let taught = m.learned(1).unwrap();
    m.set_player(1, "random").unwrap();
    m.set_player(1, "matchbox").unwrap();
    // The server gives a learner its stored boxes: here the taught ones.
    let mut record = m.record();
    record.learned[1] = Some(taught);
    let mut m = build("tictactoe", "").unwrap().resume(&record).unwrap();
    assert!(m.undo());
    assert_eq!(learned_games(m.as_ref()), 0);
    assert!(m.record().current.unwrap().untaught.is_empty());
}

/// The winner of a resigned game may resign too (the Cat's game) only while the
/// seats have the players the end was counted for: a learner that won and then
/// left its seat to a person keeps its win, in the tally and in its lesson.
#[test]
fn a_seat_that_changed_player_since_the_resignation_cannot_resign_too() {
    let mut m = start("tictactoe", &["human", "matchbox"], None);
    m.play("5").unwrap();
    m.advance().unwrap();
    m.resign().unwrap();
    assert_eq!(m.turn(), Turn::Over(Outcome::Win(1)));
    assert_eq!(learned_games(m.as_ref()), 1);
    m.set_player(1, "human").unwrap();
    assert!(
        m.resign().is_err(),
        "the win was the learner's, not this person's"
    );
    assert_eq!(m.turn(), Turn::Over(Outcome::Win(1)));
    assert_eq!((m.view().tally.wins[1], m.view().tally.cat), (1, 0));

    // With the seats as they were, the person who won resigns too.
    let mut m = start("tictactoe", &["human", "human"], None);
    m.play("5").unwrap();
    m.resign().unwrap();
    assert_eq!(m.turn(), Turn::Over(Outcome::Win(0)));
    m.resign().unwrap();
    assert_eq!(
        (m.view().tally.wins.iter().sum::<u64>(), m.view().tally.cat),
        (0, 1)
    );
}

#[test]
fn the_log_names_each_move_played_in_the_words_its_legal_move_had() {
    // Nim's notation ("1:3->2") is for typing; its words are for the log.
    for (game, players) in [
        ("nim", &["human", "human"][..]),
        ("samegame", &["human"][..]),
        ("northcott", &["human", "human"][..]),
    ] {
        let mut m = start(game, players, None);
        let offered = m.view().legal_moves[0].clone();
        m.play(&offered.mv).unwrap();
        let entry = m.view().log.last().unwrap().clone();
        assert_eq!(entry.mv, offered.mv, "{game}");
        assert!(
            entry.words.ends_with(&offered.words),
            "{game}: {:?} names the move as {:?}",
            entry.words,
            offered.words
        );
        assert!(
            !entry.words.contains(&offered.mv),
            "{game}: {:?}",
            entry.words
        );
        // The mover is named once ("O advances …", not "O: O advances …").
        let who = &m.view().seats[entry.seat.unwrap()].name;
        assert!(
            !entry.words.starts_with(&format!("{who}: {who} ")),
            "{game}: {:?}",
            entry.words
        );
    }
}

#[test]
fn a_one_player_puzzle_names_no_seat_in_its_log_and_two_player_games_name_the_mover() {
    for entry in tabula_engine::registry() {
        let handle = build(entry.name, "").unwrap();
        let seats = handle.info().seats;
        let mut m = start(entry.name, &vec!["human"; seats.len()], None);
        m.advance().unwrap();
        let first = m.view().legal_moves[0].mv.clone();
        m.play(&first).unwrap();
        let line = m.view().log.last().unwrap().clone();
        let who = &seats[line.seat.unwrap()];
        let named = |text: &str| {
            text.starts_with(&format!("{who}: ")) || text.starts_with(&format!("{who} "))
        };
        if seats.len() == 1 {
            // SameGame's and Poggle's only player is the one at the keyboard.
            assert!(!named(&line.text), "{}: {:?}", entry.name, line.text);
            assert_eq!(line.by, "", "{}", entry.name);
        } else {
            assert!(
                named(&line.text),
                "{}: {:?} does not name {who}",
                entry.name,
                line.text
            );
            assert_eq!(&line.by, who, "{}", entry.name);
        }
    }
}

#[test]
fn the_log_keeps_who_moved_apart_from_the_words_of_the_move() {
    // A face that shows the mover by a column and a colour reads the move's
    // words without "X: " before them; who moved is its own field.
    for entry in tabula_engine::registry() {
        let handle = build(entry.name, "").unwrap();
        let seats = handle.info().seats;
        let mut m = start(entry.name, &vec!["human"; seats.len()], None);
        for _ in 0..4 {
            m.advance().unwrap();
            let Some(first) = m.view().legal_moves.first().map(|x| x.mv.clone()) else {
                break;
            };
            m.play(&first).unwrap();
        }
        for line in &m.view().log {
            let prefix = format!("{}: ", line.by);
            assert!(
                !line.words.starts_with(&prefix) && !line.parts.to_string().starts_with(&prefix),
                "{}: {:?} names the mover before the move",
                entry.name,
                line.words
            );
        }
    }
}

#[test]
fn the_moves_of_a_dice_game_include_the_rolls_the_log_folds_away() {
    let mut m = start("auto120", &["human", "human"], None);
    m.advance().unwrap();
    for _ in 0..6 {
        let mv = m.view().legal_moves[0].mv.clone();
        m.play(&mv).unwrap();
        m.advance().unwrap();
    }
    let view = m.view();
    assert!(
        view.moves.len() > view.log.len(),
        "rolls folded into the log's lines"
    );
    // Replayed one by one as set-up moves on the start (nothing drawn yet, as
    // the server makes a session), under another seed, the plies give the same
    // position: the rolls are in them.
    let mut blank = m.record();
    blank.moves.clear();
    blank.current = None;
    blank.config.seed = 99;
    let mut fresh = build("auto120", "").unwrap().resume(&blank).unwrap();
    for mv in &view.moves {
        fresh.play_setup(mv).unwrap();
    }
    assert_eq!(fresh.view().position, view.position);
}

#[test]
fn a_seat_says_its_players_kind_and_level_as_typed_fields() {
    let seats = |players: &[&str]| {
        start("tictactoe", players, None)
            .view()
            .seats
            .into_iter()
            .map(|s| (s.kind, s.level))
            .collect::<Vec<_>>()
    };
    assert_eq!(
        seats(&["human", "level:40"]),
        [("human".to_string(), None), ("level".to_string(), Some(40))]
    );
    assert_eq!(
        seats(&["medium", "alphabeta:level=50"]),
        [
            ("medium".to_string(), Some(66)),
            ("alphabeta".to_string(), Some(50))
        ]
    );
    assert_eq!(
        seats(&["matchbox", "perfect"]),
        [
            ("matchbox".to_string(), None),
            ("perfect".to_string(), None)
        ]
    );
}

#[test]
fn a_colour_named_in_a_moves_words_is_a_typed_part_in_the_moves_and_the_log() {
    use tabula_core::{WordPart, Words};
    let mut m = build("samegame", "size=5x5,colours=3,seed=4")
        .unwrap()
        .new_match(MatchConfig {
            players: vec!["human".into()],
            seed: 1,
            position: None,
            undo_depth: None,
        })
        .unwrap();
    let view = m.view();
    let group = view
        .legal_moves
        .iter()
        .find(|mv| mv.cells.len() == 1 && mv.words.contains("blocks of"))
        .expect("a group to remove")
        .clone();
    // The words say "colour N"; the parts name the same colour as a colour.
    let colours: Vec<u32> = group
        .parts
        .parts()
        .iter()
        .filter_map(|p| match p {
            WordPart::Colour(c) => Some(*c),
            _ => None,
        })
        .collect();
    assert_eq!(colours.len(), 1, "{:?}", group.parts);
    assert!((1..=3).contains(&colours[0]));
    assert!(
        group
            .words
            .contains(&format!("blocks of colour {}", colours[0])),
        "{}",
        group.words
    );
    assert_eq!(group.parts.to_string(), group.words);
    assert!(!group
        .parts
        .parts()
        .iter()
        .any(|p| matches!(p, WordPart::Text(t) if t.contains("colour"))));
    m.play(&group.mv).unwrap();
    let entry = m.view().log[0].clone();
    assert_eq!(entry.parts.to_string(), entry.words);
    assert!(entry.parts.parts().contains(&WordPart::Colour(colours[0])));
    // The JSON carries the parts as a list of text and colour parts.
    let json = serde_json::to_value(&entry).unwrap();
    let parts: Words = serde_json::from_value(json["parts"].clone()).unwrap();
    assert_eq!(parts, entry.parts);
    assert!(json["parts"]
        .as_array()
        .unwrap()
        .iter()
        .any(|p| p["colour"] == colours[0]));
}
