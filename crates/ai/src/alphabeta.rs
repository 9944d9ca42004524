//! Depth- or time-limited alpha-beta search with iterative deepening and a
//! transposition table, for two-player deterministic games of any size.

use rand::seq::SliceRandom;
use rustc_hash::FxHashMap;
use std::time::{Duration, Instant};
use tabula_core::{Choice, Game, Outcome, Players, Rng, Seat, Strategy, Turn};

const WIN: i32 = 1_000_000;

/// Limits of one search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchLimits {
    /// Deepest iteration (plies).
    pub depth: u32,
    /// Stop starting new work after this long (the last finished iteration decides).
    pub time: Option<Duration>,
}

/// The longest a search may be asked to think about one move, in milliseconds.
pub const MAX_MS: u64 = 10_000;

/// Most positions the transposition table keeps (about 100 MB for small positions);
/// beyond it the search goes on without storing more.
pub const MAX_TABLE: usize = 1 << 20;

impl Default for SearchLimits {
    fn default() -> Self {
        SearchLimits {
            depth: 8,
            time: Some(Duration::from_millis(500)),
        }
    }
}

impl SearchLimits {
    /// Reads `depth=N,ms=M` (either may be omitted).
    pub fn parse(options: &str) -> Result<SearchLimits, String> {
        let mut limits = SearchLimits::default();
        for item in options.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            let (k, v) = item
                .split_once('=')
                .ok_or_else(|| format!("expected name=value, got '{item}'"))?;
            let n: u64 = v
                .parse()
                .map_err(|_| format!("'{v}' is not a whole number"))?;
            match k {
                "depth" if (1..=64).contains(&n) => limits.depth = n as u32,
                "ms" if (1..=MAX_MS).contains(&n) => limits.time = Some(Duration::from_millis(n)),
                "depth" => return Err("depth must be 1..=64".into()),
                "ms" => {
                    return Err(format!(
                        "ms must be 1..={MAX_MS} (at most ten seconds a move)"
                    ))
                }
                _ => return Err(format!("unknown option '{k}' (known: depth, ms)")),
            }
        }
        Ok(limits)
    }
}

#[derive(Clone, Copy)]
struct Entry {
    depth: u32,
    score: i32,
    bound: Bound,
    best: u16,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Bound {
    Exact,
    Lower,
    Upper,
}

/// The alpha-beta player. The score of a position is from the root mover's view:
/// wins are worth more the sooner they come, leaves are scored by [`Game::evaluate`].
pub struct AlphaBeta<G: Game> {
    limits: SearchLimits,
    table: FxHashMap<G::State, Entry>,
    nodes: u64,
    deadline: Option<Instant>,
    /// The cancel flag of the thread's current budget (the server's request).
    stop: Option<tabula_core::CancelFlag>,
    aborted: bool,
}

impl<G: Players> AlphaBeta<G> {
    /// A searcher with the given limits.
    pub fn new(limits: SearchLimits) -> Self {
        AlphaBeta {
            limits,
            table: FxHashMap::default(),
            nodes: 0,
            deadline: None,
            stop: None,
            aborted: false,
        }
    }

    /// Searches `state` and returns the best move with its score and reached depth.
    pub fn search(
        &mut self,
        game: &G,
        state: &G::State,
        rng: &mut Rng,
    ) -> Option<(G::Move, i32, u32)> {
        let Turn::Move(root) = game.turn(state) else {
            return None;
        };
        let mut moves = Vec::new();
        game.legal_moves(state, &mut moves);
        if moves.is_empty() {
            return None;
        }
        // Shuffle once so equal moves are chosen at random but reproducibly.
        moves.shuffle(rng);
        self.table.clear();
        self.nodes = 0;
        self.aborted = false;
        // Our own time limit, or the request's deadline when it comes first: the
        // deepest finished iteration's move is played (anytime).
        (self.deadline, self.stop) =
            tabula_core::Budget::current_limits(self.limits.time.map(|t| Instant::now() + t));
        let mut best = (moves[0], 0, 0);
        for depth in 1..=self.limits.depth {
            let mut alpha = -WIN - 1;
            let mut iteration_best = None;
            for (i, &mv) in moves.iter().enumerate() {
                let mut child = state.clone();
                game.play_unchecked(&mut child, mv);
                let score = self.value(game, &child, root, depth - 1, 1, alpha, WIN + 1);
                if self.aborted {
                    break;
                }
                if score > alpha || iteration_best.is_none() {
                    alpha = score.max(alpha);
                    iteration_best = Some((i, score));
                }
            }
            if self.aborted {
                break;
            }
            if let Some((i, score)) = iteration_best {
                best = (moves[i], score, depth);
                // Search the best move first next time.
                moves[..=i].rotate_right(1);
                if score.abs() >= WIN - 1000 {
                    break;
                }
            }
        }
        Some(best)
    }

    #[allow(clippy::too_many_arguments)]
    fn value(
        &mut self,
        game: &G,
        state: &G::State,
        root: Seat,
        depth: u32,
        ply: i32,
        mut alpha: i32,
        mut beta: i32,
    ) -> i32 {
        self.nodes += 1;
        if self.nodes % 4096 == 0 {
            if let Some(d) = self.deadline {
                if Instant::now() >= d {
                    self.aborted = true;
                }
            }
            if self.stop.as_ref().is_some_and(|s| s.is_cancelled()) {
                self.aborted = true;
            }
        }
        if self.aborted {
            return 0;
        }
        let seat = match game.turn(state) {
            Turn::Over(Outcome::Win(w)) => return if w == root { WIN - ply } else { -WIN + ply },
            Turn::Over(_) => return 0,
            Turn::Chance => return (game.evaluate(state, root) * 1000.0) as i32,
            Turn::Move(s) => s,
        };
        if depth == 0 {
            return (game.evaluate(state, root).clamp(-1.0, 1.0) * 1000.0) as i32;
        }
        let maximizing = seat == root;
        let (alpha0, beta0) = (alpha, beta);
        let mut first = None;
        if let Some(e) = self.table.get(state) {
            if e.depth >= depth {
                match e.bound {
                    Bound::Exact => return e.score,
                    Bound::Lower => alpha = alpha.max(e.score),
                    Bound::Upper => beta = beta.min(e.score),
                }
                if alpha >= beta {
                    return e.score;
                }
            }
            first = Some(e.best as usize);
        }
        let mut moves = Vec::new();
        game.legal_moves(state, &mut moves);
        if moves.is_empty() {
            // No move and not declared over: the side to move loses.
            return if maximizing { -WIN + ply } else { WIN - ply };
        }
        if let Some(f) = first.filter(|&f| f < moves.len()) {
            moves.swap(0, f);
        }
        let mut best_score = if maximizing { -WIN - 1 } else { WIN + 1 };
        let mut best_index = 0;
        for (i, &mv) in moves.iter().enumerate() {
            let mut child = state.clone();
            game.play_unchecked(&mut child, mv);
            let s = self.value(game, &child, root, depth - 1, ply + 1, alpha, beta);
            if self.aborted {
                return 0;
            }
            if maximizing {
                if s > best_score {
                    best_score = s;
                    best_index = i;
                }
                alpha = alpha.max(s);
            } else {
                if s < best_score {
                    best_score = s;
                    best_index = i;
                }
                beta = beta.min(s);
            }
            if alpha >= beta {
                break;
            }
        }
        // Undo the swap so the stored index names the move in generation order.
        let stored = match first.filter(|&f| f < moves.len()) {
            Some(f) if best_index == 0 => f,
            Some(f) if best_index == f => 0,
            _ => best_index,
        };
        let bound = if best_score <= alpha0 {
            Bound::Upper
        } else if best_score >= beta0 {
            Bound::Lower
        } else {
            Bound::Exact
        };
        if self.table.len() >= MAX_TABLE && !self.table.contains_key(state) {
            return best_score;
        }
        self.table.insert(
            state.clone(),
            Entry {
                depth,
                score: best_score,
                bound,
                best: stored as u16,
            },
        );
        best_score
    }
}

impl<G: Players> Strategy<G> for AlphaBeta<G> {
    fn choose(
        &mut self,
        game: &G,
        state: &G::State,
        _seat: Seat,
        rng: &mut Rng,
    ) -> Option<Choice<G::Move>> {
        let (mv, score, depth) = self.search(game, state, rng)?;
        let why = if score >= WIN - 1000 {
            format!("alpha-beta: wins in {}", WIN - score)
        } else if score <= -WIN + 1000 {
            format!("alpha-beta: loses in {}", score + WIN)
        } else {
            format!("alpha-beta depth {depth}: {score}")
        };
        Some(Choice::because(mv, why))
    }
}
