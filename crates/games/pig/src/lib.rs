//! Pig: two players race to a goal (100 points) with one die. On a turn a player
//! rolls as often as they like: a 1 ends the turn with nothing for it, 2 to 6 add
//! to the turn total; holding banks the turn total and passes the die. Reaching
//! the goal (banked score plus turn total) wins at once. Variants: the goal, two
//! dice (a single 1 ends the turn, two 1s also lose the whole banked score) and
//! who starts. Solved exactly as Neller and Presser did ("Optimal Play of
//! Two-Player Pig", 2004) by the generic solver of dice games. See
//! crates/games/pig/docs/pig.md.

mod actions;
pub mod boundary;
pub mod notation;
pub mod players;
pub mod solve;
pub mod state;

pub use players::{HoldAt, Optimal, Race};
pub use state::{Move, State};

use state::NO_SIDE;
use tabula_core::{
    AnalysisExtra, ExactAnalysis, FactValue, Game, GradedMove, MatchRules, MoveError, MoveGrade,
    Notation, Outcome, OwnPlayer, ParseError, PlayerKind, Players, Presentation, Registered,
    Report, Seat, Section, Symmetry, Turn, Variant, VariantChoice, VariantError, VariantOption,
    View, ViewCell,
};

/// The seats, in turn order.
pub const SEATS: [&str; 2] = ["Player 1", "Player 2"];
/// The usual goal.
pub const DEFAULT_GOAL: u16 = 100;
/// The largest goal (its exact table: 4 million positions, 32 MiB).
pub const MAX_GOAL: u16 = 200;

/// Who starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Start {
    /// Player 1 (the usual rule).
    First,
    /// Player 2.
    Second,
    /// Drawn by lot at the start of each game.
    Random,
}

/// The game in one variant.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Pig {
    goal: u16,
    dice: u8,
    start: Start,
}

impl Default for Pig {
    fn default() -> Self {
        Pig {
            goal: DEFAULT_GOAL,
            dice: 1,
            start: Start::First,
        }
    }
}

impl Pig {
    /// Pig to `goal` (2..=[`MAX_GOAL`], clamped) with `dice` dice (1 or 2).
    pub fn new(goal: u16, dice: u8, start: Start) -> Pig {
        Pig {
            goal: goal.clamp(2, MAX_GOAL),
            dice: dice.clamp(1, 2),
            start,
        }
    }
    /// The points to reach.
    pub fn goal(&self) -> u16 {
        self.goal
    }
    /// One die or two.
    pub fn dice(&self) -> u8 {
        self.dice
    }
    /// Who starts.
    pub fn start(&self) -> Start {
        self.start
    }
    /// The fewest points a scoring roll adds (2 with one die, 4 with two).
    pub fn least_points_per_roll(&self) -> u16 {
        2 * self.dice as u16
    }
    /// The most points one roll adds (6 or 12).
    pub fn most_points_per_roll(&self) -> u16 {
        6 * self.dice as u16
    }
    /// "Pig to 100", "Two-Dice Pig to 100".
    pub fn title(&self) -> String {
        if self.dice == 2 {
            format!("Two-Dice Pig to {}", self.goal)
        } else {
            format!("Pig to {}", self.goal)
        }
    }
}

impl Game for Pig {
    type State = State;
    type Move = Move;

    const NAME: &'static str = "pig";

    fn seats(&self) -> &'static [&'static str] {
        &SEATS
    }

    fn initial_state(&self) -> State {
        State {
            scores: [0, 0],
            turn_total: 0,
            side: match self.start {
                Start::First => 0,
                Start::Second => 1,
                Start::Random => NO_SIDE,
            },
            rolling: false,
        }
    }

    #[inline]
    fn turn(&self, state: &State) -> Turn {
        if let Some(w) = state.winner(self.goal) {
            return Turn::Over(Outcome::Win(w));
        }
        match state.side() {
            None => Turn::Chance,
            Some(_) if state.rolling => Turn::Chance,
            Some(s) => Turn::Move(s),
        }
    }

    fn legal_moves(&self, state: &State, out: &mut Vec<Move>) {
        match self.turn(state) {
            Turn::Over(_) => {}
            Turn::Chance if state.side == NO_SIDE => {
                out.extend([Move::Starter(0), Move::Starter(1)])
            }
            Turn::Chance if self.dice == 1 => out.extend((1..=6).map(Move::Die)),
            Turn::Chance => {
                for a in 1..=6 {
                    out.extend((a..=6).map(|b| Move::Dice(a, b)));
                }
            }
            Turn::Move(_) => {
                out.push(Move::Roll);
                // A turn must roll at least once: nothing to hold before that.
                if state.turn_total > 0 {
                    out.push(Move::Hold);
                }
            }
        }
    }

    #[inline]
    fn play_unchecked(&self, state: &mut State, mv: Move) {
        state.apply(mv, self.goal);
    }

    fn try_play(&self, state: &mut State, mv: Move) -> Result<(), MoveError> {
        let illegal = |reason: &str| MoveError::Illegal {
            mv: notation::format_move(mv),
            reason: reason.into(),
        };
        match (self.turn(state), mv) {
            (Turn::Over(_), _) => return Err(MoveError::GameOver),
            (Turn::Move(_), Move::Hold) if state.turn_total == 0 => {
                return Err(illegal("a turn must roll at least once before holding"))
            }
            (Turn::Move(_), Move::Roll | Move::Hold) => {}
            (Turn::Move(_), _) => {
                return Err(illegal("the dice are not rolling: choose roll or hold"))
            }
            (Turn::Chance, Move::Roll | Move::Hold) => {
                return Err(illegal("the dice are rolling: wait for them to land"))
            }
            (Turn::Chance, _) => {
                let mut outcomes = Vec::new();
                self.legal_moves(state, &mut outcomes);
                if !outcomes.contains(&mv) {
                    return Err(illegal("that is not what can come up here"));
                }
            }
        }
        state.apply(mv, self.goal);
        Ok(())
    }

    fn chance_outcomes(&self, state: &State, out: &mut Vec<(Move, f64)>) {
        match self.turn(state) {
            Turn::Chance if state.side == NO_SIDE => {
                out.extend([(Move::Starter(0), 0.5), (Move::Starter(1), 0.5)])
            }
            Turn::Chance if self.dice == 1 => {
                out.extend((1..=6).map(|d| (Move::Die(d), 1.0 / 6.0)))
            }
            Turn::Chance => {
                for a in 1..=6u8 {
                    for b in a..=6u8 {
                        // An unordered pair of different faces comes up in two ways.
                        let ways = if a == b { 1.0 } else { 2.0 };
                        out.push((Move::Dice(a, b), ways / 36.0));
                    }
                }
            }
            _ => {}
        }
    }
}

impl Notation for Pig {
    fn parse_move(&self, state: &State, text: &str) -> Result<Move, ParseError> {
        notation::parse_move(self, state, text)
    }
    fn format_move(&self, _state: &State, mv: Move) -> String {
        notation::format_move(mv)
    }
    fn parse_position(&self, text: &str) -> Result<State, ParseError> {
        notation::parse_position(self, text)
    }
    fn format_position(&self, state: &State) -> String {
        notation::format_position(state)
    }
}

/// Cell ids of the view: the two buttons, then the two scores and the turn total.
const ROLL_CELL: u32 = 0;
const HOLD_CELL: u32 = 1;

impl Presentation for Pig {
    fn render_text(&self, state: &State) -> String {
        let mut out = format!("{} (first to {} wins)\n", self.title(), self.goal);
        for (s, seat) in SEATS.iter().enumerate() {
            let mark = if state.side() == Some(s) { ">" } else { " " };
            out.push_str(&format!("{mark} {seat}: {}", state.scores[s]));
            if state.side() == Some(s) && state.winner(self.goal).is_none() {
                out.push_str(&format!("   this turn: {}", state.turn_total));
                if state.rolling {
                    out.push_str(" (rolling)");
                }
            }
            out.push('\n');
        }
        out
    }

    fn view(&self, state: &State) -> View {
        let cell = |id: u32, x: f64, label: &str| ViewCell {
            id,
            x,
            y: 1.0,
            w: 2.0,
            h: 1.0,
            label: Some(label.into()),
            mark: Some(tabula_core::Mark::Button),
            ..ViewCell::default()
        };
        let mut status: Vec<String> = SEATS
            .iter()
            .zip(state.scores)
            .map(|(seat, s)| format!("{seat}: {s}"))
            .collect();
        match self.turn(state) {
            Turn::Over(Outcome::Win(w)) => status.push(format!("{} wins", SEATS[w])),
            Turn::Move(s) => status.push(format!(
                "{} to play, {} points this turn",
                SEATS[s], state.turn_total
            )),
            _ => status.push("The dice are rolling".into()),
        }
        let facts = SEATS
            .iter()
            .zip(state.scores)
            .map(|(seat, s)| {
                tabula_core::Fact::new(*seat, tabula_core::FactValue::Integer(i64::from(s)))
            })
            .collect();
        View {
            width: 5.0,
            height: 3.0,
            layout: tabula_core::Layout::Buttons,
            labels: tabula_core::LabelPlace::Centre,
            cells: vec![cell(ROLL_CELL, 0.0, "roll"), cell(HOLD_CELL, 3.0, "hold")],
            status,
            facts,
            // Two buttons: no sides to see the board from.
            flippable: false,
            ..View::default()
        }
    }

    /// The board, and the dice card: the last roll, whose it was, and the points
    /// of the turn in progress.
    fn view_after(&self, history: tabula_core::History<'_, Self>) -> View {
        let state = history.position();
        let mut v = self.view(state);
        let rolled = history.recent().find_map(|(before, mv)| match mv {
            Move::Die(d) => Some((vec![d], before.side())),
            Move::Dice(a, b) => Some((vec![a, b], before.side())),
            _ => None,
        });
        let (roll, seat) = rolled.unwrap_or((Vec::new(), None));
        let facts = match (self.turn(state), state.side()) {
            (Turn::Over(_), _) | (_, None) => Vec::new(),
            (_, Some(side)) => vec![tabula_core::Fact::new(
                format!("{}'s points this turn", SEATS[side]),
                tabula_core::FactValue::Integer(i64::from(state.turn_total)),
            )],
        };
        v.panels = vec![tabula_core::PanelFacts::Dice { roll, seat, facts }];
        v
    }

    fn move_cells(&self, _state: &State, mv: Move) -> Vec<u32> {
        match mv {
            Move::Roll => vec![ROLL_CELL],
            Move::Hold => vec![HOLD_CELL],
            _ => Vec::new(),
        }
    }

    fn describe_move(&self, state: &State, mv: Move) -> String {
        let side = state.side().unwrap_or(0);
        match mv {
            // A turn's first roll is not "again".
            Move::Roll if state.turn_total == 0 => "roll".into(),
            Move::Roll => "roll again".into(),
            Move::Hold => format!(
                "hold: bank {} points for a score of {}",
                state.turn_total,
                state.scores[side] + state.turn_total
            ),
            Move::Die(1) | Move::Dice(1, 2..) => {
                format!("a 1: the {} points of this turn are lost", state.turn_total)
            }
            Move::Dice(1, 1) => "two 1s: the whole score is lost".into(),
            Move::Die(d) => format!("a {d}: {} points this turn", state.turn_total + d as u16),
            Move::Dice(a, b) => format!(
                "{a} and {b}: {} points this turn",
                state.turn_total + a as u16 + b as u16
            ),
            Move::Starter(s) => format!("{} goes first", SEATS[s as usize & 1]),
        }
    }

    /// The log in sentences: "Player 1 rolls", "The die shows 4: 4 points this
    /// turn", "Player 2 holds: …", not "Player 1: roll" and "Chance: a 4".
    fn log_line(
        &self,
        state: &State,
        _seat: Option<Seat>,
        mv: Move,
        reason: Option<&str>,
    ) -> Option<tabula_core::Words> {
        let who = state.side().map_or("The player", |s| SEATS[s]);
        let rolled = |what: String| match mv {
            Move::Die(_) => format!("The die shows {what}"),
            _ => format!("The dice show {what}"),
        };
        let text = match mv {
            Move::Roll if state.turn_total == 0 => format!("{who} rolls"),
            Move::Roll => format!("{who} rolls again"),
            Move::Hold => format!(
                "{who} holds: banks {} points for a score of {}",
                state.turn_total,
                state.scores[state.side().unwrap_or(0)] + state.turn_total
            ),
            Move::Die(1) => rolled(format!(
                "1: the {} points of this turn are lost",
                state.turn_total
            )),
            Move::Dice(1, 1) => rolled("two 1s: the whole score is lost".into()),
            Move::Dice(a, b) if a == 1 || b == 1 => rolled(format!(
                "{a} and {b}: the {} points of this turn are lost",
                state.turn_total
            )),
            Move::Die(d) => rolled(format!(
                "{d}: {} points this turn",
                state.turn_total + u16::from(d)
            )),
            Move::Dice(a, b) => rolled(format!(
                "{a} and {b}: {} points this turn",
                state.turn_total + u16::from(a) + u16::from(b)
            )),
            Move::Starter(s) => format!("{} goes first", SEATS[s as usize & 1]),
        };
        let text = match reason {
            Some(r) => format!("{text} ({r})"),
            None => text,
        };
        Some(tabula_core::Words::text(text))
    }
}

impl Symmetry for Pig {}

impl ExactAnalysis for Pig {
    fn position_bound(&self, _start: &State) -> Option<u64> {
        use tabula_ai::chance_solve::ChanceIndex;
        // Decision positions of both seats, and as many rolling ones.
        Some(4 * self.index_len() as u64 + 1)
    }

    /// `tabula solve pig`: the exact solution's figures and the first player's
    /// chance (refused when it cannot fit the memory budget).
    fn solve_report(
        &self,
        request: &Report,
        progress: &dyn Fn(f64),
    ) -> Option<Result<tabula_core::SolveReport, String>> {
        let position = match &request.position {
            Some(text) => match self.parse_position(text) {
                Ok(s) => Some(s),
                Err(e) => return Some(Err(e.to_string())),
            },
            None => None,
        };
        Some(solve::report(
            self,
            &request.budget,
            position.as_ref(),
            progress,
        ))
    }

    fn analysis_extra(&self, state: &State) -> Option<AnalysisExtra> {
        Some(analysis(self, state))
    }

    /// `optimal` reads the exact table of chances (solved once, then kept on
    /// disk), which hints read too: built here with its progress, so that the
    /// first move is not a silent wait of up to minutes.
    fn prepare_player(&self, player: &str, progress: &dyn Fn(f64)) -> Option<Result<(), String>> {
        (player == "optimal").then(|| {
            let budget = tabula_core::Budget::default();
            solve::shared(self, budget.ledger().limit(), &budget, progress).map(|_| ())
        })
    }
}

/// The analysis of a position: each seat's exact chance, every move's, and what
/// the simple rules would do.
fn analysis(game: &Pig, state: &State) -> AnalysisExtra {
    let mut out = AnalysisExtra::default();
    if let Some(side) = state.side() {
        if state.winner(game.goal).is_none() {
            let (mine, theirs) = (state.scores[side], state.scores[1 - side]);
            let mut rules = Section::new("This turn")
                .with(
                    "Points this turn",
                    FactValue::Integer(state.turn_total as i64),
                )
                .with(
                    "Score if the player holds now",
                    FactValue::Integer((mine + state.turn_total) as i64),
                )
                .with(
                    "Points still needed",
                    FactValue::Integer((game.goal - mine - state.turn_total) as i64),
                );
            rules.push(
                "Keeping pace would",
                FactValue::Text(match Race::threshold(game, mine, theirs) {
                    Some(at) if state.turn_total >= at => format!("hold (it holds at {at})"),
                    Some(at) => format!("roll (it holds at {at})"),
                    None => "roll on to the goal".into(),
                }),
            );
            out.sections.push(rules);
        }
    }
    let Some(sol) = solve::in_time(game) else {
        return out;
    };
    if let Some(side) = state.side() {
        if let Some(p) = sol.chance_for(state, side) {
            out.value = Some(solve::chances(side, p));
        }
    }
    let moves: Vec<GradedMove> = sol
        .move_values(state)
        .into_iter()
        .map(|(mv, chance)| GradedMove {
            notation: notation::format_move(mv),
            cells: game.move_cells(state, mv),
            grade: MoveGrade::WinChance {
                chance,
                exact: true,
            },
        })
        .collect();
    if !moves.is_empty() {
        out.moves = Some(moves);
    }
    out
}

impl Players for Pig {
    /// The lead, counting the turn total, as a share of the goal: about -1..1.
    fn evaluate(&self, state: &State, seat: Seat) -> f64 {
        if let Turn::Over(o) = self.turn(state) {
            return o.sign_for(seat) as f64;
        }
        let mut s = [state.scores[0] as f64, state.scores[1] as f64];
        if let Some(side) = state.side() {
            s[side] += state.turn_total as f64;
        }
        ((s[seat & 1] - s[1 - (seat & 1)]) / self.goal as f64).clamp(-1.0, 1.0)
    }

    fn own_players(&self) -> Vec<OwnPlayer<Self>> {
        vec![
            OwnPlayer::plain(
                PlayerKind::new(
                    "optimal",
                    "perfect play from the exact solution: the choice with the highest chance to win",
                )
                .with_words("Perfect play (exact chances)"),
                |_| Optimal,
            ),
            OwnPlayer::with_options(
                PlayerKind::new(
                    "hold",
                    "holds once the turn reaches a number of points (20 unless told)",
                )
                .with_options("hold:N")
                .with_words("Holds at 20 points"),
                |_, options, _| HoldAt::from_options(options),
            ),
            OwnPlayer::plain(
                PlayerKind::new(
                    "race",
                    "keeps pace: holds at about a fifth of the goal, more when behind, and rolls on to the goal once either player is near it",
                )
                .with_words("Keeps pace, then races for the goal"),
                |_| Race,
            ),
        ]
    }
}

impl MatchRules for Pig {}

impl Registered for Pig {
    const TITLE: &'static str = "Pig";
    const SUMMARY: &'static str =
        "Dice game of nerve: roll to build up points, but a 1 loses them; hold to bank them. First to 100 wins.";
    const RULES: &'static str = include_str!("../docs/rules.md");
    fn default_opponent(&self) -> Option<&'static str> {
        Some("optimal")
    }
    fn level_base(&self) -> &'static str {
        "optimal"
    }

    fn presentation(&self) -> tabula_core::GamePresentation {
        tabula_core::GamePresentation {
            panels: vec![
                tabula_core::Panel::Dice {
                    players: vec!["optimal", "race", "hold", "random"],
                },
                tabula_core::Panel::Facts {
                    title: "Chances from here",
                },
            ],
            // The roll/hold boundary: the tool gives it as data, the module draws it.
            tools: vec![boundary::TOOL],
            module: Some(include_str!("../web/pig.js")),
            ..Default::default()
        }
    }

    /// A dice game: chances, not a solved value, whatever the goal.
    fn test_cases() -> tabula_core::TestCases {
        tabula_core::TestCases {
            variants: vec![
                tabula_core::VariantCase::new("", false),
                tabula_core::VariantCase::new("goal=20,start=random", false),
                tabula_core::VariantCase::new("goal=50,dice=2", false)
                    .summary(&["First to 50 wins"], &["First to 100"]),
            ],
            quick: Some("goal=20"),
            ..Default::default()
        }
    }

    fn presets() -> Vec<tabula_core::Preset> {
        vec![
            tabula_core::Preset {
                name: "First to 100 (the usual game)",
                variant: "",
            },
            tabula_core::Preset {
                name: "First to 50",
                variant: "goal=50",
            },
            tabula_core::Preset {
                name: "First to 20, a short game",
                variant: "goal=20",
            },
            tabula_core::Preset {
                name: "Two dice, first to 100",
                variant: "dice=2",
            },
        ]
    }

    /// The goal and the number of dice.
    fn summary(&self) -> String {
        if self.dice == 1 {
            format!(
                "Dice game of nerve: roll to build up points, but a 1 loses them; hold to bank them. First to {} wins.",
                self.goal
            )
        } else {
            format!(
                "Dice game of nerve with two dice: roll to build up points, but a 1 loses them and two 1s the whole score; hold to bank them. First to {} wins.",
                self.goal
            )
        }
    }

    fn options() -> Vec<VariantOption> {
        vec![
            VariantOption {
                name: "goal",
                label: "points to win",
                default: "100",
                help: "the points to reach, 2 to 200 (100 is the usual game)", choices: &[],
            },
            VariantOption {
                name: "dice",
                label: "dice",
                default: "1",
                help: "1 or 2; with two dice a single 1 ends the turn and two 1s also lose the whole score", choices: &[VariantChoice { value: "1", words: "1" }, VariantChoice { value: "2", words: "2" }],
            },
            VariantOption {
                name: "start",
                label: "who starts",
                default: "1",
                help: "1 (Player 1), 2 (Player 2) or random", choices: &[
                    VariantChoice { value: "1", words: "Player 1" },
                    VariantChoice { value: "2", words: "Player 2" },
                    VariantChoice { value: "random", words: "at random" },
                ],
            },
        ]
    }

    fn from_variant(variant: &Variant) -> Result<Self, VariantError> {
        variant.check_known(Self::NAME, &Self::options())?;
        let goal = variant.int("goal", DEFAULT_GOAL as i64, 2, MAX_GOAL as i64)? as u16;
        let dice = variant.int("dice", 1, 1, 2)? as u8;
        let start = match variant.choice("start", "1", &["1", "2", "random"])? {
            "2" => Start::Second,
            "random" => Start::Random,
            _ => Start::First,
        };
        Ok(Pig::new(goal, dice, start))
    }

    fn variant(&self) -> Variant {
        let mut v = Variant::default();
        if self.goal != DEFAULT_GOAL {
            v.set("goal", self.goal.to_string());
        }
        if self.dice != 1 {
            v.set("dice", self.dice.to_string());
        }
        match self.start {
            Start::First => {}
            Start::Second => v.set("start", "2"),
            Start::Random => v.set("start", "random"),
        }
        v
    }
}
