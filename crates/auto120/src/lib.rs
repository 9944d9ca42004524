//! Multiplication Ludo ("Auto120", seed 003): two players, four markers each on
//! position 1; a marker moves from p to p x roll; exactly 120 retires it, beyond
//! 120 sends it back to 1, and landing on opposing markers sends them back to 1.
//! The first player to retire all four markers wins.
//!
//! The start is a chance node (the draw for the first player) and every turn
//! begins with one (the die). See docs/games/auto120.md for the notation, the log
//! format and the players.

pub mod best;
pub mod board;
pub mod log;
pub mod notation;
pub mod scenario;
pub mod solo;
pub mod state;
pub mod view;

pub use best::Best;
pub use scenario::Scenario;
pub use state::{Move, MoveEffect, State};

use state::NO_SIDE;
use tabula_ai::expectimax::Expectimax;
use tabula_core::{
    Game, MoveError, ParseError, PlayerKind, Registered, Seat, Strategy, Turn, Variant,
    VariantError, VariantOption, View,
};

/// The game (it has no variant options).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Auto120;

const SEATS: [&str; 2] = ["Player 1", "Player 2"];

impl Auto120 {
    /// The log of a game played from `start`: one line per decision (rolls of
    /// 2..=6 are reported in the marker line that uses them). Each ply carries the
    /// reason its player gave, if any. Fails at the first illegal move.
    pub fn game_log(
        &self,
        start: &State,
        plies: &[(Move, Option<String>)],
    ) -> Result<Vec<String>, MoveError> {
        let mut state = *start;
        let mut lines = Vec::new();
        for (mv, reason) in plies {
            let line = log::log_line(&state, *mv, reason.as_deref());
            self.try_play(&mut state, *mv)?;
            if !line.is_empty() {
                lines.push(line);
            }
        }
        Ok(lines)
    }
}

impl Game for Auto120 {
    type State = State;
    type Move = Move;

    fn name(&self) -> &'static str {
        "auto120"
    }

    fn seats(&self) -> &'static [&'static str] {
        &SEATS
    }

    fn initial_state(&self) -> State {
        State::start()
    }

    #[inline]
    fn turn(&self, state: &State) -> Turn {
        state.turn()
    }

    fn legal_moves(&self, state: &State, out: &mut Vec<Move>) {
        match state.turn() {
            Turn::Over(_) => {}
            Turn::Chance if state.side == NO_SIDE => {
                out.extend([Move::Starter(0), Move::Starter(1)])
            }
            Turn::Chance => out.extend((1..=6).map(Move::Roll)),
            Turn::Move(seat) => {
                for (m, &p) in state.markers[seat].iter().enumerate() {
                    if p != board::TARGET {
                        out.push(Move::Marker(m as u8));
                    }
                }
            }
        }
    }

    #[inline]
    fn play_unchecked(&self, state: &mut State, mv: Move) {
        state.apply(mv);
    }

    fn try_play(&self, state: &mut State, mv: Move) -> Result<(), MoveError> {
        match state.illegal_reason(mv) {
            None => {
                state.apply(mv);
                Ok(())
            }
            Some(_) if state.turn().is_over() => Err(MoveError::GameOver),
            Some(reason) => Err(MoveError::Illegal {
                mv: notation::format_move(mv),
                reason,
            }),
        }
    }

    fn chance_outcomes(&self, state: &State, out: &mut Vec<(Move, f64)>) {
        match state.turn() {
            Turn::Chance if state.side == NO_SIDE => {
                out.extend([(Move::Starter(0), 0.5), (Move::Starter(1), 0.5)])
            }
            Turn::Chance => out.extend((1..=6).map(|r| (Move::Roll(r), 1.0 / 6.0))),
            _ => {}
        }
    }

    fn parse_move(&self, state: &State, text: &str) -> Result<Move, ParseError> {
        notation::parse_move(state, text)
    }

    fn format_move(&self, _state: &State, mv: Move) -> String {
        notation::format_move(mv)
    }

    fn parse_position(&self, text: &str) -> Result<State, ParseError> {
        notation::parse_position(text)
    }

    fn format_position(&self, state: &State) -> String {
        notation::format_position(state)
    }

    fn render_text(&self, state: &State) -> String {
        view::render_text(state)
    }

    fn view(&self, state: &State) -> View {
        view::view(state)
    }

    fn move_cells(&self, state: &State, mv: Move) -> Vec<u32> {
        view::move_cells(state, mv)
    }

    /// The race evaluation: 2 P(win) - 1 for `seat`, where P(win) comes from the
    /// exact solo finishing-time distributions of both players (bumps ignored
    /// beyond the current position). At a decision node the side to move takes its
    /// best marker move first.
    fn evaluate(&self, state: &State, seat: Seat) -> f64 {
        let t = solo::tables();
        let p = match state.turn() {
            Turn::Over(o) => return o.sign_for(seat) as f64,
            Turn::Chance if state.side == NO_SIDE => return 0.0,
            Turn::Chance => {
                let s = state.side as usize;
                let p = t.race(state.markers[s], state.markers[1 - s]);
                if s == seat {
                    p
                } else {
                    1.0 - p
                }
            }
            Turn::Move(s) => {
                let p = Best { depth: 1 }
                    .rank_moves(state)
                    .first()
                    .map_or(0.5, |&(_, p)| p);
                if s == seat {
                    p
                } else {
                    1.0 - p
                }
            }
        };
        2.0 * p - 1.0
    }

    fn custom_player_kinds(&self) -> Vec<PlayerKind> {
        vec![
            PlayerKind::new(
                "scenario",
                "the seed's scenario sets A-D: penultimate, factor, bump off the path, else random (option finish: 120 joins Set A)",
            ),
            PlayerKind::new(
                "expectimax",
                "generic expectimax over the dice with the race evaluation (options: depth=N plies, ms=T; default depth=3)",
            ),
            PlayerKind::new(
                "best",
                "two-turn expectimax with exact solo race tables at the leaves (option: depth=1..4 turns)",
            ),
        ]
    }

    fn custom_player(
        &self,
        name: &str,
        options: &str,
        _seed: u64,
    ) -> Option<Box<dyn Strategy<Self>>> {
        match name {
            "scenario" => Scenario::from_options(options)
                .ok()
                .map(|p| Box::new(p) as Box<dyn Strategy<Self>>),
            "expectimax" => {
                let opts = if options.trim().is_empty() {
                    "depth=3"
                } else {
                    options
                };
                Expectimax::from_options(opts)
                    .ok()
                    .map(|p| Box::new(p) as Box<dyn Strategy<Self>>)
            }
            "best" => Best::from_options(options)
                .ok()
                .map(|p| Box::new(p) as Box<dyn Strategy<Self>>),
            _ => None,
        }
    }

    fn describe_move(&self, state: &State, mv: Move) -> String {
        log::describe_move(state, mv)
    }

    fn log_line(
        &self,
        state: &State,
        _seat: Option<Seat>,
        mv: Move,
        reason: Option<&str>,
    ) -> Option<String> {
        Some(log::log_line(state, mv, reason))
    }

    fn analysis_extra(&self, state: &State) -> Option<serde_json::Value> {
        let t = solo::tables();
        let expected: Vec<f64> = (0..2).map(|s| t.expected_turns(state.markers[s])).collect();
        let mut extra = serde_json::json!({
            "penultimate": board::positions(board::is_penultimate),
            "factor": board::positions(board::is_factor),
            "solo_expected_turns": expected,
            "retired": [state.retired(0), state.retired(1)],
        });
        if let Turn::Move(_) = state.turn() {
            let ranked: Vec<serde_json::Value> = Best::default()
                .rank_moves(state)
                .into_iter()
                .map(|(m, p)| serde_json::json!({"move": notation::format_move(Move::Marker(m)), "win_probability": p}))
                .collect();
            extra["best_moves"] = serde_json::Value::Array(ranked);
        }
        Some(extra)
    }
}

impl Registered for Auto120 {
    const NAME: &'static str = "auto120";
    const TITLE: &'static str = "Multiplication Ludo (Auto120)";
    const SUMMARY: &'static str =
        "Dice race on a 1-120 track where markers multiply their position by the roll and must land exactly on 120.";

    fn options() -> Vec<VariantOption> {
        Vec::new()
    }

    fn from_variant(variant: &Variant) -> Result<Self, VariantError> {
        variant.check_known(Self::NAME, &Self::options())?;
        Ok(Auto120)
    }

    fn variant(&self) -> Variant {
        Variant::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chance_nodes_are_exact() {
        let g = Auto120;
        let mut out = Vec::new();
        g.chance_outcomes(&g.initial_state(), &mut out);
        assert_eq!(out, vec![(Move::Starter(0), 0.5), (Move::Starter(1), 0.5)]);
        let s = g.parse_position("1,1,1,1/1,1,1,1:1").unwrap();
        out.clear();
        g.chance_outcomes(&s, &mut out);
        assert_eq!(out.len(), 6);
        assert!((out.iter().map(|o| o.1).sum::<f64>() - 1.0).abs() < 1e-12);
    }

    #[test]
    fn legal_moves_are_the_markers_in_game() {
        let g = Auto120;
        let s = g.parse_position("120,1,40,120/1,1,1,1:1r3").unwrap();
        let mut out = Vec::new();
        g.legal_moves(&s, &mut out);
        assert_eq!(out, vec![Move::Marker(1), Move::Marker(2)]);
        let mut t = s;
        assert!(matches!(
            g.try_play(&mut t, Move::Marker(0)),
            Err(MoveError::Illegal { .. })
        ));
        assert!(matches!(
            g.try_play(&mut t, Move::Roll(3)),
            Err(MoveError::Illegal { .. })
        ));
        g.try_play(&mut t, Move::Marker(2)).unwrap();
        assert_eq!(g.format_position(&t), "120,1,120,120/1,1,1,1:2");
    }

    #[test]
    fn game_log_reads_like_the_seed() {
        let g = Auto120;
        let plies = vec![
            (Move::Starter(1), None),
            (Move::Roll(1), None),
            (Move::Roll(4), None),
            (Move::Marker(0), Some("scenario B".to_string())),
        ];
        let log = g.game_log(&g.initial_state(), &plies).unwrap();
        assert_eq!(
            log,
            vec![
                "Player 2 goes first",
                "Player 2 rolls 1 and forfeits the turn",
                "Player 1 rolls 4, scenario B: marker 1 from 1 to 4",
            ]
        );
    }

    #[test]
    fn variants_are_checked() {
        assert!(Auto120::from_variant(&Variant::parse("").unwrap()).is_ok());
        assert!(Auto120::from_variant(&Variant::parse("size=3").unwrap()).is_err());
    }

    #[test]
    fn custom_players_are_built_by_name() {
        let g = Auto120;
        for k in g.custom_player_kinds() {
            assert!(g.custom_player(&k.name, "", 1).is_some(), "{}", k.name);
        }
        assert!(g.custom_player("scenario", "bogus", 1).is_none());
        assert!(g.custom_player("best", "depth=9", 1).is_none());
        assert!(g.custom_player("expectimax", "ms=20", 1).is_some());
    }

    #[test]
    fn evaluate_is_bounded_and_antisymmetric() {
        let g = Auto120;
        for text in [
            "4,20,1,1/6,1,1,1:2",
            "4,20,1,1/6,1,1,1:2r5",
            "120,120,120,40/1,1,1,1:2",
        ] {
            let s = g.parse_position(text).unwrap();
            let a = g.evaluate(&s, 0);
            assert!((-1.0..=1.0).contains(&a));
            assert!((a + g.evaluate(&s, 1)).abs() < 1e-9);
        }
        let s = g.parse_position("120,120,120,40/1,1,1,1:2").unwrap();
        assert!(g.evaluate(&s, 0) > 0.3);
    }
}
