//! Monte-Carlo beam search (Cazenave, "Monte Carlo Beam Search", IEEE TCIAIG 2012).
//!
//! Level `d` of the beam holds at most `width` distinct boards reached by `d`
//! clicks. Every child of every board in the beam is built and scored by one
//! TabuColorRandom playout; children are deduplicated by Zobrist hash and the
//! `width` best kept. The best playout ever seen is remembered with its line, so
//! a run always ends with a complete game. Work is split over the rayon pool; the
//! playout generators and ties depend only on the seed and the boards, so a run
//! is a function of (board, width, seed) alone.

use super::playout::{playout, Scratch};
use super::{mix, Line};
use crate::board::Board;
use crate::scoring::Scoring;
use rayon::prelude::*;
use std::time::Instant;
use tabula_core::{rng_from_seed, CancelFlag};

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
    parent: u32,
    col: u8,
    y: u8,
}

struct Child {
    key: i64,
    node: Node,
    link: Link,
    /// The playout that scored this child, when children are scored by playouts.
    playout: Option<Vec<(u8, u8)>>,
}

/// Outcome of one run: the best line and how many boards were built.
pub(crate) struct RunResult {
    pub best: Option<Line>,
    pub nodes: u64,
    pub completed: bool,
}

/// The clicks leading to node `index` of level `level`.
fn path(levels: &[Vec<Link>], level: usize, index: u32) -> Vec<(u8, u8)> {
    let mut clicks = Vec::with_capacity(level + 64);
    let mut i = index;
    for links in levels[..level].iter().rev() {
        let link = links[i as usize];
        clicks.push((link.col, link.y));
        i = link.parent;
    }
    clicks.reverse();
    clicks
}

/// Runs a beam of `width` from `start`; stops early (keeping what it found) when
/// `deadline` passes or `stop` is set.
pub(crate) fn run(
    start: &Board,
    scoring: Scoring,
    width: usize,
    zobrist: &Zobrist,
    seed: u64,
    deadline: Option<Instant>,
    stop: &CancelFlag,
) -> RunResult {
    let width = width.max(1);
    let mut levels: Vec<Vec<Link>> = Vec::new();
    let mut beam = vec![Node {
        board: start.clone(),
        hash: zobrist.hash(start),
    }];
    let mut best: Option<Line> = None;
    let mut nodes = 0u64;
    let timed_out = || deadline.is_some_and(|d| Instant::now() >= d) || stop.is_cancelled();
    let mut completed = true;
    loop {
        if timed_out() {
            completed = false;
            break;
        }
        let level = levels.len();
        // The moves of every board; boards without one are finished games.
        let per_node: Vec<(Vec<Candidate>, Option<i64>)> = beam
            .par_iter()
            .enumerate()
            .map_init(Scratch::default, |s, (i, node)| {
                s.groups.clear();
                node.board.label_groups(&mut s.scan, &mut s.groups);
                let out: Vec<Candidate> = s
                    .groups
                    .iter()
                    .filter(|g| g.size >= 2)
                    .map(|g| Candidate {
                        parent: i as u32,
                        col: g.col,
                        y: g.y,
                    })
                    .collect();
                let terminal = out.is_empty().then(|| node.board.score());
                (out, terminal)
            })
            .collect();
        for (i, (_, terminal)) in per_node.iter().enumerate() {
            if let Some(score) = *terminal {
                if !matches!(&best, Some(b) if b.score >= score) {
                    best = Some(Line {
                        score,
                        clicks: path(&levels, level, i as u32),
                    });
                }
            }
        }
        let cands: Vec<Candidate> = per_node.into_iter().flat_map(|(c, _)| c).collect();
        if cands.is_empty() {
            break;
        }
        let mut children: Vec<Child> = cands
            .par_iter()
            .map_init(Scratch::default, |s, c| {
                let mut board = beam[c.parent as usize].board.clone();
                board.play(c.col as usize, c.y as usize, scoring, &mut s.stack);
                let hash = zobrist.hash(&board);
                let link = Link {
                    parent: c.parent,
                    col: c.col,
                    y: c.y,
                };
                if timed_out() {
                    return Child {
                        key: i64::MIN,
                        node: Node { board, hash },
                        link,
                        playout: None,
                    };
                }
                let mut clicks = Vec::new();
                let mut rng = rng_from_seed(mix(seed, hash));
                let score = playout(&board, scoring, &mut rng, s, &mut clicks);
                Child {
                    key: score,
                    node: Node { board, hash },
                    link,
                    playout: Some(clicks),
                }
            })
            .collect();
        nodes += children.len() as u64;
        let top = children
            .iter()
            .filter(|c| c.playout.is_some())
            .max_by(|a, b| a.key.cmp(&b.key).then(b.node.hash.cmp(&a.node.hash)));
        if let Some(top) = top {
            if !matches!(&best, Some(b) if b.score >= top.key) {
                let mut clicks = path(&levels, level, top.link.parent);
                clicks.push((top.link.col, top.link.y));
                clicks.extend_from_slice(top.playout.as_deref().unwrap_or(&[]));
                best = Some(Line {
                    score: top.key,
                    clicks,
                });
            }
        }
        if children.iter().any(|c| c.playout.is_none()) {
            completed = false;
            break;
        }
        // Keep the best-scored child of each distinct board, then the best `width`.
        children.sort_unstable_by(|a, b| a.node.hash.cmp(&b.node.hash).then(b.key.cmp(&a.key)));
        children.dedup_by(|later, earlier| later.node.hash == earlier.node.hash);
        let order = |a: &Child, b: &Child| b.key.cmp(&a.key).then(a.node.hash.cmp(&b.node.hash));
        if children.len() > width {
            children.select_nth_unstable_by(width - 1, order);
            children.truncate(width);
        }
        children.sort_unstable_by(order);
        let (next, links): (Vec<Node>, Vec<Link>) =
            children.into_iter().map(|c| (c.node, c.link)).unzip();
        levels.push(links);
        beam = next;
    }
    RunResult {
        best,
        nodes,
        completed,
    }
}
