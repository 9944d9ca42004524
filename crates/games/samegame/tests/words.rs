//! SameGame names the colours of its blocks in words as typed parts, so that
//! each face names a colour its own way.

use tabula_core::{ExactAnalysis, FactValue, Presentation, WordPart, Words};
use tabula_samegame::{Board, Click, SameGame};

fn board() -> Board {
    // Three blocks of colour 2 at the bottom left, one of colour 1 above them,
    // and a pair of colour 3 on the right.
    Board::from_rows(&[vec![1, 0, 0], vec![2, 2, 3], vec![2, 1, 3]], 0).unwrap()
}

#[test]
fn a_moves_words_name_the_groups_colour_as_a_colour() {
    let game = SameGame::default();
    let state = board();
    let parts = game.move_parts(&state, Click { row: 2, col: 0 });
    assert_eq!(
        parts.parts(),
        [
            WordPart::Text("row 3, column 1: 3 blocks of ".into()),
            WordPart::Colour(2),
        ]
    );
    // Rows and columns counted from 1, as a player counts; the points are the
    // hint list's and the score's to say, not the move's name.
    assert_eq!(
        game.move_words(&state, Click { row: 2, col: 0 }),
        "row 3, column 1: 3 blocks of colour 2"
    );
    assert_eq!(
        game.describe_move(&state, Click { row: 1, col: 2 }),
        "1 2: 2 blocks of colour 3 (+0)"
    );
    // A block with no group names no colour.
    assert_eq!(
        game.move_parts(&state, Click { row: 0, col: 0 }),
        Words::text("row 1, column 1")
    );
}

#[test]
fn the_blocks_of_each_colour_are_counted_by_colour_not_by_text() {
    let game = SameGame::default();
    let extra = game.analysis_extra(&board()).unwrap();
    let fact = extra.sections[0]
        .facts
        .iter()
        .find(|f| f.label == "Blocks of each colour")
        .unwrap();
    let FactValue::Phrases(items) = &fact.value else {
        panic!("{:?}", fact.value);
    };
    let said: Vec<String> = items.iter().map(ToString::to_string).collect();
    assert_eq!(said, ["colour 1: 2", "colour 2: 3", "colour 3: 2"]);
    for (i, item) in items.iter().enumerate() {
        assert_eq!(item.parts()[0], WordPart::Colour(i as u32 + 1));
    }
    let json = serde_json::to_value(&fact.value).unwrap();
    assert_eq!(json["kind"], "phrases");
    assert_eq!(json["value"][1][0]["colour"], 2);
}
