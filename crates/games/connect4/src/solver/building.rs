//! Making an opening book: every position of the first plies, mirror images
//! once, solved deepest first so that each shallower position reads the
//! deeper ones from the book made so far, and written down as each is solved
//! so that a stopped build goes on where it stopped.
//!
//! The result does not depend on the order the positions are solved in, the
//! threads or the stops: every score is exact, and the file is written from
//! the entries sorted by key.

use super::board::{Shape, SolverBoard};
use super::book::Book;
use super::negamax::{Limits, Solved, Solver};
use super::table::FULL_ENTRIES;
use crate::board::Geometry;
use rayon::prelude::*;
use std::collections::{BTreeMap, HashSet};
use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::sync::{Arc, Mutex};

/// Every position of `geometry` with exactly `plies` discs that the game can
/// reach and has not ended, mirror images once, keyed by the book's key, in
/// ascending order of key.
pub fn positions_at(geometry: Geometry, plies: u32) -> Vec<(u64, SolverBoard)> {
    let shape = Shape::new(geometry);
    let mut layer: Vec<SolverBoard> = vec![SolverBoard {
        mover: 0,
        occupied: 0,
        discs: 0,
    }];
    for _ in 0..plies {
        let mut seen = HashSet::new();
        let mut next = Vec::new();
        for b in &layer {
            let mut playable = b.playable(&shape);
            while playable != 0 {
                let cell = playable & playable.wrapping_neg();
                playable &= playable - 1;
                // The mover's line ends the game: no position follows it.
                if shape.has_line(b.mover | cell) {
                    continue;
                }
                let mut child = *b;
                child.play_cell(cell);
                if seen.insert(child.canonical_key(&shape)) {
                    next.push(child);
                }
            }
        }
        layer = next;
    }
    let mut out: Vec<(u64, SolverBoard)> = layer
        .into_iter()
        .map(|b| (b.canonical_key(&shape), b))
        .collect();
    out.sort_unstable_by_key(|&(k, _)| k);
    out
}

/// Why a book could not be made.
#[derive(Debug, thiserror::Error)]
pub enum BuildError {
    /// The checkpoint file could not be read or written.
    #[error("the book's progress file {path} could not be used: {source}")]
    Checkpoint {
        /// The file.
        path: String,
        /// What went wrong.
        source: std::io::Error,
    },
    /// The build was cancelled; what was solved is kept in the checkpoint.
    #[error("the book was stopped before it was finished; run the same command again to go on")]
    Stopped,
}

/// How far a build has come.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BuildProgress {
    /// Positions solved (those read back from the checkpoint included).
    pub solved: u64,
    /// Positions in all.
    pub total: u64,
    /// Positions searched by this run's solvers.
    pub nodes: u64,
}

/// Reads the entries a checkpoint holds: one `key score` line each; a last
/// line cut short by a stop is ignored.
fn read_checkpoint(path: &Path) -> Result<BTreeMap<u64, i8>, BuildError> {
    let mut out = BTreeMap::new();
    let file = match File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(out),
        Err(source) => {
            return Err(BuildError::Checkpoint {
                path: path.display().to_string(),
                source,
            })
        }
    };
    for line in BufReader::new(file).lines() {
        let line = line.map_err(|source| BuildError::Checkpoint {
            path: path.display().to_string(),
            source,
        })?;
        let mut parts = line.split_whitespace();
        if let (Some(k), Some(s), None) = (parts.next(), parts.next(), parts.next()) {
            if let (Ok(k), Ok(s)) = (k.parse::<u64>(), s.parse::<i8>()) {
                out.insert(k, s);
            }
        }
    }
    Ok(out)
}

/// Makes the book of every position of `geometry` with at most `depth`
/// discs, on `threads` threads (0: rayon's default), keeping each result in
/// `checkpoint` as it comes; a build stopped by `limits` (or killed) goes on
/// from there when run again. `progress` hears after each position.
pub fn build_book(
    geometry: Geometry,
    depth: u32,
    checkpoint: &Path,
    limits: &Limits,
    progress: &(dyn Fn(BuildProgress) + Sync),
) -> Result<Book, BuildError> {
    let shape = Shape::new(geometry);
    let mut done = read_checkpoint(checkpoint)?;
    let layers: Vec<Vec<(u64, SolverBoard)>> =
        (0..=depth).map(|p| positions_at(geometry, p)).collect();
    let total: u64 = layers.iter().map(|l| l.len() as u64).sum();
    let file = OpenOptions::new()
        .create(true)
        .append(true)
        .open(checkpoint)
        .map_err(|source| BuildError::Checkpoint {
            path: checkpoint.display().to_string(),
            source,
        })?;
    let writer = Mutex::new(file);
    let state = Mutex::new(BuildProgress {
        solved: done.len() as u64,
        total,
        nodes: 0,
    });
    for plies in (0..=depth).rev() {
        // Deeper positions are all solved: they are this layer's book.
        let deeper: Vec<(u64, i8)> = done.iter().map(|(&k, &s)| (k, s)).collect();
        let book = Arc::new(Book::from_entries(geometry, depth, deeper));
        let todo: Vec<SolverBoard> = layers[plies as usize]
            .iter()
            .filter(|(k, _)| !done.contains_key(k))
            .map(|&(_, b)| b)
            .collect();
        let results: Vec<Option<(u64, i8)>> = todo
            .par_iter()
            .map_init(
                || Solver::new(shape, FULL_ENTRIES, Some(book.clone())),
                |solver, b| {
                    let before = solver.nodes();
                    let solved = solver.solve(b, limits.clone());
                    let Solved::Exact(score) = solved else {
                        return None;
                    };
                    let key = b.canonical_key(&shape);
                    let line = format!("{key} {score}\n");
                    if let Ok(mut f) = writer.lock() {
                        // A write that fails is only a lost checkpoint line:
                        // the result is kept in memory and solved again next run.
                        let _ = f.write_all(line.as_bytes()).and_then(|_| f.flush());
                    }
                    if let Ok(mut s) = state.lock() {
                        s.solved += 1;
                        s.nodes += solver.nodes() - before;
                        progress(*s);
                    }
                    Some((key, score as i8))
                },
            )
            .collect();
        let mut stopped = false;
        for r in results {
            match r {
                Some((k, s)) => {
                    done.insert(k, s);
                }
                None => stopped = true,
            }
        }
        if stopped {
            return Err(BuildError::Stopped);
        }
    }
    if let Ok(f) = writer.lock() {
        f.sync_all().map_err(|source| BuildError::Checkpoint {
            path: checkpoint.display().to_string(),
            source,
        })?;
    }
    let wanted: HashSet<u64> = layers.iter().flatten().map(|&(k, _)| k).collect();
    let entries: Vec<(u64, i8)> = done
        .into_iter()
        .filter(|(k, _)| wanted.contains(k))
        .collect();
    Ok(Book::from_entries(geometry, depth, entries))
}
