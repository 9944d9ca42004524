//! One beam-search run of a fixed width.
//!
//! Level `d` of the beam holds at most `width` distinct boards reached by `d`
//! clicks. Every child of every board is scored first by a cheap estimate that
//! needs only the parent's colour counts (score + colour potential); the best
//! `width * widen` are built, deduplicated by Zobrist hash, evaluated in full and
//! cut to `width`. Work is split over the rayon pool; ties are broken by the
//! seeded hash, so a run is a function of (board, width, seed) alone.

use super::eval::Evaluator;
use crate::board::{Board, Group, Scan};
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// Zobrist keys: one per (cell, colour).
pub(crate) struct Zobrist {
    keys: Vec<u64>,
}

impl Zobrist {
    pub(crate) fn new(cells: usize, seed: u64) -> Zobrist {
        // SplitMix64: the keys only need to be well mixed and reproducible.
        let mut x = seed ^ 0x9E37_79B9_7F4A_7C15;
        let keys = (0..cells * 16)
            .map(|_| {
                x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
                let mut z = x;
                z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
                z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
                z ^ (z >> 31)
            })
            .collect();
        Zobrist { keys }
    }

    pub(crate) fn hash(&self, board: &Board) -> u64 {
        let h = board.height();
        let mut acc = 0u64;
        for col in 0..board.width() {
            let base = col * h;
            if board.cells()[base] == 0 {
                break;
            }
            for y in 0..h {
                let c = board.cells()[base + y];
                if c == 0 {
                    break;
                }
                acc ^= self.keys[(base + y) * 16 + c as usize];
            }
        }
        acc
    }
}

struct Node {
    board: Board,
    hash: u64,
}

#[derive(Clone, Copy)]
struct Link {
    parent: u32,
    col: u8,
    y: u8,
}

#[derive(Clone, Copy)]
struct Candidate {
    key: i64,
    tie: u64,
    parent: u32,
    col: u8,
    y: u8,
}

/// The best finished game a run found.
#[derive(Clone, Debug, Default)]
pub(crate) struct Line {
    pub score: i64,
    pub cleared: bool,
    pub blocks_left: usize,
    /// Clicks as (column, height above the floor) on the board before each click.
    pub clicks: Vec<(u8, u8)>,
}

/// Outcome of one run: the best line and how many boards were built.
pub(crate) struct RunResult {
    pub best: Option<Line>,
    pub nodes: u64,
    pub completed: bool,
}

struct Scratch {
    scan: Scan,
    groups: Vec<Group>,
    stack: Vec<u16>,
}

fn scratch() -> Scratch {
    Scratch { scan: Scan::default(), groups: Vec::new(), stack: Vec::new() }
}

/// Runs a beam of `width` from `start`; stops early (keeping what it found) when
/// `deadline` passes or `stop` is set.
pub(crate) fn run(
    start: &Board,
    eval: &Evaluator,
    width: usize,
    widen: f64,
    zobrist: &Zobrist,
    deadline: Option<Instant>,
    stop: &AtomicBool,
) -> RunResult {
    let width = width.max(1);
    let build = ((width as f64 * widen).ceil() as usize).max(width);
    let mut levels: Vec<Vec<Link>> = Vec::new();
    let mut beam = vec![Node { board: start.clone(), hash: zobrist.hash(start) }];
    let mut best: Option<(i64, usize, u32)> = None; // (score, level, index)
    let mut best_meta = (false, 0usize);
    let mut nodes = 0u64;
    let timed_out = || deadline.is_some_and(|d| Instant::now() >= d) || stop.load(Ordering::Relaxed);
    let mut completed = true;
    loop {
        if timed_out() {
            completed = false;
            break;
        }
        let level = levels.len();
        // Expand: candidates of every node, terminal nodes reported separately.
        let per_node: Vec<(Vec<Candidate>, Option<i64>)> = beam
            .par_iter()
            .enumerate()
            .map_init(scratch, |s, (i, node)| {
                s.groups.clear();
                node.board.label_groups(&mut s.scan, &mut s.groups);
                let counts = node.board.colour_counts();
                let total = node.board.blocks_left();
                let mut out = Vec::new();
                for g in s.groups.iter().filter(|g| g.size >= 2) {
                    let key = eval.quick(&node.board, &counts, total, g);
                    let tie = node.hash ^ ((g.col as u64) << 40 | (g.y as u64) << 48).wrapping_mul(0x2545_F491_4F6C_DD1D);
                    out.push(Candidate { key, tie, parent: i as u32, col: g.col, y: g.y });
                }
                let terminal = out.is_empty().then(|| node.board.score());
                (out, terminal)
            })
            .collect();
        for (i, (_, terminal)) in per_node.iter().enumerate() {
            if let Some(score) = *terminal {
                if !matches!(best, Some((b, _, _)) if b >= score) {
                    best = Some((score, level, i as u32));
                    best_meta = (beam[i].board.is_cleared(), beam[i].board.blocks_left());
                }
            }
        }
        let mut cands: Vec<Candidate> = per_node.into_iter().flat_map(|(c, _)| c).collect();
        if cands.is_empty() {
            break;
        }
        let order = |a: &Candidate, b: &Candidate| b.key.cmp(&a.key).then(a.tie.cmp(&b.tie));
        if cands.len() > build {
            cands.select_nth_unstable_by(build - 1, order);
            cands.truncate(build);
        }
        cands.sort_unstable_by(order);
        // Build the chosen children.
        let mut children: Vec<(i64, Node, Link)> = cands
            .par_iter()
            .map_init(scratch, |s, c| {
                let mut board = beam[c.parent as usize].board.clone();
                board.play(c.col as usize, c.y as usize, eval.scoring, &mut s.stack);
                let hash = zobrist.hash(&board);
                let key = eval.full(&board, c.key, &mut s.scan, &mut s.groups);
                (key, Node { board, hash }, Link { parent: c.parent, col: c.col, y: c.y })
            })
            .collect();
        nodes += children.len() as u64;
        // Keep the best-keyed child of each distinct board, then the best `width`.
        children.sort_by(|a, b| a.1.hash.cmp(&b.1.hash).then(b.0.cmp(&a.0)).then(a.1.board.score().cmp(&b.1.board.score()).reverse()));
        children.dedup_by(|later, earlier| later.1.hash == earlier.1.hash);
        children.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.hash.cmp(&b.1.hash)));
        children.truncate(width);
        let (next, links): (Vec<Node>, Vec<Link>) = children.into_iter().map(|(_, n, l)| (n, l)).unzip();
        levels.push(links);
        beam = next;
    }
    let best = best.map(|(score, level, index)| {
        let mut clicks = Vec::with_capacity(level);
        let mut i = index;
        for links in levels[..level].iter().rev() {
            let link = links[i as usize];
            clicks.push((link.col, link.y));
            i = link.parent;
        }
        clicks.reverse();
        Line { score, cleared: best_meta.0, blocks_left: best_meta.1, clicks }
    });
    RunResult { best, nodes, completed }
}
