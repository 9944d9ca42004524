//! A game in progress: players, history, undo/redo, the move log, draw rules for
//! actual play, score tallies across games, and records that replay exactly.

use crate::ending::Ending;
use crate::handle::Handle;
use crate::players::{parse_player_spec, PlayerSpec};
use crate::record::{
    check_undo_depth, CurrentGame, MatchConfig, MatchRecord, RecordedMove, Tally, Untaught,
};
use crate::record_check::quoted;
use crate::EngineError;
use serde::{Deserialize, Serialize};
use std::sync::Arc;
use tabula_ai::simulate::sample;
use tabula_core::{
    Game, MoveError, Outcome, PlayEnd, PlayTracker, Registered, Rng, Seat, Strategy, Turn, View,
    WordPart, Words,
};

/// One line of the move log. In JSON (`crate::sent`) `words` and `parts` are
/// left out where they only repeat the move's notation or are plain text.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(from = "crate::sent::LogEntryIn")]
pub struct LogEntry {
    /// 1-based ply number.
    pub ply: usize,
    /// The seat that moved, or `None` for chance.
    pub seat: Option<Seat>,
    /// Who moved, as the game names the seat ("X", "Player 1"), or "Chance":
    /// what `text` begins with, kept apart from `words` so that a face which
    /// shows the mover its own way (a column and a colour per seat) does not
    /// say it twice. Empty in a one-player puzzle, whose moves are all its
    /// player's, and in entries saved before it was kept.
    pub by: String,
    /// The move in the game's notation.
    pub mv: String,
    /// Why a computer chose it (`"scenario A"`), if it said.
    pub reason: Option<String>,
    /// The whole log line as a terminal shows it: who moved (`by`), the move
    /// in notation and why ("X: 5").
    pub text: String,
    /// The move in the game's words: as its `move_words` names it (as
    /// `legal_moves[].words` did before it was played) and why, without the
    /// notation a terminal player types and without who moved (`by`, `seat`);
    /// the game's own `log_line` when it has one, which may name the mover in
    /// its sentence ("O advances …").
    pub words: String,
    /// `words` with typed parts ([`tabula_core::Words`]): the board's colours it
    /// names as colours, for a face that names them as the player sees them.
    pub parts: Words,
}

/// A legal move as front ends need it. In JSON (`crate::sent`) `words` and
/// `parts` are left out where they only repeat the move's notation or are plain text.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(from = "crate::sent::MoveInfoIn")]
pub struct MoveInfo {
    /// The move in the game's notation (send it back to play it).
    pub mv: String,
    /// The cells it touches, in click order.
    pub cells: Vec<u32>,
    /// The move in the game's words (its `move_words`), for front ends that
    /// name a move to a player instead of its notation.
    pub words: String,
    /// `words` with typed parts (its `move_parts`): the board's colours it names
    /// as colours, for a face that names them as the player sees them.
    pub parts: Words,
}

/// The generator a new game's deal draws from: the match's seed and the variant
/// dealt last (FNV-1a), so that a resumed match deals the same next board as the
/// original would, and the match's own generator (computer choices) is untouched.
fn deal_rng(seed: u64, last: &str) -> Rng {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325 ^ seed;
    for b in last.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    tabula_core::rng_from_seed(h)
}

fn now_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as u64)
        .unwrap_or(0)
}

/// A seat as shown.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct SeatView {
    /// The seat's name in the game (`X`, `White`, `Player 1`).
    pub name: String,
    /// Who plays it (`human`, `level:66`).
    pub player: String,
    /// True when a person plays it.
    #[serde(default)]
    pub human: bool,
    /// The kind of player (`human`, `level`, `matchbox`): `player`'s name without
    /// its options, so that no face splits `player` itself.
    #[serde(default)]
    pub kind: String,
    /// The level, 0 to 100, of a level-mixed computer (`level:66`, a preset such as
    /// `medium`, `alphabeta:level=50`); none for any other player.
    #[serde(default)]
    pub level: Option<u32>,
}

/// The whole visible state of a match, as the server sends it.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct MatchView {
    /// Registry name.
    pub game: String,
    /// Human title.
    pub title: String,
    /// Variant text.
    pub variant: String,
    /// The seats and their players.
    pub seats: Vec<SeatView>,
    /// The position in the game's text form.
    pub position: String,
    /// Who acts next.
    pub turn: Turn,
    /// The seat to move, if a player is to move.
    pub to_move: Option<Seat>,
    /// True when a human must move now.
    pub human_to_move: bool,
    /// How the game ended, if it did.
    pub outcome: Option<Outcome>,
    /// The result in words (the terminal, saved games).
    pub result: Option<String>,
    /// How the game ended, as typed data (once it is over): faces say it in
    /// their own words from this, never from `result`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ending: Option<Ending>,
    /// Once the game is over: for each seat, whether a person played it when the
    /// game ended (the players its end was counted for). A seat that changed
    /// player since (a watched game, then a side taken) keeps what it was then,
    /// so nobody is told they lost a game the computer played.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ended_by_people: Option<Vec<bool>>,
    /// Legal moves of the side to move (empty unless a human is to move).
    pub legal_moves: Vec<MoveInfo>,
    /// The view model.
    pub view: View,
    /// The board for a terminal.
    pub board_text: String,
    /// The move log of the current game (its lines shared with the match's
    /// own: a view is built for every answer a server sends).
    pub log: Vec<Arc<LogEntry>>,
    /// Every ply of the current game in the game's notation, in order: the
    /// log's moves and the ones it folds into the next line (Auto120's rolls),
    /// so that a game ID or a record made from them replays the same dice.
    /// Empty (and left out of JSON) when it would only repeat the log's
    /// moves: when every ply has its line.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub moves: Vec<String>,
    /// The plies as a game ID writes them, each as short as the game's notation
    /// reads it back in its position (`Notation::short_move`: Auto120's "5" for
    /// "roll 5"). Empty (and left out of JSON) when every ply's short form is
    /// its notation: then a game ID writes `moves` (or the log's moves).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub short_moves: Vec<String>,
    /// The score so far (puzzles).
    pub score: Option<i64>,
    /// Seconds taken by the current game: so far, or to the end once it is over.
    pub seconds: f64,
    /// The variant that deals this very start again, when the game dealt a fresh
    /// one (SameGame without `seed`: the same options with the board's seed), for
    /// Restart and shared links; `None` when `variant` already pins the start.
    pub dealt_variant: Option<String>,
    /// Whether a person can resign now: the person to move, or the winner of a
    /// game the other side just resigned (then every player has resigned and
    /// the Cat wins).
    pub can_resign: bool,
    /// Whether undo / redo are possible.
    pub can_undo: bool,
    /// Whether redo is possible.
    pub can_redo: bool,
    /// Tallies over the games of this match.
    pub tally: Tally,
}

/// A game in progress, for any registered game.
pub trait Match: Send {
    /// Everything a front end shows.
    fn view(&self) -> MatchView;
    /// The view's `legal_moves` alone (the moves of the side to move with their
    /// cells), without building the rest of the view: a server asks for them
    /// around every move it plays.
    fn legal_moves(&self) -> Vec<MoveInfo>;
    /// The cells the move of ply `ply` of the current game touched (1-based, as
    /// [`LogEntry::ply`] counts), in click order: what `legal_moves[].cells`
    /// said of it before it was played, without listing every move. Empty
    /// when there is no such ply.
    fn ply_cells(&self, ply: usize) -> Vec<u32>;
    /// True when a person plays some seat.
    fn has_human(&self) -> bool;
    /// True when the computer plays some seat.
    fn has_computer(&self) -> bool;
    /// True when a computer playing some seat may think about its moves from
    /// here on (a search, a table to build), not only look them up: its moves
    /// need a thinking budget and deadline.
    fn computer_thinks(&self) -> bool;
    /// True when a person plays the seat to move now (the view's `human_to_move`).
    fn human_to_move(&self) -> bool;
    /// Who acts next (resignations and draw rules included).
    fn turn(&self) -> Turn;
    /// Plays a human move given as text. Fails (leaving the match unchanged) when
    /// the move is malformed or illegal or it is not a human's turn.
    fn play(&mut self, mv: &str) -> Result<LogEntry, EngineError>;
    /// Plays a move for whoever is to move, human or not, without any reply (set-up mode).
    fn play_setup(&mut self, mv: &str) -> Result<LogEntry, EngineError>;
    /// Plays chance and computer moves until a human is to move or the game ends.
    fn advance(&mut self) -> Result<Vec<LogEntry>, EngineError>;
    /// Plays exactly one chance or computer ply, if one is due.
    fn step(&mut self) -> Result<Option<LogEntry>, EngineError>;
    /// The side to move (a human) gives up, and the other side wins; unless
    /// every player resigns (Stenger's "Associative Arrays": then the Cat wins):
    /// the computer at the other seat when it would resign at its next turn
    /// whatever was played, or the winner, a person, resigning too right after.
    fn resign(&mut self) -> Result<(), EngineError>;
    /// Takes back the last human move and the replies after it (or one ply when no
    /// human plays). False when there is nothing (more) to undo.
    fn undo(&mut self) -> bool;
    /// Replays what the last undo took back.
    fn redo(&mut self) -> bool;
    /// Starts a new game with the same players (learners keep what they learned,
    /// tallies go on).
    fn new_game(&mut self);
    /// The testers' `win` of Stenger's "Associative Arrays" ("force a win … when used by authorized testers"): the human
    /// to move declares themselves the winner of a two-player game; the other side
    /// loses (learners learn from it).
    fn declare_win(&mut self) -> Result<(), EngineError>;
    /// Every legal move graded for the side to move, best first, plus the game's own analysis.
    fn hint(&self) -> Result<tabula_core::Hint, EngineError>;
    /// A record that rebuilds this match exactly.
    fn record(&self) -> MatchRecord;
    /// The learned state of the player in `seat`, if it learns.
    fn learned(&self, seat: Seat) -> Option<serde_json::Value>;
    /// `learned`, each box's beads also named in the game's words (`words`, in
    /// the order of `beads`) for a player's eyes; never saved or read back.
    fn learned_in_words(&self, seat: Seat) -> Option<serde_json::Value>;
    /// Sets the undo depth (None: unlimited).
    fn set_undo_depth(&mut self, depth: Option<usize>);
    /// Changes the player of a seat (e.g. the AI level slider).
    fn set_player(&mut self, seat: Seat, spec: &str) -> Result<(), EngineError>;
}

/// What one undo took back: plies (last first) or a resignation.
struct Unit<G: Game> {
    plies: Vec<Ply<G>>,
    resigned: Option<Seat>,
    /// The other seat resigned too.
    all_resigned: bool,
    /// The learners' state after the game end this undo took back: a redo of the
    /// same end restores it instead of teaching the lesson again.
    taught: Option<Vec<Option<serde_json::Value>>>,
}

struct Ply<G: Game> {
    mv: G::Move,
    seat: Option<Seat>,
    entry: Arc<LogEntry>,
    /// The move as a game ID writes it (`Notation::short_move`), when that is
    /// not its notation (`entry.mv`).
    short: Option<String>,
}

pub(crate) struct MatchImpl<G: Registered> {
    handle: Arc<Handle<G>>,
    config: MatchConfig,
    specs: Vec<PlayerSpec>,
    players: Vec<Option<Box<dyn Strategy<G>>>>,
    start: G::State,
    /// states[i] is the position after i plies.
    states: Vec<G::State>,
    /// The rules of actual play over `states` (repetitions, plies without
    /// progress, the length bound), kept as plies are played and taken back.
    tracker: PlayTracker<G>,
    plies: Vec<Ply<G>>,
    redo: Vec<Unit<G>>,
    /// Units that may still be undone (bounded by the undo depth).
    undo_budget: usize,
    resigned: Option<Seat>,
    /// The winner declared the win with the testers' `win` command of Stenger's "Associative Arrays".
    declared: bool,
    reported: Option<Outcome>,
    tally: Tally,
    rng: Rng,
    /// The game with the start dealt for the current game (see [`Registered::deal`]).
    dealt: Option<G>,
    /// The clock of the current game.
    timing: CurrentGame,
}

/// Stops a runaway computer-vs-computer game that no draw rule ends.
const MAX_ADVANCE: usize = 100_000;

/// The key of each box's beads in the game's words, in a learner's state as
/// [`Match::learned_in_words`] gives it.
const BEAD_WORDS: &str = "words";

/// A learner's state as [`Match::learned_in_words`] gives it, less the words
/// it names each box's beads in: the state as [`Match::learned`] gives it and
/// as it is stored.
pub fn learned_as_stored(learned: &serde_json::Value) -> serde_json::Value {
    let mut stored = learned.clone();
    if let Some(boxes) = stored.get_mut("boxes").and_then(|b| b.as_array_mut()) {
        for b in boxes.iter_mut().filter_map(|b| b.as_object_mut()) {
            b.remove(BEAD_WORDS);
        }
    }
    stored
}

impl<G: Registered> MatchImpl<G> {
    /// Names each bead of a learning machine's boxes in the game's words
    /// (`words`, beside `beads`, which keep the notation): a box's position and its
    /// beads' moves are read back in the game's notation, and a bead that cannot be
    /// read keeps its notation as its words.
    fn name_beads(&self, learned: &mut serde_json::Value) {
        let game = self.handle.game();
        let Some(boxes) = learned.get_mut("boxes").and_then(|b| b.as_array_mut()) else {
            return;
        };
        for b in boxes {
            let state = b
                .get("position")
                .and_then(|p| p.as_str())
                .and_then(|p| game.parse_position(p).ok());
            let words: Vec<serde_json::Value> = b
                .get("beads")
                .and_then(|beads| beads.as_array())
                .map(|beads| {
                    beads
                        .iter()
                        .map(|bead| {
                            let text = bead.get(0).and_then(|t| t.as_str()).unwrap_or("");
                            let named = state.as_ref().and_then(|s| {
                                game.parse_move(s, text).ok().map(|m| game.move_words(s, m))
                            });
                            serde_json::Value::String(named.unwrap_or_else(|| text.to_string()))
                        })
                        .collect()
                })
                .unwrap_or_default();
            if let Some(obj) = b.as_object_mut() {
                obj.insert(BEAD_WORDS.into(), serde_json::Value::Array(words));
            }
        }
    }

    pub(crate) fn new(handle: Arc<Handle<G>>, config: MatchConfig) -> Result<Self, EngineError> {
        let game = handle.game();
        let seats = game.seats().len();
        if config.players.len() > seats {
            return Err(EngineError::Invalid(format!(
                "{} has {} seat(s) but {} players were given",
                G::NAME,
                seats,
                config.players.len()
            )));
        }
        let rng = tabula_core::rng_from_seed(config.seed);
        let mut dealt = None;
        let start = match &config.position {
            Some(text) => game.parse_position(text).map_err(EngineError::Position)?,
            None => match game.deal(&mut deal_rng(config.seed, "")) {
                Some(g) => {
                    let s = g.initial_state();
                    dealt = Some(g);
                    s
                }
                None => game.initial_state(),
            },
        };
        if config.position.is_some() {
            handle.ensure_solved_from(&start);
        }
        check_undo_depth(config.undo_depth).map_err(EngineError::Invalid)?;
        let tracker = PlayTracker::new(game, &start);
        let mut specs = Vec::new();
        let mut players = Vec::new();
        for seat in 0..seats {
            let text = config
                .players
                .get(seat)
                .map(String::as_str)
                .unwrap_or("human");
            let spec = parse_player_spec(text)?;
            players.push(handle.make_player(&spec, config.seed.wrapping_add(seat as u64 * 7919))?);
            specs.push(spec);
        }
        let mut m = MatchImpl {
            declared: false,
            undo_budget: 0,
            rng,
            dealt,
            timing: CurrentGame {
                started_ms: now_ms(),
                ..CurrentGame::default()
            },
            handle,
            config,
            specs,
            players,
            states: vec![start.clone()],
            tracker,
            start,
            plies: Vec::new(),
            redo: Vec::new(),
            resigned: None,
            reported: None,
            tally: Tally {
                wins: vec![0; seats],
                cat: 0,
                games: 0,
            },
        };
        // A game that starts finished (a finished `position`) counts like any other.
        m.settle();
        Ok(m)
    }

    pub(crate) fn replay(
        handle: Arc<Handle<G>>,
        record: &MatchRecord,
    ) -> Result<Self, EngineError> {
        record.check()?;
        record.check_seats(G::TITLE, handle.game().seats().len())?;
        let mut m = Self::new(handle, record.config.clone())?;
        for (i, rm) in record.moves.iter().enumerate() {
            let state = m.state().clone();
            let game = m.handle.game();
            if m.turn().is_over() {
                return Err(EngineError::Replay(format!(
                    "move {} ({}) comes after the end of the game",
                    i + 1,
                    quoted(&rm.mv)
                )));
            }
            let mv = game.parse_move(&state, &rm.mv).map_err(|e| {
                EngineError::Replay(quoted(&format!("move {} ({}): {e}", i + 1, rm.mv)))
            })?;
            let seat = m.turn().seat();
            let mut next = state.clone();
            game.try_setup(&mut next, mv)
                .unwrap_or_else(|| game.try_play(&mut next, mv))
                .map_err(|e| EngineError::Replay(quoted(&format!("move {}: {e}", i + 1))))?;
            m.push(mv, seat, rm.reason.clone(), next);
        }
        m.undo_budget = m.undo_limit().min(m.plies.len());
        if let Some(r) = record.resigned {
            // Only a player to move resigns (or declares a win over the other).
            if !matches!(m.turn(), Turn::Move(_)) {
                return Err(EngineError::Replay(format!(
                    "it says player {} resigned, but nobody was to move then",
                    r + 1
                )));
            }
        }
        m.resigned = record.resigned;
        m.tally = record.tally.clone();
        if let Some(current) = &record.current {
            // The clock goes on from the recorded start; a dealt start stays dealt,
            // so the next New deals afresh.
            m.timing.started_ms = current.started_ms;
            m.timing.unlearned = current.unlearned.clone();
            if current.all_resigned
                && (record.resigned.is_none() || m.handle.game().seats().len() != 2)
            {
                return Err(EngineError::Replay(
                    "it says every player resigned, but no one did in a game of two".into(),
                ));
            }
            m.timing.all_resigned = current.all_resigned;
            m.timing.counted_for = current.counted_for.clone();
            m.timing.untaught = current.untaught.clone();
            if current.seconds.is_some() {
                m.timing.seconds = current.seconds;
            }
            if let Some(v) = &current.dealt_variant {
                let dealt = tabula_core::Variant::parse(v)
                    .map_err(EngineError::from)
                    .and_then(|v| G::from_variant(&v).map_err(EngineError::from));
                m.dealt = Some(dealt.map_err(|e| {
                    EngineError::Replay(format!("the variant that dealt the game: {e}"))
                })?);
            }
        }
        // An empty list is a record made before any game was counted.
        if m.tally.wins.is_empty() {
            m.tally.wins = vec![0; m.handle.game().seats().len()];
        }
        // The finished game (if any) was already counted in the saved tally.
        m.reported = match m.turn() {
            Turn::Over(o) => Some(o),
            _ => None,
        };
        for (seat, learned) in record.learned.iter().enumerate() {
            let Some(v) = learned else { continue };
            let Some(Some(p)) = m.players.get_mut(seat) else {
                return Err(EngineError::Replay(format!(
                    "it has learned state for player {}, who does not learn",
                    seat + 1
                )));
            };
            p.load_learned(v).map_err(|e| {
                EngineError::Replay(quoted(&format!(
                    "learned state of player {}: {e}",
                    seat + 1
                )))
            })?;
        }
        Ok(m)
    }

    pub(crate) fn state(&self) -> &G::State {
        self.states.last().expect("states always holds the start")
    }

    fn undo_limit(&self) -> usize {
        self.config.undo_depth.unwrap_or(usize::MAX)
    }

    fn has_human(&self) -> bool {
        self.specs.iter().any(PlayerSpec::is_human)
    }

    /// The legal moves with their cells when a player is to move at `turn` (none
    /// at a chance node or the end).
    fn moves_of(&self, turn: Turn) -> Vec<MoveInfo> {
        if !matches!(turn, Turn::Move(_)) {
            return Vec::new();
        }
        let game = self.handle.game();
        let state = self.state();
        let mut moves = Vec::new();
        game.legal_moves(state, &mut moves);
        moves
            .into_iter()
            .map(|m| {
                // The parts' text is the words (the conformance suite checks
                // it): one call to the game instead of two.
                let parts = game.move_parts(state, m);
                let words = match parts.parts() {
                    [WordPart::Text(text)] => text.clone(),
                    _ => parts.to_string(),
                };
                MoveInfo {
                    mv: game.format_move(state, m),
                    cells: game.move_cells(state, m),
                    words,
                    parts,
                }
            })
            .collect()
    }

    /// How the rules of actual play end the game now (a repetition, no
    /// progress, the length bound), if they do.
    fn play_end(&self) -> Option<PlayEnd> {
        self.tracker.end(self.state())
    }

    /// True when the game was cut off at the length bound: no rule ended it
    /// and nobody resigned.
    fn cut_off(&self) -> bool {
        self.resigned.is_none()
            && !self.handle.game().turn(self.state()).is_over()
            && self.play_end().is_some_and(PlayEnd::is_cut_off)
    }

    /// How the game ended, given its outcome.
    fn ending(&self, outcome: Outcome) -> Ending {
        let game = self.handle.game();
        match outcome {
            Outcome::Win(_) if game.seats().len() == 1 => Ending::Solved,
            Outcome::Win(w) if self.declared => Ending::Claimed { seat: w },
            Outcome::Win(w) => match self.resigned {
                Some(r) => Ending::Resigned { seat: r, winner: w },
                None => Ending::Won { seat: w },
            },
            Outcome::Draw if self.timing.all_resigned => Ending::AllResigned {
                first: self.resigned,
            },
            // A game its own rules drew (a full tic-tac-toe board on its last
            // ply) is the Cat's, not cut off by the length bound it reached.
            Outcome::Draw => self
                .play_end()
                .filter(|_| !game.turn(self.state()).is_over())
                .map(Ending::of_play_end)
                .unwrap_or_else(|| Ending::Drawn {
                    reason: "the Cat's game".to_string(),
                }),
            Outcome::Ended => match self.play_end().filter(|_| self.resigned.is_none()) {
                Some(end) if self.cut_off() => Ending::of_play_end(end),
                // A puzzle's run without progress: its limit of moves.
                Some(PlayEnd::NoProgress(_)) if !game.turn(self.state()).is_over() => {
                    Ending::OutOfMoves {
                        plies: self.tracker.plies(),
                    }
                }
                _ => Ending::Over,
            },
        }
    }

    fn result_text(&self, ending: &Ending) -> String {
        let game = self.handle.game();
        ending.words(game.seats(), game.goal_words(), game.score(self.state()))
    }

    fn log_entry(
        &self,
        state: &G::State,
        seat: Option<Seat>,
        mv: G::Move,
        reason: Option<String>,
    ) -> LogEntry {
        let game = self.handle.game();
        let mv_text = game.format_move(state, mv);
        let own = game.log_line(state, seat, mv, reason.as_deref());
        // The engine's line: who moved, the move as `name` gives it, and why;
        // words that already begin with the mover ("O advances …") are not
        // prefixed with it again, and a one-player puzzle's moves are all the
        // player's, so they name no seat.
        let alone = game.seats().len() == 1 && seat.is_some();
        let by = match seat {
            _ if alone => "",
            Some(s) => game.seats().get(s).copied().unwrap_or("?"),
            None => "Chance",
        };
        let said = |name: Words| match &reason {
            Some(r) => name.and_text(format!(" ({r})")),
            None => name,
        };
        let line = |name: Words| {
            let named = name.to_string();
            if by.is_empty()
                || named
                    .strip_prefix(by)
                    .is_some_and(|rest| rest.starts_with(' '))
            {
                said(name)
            } else {
                Words::text(format!("{by}: ")).and(said(name))
            }
        };
        let text = own
            .as_ref()
            .map(Words::to_string)
            .unwrap_or_else(|| line(Words::text(game.describe_move(state, mv))).to_string());
        // A game's own line is already in words; the engine's names the move as
        // a player who clicks is shown it, without the notation typed, and
        // leaves who moved to `by`.
        let parts = own.unwrap_or_else(|| said(game.move_parts(state, mv)));
        LogEntry {
            ply: self.plies.len() + 1,
            seat,
            by: by.to_string(),
            mv: mv_text,
            reason,
            text,
            words: parts.to_string(),
            parts,
        }
    }

    fn push(
        &mut self,
        mv: G::Move,
        seat: Option<Seat>,
        reason: Option<String>,
        next: G::State,
    ) -> LogEntry {
        let before = &self.states[self.states.len() - 1];
        let entry = self.log_entry(before, seat, mv, reason);
        let short = self.handle.game().short_move(before, mv);
        self.plies.push(Ply {
            mv,
            seat,
            short: (short != entry.mv).then_some(short),
            entry: Arc::new(entry.clone()),
        });
        self.push_state(mv, next);
        entry
    }

    /// Called after every change: reports a newly finished game to learners and tallies.
    fn settle(&mut self) {
        self.settle_with(None);
    }

    /// [`MatchImpl::settle`]; a game end that is redone gives the learners back the
    /// state its first telling left (`taught`) instead of teaching them again.
    fn settle_with(&mut self, taught: Option<Vec<Option<serde_json::Value>>>) {
        if self.reported.is_some() {
            return;
        }
        if let Turn::Over(outcome) = self.turn() {
            self.reported = Some(outcome);
            if self.timing.seconds.is_none() {
                let ms = now_ms().saturating_sub(self.timing.started_ms);
                self.timing.seconds = Some(ms as f64 / 1000.0);
            }
            // A game cut off at the length bound has no result: it is not
            // tallied, neither as a win nor as the Cat's.
            if !self.cut_off() {
                self.tally.games += 1;
                match outcome {
                    Outcome::Win(w) => self.tally.wins[w] += 1,
                    _ => self.tally.cat += 1,
                }
            }
            let unlearned = self.learners();
            self.timing.counted_for = Some(self.specs.iter().map(PlayerSpec::to_text).collect());
            self.timing.untaught.clear();
            match taught {
                Some(after) => self.load_learners(&after),
                None => {
                    let game = self.handle.game().clone();
                    for (seat, p) in self.players.iter_mut().enumerate() {
                        if let Some(p) = p {
                            p.game_over(&game, seat, outcome);
                        }
                    }
                }
            }
            self.timing.unlearned = unlearned;
        }
    }

    /// The learned state of every seat, when some player learns.
    fn learners(&self) -> Option<Vec<Option<serde_json::Value>>> {
        let states: Vec<_> = self
            .players
            .iter()
            .map(|p| p.as_ref().and_then(|p| p.learned()))
            .collect();
        states.iter().any(Option::is_some).then_some(states)
    }

    /// Gives learners back a state [`MatchImpl::learners`] took (their own
    /// output, so it loads).
    fn load_learners(&mut self, states: &[Option<serde_json::Value>]) {
        for (p, state) in self.players.iter_mut().zip(states) {
            if let (Some(p), Some(state)) = (p, state) {
                let _ = p.load_learned(state);
            }
        }
    }

    /// Takes back the report of the game's end: its count in the tallies and
    /// the learners' lesson (they get their state from before it back). Returns
    /// the learners' state after the lesson, for a redo of the same end.
    fn unreport(&mut self) -> Option<Vec<Option<serde_json::Value>>> {
        // A game cut off at the length bound was not tallied.
        let tallied = !self.cut_off();
        let o = self.reported.take()?;
        if tallied {
            self.tally.games = self.tally.games.saturating_sub(1);
            match o {
                Outcome::Win(w) => self.tally.wins[w] = self.tally.wins[w].saturating_sub(1),
                _ => self.tally.cat = self.tally.cat.saturating_sub(1),
            }
        }
        let taught = self.learners();
        self.take_back_lessons();
        taught
    }

    /// Whether the winner of a game just resigned, a person, may resign too:
    /// then every player has resigned and the Cat wins (not after the testers'
    /// declared win, which is no resignation). Only while the seats have the
    /// players the end was counted for: after a seat changed player, turning
    /// that end into the Cat's would move a tally and a lesson that are not
    /// theirs.
    fn may_resign_too(&self) -> bool {
        let two = self.handle.game().seats().len() == 2;
        let same_players = self.timing.counted_for.as_ref().map_or(true, |c| {
            c.len() == self.specs.len()
                && c.iter()
                    .zip(&self.specs)
                    .all(|(was, now)| *was == now.to_text())
        });
        match self.resigned {
            Some(r) if two && same_players && !self.declared && !self.timing.all_resigned => {
                self.specs[1 - r].is_human()
            }
            _ => false,
        }
    }

    /// Whether the computer at the other seat would resign at its next turn
    /// whatever the person who resigns in `seat` now would have played (its
    /// matchbox empty for every position they could leave it): then every player
    /// has resigned.
    fn computer_resigns_too(&self, seat: Seat) -> bool {
        let game = self.handle.game();
        if game.seats().len() != 2 {
            return false;
        }
        let other = 1 - seat;
        let Some(player) = self.players[other].as_ref() else {
            return false;
        };
        let state = self.state();
        let mut moves = Vec::new();
        game.legal_moves(state, &mut moves);
        !moves.is_empty()
            && moves.iter().all(|&m| {
                let mut next = state.clone();
                game.play_unchecked(&mut next, m);
                game.turn(&next) == Turn::Move(other) && player.would_resign(game, &next, other)
            })
    }

    /// Gives each learner the end taught its state from before that end. A seat
    /// whose player changed since (the learner left it) cannot be given it here:
    /// the state goes to [`CurrentGame::untaught`] for whoever keeps that
    /// learner's state outside the match.
    fn take_back_lessons(&mut self) {
        self.timing.untaught.clear();
        let counted_for = self.timing.counted_for.take();
        let Some(before) = self.timing.unlearned.take() else {
            return;
        };
        for (seat, state) in before.into_iter().enumerate() {
            let Some(state) = state else { continue };
            let now = self.specs.get(seat).map(PlayerSpec::to_text);
            let learned_by = counted_for
                .as_ref()
                .and_then(|c| c.get(seat).cloned())
                .or_else(|| now.clone());
            match (learned_by, self.players.get_mut(seat)) {
                (Some(by), Some(Some(p))) if Some(&by) == now.as_ref() => {
                    // Its own output, so it loads.
                    let _ = p.load_learned(&state);
                }
                (Some(player), _) => self.timing.untaught.push(Untaught {
                    seat,
                    player,
                    learned: state,
                }),
                (None, _) => {}
            }
        }
    }

    fn begin_unit(&mut self) {
        self.redo.clear();
        self.undo_budget = (self.undo_budget + 1).min(self.undo_limit());
    }

    fn play_checked(&mut self, text: &str, require_human: bool) -> Result<LogEntry, EngineError> {
        let text = text.trim();
        if text.len() > 4096 {
            return Err(EngineError::Invalid("move text too long".into()));
        }
        let seat = match self.turn() {
            Turn::Over(_) => return Err(MoveError::GameOver.into()),
            Turn::Chance if require_human => {
                return Err(MoveError::NotYourTurn("the dice must be rolled first".into()).into())
            }
            Turn::Chance => None,
            Turn::Move(s) => {
                if require_human && !self.specs[s].is_human() {
                    return Err(MoveError::NotYourTurn(format!(
                        "{} is played by the computer",
                        self.handle.game().seats()[s]
                    ))
                    .into());
                }
                Some(s)
            }
        };
        let game = self.handle.game();
        let state = self.state().clone();
        let mv = game.parse_move(&state, text).map_err(MoveError::from)?;
        let mut next = state.clone();
        match (!require_human)
            .then(|| game.try_setup(&mut next, mv))
            .flatten()
        {
            Some(r) => r?,
            None => game.try_play(&mut next, mv)?,
        }
        // Every move a person asks for is a unit of undo, set-up moves too: in a
        // session with no person's seat (a puzzle the computer replays) they are
        // the only way back.
        self.begin_unit();
        let entry = self.push(mv, seat, None, next);
        self.settle();
        Ok(entry)
    }

    fn replay_ply(&mut self, ply: Ply<G>) {
        let mut next = self.state().clone();
        self.handle.game().play_unchecked(&mut next, ply.mv);
        let mv = ply.mv;
        self.plies.push(ply);
        self.push_state(mv, next);
    }

    fn pop_ply(&mut self) -> Option<Ply<G>> {
        let ply = self.plies.pop()?;
        if let Some(s) = self.states.pop() {
            self.tracker.undo(&s);
        }
        Some(ply)
    }

    /// Adds the position `mv` gave (the ply itself is already in `plies`).
    fn push_state(&mut self, mv: G::Move, next: G::State) {
        let before = self.states.last().expect("states always holds the start");
        self.tracker.record(self.handle.game(), before, mv, &next);
        self.states.push(next);
    }
}

impl<G: Registered> Match for MatchImpl<G> {
    fn view(&self) -> MatchView {
        let game = self.handle.game();
        let state = self.state();
        let turn = self.turn();
        let human_to_move = matches!(turn, Turn::Move(s) if self.specs[s].is_human());
        let legal_moves = self.moves_of(turn);
        let outcome = match turn {
            Turn::Over(o) => Some(o),
            _ => None,
        };
        let ending = outcome.map(|o| self.ending(o));
        MatchView {
            game: G::NAME.to_string(),
            title: G::TITLE.to_string(),
            variant: game.variant().to_string(),
            seats: game
                .seats()
                .iter()
                .zip(&self.specs)
                .map(|(n, s)| SeatView {
                    name: n.to_string(),
                    player: s.to_text(),
                    human: s.is_human(),
                    kind: s.name.clone(),
                    level: s
                        .level_split(game.seats().len() == 2)
                        .and_then(Result::ok)
                        .map(|(level, _)| level),
                })
                .collect(),
            position: game.format_position(state),
            turn,
            to_move: turn.seat(),
            human_to_move,
            outcome,
            result: ending.as_ref().map(|e| self.result_text(e)),
            ending,
            ended_by_people: outcome.map(|_| match &self.timing.counted_for {
                Some(players) => players
                    .iter()
                    .map(|p| parse_player_spec(p).is_ok_and(|s| s.is_human()))
                    .collect(),
                None => self.specs.iter().map(PlayerSpec::is_human).collect(),
            }),
            legal_moves,
            view: {
                let moves: Vec<G::Move> = self.plies.iter().map(|p| p.mv).collect();
                crate::shown::view_after(game, &self.states, &moves)
            },
            board_text: game.render_text(state),
            // Games may fold a ply into the next line (Auto120's roll): empty lines are hidden.
            log: self
                .plies
                .iter()
                .filter(|p| !p.entry.text.is_empty())
                .map(|p| Arc::clone(&p.entry))
                .collect(),
            moves: if self.plies.iter().any(|p| p.entry.text.is_empty()) {
                self.plies.iter().map(|p| p.entry.mv.clone()).collect()
            } else {
                Vec::new()
            },
            short_moves: if self.plies.iter().any(|p| p.short.is_some()) {
                self.plies
                    .iter()
                    .map(|p| p.short.clone().unwrap_or_else(|| p.entry.mv.clone()))
                    .collect()
            } else {
                Vec::new()
            },
            score: game.score(state),
            seconds: self
                .timing
                .seconds
                .unwrap_or_else(|| now_ms().saturating_sub(self.timing.started_ms) as f64 / 1000.0),
            dealt_variant: self.dealt.as_ref().map(|g| g.variant().to_string()),
            can_resign: human_to_move || self.may_resign_too(),
            can_undo: self.undo_budget > 0 && !self.plies.is_empty(),
            can_redo: !self.redo.is_empty(),
            tally: self.tally.clone(),
        }
    }

    fn legal_moves(&self) -> Vec<MoveInfo> {
        self.moves_of(self.turn())
    }

    fn ply_cells(&self, ply: usize) -> Vec<u32> {
        let at = ply.wrapping_sub(1);
        match (self.plies.get(at), self.states.get(at)) {
            (Some(p), Some(before)) => self.handle.game().move_cells(before, p.mv),
            _ => Vec::new(),
        }
    }

    fn has_human(&self) -> bool {
        MatchImpl::has_human(self)
    }

    fn has_computer(&self) -> bool {
        self.specs.iter().any(|s| !s.is_human())
    }

    fn computer_thinks(&self) -> bool {
        let game = self.handle.game();
        self.specs.iter().zip(&self.players).any(|(spec, player)| {
            !spec.is_human()
                && player
                    .as_ref()
                    .map_or(true, |p| p.thinks(game, self.state()))
        })
    }

    fn human_to_move(&self) -> bool {
        matches!(self.turn(), Turn::Move(s) if self.specs[s].is_human())
    }

    fn turn(&self) -> Turn {
        if let Some(r) = self.resigned {
            let seats = self.handle.game().seats().len();
            return Turn::Over(if seats == 2 && self.timing.all_resigned {
                Outcome::Draw
            } else if seats == 2 {
                Outcome::Win(1 - r)
            } else {
                Outcome::Ended
            });
        }
        self.tracker.turn(self.handle.game(), self.state())
    }

    fn play(&mut self, mv: &str) -> Result<LogEntry, EngineError> {
        self.play_checked(mv, true)
    }

    fn play_setup(&mut self, mv: &str) -> Result<LogEntry, EngineError> {
        self.play_checked(mv, false)
    }

    fn step(&mut self) -> Result<Option<LogEntry>, EngineError> {
        let game = self.handle.game().clone();
        let state = self.state().clone();
        match self.turn() {
            Turn::Over(_) => Ok(None),
            Turn::Chance => {
                let mut outcomes = Vec::new();
                game.chance_outcomes(&state, &mut outcomes);
                if outcomes.is_empty() {
                    return Err(EngineError::Unsupported(
                        "a chance node without outcomes".into(),
                    ));
                }
                let mv = sample(&outcomes, &mut self.rng);
                let mut next = state;
                game.play_unchecked(&mut next, mv);
                if !self.has_human() {
                    self.begin_unit();
                }
                let e = self.push(mv, None, None, next);
                self.settle();
                Ok(Some(e))
            }
            Turn::Move(seat) => {
                let Some(player) = self.players[seat].as_mut() else {
                    return Ok(None);
                };
                match player.choose(&game, &state, seat, &mut self.rng) {
                    Some(choice) => {
                        let mut next = state;
                        game.try_play(&mut next, choice.mv).map_err(|e| {
                            EngineError::Unsupported(format!(
                                "the computer player chose an illegal move: {e}"
                            ))
                        })?;
                        if !self.has_human() {
                            self.begin_unit();
                        }
                        let e = self.push(choice.mv, Some(seat), choice.reason, next);
                        self.settle();
                        Ok(Some(e))
                    }
                    None => {
                        self.resigned = Some(seat);
                        self.settle();
                        Ok(None)
                    }
                }
            }
        }
    }

    fn advance(&mut self) -> Result<Vec<LogEntry>, EngineError> {
        let mut out = Vec::new();
        for _ in 0..MAX_ADVANCE {
            match self.turn() {
                Turn::Over(_) => break,
                Turn::Move(s) if self.specs[s].is_human() => break,
                _ => match self.step()? {
                    Some(e) => out.push(e),
                    None => break,
                },
            }
        }
        Ok(out)
    }

    fn resign(&mut self) -> Result<(), EngineError> {
        match self.turn() {
            Turn::Move(s) if self.specs[s].is_human() => {
                if self.has_human() {
                    self.begin_unit();
                }
                self.resigned = Some(s);
                self.timing.all_resigned = self.computer_resigns_too(s);
                self.settle();
                Ok(())
            }
            // The winner of a resigned game, a person, resigns too: the end
            // reported as a win becomes the Cat's. One undo takes both back.
            Turn::Over(_) if self.may_resign_too() => {
                self.unreport();
                self.timing.all_resigned = true;
                self.settle();
                Ok(())
            }
            Turn::Over(_) => Err(MoveError::GameOver.into()),
            _ => Err(MoveError::NotYourTurn("only the human to move can resign".into()).into()),
        }
    }

    fn undo(&mut self) -> bool {
        if self.undo_budget == 0 || (self.plies.is_empty() && self.resigned.is_none()) {
            return false;
        }
        // The end taught the learners once: that lesson is taken back with it
        // (and kept for a redo of the same end).
        let taught = self.unreport();
        self.declared = false;
        let mut unit = Unit {
            plies: Vec::new(),
            resigned: self.resigned.take(),
            all_resigned: std::mem::take(&mut self.timing.all_resigned),
            taught,
        };
        if unit.resigned.is_none() {
            if self.has_human() {
                // Take back plies until a human's own move has been taken back.
                while let Some(ply) = self.pop_ply() {
                    let human = ply.seat.is_some_and(|s| self.specs[s].is_human());
                    unit.plies.push(ply);
                    if human {
                        break;
                    }
                }
            } else if let Some(ply) = self.pop_ply() {
                unit.plies.push(ply);
            }
        }
        for p in self.players.iter_mut().flatten() {
            p.forget_game();
        }
        self.undo_budget -= 1;
        self.redo.push(unit);
        true
    }

    fn redo(&mut self) -> bool {
        let Some(unit) = self.redo.pop() else {
            return false;
        };
        for ply in unit.plies.into_iter().rev() {
            self.replay_ply(ply);
        }
        self.resigned = unit.resigned;
        self.timing.all_resigned = unit.all_resigned;
        self.undo_budget = (self.undo_budget + 1).min(self.undo_limit());
        self.settle_with(unit.taught);
        true
    }

    fn new_game(&mut self) {
        self.settle();
        self.states.truncate(1);
        if let Some(last) = &self.dealt {
            // A fresh deal for every new game (the Same Game tutorial's New).
            let mut rng = deal_rng(self.config.seed, &last.variant().to_string());
            if let Some(g) = self.handle.game().deal(&mut rng) {
                self.start = g.initial_state();
                self.dealt = Some(g);
            }
        }
        self.states[0] = match (&self.config.position, &self.dealt) {
            (Some(_), _) | (None, Some(_)) => self.start.clone(),
            (None, None) => self.handle.game().initial_state(),
        };
        self.tracker = PlayTracker::new(self.handle.game(), &self.states[0]);
        self.timing = CurrentGame {
            started_ms: now_ms(),
            ..CurrentGame::default()
        };
        self.plies.clear();
        self.redo.clear();
        self.undo_budget = 0;
        self.resigned = None;
        self.declared = false;
        self.reported = None;
        self.timing.seconds = None;
        for p in self.players.iter_mut().flatten() {
            p.forget_game();
        }
        // A start that is already finished counts as a game.
        self.settle();
    }

    fn declare_win(&mut self) -> Result<(), EngineError> {
        let seats = self.handle.game().seats().len();
        match self.turn() {
            Turn::Move(s) if self.specs[s].is_human() && seats == 2 => {
                self.begin_unit();
                self.resigned = Some(1 - s);
                self.declared = true;
                self.settle();
                Ok(())
            }
            Turn::Move(_) if seats != 2 => {
                Err(EngineError::Invalid("'win' is for two-player games".into()))
            }
            Turn::Over(_) => Err(MoveError::GameOver.into()),
            _ => Err(
                MoveError::NotYourTurn("only the human to move can declare a win".into()).into(),
            ),
        }
    }

    fn hint(&self) -> Result<tabula_core::Hint, EngineError> {
        Ok(self.handle.hint_state(self.state()))
    }

    fn record(&self) -> MatchRecord {
        MatchRecord {
            game: G::NAME.to_string(),
            variant: self.handle.game().variant().to_string(),
            config: MatchConfig {
                players: self.specs.iter().map(PlayerSpec::to_text).collect(),
                // A dealt start is kept as a position, so the record replays it.
                position: match &self.dealt {
                    Some(g) => Some(g.format_position(&self.start)),
                    None => self.config.position.clone(),
                },
                ..self.config.clone()
            },
            moves: self
                .plies
                .iter()
                .map(|p| RecordedMove {
                    mv: p.entry.mv.clone(),
                    reason: p.entry.reason.clone(),
                })
                .collect(),
            resigned: self.resigned,
            tally: self.tally.clone(),
            learned: self
                .players
                .iter()
                .map(|p| p.as_ref().and_then(|p| p.learned()))
                .collect(),
            current: Some(CurrentGame {
                dealt_variant: self.dealt.as_ref().map(|g| g.variant().to_string()),
                ..self.timing.clone()
            }),
        }
    }

    fn learned(&self, seat: Seat) -> Option<serde_json::Value> {
        self.players.get(seat)?.as_ref()?.learned()
    }

    fn learned_in_words(&self, seat: Seat) -> Option<serde_json::Value> {
        let mut learned = self.learned(seat)?;
        self.name_beads(&mut learned);
        Some(learned)
    }

    fn set_undo_depth(&mut self, depth: Option<usize>) {
        self.config.undo_depth = depth;
        self.undo_budget = self.undo_budget.min(self.undo_limit());
    }

    fn set_player(&mut self, seat: Seat, spec: &str) -> Result<(), EngineError> {
        if seat >= self.players.len() {
            return Err(EngineError::Invalid(format!("no seat {seat}")));
        }
        let spec = parse_player_spec(spec)?;
        let player = self
            .handle
            .make_player(&spec, self.config.seed.wrapping_add(seat as u64 * 7919))?;
        self.players[seat] = player;
        self.specs[seat] = spec;
        if self.config.players.len() <= seat {
            self.config.players.resize(seat + 1, "human".into());
        }
        self.config.players[seat] = self.specs[seat].to_text();
        Ok(())
    }
}
