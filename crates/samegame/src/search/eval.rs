//! How the beam ranks boards that were reached by the same number of clicks.

use crate::board::{Board, Group, Scan, MAX_COLOURS};
use crate::scoring::Scoring;

/// Which evaluation the beam uses (kept selectable for the benchmark).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EvalKind {
    /// Score + what every colour would score if all its blocks were removed at once.
    Potential,
    /// [`EvalKind::Potential`] plus a term for how the blocks of each colour already
    /// cluster, computed on the built child.
    Structure,
}

/// Ranks boards: higher is more promising.
#[derive(Clone, Debug)]
pub struct Evaluator {
    pub(crate) scoring: Scoring,
    pub(crate) kind: EvalKind,
    /// Weight of the colour potential, in 1/16.
    pub(crate) potential_weight: i64,
    /// Weight of the cluster term, in 1/16.
    pub(crate) cluster_weight: i64,
}

impl Evaluator {
    /// The evaluation used by default for `scoring`.
    pub fn new(scoring: Scoring) -> Evaluator {
        Evaluator { scoring, kind: EvalKind::Potential, potential_weight: 16, cluster_weight: 0 }
    }

    /// Overrides the kind and weights (sixteenths), for experiments.
    pub fn with(scoring: Scoring, kind: EvalKind, potential_weight: i64, cluster_weight: i64) -> Evaluator {
        Evaluator { scoring, kind, potential_weight, cluster_weight }
    }

    #[inline]
    fn potential(&self, counts: &[u16; MAX_COLOURS as usize + 1]) -> i64 {
        let mut sum = 0;
        let mut lone = false;
        for &n in &counts[1..] {
            if n >= 2 {
                sum += self.scoring.group(n as usize);
            } else if n == 1 {
                lone = true;
            }
        }
        if !lone {
            sum += self.scoring.clear_bonus();
        }
        sum
    }

    /// Estimate for the child made by removing `g` from `board` (whose colour
    /// counts and block total are given), without building it. In 1/16 points.
    #[inline]
    pub(crate) fn quick(&self, board: &Board, counts: &[u16; MAX_COLOURS as usize + 1], total: usize, g: &Group) -> i64 {
        let n = g.size as usize;
        let mut score = board.score() + self.scoring.group(n);
        if n == total {
            score += self.scoring.clear_bonus();
        }
        let mut after = *counts;
        after[g.colour as usize] -= g.size;
        let pot = if n == total { 0 } else { self.potential(&after) };
        score * 16 + pot * self.potential_weight
    }

    /// Final rank of a built child whose quick estimate was `quick`.
    pub(crate) fn full(&self, board: &Board, quick: i64, scan: &mut Scan, groups: &mut Vec<Group>) -> i64 {
        match self.kind {
            EvalKind::Potential => quick,
            EvalKind::Structure => {
                groups.clear();
                board.label_groups(scan, groups);
                // A colour split into many groups is further from one big removal.
                let mut split = 0i64;
                for g in groups.iter() {
                    let s = g.size as i64;
                    split += s * s;
                }
                quick + split * self.cluster_weight
            }
        }
    }
}
