//! [`DynGame`]: one registered game in one variant, behind an object-safe trait.
//!
//! It sits above the typed [`Handle`] and what is built on it (matches,
//! stepped states, training), so that those never reach back up here.

use crate::handle::Handle;
use crate::matches::{Match, MatchImpl};
use crate::record::{MatchConfig, MatchRecord};
use crate::stepping::{DynPlayer, DynState, GameFacts, StepState};
use crate::trained::Trained;
use crate::EngineError;
use serde::Serialize;
use serde_json::Value as Json;
use std::sync::Arc;
use std::time::Instant;
use tabula_ai::players::{RandomPlayer, LEVEL_PRESETS};
use tabula_ai::simulate::SimReport;
use tabula_ai::train::{train_observed, train_with_progress, TrainEvent};
use tabula_core::{
    Analysis, CountReport, Game, GenericPlayer, PlayerKind, Preset, Registered, Report,
    SolveReport, Strategy, TableStatus, VariantOption,
};

/// Most legal moves the position a match starts from may have: every view and
/// hint lists them all, and answers stay small (docs/API.md, "Limits").
pub const MAX_PLAY_MOVES: usize = 5_000;

/// Refuses a position with more than [`MAX_PLAY_MOVES`] legal moves.
fn check_play_size<G: Game>(game: &G, state: &G::State) -> Result<(), EngineError> {
    let mut moves = Vec::new();
    game.legal_moves(state, &mut moves);
    if moves.len() > MAX_PLAY_MOVES {
        return Err(EngineError::Invalid(format!(
            "this position has {} legal moves, too many to play here (at most {MAX_PLAY_MOVES}); \
             analyze or solve it instead",
            moves.len()
        )));
    }
    Ok(())
}

/// What `tabula games` and `GET /api/games` show about a game.
#[derive(Clone, Debug, Serialize)]
pub struct GameInfo {
    /// Registry name.
    pub name: String,
    /// Title.
    pub title: String,
    /// One sentence.
    pub summary: String,
    /// Normalised variant text.
    pub variant: String,
    /// The options that differ from the defaults, as a player reads them
    /// ([`crate::variant_words`]): empty for the usual game.
    pub variant_words: String,
    /// The seats, in turn order.
    pub seats: Vec<String>,
    /// Variant options, each with its label in a player's words.
    pub options: Vec<VariantOption>,
    /// Named variants to choose from (`[{name, variant}]`, Tatham's "Type" menu).
    pub presets: Vec<Preset>,
    /// Computer players this game supports (and `human`).
    pub players: Vec<PlayerKind>,
    /// One-player puzzle?
    pub puzzle: bool,
    /// Has dice?
    pub chance: bool,
    /// Does an exact solution exist here (perfect player, graded hints)?
    pub exact: bool,
    /// The computer a new game uses when the person names none, by the one rule
    /// of [`tabula_core::default_opponent`] (the game's declared opponent first).
    pub default_opponent: String,
    /// `default_opponent` by kind and level ([`crate::PlayerChoice`]), for a face
    /// that offers the choice by kind and level; null where those cannot say it.
    pub default_computer: Option<crate::PlayerChoice>,
    /// The player `level:L` and the presets off/low/medium/high mix with random
    /// moves (`perfect`, or `lookahead` in Mu Torere and Kono); null where the
    /// level is not offered.
    pub level_base: Option<String>,
    /// The players a level can mix with (`level:L,base=NAME` or `NAME:level=L`).
    pub level_bases: Vec<String>,
    /// The named levels: `[{name, level}]` (off 0, low 25, medium 66, high 95,
    /// perfect 100 — the perfect player itself).
    pub level_presets: Vec<LevelPreset>,
    /// How the game is shown beyond its board ([`tabula_core::GamePresentation`]).
    pub presentation: tabula_core::GamePresentation,
}

/// A named AI level (the 2006 blog's menu).
#[derive(Clone, Debug, Serialize)]
pub struct LevelPreset {
    /// `off`, `low`, `medium`, `high`, `perfect`.
    pub name: String,
    /// 0-100.
    pub level: u32,
}

/// One game in one variant, usable without knowing its Rust type.
pub trait DynGame: Send + Sync {
    /// Name, options, seats, players.
    fn info(&self) -> GameInfo;
    /// Starts a match.
    fn new_match(&self, config: MatchConfig) -> Result<Box<dyn Match>, EngineError>;
    /// Rebuilds a saved match.
    fn resume(&self, record: &MatchRecord) -> Result<Box<dyn Match>, EngineError>;
    /// `tabula solve`: the game's own report, or the generic strong solution.
    fn solve(&self, request: &Report, progress: &dyn Fn(f64)) -> Result<SolveReport, EngineError>;
    /// `tabula analyze`: the value of a position and every legal move graded.
    fn analyze(&self, position: Option<&str>) -> Result<Analysis, EngineError>;
    /// `tabula count`: the game's counting report.
    fn count(&self) -> Result<CountReport, EngineError>;
    /// `tabula simulate`: many games between two players on all cores.
    fn simulate(
        &self,
        players: [&str; 2],
        games: u64,
        seed: u64,
        tick: &(dyn Fn() + Sync),
    ) -> Result<SimReport, EngineError>;
    /// `tabula train`: a learning player trains against an opponent.
    fn train(&self, options: &Json, progress: &dyn Fn(f64)) -> Result<Trained, EngineError>;
    /// Reads training options as [`DynGame::train`] does, without training: the
    /// error training would stop with at once, if any (a seat, block or seed out
    /// of range, an unknown opponent, a game that cannot train a machine).
    fn check_train(&self, options: &Json) -> Result<(), EngineError>;
    /// As [`DynGame::train`], also calling `curve(blocks, of)` each time a block of
    /// games ends, with the learning curve so far (`[{from, to, wins, losses, draws}]`,
    /// the report's `curve` as it grows) and how many blocks the whole run has, so a
    /// front end can draw the curve while the machine learns.
    fn train_streamed(
        &self,
        options: &Json,
        progress: &dyn Fn(f64),
        curve: &dyn Fn(&Json, u64),
    ) -> Result<Trained, EngineError> {
        let _ = curve;
        self.train(options, progress)
    }
    /// The game's rules for players: its page `crates/games/NAME/docs/rules.md` (Markdown; see
    /// [`crate::rules_markdown`]).
    fn rules(&self) -> String;
    /// Builds the exact solution now, if the game has one, reporting progress
    /// (fractions 0..1), so a front end can say what is happening before the first
    /// perfect move or hint (Kono solves or loads its table once). Returns whether
    /// an exact solution exists.
    fn prepare(&self, progress: &dyn Fn(f64)) -> bool;
    /// Builds or reads the table a computer player of the game's own needs
    /// before its first move ([`tabula_core::ExactAnalysis::prepare_player`]),
    /// `player` as a request names it (a level is its base player): `None`
    /// when it needs none, else whether it could be had.
    fn prepare_player(&self, player: &str, progress: &dyn Fn(f64)) -> Option<Result<(), String>>;
    /// Whether a player of this game, as a request names it (`perfect`,
    /// `level:66`), may make the computer think: build or read a table before
    /// its first move, or search. False for a person, a random player, a name
    /// the game refuses (refused at once), and a perfect player whose exact
    /// solution is ready or is a rule of the game's own that keeps no table;
    /// true for anything else, a game's own players included.
    fn player_may_think(&self, player: &str) -> bool;
    /// About how many bytes this game's solution tables hold now (0 before any
    /// perfect move, hint or analysis built them).
    fn memory_bytes(&self) -> u64;
    /// Identifies the solution tables: handles sharing tables give the same number.
    fn tables_id(&self) -> usize;
    /// What OpenSpiel's game type says: players, action ids, observation shape,
    /// length bound, utilities ([`crate::stepping`]).
    fn facts(&self) -> GameFacts;
    /// The variant's start as a state stepped by integer actions.
    fn new_initial_state(&self) -> Box<dyn DynState>;
    /// A position in the game's notation as a stepped state (its history starts
    /// there), refused if it does not fit the variant's action ids.
    fn state_from_position(&self, text: &str) -> Result<Box<dyn DynState>, EngineError>;
    /// Rebuilds a state from [`DynState::serialize`]'s text.
    fn deserialize_state(&self, text: &str) -> Result<Box<dyn DynState>, EngineError>;
    /// A computer player by name (`perfect`, `search`, `matchbox`, `random`,
    /// `level:66`, …: the names `tabula play` takes) that picks actions of stepped states.
    fn new_state_player(&self, name: &str, seed: u64) -> Result<Box<dyn DynPlayer>, EngineError>;
    /// The game's opening book in pieces for a cluster, if it makes one
    /// ([`Registered::opening_book_work`]).
    fn opening_book_work(&self) -> Option<Box<dyn tabula_core::OpeningBookWork>>;
    /// The puzzle's policy search in pieces for a cluster, if it has one
    /// ([`Registered::policy_search`]).
    fn policy_search(&self) -> Option<Box<dyn tabula_core::PolicySearch>>;
}

impl<G: Registered> DynGame for Arc<Handle<G>> {
    fn memory_bytes(&self) -> u64 {
        self.tables().memory_bytes()
    }

    fn facts(&self) -> GameFacts {
        crate::stepping::facts(self)
    }

    fn new_initial_state(&self) -> Box<dyn DynState> {
        Box::new(StepState::new(self.clone()))
    }

    fn state_from_position(&self, text: &str) -> Result<Box<dyn DynState>, EngineError> {
        Ok(Box::new(StepState::from_position(self.clone(), text)?))
    }

    fn deserialize_state(&self, text: &str) -> Result<Box<dyn DynState>, EngineError> {
        Ok(Box::new(StepState::deserialize(self.clone(), text)?))
    }

    fn new_state_player(&self, name: &str, seed: u64) -> Result<Box<dyn DynPlayer>, EngineError> {
        crate::stepping::new_player(self, name, seed)
    }

    fn opening_book_work(&self) -> Option<Box<dyn tabula_core::OpeningBookWork>> {
        self.game().opening_book_work()
    }

    fn policy_search(&self) -> Option<Box<dyn tabula_core::PolicySearch>> {
        self.game().policy_search()
    }

    fn tables_id(&self) -> usize {
        Arc::as_ptr(&self.tables()) as *const u8 as usize
    }

    fn info(&self) -> GameInfo {
        let players = self.player_kinds();
        let level_offered = players
            .iter()
            .any(|k| GenericPlayer::from_name(&k.name) == Some(GenericPlayer::Level));
        let options = G::options();
        let variant = self.game().variant().to_string();
        let default_opponent = tabula_core::default_opponent(
            self.game().default_opponent(),
            &players.iter().map(|k| k.name.as_str()).collect::<Vec<_>>(),
        );
        let default_computer = crate::parse_player_spec(&default_opponent)
            .ok()
            .and_then(|s| crate::PlayerChoice::of_spec(&s, self.game().seats().len() == 2));
        GameInfo {
            name: G::NAME.into(),
            title: G::TITLE.into(),
            summary: self.game().summary(),
            variant_words: crate::variant_words(&options, &variant),
            variant,
            seats: self.game().seats().iter().map(|s| s.to_string()).collect(),
            options,
            presets: G::presets(),
            players: players.clone(),
            puzzle: self.game().seats().len() == 1,
            chance: self.has_chance(),
            exact: self.claims_exact(),
            default_opponent,
            default_computer,
            presentation: self
                .game()
                .presentation()
                .completed(self.game().seats().len()),
            level_base: level_offered.then(|| self.game().level_base().to_string()),
            level_bases: if level_offered {
                players
                    .iter()
                    .map(|k| k.name.clone())
                    .filter(|n| GenericPlayer::from_name(n).map_or(true, |g| g.can_be_level_base()))
                    .collect()
            } else {
                Vec::new()
            },
            level_presets: if level_offered {
                LEVEL_PRESETS
                    .iter()
                    .filter(|(n, _)| *n != "perfect" || players.iter().any(|k| k.name == "perfect"))
                    .map(|&(n, l)| LevelPreset {
                        name: n.to_string(),
                        level: l,
                    })
                    .collect()
            } else {
                Vec::new()
            },
        }
    }

    fn rules(&self) -> String {
        crate::rules_markdown(G::RULES)
    }

    fn prepare(&self, progress: &dyn Fn(f64)) -> bool {
        self.oracle_with_progress(progress).is_some()
    }

    fn prepare_player(&self, player: &str, progress: &dyn Fn(f64)) -> Option<Result<(), String>> {
        let spec = crate::parse_player_spec(player).ok()?;
        let name = match spec.level_split(self.two_player()) {
            Some(Ok((_, Some(base)))) => base.name,
            Some(Ok((_, None))) => self.game().level_base().to_string(),
            Some(Err(_)) => return None,
            None => spec.name,
        };
        self.game().prepare_player(&name, progress)
    }

    fn player_may_think(&self, player: &str) -> bool {
        let Ok(spec) = crate::parse_player_spec(player) else {
            return false;
        };
        if spec.is_human() {
            return false;
        }
        // A level mixes in a strong player; a game's own player is its own.
        if spec.level_split(self.two_player()).is_some()
            || self
                .game()
                .custom_player_kinds()
                .iter()
                .any(|k| k.name == spec.name)
        {
            return true;
        }
        match spec.generic() {
            // A name the game does not know is refused at once.
            Some(GenericPlayer::Random) | None => false,
            // Refused at once without a solution; a rule of the game's own
            // that keeps nothing is one only where the engine solves nothing
            // itself (small games are solved again from custom positions).
            Some(GenericPlayer::Perfect) => {
                let keeps_no_table =
                    self.game().exact_oracle_bytes() == Some(0) && !self.game().is_small();
                let ready = self.tables().status() == TableStatus::Ready;
                self.claims_exact() && !ready && !keeps_no_table
            }
            _ => true,
        }
    }

    fn new_match(&self, config: MatchConfig) -> Result<Box<dyn Match>, EngineError> {
        if let Some(why) = self.game().play_limit() {
            return Err(EngineError::Invalid(why));
        }
        let mut m = MatchImpl::new(self.clone(), config)?;
        check_play_size(self.game(), m.state())?;
        m.advance()?;
        Ok(Box::new(m))
    }

    fn resume(&self, record: &MatchRecord) -> Result<Box<dyn Match>, EngineError> {
        if record.game != G::NAME {
            return Err(EngineError::Replay(format!(
                "the record is a game of {}, not {}",
                record.game,
                G::NAME
            )));
        }
        if let Some(why) = self.game().play_limit() {
            return Err(EngineError::Invalid(why));
        }
        let m = MatchImpl::replay(self.clone(), record)?;
        check_play_size(self.game(), m.state())?;
        Ok(Box::new(m))
    }

    fn solve(&self, request: &Report, progress: &dyn Fn(f64)) -> Result<SolveReport, EngineError> {
        // The figures' time is this answer's, the same for every game: a game
        // whose table was read from a cache says in its own sections how long
        // the solve that built it took.
        let began = std::time::Instant::now();
        let mut report = self.solve_now(request, progress)?;
        report.figures.seconds = began.elapsed().as_secs_f64();
        Ok(report)
    }

    fn analyze(&self, position: Option<&str>) -> Result<Analysis, EngineError> {
        let state = match position {
            Some(p) => self
                .game()
                .parse_position(p)
                .map_err(EngineError::Position)?,
            None => self.game().initial_state(),
        };
        Ok(self.analyze_state(&state))
    }

    fn count(&self) -> Result<CountReport, EngineError> {
        self.game()
            .count_report()
            .ok_or_else(|| EngineError::Unsupported(format!("{} has no counting report", G::TITLE)))
    }

    fn simulate(
        &self,
        players: [&str; 2],
        games: u64,
        seed: u64,
        tick: &(dyn Fn() + Sync),
    ) -> Result<SimReport, EngineError> {
        if !self.two_player() {
            return Err(EngineError::Unsupported(
                "simulation needs a two-player game".into(),
            ));
        }
        let specs = [
            crate::parse_player_spec(players[0])?,
            crate::parse_player_spec(players[1])?,
        ];
        for s in &specs {
            if s.is_human() {
                return Err(EngineError::Player {
                    spec: s.to_text(),
                    reason: "a simulation needs computer players".into(),
                });
            }
            // Build once now so a bad name is reported before any game runs. A
            // player that could not be built because the budget stopped waiting
            // for its table is no bad name: the run below then plays no game.
            if let Err(e) = self.make_player(s, 0) {
                if !tabula_core::Budget::current().is_some_and(|b| b.should_stop()) {
                    return Err(e);
                }
            }
        }
        let make = |which: usize, seed: u64| -> Box<dyn Strategy<G>> {
            self.make_player(&specs[which], seed)
                .ok()
                .flatten()
                .unwrap_or_else(|| Box::new(RandomPlayer))
        };
        Ok(tabula_ai::simulate::simulate(
            self.game(),
            players,
            make,
            games,
            seed,
            tick,
        ))
    }

    fn check_train(&self, options: &Json) -> Result<(), EngineError> {
        self.train_options(options).map(|_| ())
    }

    fn train(&self, options: &Json, progress: &dyn Fn(f64)) -> Result<Trained, EngineError> {
        let opts = self.train_options(options)?;
        let began = Instant::now();
        let report =
            train_with_progress(self.game(), &opts, progress).map_err(EngineError::Unsupported)?;
        Ok(Trained::from_report(report, began.elapsed().as_secs_f64()))
    }

    fn train_streamed(
        &self,
        options: &Json,
        progress: &dyn Fn(f64),
        curve: &dyn Fn(&Json, u64),
    ) -> Result<Trained, EngineError> {
        let opts = self.train_options(options)?;
        // The curve is passed on each time a block of games ends.
        let mut observe = |e: &TrainEvent| {
            progress(e.game as f64 / e.of.max(1) as f64);
            if e.curve.last().is_some_and(|b| b.to == e.game) {
                if let Ok(blocks) = serde_json::to_value(e.curve) {
                    curve(&blocks, e.of.div_ceil(e.block.max(1)));
                }
            }
        };
        let began = Instant::now();
        let report =
            train_observed(self.game(), &opts, &mut observe).map_err(EngineError::Unsupported)?;
        Ok(Trained::from_report(report, began.elapsed().as_secs_f64()))
    }
}
