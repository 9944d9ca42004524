//! The search player: anytime Monte-Carlo search on every core of the rayon pool.
//!
//! Three algorithms, all with the tabu-colour rule of TabuColorRandom:
//!
//! * `nrpa` (the default): nested rollout policy adaptation with the tabu colour as
//!   selective policy (`nrpa.rs`), independent runs on every thread. With a time
//!   budget and no plan, when several colours have about as many blocks as the
//!   commonest, 40% of the time goes to one trial run with each of them as the tabu
//!   colour; the rest goes on from the best game found, with its colour, in runs of
//!   the highest level that fits whose top level goes on to the deadline. Boards of
//!   at most 24 blocks, or over 64 rows, use `nested`.
//! * `nested`: nested Monte-Carlo search. Level 1 runs first, then
//!   level 2, and so on; each level starts from the best game found so far, and a
//!   level is repeated with fresh generators instead of climbing when the next one
//!   clearly cannot finish in the time left. When time runs out the search
//!   finishes along its best sequence, so it always returns a complete game.
//! * `beam`: Monte-Carlo beam search with widths 1, 2, 4, … (the last one sized
//!   to the time left).
//!
//! Reproducibility: every random choice comes from a generator seeded by the
//! search seed and the place in the tree (or the board's hash), never from thread
//! timing. With a time budget the result still depends on how far the search got
//! (and, for NRPA, on which thread ran which run); with fixed work (`runs` for
//! NRPA, `level` for nested, `width` for beam) it is a function of the board, the
//! options and the seed alone.

mod beam;
pub mod cluster;
mod fast;
mod nested;
mod nrpa;
mod nrpa_runs;
mod playout;

use crate::board::Board;
use crate::game::SameGame;
use crate::scoring::Scoring;
use crate::text::parse_board;
use beam::Zobrist;
use serde::Serialize;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};
use tabula_core::{
    Budget, FactValue, PuzzleSolution, Report, Section, SolveFigures, SolveReport, Table,
};

/// A game found: final score and clicks `(column, height above the floor)`.
#[derive(Clone, Debug, Default)]
pub(crate) struct Line {
    pub score: i64,
    pub clicks: Vec<(u8, u8)>,
}

/// SplitMix64 finaliser: derives independent generator seeds from tree positions.
pub(crate) fn mix(a: u64, b: u64) -> u64 {
    let mut z = a ^ b
        .wrapping_mul(0x9E37_79B9_7F4A_7C15)
        .wrapping_add(0x632B_E59B_D9B4_E019);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Which search runs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Algorithm {
    /// Nested Monte-Carlo search, levels 1, 2, ….
    Nested,
    /// Monte-Carlo beam search, widths 1, 2, 4, ….
    Beam,
    /// Nested rollout policy adaptation with the tabu-colour selective policy,
    /// independent runs (restarts) on every core (the default).
    #[default]
    Nrpa,
}

impl Algorithm {
    /// The name used in options and JSON.
    pub fn name(self) -> &'static str {
        match self {
            Algorithm::Nested => "nested",
            Algorithm::Beam => "beam",
            Algorithm::Nrpa => "nrpa",
        }
    }

    /// The algorithm called `name`.
    pub fn from_name(name: &str) -> Option<Algorithm> {
        [Algorithm::Nested, Algorithm::Beam, Algorithm::Nrpa]
            .into_iter()
            .find(|a| a.name() == name)
    }
}

/// What to search with.
#[derive(Clone, Debug)]
pub struct SearchOptions {
    /// The algorithm.
    pub algorithm: Algorithm,
    /// Time budget in seconds (ignored when `runs`, `level` (nested) or `width`
    /// (beam) fixes the work).
    pub seconds: f64,
    /// Seed of every random choice.
    pub seed: u64,
    /// Nested search: run exactly this level, without a time limit. NRPA: the level
    /// of every run (default: the highest that fits the time left, at most 4).
    pub level: Option<u32>,
    /// Beam search: run exactly this width, without a time limit.
    pub width: Option<usize>,
    /// NRPA: iterations per level (default 100).
    pub iterations: Option<u32>,
    /// NRPA: run exactly this many independent runs of `level` (default 2),
    /// without a time limit. Without it, runs are started until the time is up.
    pub runs: Option<u32>,
    /// A plan kept from an earlier search: moves from this board (`[row, column]`,
    /// as in [`SearchResult::moves`]). The search starts from it as its best game
    /// (NRPA also leans its policy towards it), so the result scores at least as
    /// much; a hint that keeps its plan between moves does not lose ground. A plan
    /// that does not replay on the board is ignored; NRPA finishes a plan that stops
    /// before the end with a playout, the other searches ignore it.
    pub plan: Vec<[usize; 2]>,
    /// The caller's deadline and cancel flag: the search stops at the earlier of
    /// its own time budget and this deadline, or when cancelled, and returns the
    /// best game found so far.
    pub budget: Budget,
}

impl Default for SearchOptions {
    fn default() -> Self {
        SearchOptions {
            algorithm: Algorithm::Nrpa,
            seconds: 1.0,
            seed: 0,
            level: None,
            width: None,
            iterations: None,
            runs: None,
            plan: Vec::new(),
            budget: Budget::default(),
        }
    }
}

impl SearchOptions {
    /// Whether `algorithm` (the one that runs) has fixed work instead of a time budget.
    fn fixed_work(&self, algorithm: Algorithm) -> bool {
        match algorithm {
            Algorithm::Nested => self.level.is_some() || self.runs.is_some(),
            Algorithm::Beam => self.width.is_some(),
            Algorithm::Nrpa => self.runs.is_some(),
        }
    }
}

/// Progress of a search, given to the callback at every improvement and stage.
#[derive(Clone, Debug, Serialize)]
pub struct Progress {
    /// Share of the time budget used, 0..1 (0 throughout a search with fixed work).
    pub fraction: f64,
    /// Best final score found so far (the board's own score before any game is found).
    pub best_score: i64,
    /// Seconds since the search began.
    pub elapsed: f64,
    /// Level (nested) or width (beam) running now.
    pub stage: usize,
}

/// One level (nested) or beam width (beam) that was run, possibly several times.
#[derive(Clone, Debug, Serialize)]
pub struct Stage {
    /// Level or width.
    pub size: usize,
    /// How many times it ran in a row (nested search repeats a level with fresh
    /// generators when the next one would not fit in the time left).
    pub runs: u32,
    /// Best final score of this stage, if it found a game.
    pub score: Option<i64>,
    /// Seconds it took.
    pub seconds: f64,
    /// False when the time ran out during the stage.
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
    /// Playouts run.
    pub playouts: u64,
    /// The stages, in order.
    pub stages: Vec<Stage>,
    /// True when the search was exhaustive, so `score` is the best possible: a
    /// nested search of level `L` tries every game of at most `L` clicks, and no
    /// game is longer than half the blocks.
    pub optimal: bool,
    /// The algorithm that ran.
    pub algorithm: Algorithm,
}

/// Searches `board` under `scoring`; `progress` hears about every improvement.
pub fn search(
    board: &Board,
    scoring: Scoring,
    options: &SearchOptions,
    progress: &(dyn Fn(&Progress) + Sync),
) -> SearchResult {
    let started = Instant::now();
    let algorithm = match options.algorithm {
        // The policy's move codes need the bit-parallel board; on small boards nested
        // search climbs to an exhaustive level quickly and proves its game optimal.
        Algorithm::Nrpa
            if board.height() > fast::FAST_MAX_HEIGHT || board.blocks_left() <= NRPA_MIN_BLOCKS =>
        {
            Algorithm::Nested
        }
        a => a,
    };
    let fixed = options.fixed_work(algorithm);
    let budget = if options.seconds.is_finite() {
        options.seconds.clamp(0.0, 1e7)
    } else {
        1e7
    };
    // The earlier of our own time budget and the caller's deadline (which also
    // applies to fixed work).
    let deadline = match (
        (!fixed).then(|| started + Duration::from_secs_f64(budget)),
        options.budget.deadline,
    ) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    };
    let stop = options.budget.cancel_flag();
    let report = |best: i64, stage: usize| {
        let elapsed = started.elapsed().as_secs_f64();
        let fraction = if fixed || budget == 0.0 {
            0.0
        } else {
            (elapsed / budget).min(1.0)
        };
        progress(&Progress {
            fraction,
            best_score: best,
            elapsed,
            stage,
        });
    };
    // The empty line stands until something is found (the board may be over already).
    let mut best = Line {
        score: board.score(),
        clicks: Vec::new(),
    };
    let mut found = !board.has_move();
    // The plan's clicks `(column, height)`, if every move is on the board.
    let h = board.height();
    let plan: Option<Vec<(u8, u8)>> = options
        .plan
        .iter()
        .map(|&[row, col]| {
            (row < h && col < board.width()).then(|| (col as u8, (h - 1 - row) as u8))
        })
        .collect();
    let plan = plan.filter(|p| !p.is_empty());
    if let Some(line) = plan.as_ref().and_then(|p| complete_line(board, scoring, p)) {
        best = line;
        found = true;
    }
    let request = Request {
        board,
        scoring,
        options,
        plan: plan.as_deref(),
        deadline,
        stop: &stop,
        fixed,
        budget,
        started,
        report: &report,
    };
    let so_far = Found {
        best,
        found,
        stages: Vec::new(),
        optimal: !board.has_move(),
    };
    let (so_far, playouts) = match algorithm {
        Algorithm::Nrpa => nrpa_runs::search_nrpa(&request, so_far),
        Algorithm::Nested => search_nested(&request, so_far),
        Algorithm::Beam => search_beam(&request, so_far),
    };
    let Found {
        best,
        stages,
        optimal,
        ..
    } = so_far;
    report(best.score, stages.last().map_or(0, |s| s.size));
    let mut end = board.clone();
    let mut stack = Vec::new();
    let h = board.height();
    let moves = best
        .clicks
        .iter()
        .map(|&(col, y)| {
            end.play(col as usize, y as usize, scoring, &mut stack);
            [h - 1 - y as usize, col as usize]
        })
        .collect();
    debug_assert_eq!(end.score(), best.score);
    SearchResult {
        score: end.score(),
        cleared: end.is_cleared(),
        blocks_left: end.blocks_left(),
        moves,
        seconds: started.elapsed().as_secs_f64(),
        playouts,
        stages,
        optimal,
        algorithm,
    }
}

/// What every algorithm searches with: the request, its limits and clock, and
/// where it tells of progress.
#[derive(Clone, Copy)]
struct Request<'a> {
    board: &'a Board,
    scoring: Scoring,
    options: &'a SearchOptions,
    /// The plan's clicks `(column, height)`, when every one is on the board.
    plan: Option<&'a [(u8, u8)]>,
    /// The earlier of the search's own time and the caller's deadline.
    deadline: Option<Instant>,
    stop: &'a tabula_core::CancelFlag,
    /// A fixed amount of work (runs, a level, a width) rather than a time budget.
    fixed: bool,
    /// The time budget in seconds.
    budget: f64,
    started: Instant,
    /// Tells of the best score so far and the stage reached.
    report: &'a (dyn Fn(i64, usize) + Sync),
}

/// What the algorithms find, handed from the setup to the algorithm and on to
/// the result.
struct Found {
    /// The best game so far (the empty line until one is found).
    best: Line,
    /// Whether `best` is a whole game.
    found: bool,
    stages: Vec<Stage>,
    /// The search was exhaustive.
    optimal: bool,
}

/// Nested search, climbing a level while the last was quick compared with the
/// time left; exhaustive (so optimal) once the level reaches half the blocks.
fn search_nested(request: &Request<'_>, so_far: Found) -> (Found, u64) {
    let Request {
        board,
        scoring,
        options,
        deadline,
        stop,
        fixed,
        budget,
        started,
        report,
        ..
    } = *request;
    let Found {
        mut best,
        mut found,
        mut stages,
        mut optimal,
    } = so_far;
    let stage_now = AtomicU64::new(1);
    let on_best = |score: i64| report(score, stage_now.load(Ordering::Relaxed) as usize);
    let nested = nested::Nested {
        scoring,
        deadline,
        stop,
        playouts: AtomicU64::new(0),
        seed: options.seed,
        on_best: &on_best,
    };
    let mut level = options.level.unwrap_or(1).max(1);
    let mut round = 0u64;
    while board.has_move() {
        stage_now.store(level as u64, Ordering::Relaxed);
        report(best.score, level as usize);
        let t = Instant::now();
        let known = found.then(|| best.clone());
        let line = nested.search(board, level, mix(level as u64, round), known, true);
        let took = t.elapsed().as_secs_f64();
        let completed = !nested.out_of_time();
        match stages.last_mut() {
            Some(Stage {
                size,
                runs,
                score,
                seconds,
                ..
            }) if *size == level as usize => {
                *runs += 1;
                *score = (*score).max(Some(line.score));
                *seconds += took;
            }
            _ => stages.push(Stage {
                size: level as usize,
                runs: 1,
                score: Some(line.score),
                seconds: took,
                completed,
            }),
        }
        if let Some(last) = stages.last_mut() {
            last.completed = completed;
        }
        if !found || line.score > best.score {
            best = line;
            found = true;
        }
        if completed && level as usize >= board.blocks_left() / 2 {
            optimal = true;
            break;
        }
        if fixed || !completed {
            break;
        }
        // Climb while the level just run was quick compared with the time left
        // (each level costs a few hundred times the one below); otherwise
        // repeat it with fresh generators from the best game so far.
        let left = budget - started.elapsed().as_secs_f64();
        if (took * 20.0 < left || took < 0.01) && level < 8 {
            level += 1;
        } else {
            round += 1;
        }
    }
    let playouts = nested.playouts.load(Ordering::Relaxed);
    (
        Found {
            best,
            found,
            stages,
            optimal,
        },
        playouts,
    )
}

/// Beam search, doubling the width (or taking the width that fills the time
/// left) while each width completes.
fn search_beam(request: &Request<'_>, so_far: Found) -> (Found, u64) {
    let Request {
        board,
        scoring,
        options,
        deadline,
        stop,
        fixed,
        budget,
        started,
        report,
        ..
    } = *request;
    let Found {
        mut best,
        mut found,
        mut stages,
        optimal,
    } = so_far;
    let zobrist = Zobrist::new(board.width() * board.height(), options.seed);
    let mut width = options.width.unwrap_or(1).max(1);
    let mut total = 0;
    while board.has_move() {
        report(best.score, width);
        let t = Instant::now();
        let run = beam::run(
            board,
            scoring,
            width,
            &zobrist,
            options.seed,
            deadline,
            stop,
        );
        total += run.nodes;
        let took = t.elapsed().as_secs_f64();
        stages.push(Stage {
            size: width,
            runs: 1,
            score: run.best.as_ref().map(|l| l.score),
            seconds: took,
            completed: run.completed,
        });
        if let Some(line) = run.best {
            if !found || line.score > best.score {
                best = line;
                found = true;
                report(best.score, width);
            }
        }
        if fixed || !run.completed {
            break;
        }
        // Double the width, or take the width that fills the time left.
        let left = budget - started.elapsed().as_secs_f64();
        let fits = (left * 0.9 / (took / width as f64).max(1e-9)).min(1e9) as usize;
        if fits <= width {
            break;
        }
        width = if fits >= 4 * width { width * 2 } else { fits };
    }
    let playouts = total;
    (
        Found {
            best,
            found,
            stages,
            optimal,
        },
        playouts,
    )
}

/// The line of `clicks` from `board` if each removes a group and the game is over
/// after them.
fn complete_line(board: &Board, scoring: Scoring, clicks: &[(u8, u8)]) -> Option<Line> {
    let mut b = board.clone();
    let mut stack = Vec::new();
    for &(col, y) in clicks {
        if b.play(col as usize, y as usize, scoring, &mut stack) < 2 {
            return None;
        }
    }
    (!b.has_move()).then(|| Line {
        score: b.score(),
        clicks: clicks.to_vec(),
    })
}

/// The NRPA run that fits `playouts` playouts: the highest level whose iterations
/// per level (`playouts^(1/level)`, at most 100 or `iterations`) are at least
/// [`NRPA_MIN_ITERATIONS`]; level 1 when even level 2 does not fit.
fn nrpa_plan(playouts: f64, iterations: Option<u32>) -> (u32, u32) {
    let most = iterations.unwrap_or(100) as f64;
    for level in (2..=4u32).rev() {
        let n = playouts.max(1.0).powf(1.0 / level as f64).floor().min(most);
        if n >= NRPA_MIN_ITERATIONS as f64 {
            return (level, n as u32);
        }
    }
    (1, most as u32)
}

/// Boards with at most this many blocks are searched with nested search instead of
/// NRPA (it proves small boards' optimum quickly).
const NRPA_MIN_BLOCKS: usize = 24;

/// The share of a time budget NRPA spends trying each colour as the tabu one.
const TRIAL_SHARE: f64 = 0.4;

/// The playouts of one run of a long budget. One run converges on one game: given
/// 5 minutes instead of 1 it mostly ends where it would have (standard boards 1-10
/// scored 37,646 at 5 minutes a board against 36,808 at 1 minute), and runs from
/// other seeds end on other games (standard board 20 at 1 minute: 4,347, 4,357,
/// 4,359 and 4,899 with four seeds). So while more than twice this is left, a search
/// starts fresh runs of this size (level 4, 31 iterations: about 40 s of one core)
/// and keeps the best; the last run goes on from the best game. At about 25,000
/// playouts a second on a core, that is searches of more than about 80 s.
const RESTART_PLAYOUTS: f64 = 1_000_000.0;

/// The size of a fresh run in a shorter search (up to 2 * [`RESTART_PLAYOUTS`] a
/// thread, about 80 s here): level 3 with 76 iterations, about 19 s of one core.
/// A 60 s search then makes about two fresh runs a thread before going on from the
/// best game: standard boards 77,272 at 60 s with one run a thread, 78,378 with these
/// (see crates/games/samegame/docs/samegame.md). Searches of less than about 38 s never restart.
const SHORT_RESTART_PLAYOUTS: f64 = 450_000.0;

/// Playouts of one fresh run in a search of `budget` playouts a thread.
fn restart_playouts(budget: f64) -> f64 {
    if budget > 2.0 * RESTART_PLAYOUTS {
        RESTART_PLAYOUTS
    } else {
        SHORT_RESTART_PLAYOUTS
    }
}

/// The colour of the largest group `clicks` remove from `board` (the first of the
/// largest), `None` when they remove none.
fn largest_group_colour(board: &Board, clicks: &[(u8, u8)]) -> Option<usize> {
    let mut b = board.clone();
    let mut stack = Vec::new();
    let mut best: Option<(usize, usize)> = None;
    for &(col, y) in clicks {
        let (col, y) = (col as usize, y as usize);
        if col >= b.width() || y >= b.height() {
            return best.map(|(_, c)| c);
        }
        let colour = b.at(col, y) as usize;
        let removed = b.play(col, y, Scoring::Standard, &mut stack);
        if removed < 2 {
            break;
        }
        if !matches!(best, Some((size, _)) if size >= removed) {
            best = Some((removed, colour));
        }
    }
    best.map(|(_, c)| c)
}

/// The tabu colours an NRPA search tries on `board`, commonest first: those with at
/// least 90% as many blocks as the commonest. None when only that one qualifies.
fn tabu_candidates(board: &Board) -> Vec<usize> {
    let counts = board.colour_counts();
    let most = counts.iter().skip(1).copied().max().unwrap_or(0) as u32;
    let mut colours: Vec<usize> = (1..counts.len())
        .filter(|&c| counts[c] > 0 && counts[c] as u32 * 10 >= most * 9)
        .collect();
    colours.sort_by_key(|&c| std::cmp::Reverse(counts[c]));
    if colours.len() < 2 {
        colours.clear();
    }
    colours
}

/// The fewest iterations per level an automatic NRPA run uses.
const NRPA_MIN_ITERATIONS: u32 = 30;

/// `tabula solve samegame`: searches the request's board (or the variant's start)
/// for `seconds` (default 10) with `seed` and reports the best game as JSON (see
/// `crates/games/samegame/docs/samegame.md`). `progress` gets the share of the time used.
pub fn solve_report(
    game: &SameGame,
    request: &Report,
    progress: &dyn Fn(f64),
) -> Result<SolveReport, String> {
    let (board, result) = run(game, request, progress)?;
    Ok(report(&board, game.scoring, request.seed, &result))
}

/// The search of [`solve_report`]: the board searched and the best game found.
fn run(
    game: &SameGame,
    request: &Report,
    progress: &dyn Fn(f64),
) -> Result<(Board, SearchResult), String> {
    let board = match &request.position {
        Some(text) => parse_board(text).map_err(|e| format!("bad board: {e}"))?,
        None => game.start_board(),
    };
    let seconds = request.seconds.unwrap_or(10.0);
    if !(seconds.is_finite() && seconds >= 0.0) {
        return Err(format!(
            "seconds must be a number of seconds, 0 or more (got {seconds})"
        ));
    }
    // The plan's moves as written (`r c`, also `r,c`); one that does not read as
    // two numbers ends the plan there, and the search checks the rest against the board.
    let plan = request
        .plan
        .iter()
        .map_while(|m| {
            let mut parts = m
                .split(|c: char| !c.is_ascii_digit())
                .filter(|p| !p.is_empty())
                .map(|p| p.parse::<usize>().ok());
            match (parts.next(), parts.next(), parts.next()) {
                (Some(Some(r)), Some(Some(c)), None) => Some([r, c]),
                _ => None,
            }
        })
        .collect();
    let options = SearchOptions {
        seconds,
        seed: request.seed,
        budget: request.budget.clone(),
        plan,
        ..SearchOptions::default()
    };
    // `progress` need not be Sync, so the search runs on its own thread and the
    // caller's thread passes its fraction on.
    let fraction = Mutex::new(0.0f64);
    let done = AtomicBool::new(false);
    let result = std::thread::scope(|scope| {
        let worker = scope.spawn(|| {
            let r = search(&board, game.scoring, &options, &|p| {
                if let Ok(mut f) = fraction.lock() {
                    *f = p.fraction;
                }
            });
            done.store(true, Ordering::Release);
            r
        });
        while !done.load(Ordering::Acquire) {
            std::thread::sleep(Duration::from_millis(100));
            progress(fraction.lock().map(|f| *f).unwrap_or(0.0));
        }
        worker.join()
    })
    .map_err(|_| "the search failed".to_string())?;
    progress(1.0);
    Ok((board, result))
}

/// The JSON of a search result.
pub fn report_json(
    board: &Board,
    scoring: Scoring,
    seed: u64,
    result: &SearchResult,
) -> serde_json::Value {
    serde_json::json!({
        "score": result.score,
        "cleared": result.cleared,
        "blocks_left": result.blocks_left,
        "moves": result.moves,
        "seconds": result.seconds,
        "seed": seed,
        "start_score": board.score(),
        "width": board.width(),
        "height": board.height(),
        "scoring": scoring.name(),
        "algorithm": result.algorithm.name(),
        "optimal": result.optimal,
        "playouts": result.playouts,
        "stages": result.stages,
    })
}

/// The typed `tabula solve samegame` report of a search result: the line of
/// clicks as the solution, the search's figures and its stages.
pub fn report(board: &Board, scoring: Scoring, seed: u64, result: &SearchResult) -> SolveReport {
    let algorithm = match result.algorithm {
        Algorithm::Nested => "nested Monte Carlo search (level by level)",
        Algorithm::Beam => "beam search (width by width)",
        Algorithm::Nrpa => "nested rollout policy adaptation",
    };
    let summary = format!(
        "The best game found scores {} points in {} click{}{}{}.",
        result.score,
        result.moves.len(),
        if result.moves.len() == 1 { "" } else { "s" },
        if result.cleared {
            " and clears the board"
        } else {
            ""
        },
        if result.optimal {
            " (the best possible: the search tried every game)"
        } else {
            ""
        }
    );
    let search = Section::new("The search")
        .with(
            "Board",
            FactValue::Text(format!("{} wide, {} high", board.width(), board.height())),
        )
        .with("Scoring", FactValue::Text(scoring.name().into()))
        .with("Score at the start", FactValue::Integer(board.score()))
        .with(
            "Blocks left at the end",
            FactValue::Integer(result.blocks_left as i64),
        )
        .with("Method", FactValue::Text(algorithm.into()))
        .with("Proven best", FactValue::Flag(result.optimal))
        .with(
            "Games played out",
            FactValue::Integer(result.playouts as i64),
        )
        .with("Random seed", FactValue::Integer(seed as i64));
    let mut sections = vec![search];
    if !result.stages.is_empty() {
        let rows = result
            .stages
            .iter()
            .map(|st| {
                vec![
                    st.size.to_string(),
                    st.runs.to_string(),
                    st.score.map(|x| x.to_string()).unwrap_or_default(),
                    format!("{:.2} s", st.seconds),
                    if st.completed {
                        "yes"
                    } else {
                        "no, out of time"
                    }
                    .to_string(),
                ]
            })
            .collect();
        sections.push(
            Section::new("Stages").with(
                "Stages",
                FactValue::Table(Table {
                    columns: ["level or width", "runs", "best score", "time", "finished"]
                        .map(String::from)
                        .to_vec(),
                    rows,
                }),
            ),
        );
    }
    SolveReport {
        summary,
        position: None,
        value: None,
        solution: Some(PuzzleSolution::Line {
            moves: result
                .moves
                .iter()
                .map(|[r, c]| format!("{r} {c}"))
                .collect(),
            score: result.score,
            cleared: result.cleared,
        }),
        counts: None,
        sections,
        figures: SolveFigures {
            positions: None,
            seconds: result.seconds,
            peak_bytes: None,
            sweeps: None,
            first_mover_wins: None,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The tabu colours tried are those within 10% of the commonest, commonest
    /// first; a board with one clear commonest colour tries none.
    #[test]
    fn tabu_trials_take_the_colours_near_the_commonest() {
        let boards = crate::standard::standard_boards();
        // Board 1 counts (as Tabula numbers colours) 2: 50, 4: 49, 1: 48, 5: 44, 3: 34.
        assert_eq!(tabu_candidates(&boards[0]), vec![2, 4, 1]);
        // Boards 11-15: 45 of every colour.
        assert_eq!(tabu_candidates(&boards[10]).len(), 5);
        // Boards 16-20: 65 of one colour, 40 of the others.
        assert!(tabu_candidates(&boards[15]).is_empty());
        let one = Board::from_rows(&[vec![1, 1, 2]], 0).expect("a board");
        assert!(tabu_candidates(&one).is_empty());
    }

    /// A plan's tabu colour is the colour of its largest group; a plan that removes
    /// nothing has none.
    #[test]
    fn a_plan_keeps_the_colour_of_its_largest_group() {
        // Top row first: 2 2 / 1 1 / 1 1 (heights 0 and 1 are colour 1).
        let board = Board::from_rows(&[vec![2, 2], vec![1, 1], vec![1, 1]], 0).expect("a board");
        assert_eq!(largest_group_colour(&board, &[(0, 2), (0, 0)]), Some(1));
        assert_eq!(largest_group_colour(&board, &[(0, 0)]), Some(1));
        assert_eq!(largest_group_colour(&board, &[(0, 2)]), Some(2));
        assert_eq!(largest_group_colour(&board, &[(5, 0)]), None);
        assert_eq!(largest_group_colour(&board, &[]), None);
    }
}
