//! The first-row system `M x_0 = b` modulo one prime power `p^e` of the number of
//! colours, solved with polynomials (see [`crate::chase`]): one solution, and the
//! kernel as generators with their orders.

use crate::arith::{self, PrimePower};
use crate::chase::{apply_b, chase_polys, chased_matrix, eval_at_b};
use crate::poly::{self, Poly};
use crate::smith;

/// Kernels are listed in full up to this many vectors (enough for the fewest-presses
/// search); larger ones only when a failing vector must be found.
pub const LIST_KERNEL_UP_TO: u64 = 1 << 20;

/// The answer for `M x_0 = b (mod p^e)`.
#[derive(Clone, Debug)]
pub struct LocalSolution {
    /// One first row, if any.
    pub solution: Option<Vec<u32>>,
    /// Kernel generators `(g, v)`: `g` has order `p^v`, and every kernel vector is
    /// uniquely `sum a_i g_i` with `0 <= a_i < p^v_i` (when `kernel_complete`).
    pub kernel: Vec<(Vec<u32>, u32)>,
    /// Whether `kernel` lists every generator.
    pub kernel_complete: bool,
    /// log_p of the number of kernel vectors.
    pub kernel_exponent: u32,
    /// When unsolvable: a kernel vector `w` with `w . b != 0`. `M` is symmetric, so its
    /// kernel is its left kernel, and over Z/p^e (a self-injective ring) `b` is in the
    /// image iff it is orthogonal to the whole left kernel.
    pub witness: Option<Vec<u32>>,
}

fn dot(a: &[u32], b: &[u32], m: u32) -> u32 {
    (a.iter()
        .zip(b)
        .map(|(&x, &y)| x as u64 * y as u64 % m as u64)
        .sum::<u64>()
        % m as u64) as u32
}

/// Completes a solution whose kernel is listed in full.
fn with_listed_kernel(
    solution: Option<Vec<u32>>,
    kernel: Vec<(Vec<u32>, u32)>,
    b: &[u32],
    m: u32,
) -> LocalSolution {
    let witness = if solution.is_none() {
        kernel
            .iter()
            .find(|(w, _)| dot(w, b, m) != 0)
            .map(|(w, _)| w.clone())
    } else {
        None
    };
    let kernel_exponent = kernel.iter().map(|k| k.1).sum();
    LocalSolution {
        solution,
        kernel,
        kernel_complete: true,
        kernel_exponent,
        witness,
    }
}

/// Solves `M x_0 = b (mod p^e)` by the fastest applicable method.
pub fn solve(n: usize, pp: PrimePower, b: &[u32]) -> LocalSolution {
    if pp.e == 1 {
        solve_field(n, pp.p, b)
    } else {
        solve_prime_power(n, pp, b)
    }
}

/// Over the field Z/pZ: with `d = gcd(q, chi)` and `h = chi / d`, `q f = g` is solvable
/// iff `d | g`, then `f = (g / d) (q / d)^-1 mod h`; the kernel is `h Z/p[y] / chi`,
/// spanned by `y^i h` for `i < deg d`.
pub fn solve_field(n: usize, p: u32, b: &[u32]) -> LocalSolution {
    let (chi, q, g) = chase_polys(n, p, b);
    let q = poly::rem(&q, &chi, p);
    let (d, s) = poly::gcd_ext(&q, &chi, p);
    let (h, _) = poly::divrem(&chi, &d, p);
    let (g_over_d, g_rem) = poly::divrem(&g, &d, p);
    let solution = g_rem.is_empty().then(|| {
        let f = poly::rem(&poly::mul(&g_over_d, &s, p), &h, p);
        eval_at_b(&f, n, p)
    });
    let mut kernel = Vec::new();
    let mut w = eval_at_b(&h, n, p);
    for _ in 0..poly::degree(&d).unwrap_or(0) {
        let next = apply_b(&w, p);
        kernel.push((std::mem::replace(&mut w, next), 1));
    }
    with_listed_kernel(solution, kernel, b, p)
}

/// Over Z/p^eZ (not a field): split `chi = chi_1 chi_2` (lifted from mod p by Hensel's
/// lemma) so that `q` is a unit modulo `chi_2` and nilpotent mod p modulo `chi_1`.
/// The ring splits accordingly: on the `chi_2` part `f` follows digit by digit in base
/// p from the inverse of `q` mod p; the `chi_1` part is usually small and is solved as
/// a dense system (Smith form), which also yields the kernel; the two parts are glued
/// with the Chinese remainder theorem for polynomials.
pub fn solve_prime_power(n: usize, pp: PrimePower, b: &[u32]) -> LocalSolution {
    let (p, m) = (pp.p, pp.m);
    let (chi, q, g) = chase_polys(n, m, b);
    let q = poly::rem(&q, &chi, m);
    let split = Split::mod_p(&poly::reduce(&chi, p), &q, p);
    let d1 = poly::degree(&split.chi1_bar).unwrap_or(0);
    let (chi1, chi2) = split.lift(&chi, n, pp);
    let f2 = solve_unit_part(&q, &g, &chi2, &split.chi2_bar, pp);
    if d1 == 0 {
        // q is a unit modulo all of chi: one solution and no kernel.
        return LocalSolution {
            solution: Some(eval_at_b(&f2, n, m)),
            kernel: Vec::new(),
            kernel_complete: true,
            kernel_exponent: 0,
            witness: None,
        };
    }
    let form = solve_nilpotent_part(&q, &g, &chi1, d1, pp);
    let glue = Glue::new(chi1, chi2, split.t, n, d1, pp);
    let solution = form.solution.as_ref().map(|f1| glue.solution(f1, &f2));

    let kernel_exponent = form.kernel_exponent();
    let small = (p as u64)
        .checked_pow(kernel_exponent)
        .is_some_and(|c| c <= LIST_KERNEL_UP_TO);
    let indices: Vec<usize> = form.kernel_indices().collect();
    let kernel: Vec<(Vec<u32>, u32)> = if small {
        let coords: Vec<Vec<u32>> = indices.iter().map(|&t| form.kernel_vector(t)).collect();
        glue.to_vectors(&coords)
            .into_iter()
            .zip(indices.iter().map(|&t| form.order_exponent(t)))
            .collect()
    } else {
        Vec::new()
    };
    let witness = if form.solution.is_some() {
        None
    } else {
        // w . b for the vector of coordinates a is a . (E^T b) with E_j = B^j e1(B) e_0;
        // projecting b once spares building every kernel vector (the kernel may be
        // too large to list).
        let projected: Vec<u32> = glue.basis().map(|e| dot(&e, b, m)).collect();
        indices
            .iter()
            .map(|&t| form.kernel_vector(t))
            .find(|a| dot(a, &projected, m) != 0)
            .map(|a| glue.to_vectors(&[a]).remove(0))
    };
    LocalSolution {
        solution,
        kernel,
        kernel_complete: small,
        kernel_exponent,
        witness,
    }
}

/// `chi mod p = chi1_bar * chi2_bar` with coprime factors: `chi1_bar` holds the full
/// powers of the primes of `d = gcd(q, chi mod p)` (where `q` is nilpotent) and
/// `chi2_bar` the rest (where `q` is a unit).
struct Split {
    chi1_bar: Poly,
    chi2_bar: Poly,
    /// `chi2_bar^-1 mod chi1_bar` (the Bezout inverse the lifting and the gluing
    /// start from), when `chi1_bar` is not constant.
    t: Option<Poly>,
}

impl Split {
    fn mod_p(chi_bar: &Poly, q: &Poly, p: u32) -> Split {
        let mut chi2_bar = chi_bar.clone();
        let mut chi1_bar: Poly = vec![1];
        let mut u = poly::gcd(q, chi_bar, p);
        while poly::degree(&u).unwrap_or(0) > 0 {
            let (quot, r) = poly::divrem(&chi2_bar, &u, p);
            debug_assert!(r.is_empty());
            chi2_bar = quot;
            chi1_bar = poly::mul(&chi1_bar, &u, p);
            // Squaring u reaches any multiplicity in O(log n) rounds.
            let uu = poly::rem(&poly::mul(&u, &u, p), &chi2_bar, p);
            u = poly::gcd(&chi2_bar, &uu, p);
        }
        let t = (poly::degree(&chi1_bar).unwrap_or(0) > 0)
            .then(|| poly::inverse_mod(&poly::rem(&chi2_bar, &chi1_bar, p), &chi1_bar, p));
        Split {
            chi1_bar,
            chi2_bar,
            t: t.flatten(),
        }
    }

    /// The factors `(chi1, chi2)` of `chi` modulo `p^e` that reduce to this split:
    /// Hensel lifting, one p-adic digit at a time.
    fn lift(&self, chi: &Poly, n: usize, pp: PrimePower) -> (Poly, Poly) {
        let (p, m) = (pp.p, pp.m);
        let d1 = poly::degree(&self.chi1_bar).unwrap_or(0);
        if d1 == 0 {
            return (vec![1], chi.clone());
        }
        if d1 == n {
            return (chi.clone(), vec![1]);
        }
        let t = self
            .t
            .as_ref()
            .expect("coprime factors have a Bezout inverse");
        let (mut chi1, mut chi2) = (self.chi1_bar.clone(), self.chi2_bar.clone());
        let mut pi = 1u32;
        for _ in 1..pp.e {
            pi *= p;
            // The next digit of chi - chi1 chi2 (the lower ones are zero).
            let prod = poly::mul(&chi1, &chi2, m);
            let err: Poly = (0..n)
                .map(|j| {
                    let diff = arith::sub(
                        chi.get(j).copied().unwrap_or(0),
                        prod.get(j).copied().unwrap_or(0),
                        m,
                    );
                    debug_assert_eq!(diff % pi, 0);
                    (diff / pi) % p
                })
                .collect();
            let err = poly::reduce(&err, p);
            let delta1 = poly::mulmod(t, &poly::rem(&err, &self.chi1_bar, p), &self.chi1_bar, p);
            let (delta2, r) = poly::divrem(
                &poly::sub(&err, &poly::mul(&delta1, &self.chi2_bar, p), p),
                &self.chi1_bar,
                p,
            );
            debug_assert!(r.is_empty());
            chi1 = poly::add(&chi1, &poly::scale(&delta1, pi, m), m);
            chi2 = poly::add(&chi2, &poly::scale(&delta2, pi, m), m);
        }
        (chi1, chi2)
    }
}

/// The unit part: `f2` with `q f2 = g (mod chi2)`, one p-adic digit at a time from
/// the inverse of `q` mod `(p, chi2_bar)` (empty when `chi2` is constant).
fn solve_unit_part(q: &Poly, g: &Poly, chi2: &Poly, chi2_bar: &Poly, pp: PrimePower) -> Poly {
    let (p, m) = (pp.p, pp.m);
    let mut f2: Poly = Vec::new();
    if poly::degree(chi2).unwrap_or(0) == 0 {
        return f2;
    }
    let q2 = poly::rem(q, chi2, m);
    let u_bar =
        poly::inverse_mod(&poly::reduce(&q2, p), chi2_bar, p).expect("q is a unit mod chi2");
    let mut residual = poly::rem(g, chi2, m);
    let mut pi = 1u32;
    for _ in 0..pp.e {
        let digit = poly::reduce(
            &residual.iter().map(|&c| (c / pi) % p).collect::<Vec<_>>(),
            p,
        );
        let delta = poly::mulmod(&u_bar, &digit, chi2_bar, p);
        f2 = poly::add(&f2, &poly::scale(&delta, pi, m), m);
        let correction = poly::scale(&poly::mulmod(&q2, &delta, chi2, m), pi, m);
        residual = poly::sub(&residual, &correction, m);
        pi = pi.saturating_mul(p);
    }
    debug_assert!(residual.is_empty());
    f2
}

/// The nilpotent part: `q f1 = g (mod chi1)` as a dense `d1 x d1` system (column `j`
/// is `y^j q mod chi1`), in Smith form, which gives its kernel too.
fn solve_nilpotent_part(
    q: &Poly,
    g: &Poly,
    chi1: &Poly,
    d1: usize,
    pp: PrimePower,
) -> smith::SmithForm {
    let m = pp.m;
    let mut matrix = vec![0u8; d1 * d1];
    let mut col = poly::rem(q, chi1, m);
    for j in 0..d1 {
        for (i, &c) in col.iter().enumerate() {
            matrix[i * d1 + j] = c as u8;
        }
        col = poly::rem(&shift_up(&col), chi1, m);
    }
    let mut rhs = poly::rem(g, chi1, m);
    rhs.resize(d1, 0);
    smith::smith(d1, matrix, rhs, pp)
}

/// Gluing the two parts: `w = chi2^-1 mod chi1` (Newton iteration from the mod-p
/// inverse); the idempotent `e1 = chi2 w` is 1 mod chi1 and 0 mod chi2, so a pair
/// (a mod chi1, c mod chi2) is `c + e1 (a - c)`, and a alone maps to the vector
/// `sum a_j B^j e1(B) e_0`.
struct Glue {
    chi1: Poly,
    chi2: Poly,
    w: Poly,
    /// `e1(B) e_0`, the first of the basis vectors of the `chi1` part.
    e1_vector: Vec<u32>,
    n: usize,
    d1: usize,
    m: u32,
}

impl Glue {
    fn new(chi1: Poly, chi2: Poly, t: Option<Poly>, n: usize, d1: usize, pp: PrimePower) -> Glue {
        let m = pp.m;
        let mut w = t.unwrap_or_else(|| vec![1]);
        let chi2_mod_chi1 = poly::rem(&chi2, &chi1, m);
        // Each step doubles the p-adic digits that are right.
        let mut precision = 1;
        while precision < pp.e {
            let two_minus = poly::sub(&[2 % m], &poly::mulmod(&chi2_mod_chi1, &w, &chi1, m), m);
            w = poly::mulmod(&w, &two_minus, &chi1, m);
            precision *= 2;
        }
        let e1_vector = eval_at_b(&poly::mul(&chi2, &w, m), n, m);
        Glue {
            chi1,
            chi2,
            w,
            e1_vector,
            n,
            d1,
            m,
        }
    }

    /// The first row whose parts are `f1` (mod chi1) and `f2` (mod chi2).
    fn solution(&self, f1: &[u32], f2: &Poly) -> Vec<u32> {
        let m = self.m;
        let mut f1 = f1.to_vec();
        poly::trim(&mut f1);
        let diff = poly::sub(&f1, &poly::rem(f2, &self.chi1, m), m);
        let f = poly::add(
            f2,
            &poly::mul(&self.chi2, &poly::mulmod(&self.w, &diff, &self.chi1, m), m),
            m,
        );
        eval_at_b(&f, self.n, m)
    }

    /// The vectors `B^j e1(B) e_0` for `j < d1`.
    fn basis(&self) -> impl Iterator<Item = Vec<u32>> + '_ {
        let m = self.m;
        std::iter::successors(Some(self.e1_vector.clone()), move |v| Some(apply_b(v, m)))
            .take(self.d1)
    }

    /// First rows of the `chi1` part's vectors given by their coordinates in
    /// [`Glue::basis`] (the basis is walked once for all of them).
    fn to_vectors(&self, coords: &[Vec<u32>]) -> Vec<Vec<u32>> {
        let m = self.m as u64;
        let mut out = vec![vec![0u64; self.n]; coords.len()];
        for (j, e) in self.basis().enumerate() {
            for (acc, a) in out.iter_mut().zip(coords) {
                let c = a[j] as u64;
                if c != 0 {
                    for (x, &v) in acc.iter_mut().zip(&e) {
                        *x = (*x + c * v as u64) % m;
                    }
                }
            }
        }
        out.into_iter()
            .map(|v| v.into_iter().map(|x| x as u32).collect())
            .collect()
    }
}

/// `y * a`.
fn shift_up(a: &[u32]) -> Poly {
    if a.is_empty() {
        return Vec::new();
    }
    let mut r = vec![0];
    r.extend_from_slice(a);
    r
}

/// The O(n^3) reference: Smith form of the explicitly chased matrix.
pub fn solve_dense(n: usize, pp: PrimePower, b: &[u32]) -> LocalSolution {
    let form = smith::solve_rows(&chased_matrix(n, pp.m), b, pp);
    let kernel = form
        .kernel_indices()
        .map(|t| (form.kernel_vector(t), form.order_exponent(t)))
        .collect();
    with_listed_kernel(form.solution.clone(), kernel, b, pp.m)
}
