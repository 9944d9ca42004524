//! The rules, the notation and the players of Pig.

use tabula_core::{
    Game, GameExt, MoveError, Notation, Outcome, Players, Registered, Turn, Variant,
};
use tabula_pig::{HoldAt, Move, Pig, Race, Start};

fn game(v: &str) -> Pig {
    Pig::from_variant(&Variant::parse(v).unwrap()).unwrap()
}

fn play(g: &Pig, at: &str, moves: &[&str]) -> String {
    let mut s = g.parse_position(at).unwrap();
    for m in moves {
        let mv = g.parse_move(&s, m).unwrap();
        g.try_play(&mut s, mv)
            .unwrap_or_else(|e| panic!("{m} at {at}: {e}"));
    }
    g.format_position(&s)
}

#[test]
fn a_turn_rolls_holds_and_loses_on_a_one() {
    let g = Pig::default();
    assert_eq!(g.format_position(&g.initial_state()), "0-0:1");
    assert_eq!(play(&g, "0-0:1", &["roll", "die 4"]), "0-0:1+4");
    assert_eq!(
        play(&g, "0-0:1", &["roll", "die 4", "r", "5", "hold"]),
        "9-0:2"
    );
    assert_eq!(
        play(&g, "9-0:2", &["roll", "die 6", "roll", "die 1"]),
        "9-0:1"
    );
    // Rolling is a chance node with six equal faces.
    let s = g.parse_position("9-0:2+6r").unwrap();
    assert_eq!(g.turn(&s), Turn::Chance);
    let mut out = Vec::new();
    g.chance_outcomes(&s, &mut out);
    assert_eq!(out.len(), 6);
    assert!((out.iter().map(|o| o.1).sum::<f64>() - 1.0).abs() < 1e-12);
}

#[test]
fn a_turn_must_roll_before_it_holds() {
    let g = Pig::default();
    let mut s = g.initial_state();
    assert_eq!(g.moves(&s), vec![Move::Roll]);
    match g.try_play(&mut s, Move::Hold) {
        Err(MoveError::Illegal { reason, .. }) => assert!(reason.contains("at least once")),
        other => panic!("{other:?}"),
    }
    assert!(g.try_play(&mut s, Move::Die(3)).is_err());
    g.try_play(&mut s, Move::Roll).unwrap();
    assert!(g.try_play(&mut s, Move::Hold).is_err());
}

#[test]
fn reaching_the_goal_wins_at_once() {
    let g = game("goal=20");
    assert_eq!(play(&g, "15-18:1+3", &["roll", "die 2"]), "20-18:1");
    let s = g.parse_position("20-18:1").unwrap();
    assert_eq!(g.turn(&s), Turn::Over(Outcome::Win(0)));
    assert!(g.moves(&s).is_empty());
    assert_eq!(play(&g, "15-18:2", &["roll", "die 6"]), "15-24:2");
}

#[test]
fn two_dice_lose_the_turn_on_a_one_and_everything_on_two() {
    let g = game("dice=2");
    assert_eq!(play(&g, "30-40:1+8", &["roll", "dice 3+4"]), "30-40:1+15");
    assert_eq!(play(&g, "30-40:1+8", &["roll", "dice 5+1"]), "30-40:2");
    assert_eq!(play(&g, "30-40:1+8", &["roll", "dice 1+1"]), "0-40:2");
    let s = g.parse_position("30-40:1+8r").unwrap();
    let mut out = Vec::new();
    g.chance_outcomes(&s, &mut out);
    assert_eq!(out.len(), 21);
    assert!((out.iter().map(|o| o.1).sum::<f64>() - 1.0).abs() < 1e-12);
    // One die's turn totals below 4 cannot happen with two dice.
    assert!(g.parse_position("30-40:1+3").is_err());
}

#[test]
fn who_starts_is_a_variant() {
    assert_eq!(
        game("start=2").format_position(&game("start=2").initial_state()),
        "0-0:2"
    );
    let r = game("start=random");
    let s = r.initial_state();
    assert_eq!(r.format_position(&s), "0-0:?");
    assert_eq!(r.moves(&s), vec![Move::Starter(0), Move::Starter(1)]);
    assert_eq!(play(&r, "0-0:?", &["start 2"]), "0-0:2");
    for v in [
        "",
        "goal=20",
        "dice=2",
        "start=random",
        "goal=7,dice=2,start=2",
    ] {
        let g = game(v);
        assert_eq!(Pig::from_variant(&g.variant()).unwrap(), g, "{v}");
    }
    for bad in ["goal=1", "goal=201", "dice=3", "start=3", "goal=x"] {
        assert!(
            Pig::from_variant(&Variant::parse(bad).unwrap()).is_err(),
            "{bad}"
        );
    }
    assert_eq!(Pig::new(50, 1, Start::First), game("goal=50"));
}

#[test]
fn positions_that_break_the_rules_are_refused() {
    let g = Pig::default();
    for bad in [
        "",
        "0-0",
        "0-0:3",
        "5-0:?",
        "0-0:1+1",
        "90-0:1+10",
        "100-100:1",
        "100-0:2",
        "100-0:1+4",
        "106-0:1",
        "99999999999-0:1",
        "a-b:1",
        "-0:1",
    ] {
        assert!(g.parse_position(bad).is_err(), "{bad}");
    }
    for good in ["0-0:1", "99-90:2+2r", "105-3:1", "0-0:2r"] {
        let s = g.parse_position(good).unwrap();
        assert_eq!(g.format_position(&s), good);
    }
}

#[test]
fn the_simple_players_follow_their_rules() {
    let g = Pig::default();
    let mut rng = tabula_core::rng_from_seed(1);
    let mut hold = HoldAt::from_options("").unwrap();
    let choose = |p: &mut dyn tabula_core::Strategy<Pig>, t: &str, rng: &mut _| {
        let s = g.parse_position(t).unwrap();
        p.choose(&g, &s, s.side().unwrap(), rng).unwrap().mv
    };
    assert_eq!(choose(&mut hold, "0-0:1+18", &mut rng), Move::Roll);
    assert_eq!(choose(&mut hold, "0-0:1+20", &mut rng), Move::Hold);
    let mut h25 = HoldAt::from_options("25").unwrap();
    assert_eq!(choose(&mut h25, "0-0:1+24", &mut rng), Move::Roll);
    assert_eq!(
        HoldAt::from_options(" at = 25 ").unwrap(),
        HoldAt { at: 25 }
    );
    let hold_words = "the turn total to hold at must be a whole number from 1 to 1000";
    for bad in ["0", "x", "1001", "at=", "at=-2"] {
        assert_eq!(
            HoldAt::from_options(bad).unwrap_err().to_string(),
            hold_words,
            "{bad}"
        );
    }
    // Keep pace: 21 at level scores, 26 when 40 behind, to the goal past 71.
    assert_eq!(Race::threshold(&g, 10, 10), Some(21));
    assert_eq!(Race::threshold(&g, 10, 50), Some(26));
    assert_eq!(Race::threshold(&g, 50, 10), Some(16));
    assert_eq!(Race::threshold(&g, 10, 71), None);
    let mut race = Race;
    assert_eq!(choose(&mut race, "10-10:1+21", &mut rng), Move::Hold);
    assert_eq!(choose(&mut race, "10-50:1+21", &mut rng), Move::Roll);
    assert_eq!(choose(&mut race, "10-75:1+40", &mut rng), Move::Roll);
    for k in g.custom_player_kinds() {
        assert!(
            matches!(g.custom_player(&k.name, "", 1), Some(Ok(_))),
            "{}",
            k.name
        );
    }
    // A bad option is refused in the player's words, not ignored.
    let refusal = |name: &str, options: &str| match g.custom_player(name, options, 1) {
        Some(Err(words)) => words,
        _ => panic!("{name}:{options} was not refused"),
    };
    assert_eq!(refusal("hold", "zero"), hold_words);
    assert_eq!(
        refusal("hold", "when=20"),
        "this player has no option 'when' (its options: at)"
    );
    assert_eq!(refusal("race", "fast"), "race takes no options");
}

#[test]
fn analysis_gives_exact_chances() {
    let g = game("goal=30");
    let s = g.parse_position("10-20:1+4").unwrap();
    let extra = tabula_core::ExactAnalysis::analysis_extra(&g, &s).unwrap();
    let moves = extra.moves.expect("graded moves");
    assert_eq!(moves.len(), 2);
    let chance = |m: &tabula_core::GradedMove| match m.grade {
        tabula_core::MoveGrade::WinChance {
            chance,
            exact: true,
        } => chance,
        ref other => panic!("{other:?}"),
    };
    assert!(chance(&moves[0]) >= chance(&moves[1]));
    match extra.value {
        Some(tabula_core::PositionValue::WinChances { chances }) => {
            assert!((chances[0].chance - chance(&moves[0])).abs() < 1e-12);
            assert!((chances[0].chance + chances[1].chance - 1.0).abs() < 1e-12);
        }
        other => panic!("{other:?}"),
    }
    assert!(g.evaluate(&s, 0) < 0.0 && (g.evaluate(&s, 0) + g.evaluate(&s, 1)).abs() < 1e-12);
}
