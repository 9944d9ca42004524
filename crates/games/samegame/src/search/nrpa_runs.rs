//! NRPA on the threads of the pool: which run each thread takes next (fixed
//! runs; or trials of the tabu colours, fresh runs and a last run from the best
//! game within the time budget) and the best game the threads share.

use super::nrpa::{self, Nrpa, Policy, PolicyMemory, Seq, Work};
use super::{
    largest_group_colour, mix, nrpa_plan, playout, restart_playouts, tabu_candidates, Found, Line,
    Request, Stage, TRIAL_SHARE,
};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// The best game so far with the run that found it and its tabu colour.
struct Best {
    score: i64,
    /// The lowest run wins ties, so a fixed number of runs gives the same game
    /// whatever the thread timing (`u64::MAX`: the plan the search started from).
    run: u64,
    line: Line,
    tabu: usize,
}

/// What the threads of one search share.
struct Runs<'a> {
    request: Request<'a>,
    nrpa: Nrpa<'a>,
    /// The tabu colour of a run that is not a trial: the plan's, else the commonest.
    default_tabu: usize,
    iterations: Option<u32>,
    /// A fixed number of runs, or runs until the time is up.
    runs: Option<u64>,
    /// The plan, finished by a playout when it stops early: every run starts from it.
    start: Option<Seq>,
    /// A search free to shape its own runs: no fixed work, no level, no plan.
    free: bool,
    /// With a time budget and no plan, every colour is tried as the tabu one first
    /// (the commonest one is not always the best), then the rest of the time goes
    /// on from the best game found, with its colour.
    trial_colours: Vec<usize>,
    next_trial: AtomicU64,
    /// Whether a fresh run of a long budget has started (the last run then goes on
    /// from the best game they found).
    restarted: AtomicBool,
    best: Mutex<Option<Best>>,
    next_run: AtomicU64,
    started_runs: AtomicU64,
    /// Runs that finished before the time was up.
    finished_runs: AtomicU64,
    top_level: AtomicU64,
    threads: usize,
    /// Entries of one policy table.
    cap: usize,
    memory: Arc<PolicyMemory>,
}

/// What one thread keeps between its runs.
struct Thread {
    work: Work,
    root: Policy,
    /// Seconds per playout on this thread, once measured.
    per_playout: Option<f64>,
    /// Playouts of a trial run on this thread, once measured.
    trial_playouts: f64,
}

/// The shape of the next run and the game it starts from.
struct NextRun {
    plan: nrpa::Plan,
    from: Option<Seq>,
}

/// Nested rollout policy adaptation on the threads of the pool: fixed runs, or
/// trials of the tabu colours, fresh runs and a last run from the best game
/// within the time budget.
pub(super) fn search_nrpa(request: &Request<'_>, so_far: Found) -> (Found, u64) {
    let Found {
        mut best,
        found,
        mut stages,
        optimal,
    } = so_far;
    let runs = Runs::new(*request);
    if request.board.has_move() {
        let max_level = request.options.level.unwrap_or(4).clamp(1, 6);
        (request.report)(best.score, max_level as usize);
        rayon::scope(|scope| {
            for _ in 0..runs.threads {
                scope.spawn(|_| runs.work_on());
            }
        });
        let found_best = runs.best.lock().unwrap_or_else(|e| e.into_inner()).take();
        if let Some(found_best) = found_best {
            best = found_best.line;
            stages.push(Stage {
                size: runs.top_level.load(Ordering::Relaxed) as usize,
                runs: runs.started_runs.load(Ordering::Relaxed) as u32,
                score: Some(found_best.score),
                seconds: request.started.elapsed().as_secs_f64(),
                completed: runs
                    .runs
                    .is_some_and(|n| runs.finished_runs.load(Ordering::Relaxed) >= n),
            });
        }
    }
    let found = Found {
        best,
        found,
        stages,
        optimal,
    };
    (found, runs.nrpa.playouts.load(Ordering::Relaxed))
}

impl<'a> Runs<'a> {
    fn new(request: Request<'a>) -> Runs<'a> {
        let Request {
            board,
            scoring,
            options,
            plan,
            deadline,
            stop,
            ..
        } = request;
        // A plan keeps the tabu colour it was found with: the colour of its largest
        // group, which the tabu rule saves for last.
        let default_tabu = plan
            .as_ref()
            .and_then(|p| largest_group_colour(board, p))
            .unwrap_or(playout::commonest_colour(board) as usize);
        let nrpa = Nrpa {
            board,
            scoring,
            alpha: 1.0,
            deadline,
            stop,
            playouts: AtomicU64::new(0),
        };
        let start = plan
            .as_ref()
            .and_then(|p| nrpa.replay(p, default_tabu, options.seed, &mut Work::default()));
        let runs = options.runs.map(|r| r.max(1) as u64);
        let free = runs.is_none() && options.level.is_none() && start.is_none();
        let trial_colours = if free {
            tabu_candidates(board)
        } else {
            Vec::new()
        };
        let best = start.as_ref().map(|s| Best {
            score: s.score,
            run: u64::MAX,
            line: s.line(),
            tabu: default_tabu,
        });
        let threads = rayon::current_num_threads().max(1);
        let max_level = options.level.unwrap_or(4).clamp(1, 6);
        // Each thread holds a policy per level and the root's; together they stay
        // within the memory budget ...
        let tables = (threads * (max_level as usize + 1)) as u64;
        let cap =
            (options.budget.max_memory_bytes / tables / Policy::bytes_for(1)).min(1 << 26) as usize;
        // ... and in its budget's memory ledger beside the other tables.
        let memory = PolicyMemory::new(tables, options.budget.ledger());
        Runs {
            request,
            nrpa,
            default_tabu,
            iterations: options.iterations.map(|n| n.clamp(1, 10_000)),
            runs,
            start,
            free,
            trial_colours,
            next_trial: AtomicU64::new(0),
            restarted: AtomicBool::new(false),
            best: Mutex::new(best),
            next_run: AtomicU64::new(0),
            started_runs: AtomicU64::new(0),
            finished_runs: AtomicU64::new(0),
            top_level: AtomicU64::new(0),
            threads,
            cap,
            memory,
        }
    }

    /// One thread: runs until the fixed number is taken or the time is up.
    fn work_on(&self) {
        let mut thread = Thread {
            work: Work::default(),
            root: Policy::charged(self.cap, &self.memory),
            per_playout: None,
            trial_playouts: 0.0,
        };
        if let Some(seq) = &self.start {
            self.nrpa.adapt(&mut thread.root, seq, &mut Vec::new());
        }
        loop {
            let run = self.next_run.fetch_add(1, Ordering::Relaxed);
            if self.runs.is_some_and(|n| run >= n)
                || (self.runs.is_none() && run > 0 && self.nrpa.out_of_time())
            {
                break;
            }
            self.started_runs.fetch_add(1, Ordering::Relaxed);
            let next = self.next_run_of(run, &mut thread);
            self.top_level
                .fetch_max(next.plan.level as u64, Ordering::Relaxed);
            let t = Instant::now();
            let before = thread.work.playouts;
            let mut on_best = |seq: &Seq| self.offer(seq, run, next.plan);
            let seq = self.nrpa.run(
                next.plan,
                &thread.root,
                mix(self.request.options.seed, run),
                next.from.as_ref(),
                &mut thread.work,
                &mut on_best,
            );
            on_best(&seq);
            let played = thread.work.playouts - before;
            if played > 0 && thread.per_playout.is_none() {
                let p = t.elapsed().as_secs_f64() / played as f64;
                thread.per_playout = Some(p);
                let rounds = self.trial_colours.len().div_ceil(self.threads).max(1);
                thread.trial_playouts = self.seconds_left() * TRIAL_SHARE / p / rounds as f64;
            }
            if !self.nrpa.out_of_time() {
                self.finished_runs.fetch_add(1, Ordering::Relaxed);
            }
        }
    }

    /// The shape of run `run` on this thread. With a time budget, a run's top level
    /// goes on until the deadline (anytime) rather than leaving the end of the
    /// budget to short restarts.
    fn next_run_of(&self, run: u64, thread: &mut Thread) -> NextRun {
        let options = self.request.options;
        let plan = |tabu, level, iterations, open| nrpa::Plan {
            tabu,
            level,
            iterations,
            open,
        };
        let mut from = self.start.clone();
        if let Some(level) = options.level {
            let iterations = self.iterations.unwrap_or(100);
            return NextRun {
                plan: plan(
                    self.default_tabu,
                    level.clamp(1, 6),
                    iterations,
                    self.runs.is_none(),
                ),
                from,
            };
        }
        // The first run measures the speed of this thread.
        let Some(p) = thread.per_playout else {
            return NextRun {
                plan: plan(self.default_tabu, 1, 100, false),
                from,
            };
        };
        let trial = self.next_trial.fetch_add(1, Ordering::Relaxed) as usize;
        if let Some(&colour) = self.trial_colours.get(trial) {
            let (l, n) = nrpa_plan(thread.trial_playouts, self.iterations);
            return NextRun {
                plan: plan(colour, l, n, false),
                from,
            };
        }
        let left = self.seconds_left();
        let (best_line, best_tabu) = {
            let cur = self.best.lock().unwrap_or_else(|e| e.into_inner());
            cur.as_ref()
                .map(|b| (Some(b.line.clone()), Some(b.tabu)))
                .unwrap_or((None, None))
        };
        // A fresh run (its size depends on the budget, see restart_playouts) with
        // the best colour so far, while much more time is left.
        let size = restart_playouts(options.seconds / p);
        if self.free && self.request.deadline.is_some() && left / p > 2.0 * size {
            self.restarted.store(true, Ordering::Relaxed);
            let (l, n) = nrpa_plan(size, self.iterations);
            return NextRun {
                plan: plan(best_tabu.unwrap_or(self.default_tabu), l, n, false),
                from,
            };
        }
        // Go on from the best game so far, with its colour.
        let mut tabu = self.default_tabu;
        let from_best = !self.trial_colours.is_empty() || self.restarted.load(Ordering::Relaxed);
        if let (true, Some(line), Some(colour)) = (from_best, best_line, best_tabu) {
            tabu = colour;
            if let Some(seq) = self.nrpa.replay(
                &line.clicks,
                colour,
                mix(options.seed, run),
                &mut thread.work,
            ) {
                thread.root = Policy::charged(self.cap, &self.memory);
                self.nrpa.adapt(&mut thread.root, &seq, &mut Vec::new());
                from = Some(seq);
            }
        }
        let (l, n) = nrpa_plan(left / p, self.iterations);
        NextRun {
            plan: plan(tabu, l, n, self.request.deadline.is_some()),
            from,
        }
    }

    /// A game found by run `run`: kept (and told of) when it beats the best so far.
    fn offer(&self, seq: &Seq, run: u64, plan: nrpa::Plan) {
        let mut cur = self.best.lock().unwrap_or_else(|e| e.into_inner());
        let better = match &*cur {
            None => true,
            Some(b) => seq.score > b.score || (seq.score == b.score && run < b.run),
        };
        if better {
            *cur = Some(Best {
                score: seq.score,
                run,
                line: seq.line(),
                tabu: plan.tabu,
            });
            drop(cur);
            (self.request.report)(seq.score, plan.level as usize);
        }
    }

    fn seconds_left(&self) -> f64 {
        self.request.deadline.map_or(1e7, |d| {
            d.saturating_duration_since(Instant::now()).as_secs_f64()
        })
    }
}
