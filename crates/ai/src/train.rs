//! Training a matchbox machine (`tabula train`): many games against an opponent,
//! with the learning figures of Stenger's "Associative Arrays" — when it last lost, and after which game no
//! opponent could beat it any more.
//!
//! Opponents:
//! * `random`: a uniformly random legal move.
//! * `perfect`: a best move from the strong solution (fastest win, slowest loss),
//!   ties broken at random.
//! * `exploit`: the trainer Gardner's readers played. It searches the machine's
//!   *current* boxes for a line of play the machine can still lose — the machine's
//!   moves limited to the beads it has left, every legal move where it has no box yet,
//!   an empty box meaning it resigns — and plays along it (a move that wins at once
//!   first, otherwise a random move among those that keep such a line open). If the
//!   machine deviates it searches again; when no such line exists it plays at random.
//! * `self`: a second machine with the same options plays the other seat and learns
//!   too. Each seat keeps its own boxes (positions include the side to move, so shared
//!   boxes would never meet anyway); the report describes the learner only.
//!
//! `unbeatable_after` uses the same search from the start after every game that
//! changed which moves the machine can still make.

use crate::matchbox::{Matchbox, MatchboxOptions};
use crate::players::{PerfectPlayer, RandomPlayer};
use crate::retrograde::Solution;
use rand::Rng as _;
use serde::Serialize;
use std::collections::{HashMap, HashSet};
use std::sync::Arc;
use tabula_core::{
    rng_from_seed, ExactAnalysis, MatchRules, Notation, Outcome, Rng, Seat, Strategy, Symmetry,
    Turn,
};

/// What training asks of a game: its notation (boxes are keyed by the position's
/// text), its symmetries (one box per class of positions), its size (whether the
/// perfect opponent can be built) and its rules of actual play (games end in draws
/// as matches do). Every registered game has them all.
pub trait Trainable: Notation + Symmetry + ExactAnalysis + MatchRules {}
impl<G: Notation + Symmetry + ExactAnalysis + MatchRules> Trainable for G {}

/// Who the machine trains against.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Opponent {
    /// Uniformly random legal moves.
    Random,
    /// Perfect play from the strong solution, ties at random.
    Perfect,
    /// Gardner's readers: play a line the machine can still lose.
    Exploit,
    /// Another machine with the same options.
    SelfPlay,
}

impl Opponent {
    /// Reads `random`, `perfect`, `exploit` or `self`.
    pub fn parse(text: &str) -> Result<Opponent, String> {
        match text.trim().to_ascii_lowercase().as_str() {
            "random" => Ok(Opponent::Random),
            "perfect" => Ok(Opponent::Perfect),
            "exploit" => Ok(Opponent::Exploit),
            "self" => Ok(Opponent::SelfPlay),
            other => Err(format!(
                "unknown opponent '{other}': expected random, perfect, exploit or self"
            )),
        }
    }
    /// The opponent in a player's words ("a random player").
    pub fn words(self) -> &'static str {
        match self {
            Opponent::Random => "a random player",
            Opponent::Perfect => "a perfect player",
            Opponent::Exploit => "a player who hunts for its weak spots",
            Opponent::SelfPlay => "itself",
        }
    }
    /// The name [`Opponent::parse`] reads.
    pub fn as_str(self) -> &'static str {
        match self {
            Opponent::Random => "random",
            Opponent::Perfect => "perfect",
            Opponent::Exploit => "exploit",
            Opponent::SelfPlay => "self",
        }
    }
}

/// What to train and how.
#[derive(Clone, Debug)]
pub struct TrainOptions {
    /// Games to play.
    pub games: u64,
    /// Seed of the one random generator both sides draw from.
    pub seed: u64,
    /// The opponent.
    pub opponent: Opponent,
    /// The machine's seat (Gardner's machine plays Black, seat 1; MENACE played X, seat 0).
    pub seat: Seat,
    /// The machine's settings.
    pub machine: MatchboxOptions,
    /// Games per point of the learning curve; 0 picks about 20 points.
    pub block: u64,
    /// Matchboxes to start from (as saved by `Strategy::learned`), instead of none.
    pub learned: Option<serde_json::Value>,
    /// Games longer than this many plies are stopped as draws (cyclic games).
    pub max_plies: usize,
}

impl Default for TrainOptions {
    fn default() -> Self {
        TrainOptions {
            games: 100,
            seed: 1,
            opponent: Opponent::Random,
            seat: 1,
            machine: MatchboxOptions::gardner(),
            block: 0,
            learned: None,
            max_plies: 1_000,
        }
    }
}

impl TrainOptions {
    /// Reads options from JSON as the CLI and server pass them: `games`, `seed`,
    /// `opponent` (`"random"`…), `seat` (number or seat name), `player` (`"matchbox"`
    /// or `"menace"`), `options` (the matchbox options text), `block`, `learned`,
    /// `max_plies`. Missing fields keep their defaults.
    pub fn from_json<G: Trainable>(
        game: &G,
        json: &serde_json::Value,
    ) -> Result<TrainOptions, String> {
        let mut o = TrainOptions::default();
        let obj = json
            .as_object()
            .ok_or("train options must be a JSON object")?;
        let int = |name: &str, max: u64| -> Result<Option<u64>, String> {
            match obj.get(name) {
                None | Some(serde_json::Value::Null) => Ok(None),
                Some(v) => v
                    .as_u64()
                    .filter(|n| *n <= max)
                    .map(Some)
                    .ok_or_else(|| format!("'{name}' must be a whole number from 0 to {max}")),
            }
        };
        if let Some(n) = int("games", 100_000_000)? {
            o.games = n;
        }
        if let Some(n) = int("seed", u64::MAX)? {
            o.seed = n;
        }
        if let Some(n) = int("block", 100_000_000)? {
            o.block = n;
        }
        if let Some(n) = int("max_plies", 1_000_000)? {
            o.max_plies = n as usize;
        }
        if let Some(v) = obj.get("opponent").and_then(|v| v.as_str()) {
            o.opponent = Opponent::parse(v)?;
        }
        match obj.get("seat") {
            None | Some(serde_json::Value::Null) => {}
            Some(serde_json::Value::String(name)) => {
                o.seat = game
                    .seats()
                    .iter()
                    .position(|s| s.eq_ignore_ascii_case(name.trim()))
                    .ok_or_else(|| {
                        format!(
                            "unknown seat '{name}': expected one of {}",
                            game.seats().join(", ")
                        )
                    })?;
            }
            Some(v) => {
                o.seat = v
                    .as_u64()
                    .filter(|&n| (n as usize) < game.seats().len())
                    .ok_or_else(|| {
                        format!(
                            "'seat' must be a seat name or a number below {}",
                            game.seats().len()
                        )
                    })? as usize
            }
        }
        let player = obj
            .get("player")
            .and_then(|v| v.as_str())
            .unwrap_or("matchbox");
        let options = obj.get("options").and_then(|v| v.as_str()).unwrap_or("");
        o.machine = MatchboxOptions::for_player(player, options)?;
        o.learned = obj.get("learned").filter(|v| !v.is_null()).cloned();
        Ok(o)
    }
}

/// Results of one block of games on the learning curve.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct CurveBlock {
    /// First game of the block (1-based).
    pub from: u64,
    /// Last game of the block.
    pub to: u64,
    /// Games the machine won.
    pub wins: u64,
    /// Games it lost (resignations included).
    pub losses: u64,
    /// Drawn games.
    pub draws: u64,
}

/// What training did, as `tabula train --json` prints it.
#[derive(Clone, Debug, Serialize)]
pub struct TrainReport {
    /// The game's registry name.
    pub game: String,
    /// The machine's seat name.
    pub learner: String,
    /// The machine's seat number.
    pub learner_seat: Seat,
    /// The machine's settings as an options text.
    pub machine: String,
    /// The same in plain words.
    pub machine_rules: String,
    /// The opponent's name.
    pub opponent: String,
    /// The opponent in a player's words ([`Opponent::words`]).
    pub opponent_words: String,
    /// The seed.
    pub seed: u64,
    /// Games played.
    pub games: u64,
    /// Games the machine won.
    pub wins: u64,
    /// Games it lost, resignations included.
    pub losses: u64,
    /// Drawn games (the Cat's).
    pub draws: u64,
    /// Losses by resigning at an empty box.
    pub resignations: u64,
    /// 1-based index of the last game the machine lost; `null` if none.
    pub last_loss: Option<u64>,
    /// The game after which no line of play could beat the beads the machine had
    /// left (0: before any game); `null` if that never happened or was not checked.
    pub unbeatable_after: Option<u64>,
    /// Whether `unbeatable_after` was checked (only for small games).
    pub unbeatable_checked: bool,
    /// The game at which the machine completed its first 100 games in a row without a loss.
    pub first_run_of_100_non_losses_ended_at: Option<u64>,
    /// Boxes the machine made.
    pub matchboxes: usize,
    /// Beads left in them.
    pub beads: u64,
    /// Positions reachable from the start with the machine to move (small games).
    pub learner_positions: Option<usize>,
    /// The same counted once per symmetry class (small games).
    pub learner_positions_up_to_symmetry: Option<usize>,
    /// Games per curve point.
    pub block: u64,
    /// The learning curve.
    pub curve: Vec<CurveBlock>,
    /// The machine's matchboxes after training (loadable with `Strategy::load_learned`).
    pub learned: serde_json::Value,
}

/// One finished training game, for progress displays and "watch it learn".
#[derive(Clone, Debug, Serialize)]
pub struct TrainEvent<'a> {
    /// 1-based game index.
    pub game: u64,
    /// Games in the whole run.
    pub of: u64,
    /// +1 the machine won, 0 draw, -1 it lost.
    pub result: i32,
    /// It lost by resigning at an empty box.
    pub resigned: bool,
    /// The moves of the game, as text.
    pub moves: Vec<String>,
    /// Boxes after learning from the game.
    pub matchboxes: usize,
    /// Beads after learning from the game.
    pub beads: u64,
    /// Games per block of the learning curve.
    pub block: u64,
    /// The learning curve so far, this game included (the report's `curve` as it
    /// grows; the last block may be unfinished).
    pub curve: &'a [CurveBlock],
}

/// Trains a machine and reports.
pub fn train<G: Trainable>(game: &G, options: &TrainOptions) -> Result<TrainReport, String> {
    train_observed(game, options, &mut |_| {})
}

/// As [`train`], reporting the fraction of games done.
pub fn train_with_progress<G: Trainable>(
    game: &G,
    options: &TrainOptions,
    progress: &dyn Fn(f64),
) -> Result<TrainReport, String> {
    train_observed(game, options, &mut |e| {
        progress(e.game as f64 / e.of.max(1) as f64)
    })
}

/// As [`train`], calling `observe` after every game.
pub fn train_observed<G: Trainable>(
    game: &G,
    options: &TrainOptions,
    observe: &mut dyn FnMut(&TrainEvent),
) -> Result<TrainReport, String> {
    if game.seats().len() != 2 {
        return Err("training needs a two-player game".into());
    }
    let learner_seat = options.seat;
    if learner_seat > 1 {
        return Err(format!("seat {learner_seat} does not exist: use 0 or 1"));
    }
    let mut machine = Matchbox::new(game, options.machine.clone());
    if let Some(saved) = &options.learned {
        machine.load_learned(saved)?;
    }
    let small = game.is_small();
    let mut opponent = match options.opponent {
        Opponent::Random => Trainer::Random(RandomPlayer),
        Opponent::Perfect => {
            let solution = Solution::solve(game, &game.initial_state(), 5_000_000)
                .map_err(|e| format!("the perfect opponent needs the strong solution: {e}"))?;
            Trainer::Perfect(PerfectPlayer::new(Arc::new(solution)))
        }
        Opponent::Exploit if !small => {
            return Err("the exploit opponent searches the whole game: only small games".into())
        }
        Opponent::Exploit => Trainer::Exploit(Box::new(LossSearch::new(learner_seat))),
        Opponent::SelfPlay => {
            Trainer::Machine(Box::new(Matchbox::new(game, machine.options().clone())))
        }
    };
    let mut rng = rng_from_seed(options.seed);
    let mut search = LossSearch::new(learner_seat);
    let block = if options.block == 0 {
        options.games.div_ceil(20).max(1)
    } else {
        options.block
    };

    let mut tally = Tally::default();
    let mut unbeatable_after = None;
    let mut checked_version = None;
    let mut check = |machine: &mut Matchbox<G>, after: u64, unbeatable_after: &mut Option<u64>| {
        if !small || checked_version == Some(machine.support_version()) {
            return;
        }
        checked_version = Some(machine.support_version());
        let beatable = search.can_lose(game, machine, &game.initial_state());
        match (beatable, *unbeatable_after) {
            (false, None) => *unbeatable_after = Some(after),
            (true, Some(_)) => *unbeatable_after = None,
            _ => {}
        }
    };
    check(&mut machine, 0, &mut unbeatable_after);

    // The caller's cancel flag (a server job's): training stops early.
    let stop = tabula_core::Budget::current().map(|b| b.cancel_flag());
    for index in 1..=options.games {
        if stop.as_ref().is_some_and(|s| s.is_cancelled()) {
            break;
        }
        let (outcome, resigned, moves) = play_game(
            game,
            &mut machine,
            learner_seat,
            &mut opponent,
            &mut rng,
            options.max_plies,
        );
        machine.game_over(game, learner_seat, outcome);
        if let Trainer::Machine(other) = &mut opponent {
            other.game_over(game, 1 - learner_seat, outcome);
        }
        let result = outcome.sign_for(learner_seat);
        tally.record(index, result, resigned, block, options.games);
        check(&mut machine, index, &mut unbeatable_after);
        observe(&TrainEvent {
            game: index,
            of: options.games,
            result,
            resigned,
            moves,
            matchboxes: machine.matchbox_count(),
            beads: machine.bead_count(),
            block,
            curve: &tally.curve,
        });
    }

    let (learner_positions, learner_positions_up_to_symmetry) = match small {
        true => count_decision_positions(game, learner_seat, 2_000_000),
        false => (None, None),
    };
    Ok(TrainReport {
        game: G::NAME.into(),
        learner: game.seats()[learner_seat].into(),
        learner_seat,
        machine: machine.options().to_text(),
        machine_rules: machine.options().describe(),
        opponent: options.opponent.as_str().into(),
        opponent_words: options.opponent.words().into(),
        seed: options.seed,
        games: options.games,
        wins: tally.wins,
        losses: tally.losses,
        draws: tally.draws,
        resignations: tally.resignations,
        last_loss: tally.last_loss,
        unbeatable_after,
        unbeatable_checked: small,
        first_run_of_100_non_losses_ended_at: tally.run_of_100_ended,
        matchboxes: machine.matchbox_count(),
        beads: machine.bead_count(),
        learner_positions,
        learner_positions_up_to_symmetry,
        block,
        curve: tally.curve,
        learned: machine.learned().unwrap_or(serde_json::Value::Null),
    })
}

#[derive(Default)]
struct Tally {
    wins: u64,
    losses: u64,
    draws: u64,
    resignations: u64,
    last_loss: Option<u64>,
    run: u64,
    run_of_100_ended: Option<u64>,
    curve: Vec<CurveBlock>,
}

impl Tally {
    /// Records game `index` of `games`, in blocks of `block` games (the last block
    /// ends with the last game).
    fn record(&mut self, index: u64, result: i32, resigned: bool, block: u64, games: u64) {
        if self.curve.last().map_or(true, |b| index > b.to) {
            let from = self.curve.last().map_or(1, |b| b.to + 1);
            self.curve.push(CurveBlock {
                from,
                to: (from + block - 1).min(games.max(from)),
                wins: 0,
                losses: 0,
                draws: 0,
            });
        }
        let point = self.curve.last_mut().expect("a block was just added");
        match result {
            r if r > 0 => {
                self.wins += 1;
                point.wins += 1;
            }
            0 => {
                self.draws += 1;
                point.draws += 1;
            }
            _ => {
                self.losses += 1;
                point.losses += 1;
                self.last_loss = Some(index);
                self.resignations += u64::from(resigned);
            }
        }
        self.run = if result < 0 { 0 } else { self.run + 1 };
        if self.run == 100 && self.run_of_100_ended.is_none() {
            self.run_of_100_ended = Some(index);
        }
    }
}

/// The opponent's side of the table.
enum Trainer<G: Trainable> {
    Random(RandomPlayer),
    Perfect(PerfectPlayer<G>),
    Exploit(Box<LossSearch<G>>),
    Machine(Box<Matchbox<G>>),
}

/// Plays one game; returns the outcome, whether the machine resigned, and the moves.
fn play_game<G: Trainable>(
    game: &G,
    machine: &mut Matchbox<G>,
    learner: Seat,
    opponent: &mut Trainer<G>,
    rng: &mut Rng,
    max_plies: usize,
) -> (Outcome, bool, Vec<String>) {
    let mut state = game.initial_state();
    let mut moves = Vec::new();
    let rule = game.play_draw_rule();
    let mut seen: HashMap<G::State, u32> = HashMap::new();
    let mut quiet = 0u32;
    // The lowest progress measure so far (MatchRules::progress_measure), as
    // PlayTracker keeps it: only a new low is progress.
    let mut low = rule
        .plies_without_progress
        .and_then(|_| game.progress_measure(&state));
    machine.forget_game();
    if let Trainer::Machine(other) = opponent {
        other.forget_game();
    }
    loop {
        if moves.len() >= max_plies {
            return (Outcome::Draw, false, moves);
        }
        let mv = match game.turn(&state) {
            Turn::Over(outcome) => return (outcome, false, moves),
            Turn::Chance => {
                let mut outcomes = Vec::new();
                game.chance_outcomes(&state, &mut outcomes);
                let mut x: f64 = rng.gen();
                let pick = outcomes.iter().position(|&(_, p)| {
                    x -= p;
                    x < 0.0
                });
                match pick.or(outcomes.len().checked_sub(1)) {
                    Some(i) => outcomes[i].0,
                    None => return (Outcome::Draw, false, moves),
                }
            }
            Turn::Move(seat) if seat == learner => match machine.choose(game, &state, seat, rng) {
                Some(choice) => choice.mv,
                None => return (Outcome::Win(1 - learner), true, moves),
            },
            Turn::Move(seat) => {
                let choice = match opponent {
                    Trainer::Random(p) => p.choose(game, &state, seat, rng).map(|c| c.mv),
                    Trainer::Perfect(p) => p.choose(game, &state, seat, rng).map(|c| c.mv),
                    Trainer::Machine(m) => m.choose(game, &state, seat, rng).map(|c| c.mv),
                    Trainer::Exploit(search) => search.exploit_move(game, machine, &state, rng),
                };
                match choice {
                    Some(mv) => mv,
                    None => return (Outcome::Win(learner), false, moves),
                }
            }
        };
        moves.push(game.format_move(&state, mv));
        let mut progress = game.is_progress(&state, mv);
        game.play_unchecked(&mut state, mv);
        if let Some(lowest) = low {
            let now = game.progress_measure(&state).unwrap_or(lowest);
            progress &= now < lowest;
            low = Some(now.min(lowest));
        }
        quiet = if progress { 0 } else { quiet + 1 };
        if let Some(limit) = rule.plies_without_progress {
            if quiet >= limit {
                return (Outcome::Draw, false, moves);
            }
        }
        if let Some(limit) = rule.repetitions {
            let n = seen.entry(state.clone()).or_insert(0);
            *n += 1;
            if *n >= limit {
                return (Outcome::Draw, false, moves);
            }
        }
    }
}

/// Searches the game for a line on which the machine, playing only moves it still
/// has beads for, loses. Results are remembered until the machine's possible moves
/// change. A position met again on the current line counts as not lost (cycles).
struct LossSearch<G: Trainable> {
    learner: Seat,
    version: Option<u64>,
    memo: HashMap<G::State, bool>,
    on_line: HashSet<G::State>,
}

impl<G: Trainable> LossSearch<G> {
    fn new(learner: Seat) -> Self {
        LossSearch {
            learner,
            version: None,
            memo: HashMap::new(),
            on_line: HashSet::new(),
        }
    }

    /// Whether some line of play from `state` ends in a loss for the machine.
    fn can_lose(&mut self, game: &G, machine: &mut Matchbox<G>, state: &G::State) -> bool {
        if self.version != Some(machine.support_version()) {
            self.memo.clear();
            self.version = Some(machine.support_version());
        }
        self.visit(game, machine, state)
    }

    fn visit(&mut self, game: &G, machine: &mut Matchbox<G>, state: &G::State) -> bool {
        if let Some(&known) = self.memo.get(state) {
            return known;
        }
        if !self.on_line.insert(state.clone()) {
            return false;
        }
        let mut moves = Vec::new();
        let loses = match game.turn(state) {
            Turn::Over(outcome) => outcome.sign_for(self.learner) < 0,
            Turn::Move(seat) if seat == self.learner => {
                machine.possible_moves(state, &mut moves);
                moves.is_empty()
                    || moves
                        .iter()
                        .any(|&mv| self.visit_after(game, machine, state, mv))
            }
            Turn::Move(_) | Turn::Chance => {
                game.legal_moves(state, &mut moves);
                moves
                    .iter()
                    .any(|&mv| self.visit_after(game, machine, state, mv))
            }
        };
        self.on_line.remove(state);
        self.memo.insert(state.clone(), loses);
        loses
    }

    fn visit_after(
        &mut self,
        game: &G,
        machine: &mut Matchbox<G>,
        state: &G::State,
        mv: G::Move,
    ) -> bool {
        let mut next = state.clone();
        game.play_unchecked(&mut next, mv);
        self.visit(game, machine, &next)
    }

    /// The exploit trainer's move: one that wins at once, else a random one among
    /// those that keep a losing line open for the machine, else any random move.
    fn exploit_move(
        &mut self,
        game: &G,
        machine: &mut Matchbox<G>,
        state: &G::State,
        rng: &mut Rng,
    ) -> Option<G::Move> {
        let mut moves = Vec::new();
        game.legal_moves(state, &mut moves);
        let after = |mv: G::Move| {
            let mut next = state.clone();
            game.play_unchecked(&mut next, mv);
            next
        };
        let wins_now: Vec<G::Move> = moves
            .iter()
            .copied()
            .filter(|&mv| matches!(game.turn(&after(mv)), Turn::Over(o) if o.sign_for(self.learner) < 0))
            .collect();
        let pool = if !wins_now.is_empty() {
            wins_now
        } else {
            let losing_lines: Vec<G::Move> = moves
                .iter()
                .copied()
                .filter(|&mv| self.can_lose(game, machine, &after(mv)))
                .collect();
            if losing_lines.is_empty() {
                moves
            } else {
                losing_lines
            }
        };
        (!pool.is_empty()).then(|| pool[rng.gen_range(0..pool.len())])
    }
}

/// Positions reachable from the start with `seat` to move: in all, and once per
/// symmetry class (by the smallest text among the images). `None` past `limit`.
fn count_decision_positions<G: Trainable>(
    game: &G,
    seat: Seat,
    limit: usize,
) -> (Option<usize>, Option<usize>) {
    let start = game.initial_state();
    let mut seen = HashSet::from([start.clone()]);
    let mut stack = vec![start];
    let mut classes = HashSet::new();
    let mut count = 0;
    let mut moves = Vec::new();
    while let Some(state) = stack.pop() {
        if seen.len() > limit {
            return (None, None);
        }
        if game.turn(&state) == Turn::Move(seat) {
            count += 1;
            let class = (0..game.symmetry_count())
                .map(|k| game.format_position(&game.map_state(&state, k)))
                .min()
                .unwrap_or_default();
            classes.insert(class);
        }
        moves.clear();
        game.legal_moves(&state, &mut moves);
        for &mv in &moves {
            let mut next = state.clone();
            game.play_unchecked(&mut next, mv);
            if seen.insert(next.clone()) {
                stack.push(next);
            }
        }
    }
    (Some(count), Some(classes.len()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::matchbox::tests::Piles;
    use serde_json::json;
    use tabula_core::Game;

    #[test]
    fn options_come_from_json_with_defaults() {
        let o = TrainOptions::from_json(
            &Piles,
            &json!({"games": 50, "seed": 4, "opponent": "exploit", "seat": "first", "player": "menace", "options": "symmetry=off"}),
        )
        .unwrap();
        assert_eq!(
            (o.games, o.seed, o.opponent, o.seat),
            (50, 4, Opponent::Exploit, 0)
        );
        assert_eq!(
            (o.machine.mode, o.machine.symmetry),
            (crate::matchbox::Mode::Menace, false)
        );
        let d = TrainOptions::from_json(&Piles, &json!({})).unwrap();
        assert_eq!((d.games, d.opponent, d.seat), (100, Opponent::Random, 1));
        for bad in [
            json!({"games": -1}),
            json!({"games": "many"}),
            json!({"opponent": "human"}),
            json!({"seat": "third"}),
            json!({"seat": 2}),
            json!({"player": "alphabeta"}),
            json!({"options": "beads=9"}),
            json!([1, 2]),
        ] {
            assert!(TrainOptions::from_json(&Piles, &bad).is_err(), "{bad}");
        }
        assert_eq!(Opponent::parse("SELF"), Ok(Opponent::SelfPlay));
        for o in [
            Opponent::Random,
            Opponent::Perfect,
            Opponent::Exploit,
            Opponent::SelfPlay,
        ] {
            assert_eq!(Opponent::parse(o.as_str()), Ok(o));
        }
    }

    #[test]
    fn tally_finds_the_first_run_of_100_and_the_last_loss() {
        let mut t = Tally::default();
        let mut results = vec![-1, 0, 1, -1];
        results.extend(std::iter::repeat_n(0, 99));
        results.push(-1);
        results.extend(std::iter::repeat_n(1, 150));
        for (i, &r) in results.iter().enumerate() {
            t.record(i as u64 + 1, r, r < 0 && i == 0, 50, results.len() as u64);
        }
        // Games 5..=103 are 99 non-losses, 104 is lost, 105..=204 complete the run.
        assert_eq!(t.run_of_100_ended, Some(204));
        assert_eq!(t.last_loss, Some(104));
        assert_eq!(
            (t.wins, t.losses, t.draws, t.resignations),
            (151, 3, 100, 1)
        );
        assert_eq!(t.curve.len(), 6);
        assert_eq!(
            (t.curve[0].from, t.curve[0].to, t.curve[0].losses),
            (1, 50, 2)
        );
        assert_eq!(
            t.curve
                .iter()
                .map(|b| b.wins + b.losses + b.draws)
                .sum::<u64>(),
            254
        );
    }

    #[test]
    fn exploit_training_ends_with_an_unbeatable_machine_where_possible() {
        // In Piles 3-2 the first player wins; a machine in that seat learns to win
        // every game, one in the other seat can never be safe.
        let solution = Solution::solve(&Piles, &Piles.initial_state(), 1000).unwrap();
        assert_eq!(solution.stats().start.value, tabula_core::Value::Win);
        for seed in 1..=5 {
            let o = TrainOptions {
                games: 60,
                seed,
                opponent: Opponent::Exploit,
                seat: 0,
                // Blocks of 7 do not divide 60: the last block is short.
                block: 7,
                ..TrainOptions::default()
            };
            let r = train(&Piles, &o).unwrap();
            let after = r
                .unbeatable_after
                .expect("the winning side becomes unbeatable");
            assert!(r.last_loss.is_none_or(|l| l <= after));
            assert_eq!(r.wins + r.losses + r.draws, 60);
            assert_eq!(r.curve.iter().map(|b| b.wins + b.losses).sum::<u64>(), 60);
            // Blocks tile the games exactly: each starts after the previous one and
            // the last ends with game 60, however the block size divides it.
            for pair in r.curve.windows(2) {
                assert_eq!(pair[1].from, pair[0].to + 1);
            }
            let last = r.curve.last().unwrap();
            assert_eq!(last.to, 60);
            assert_eq!(r.curve.iter().map(|b| b.to + 1 - b.from).sum::<u64>(), 60);
            let o = TrainOptions { seat: 1, ..o };
            let r = train(&Piles, &o).unwrap();
            assert_eq!(r.unbeatable_after, None);
            assert_eq!(r.last_loss, Some(60), "the losing side ends up resigning");
            assert!(r.resignations > 0);
        }
    }

    #[test]
    fn every_opponent_trains_and_seeds_reproduce() {
        for opponent in [
            Opponent::Random,
            Opponent::Perfect,
            Opponent::Exploit,
            Opponent::SelfPlay,
        ] {
            let o = TrainOptions {
                games: 40,
                seed: 3,
                opponent,
                seat: 0,
                ..TrainOptions::default()
            };
            let a = train(&Piles, &o).unwrap();
            let b = train(&Piles, &o).unwrap();
            assert_eq!(a.curve, b.curve, "{opponent:?}");
            assert_eq!(a.learned, b.learned);
            assert_eq!(a.opponent, opponent.as_str());
            assert!(a.matchboxes >= 1);
        }
        let mut events = 0;
        let o = TrainOptions {
            games: 10,
            ..TrainOptions::default()
        };
        train_observed(&Piles, &o, &mut |e| {
            events += 1;
            assert_eq!((e.game, e.of), (events, 10));
            assert!(!e.moves.is_empty());
        })
        .unwrap();
        assert_eq!(events, 10);
        assert!(train(
            &Piles,
            &TrainOptions {
                seat: 2,
                ..TrainOptions::default()
            }
        )
        .is_err());
    }
}
