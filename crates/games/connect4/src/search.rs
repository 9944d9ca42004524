//! The bitboard alpha-beta player (`search`) and the search behind hints on
//! boards too large for the exact solver.
//!
//! Negamax with alpha-beta pruning over the game's own bitboards, iterative
//! deepening until a deadline (its own `ms`, or the request's, whichever comes
//! first), a transposition table of fixed size reserved in the process's memory
//! ledger, and move ordering: the table's move first, then a move that wins at
//! once, then columns from the centre outwards, with drops that let the
//! opponent win at once on top of them last. Leaves are scored by the open
//! lines each side has (the more discs in a line no opponent disc blocks, the
//! more it counts). A score of a win or loss found by the search is a proof
//! (every reply was looked at to the end); other scores are estimates.

use crate::board::Position;
use crate::{ConnectFour, Move};
use rand::seq::SliceRandom;
use std::time::{Duration, Instant};
use tabula_ai::search_options::SearchOptions;
use tabula_core::{Budget, CancelFlag, Choice, Game, Outcome, Rng, Seat, Strategy, Turn};

/// A win `n` plies from the root scores `WIN - n`.
pub const WIN: i32 = 1_000_000;
/// Scores beyond this (in size) are wins or losses found by the search.
const PROVEN: i32 = WIN - 10_000;
/// What a heuristic leaf is worth at most (in size): far below [`PROVEN`].
const EVAL_SCALE: f64 = 1000.0;

/// How long the player thinks when not told: a second a move.
pub const DEFAULT_MS: u64 = 1_000;
/// The deepest a Pop Out search goes (it has no end of board to reach).
const POPOUT_DEPTH: u32 = 40;

/// Entries of the transposition table: 2^20 of 24 bytes, 24 MiB, reserved in
/// the process's ledger while a search runs (refused room: a table of 1/16th).
const TABLE_ENTRIES: usize = 1 << 20;

/// How a search is limited.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchLimits {
    /// Deepest iteration in plies (`None`: to the end of the board).
    pub depth: Option<u32>,
    /// Think at most this long.
    pub time: Duration,
}

impl Default for SearchLimits {
    fn default() -> Self {
        SearchLimits {
            depth: None,
            time: Duration::from_millis(DEFAULT_MS),
        }
    }
}

impl SearchLimits {
    /// Reads `ms=M,depth=N` (either may be omitted: the default's then) with
    /// the reader every search player shares.
    pub fn parse(options: &str) -> Result<SearchLimits, String> {
        let read = SearchOptions::parse(options).map_err(|e| e.to_string())?;
        Ok(SearchLimits {
            depth: read.depth,
            time: read.time.unwrap_or(Duration::from_millis(DEFAULT_MS)),
        })
    }
}

#[derive(Clone, Copy, Default)]
struct Entry {
    position: Position,
    /// Score from the side to move's view, wins and losses counted from here.
    score: i32,
    depth: u8,
    bound: u8,
    /// The best move ([`encode_move`]; 0: none).
    best: u8,
}

const EXACT: u8 = 1;
const LOWER: u8 = 2;
const UPPER: u8 = 3;

/// What a search found for one root move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveScore {
    /// The move.
    pub mv: Move,
    /// Its score from the mover's view: `WIN - n` a win proven `n` plies from
    /// the position searched, `-(WIN - n)` a loss, else an estimate in
    /// -1000..1000 (0 also a draw).
    pub score: i32,
}

impl MoveScore {
    /// The plies from the position searched to the end, when the search proved
    /// a win or a loss.
    pub fn proven_plies(&self) -> Option<u32> {
        (self.score.abs() >= PROVEN).then(|| (WIN - self.score.abs()) as u32)
    }
}

/// The result of a search of a position.
#[derive(Clone, Debug)]
pub struct SearchResult {
    /// Every legal move with its score, best first (only the best is exact when
    /// `all_moves` was false).
    pub moves: Vec<MoveScore>,
    /// The deepest iteration finished (plies).
    pub depth: u32,
    /// Positions visited.
    pub nodes: u64,
    /// Whether the last iteration reached every end (the scores are exact).
    pub complete: bool,
}

/// One search: its table, limits and counters.
pub struct Searcher<'g> {
    game: &'g ConnectFour,
    table: Vec<Entry>,
    nodes: u64,
    deadline: Option<Instant>,
    stop: Option<CancelFlag>,
    aborted: bool,
    /// Positions on the current path (Pop Out repeats them).
    path: Vec<Position>,
    /// Whether a leaf was scored by the heuristic in this iteration.
    cut_short: bool,
    /// Move lists for the plies of the current path, reused.
    buffers: Vec<Vec<Move>>,
    _charged: Option<Budget>,
}

impl<'g> Searcher<'g> {
    /// A searcher for `game` stopping at `deadline` or when `stop` is cancelled,
    /// its table reserved in the ledger of the budget this thread runs under
    /// ([`Budget::current_ledger`]).
    pub fn new(game: &'g ConnectFour, deadline: Option<Instant>, stop: Option<CancelFlag>) -> Self {
        let charged = Budget::unlimited().charged_to(Budget::current_ledger());
        let entry = std::mem::size_of::<Entry>() as u64;
        let entries = [TABLE_ENTRIES, TABLE_ENTRIES / 16]
            .into_iter()
            .find(|&n| charged.uses("a search's table", n as u64 * entry).is_ok())
            .unwrap_or(0);
        Searcher {
            game,
            table: vec![Entry::default(); entries],
            nodes: 0,
            deadline,
            stop,
            aborted: false,
            path: Vec::new(),
            cut_short: false,
            buffers: Vec::new(),
            _charged: Some(charged),
        }
    }

    /// Searches `state` by iterative deepening up to `max_depth` plies;
    /// `all_moves` scores every root move exactly (for hints), else only the
    /// best. `moves` gives the root moves in the order ties are broken.
    pub fn search(
        &mut self,
        state: &Position,
        mut moves: Vec<Move>,
        max_depth: u32,
        all_moves: bool,
    ) -> Option<SearchResult> {
        if moves.is_empty() {
            return None;
        }
        self.order_root(state, &mut moves);
        let mut best: Option<SearchResult> = None;
        for depth in 1..=max_depth.max(1) {
            self.cut_short = false;
            let mut scored = Vec::with_capacity(moves.len());
            let mut alpha = -WIN - 1;
            for &mv in &moves {
                let mut child = *state;
                self.game.play_unchecked(&mut child, mv);
                let window_low = if all_moves { -WIN - 1 } else { alpha };
                self.path.push(*state);
                let score = -self.negamax(&child, depth - 1, 1, -WIN - 1, -window_low);
                self.path.pop();
                if self.aborted {
                    break;
                }
                alpha = alpha.max(score);
                scored.push(MoveScore { mv, score });
            }
            if self.aborted {
                break;
            }
            // Stable: among equal scores the earlier (random, centre-first) move stays first.
            scored.sort_by_key(|m| std::cmp::Reverse(m.score));
            moves = scored.iter().map(|m| m.mv).collect();
            let complete = !self.cut_short;
            let proven_best = scored[0].score.abs() >= PROVEN;
            best = Some(SearchResult {
                moves: scored,
                depth,
                nodes: self.nodes,
                complete,
            });
            if complete || (proven_best && !all_moves) {
                break;
            }
        }
        best
    }

    /// Root moves: centre first (ties keep the given order).
    fn order_root(&self, _state: &Position, moves: &mut [Move]) {
        let width = self.game.geometry().width();
        moves.sort_by_key(|m| centre_rank(width, *m));
    }

    fn out_of_time(&mut self) -> bool {
        if self.nodes % 2048 == 0
            && (self.deadline.is_some_and(|d| Instant::now() >= d)
                || self.stop.as_ref().is_some_and(CancelFlag::is_cancelled))
        {
            self.aborted = true;
        }
        self.aborted
    }

    fn slot(&self, s: &Position) -> Option<usize> {
        if self.table.is_empty() {
            return None;
        }
        let h = (s.discs(0).wrapping_mul(0x9E37_79B9_7F4A_7C15)
            ^ s.discs(1).wrapping_mul(0xC2B2_AE3D_27D4_EB4F)
            ^ (s.to_move() as u64).wrapping_mul(0x1656_67B1_9E37_79F9))
        .rotate_left(29);
        Some((h as usize) & (self.table.len() - 1))
    }

    /// The value of `s` for its side to move, searched `depth` plies deep.
    fn negamax(&mut self, s: &Position, depth: u32, ply: u32, alpha: i32, beta: i32) -> i32 {
        self.nodes += 1;
        if self.out_of_time() {
            return 0;
        }
        let mover = match self.game.turn(s) {
            Turn::Over(Outcome::Win(w)) => {
                let end = WIN - ply as i32;
                return if w == s.to_move() { end } else { -end };
            }
            Turn::Over(_) => return 0,
            Turn::Chance => return 0,
            Turn::Move(seat) => seat,
        };
        if self.game.is_popout() && self.path.contains(s) {
            // A position met again on the path: the line can go round forever,
            // which the game graph counts as a draw.
            self.cut_short = true;
            return 0;
        }
        if depth == 0 {
            self.cut_short = true;
            return (evaluate(self.game, s, mover) * EVAL_SCALE) as i32;
        }
        let mut moves = self.buffers.pop().unwrap_or_default();
        moves.clear();
        self.game.legal_moves(s, &mut moves);
        let width = self.game.geometry().width();
        moves.sort_by_key(|m| centre_rank(width, *m));
        let score = self.search_moves(s, mover, &mut moves, depth, ply, alpha, beta);
        self.buffers.push(moves);
        score
    }

    /// The rest of [`Searcher::negamax`], over the ordered legal moves of `s`.
    #[allow(clippy::too_many_arguments)]
    fn search_moves(
        &mut self,
        s: &Position,
        mover: Seat,
        moves: &mut [Move],
        depth: u32,
        ply: u32,
        mut alpha: i32,
        beta: i32,
    ) -> i32 {
        // A drop that lines up wins at once in normal play: no need to look further.
        if !self.game.is_misere() {
            for &mv in moves.iter() {
                if let Move::Drop(_) = mv {
                    let mut child = *s;
                    self.game.play_unchecked(&mut child, mv);
                    if self.game.geometry().has_line(child.discs(mover)) {
                        return WIN - (ply as i32 + 1);
                    }
                }
            }
        }
        let alpha0 = alpha;
        let slot = self.slot(s);
        let mut first = None;
        if let Some(i) = slot {
            let e = self.table[i];
            if e.bound != 0 && e.position == *s {
                let score = from_table(e.score, ply);
                if u32::from(e.depth) >= depth {
                    // An estimate stored by a shallower search than the end
                    // of the board needs: this iteration is no proof either.
                    let to_end = self.game.search_depth(s);
                    if score.abs() < PROVEN && u32::from(e.depth) < to_end {
                        self.cut_short = true;
                    }
                    match e.bound {
                        EXACT => return score,
                        LOWER if score >= beta => return score,
                        UPPER if score <= alpha => return score,
                        _ => {}
                    }
                }
                first = decode_move(e.best);
            }
        }
        let found = first.and_then(|f| moves.iter().position(|&m| m == f));
        if let Some(f) = found {
            moves[..=f].rotate_right(1);
        }
        self.demote_gifts(s, mover, moves, found.is_some());
        let mut best_score = -WIN - 1;
        let mut best_move = 0usize;
        self.path.push(*s);
        for (i, &mv) in moves.iter().enumerate() {
            let mut child = *s;
            self.game.play_unchecked(&mut child, mv);
            let score = -self.negamax(&child, depth - 1, ply + 1, -beta, -alpha);
            if self.aborted {
                self.path.pop();
                return 0;
            }
            if score > best_score {
                best_score = score;
                best_move = i;
            }
            alpha = alpha.max(score);
            if alpha >= beta {
                break;
            }
        }
        self.path.pop();
        if let Some(i) = slot {
            let bound = if best_score <= alpha0 {
                UPPER
            } else if best_score >= beta {
                LOWER
            } else {
                EXACT
            };
            self.table[i] = Entry {
                position: *s,
                score: to_table(best_score, ply),
                depth: depth.min(255) as u8,
                bound,
                best: encode_move(moves[best_move]),
            };
        }
        best_score
    }

    /// Moves the drops that let the opponent line up at once in the cell
    /// above to the end of the list (normal play only; the table's move stays first).
    fn demote_gifts(&self, s: &Position, mover: Seat, moves: &mut [Move], keep_first: bool) {
        if self.game.is_misere() {
            return;
        }
        let g = self.game.geometry();
        let theirs = s.discs(1 - mover);
        let start = usize::from(keep_first);
        let gift = |mv: &Move| -> bool {
            let Move::Drop(c) = *mv else { return false };
            let row = g.column_height(s.occupied(), c);
            row + 1 < g.height() && g.has_line(theirs | g.bit(c, row + 1))
        };
        if moves.len() > start {
            moves[start..].sort_by_key(gift);
        }
    }
}

/// What a position looks like for `seat`, about -1..1, by lines not yet
/// blocked (misère: the sign is reversed):
///
/// * a line without the other side's discs, short of two or three discs,
///   counts 3 or 1;
/// * an empty cell that would complete a line (a threat) counts 8, and 8 more
///   on a row that suits its owner: the first player's threats on the odd rows
///   counted from 1 at the bottom, the second player's on the even rows (as the
///   side that must move into a cell is the one that fills it, in Allis's
///   account of zugzwang);
/// * a disc in the middle column counts 1.
pub fn evaluate(game: &ConnectFour, s: &Position, seat: Seat) -> f64 {
    let g = game.geometry();
    let (mine, theirs) = (s.discs(seat), s.discs(1 - seat));
    let empty = g.all_cells() & !s.occupied();
    let connect = u32::from(g.connect());
    let weight = |n: u32| -> i32 {
        match connect - n {
            2 => 3,
            3 => 1,
            _ => 0,
        }
    };
    let mut score = 0i32;
    let mut threats = [0u64; 2];
    for &line in lines_of(g) {
        let (m, t) = ((line & mine).count_ones(), (line & theirs).count_ones());
        if t == 0 && m > 0 {
            if m + 1 == connect {
                threats[0] |= line & empty;
            } else {
                score += weight(m);
            }
        } else if m == 0 && t > 0 {
            if t + 1 == connect {
                threats[1] |= line & empty;
            } else {
                score -= weight(t);
            }
        }
    }
    let odd_rows = (0..g.height())
        .step_by(2)
        .fold(0u64, |acc, r| acc | (g.bottom_row() << r));
    let suits = |owner: Seat| if owner == 0 { odd_rows } else { !odd_rows };
    let count = |cells: u64| cells.count_ones() as i32;
    score += 8 * count(threats[0]) + 8 * count(threats[0] & suits(seat));
    score -= 8 * count(threats[1]) + 8 * count(threats[1] & suits(1 - seat));
    if g.width() % 2 == 1 {
        let middle = g.column_mask(g.width() / 2);
        score += count(mine & middle) - count(theirs & middle);
    }
    let sign = if game.is_misere() { -1.0 } else { 1.0 };
    (sign * f64::from(score) / 100.0).clamp(-0.95, 0.95)
}

/// Every line of a board, computed once per board and line length.
fn lines_of(g: crate::board::Geometry) -> &'static [u64] {
    use std::sync::OnceLock;
    static LINES: OnceLock<Vec<Vec<u64>>> = OnceLock::new();
    let all = LINES.get_or_init(|| {
        let mut all = Vec::new();
        for w in crate::board::MIN_WIDTH..=crate::board::MAX_WIDTH {
            for h in crate::board::MIN_HEIGHT..=crate::board::MAX_HEIGHT {
                for k in 3..=4 {
                    all.push(
                        crate::board::Geometry::new(w, h, k)
                            .map(|g| g.all_lines())
                            .unwrap_or_default(),
                    );
                }
            }
        }
        all
    });
    let heights = usize::from(crate::board::MAX_HEIGHT - crate::board::MIN_HEIGHT + 1);
    let index = (usize::from(g.width() - crate::board::MIN_WIDTH) * heights
        + usize::from(g.height() - crate::board::MIN_HEIGHT))
        * 2
        + usize::from(g.connect() - 3);
    all.get(index).map_or(&[], Vec::as_slice)
}

/// Wins and losses are stored counted from the position, not from the root.
fn to_table(score: i32, ply: u32) -> i32 {
    if score >= PROVEN {
        score + ply as i32
    } else if score <= -PROVEN {
        score - ply as i32
    } else {
        score
    }
}

fn from_table(score: i32, ply: u32) -> i32 {
    if score >= PROVEN {
        score - ply as i32
    } else if score <= -PROVEN {
        score + ply as i32
    } else {
        score
    }
}

/// A move in a byte for the table: a drop `1 + column`, a pop `16 + column`.
fn encode_move(mv: Move) -> u8 {
    match mv {
        Move::Drop(c) => 1 + c,
        Move::Pop(c) => 16 + c,
    }
}

fn decode_move(code: u8) -> Option<Move> {
    match code {
        1..=15 => Some(Move::Drop(code - 1)),
        16.. => Some(Move::Pop(code - 16)),
        0 => None,
    }
}

/// How far from the centre a move's column is (drops before pops).
fn centre_rank(width: u8, mv: Move) -> u8 {
    let c = mv.column();
    let distance = (2 * i16::from(c) - (i16::from(width) - 1)).unsigned_abs() as u8;
    match mv {
        Move::Drop(_) => distance,
        Move::Pop(_) => distance + 2 * width,
    }
}

impl ConnectFour {
    /// The most plies a search from `s` may need: to the full board, or the
    /// Pop Out limit.
    pub fn search_depth(&self, s: &Position) -> u32 {
        if self.is_popout() {
            POPOUT_DEPTH
        } else {
            self.geometry().cells() - s.disc_count()
        }
    }

    /// Searches `state` under `limits` (and the thread's budget), every root
    /// move scored exactly when `all_moves`; `None` when there is no move.
    pub fn search_position(
        &self,
        state: &Position,
        limits: SearchLimits,
        all_moves: bool,
        rng: Option<&mut Rng>,
    ) -> Option<SearchResult> {
        let mut moves = Vec::new();
        self.legal_moves(state, &mut moves);
        if let Some(rng) = rng {
            moves.shuffle(rng);
        }
        let (deadline, stop) = Budget::current_limits(Some(Instant::now() + limits.time));
        let depth = limits
            .depth
            .unwrap_or(u32::MAX)
            .min(self.search_depth(state));
        Searcher::new(self, deadline, stop).search(state, moves, depth, all_moves)
    }
}

/// The `search` player: the bitboard alpha-beta search above.
pub struct SearchPlayer {
    limits: SearchLimits,
}

impl SearchPlayer {
    /// A player searching within `limits`.
    pub fn new(limits: SearchLimits) -> Self {
        SearchPlayer { limits }
    }
}

/// A count of plies in words: "1 ply", "7 plies" (not "1 plies").
fn plies(n: u32) -> String {
    if n == 1 {
        "1 ply".into()
    } else {
        format!("{n} plies")
    }
}

impl Strategy<ConnectFour> for SearchPlayer {
    fn choose(
        &mut self,
        game: &ConnectFour,
        state: &Position,
        _seat: Seat,
        rng: &mut Rng,
    ) -> Option<Choice<Move>> {
        let result = game.search_position(state, self.limits, false, Some(rng))?;
        let best = result.moves[0];
        let reason = match best.proven_plies() {
            Some(n) if best.score > 0 => format!("a forced win in {}", plies(n)),
            Some(n) => format!("loses in {} at best", plies(n)),
            None if result.complete => "a draw with best play".to_string(),
            None => format!("searched {} ahead", plies(result.depth)),
        };
        Some(Choice::because(best.mv, reason))
    }
}
