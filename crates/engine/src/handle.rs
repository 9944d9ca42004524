//! [`Handle`]: one registered game in one variant with its Rust type, and the
//! tables its exact solution keeps. Matches ([`crate::matches`]) and stepped
//! states ([`crate::stepping`]) are built on it; [`crate::DynGame`] puts all
//! of them behind one object-safe trait.

use crate::players::{generic_player_kinds, PlayerSpec};
use crate::EngineError;
use serde_json::Value as Json;
use std::sync::{Arc, Mutex};
use tabula_ai::alphabeta::{AlphaBeta, SearchLimits};
use tabula_ai::expectimax::Expectimax;
use tabula_ai::lookahead::Lookahead;
use tabula_ai::matchbox::Matchbox;
use tabula_ai::players::{LeveledPlayer, PerfectPlayer, RandomPlayer};
use tabula_ai::retrograde::{estimate_bytes, graded_moves, Solution, SolveError};
use tabula_ai::train::TrainOptions;
use tabula_core::{
    pause_words, waiting_budget, Budget, BudgetError, BuildError, Game, GameExt, Ledger, Oracle,
    PlayerKind, Preparing, Registered, Report, Strategy, TableCell, TableStatus, Turn, ValueBounds,
};
use tabula_core::{
    Analysis, GenericPlayer, GradedMove, Hint, MoveGrade, PositionValue, Remoteness, SolveReport,
    StrongCounts,
};

/// The most positions the generic solver will explore.
pub const MAX_GENERIC_POSITIONS: usize = 30_000_000;

/// `text` with its first letter in capitals.
fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    chars
        .next()
        .map(|c| c.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

/// One game in one variant with its Rust type; behind [`crate::DynGame`] for
/// callers that do not know the type.
pub struct Handle<G: Registered> {
    game: G,
    chance: bool,
    tables: Arc<Tables<G>>,
}

/// What a game's exact solution holds in memory: the oracle (built once) and the
/// solutions from custom start positions. Variants that differ only in rules of
/// actual play (Northcott's `repetition`, Kono's `nocapture`) share one
/// ([`crate::registry`]).
pub struct Tables<G: Game> {
    /// Built once, off the rayon pool of the threads that wait for it (a simulation
    /// runs its games there): see [`TableCell`]. A build refused for a passing
    /// reason (the ledger had no room just then) is tried again after a pause;
    /// the cell says where the build stands, for the words a player gets.
    oracle: TableCell<Arc<dyn Oracle<G>>>,
    extra: Mutex<Vec<Arc<Solution<G>>>>,
    /// Where the tables and every solve for them are counted: the ledger of
    /// the engine that made them ([`crate::Engine`]).
    ledger: &'static Ledger,
}

/// The budget a generic retrograde solve of `game` from `start` runs under: the
/// caller's. Where the game bounds its positions, a solve whose estimate
/// ([`estimate_bytes`]) cannot fit the caller's budget, or beside the tables its
/// [`Ledger`] already holds, is refused at once in words; nothing is held up front
/// (a bound is often far above the positions really reachable).
fn solve_budget<G: Registered>(
    game: &G,
    start: &G::State,
    budget: &Budget,
) -> Result<Budget, BudgetError> {
    let what = format!("the exact solution of {}", G::TITLE);
    let ledger = budget.ledger();
    // A position bound is an upper bound, often far above the positions really
    // reachable (Nim 60-60-60: 689 MiB estimated, about 60 MiB used): holding it
    // up front refused a second solve beside the first. The estimate only
    // refuses a solve that cannot fit the caller's budget; the solve then runs
    // within what the ledger has free, its own checks counting what it builds.
    let free = ledger.limit().saturating_sub(ledger.in_use());
    if let Some(bytes) = estimate_bytes(game, start) {
        budget.fits(&what, bytes)?;
        if bytes > free {
            // Refused in the ledger's words (what other tables hold).
            drop(ledger.reserve(&what, bytes)?);
        }
    }
    // Games without a bound solve under the caller's budget: capping them at the
    // ledger's free room refused sessions the server would have made room for
    // (it evicts idle sessions' tables before it builds).
    Ok(budget.clone())
}

impl<G: Game> Default for Tables<G> {
    /// Tables counted in the process's default ledger ([`Ledger::global`]):
    /// those of a handle made without an engine ([`Handle::new`]).
    fn default() -> Self {
        Self::in_ledger(Ledger::global())
    }
}

impl<G: Game> Tables<G> {
    /// Empty tables, counted in `ledger` once built.
    pub fn in_ledger(ledger: &'static Ledger) -> Self {
        Tables {
            oracle: TableCell::new("the exact solution"),
            extra: Mutex::new(Vec::new()),
            ledger,
        }
    }

    /// The ledger the tables are counted in.
    pub fn ledger(&self) -> &'static Ledger {
        self.ledger
    }

    /// About how many bytes the tables hold (0 until a solution is built).
    pub fn memory_bytes(&self) -> u64 {
        let oracle = self.oracle.get().map_or(0, |o| o.memory_bytes());
        let extra: u64 = self
            .extra
            .lock()
            .map(|v| v.iter().map(|s| s.memory_bytes()).sum())
            .unwrap_or(0);
        oracle + extra
    }

    /// Where the exact solution's build stands.
    pub fn status(&self) -> TableStatus {
        self.oracle.status()
    }
}

impl<G: Registered> Handle<G> {
    /// `solve` without the time of the answer: the game's own report, or the
    /// generic strong solution.
    pub(crate) fn solve_now(
        &self,
        request: &Report,
        progress: &dyn Fn(f64),
    ) -> Result<SolveReport, EngineError> {
        // A game's own solver says what it uses through its budget
        // (`Budget::uses`): reserved in the tables' ledger while it runs, beside
        // every table kept there.
        let request = &Report {
            budget: request.budget.clone().charged_to(self.tables.ledger),
            ..request.clone()
        };
        if let Some(r) = self.game.solve_report(request, progress) {
            let mut report = r.map_err(EngineError::Unsupported)?;
            if report.position.is_none() {
                report.position = request.position.clone();
            }
            return Ok(report);
        }
        if !self.may_have_oracle() {
            return Err(EngineError::Unsupported(format!(
                "{} has no strong solver (it is a puzzle or has dice)",
                G::TITLE
            )));
        }
        let start = match &request.position {
            Some(p) => self.game.parse_position(p).map_err(EngineError::Position)?,
            None => self.game.initial_state(),
        };
        let budget = solve_budget(&self.game, &start, &request.budget)
            .map_err(|e| EngineError::Unsupported(e.to_string()))?;
        let sol =
            Solution::solve_within(&self.game, &start, MAX_GENERIC_POSITIONS, &budget, progress)
                .map_err(|e| EngineError::Unsupported(e.to_string()))?;
        let st = sol.stats();
        let side = match self.game.turn(&start) {
            Turn::Move(seat) => self.game.seats().get(seat).copied(),
            _ => None,
        };
        let value = PositionValue::solved(st.start.value, Remoteness::Exact(st.start.remoteness));
        let counts = StrongCounts {
            positions: st.positions as u64,
            wins: st.wins as u64,
            losses: st.losses as u64,
            draws: st.draws as u64,
            max_remoteness: st.max_remoteness,
        };
        let mut report = SolveReport::strong(value, side, counts, st.seconds);
        report.position = request
            .position
            .as_ref()
            .map(|_| self.game.format_position(&start));
        Ok(report)
    }

    /// Wraps a game.
    pub fn new(game: G) -> Arc<Self> {
        let chance = probe_chance(&game);
        Arc::new(Handle {
            game,
            chance,
            tables: Arc::new(Tables::default()),
        })
    }

    /// Wraps a game that shares `tables` with other variants of the same solution.
    pub fn sharing(game: G, tables: Arc<Tables<G>>) -> Arc<Self> {
        let chance = probe_chance(&game);
        Arc::new(Handle {
            game,
            chance,
            tables,
        })
    }

    /// The solution tables (shared by variants that differ only in rules of play).
    pub fn tables(&self) -> Arc<Tables<G>> {
        self.tables.clone()
    }

    /// The game.
    pub fn game(&self) -> &G {
        &self.game
    }

    /// Whether the game has dice (chance moves), found by a few random playouts.
    pub(crate) fn has_chance(&self) -> bool {
        self.chance
    }

    /// A game of two seats (the generic two-player players apply).
    pub(crate) fn two_player(&self) -> bool {
        self.game.seats().len() == 2
    }

    /// Two seats and no dice: the generic solver and players apply.
    pub(crate) fn may_have_oracle(&self) -> bool {
        self.two_player() && !self.chance
    }

    /// Training options read for this game, or why it cannot train a machine.
    pub(crate) fn train_options(&self, options: &Json) -> Result<TrainOptions, EngineError> {
        if !self.may_have_oracle() {
            return Err(EngineError::Unsupported(format!(
                "{} cannot train a matchbox machine: it needs a two-player game without dice",
                G::TITLE
            )));
        }
        TrainOptions::from_json(&self.game, options).map_err(EngineError::Invalid)
    }

    /// The exact oracle, built once (game's own, else generic retrograde for small games).
    pub fn oracle(&self) -> Option<Arc<dyn Oracle<G>>> {
        self.oracle_with_progress(&|_| {})
    }

    /// [`Handle::oracle`], reporting progress while it is built the first time.
    ///
    /// Only a game that claims an exact solution ([`Handle::claims_exact`], from
    /// its size facts) builds one. The oracle is built once, on a thread and rayon
    /// pool of its own; this thread waits for it as long as its budget
    /// ([`tabula_core::Budget::current`]) allows, and gets `None` when the budget
    /// is cancelled or runs out first (the build goes on) or the build failed
    /// ([`Handle::not_ready`] says why, and when it is tried again).
    pub fn oracle_with_progress(&self, progress: &dyn Fn(f64)) -> Option<Arc<dyn Oracle<G>>> {
        if !self.claims_exact() {
            return None;
        }
        let game = self.game.clone();
        // The build runs in the tables' ledger (the cell gives its budget the
        // ledger of the waiter that starts it), and so does a game's own
        // oracle, which takes it from that budget.
        let ledger = self.tables.ledger;
        let build = move |report: &dyn Fn(f64)| -> Result<Arc<dyn Oracle<G>>, BuildError> {
            if let Some(o) = game.exact_oracle(report) {
                return o;
            }
            let start = game.initial_state();
            // The cell's budget: stopped when every waiter was cancelled.
            let budget = Budget::current()
                .unwrap_or_else(|| Budget::within(ledger))
                .in_ledger(ledger);
            // Refused in words when the ledger has no room (tried again after a
            // pause) or the estimate passes the memory limit (for good).
            let budget = solve_budget(&game, &start, &budget)?;
            // What it builds is reserved as it grows; large builds take turns.
            let budget = budget.charged();
            match Solution::solve_within(&game, &start, MAX_GENERIC_POSITIONS, &budget, report) {
                Ok(s) => Ok(Arc::new(s) as Arc<dyn Oracle<G>>),
                Err(SolveError::Budget(e)) => Err(e.into()),
                // Too many positions: the game's size facts promised too much.
                Err(e) => Err(BuildError::Lasting(e.to_string())),
            }
        };
        self.tables
            .oracle
            .get_or_build(build, &waiting_budget().in_ledger(ledger), progress)
            .ok()
            .map(|o| (*o).clone())
    }

    /// Why the exact solution is not ready, for a player: being prepared (with
    /// the build's progress, or the seconds until a failed build is tried
    /// again), or `Err` with the words of a build that failed for good. `None`
    /// when it is ready or the game has none (the callers say that themselves).
    pub fn not_ready(&self) -> Option<Result<Preparing, String>> {
        if !self.claims_exact() {
            return None;
        }
        let title = G::TITLE;
        Some(Ok(match self.tables.status() {
            TableStatus::Ready => return None,
            TableStatus::Absent => Preparing {
                progress: Some(0.0),
                retry_in_seconds: None,
                words: format!("The exact solution of {title} is being prepared."),
            },
            TableStatus::Building { progress } => Preparing {
                progress: Some(progress),
                retry_in_seconds: None,
                words: format!(
                    "The exact solution of {title} is being prepared: {:.0} % done.",
                    100.0 * progress
                ),
            },
            TableStatus::Paused { reason, retry_in } => Preparing {
                progress: None,
                retry_in_seconds: Some(retry_in.as_secs_f64()),
                words: format!(
                    "The exact solution of {title} could not be prepared just now: {reason}. \
                     It is tried again {}.",
                    pause_words(retry_in)
                ),
            },
            TableStatus::Failed { reason } => {
                return Some(Err(format!(
                    "The exact solution of {title} cannot be prepared here: {reason}."
                )))
            }
        }))
    }

    /// Grades a position that may lie outside the start's solution (custom start
    /// positions): small games are solved again from there and the solution kept.
    fn grade_anywhere(&self) -> Option<Arc<dyn Oracle<G>>> {
        let base = self.oracle()?;
        if !self.game.is_small() {
            return Some(base);
        }
        Some(Arc::new(Extended {
            base,
            handle_extra: self.extra_snapshot(),
        }))
    }

    fn extra_snapshot(&self) -> Vec<Arc<Solution<G>>> {
        self.tables
            .extra
            .lock()
            .map(|v| v.clone())
            .unwrap_or_default()
    }

    /// Makes sure positions reachable from `state` can be graded (small games).
    pub(crate) fn ensure_solved_from(&self, state: &G::State) {
        let Some(base) = self.oracle() else { return };
        if !self.game.is_small() || base.grade(&self.game, state).is_some() {
            return;
        }
        if self
            .extra_snapshot()
            .iter()
            .any(|s| s.grade(state).is_some())
        {
            return;
        }
        let ledger = self.tables.ledger;
        let within = Budget::within(ledger);
        let Ok(budget) = solve_budget(&self.game, state, &within) else {
            return;
        };
        let budget = budget.charged();
        let solved =
            Solution::solve_within(&self.game, state, MAX_GENERIC_POSITIONS, &budget, &|_| {});
        if let Ok(sol) = solved {
            if let Ok(mut v) = self.tables.extra.lock() {
                if v.len() >= 16 {
                    v.remove(0);
                }
                v.push(Arc::new(sol));
            }
        }
    }

    /// Builds the strategy for a player spec; `None` for a human.
    pub fn make_player(
        &self,
        spec: &PlayerSpec,
        seed: u64,
    ) -> Result<Option<Box<dyn Strategy<G>>>, EngineError> {
        let bad = |reason: String| EngineError::Player {
            spec: spec.to_text(),
            reason,
        };
        if spec.is_human() {
            return Ok(None);
        }
        if let Some(split) = spec.level_split(self.two_player()) {
            let (level, base) = split?;
            let strong = match base {
                Some(base) => self
                    .make_player(&base, seed)?
                    .ok_or_else(|| bad("the level needs a computer player to mix with".into()))?,
                None if self.game.level_base() == "perfect" => {
                    deterministic_pair_check(self.may_have_oracle(), spec)?;
                    self.strong_player()
                }
                None => {
                    let base = crate::parse_player_spec(self.game.level_base())?;
                    self.make_player(&base, seed)?.ok_or_else(|| {
                        bad("the level needs a computer player to mix with".into())
                    })?
                }
            };
            return Ok(Some(Box::new(LeveledPlayer::new(level, strong))));
        }
        // A game's own player, or its refusal of these options in its words.
        if let Some(made) = self.game.custom_player(&spec.name, &spec.options, seed) {
            return made.map(Some).map_err(bad);
        }
        // The generic players that have no options refuse any, in words (a
        // number that reads as one, such as `depth=1e9`, is no exception).
        let no_options = |why: &str| {
            if spec.options.is_empty() {
                Ok(())
            } else {
                Err(bad(format!("{} takes no options: {why}", spec.name)))
            }
        };
        let deterministic_pair = || {
            if self.may_have_oracle() {
                Ok(())
            } else {
                Err(bad(format!(
                    "{} is only for two-player games without dice",
                    spec.name
                )))
            }
        };
        let unknown = || {
            bad(format!(
                "unknown player for {} (known: {})",
                G::NAME,
                self.player_kinds()
                    .iter()
                    .map(|k| k.name.clone())
                    .collect::<Vec<_>>()
                    .join(", ")
            ))
        };
        let strategy: Box<dyn Strategy<G>> = match spec.generic().ok_or_else(unknown)? {
            GenericPlayer::Random => {
                no_options("its moves follow the game's seed")?;
                Box::new(RandomPlayer)
            }
            GenericPlayer::Perfect => {
                no_options("it always plays a best move (perfect:level=L mixes in random moves)")?;
                deterministic_pair()?;
                // A solution being prepared is no bad player: the request may
                // be made again once it is ready.
                let oracle = self
                    .grade_anywhere()
                    .ok_or_else(|| match self.not_ready() {
                        Some(Ok(p)) => preparing_error(p),
                        Some(Err(words)) => bad(words),
                        None => bad(format!("{} has no exact solution here", G::TITLE)),
                    })?;
                Box::new(PerfectPlayer::new(oracle))
            }
            GenericPlayer::Lookahead => {
                no_options("it looks one move ahead (alphabeta:depth=N searches deeper)")?;
                deterministic_pair()?;
                Box::new(Lookahead)
            }
            GenericPlayer::Alphabeta => {
                deterministic_pair()?;
                Box::new(AlphaBeta::<G>::new(
                    SearchLimits::parse(&spec.options).map_err(bad)?,
                ))
            }
            GenericPlayer::Matchbox | GenericPlayer::Menace => {
                deterministic_pair()?;
                Box::new(Matchbox::for_player(&self.game, &spec.name, &spec.options).map_err(bad)?)
            }
            GenericPlayer::Expectimax => {
                if !self.chance {
                    return Err(bad(
                        "expectimax is for games with dice; try alphabeta".into()
                    ));
                }
                Box::new(Expectimax::from_options(&spec.options).map_err(bad)?)
            }
            // A person, or a level (both handled above).
            GenericPlayer::Human | GenericPlayer::Level => return Err(unknown()),
        };
        Ok(Some(strategy))
    }

    /// The best player available: perfect if solvable, else alpha-beta.
    fn strong_player(&self) -> Box<dyn Strategy<G>> {
        match self.oracle() {
            Some(o) => Box::new(PerfectPlayer::new(o)),
            None => Box::new(AlphaBeta::<G>::new(SearchLimits::default())),
        }
    }

    /// The players this game offers: the generic ones that apply, replaced
    /// or joined by the game's own.
    pub(crate) fn player_kinds(&self) -> Vec<PlayerKind> {
        let exact = self.claims_exact();
        let mut custom = self.game.custom_player_kinds();
        // A game's own player is named in menus by the words it declares with
        // it, else those of the generic player it stands in for, else its help.
        for k in &mut custom {
            if k.words.is_empty() {
                k.words = GenericPlayer::from_name(&k.name)
                    .map(|g| g.words().to_string())
                    .unwrap_or_else(|| capitalised(&k.help));
            }
        }
        // A game's own player of the same name replaces the generic one.
        let mut kinds: Vec<PlayerKind> =
            generic_player_kinds(self.two_player(), !self.chance, exact)
                .into_iter()
                .filter(|k| !custom.iter().any(|c| c.name == k.name))
                .collect();
        kinds.extend(custom);
        kinds
    }

    /// Whether this game offers an exact solution (perfect player, graded hints),
    /// known from its size facts before anything is built, the same before and
    /// after anyone asks for it: a game's own oracle when the least memory it can
    /// be had in fits the limit of its tables' ledger (the process's
    /// `--max-memory`, [`tabula_core::ExactAnalysis::exact_oracle_bytes`]),
    /// else the generic solver on a small game whose estimate (where it bounds
    /// its positions) fits.
    pub fn claims_exact(&self) -> bool {
        if !self.may_have_oracle() {
            return false;
        }
        let limit = self.tables.ledger.limit();
        match self.game.exact_oracle_bytes() {
            Some(bytes) => bytes <= limit,
            None => {
                self.game.is_small()
                    && estimate_bytes(&self.game, &self.game.initial_state())
                        .map_or(true, |bytes| bytes <= limit)
            }
        }
    }

    /// The value of `state` and every legal move graded (plus the game's own analysis).
    pub fn analyze_state(&self, state: &G::State) -> Analysis {
        let game = &self.game;
        let turn = game.turn(state);
        let extra = game.analysis_extra(state).unwrap_or_default();
        let mut out = Analysis {
            position: game.format_position(state),
            to_move: match turn {
                Turn::Move(seat) => game.seats().get(seat).map(|s| s.to_string()),
                _ => None,
            },
            value: None,
            moves: Vec::new(),
            sections: extra.sections,
            note: None,
            preparing: None,
        };
        self.ensure_solved_from(state);
        if let Some(oracle) = self.grade_anywhere() {
            if let Some(g) = oracle.grade(game, state) {
                let r = Remoteness::new(g.remoteness, oracle.remoteness_exact(game, state));
                out.value = Some(PositionValue::solved(g.value, r));
            }
            out.moves = graded_moves(game, oracle.as_ref(), state)
                .into_iter()
                .map(|(mv, g)| {
                    // A move's remoteness is its position's plus one: exact when that is.
                    let mut next = state.clone();
                    game.play_unchecked(&mut next, mv);
                    let exact = oracle.remoteness_exact(game, &next);
                    GradedMove {
                        notation: game.format_move(state, mv),
                        cells: game.move_cells(state, mv),
                        grade: MoveGrade::solved(g.value, Remoteness::new(g.remoteness, exact)),
                    }
                })
                .collect();
            let worked_out = out.moves.len();
            if matches!(turn, Turn::Move(_))
                && list_ungraded_moves(game, oracle.as_ref(), state, &mut out.moves)
            {
                // An oracle that searches on demand can run out of time.
                let which = if worked_out == 0 {
                    "No move could be worked out exactly in the time allowed"
                } else {
                    "Some moves could not be worked out exactly in the time allowed"
                };
                out.note = Some(format!(
                    "{which}: what was proven about them is listed, else they are listed \
                     without grades."
                ));
            }
        }
        if out.value.is_none() {
            out.value = extra.value;
        }
        if !out.moves.is_empty() || !matches!(turn, Turn::Move(_)) {
            return out;
        }
        if let Some(moves) = extra.moves {
            out.moves = moves;
            return out;
        }
        // Puzzles with a score grade each move by the points it brings, most first.
        let before = game.score(state);
        let mut moves: Vec<(Option<i64>, GradedMove)> = game
            .moves(state)
            .into_iter()
            .map(|mv| {
                let points = before.and_then(|b| {
                    let mut next = state.clone();
                    game.play_unchecked(&mut next, mv);
                    game.score(&next).map(|a| a - b)
                });
                let grade = match points {
                    Some(points) => MoveGrade::Points { points },
                    None => MoveGrade::Ungraded,
                };
                let m = GradedMove {
                    notation: game.format_move(state, mv),
                    cells: game.move_cells(state, mv),
                    grade,
                };
                (points, m)
            })
            .collect();
        match before {
            Some(points) => {
                moves.sort_by_key(|(p, _)| std::cmp::Reverse(*p));
                if out.value.is_none() {
                    out.value = Some(PositionValue::Score {
                        points,
                        best_known: None,
                    });
                }
            }
            None => {
                out.note = Some(match self.not_ready() {
                    Some(Ok(preparing)) => {
                        let words = format!(
                            "{} The moves are graded once it is ready: ask again.",
                            preparing.words
                        );
                        out.preparing = Some(preparing);
                        words
                    }
                    Some(Err(failed)) => format!("{failed} The moves are listed without grades."),
                    None => "There is no exact solution for this game here, so the moves are \
                             listed without grades."
                        .into(),
                })
            }
        }
        out.moves = moves.into_iter().map(|(_, m)| m).collect();
        out
    }

    /// A hint for the side to move in `state`: the best move of its analysis
    /// and why, in words.
    pub fn hint_state(&self, state: &G::State) -> Hint {
        // The reason names the move in the game's words too ("play 3 (column
        // 3)"), as a player who clicks is shown it.
        let words = |notation: &str| {
            self.game
                .parse_move(state, notation)
                .ok()
                .map(|mv| self.game.move_words(state, mv))
        };
        Hint::from_analysis_named(self.analyze_state(state), &words)
    }
}

/// Adds the legal moves of `state` missing from `graded` after the graded
/// ones: with the bounds the oracle proved on them (a search out of time),
/// else ungraded, best bounds first; whether any was missing.
fn list_ungraded_moves<G: Registered>(
    game: &G,
    oracle: &dyn Oracle<G>,
    state: &G::State,
    graded: &mut Vec<GradedMove>,
) -> bool {
    let moves = game.moves(state);
    if graded.len() >= moves.len() {
        return false;
    }
    let known: std::collections::HashSet<String> =
        graded.iter().map(|m| m.notation.clone()).collect();
    let mut missing = Vec::new();
    for mv in moves {
        let notation = game.format_move(state, mv);
        if !known.contains(&notation) {
            let mut next = state.clone();
            game.play_unchecked(&mut next, mv);
            let grade = match oracle.bounds(game, &next).map(ValueBounds::flip) {
                Some(b) if b.is_informative() => MoveGrade::Bounded {
                    at_least: b.low,
                    at_most: b.high,
                },
                _ => MoveGrade::Ungraded,
            };
            missing.push(GradedMove {
                cells: game.move_cells(state, mv),
                notation,
                grade,
            });
        }
    }
    // Best proven first; the sort is stable, so ties keep the game's order.
    missing.sort_by_key(|m| match m.grade {
        MoveGrade::Bounded { at_least, at_most } => (-at_least.rank(), -at_most.rank()),
        _ => (i8::MAX, i8::MAX),
    });
    graded.extend(missing);
    true
}

/// How long a client waits before asking again for a solution being built:
/// long enough not to ask many times a second, short enough that a table ready
/// soon is used soon.
const ASK_AGAIN_WHILE_BUILDING: u64 = 3;

/// The error of a perfect player whose exact solution is being prepared, with
/// when to ask again.
fn preparing_error(p: Preparing) -> EngineError {
    let retry_after = p
        .retry_in_seconds
        .map_or(ASK_AGAIN_WHILE_BUILDING, |s| s.ceil() as u64)
        .max(1);
    EngineError::Preparing {
        words: format!(
            "{} The computer can play once it is ready: try again in {retry_after} s.",
            p.words
        ),
        retry_after,
    }
}

fn deterministic_pair_check(ok: bool, spec: &PlayerSpec) -> Result<(), EngineError> {
    if ok {
        Ok(())
    } else {
        Err(EngineError::Player {
            spec: spec.to_text(),
            reason: format!(
                "{} is only for two-player games without dice (name a player to mix with: level:50,base=NAME)",
                spec.name
            ),
        })
    }
}

/// A base oracle plus solutions from custom start positions.
struct Extended<G: Game> {
    base: Arc<dyn Oracle<G>>,
    handle_extra: Vec<Arc<Solution<G>>>,
}

impl<G: Game> Oracle<G> for Extended<G> {
    fn grade(&self, game: &G, state: &G::State) -> Option<tabula_core::Graded> {
        self.base
            .grade(game, state)
            .or_else(|| self.handle_extra.iter().find_map(|s| s.grade(state)))
    }

    fn remoteness_exact(&self, game: &G, state: &G::State) -> bool {
        // The extra solutions are retrograde, hence exact; the base says for itself.
        match self.base.grade(game, state) {
            Some(_) => self.base.remoteness_exact(game, state),
            None => true,
        }
    }
}

fn probe_chance<G: Game>(game: &G) -> bool {
    let mut rng = tabula_core::rng_from_seed(1);
    for _ in 0..4 {
        let mut s = game.initial_state();
        let mut buf = Vec::new();
        for _ in 0..400 {
            match game.turn(&s) {
                Turn::Chance => return true,
                Turn::Over(_) => break,
                Turn::Move(_) => {
                    buf.clear();
                    game.legal_moves(&s, &mut buf);
                    if buf.is_empty() {
                        break;
                    }
                    use rand::Rng as _;
                    let mv = buf[rng.gen_range(0..buf.len())];
                    game.play_unchecked(&mut s, mv);
                }
            }
        }
    }
    false
}
