//! Set-up moves are moves like any other for undo and redo: the SameGame line the
//! computer replays (no person's seat) and Northcott's corrections (a person's
//! seat) are taken back one at a time and replayed by redo.

use tabula_engine::{build, Match, MatchConfig};

fn start(game: &str, variant: &str, players: &[&str]) -> Box<dyn Match> {
    build(game, variant)
        .unwrap()
        .new_match(MatchConfig {
            players: players.iter().map(|s| s.to_string()).collect(),
            seed: 3,
            ..MatchConfig::default()
        })
        .unwrap()
}

#[test]
fn set_up_moves_without_a_person_can_be_undone_and_redone() {
    // The page hands the board to the computer, then replays its line as set-up moves.
    let variant = "size=5x5,colours=2,seed=4";
    let mut m = start("samegame", variant, &["human"]);
    m.set_player(0, "random").unwrap();
    let start_position = m.view().position;
    assert!(!m.view().can_undo);
    let mut after = Vec::new();
    for _ in 0..2 {
        // A computer's seat lists no moves: read them from a copy with a person's seat.
        let mut record = m.record();
        record.config.players = vec!["human".into()];
        let copy = build("samegame", variant).unwrap().resume(&record).unwrap();
        let mv = copy.view().legal_moves[0].mv.clone();
        m.play_setup(&mv).unwrap();
        after.push(m.view().position);
    }
    assert_eq!(m.view().log.len(), 2);
    assert!(m.view().can_undo, "the replayed line can be taken back");
    assert!(m.undo());
    assert_eq!(m.view().position, after[0], "one set-up move at a time");
    assert!(m.undo());
    assert_eq!(m.view().position, start_position);
    assert!(!m.undo(), "nothing before the start");
    assert!(m.redo());
    assert!(m.redo());
    assert_eq!(m.view().position, after[1]);
}

#[test]
fn a_correction_in_a_persons_game_is_undone_alone() {
    let mut m = start("northcott", "size=8x2", &["human", "nim"]);
    m.play("O 1:3").unwrap();
    m.advance().unwrap();
    let before = m.view();
    assert_eq!(before.to_move, Some(0));
    // O to move: a correction of X's piece keeps O to move and is logged.
    let x_row = before
        .view
        .pieces
        .iter()
        .find(|p| p.owner == Some(1))
        .unwrap()
        .cell as usize
        / before.view.width.round() as usize;
    let x_col = before
        .view
        .pieces
        .iter()
        .find(|p| p.owner == Some(1))
        .unwrap()
        .cell as usize
        % before.view.width.round() as usize;
    m.play_setup(&format!("X {}:{}", x_row + 1, x_col)).unwrap();
    let corrected = m.view();
    assert_ne!(corrected.position, before.position);
    assert_eq!(corrected.log.len(), before.log.len() + 1);
    assert!(m.undo());
    assert_eq!(
        m.view().position,
        before.position,
        "the correction alone is taken back"
    );
    assert_eq!(m.view().log.len(), before.log.len());
    assert!(m.redo());
    assert_eq!(m.view().position, corrected.position);
}
