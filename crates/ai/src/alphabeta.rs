//! Depth- or time-limited alpha-beta search with iterative deepening and a
//! transposition table, for two-player deterministic games of any size.

use crate::search_options::SearchOptions;
use rand::seq::SliceRandom;
use rustc_hash::FxHashMap;
use std::time::{Duration, Instant};
use tabula_core::{Budget, Choice, Game, Ledger, Outcome, Players, Rng, Seat, Strategy, Turn};

const WIN: i32 = 1_000_000;

/// Limits of one search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchLimits {
    /// Deepest iteration (plies).
    pub depth: u32,
    /// Stop starting new work after this long (the last finished iteration decides).
    pub time: Option<Duration>,
}

pub use crate::search_options::MAX_MS;

/// Most positions the transposition table keeps; beyond it (or beyond
/// [`MAX_TABLE_BYTES`]) the search goes on without storing more.
pub const MAX_TABLE: usize = 1 << 20;

/// Most bytes one search's transposition table may take. The table is reserved
/// in its budget's [`Ledger`] as it grows (refused room: the search stores no
/// more) and freed when the search ends, so that a session whose computer has
/// played keeps nothing of its search.
pub const MAX_TABLE_BYTES: u64 = 48 << 20;

impl Default for SearchLimits {
    fn default() -> Self {
        SearchLimits {
            depth: 8,
            time: Some(Duration::from_millis(500)),
        }
    }
}

impl SearchLimits {
    /// Reads `depth=N,ms=M` (either may be omitted: the default's then) with
    /// the reader every search player shares.
    pub fn parse(options: &str) -> Result<SearchLimits, String> {
        let read = SearchOptions::parse(options).map_err(|e| e.to_string())?;
        let default = SearchLimits::default();
        Ok(SearchLimits {
            depth: read.depth.unwrap_or(default.depth),
            time: read.time.or(default.time),
        })
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
    /// What the table may hold in this search ([`MAX_TABLE`], [`MAX_TABLE_BYTES`]).
    table_limit: usize,
    /// The table's reservation in `ledger`, while a search runs.
    charged: Option<Budget>,
    /// Where the table is reserved: this ledger when one was given
    /// ([`AlphaBeta::with_ledger`]), else the one of the budget the search
    /// runs under ([`Budget::current_ledger`]).
    ledger: Option<&'static Ledger>,
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
            table_limit: 0,
            charged: None,
            ledger: None,
        }
    }

    /// The same searcher reserving its table in `ledger` (tests).
    pub fn with_ledger(mut self, ledger: &'static Ledger) -> Self {
        self.ledger = Some(ledger);
        self
    }

    /// Bytes of one bucket of the table: a position, its entry, a control byte.
    fn slot_bytes() -> u64 {
        (std::mem::size_of::<(G::State, Entry)>() + 1) as u64
    }

    /// Bytes the table takes to hold `capacity` positions: its buckets are a
    /// power of two, at most 7 of 8 of them full.
    fn table_bytes(capacity: usize) -> u64 {
        let buckets = (capacity as u64)
            .saturating_mul(8)
            .div_ceil(7)
            .next_power_of_two();
        buckets.saturating_mul(Self::slot_bytes())
    }

    /// The most positions a table within [`MAX_TABLE_BYTES`] and [`MAX_TABLE`] holds.
    fn most_positions() -> usize {
        let buckets = (MAX_TABLE_BYTES / Self::slot_bytes()).max(8);
        // The largest power of two that fits, 7 of 8 buckets usable.
        let buckets = 1u64 << (63 - buckets.leading_zeros());
        MAX_TABLE.min((buckets / 8 * 7) as usize)
    }

    /// Whether one more position may be stored: within the limits, and the
    /// ledger has room when the table is about to grow.
    fn may_store(&mut self) -> bool {
        let len = self.table.len();
        if len >= self.table_limit {
            return false;
        }
        // An insert into a table one short of full may already reallocate it.
        if len + 1 < self.table.capacity() {
            return true;
        }
        // The next inserts reallocate it to about twice the capacity.
        let next = (len.max(3) * 2).min(self.table_limit);
        let room = match &self.charged {
            Some(budget) => budget
                .uses("a search's table", Self::table_bytes(next))
                .is_ok(),
            None => true,
        };
        if room {
            self.table.reserve(next - len);
        } else {
            // No room now: keep to what is held.
            self.table_limit = len;
        }
        room
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
        self.table_limit = Self::most_positions();
        let ledger = self.ledger.unwrap_or_else(Budget::current_ledger);
        self.charged = Some(Budget::unlimited().charged_to(ledger));
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
        // Nothing of the search is kept between moves: the table is freed and its
        // reservation given back.
        self.table = FxHashMap::default();
        self.charged = None;
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
        if !self.table.contains_key(state) && !self.may_store() {
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
        // In a player's words (the log shows it beside the move): what the search
        // saw, never its raw score.
        let why = if score >= WIN - 1000 {
            format!("a forced win in {}", plies(WIN - score))
        } else if score <= -WIN + 1000 {
            format!("loses in {} at best", plies(score + WIN))
        } else {
            format!("searched {} ahead: no forced result", plies(depth as i32))
        };
        Some(Choice::because(mv, why))
    }
}

/// `n` plies in words ("1 ply", "7 plies").
fn plies(n: i32) -> String {
    if n == 1 {
        "1 ply".to_string()
    } else {
        format!("{n} plies")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Three counters, each move adds 1, 2 or 3 to one of them; whoever brings
    /// their sum to 60 or more loses. Thousands of positions, no quick end.
    #[derive(Clone, Debug)]
    struct Counters;

    impl Game for Counters {
        type State = ([u8; 3], u8);
        type Move = (u8, u8);
        const NAME: &'static str = "counters";
        fn seats(&self) -> &'static [&'static str] {
            &["A", "B"]
        }
        fn initial_state(&self) -> Self::State {
            ([0; 3], 0)
        }
        fn turn(&self, s: &Self::State) -> Turn {
            if s.0.iter().map(|&c| c as u32).sum::<u32>() >= 60 {
                // The one who just moved loses.
                Turn::Over(Outcome::Win(s.1 as usize))
            } else {
                Turn::Move(s.1 as usize)
            }
        }
        fn legal_moves(&self, _s: &Self::State, out: &mut Vec<Self::Move>) {
            for which in 0..3 {
                for add in 1..=3 {
                    out.push((which, add));
                }
            }
        }
        fn play_unchecked(&self, s: &mut Self::State, (which, add): Self::Move) {
            s.0[which as usize] += add;
            s.1 = 1 - s.1;
        }
    }

    impl Players for Counters {}

    fn searcher(ledger: &'static Ledger) -> AlphaBeta<Counters> {
        AlphaBeta::new(SearchLimits {
            depth: 12,
            time: None,
        })
        .with_ledger(ledger)
    }

    fn ledger(limit: u64) -> &'static Ledger {
        let ledger: &'static Ledger = Box::leak(Box::new(Ledger::new()));
        ledger.set_limit(Some(limit));
        ledger
    }

    #[test]
    fn nothing_of_a_search_is_kept_after_it() {
        let ledger = ledger(1 << 30);
        let mut ab = searcher(ledger);
        let found = ab
            .search(
                &Counters,
                &Counters.initial_state(),
                &mut tabula_core::rng_from_seed(3),
            )
            .expect("a move");
        assert!(ab.nodes > 10_000, "a real search: {} nodes", ab.nodes);
        assert!(found.2 == 12, "every iteration finished: depth {}", found.2);
        assert_eq!(ab.table.capacity(), 0, "the table was freed");
        assert_eq!(ledger.in_use(), 0, "its reservation was given back");
    }

    #[test]
    fn the_table_grows_only_within_the_room_of_the_ledger() {
        // With room, one depth-10 pass stores thousands of positions...
        let roomy = ledger(1 << 30);
        let mut ab = searcher(roomy);
        let start = Counters.initial_state();
        ab.table_limit = AlphaBeta::<Counters>::most_positions();
        ab.charged = Some(Budget::unlimited().charged_to(roomy));
        ab.value(&Counters, &start, 0, 10, 1, -WIN - 1, WIN + 1);
        assert!(ab.table.len() > 500, "{} positions", ab.table.len());
        assert!(
            roomy.in_use() >= AlphaBeta::<Counters>::table_bytes(ab.table.len()),
            "{} bytes reserved for {} positions ({} capacity)",
            roomy.in_use(),
            ab.table.len(),
            ab.table.capacity()
        );

        // ...and within 4 KiB, only what fits; the search still ends.
        let tight = ledger(4 << 10);
        let mut ab = searcher(tight);
        ab.table_limit = AlphaBeta::<Counters>::most_positions();
        ab.charged = Some(Budget::unlimited().charged_to(tight));
        ab.value(&Counters, &start, 0, 10, 1, -WIN - 1, WIN + 1);
        assert!(!ab.table.is_empty());
        assert!(
            AlphaBeta::<Counters>::table_bytes(ab.table.capacity()) <= 4 << 10,
            "{} positions held in a 4 KiB ledger",
            ab.table.capacity()
        );
        assert!(tight.in_use() <= 4 << 10);
        drop(ab);

        // A whole search in the tight ledger finds as good a move as with room.
        let mut rng = tabula_core::rng_from_seed(5);
        let with_room = searcher(roomy).search(&Counters, &start, &mut rng.clone());
        let without = searcher(tight).search(&Counters, &start, &mut rng);
        assert_eq!(with_room.map(|m| m.1), without.map(|m| m.1));
        assert_eq!(tight.in_use(), 0);
    }

    /// Counts how often a ledger adds up what it holds: each time a search's
    /// table asks it for room.
    struct Asked(std::sync::atomic::AtomicUsize);

    impl tabula_core::Meter for Asked {
        fn bytes(&self) -> u64 {
            self.0.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            0
        }
        fn shrink_to(&self, _target: u64) {}
    }

    #[test]
    fn a_search_without_a_ledger_of_its_own_reserves_in_its_budgets() {
        let own = ledger(1 << 30);
        let asked = std::sync::Arc::new(Asked(Default::default()));
        own.add_meter(asked.clone());
        let mut ab = AlphaBeta::<Counters>::new(SearchLimits {
            depth: 8,
            time: None,
        });
        let start = Counters.initial_state();
        Budget::unlimited()
            .in_ledger(own)
            .run(|| ab.search(&Counters, &start, &mut tabula_core::rng_from_seed(3)))
            .expect("a move");
        assert!(
            asked.0.load(std::sync::atomic::Ordering::Relaxed) > 0,
            "the table grew in the budget's ledger"
        );
        assert_eq!(own.in_use(), 0, "and gave its room back");
    }

    /// The reason shown beside the move says how far the search looked, in plies,
    /// and never the evaluation's raw score.
    #[test]
    fn the_reason_is_in_words_without_the_raw_score() {
        let ledger = ledger(1 << 30);
        let mut ab = searcher(ledger);
        let start = Counters.initial_state();
        let (_, score, depth) = ab
            .search(&Counters, &start, &mut tabula_core::rng_from_seed(3))
            .expect("a move");
        assert!(score.abs() < WIN - 1000, "no forced result at the start");
        let choice = searcher(ledger)
            .choose(&Counters, &start, 0, &mut tabula_core::rng_from_seed(3))
            .expect("a move");
        let reason = choice.reason.expect("a reason");
        assert_eq!(
            reason,
            format!("searched {depth} plies ahead: no forced result")
        );
        assert!(!reason.contains(&score.to_string()), "{reason}");
    }

    #[test]
    fn one_table_stays_within_its_bytes() {
        let most = AlphaBeta::<Counters>::most_positions();
        assert!(most > 100_000, "{most}");
        assert!(AlphaBeta::<Counters>::table_bytes(most) <= MAX_TABLE_BYTES);
        assert!(
            most == MAX_TABLE || AlphaBeta::<Counters>::table_bytes(most + 1) > MAX_TABLE_BYTES
        );
    }
}
