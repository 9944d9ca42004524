//! The solver against the blog's tables, published counts, brute force and itself.

use proptest::prelude::*;
use tabula_poggle::{apply_presses, quiet_pattern, solve, Method, SolveOptions, Start};

fn opts(method: Method) -> SolveOptions {
    SolveOptions {
        method,
        ..SolveOptions::default()
    }
}

/// (n, k, presses) blocks of `data/seed_solutions.txt`; `cover` blocks give one per k in 2..=5.
fn seed_tables() -> Vec<(usize, u32, Vec<u8>)> {
    let text = include_str!("data/seed_solutions.txt");
    let mut out = Vec::new();
    let mut lines = text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty());
    while let Some(header) = lines.next() {
        let mut parts = header.split_whitespace();
        let n: usize = parts.next().unwrap().parse().unwrap();
        let kind = parts.next().unwrap();
        let rows: Vec<&str> = (0..n).map(|_| lines.next().unwrap()).collect();
        assert!(rows.iter().all(|r| r.len() == n), "block {header}");
        if kind == "cover" {
            for k in 2..=5u32 {
                let cells = rows.iter().flat_map(|r| r.bytes()).map(|b| {
                    if b == b'X' {
                        (k - 1) as u8
                    } else {
                        0
                    }
                });
                out.push((n, k, cells.collect()));
            }
        } else {
            let k: u32 = kind.parse().unwrap();
            out.push((
                n,
                k,
                rows.iter()
                    .flat_map(|r| r.bytes())
                    .map(|b| b - b'0')
                    .collect(),
            ));
        }
    }
    out
}

#[test]
fn seed_solutions_verify_and_unique_ones_match() {
    let tables = seed_tables();
    assert_eq!(tables.len(), 16 + 8);
    for (n, k, presses) in tables {
        let after = apply_presses(n, k, Start::Ones, &presses);
        assert!(
            after.iter().all(|&c| c == 0),
            "seed table {n}x{n} k={k} does not solve the board"
        );
        let sol = solve(n, k, Start::Ones, &SolveOptions::default()).unwrap();
        assert!(sol.solvable);
        if sol.count.to_u64() == Some(1) {
            assert_eq!(
                sol.presses.as_deref(),
                Some(&presses[..]),
                "unique solution {n}x{n} k={k}"
            );
        }
    }
}

#[test]
fn three_by_three_has_exactly_one_solution_for_two_to_five_colours() {
    for k in 2..=5 {
        for method in [Method::Auto, Method::Polynomial, Method::Dense] {
            let sol = solve(3, k, Start::Ones, &opts(method)).unwrap();
            assert_eq!(sol.count.to_string(), "1", "k={k} {method:?}");
        }
    }
}

#[test]
fn lights_out_nullity_is_oeis_a159257() {
    let expected = [
        0u32, 0, 0, 4, 2, 0, 0, 0, 8, 0, 6, 0, 0, 4, 0, 8, 2, 0, 16, 0,
    ];
    for (i, &nullity) in expected.iter().enumerate() {
        let n = i + 1;
        for method in [Method::Auto, Method::Polynomial, Method::Dense] {
            let sol = solve(
                n,
                2,
                Start::Zero,
                &SolveOptions {
                    fewest: false,
                    ..opts(method)
                },
            )
            .unwrap();
            assert_eq!(
                sol.quiet_count.to_string(),
                (1u64 << nullity).to_string(),
                "n={n} {method:?}"
            );
            assert_eq!(sol.moduli[0].kernel_exponent, nullity);
        }
    }
}

/// All press vectors of a tiny board: (number of solutions, fewest presses).
fn brute_force(n: usize, k: u32, start: &[u8]) -> (u64, Option<u64>) {
    let cells = n * n;
    let total = (k as u64).pow(cells as u32);
    let mut count = 0;
    let mut best: Option<u64> = None;
    let mut x = vec![0u8; cells];
    for _ in 0..total {
        if apply_presses(n, k, Start::Grid(start), &x)
            .iter()
            .all(|&c| c == 0)
        {
            count += 1;
            let s: u64 = x.iter().map(|&v| v as u64).sum();
            best = Some(best.map_or(s, |b| b.min(s)));
        }
        for v in x.iter_mut() {
            *v += 1;
            if (*v as u32) < k {
                break;
            }
            *v = 0;
        }
    }
    (count, best)
}

fn lcg(seed: &mut u64) -> u64 {
    *seed = seed
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    *seed >> 33
}

#[test]
fn counts_and_fewest_match_brute_force_on_tiny_boards() {
    let mut seed = 7;
    let cases: &[(usize, u32, usize)] = &[
        (1, 2, 2),
        (1, 7, 4),
        (2, 2, 8),
        (2, 3, 6),
        (2, 4, 6),
        (2, 6, 4),
        (2, 8, 4),
        (2, 9, 3),
        (2, 12, 3),
        (3, 2, 8),
        (3, 3, 3),
        (3, 4, 2),
        (4, 2, 6),
    ];
    for &(n, k, tries) in cases {
        for t in 0..tries {
            let start: Vec<u8> = (0..n * n)
                .map(|_| (lcg(&mut seed) % k as u64) as u8)
                .collect();
            let (count, best) = brute_force(n, k, &start);
            for method in [Method::Auto, Method::Polynomial, Method::Dense] {
                let sol = solve(n, k, Start::Grid(&start), &opts(method)).unwrap();
                assert_eq!(
                    sol.count.to_string(),
                    count.to_string(),
                    "n={n} k={k} try {t} {method:?} start {start:?}"
                );
                assert_eq!(sol.solvable, count > 0);
                if let Some(best) = best {
                    assert!(sol.fewest);
                    assert_eq!(
                        sol.total_presses(),
                        Some(best),
                        "fewest n={n} k={k} {method:?}"
                    );
                }
            }
        }
    }
}

#[test]
fn methods_agree_on_medium_boards() {
    let mut seed = 99;
    for n in [5usize, 9, 11, 14, 16, 19, 24, 30] {
        for k in [2u32, 3, 4, 6, 8, 9, 12, 16, 25, 27] {
            let start: Vec<u8> = (0..n * n)
                .map(|_| (lcg(&mut seed) % k as u64) as u8)
                .collect();
            for s in [Start::Ones, Start::Grid(&start)] {
                let base = SolveOptions {
                    fewest: false,
                    ..SolveOptions::default()
                };
                let a = solve(n, k, s, &base).unwrap();
                let b = solve(
                    n,
                    k,
                    s,
                    &SolveOptions {
                        method: Method::Polynomial,
                        ..base.clone()
                    },
                )
                .unwrap();
                let c = solve(
                    n,
                    k,
                    s,
                    &SolveOptions {
                        method: Method::Dense,
                        ..base.clone()
                    },
                )
                .unwrap();
                for sol in [&a, &b, &c] {
                    assert_eq!(sol.solvable, a.solvable, "n={n} k={k}");
                    assert_eq!(sol.count, a.count, "n={n} k={k}");
                    assert_eq!(sol.quiet_count, c.quiet_count, "n={n} k={k}");
                    check(n, k, s, sol);
                }
            }
        }
    }
}

/// Every claim of a solution checks out: presses solve, obstructions are quiet and
/// separate the start, quiet generators are quiet.
fn check(n: usize, k: u32, start: Start, sol: &tabula_poggle::Solution) {
    match &sol.presses {
        Some(p) => {
            assert!(sol.solvable);
            assert!(p.iter().all(|&v| (v as u32) < k));
            assert!(
                apply_presses(n, k, start, p).iter().all(|&c| c == 0),
                "n={n} k={k}: presses do not solve"
            );
        }
        None => {
            assert!(!sol.solvable);
            let ob = sol
                .obstruction
                .as_ref()
                .expect("unsolvable comes with a reason");
            assert!(
                apply_presses(n, k, Start::Zero, &ob.pattern)
                    .iter()
                    .all(|&c| c == 0),
                "pattern not quiet"
            );
            let value = (0..n * n)
                .map(|i| ob.pattern[i] as u64 * start.colour(i, k) as u64)
                .sum::<u64>()
                % k as u64;
            assert_eq!(value, ob.value as u64);
            assert_ne!(value, 0);
        }
    }
    for (row, order) in &sol.quiet_first_rows {
        let z = quiet_pattern(n, k, row);
        assert!(apply_presses(n, k, Start::Zero, &z).iter().all(|&c| c == 0));
        assert!(z.iter().any(|&v| v != 0));
        // order * z = 0
        assert!(z
            .iter()
            .all(|&v| (v as u64 * *order as u64) % k as u64 == 0));
    }
}

#[test]
fn big_lights_out_boards_solve() {
    for n in [100usize, 257, 500] {
        let sol = solve(
            n,
            2,
            Start::Ones,
            &SolveOptions {
                fewest: false,
                ..SolveOptions::default()
            },
        )
        .unwrap();
        check(n, 2, Start::Ones, &sol);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn returned_solutions_solve_random_starts(n in 1usize..=12, k in 2u32..=12, seed in any::<u64>()) {
        let mut s = seed;
        let start: Vec<u8> = (0..n * n).map(|_| (lcg(&mut s) % k as u64) as u8).collect();
        let sol = solve(n, k, Start::Grid(&start), &SolveOptions::default()).unwrap();
        check(n, k, Start::Grid(&start), &sol);
    }

    #[test]
    fn boards_made_by_pressing_are_never_called_unsolvable(n in 1usize..=12, k in 2u32..=12, seed in any::<u64>()) {
        let mut s = seed;
        let presses: Vec<u8> = (0..n * n).map(|_| (lcg(&mut s) % k as u64) as u8).collect();
        let board = apply_presses(n, k, Start::Zero, &presses);
        let sol = solve(n, k, Start::Grid(&board), &SolveOptions::default()).unwrap();
        prop_assert!(sol.solvable, "n={} k={} board {:?}", n, k, board);
        check(n, k, Start::Grid(&board), &sol);
    }
}

#[test]
fn large_kernels_modulo_prime_powers_still_explain_unsolvable_starts() {
    // 19x19 has 2^16 quiet patterns mod 2; mod 4 and mod 8 there are more than the
    // 2^20 the solver lists, so the reason comes from the projected search.
    let mut seed = 3;
    for k in [4u32, 8, 12] {
        let start: Vec<u8> = (0..19 * 19)
            .map(|_| (lcg(&mut seed) % k as u64) as u8)
            .collect();
        let sol = solve(19, k, Start::Grid(&start), &SolveOptions::default()).unwrap();
        assert!(!sol.solvable);
        assert!(
            sol.quiet_count.to_u64().unwrap() > 1 << 20,
            "k={k}: {}",
            sol.quiet_count
        );
        check(19, k, Start::Grid(&start), &sol);
        let dense = solve(19, k, Start::Grid(&start), &opts(Method::Dense)).unwrap();
        assert_eq!(dense.quiet_count, sol.quiet_count);
    }
}

#[test]
fn five_by_five_lights_out_needs_fifteen_presses() {
    // The classic 5x5 Lights Out with every light on: 4 solutions, the shortest 15 presses.
    let sol = solve(5, 2, Start::Ones, &SolveOptions::default()).unwrap();
    assert_eq!(sol.count.to_string(), "4");
    assert!(sol.fewest);
    assert_eq!(sol.total_presses(), Some(15));
}
