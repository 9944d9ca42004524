//! Poggle on a torus (`topology=torus`): the edges wrap, so every button has four
//! neighbours, as on the wrap-around boards the 2006 blog mentions (Orbix, Merlin's
//! Machine). Light chasing does not apply (the last row feeds back into the first),
//! so the n^2 x n^2 system `A x = -s (mod k)` is solved directly: its Smith form
//! modulo each prime power of `k` ([`crate::smith`]) gives solvability, one solution,
//! the quiet patterns (hence the number of solutions) and, when unsolvable, a quiet
//! pattern that proves it; the Chinese remainder theorem glues the prime powers and
//! the fewest-presses search is the flat board's ([`crate::fewest`]).
//!
//! The dense elimination is O(n^6), so the torus is solved up to
//! [`MAX_TORUS_SIZE`] (the size limit of play), not to the flat board's 10000.

use crate::arith::{self, factorize, PrimePower};
use crate::count::BigCount;
use crate::fewest;
use crate::smith;
use crate::solver::{ModulusSummary, Obstruction, Solution, SolveOptions};

/// Largest torus side (the system has n^4 entries).
pub const MAX_TORUS_SIZE: usize = 30;
/// Smallest torus side: below 3 a button would be its own neighbour twice.
pub const MIN_TORUS_SIZE: usize = 3;

/// The buttons a press of `i` advances on an n x n torus: itself and its four
/// neighbours, wrapping at the edges.
pub fn neighbourhood(n: usize, i: usize) -> [usize; 5] {
    let (r, c) = (i / n, i % n);
    [
        i,
        ((r + n - 1) % n) * n + c,
        ((r + 1) % n) * n + c,
        r * n + (c + n - 1) % n,
        r * n + (c + 1) % n,
    ]
}

/// The press matrix of the torus (symmetric, 0/1), row by row.
pub fn press_matrix(n: usize) -> Vec<Vec<u32>> {
    let cells = n * n;
    (0..cells)
        .map(|i| {
            let mut row = vec![0u32; cells];
            for j in neighbourhood(n, i) {
                row[j] = 1;
            }
            row
        })
        .collect()
}

/// The board after pressing button `i` `presses[i]` times on a torus.
pub fn apply_presses(n: usize, k: u32, start: &[u8], presses: &[u8]) -> Vec<u8> {
    let mut board: Vec<u32> = start.iter().map(|&c| c as u32).collect();
    for (i, &p) in presses.iter().enumerate() {
        if p == 0 {
            continue;
        }
        for j in neighbourhood(n, i) {
            board[j] = (board[j] + p as u32) % k;
        }
    }
    board.into_iter().map(|c| c as u8).collect()
}

/// Checks the size, colours and start.
pub fn check(n: usize, k: u32, start: &[u8]) -> Result<(), String> {
    if !(MIN_TORUS_SIZE..=MAX_TORUS_SIZE).contains(&n) {
        return Err(format!(
            "a torus board is {MIN_TORUS_SIZE}x{MIN_TORUS_SIZE} to {MAX_TORUS_SIZE}x{MAX_TORUS_SIZE} \
             (its solver works on the whole {m}x{m} system), not {n}x{n}",
            m = n * n
        ));
    }
    if !(2..=crate::MAX_COLOURS).contains(&k) {
        return Err(format!("colours must be 2 to {}", crate::MAX_COLOURS));
    }
    if start.len() != n * n || start.iter().any(|&c| c as u32 >= k) {
        return Err(format!("the start must be {n}x{n} colours below {k}"));
    }
    Ok(())
}

fn dot(a: &[u32], b: &[u32], m: u32) -> u32 {
    (a.iter()
        .zip(b)
        .map(|(&x, &y)| x as u64 * y as u64 % m as u64)
        .sum::<u64>()
        % m as u64) as u32
}

/// Solves a torus board: solvability, a solution (fewest presses when the search
/// is small), the number of solutions, and an obstruction when unsolvable.
pub fn solve(n: usize, k: u32, start: &[u8], options: &SolveOptions) -> Result<Solution, String> {
    check(n, k, start)?;
    let cells = n * n;
    let matrix = press_matrix(n);
    let mut moduli = Vec::new();
    let mut x = vec![0u32; cells];
    let mut solvable = true;
    let mut obstruction = None;
    let mut quiet_count = BigCount::one();
    let mut generators: Vec<(Vec<u8>, u32)> = Vec::new();
    for pp in factorize(k) {
        let PrimePower { p, m, .. } = pp;
        let b: Vec<u32> = start.iter().map(|&c| arith::neg(c as u32 % m, m)).collect();
        let form = smith::solve_rows(&matrix, &b, pp);
        let lift = arith::crt_unit(m, k);
        let exponent = form.kernel_exponent();
        for _ in 0..exponent {
            quiet_count.mul_small(p);
        }
        moduli.push(ModulusSummary {
            modulus: m,
            prime: p,
            solvable: form.solution.is_some(),
            kernel_exponent: exponent,
        });
        let kernel: Vec<(Vec<u32>, u32)> = form
            .kernel_indices()
            .map(|t| (form.kernel_vector(t), form.order_exponent(t)))
            .collect();
        match &form.solution {
            Some(local) => {
                for (acc, &xi) in x.iter_mut().zip(local) {
                    *acc = ((*acc as u64 + xi as u64 * lift as u64) % k as u64) as u32;
                }
            }
            None => {
                solvable = false;
                if obstruction.is_none() {
                    // The matrix is symmetric: its kernel is its left kernel, and b is
                    // in the image iff every kernel vector is orthogonal to it.
                    let (w, _) = kernel
                        .iter()
                        .find(|(w, _)| dot(w, &b, m) != 0)
                        .ok_or("internal error: an unsolvable torus without a witness")?;
                    let pattern: Vec<u8> =
                        w.iter().map(|&v| arith::mul(v, lift, k) as u8).collect();
                    let value = pattern
                        .iter()
                        .zip(start)
                        .map(|(&z, &s)| z as u64 * s as u64)
                        .sum::<u64>()
                        % k as u64;
                    obstruction = Some(Obstruction {
                        modulus: m,
                        pattern,
                        value: value as u32,
                    });
                }
            }
        }
        for (g, v) in kernel {
            let pattern: Vec<u8> = g.iter().map(|&v| arith::mul(v, lift, k) as u8).collect();
            generators.push((pattern, p.pow(v)));
        }
    }
    if !solvable {
        return Ok(Solution {
            n,
            k,
            solvable,
            count: BigCount::zero(),
            quiet_count,
            presses: None,
            fewest: false,
            obstruction,
            moduli,
            quiet_first_rows: Vec::new(),
        });
    }
    let mut presses: Vec<u8> = x.iter().map(|&v| v as u8).collect();
    if apply_presses(n, k, start, &presses).iter().any(|&c| c != 0) {
        return Err("internal error: the torus solution does not solve the board".into());
    }
    let count = quiet_count.clone();
    let mut fewest = count.to_u64() == Some(1);
    if options.fewest && !fewest {
        if let Some(c) = count.to_u64() {
            if c <= options.max_search_solutions
                && c.saturating_mul(cells as u64) <= options.max_search_work
            {
                // Stopped by the caller's budget: the solution found, not proven fewest.
                if let Some((best, _)) = fewest::fewest_bytes(k, &presses, &generators) {
                    presses = best;
                    fewest = true;
                }
            }
        }
    }
    Ok(Solution {
        n,
        k,
        solvable,
        count,
        quiet_count,
        presses: Some(presses),
        fewest,
        obstruction: None,
        moduli,
        quiet_first_rows: Vec::new(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every press vector in 0..k for an n x n torus (k^(n*n) of them).
    fn all_presses(n: usize, k: u32) -> impl Iterator<Item = Vec<u8>> {
        let cells = n * n;
        let total = (k as u64).pow(cells as u32);
        (0..total).map(move |mut code| {
            (0..cells)
                .map(|_| {
                    let d = (code % k as u64) as u8;
                    code /= k as u64;
                    d
                })
                .collect()
        })
    }

    /// Brute force: (number of solutions, fewest total presses) for a start.
    fn brute(n: usize, k: u32, start: &[u8]) -> (u64, Option<u64>) {
        let mut count = 0;
        let mut best: Option<u64> = None;
        for x in all_presses(n, k) {
            if apply_presses(n, k, start, &x).iter().all(|&c| c == 0) {
                count += 1;
                let total: u64 = x.iter().map(|&v| v as u64).sum();
                best = Some(best.map_or(total, |b| b.min(total)));
            }
        }
        (count, best)
    }

    #[test]
    fn a_cancelled_budget_stops_the_fewest_presses_search() {
        // A board with quiet patterns, so with several solutions: a search, unless stopped.
        let (n, k, start, sol) = (2..=6usize)
            .flat_map(|n| (2..=4u32).map(move |k| (n, k)))
            .find_map(|(n, k)| {
                let start = vec![1u8; n * n];
                let sol = solve(n, k, &start, &SolveOptions::default()).ok()?;
                (sol.count.to_u64().is_some_and(|c| c > 1) && sol.presses.is_some())
                    .then_some((n, k, start, sol))
            })
            .expect("a torus with several solutions");
        assert!(sol.fewest);
        let cancelled = tabula_core::Budget::unlimited();
        cancelled.cancel();
        let stopped = cancelled
            .run(|| solve(n, k, &start, &SolveOptions::default()))
            .unwrap();
        assert!(!stopped.fewest, "not proven fewest when stopped");
        let p = stopped.presses.as_ref().expect("still a solution");
        assert!(apply_presses(n, k, &start, p).iter().all(|&c| c == 0));
    }

    #[test]
    fn small_tori_agree_with_brute_force() {
        // 3x3 with 2, 3 and 4 colours (2^9, 3^9, 4^9 press vectors), 4x4 with 2 (2^16).
        let mut starts: Vec<(usize, u32, Vec<u8>)> = Vec::new();
        for (n, k) in [(3usize, 2u32), (3, 3), (3, 4), (4, 2)] {
            starts.push((n, k, vec![1; n * n]));
            let mut v = vec![0u8; n * n];
            v[0] = 1;
            starts.push((n, k, v));
            let mixed: Vec<u8> = (0..n * n)
                .map(|i| ((i * 7 + 3) % k as usize) as u8)
                .collect();
            starts.push((n, k, mixed));
        }
        for (n, k, start) in starts {
            let sol = solve(n, k, &start, &SolveOptions::default()).unwrap();
            let (count, fewest) = brute(n, k, &start);
            assert_eq!(sol.count.to_u64(), Some(count), "{n}x{n} k={k} {start:?}");
            assert_eq!(sol.solvable, count > 0, "{n}x{n} k={k} {start:?}");
            if let Some(p) = &sol.presses {
                assert!(apply_presses(n, k, &start, p).iter().all(|&c| c == 0));
                assert!(sol.fewest);
                assert_eq!(sol.total_presses(), fewest, "{n}x{n} k={k} {start:?}");
            } else {
                let ob = sol.obstruction.as_ref().expect("a reason");
                // The quiet pattern changes nothing when pressed...
                let zero = vec![0u8; n * n];
                assert!(apply_presses(n, k, &zero, &ob.pattern)
                    .iter()
                    .all(|&c| c == 0));
                // ...and its invariant is nonzero on the start.
                assert_ne!(ob.value, 0);
            }
            // The quiet patterns are the solutions of the solved board.
            let (quiet, _) = brute(n, k, &vec![0; n * n]);
            assert_eq!(sol.quiet_count.to_u64(), Some(quiet), "{n}x{n} k={k}");
        }
    }

    #[test]
    fn the_all_ones_torus_is_pressed_everywhere_once_when_5_is_a_unit() {
        // Pressing every button once adds 5 to each: for k = 2 that solves the
        // all-ones board (5 = 1 mod 2), and on a 5x5 torus with k = 2 there are many
        // solutions; the solver's is never longer than pressing all 25.
        let sol = solve(5, 2, &[1; 25], &SolveOptions::default()).unwrap();
        assert!(sol.solvable);
        assert!(sol.total_presses().unwrap() <= 25);
        assert!(check(2, 2, &[1; 4]).is_err());
        assert!(check(31, 2, &vec![1; 961]).is_err());
    }
}
