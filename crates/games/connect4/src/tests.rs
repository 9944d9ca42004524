//! Unit tests of the rules, notation and presentation.

use crate::{ConnectFour, Geometry, Move, Position};
use tabula_core::{
    ClickTarget, Game, GameExt, Layout, Mark, Notation, Outcome, Presentation, Registered,
    SeatColour, Turn, Variant,
};

fn game(variant: &str) -> ConnectFour {
    ConnectFour::from_variant(&Variant::parse(variant).unwrap()).unwrap()
}

fn play(g: &ConnectFour, moves: &str) -> Position {
    let mut s = g.initial_state();
    for m in moves.split_whitespace() {
        let mv = g.parse_move(&s, m).unwrap_or_else(|e| panic!("{m}: {e}"));
        g.try_play(&mut s, mv).unwrap();
    }
    s
}

#[test]
fn discs_fall_and_four_in_a_row_wins() {
    let g = game("");
    let s = play(&g, "4 4 3 3 2 2");
    assert_eq!(
        g.format_position(&s),
        "......./......./......./......./.YYY.../.RRR... R"
    );
    assert_eq!(g.turn(&s), Turn::Move(0));
    let won = play(&g, "4 4 3 3 2 2 1");
    assert_eq!(g.turn(&won), Turn::Over(Outcome::Win(0)));
    assert!(g.moves(&won).is_empty());
    let text = g.render_text(&won);
    assert!(text.contains("|r r r r . . .|"), "{text}");
    assert!(text.contains("Red wins with four in a row"), "{text}");
    // The view marks the four winning cells and nothing else.
    let view = g.view(&won);
    let marked: Vec<u32> = view
        .cells
        .iter()
        .filter(|c| c.mark == Some(Mark::Win))
        .map(|c| c.id)
        .collect();
    assert_eq!(marked, vec![36, 37, 38, 39]);
}

#[test]
fn a_full_column_is_refused_in_words() {
    let g = game("width=4,height=4");
    let s = play(&g, "1 1 1 1");
    let e = g.parse_move(&s, "1").unwrap_err();
    // Read, but not playable: not "cannot read move" (issue 44).
    assert_eq!(e.message, "cannot play that move: column 1 is full");
    assert_eq!(
        tabula_core::MoveError::from(e).to_string(),
        "cannot play that move: column 1 is full"
    );
    assert!(g
        .parse_move(&s, "5")
        .unwrap_err()
        .message
        .contains("from 1 to 4"));
    assert!(
        g.parse_move(&s, "p2").is_err(),
        "no pops in the classic game"
    );
    let mut t = s;
    assert!(g.try_play(&mut t, Move::Drop(0)).is_err());
}

#[test]
fn a_full_board_without_a_line_is_a_draw() {
    let g = game("width=4,height=4");
    // Columns filled in pairs so that no four line up.
    let s = play(&g, "1 2 1 2 2 1 2 1 3 4 3 4 4 3 4 3");
    assert_eq!(
        g.turn(&s),
        Turn::Over(Outcome::Draw),
        "{}",
        g.render_text(&s)
    );
}

#[test]
fn misere_gives_the_game_to_the_other_side() {
    let g = game("play=misere");
    let s = play(&g, "4 4 3 3 2 2 1");
    assert_eq!(g.turn(&s), Turn::Over(Outcome::Win(1)));
    assert!(g
        .render_text(&s)
        .contains("Yellow wins: Red made four in a row"));
}

#[test]
fn three_in_a_row_wins_with_connect_three() {
    let g = game("connect=3,width=5,height=5");
    let s = play(&g, "3 3 2 2 1");
    assert_eq!(g.turn(&s), Turn::Over(Outcome::Win(0)));
}

#[test]
fn pop_out_takes_the_movers_disc_out_from_below() {
    let g = game("rules=popout,width=4,height=4");
    let s = play(&g, "1 2");
    assert!(g.moves(&s).contains(&Move::Pop(0)));
    assert!(
        !g.moves(&s).contains(&Move::Pop(1)),
        "Yellow's disc is not Red's to take"
    );
    let e = g.parse_move(&s, "p2").unwrap_err();
    assert!(e.message.contains("only your own disc"), "{}", e.message);
    let after = play(&g, "1 2 p1");
    assert_eq!(g.format_position(&after), "..../..../..../.Y.. Y");
    // A pop that lines up both colours wins for the player who popped: Red
    // takes out the bottom of column 1, Yellow's row falls to the bottom and
    // Red's into the row above it.
    let before = g.parse_position("..../R.../YRRR/RYYY R").unwrap();
    assert_eq!(g.turn(&before), Turn::Move(0));
    let mut s = before;
    g.try_play(&mut s, Move::Pop(0)).unwrap();
    assert_eq!(g.format_position(&s), "..../..../RRRR/YYYY Y");
    assert_eq!(g.turn(&s), Turn::Over(Outcome::Win(0)));
    // A full board goes on: the side to move takes a disc out.
    let full = g.parse_position("RRYY/YYRR/RRYY/YYRR R").unwrap();
    assert_eq!(g.turn(&full), Turn::Move(0));
    assert_eq!(g.moves(&full), vec![Move::Pop(2), Move::Pop(3)]);
    // The same board in the classic game is a draw.
    let classic = game("width=4,height=4");
    let full = classic.parse_position("RRYY/YYRR/RRYY/YYRR R").unwrap();
    assert_eq!(classic.turn(&full), Turn::Over(Outcome::Draw));
}

#[test]
fn positions_round_trip_and_impossible_ones_are_refused() {
    let g = game("");
    let s = play(&g, "4 4 3 5 3");
    assert_eq!(g.parse_position(&g.format_position(&s)).unwrap(), s);
    let bad = [
        (
            "......./......./......./......./......./RR..... Y",
            "Red has 2 discs and Yellow 0",
        ),
        (
            "......./......./......./......./R....../Y...... R",
            "no order of turns",
        ),
        (
            "......./......./......./......./.R...../....... Y",
            "floats",
        ),
        (
            "......./......./......./......./......./R...... R",
            "cannot be Red's turn",
        ),
        (
            "......./......./YYYY.../RRRR.../RRRY.../YYYR... R",
            "both sides",
        ),
        (
            "......./......./......./......./RRR..../YYYYRR. Y",
            "Yellow has a line but Red moved last",
        ),
        (
            "......./......./......./......./......./........ R",
            "must have 7 cells",
        ),
        (
            "......./......./......./......./......./...X... R",
            "unexpected 'X'",
        ),
        ("nonsense", "expected 6 rows"),
    ];
    for (text, says) in bad {
        let e = g.parse_position(text).unwrap_err();
        assert!(e.message.contains(says), "{text}: {}", e.message);
    }
    // A line that the last disc made is a finished game, and readable.
    let won = g
        .parse_position("......./......./......./......./YYY..../RRRR... Y")
        .unwrap();
    assert_eq!(g.turn(&won), Turn::Over(Outcome::Win(0)));
    // A line that would have ended the game earlier is not.
    let late = g.parse_position("......./......./......./......./YYY.Y../RRRR.R. Y");
    assert!(
        late.is_err(),
        "Red's line was complete before Red's last disc"
    );
}

#[test]
fn the_mirror_is_a_symmetry_of_the_board() {
    use tabula_core::Symmetry;
    let g = game("width=5,height=4");
    let s = play(&g, "1 2 2");
    let m = g.map_state(&s, 1);
    assert_eq!(g.format_position(&m), "...../...../...R./...YR Y");
    assert_eq!(g.map_move(&s, Move::Drop(0), 1), Move::Drop(4));
    assert_eq!(g.map_state(&m, 1), s);
}

#[test]
fn the_geometry_refuses_boards_it_does_not_offer() {
    assert!(Geometry::new(8, 6, 4).is_none());
    assert!(Geometry::new(7, 3, 4).is_none());
    assert!(Geometry::new(7, 6, 5).is_none());
    for bad in ["width=8", "height=7", "connect=5", "play=odd", "rules=drop"] {
        assert!(
            ConnectFour::from_variant(&Variant::parse(bad).unwrap()).is_err(),
            "{bad}"
        );
    }
    assert_eq!(game("width=7,height=6,connect=4").variant().to_string(), "");
    assert_eq!(
        game("rules=popout,width=4").variant().to_string(),
        "rules=popout,width=4"
    );
}

/// The column a view cell's click target names, if it is a column.
fn target_column(g: &ConnectFour, s: &Position, id: u32) -> Option<u32> {
    let view = g.view(s);
    let cell = view.cells.iter().find(|c| c.id == id)?;
    match cell.target {
        ClickTarget::Column { column } => Some(column),
        _ => None,
    }
}

#[test]
fn a_click_anywhere_in_a_column_means_the_drop_there() {
    let g = game("");
    let s = play(&g, "4 4 3");
    let view = g.view(&s);
    assert_eq!(
        view.layout,
        Layout::Grid {
            columns: 7,
            rows: 6
        }
    );
    // Every cell is one click with the rest of its column: the column under it.
    for c in &view.cells {
        assert_eq!(
            c.target,
            ClickTarget::Column { column: c.x as u32 },
            "cell {}",
            c.id
        );
    }
    // Each drop starts in the cell its disc lands on, in the column it names, so a
    // click anywhere in that column finds it and no other move.
    for mv in g.moves(&s) {
        let cells = g.move_cells(&s, mv);
        assert_eq!(cells.len(), 1);
        assert_eq!(
            target_column(&g, &s, cells[0]),
            Some(u32::from(mv.column())),
            "{mv:?}"
        );
    }
    // The seats' colours are declared: Red and Yellow, not the places' defaults.
    assert_eq!(
        g.presentation().seat_colours,
        vec![SeatColour::Red, SeatColour::Yellow]
    );
}

#[test]
fn in_pop_out_the_bottom_cell_pops_and_the_rest_of_the_column_drops() {
    let g = game("rules=popout");
    // Red in the bottom of column 1, Yellow in column 2: Red to move may drop
    // into column 1 or take its disc out of it.
    let s = play(&g, "1 2");
    let drop = g.parse_move(&s, "1").unwrap();
    let pop = g.parse_move(&s, "p1").unwrap();
    let (d, p) = (g.move_cells(&s, drop), g.move_cells(&s, pop));
    assert_ne!(
        d, p,
        "a drop and a pop in one column start in different cells"
    );
    assert_eq!(target_column(&g, &s, d[0]), Some(0));
    assert_eq!(target_column(&g, &s, p[0]), Some(0));
    // The pop starts in the bottom cell (the last row of the view), the drop
    // in the one above it.
    let view = g.view(&s);
    let y = |id: u32| view.cells.iter().find(|c| c.id == id).map(|c| c.y);
    assert_eq!(y(p[0]), Some(5.0));
    assert_eq!(y(d[0]), Some(4.0));
}

/// A win at once is "a forced win in 1 ply", not "in 1 plies" (issue 44).
#[test]
fn a_win_at_once_is_said_in_the_singular() {
    use tabula_core::Strategy;
    let g = game("");
    // Red has three in column 1; its next disc there wins.
    let s = play(&g, "1 2 1 2 1 2");
    let mut player = crate::search::SearchPlayer::new(crate::search::SearchLimits::default());
    let mut rng = tabula_core::rng_from_seed(1);
    let choice = player.choose(&g, &s, 0, &mut rng).unwrap();
    let reason = choice.reason.unwrap_or_default();
    assert_eq!(reason, "a forced win in 1 ply");
}
