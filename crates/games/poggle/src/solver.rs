//! The Poggle solver: decides solvability, finds a solution, counts all of them and,
//! when there are few enough, finds the one with the fewest presses.
//!
//! Pressing button `i` `x_i` times turns a start `s` into `s + A x (mod k)`, with `A`
//! the n^2 x n^2 "button and its orthogonal neighbours" matrix, so a solution is an
//! `x` with `A x = -s (mod k)`; from the blog's all-ones start that is `A x = -1`.
//! Light chasing ([`crate::chase`]) reduces this to the n x n first-row system
//! `M x_0 = -c_n`, which is solved modulo each prime power of `k` by polynomial
//! arithmetic ([`crate::modular`], [`crate::binary`] for two colours) and glued with
//! the Chinese remainder theorem. Solutions correspond one to one with first rows.

use crate::arith::{self, factorize};
use crate::binary;
use crate::chase::{self, Start};
use crate::count::BigCount;
use crate::fewest;
use crate::gf2::{self, Bits};
use crate::modular;
use crate::modular::LocalSolution;

/// Largest board side the solver accepts.
pub const MAX_SOLVE_SIZE: usize = 10_000;
/// Largest number of colours (press counts and colours are stored in bytes).
pub const MAX_COLOURS: u32 = 256;

/// How the first-row system is solved (all give the same answers; the choice exists
/// so that tests can check the methods against each other).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Method {
    /// Polynomials, bit-packed for two colours.
    #[default]
    Auto,
    /// Polynomials over Z/p^e for every prime power, two colours included.
    Polynomial,
    /// Dense Smith-form elimination of the explicit n x n matrix: O(n^3), a reference.
    Dense,
}

/// Limits and choices for [`solve`].
#[derive(Clone, Debug)]
pub struct SolveOptions {
    /// Search for the fewest-presses solution when the search is small enough.
    pub fewest: bool,
    /// Search only if there are at most this many solutions.
    pub max_search_solutions: u64,
    /// Search only if solutions x (cells per pattern, or 64-cell words for two
    /// colours) is at most this.
    pub max_search_work: u64,
    /// Solving method.
    pub method: Method,
}

impl Default for SolveOptions {
    fn default() -> Self {
        SolveOptions {
            fewest: true,
            max_search_solutions: 1 << 20,
            max_search_work: 1 << 31,
            method: Method::Auto,
        }
    }
}

/// What one prime power of the number of colours contributes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ModulusSummary {
    /// The prime power `p^e`.
    pub modulus: u32,
    /// Its prime.
    pub prime: u32,
    /// Whether the first-row system is solvable modulo `p^e`.
    pub solvable: bool,
    /// log_p of the number of quiet patterns modulo `p^e`.
    pub kernel_exponent: u32,
}

/// Why a start cannot be solved: a quiet pattern `z` (pressing button `i` `z_i` times
/// changes nothing) makes `sum z_i * colour_i (mod k)` an invariant of every press; it
/// is 0 on the solved board but `value` on the start.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Obstruction {
    /// The prime power modulo which the system fails.
    pub modulus: u32,
    /// The quiet pattern, row-major, values modulo `k`.
    pub pattern: Vec<u8>,
    /// The invariant on the start (nonzero).
    pub value: u32,
}

/// The solver's answer.
#[derive(Clone, Debug)]
pub struct Solution {
    /// Board side.
    pub n: usize,
    /// Colours.
    pub k: u32,
    /// Whether the start can be solved.
    pub solvable: bool,
    /// Number of solutions (press counts taken modulo `k`); zero if unsolvable.
    pub count: BigCount,
    /// Number of quiet patterns (solutions of the all-zero board).
    pub quiet_count: BigCount,
    /// Press counts of one solution, row-major, each in `0..k`.
    pub presses: Option<Vec<u8>>,
    /// Whether `presses` is proven to have the fewest presses (sum of press counts).
    pub fewest: bool,
    /// The reason when unsolvable.
    pub obstruction: Option<Obstruction>,
    /// Per prime power of `k`.
    pub moduli: Vec<ModulusSummary>,
    /// First rows of quiet-pattern generators (values modulo `k`) with their orders:
    /// every quiet pattern is the chase of exactly one `sum a_i g_i`, `0 <= a_i < order_i`.
    /// Complete when there are at most 2^20 quiet patterns or k is square-free; may be
    /// partial (or empty) otherwise.
    pub quiet_first_rows: Vec<(Vec<u8>, u32)>,
}

impl Solution {
    /// Sum of the press counts of the returned solution.
    pub fn total_presses(&self) -> Option<u64> {
        self.presses
            .as_ref()
            .map(|p| p.iter().map(|&v| v as u64).sum())
    }
    /// Number of buttons pressed at least once in the returned solution.
    pub fn pressed_buttons(&self) -> Option<u64> {
        self.presses
            .as_ref()
            .map(|p| p.iter().filter(|&&v| v != 0).count() as u64)
    }
}

/// Checks the size, colours and start grid.
pub fn check_puzzle(n: usize, k: u32, start: Start) -> Result<(), String> {
    if n == 0 || n > MAX_SOLVE_SIZE {
        return Err(format!(
            "board size must be between 1 and {MAX_SOLVE_SIZE}, not {n}"
        ));
    }
    if !(2..=MAX_COLOURS).contains(&k) {
        return Err(format!(
            "colours must be between 2 and {MAX_COLOURS}, not {k}"
        ));
    }
    if let Start::Grid(g) = start {
        if g.len() != n * n {
            return Err(format!(
                "a {n}x{n} board has {} buttons, not {}",
                n * n,
                g.len()
            ));
        }
        if let Some(i) = g.iter().position(|&v| v as u32 >= k) {
            return Err(format!(
                "button {} has colour {} but there are only {k} colours",
                i + 1,
                g[i]
            ));
        }
    }
    Ok(())
}

/// Solves the `n x n` puzzle with `k` colours from `start`.
pub fn solve(n: usize, k: u32, start: Start, options: &SolveOptions) -> Result<Solution, String> {
    check_puzzle(n, k, start)?;
    if k == 2 && options.method == Method::Auto {
        return solve_binary(n, start, options);
    }
    let zero_row = vec![0u32; n];
    let c_n = chase::chase(n, k, start, &zero_row, |_, _| {});

    let mut moduli = Vec::new();
    let mut x0 = vec![0u32; n];
    let mut solvable = true;
    let mut quiet_first_rows = Vec::new();
    let mut obstruction_row: Option<(u32, Vec<u32>)> = None;
    let mut quiet_count = BigCount::one();
    let mut quiet_complete = true;
    for pp in factorize(k) {
        let m = pp.m;
        let b: Vec<u32> = c_n.iter().map(|&c| arith::neg(c % m, m)).collect();
        let local: LocalSolution = match options.method {
            Method::Dense => modular::solve_dense(n, pp, &b),
            _ => modular::solve(n, pp, &b),
        };
        let lift = arith::crt_unit(m, k);
        let exponent = local.kernel_exponent;
        for _ in 0..exponent {
            quiet_count.mul_small(pp.p);
        }
        quiet_complete &= local.kernel_complete;
        moduli.push(ModulusSummary {
            modulus: m,
            prime: pp.p,
            solvable: local.solution.is_some(),
            kernel_exponent: exponent,
        });
        match &local.solution {
            Some(x) => {
                for (acc, &xi) in x0.iter_mut().zip(x) {
                    *acc = ((*acc as u64 + xi as u64 * lift as u64) % k as u64) as u32;
                }
            }
            None => {
                solvable = false;
                if obstruction_row.is_none() {
                    let w = local
                        .witness
                        .as_ref()
                        .ok_or("internal error: unsolvable system without a witness")?;
                    obstruction_row =
                        Some((m, w.iter().map(|&v| arith::mul(v, lift, k)).collect()));
                }
            }
        }
        for (g, v) in &local.kernel {
            let row: Vec<u8> = g.iter().map(|&x| arith::mul(x, lift, k) as u8).collect();
            quiet_first_rows.push((row, pp.p.pow(*v)));
        }
    }

    if !solvable {
        let (modulus, w) = obstruction_row.expect("set when unsolvable");
        let obstruction = obstruction_from_last_row(n, k, start, modulus, &w)?;
        return Ok(Solution {
            n,
            k,
            solvable,
            count: BigCount::zero(),
            quiet_count,
            presses: None,
            fewest: false,
            obstruction: Some(obstruction),
            moduli,
            quiet_first_rows,
        });
    }

    let mut presses = vec![0u8; n * n];
    let residual = chase::chase(n, k, start, &x0, |r, row| {
        for (dst, &v) in presses[r * n..(r + 1) * n].iter_mut().zip(row) {
            *dst = v as u8;
        }
    });
    if residual.iter().any(|&v| v != 0) {
        return Err("internal error: the computed first row does not solve the puzzle".into());
    }
    let count = quiet_count.clone();
    let mut fewest = count.to_u64() == Some(1);
    if options.fewest && !fewest && quiet_complete {
        if let Some(c) = count.to_u64() {
            if c <= options.max_search_solutions
                && c.saturating_mul((n * n) as u64) <= options.max_search_work
            {
                let gens: Vec<(Vec<u8>, u32)> = quiet_first_rows
                    .iter()
                    .map(|(row, order)| (quiet_pattern(n, k, row), *order))
                    .collect();
                // Stopped by the caller's budget: the solution found, not proven fewest.
                if let Some((best, _)) = fewest::fewest_bytes(k, &presses, &gens) {
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
        quiet_first_rows,
    })
}

/// The quiet pattern (all n rows, row-major) chased from a first row of the kernel.
pub fn quiet_pattern(n: usize, k: u32, first_row: &[u8]) -> Vec<u8> {
    let x0: Vec<u32> = first_row.iter().map(|&v| v as u32).collect();
    let mut out = vec![0u8; n * n];
    chase::chase(n, k, Start::Zero, &x0, |r, row| {
        for (dst, &v) in out[r * n..(r + 1) * n].iter_mut().zip(row) {
            *dst = v as u8;
        }
    });
    out
}

/// A quiet pattern `z` with `z . s != 0`: for a kernel first row `w` with
/// `w . c_n != 0`, the pattern whose *last* row is `w` (the chase of `w` turned upside
/// down) has `z . s = -(w . c_n)` (sum the chase equations against `z`).
fn obstruction_from_last_row(
    n: usize,
    k: u32,
    start: Start,
    modulus: u32,
    w: &[u32],
) -> Result<Obstruction, String> {
    let row: Vec<u8> = w.iter().map(|&v| v as u8).collect();
    let down = quiet_pattern(n, k, &row);
    let mut pattern = vec![0u8; n * n];
    for r in 0..n {
        pattern[r * n..(r + 1) * n].copy_from_slice(&down[(n - 1 - r) * n..(n - r) * n]);
    }
    let value = (0..n * n)
        .map(|i| pattern[i] as u64 * start.colour(i, k) as u64 % k as u64)
        .sum::<u64>()
        % k as u64;
    if value == 0 {
        return Err("internal error: the obstruction pattern does not separate the start".into());
    }
    Ok(Obstruction {
        modulus,
        pattern,
        value: value as u32,
    })
}

/// Two colours, bit-packed throughout.
fn solve_binary(n: usize, start: Start, options: &SolveOptions) -> Result<Solution, String> {
    let w = gf2::words(n);
    let zero = vec![0u64; w];
    let c_n = binary::chase(n, start, &zero, |_, _| {});
    let (x0, kernel) = binary::solve_first_row(n, &c_n);
    let to_bytes = |bits: &[u64]| -> Vec<u8> { (0..n).map(|i| gf2::get(bits, i) as u8).collect() };
    let quiet_first_rows: Vec<(Vec<u8>, u32)> = kernel.iter().map(|g| (to_bytes(g), 2)).collect();
    let quiet_count = BigCount::power(2, kernel.len() as u32);
    let moduli = vec![ModulusSummary {
        modulus: 2,
        prime: 2,
        solvable: x0.is_some(),
        kernel_exponent: kernel.len() as u32,
    }];
    let Some(x0) = x0 else {
        let failing = kernel
            .iter()
            .find(|g| gf2::dot(g, &c_n))
            .ok_or("internal error: unsolvable system without a failing kernel vector")?;
        let row: Vec<u32> = (0..n).map(|i| gf2::get(failing, i) as u32).collect();
        let obstruction = obstruction_from_last_row(n, 2, start, 2, &row)?;
        return Ok(Solution {
            n,
            k: 2,
            solvable: false,
            count: BigCount::zero(),
            quiet_count,
            presses: None,
            fewest: false,
            obstruction: Some(obstruction),
            moduli,
            quiet_first_rows,
        });
    };
    // Whole-board patterns as one flat bit vector, rows of `w` words.
    let flat_chase = |start: Start, first: &[u64]| -> (Bits, Bits) {
        let mut flat = vec![0u64; n * w];
        let residual = binary::chase(n, start, first, |r, row| {
            flat[r * w..(r + 1) * w].copy_from_slice(row)
        });
        (flat, residual)
    };
    let (mut flat, residual) = flat_chase(start, &x0);
    if residual.iter().any(|&x| x != 0) {
        return Err("internal error: the computed first row does not solve the puzzle".into());
    }
    let count = quiet_count.clone();
    let mut fewest = kernel.is_empty();
    if options.fewest && !fewest {
        let c = 1u64 << kernel.len().min(63);
        if kernel.len() < 63
            && c <= options.max_search_solutions
            && c.saturating_mul((n * w) as u64) <= options.max_search_work
        {
            let gens: Vec<Bits> = kernel
                .iter()
                .map(|g| flat_chase(Start::Zero, g).0)
                .collect();
            // Stopped by the caller's budget: the solution found, not proven fewest.
            if let Some((best, _)) = fewest::fewest_bits(&flat, &gens) {
                flat = best;
                fewest = true;
            }
        }
    }
    let mut presses = vec![0u8; n * n];
    for r in 0..n {
        let row = &flat[r * w..(r + 1) * w];
        for (c, p) in presses[r * n..(r + 1) * n].iter_mut().enumerate() {
            *p = ((row[c / 64] >> (c % 64)) & 1) as u8;
        }
    }
    Ok(Solution {
        n,
        k: 2,
        solvable: true,
        count,
        quiet_count,
        presses: Some(presses),
        fewest,
        obstruction: None,
        moduli,
        quiet_first_rows,
    })
}

/// Applies press counts to a start: the colours afterwards (row-major).
pub fn apply_presses(n: usize, k: u32, start: Start, presses: &[u8]) -> Vec<u8> {
    let mut out: Vec<u8> = (0..n * n).map(|i| start.colour(i, k) as u8).collect();
    let bump = |cell: &mut u8, x: u32| *cell = ((*cell as u32 + x) % k) as u8;
    for r in 0..n {
        for c in 0..n {
            let x = presses[r * n + c] as u32 % k;
            if x == 0 {
                continue;
            }
            let i = r * n + c;
            bump(&mut out[i], x);
            if r > 0 {
                bump(&mut out[i - n], x);
            }
            if r + 1 < n {
                bump(&mut out[i + n], x);
            }
            if c > 0 {
                bump(&mut out[i - 1], x);
            }
            if c + 1 < n {
                bump(&mut out[i + 1], x);
            }
        }
    }
    out
}
