//! Northcott's set-up moves (the Northcott slides' Ctrl+click) in a match: either side's piece,
//! no reply, the side to move unchanged, and the record replays them.

use tabula_engine::{build, MatchConfig};

#[test]
fn setup_moves_either_side_in_a_match_and_replays() {
    let handle = build("northcott", "size=8x2").unwrap();
    let mut m = handle
        .new_match(MatchConfig {
            players: vec!["human".into(), "nim".into()],
            seed: 1,
            ..MatchConfig::default()
        })
        .unwrap();
    // O to move; set X's piece of row 2 to cell 5 (no reply, O still to move).
    m.play_setup("X 2:5").unwrap();
    assert_eq!(m.view().position, "O6X/O3X3 O");
    assert_eq!(m.view().to_move, Some(0));
    // A set-up move typed in play is refused with words and changes nothing.
    let err = m.play("X 1:3").unwrap_err();
    assert!(err.to_string().contains("set-up"), "{err}");
    assert_eq!(m.view().position, "O6X/O3X3 O");
    // Then O plays, and the computer answers.
    m.play("O 1:3").unwrap();
    m.advance().unwrap();
    let record = m.record();
    let replayed = handle.resume(&record).unwrap();
    assert_eq!(replayed.view().position, m.view().position);
    // Set-up refuses what cannot be: X onto O (cell 1 of row 2 holds O).
    let before = m.view().position;
    let err = m.play_setup("X 2:1").unwrap_err();
    assert!(err.to_string().contains("O"), "{err}");
    assert_eq!(m.view().position, before);
}
