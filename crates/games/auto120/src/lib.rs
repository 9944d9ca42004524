//! Multiplication Ludo ("Auto120" in Alistair Lloyd's "Design and Code" posts): two players, four markers each on
//! position 1; a marker moves from p to p x roll; exactly 120 retires it, beyond
//! 120 sends it back to 1, and landing on opposing markers sends them back to 1.
//! The first player to retire all four markers wins.
//!
//! The start is a chance node (the draw for the first player) and every turn
//! begins with one (the die). See crates/games/auto120/docs/auto120.md for the notation, the log
//! format and the players.

mod actions;
mod analysis;
pub mod best;
pub mod board;
pub mod board_facts;
pub mod exact;
pub mod grading;
pub mod log;
pub mod notation;
pub mod optimal;
pub mod scenario;
pub mod solo;
pub mod state;
pub mod view;

pub use best::Best;
pub use optimal::Optimal;
pub use scenario::Scenario;
pub use state::{Move, MoveEffect, State};

use state::NO_SIDE;
use tabula_ai::expectimax::Expectimax;
use tabula_core::{ExactAnalysis, MatchRules, Notation, Players, Presentation, Symmetry};
use tabula_core::{
    Game, MoveError, OwnPlayer, ParseError, PlayerKind, Registered, Report, Seat, Turn, Variant,
    VariantChoice, VariantError, VariantOption, View,
};

/// The game; the variant option `markers` (1..=4, default 4) sets the markers per player.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Auto120 {
    markers: u8,
}

impl Default for Auto120 {
    fn default() -> Self {
        Auto120 {
            markers: board::MARKERS as u8,
        }
    }
}

const SEATS: [&str; 2] = ["Player 1", "Player 2"];

/// The memory this work may use: the current budget's (a server request's),
/// else the process's (`--max-memory`).
pub(crate) fn memory_limit() -> u64 {
    tabula_core::Budget::current()
        .map_or_else(tabula_core::default_max_memory, |b| b.max_memory_bytes)
}

/// The largest variant whose exact solution is built on demand for the `optimal`
/// player and for analysis (see crates/games/auto120/docs/auto120.md for times and memory).
pub const OPTIMAL_MAX_MARKERS: usize = 3;
/// The largest variant whose exact solution analysis and hints wait for when
/// they must build it (seconds); the 3-marker table is read from the disk
/// cache when it is there, else built in the background (minutes) while the
/// hints give estimates.
pub const ANALYSIS_MAX_MARKERS: usize = 2;

impl Auto120 {
    /// The game with `markers` markers per player (1..=4; other values are clamped).
    pub fn with_markers(markers: usize) -> Auto120 {
        Auto120 {
            markers: markers.clamp(1, board::MARKERS) as u8,
        }
    }

    /// Markers per player.
    pub fn markers(&self) -> usize {
        self.markers as usize
    }

    /// The exact solution used by analysis and hints, or why there is none (in
    /// words).
    ///
    /// 1 to 3 markers: this process's table, else the one kept in the disk
    /// cache (`tabula solve auto120 --variant markers=N` or an earlier game
    /// made it), else built where it fits the memory allowed. Reading it, or
    /// building it for 1 and 2 markers (seconds), is waited for up to
    /// [`exact::ANALYSIS_WAIT`]; the 3-marker table that must be built (minutes)
    /// is built in the background, and until it is there the answer says so,
    /// so that a hint never waits for it.
    ///
    /// Four markers: the table solved in layers on disk, opened on first use
    /// when it has been made (`tabula solve auto120`); where it has not been
    /// made or cannot be read, the words that say so and what to do.
    fn analysis_solution(&self) -> Result<std::sync::Arc<exact::Solution>, String> {
        let n = self.markers();
        if n >= exact::LAYERED_MARKERS {
            return exact::solution(n, memory_limit()).map_err(|e| exact::error_text(n, &e));
        }
        let wait = if n <= ANALYSIS_MAX_MARKERS || exact::kept_on_disk(n) {
            exact::ANALYSIS_WAIT
        } else {
            std::time::Duration::ZERO
        };
        exact::solution_waiting(n, wait).map_err(|e| match e {
            exact::SolveError::Stopped => exact::being_built_text(n),
            e => exact::error_text(n, &e),
        })
    }

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

    const NAME: &'static str = "auto120";

    fn seats(&self) -> &'static [&'static str] {
        &SEATS
    }

    fn initial_state(&self) -> State {
        State::start_with(self.markers())
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
}

impl Notation for Auto120 {
    fn format_move(&self, _state: &State, mv: Move) -> String {
        notation::format_move(mv)
    }

    /// The number alone: the position says whether it is who starts, the roll
    /// or a marker (a game ID reads "1~5~3", not "start 1~roll 5~marker 3").
    fn short_move(&self, _state: &State, mv: Move) -> String {
        notation::short_move(mv)
    }

    fn parse_position(&self, text: &str) -> Result<State, ParseError> {
        notation::parse_position_with(text, self.markers())
    }

    fn parse_move(&self, state: &State, text: &str) -> Result<Move, ParseError> {
        notation::parse_move(state, text)
    }

    fn format_position(&self, state: &State) -> String {
        notation::format_position(state)
    }
}

impl Presentation for Auto120 {
    fn render_text(&self, state: &State) -> String {
        view::render_text(state)
    }

    fn view(&self, state: &State) -> View {
        view::view(state)
    }

    fn view_after(&self, history: tabula_core::History<'_, Self>) -> View {
        view::view_after(history)
    }

    fn move_cells(&self, state: &State, mv: Move) -> Vec<u32> {
        view::move_cells(state, mv)
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
    ) -> Option<tabula_core::Words> {
        Some(log::log_words(state, mv, reason))
    }
}

impl Symmetry for Auto120 {}

impl ExactAnalysis for Auto120 {
    /// `tabula solve auto120 --variant markers=N`: the exact solution's summary
    /// (refused with a message when it cannot fit the memory budget).
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
        let budget = &request.budget;
        Some(exact::report(
            self.markers(),
            budget,
            position.as_ref(),
            progress,
        ))
    }

    fn analysis_extra(&self, state: &State) -> Option<tabula_core::AnalysisExtra> {
        Some(analysis::analysis(self, state))
    }

    /// `optimal` reads the exact table: read from the disk cache or built
    /// (3 markers: minutes) before the game, with a bar, not at its first move;
    /// with four markers the table made by `tabula solve auto120` is opened,
    /// and where it has not been made there is nothing to prepare.
    fn prepare_player(&self, player: &str, progress: &dyn Fn(f64)) -> Option<Result<(), String>> {
        let n = self.markers();
        let ready = n < exact::LAYERED_MARKERS || exact::layered_record(n).is_some();
        (player == "optimal" && ready).then(|| {
            exact::solution_with_progress(n, memory_limit(), progress)
                .map(|_| ())
                .map_err(|e| exact::error_text(n, &e))
        })
    }
}

impl Players for Auto120 {
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
                let p = Best { depth: 1, exact: 0 }
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

    fn own_players(&self) -> Vec<OwnPlayer<Self>> {
        let optimal_help = if self.markers() <= OPTIMAL_MAX_MARKERS
            || exact::layered_record(self.markers()).is_some()
        {
            "perfect play from the exact solution: the move with the highest chance to win"
                .to_string()
        } else {
            format!(
                "perfect play from the exact solution, which this computer has not made yet: {}; until then it plays as best",
                exact::how_to_make(self.markers())
            )
        };
        vec![
            OwnPlayer::with_options(
                PlayerKind::new(
                    "scenario",
                    "the original program's rules of thumb, in order: move a marker one roll from home (20, 24, 30, 40, 60), else onto the path home, else send back an opponent with a marker off the path, else at random",
                )
                .with_options("scenario:finish (bringing a marker home comes first)")
                .with_words("The original program's rules of thumb"),
                |_, options, _| Scenario::from_options(options),
            ),
            OwnPlayer::with_options(
                PlayerKind::new(
                    "expectimax",
                    "generic expectimax over the dice with the race evaluation",
                )
                .with_options("expectimax:depth=N (plies, default 3),ms=T"),
                // No options: the expectimax player's own default, 3 plies.
                |_, options, _| Expectimax::from_options(options),
            ),
            OwnPlayer::with_options(
                PlayerKind::new(
                    "best",
                    "two-turn expectimax with exact solo race tables at the leaves and exact endgames",
                )
                .with_options("best:depth=1..4 (turns),exact=0..3 (markers of the endgame table)")
                .with_words("Strongest search (race tables)"),
                |game: &Self, options, _| {
                    Best::from_options(options).map(|p| p.for_markers(game.markers()))
                },
            ),
            OwnPlayer::plain(
                PlayerKind::new("optimal", &optimal_help).with_words("Perfect play (exact chances)"),
                |game: &Self| Optimal::new(game.markers()),
            ),
        ]
    }
}

impl MatchRules for Auto120 {}

impl Registered for Auto120 {
    /// The die and a quick simulation of the computer players, and the
    /// analysis's chances in a card of their own.
    fn presentation(&self) -> tabula_core::GamePresentation {
        tabula_core::GamePresentation {
            panels: vec![
                tabula_core::Panel::Dice {
                    players: vec!["scenario", "best", "random"],
                },
                tabula_core::Panel::Facts {
                    title: "Chances from here",
                },
            ],
            // The log names the rule of thumb the original program followed, and
            // the status line counts retired markers: both explained where they appear.
            glossary: vec![
                tabula_core::Term {
                    term: scenario::RULE_NAMES[0],
                    words: "the original program's first rule of thumb: move a marker onto 20, 24, 30, 40 or 60, one roll from home",
                },
                tabula_core::Term {
                    term: scenario::RULE_NAMES[1],
                    words: "its second rule: move a marker along the numbers that divide 120, the only squares that lead home",
                },
                tabula_core::Term {
                    term: scenario::RULE_NAMES[2],
                    words: "its third rule: with a marker that can no longer reach home, land on the other player's markers and send them back to 1",
                },
                tabula_core::Term {
                    term: scenario::RULE_NAMES[3],
                    words: "its last rule, when no other applies: a marker picked at random",
                },
                tabula_core::Term {
                    term: view::RETIRED,
                    words: "markers brought home to 120, where they stay; the first player to bring every marker home wins",
                },
            ],
            // One click per decision: a click on a marker moves it (the roll fixes where).
            module: Some(include_str!("../web/auto120.js")),
            marks: view::MARK_WORDS.to_vec(),
            ..Default::default()
        }
    }
    const RULES: &'static str = include_str!("../docs/rules.md");
    const TITLE: &'static str = "Multiplication Ludo (Auto120)";
    /// The Auto120 posts' program plays its scenario heuristic (Sets A-D).
    fn default_opponent(&self) -> Option<&'static str> {
        Some("scenario")
    }
    const SUMMARY: &'static str =
        "Dice race on a 1-120 track where markers multiply their position by the roll and must land exactly on 120.";

    /// A dice game: chances, not a solved value.
    fn test_cases() -> tabula_core::TestCases {
        tabula_core::TestCases {
            variants: vec![
                tabula_core::VariantCase::new("", false),
                tabula_core::VariantCase::new("markers=1", false),
            ],
            quick: Some("markers=1"),
            ..Default::default()
        }
    }

    fn presets() -> Vec<tabula_core::Preset> {
        vec![
            tabula_core::Preset {
                name: "4 markers each (the usual game)",
                variant: "",
            },
            tabula_core::Preset {
                name: "3 markers each",
                variant: "markers=3",
            },
            tabula_core::Preset {
                name: "2 markers each",
                variant: "markers=2",
            },
            tabula_core::Preset {
                name: "1 marker each",
                variant: "markers=1",
            },
        ]
    }

    fn options() -> Vec<VariantOption> {
        vec![VariantOption {
            name: "markers",
            label: "markers",
            default: "4",
            help: "markers per player, 1 to 4 (4 is the full game; with 1 to 3 the game is solved exactly)", choices: &[VariantChoice { value: "1", words: "1" }, VariantChoice { value: "2", words: "2" }, VariantChoice { value: "3", words: "3" }, VariantChoice { value: "4", words: "4" }],
        }]
    }

    fn from_variant(variant: &Variant) -> Result<Self, VariantError> {
        variant.check_known(Self::NAME, &Self::options())?;
        let n = variant.int("markers", board::MARKERS as i64, 1, board::MARKERS as i64)?;
        Ok(Auto120::with_markers(n as usize))
    }

    fn variant(&self) -> Variant {
        let mut v = Variant::default();
        if self.markers() != board::MARKERS {
            v.set("markers", self.markers.to_string());
        }
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chance_nodes_are_exact() {
        let g = Auto120::default();
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
        let g = Auto120::default();
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
        let g = Auto120::default();
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
        let two = Auto120::from_variant(&Variant::parse("markers=2").unwrap()).unwrap();
        assert_eq!(two.markers(), 2);
        assert_eq!(two.format_position(&two.initial_state()), "1,1/1,1:?");
        assert_eq!(Auto120::from_variant(&two.variant()).unwrap(), two);
        for bad in ["markers=0", "markers=5", "markers=x"] {
            assert!(
                Auto120::from_variant(&Variant::parse(bad).unwrap()).is_err(),
                "{bad}"
            );
        }
    }

    /// `tabula analyze auto120 --max-memory 1M` used to build the 53 MB race
    /// tables (and the exact table) whatever the limit: now what does not fit
    /// is left out and the analysis says why.
    #[test]
    fn analysis_keeps_within_the_memory_limit() {
        for markers in [2, 4] {
            let game = Auto120::with_markers(markers);
            let s = game.initial_state();
            let mut s2 = s;
            game.play_unchecked(&mut s2, Move::Starter(0));
            game.play_unchecked(&mut s2, Move::Roll(4));
            let small = tabula_core::Budget::new(1 << 20);
            let extra = small.run(|| game.analysis_extra(&s2)).unwrap();
            assert!(
                extra.moves.is_none() && extra.value.is_none(),
                "{markers} markers"
            );
            let note = extra.sections[0].note.clone().unwrap_or_default();
            assert!(note.contains("1 MiB allowed"), "{note}");
            // With the usual memory the same analysis grades the moves.
            let usual = tabula_core::Budget::new(1 << 30);
            let extra = usual.run(|| game.analysis_extra(&s2)).unwrap();
            assert!(
                extra.moves.is_some_and(|m| !m.is_empty()),
                "{markers} markers"
            );
        }
    }

    #[test]
    fn custom_players_are_built_by_name() {
        let g = Auto120::default();
        for k in g.custom_player_kinds() {
            assert!(
                matches!(g.custom_player(&k.name, "", 1), Some(Ok(_))),
                "{}",
                k.name
            );
        }
        assert!(g.custom_player("nobody", "", 1).is_none());
        assert!(matches!(
            g.custom_player("expectimax", "ms=20", 1),
            Some(Ok(_))
        ));
        // A bad option is refused in the player's words.
        let refusal = |name: &str, options: &str| match g.custom_player(name, options, 1) {
            Some(Err(words)) => words,
            _ => panic!("{name}:{options} was not refused"),
        };
        assert_eq!(
            refusal("scenario", "bogus"),
            "this player has no option 'bogus' (its options: finish)"
        );
        assert_eq!(
            refusal("scenario", "finish=1"),
            "bringing a marker home first is a word on its own: write just 'finish'"
        );
        assert_eq!(
            refusal("best", "depth=9"),
            "the search depth in turns must be a whole number from 1 to 4"
        );
        assert_eq!(
            refusal("best", "exact=x"),
            "the markers of the exact endgame table must be a whole number from 0 to 3"
        );
        assert_eq!(
            refusal("expectimax", "depth=0"),
            "the search depth must be a whole number from 1 to 64"
        );
        assert_eq!(refusal("optimal", "fast"), "optimal takes no options");
    }

    #[test]
    fn solve_report_solves_small_variants_and_refuses_four_markers() {
        let one = Auto120::with_markers(1);
        let v = one
            .solve_report(&Report::default(), &|_| {})
            .unwrap()
            .unwrap();
        assert_eq!(v.figures.positions, Some(1191));
        assert!(v.figures.sweeps.is_some() && v.figures.seconds >= 0.0);
        let fact = |v: &tabula_core::SolveReport, label: &str| {
            v.sections
                .iter()
                .flat_map(|s| &s.facts)
                .find(|f| f.label == label)
                .map(|f| f.value.clone())
        };
        assert!(fact(&v, "Tables at their largest").is_some());
        assert_eq!(
            fact(&v, "First player to roll wins"),
            Some(tabula_core::FactValue::Text(
                "50.41% (probability 0.504114066)".into()
            ))
        );
        // A position's exact value and its moves.
        let at = Report {
            position: Some("20/4:1r6".into()),
            ..Report::default()
        };
        let v = one.solve_report(&at, &|_| {}).unwrap().unwrap();
        match fact(&v, "Moves") {
            Some(tabula_core::FactValue::Table(t)) => assert_eq!(t.rows[0][1], "100.00%"),
            other => panic!("{other:?}"),
        }
        let bad = Report {
            position: Some("7/1:1".into()),
            ..Report::default()
        };
        assert!(one.solve_report(&bad, &|_| {}).unwrap().is_err());
        // The posts' game does not fit the default budget: refused before any
        // work, naming the memory it needs.
        let e = Auto120::default()
            .solve_report(&Report::default(), &|_| {})
            .unwrap()
            .unwrap_err();
        assert!(e.contains("GiB") && e.contains("--max-memory"), "{e}");
    }

    #[test]
    fn analysis_gives_exact_chances_for_small_variants() {
        let two = Auto120::with_markers(2);
        let s = two.parse_position("4,1/6,1:1r5").unwrap();
        let extra = two.analysis_extra(&s).unwrap();
        let chances = |extra: &tabula_core::AnalysisExtra| -> Vec<(f64, bool)> {
            extra
                .moves
                .iter()
                .flatten()
                .filter_map(|m| match m.grade {
                    tabula_core::MoveGrade::WinChance { chance, exact } => Some((chance, exact)),
                    _ => None,
                })
                .collect()
        };
        let moves = chances(&extra);
        assert_eq!(moves.len(), 2);
        let p: Vec<f64> = moves.iter().map(|m| m.0).collect();
        assert!(moves.iter().all(|m| m.1), "exact: {moves:?}");
        assert!(p[0] >= p[1] && p[0] > 0.5 && p[1] < 1.0, "{p:?}");
        match &extra.value {
            Some(tabula_core::PositionValue::WinChances { chances }) => {
                assert_eq!(chances[0].chance, p[0]);
                assert!((chances[0].chance + chances[1].chance - 1.0).abs() < 1e-12);
            }
            other => panic!("{other:?}"),
        }
        // Four markers: no exact table unless this process already solved one;
        // the best player's look-ahead ranks the moves, said to be an estimate.
        let four = Auto120::default();
        let s = four.parse_position("4,1,1,1/6,1,1,1:1r5").unwrap();
        let extra = four.analysis_extra(&s).unwrap();
        assert!(extra.value.is_none());
        assert!(chances(&extra).iter().all(|m| !m.1), "{extra:?}");
        assert!(matches!(two.custom_player("optimal", "", 1), Some(Ok(_))));
        // Four markers: `optimal` is offered; where the table has not been made
        // (none is, in tests) it says how to make it and plays best's move.
        if exact::layered_record(4).is_none() {
            // The analysis (and so the hints) says the exact chances are
            // missing and how to make the table.
            let note = extra
                .sections
                .iter()
                .find(|s| s.title == "Exact chances")
                .and_then(|s| s.note.clone())
                .unwrap_or_default();
            assert!(
                note.contains("has not been made") && note.contains("tabula solve auto120"),
                "{extra:?}"
            );
            let kind = four
                .custom_player_kinds()
                .into_iter()
                .find(|k| k.name == "optimal")
                .unwrap();
            assert!(kind.help.contains("tabula solve auto120"), "{}", kind.help);
            let mut optimal = four.custom_player("optimal", "", 1).unwrap().unwrap();
            let mut rng = tabula_core::rng_from_seed(1);
            let choice = optimal.choose(&four, &s, 0, &mut rng).unwrap();
            let reason = choice.reason.unwrap_or_default();
            assert!(reason.contains("has not been made"), "{reason}");
        }
    }

    #[test]
    fn optimal_has_its_table_prepared_before_play_and_other_players_need_none() {
        let one = Auto120::with_markers(1);
        assert_eq!(one.prepare_player("optimal", &|_| {}), Some(Ok(())));
        assert!(exact::cached(1).is_some(), "the table is kept for the game");
        assert!(one.prepare_player("scenario", &|_| {}).is_none());
        assert!(one.prepare_player("best", &|_| {}).is_none());
        // Four markers: nothing to prepare where the table has not been made;
        // the player says how to make it when it moves.
        if exact::layered_record(4).is_none() {
            assert!(Auto120::default()
                .prepare_player("optimal", &|_| {})
                .is_none());
        }
    }

    #[test]
    fn evaluate_is_bounded_and_antisymmetric() {
        let g = Auto120::default();
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
