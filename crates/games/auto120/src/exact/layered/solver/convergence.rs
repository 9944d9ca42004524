//! When a group's sweeps end, how far the progress bar is through them, and
//! when over-relaxation gives way to plain sweeps: all read from the largest
//! change of each sweep.

use super::super::sweep::WEIGHT_ONE;
use super::EXPECTED_SWEEPS;

/// Sweeps of one step's change after which a group ends even if the change
/// never reaches the tolerance (a value can flip between two neighbours). The
/// sweeps while the change is one step still bring the values closer to the
/// solution: ending at the third instead of the ninth left three markers four
/// steps (9.3e-10) from today's values instead of two, and two solves of two
/// markers up to six steps apart, too close to the 1e-9 asked for.
const CYCLE_SWEEPS: usize = 8;
/// Sweeps without a new least change after which over-relaxation stops (the
/// rounding of its larger steps can keep a few values circling a fixed point
/// that plain sweeps settle).
const STALL_SWEEPS: usize = 3;

/// The largest changes of a group's sweeps in this run, and what follows from them.
pub(super) struct Convergence {
    /// The largest change of each sweep, in steps of the fixed point.
    changes: Vec<u32>,
    /// The sweep (of this run) of the least change so far.
    least_at: usize,
    /// The share of the group's work the progress bar last showed.
    shown_share: f64,
    /// The weight the next sweep runs with, in [`WEIGHT_ONE`]ths.
    weight: u32,
    /// A sweep changing no value by more than this ends the group.
    tolerance_steps: u32,
}

impl Convergence {
    /// Before the first sweep of this run, which runs with `weight`.
    pub(super) fn new(weight: u32, tolerance_steps: u32) -> Self {
        Convergence {
            changes: Vec::new(),
            least_at: 0,
            shown_share: 0.0,
            weight,
            tolerance_steps,
        }
    }

    /// The weight the next sweep runs with.
    pub(super) fn weight(&self) -> u32 {
        self.weight
    }

    /// Notes a sweep's largest change. Over-relaxation lasts until a sweep
    /// changes the values more than twice as much as the least so far (the
    /// weight then feeds a mode it should damp) or the change stops falling;
    /// plain Gauss-Seidel from there on.
    pub(super) fn note(&mut self, change: u32) {
        let least = self.changes.iter().min().copied().unwrap_or(u32::MAX);
        if change < least {
            self.least_at = self.changes.len();
        }
        if change > least.saturating_mul(2) || self.changes.len() - self.least_at >= STALL_SWEEPS {
            self.weight = WEIGHT_ONE;
        }
        self.changes.push(change);
    }

    /// Sweeps of this run whose largest change was `steps` or less.
    fn sweeps_within(&self, steps: u32) -> usize {
        self.changes.iter().filter(|&&c| c <= steps).count()
    }

    /// The share of the group's work done after `sweeps` sweeps (of all runs),
    /// for the progress bar: from the rate at which the change falls, the
    /// sweeps expected to be left; once it is one step, those up to the end of
    /// the cycle. The share never goes back, whatever the estimate makes of a
    /// sweep that changed more than the last.
    pub(super) fn share_done(&mut self, sweeps: u32) -> f64 {
        let changes = &self.changes;
        let change = changes.last().copied().unwrap_or(u32::MAX);
        let tolerance = self.tolerance_steps;
        let left = match changes.len() {
            _ if change <= 1 && change > tolerance => (CYCLE_SWEEPS + 1)
                .saturating_sub(self.sweeps_within(1))
                .max(1) as f64,
            l if l >= 4 && change > tolerance => {
                let rate = (changes[l - 1] as f64 / changes[l - 4].max(1) as f64).powf(1.0 / 3.0);
                if rate < 0.999 {
                    // To a change of one step, then the cycle of them.
                    ((tolerance.max(1) as f64 / change as f64).ln() / rate.ln()).max(1.0)
                        + (CYCLE_SWEEPS + 1) as f64
                } else {
                    EXPECTED_SWEEPS
                }
            }
            _ => (EXPECTED_SWEEPS - sweeps as f64).max(1.0),
        };
        let share = (sweeps as f64 / (sweeps as f64 + left)).max(self.shown_share);
        self.shown_share = share;
        share
    }

    /// True when the group's sweeps end after the last one noted. A sweep in
    /// exact integer arithmetic can end in a cycle of changes of one step:
    /// after [`CYCLE_SWEEPS`] of them a change of one step ends it too. Values
    /// can also circle two steps apart, where a band reads a value its own
    /// sweep has changed (the pairs (m, t) and (t, m) of a band of a layer
    /// (a, a)): no sweep then changes less than two steps. After twice the
    /// cycle of those, two steps end it (never reached where the change comes
    /// down to one step, as it does within a few sweeps of two).
    pub(super) fn converged(&self) -> bool {
        let Some(&change) = self.changes.last() else {
            return false;
        };
        change <= self.tolerance_steps
            || (change <= 1 && self.sweeps_within(1) > CYCLE_SWEEPS)
            || (change <= 2 && self.sweeps_within(2) > 2 * CYCLE_SWEEPS)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_group_ends_at_the_tolerance_or_after_a_cycle_of_small_changes() {
        let mut c = Convergence::new(WEIGHT_ONE, 0);
        assert!(!c.converged(), "no sweep yet");
        for change in [1000, 100, 10] {
            c.note(change);
            assert!(!c.converged());
        }
        // Changes of one step: the ninth ends it.
        for _ in 0..CYCLE_SWEEPS {
            c.note(1);
            assert!(!c.converged());
        }
        c.note(1);
        assert!(c.converged());
        let mut exact = Convergence::new(WEIGHT_ONE, 0);
        exact.note(0);
        assert!(exact.converged(), "a sweep that changes nothing ends it");
        // Values circling two steps apart: the seventeenth such sweep ends it.
        let mut two = Convergence::new(WEIGHT_ONE, 0);
        for _ in 0..2 * CYCLE_SWEEPS {
            two.note(2);
            assert!(!two.converged());
        }
        two.note(2);
        assert!(two.converged());
    }

    #[test]
    fn over_relaxation_stops_when_the_change_grows_or_stalls() {
        let over = WEIGHT_ONE * 5 / 4;
        let mut grows = Convergence::new(over, 0);
        grows.note(100);
        grows.note(60);
        assert_eq!(grows.weight(), over);
        grows.note(121);
        assert_eq!(grows.weight(), WEIGHT_ONE, "more than twice the least");
        let mut stalls = Convergence::new(over, 0);
        for change in [100, 50, 60, 70] {
            stalls.note(change);
            assert_eq!(stalls.weight(), over);
        }
        stalls.note(55);
        assert_eq!(
            stalls.weight(),
            WEIGHT_ONE,
            "three sweeps without a new least"
        );
    }

    #[test]
    fn the_share_shown_never_goes_back() {
        let mut c = Convergence::new(WEIGHT_ONE, 0);
        let mut last = 0.0;
        for (sweeps, change) in (1..).zip([1000, 500, 250, 125, 900, 60, 30, 1, 1]) {
            c.note(change);
            let share = c.share_done(sweeps);
            assert!(share >= last && share < 1.0, "{share} after {last}");
            last = share;
        }
    }
}
