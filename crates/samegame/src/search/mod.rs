//! The search player: anytime beam search on both cores.
//!
//! Runs beams of growing width (1, 2, 4, … and a last one sized to fill the time
//! left) and keeps the best finished game. With a fixed `width` it runs that one
//! beam with no time limit, which makes the result a function of the board, the
//! width and the seed alone.

mod beam;
mod eval;

pub use eval::{EvalKind, Evaluator};

use crate::board::Board;
use crate::game::SameGame;
use crate::scoring::Scoring;
use crate::text::parse_board;
use beam::Zobrist;
use serde::Serialize;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};
use tabula_core::Report;

/// What to search with.
#[derive(Clone, Debug)]
pub struct SearchOptions {
    /// Time budget in seconds (ignored when `width` is set).
    pub seconds: f64,
    /// Seed for tie-breaking.
    pub seed: u64,
    /// Run one beam of exactly this width, without a time limit.
    pub width: Option<usize>,
    /// How many children per kept board are built before the cut (1 = as many as kept).
    pub widen: f64,
    /// The evaluation; `None` for the default of the scoring rule.
    pub eval: Option<Evaluator>,
}

impl Default for SearchOptions {
    fn default() -> Self {
        SearchOptions { seconds: 1.0, seed: 0, width: None, widen: 1.0, eval: None }
    }
}

/// Progress of a search, given to the callback whenever a beam finishes or finds a better game.
#[derive(Clone, Debug, Serialize)]
pub struct Progress {
    /// Share of the time budget used, 0..1.
    pub fraction: f64,
    /// Best final score found so far.
    pub best_score: i64,
    /// Seconds since the search began.
    pub elapsed: f64,
    /// Width of the beam running now.
    pub width: usize,
}

/// One finished (or cut-off) beam.
#[derive(Clone, Debug, Serialize)]
pub struct BeamRun {
    /// Beam width.
    pub width: usize,
    /// Best final score of this run (`None` if cut off before any game ended).
    pub score: Option<i64>,
    /// Seconds it took.
    pub seconds: f64,
    /// False when the time ran out during the run.
    pub completed: bool,
}

/// The best game found.
#[derive(Clone, Debug, Serialize)]
pub struct SearchResult {
    /// Final score (the starting board's score included).
    pub score: i64,
    /// True when the line empties the board.
    pub cleared: bool,
    /// Blocks left at the end of the line.
    pub blocks_left: usize,
    /// The clicks, each `[row, column]` of a block of the removed group on the board
    /// as it was before that click (row 0 at the top, column 0 at the left).
    pub moves: Vec<[usize; 2]>,
    /// Wall-clock seconds used.
    pub seconds: f64,
    /// Boards built.
    pub nodes: u64,
    /// Every beam run, in order.
    pub runs: Vec<BeamRun>,
}

/// Searches `board` under `scoring`; `progress` hears about every improvement.
pub fn search(board: &Board, scoring: Scoring, options: &SearchOptions, progress: &dyn Fn(&Progress)) -> SearchResult {
    let started = Instant::now();
    let eval = options.eval.clone().unwrap_or_else(|| Evaluator::new(scoring));
    let eval = Evaluator { scoring, ..eval };
    let zobrist = Zobrist::new(board.width() * board.height(), options.seed);
    let stop = AtomicBool::new(false);
    let budget = options.seconds.max(0.0);
    let deadline = options.width.is_none().then(|| started + Duration::from_secs_f64(budget.min(1e9)));
    // The empty line: the board as given (it may already be over).
    let mut best = beam::Line {
        score: board.score(),
        cleared: board.is_cleared(),
        blocks_left: board.blocks_left(),
        clicks: Vec::new(),
    };
    let mut have_game = !board.has_move();
    let mut nodes = 0;
    let mut runs = Vec::new();
    let mut width = options.width.unwrap_or(1).max(1);
    loop {
        let run_started = Instant::now();
        progress(&Progress {
            fraction: fraction(started, budget, options.width.is_some()),
            best_score: best.score,
            elapsed: started.elapsed().as_secs_f64(),
            width,
        });
        let result = beam::run(board, &eval, width, options.widen, &zobrist, deadline, &stop);
        nodes += result.nodes;
        let took = run_started.elapsed().as_secs_f64();
        runs.push(BeamRun { width, score: result.best.as_ref().map(|l| l.score), seconds: took, completed: result.completed });
        if let Some(line) = result.best {
            if !have_game || line.score > best.score {
                best = line;
                have_game = true;
            }
        }
        if options.width.is_some() || !result.completed || !board.has_move() {
            break;
        }
        // Next width: double, or whatever fills the time left if doubling would not fit.
        let left = budget - started.elapsed().as_secs_f64();
        let per_width = took / width as f64;
        if left <= 0.0 {
            break;
        }
        let fits = (left * 0.9 / per_width.max(1e-9)) as usize;
        if fits <= width {
            break;
        }
        width = if fits >= 4 * width { width * 2 } else { fits };
    }
    progress(&Progress {
        fraction: 1.0,
        best_score: best.score,
        elapsed: started.elapsed().as_secs_f64(),
        width,
    });
    let h = board.height();
    SearchResult {
        score: best.score,
        cleared: best.cleared,
        blocks_left: best.blocks_left,
        moves: best.clicks.iter().map(|&(col, y)| [h - 1 - y as usize, col as usize]).collect(),
        seconds: started.elapsed().as_secs_f64(),
        nodes,
        runs,
    }
}

fn fraction(started: Instant, budget: f64, fixed: bool) -> f64 {
    if fixed || budget <= 0.0 {
        0.0
    } else {
        (started.elapsed().as_secs_f64() / budget).min(1.0)
    }
}

/// `tabula solve samegame`: searches the request's board (or the variant's start)
/// for `seconds` (default 10) with `seed`, and reports the best game as JSON.
pub fn solve_report(game: &SameGame, request: &Report, progress: &dyn Fn(f64)) -> Result<serde_json::Value, String> {
    let board = match &request.position {
        Some(text) => parse_board(text).map_err(|e| format!("bad board: {e}"))?,
        None => game.start_board(),
    };
    let seconds = request.seconds.unwrap_or(10.0);
    if !(seconds.is_finite() && seconds >= 0.0) {
        return Err(format!("seconds must be a number of seconds, 0 or more (got {seconds})"));
    }
    let options = SearchOptions { seconds, seed: request.seed, ..SearchOptions::default() };
    let result = search(&board, game.scoring, &options, &|p| progress(p.fraction));
    Ok(serde_json::json!({
        "score": result.score,
        "cleared": result.cleared,
        "blocks_left": result.blocks_left,
        "moves": result.moves,
        "seconds": result.seconds,
        "seed": request.seed,
        "start_score": board.score(),
        "width": board.width(),
        "height": board.height(),
        "scoring": game.scoring.name(),
        "nodes": result.nodes,
        "beams": result.runs,
    }))
}
