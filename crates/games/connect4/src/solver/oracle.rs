//! The exact oracle of the classic game on boards too large for the generic
//! retrograde solver: the opening book where it reaches, else a search,
//! within the deadline of whoever asks (a server request, a move) and at most
//! [`GRADE_SECONDS`] in any case. A search that does not finish in time grades
//! nothing: the position is left ungraded, never guessed.

use super::board::SolverBoard;
use super::book::Book;
use super::negamax::{remoteness, Limits, Solved, Solver};
use super::table::{ENTRY_BYTES, FULL_ENTRIES, SMALL_ENTRIES};
use crate::board::Position;
use crate::ConnectFour;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tabula_core::{Budget, Game, Graded, Oracle, Outcome, Turn, Value, ValueBounds};

/// How long one position may be searched at most (sooner when the asker's
/// deadline comes first): an analysis grades the position and each move, so
/// that a hint beyond the book's reach is answered within seconds.
pub const GRADE_SECONDS: u64 = 1;

/// The book's plies from which the perfect player answers every move of a
/// game quickly (past them the search finishes within its second): only
/// then is it the base of the AI level.
pub const BOOK_PLIES_FOR_PLAY: u32 = 8;

/// Solvers kept between questions (each with its full table).
const POOL: usize = 2;

/// Exact scores remembered between questions (about 16 bytes each).
const MEMO_ENTRIES: usize = 1 << 20;

/// A solver and the ledger reservation of its table.
struct Pooled {
    solver: Solver,
    _charged: Budget,
}

/// The oracle: the game, its book, a pool of solvers and the scores found.
pub struct SolverOracle {
    game: ConnectFour,
    book: Option<Arc<Book>>,
    pool: Mutex<Vec<Pooled>>,
    memo: Mutex<HashMap<u64, i8>>,
    /// What searches that ran out of time proved (score bounds), so that a
    /// move left ungraded is listed with them without searching again.
    proven: Mutex<HashMap<u64, (i8, i8)>>,
}

impl SolverOracle {
    /// The oracle of `game` (which the solver must cover), with `book` where
    /// the board has one.
    pub fn new(game: ConnectFour, book: Option<Arc<Book>>) -> SolverOracle {
        SolverOracle {
            game,
            book: book.filter(|b| b.geometry() == game.geometry()),
            pool: Mutex::new(Vec::new()),
            memo: Mutex::new(HashMap::new()),
            proven: Mutex::new(HashMap::new()),
        }
    }

    /// The least memory it needs: one full table and the book.
    pub fn least_bytes(book: Option<&Book>) -> u64 {
        FULL_ENTRIES as u64 * ENTRY_BYTES + book.map_or(0, |b| b.len() as u64 * 16)
    }

    /// A solver from the pool, or a new one with the largest table the ledger
    /// has room for.
    fn take(&self) -> Pooled {
        if let Some(p) = self.pool.lock().ok().and_then(|mut v| v.pop()) {
            return p;
        }
        let charged = Budget::unlimited().charged_to(Budget::current_ledger());
        let entries = [FULL_ENTRIES, SMALL_ENTRIES]
            .into_iter()
            .find(|&n| {
                charged
                    .uses("the Connect Four solver's table", n as u64 * ENTRY_BYTES)
                    .is_ok()
            })
            .unwrap_or(SMALL_ENTRIES);
        Pooled {
            solver: Solver::new(self.game.shape(), entries, self.book.clone()),
            _charged: charged,
        }
    }

    fn give_back(&self, p: Pooled) {
        if let Ok(mut v) = self.pool.lock() {
            if v.len() < POOL {
                v.push(p);
            }
        }
    }

    /// The exact score of `b` if it is known without a search.
    fn known(&self, b: &SolverBoard) -> Option<i32> {
        let shape = self.game.shape();
        if b.can_win_now(&shape) {
            return Some(b.win_now_score(&shape));
        }
        if b.discs >= shape.cell_count {
            return Some(0);
        }
        let key = b.canonical_key(&shape);
        if let Some(book) = &self.book {
            if book.covers(b) {
                if let Some(s) = book.score(key) {
                    return Some(s);
                }
            }
        }
        self.memo
            .lock()
            .ok()
            .and_then(|m| m.get(&key).map(|&s| i32::from(s)))
    }

    /// The score of `b`: known, or searched within the asker's deadline.
    pub fn score(&self, b: &SolverBoard) -> Solved {
        if let Some(s) = self.known(b) {
            return Solved::Exact(s);
        }
        let own = Instant::now() + Duration::from_secs(GRADE_SECONDS);
        let (deadline, cancel) = Budget::current_limits(Some(own));
        let mut pooled = self.take();
        let solved = pooled.solver.solve(b, Limits { deadline, cancel });
        self.give_back(pooled);
        let key = b.canonical_key(&self.game.shape());
        match solved {
            Solved::Exact(s) => remember(&self.memo, key, s as i8),
            Solved::Bounds { low, high } => remember(&self.proven, key, (low as i8, high as i8)),
        }
        solved
    }
}

/// Keeps `value` under `key`, forgetting everything when the memo is full.
fn remember<V>(memo: &Mutex<HashMap<u64, V>>, key: u64, value: V) {
    if let Ok(mut m) = memo.lock() {
        if m.len() >= MEMO_ENTRIES {
            m.clear();
        }
        m.insert(key, value);
    }
}

/// The value a score gives the side to move: a win above 0, a loss below.
fn value_of_score(score: i8) -> Value {
    match score.signum() {
        1 => Value::Win,
        -1 => Value::Loss,
        _ => Value::Draw,
    }
}

impl Oracle<ConnectFour> for SolverOracle {
    fn grade(&self, game: &ConnectFour, state: &Position) -> Option<Graded> {
        match game.turn(state) {
            // The side to move at a won position is the loser.
            Turn::Over(Outcome::Win(_)) => Some(Graded {
                value: Value::Loss,
                remoteness: 0,
            }),
            Turn::Over(_) => Some(Graded {
                value: Value::Draw,
                remoteness: 0,
            }),
            Turn::Chance => None,
            Turn::Move(_) => {
                let b = SolverBoard::from_position(state);
                match self.score(&b) {
                    Solved::Exact(s) => Some(remoteness(s, b.discs, game.geometry().cells())),
                    Solved::Bounds { .. } => None,
                }
            }
        }
    }

    fn answers_at_once(&self, game: &ConnectFour, state: &Position) -> bool {
        match game.turn(state) {
            Turn::Move(_) => {
                let mut moves = Vec::new();
                game.legal_moves(state, &mut moves);
                moves.into_iter().all(|mv| {
                    let mut child = *state;
                    game.play_unchecked(&mut child, mv);
                    !matches!(game.turn(&child), Turn::Move(_))
                        || self.known(&SolverBoard::from_position(&child)).is_some()
                })
            }
            _ => true,
        }
    }

    fn bounds(&self, game: &ConnectFour, state: &Position) -> Option<ValueBounds> {
        if !matches!(game.turn(state), Turn::Move(_)) {
            return None;
        }
        let key = SolverBoard::from_position(state).canonical_key(&game.shape());
        let (low, high) = *self.proven.lock().ok()?.get(&key)?;
        Some(ValueBounds {
            low: value_of_score(low),
            high: value_of_score(high),
        })
    }

    fn memory_bytes(&self) -> u64 {
        let tables: u64 = self
            .pool
            .lock()
            .map(|v| v.iter().map(|p| p.solver.table_bytes()).sum())
            .unwrap_or(0);
        let memo = self.memo.lock().map(|m| m.len() as u64 * 16).unwrap_or(0)
            + self.proven.lock().map(|m| m.len() as u64 * 16).unwrap_or(0);
        tables + memo + self.book.as_ref().map_or(0, |b| b.len() as u64 * 16)
    }
}

/// The opening book of the classic board shipped with the crate
/// (`data/7x6.book`), read the first time it is needed; `None` if the file
/// is not a book of that board.
pub fn classic_book() -> Option<Arc<Book>> {
    static BOOK: std::sync::OnceLock<Option<Arc<Book>>> = std::sync::OnceLock::new();
    BOOK.get_or_init(|| {
        Book::read(include_bytes!("../../data/7x6.book"))
            .ok()
            .filter(|b| b.geometry() == ConnectFour::classic().geometry())
            .map(Arc::new)
    })
    .clone()
}
