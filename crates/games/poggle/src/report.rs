//! The JSON of `tabula solve poggle` and of the analysis (hint, show solution).

use crate::count::BigCount;
use crate::solver::{Solution, SolveOptions};
use crate::text;
use crate::{solve, Start};
use serde_json::{json, Value};
use std::time::Instant;
use tabula_core::{
    AnalysisExtra, FactValue, GradedMove, MoveGrade, PuzzleSolution, Section, SolveFigures,
    SolveReport, Table,
};

/// Boards up to this side list presses as arrays of numbers; larger ones as row
/// strings (the position format), which keeps a 10000 x 10000 answer near 100 MB.
pub const MAX_NUMERIC_ROWS: usize = 1000;
/// Boards up to this side include the obstruction's quiet pattern in the JSON.
pub const MAX_PATTERN_ROWS: usize = 64;

/// A count as a JSON number when it is exactly representable (below 2^53), else a
/// decimal string.
pub fn count_json(c: &BigCount) -> Value {
    match c.to_u64() {
        Some(v) if v < (1 << 53) => json!(v),
        _ => json!(c.to_string()),
    }
}

/// Rows of values: arrays of numbers, or strings for large boards.
pub fn rows_json(values: &[u8], n: usize, k: u32) -> Value {
    if n <= MAX_NUMERIC_ROWS {
        Value::Array(values.chunks(n).map(|row| json!(row)).collect())
    } else {
        Value::Array(
            values
                .chunks(n)
                .map(|row| Value::String(text::format_row(row, k)))
                .collect(),
        )
    }
}

/// Why the start cannot be solved, in words for a player (the pattern it
/// speaks of is the JSON's `obstruction.pattern`).
pub fn reason_text(sol: &Solution) -> Option<String> {
    sol.obstruction.as_ref()?;
    Some(impossible_words(sol))
}

/// The full report for a solved (or refuted) board.
pub fn solution_json(sol: &Solution, start_kind: &str, seconds: f64) -> Value {
    let (n, k) = (sol.n, sol.k);
    let obstruction = sol.obstruction.as_ref().map(|ob| {
        json!({
            "modulus": ob.modulus,
            "invariant": ob.value,
            "pattern": if n <= MAX_PATTERN_ROWS { rows_json(&ob.pattern, n, k) } else { Value::Null },
        })
    });
    let moduli: Vec<Value> = sol
        .moduli
        .iter()
        .map(|m| {
            json!({
                "modulus": m.modulus,
                "solvable": m.solvable,
                "quiet_patterns": count_json(&BigCount::power(m.prime, m.kernel_exponent)),
            })
        })
        .collect();
    json!({
        "game": "poggle",
        "size": n,
        "colours": k,
        "start": start_kind,
        "solvable": sol.solvable,
        "solutions": count_json(&sol.count),
        "quiet_patterns": count_json(&sol.quiet_count),
        "presses": sol.presses.as_ref().map(|p| rows_json(p, n, k)),
        "presses_format": if n <= MAX_NUMERIC_ROWS { "numbers" } else { "row-text" },
        "fewest": sol.fewest,
        "fewest_measure": "total presses: the sum of the press counts, each counted 0 to colours-1",
        "total_presses": sol.total_presses(),
        "pressed_buttons": sol.pressed_buttons(),
        "reason": reason_text(sol),
        "obstruction": obstruction,
        "moduli": moduli,
        "seconds": seconds,
    })
}

/// Solves and reports: `start` is the colours (row-major) or `None` for all ones.
pub fn solve_json(
    n: usize,
    k: u32,
    start: Option<&[u8]>,
    start_kind: &str,
    options: &SolveOptions,
) -> Result<Value, String> {
    let began = Instant::now();
    let s = match start {
        Some(g) => Start::Grid(g),
        None => Start::Ones,
    };
    let sol = solve(n, k, s, options)?;
    let seconds = began.elapsed().as_secs_f64();
    Ok(solution_json(&sol, start_kind, seconds))
}

/// A count as a fact: a whole number when it fits, else its decimal digits.
pub fn count_fact(c: &BigCount) -> FactValue {
    match c.to_u64().and_then(|v| i64::try_from(v).ok()) {
        Some(v) => FactValue::Integer(v),
        None => FactValue::Text(c.to_string()),
    }
}

/// Press counts as the typed solution: numbers row by row, or text rows on
/// boards wider than [`MAX_NUMERIC_ROWS`] (what the position notation writes).
pub fn presses_solution(presses: &[u8], n: usize, k: u32) -> PuzzleSolution {
    let total = presses.iter().map(|&v| v as u64).sum();
    if n <= MAX_NUMERIC_ROWS {
        PuzzleSolution::Presses {
            grid: presses.chunks(n.max(1)).map(<[u8]>::to_vec).collect(),
            rows: Vec::new(),
            total,
        }
    } else {
        PuzzleSolution::Presses {
            grid: Vec::new(),
            rows: presses
                .chunks(n.max(1))
                .map(|row| text::format_row(row, k))
                .collect(),
            total,
        }
    }
}

/// A short reason a board cannot be solved, for a player: no algebra's words,
/// and the pattern it speaks of is shown with it (on boards up to
/// [`MAX_PATTERN_ROWS`] a side).
fn impossible_words(sol: &Solution) -> String {
    match &sol.obstruction {
        Some(ob) => format!(
            "No presses can solve this board. Pressing each button as often as {} shows \
             changes no button at all, so no press changes this total: each button's colour \
             times its number in the pattern, all added up, keeping only the remainder after \
             dividing by {}. The total is {} here but 0 on a solved board.",
            if sol.n <= MAX_PATTERN_ROWS {
                "the pattern"
            } else {
                "a certain pattern"
            },
            ob.modulus,
            ob.value
        ),
        None => "No presses can solve this board.".into(),
    }
}

/// The section of an unsolvable board: why, with the pattern.
fn impossible_section(sol: &Solution) -> Section {
    let mut why = Section::new("Why it cannot be solved").note(impossible_words(sol));
    if let Some(ob) = sol
        .obstruction
        .as_ref()
        .filter(|_| sol.n <= MAX_PATTERN_ROWS)
    {
        why.push(
            "Pattern",
            FactValue::Grid(
                ob.pattern
                    .chunks(sol.n.max(1))
                    .map(|r| r.iter().map(|&v| v as i64).collect())
                    .collect(),
            ),
        );
    }
    why
}

/// What the solver found, as sections: the counts, the proof of impossibility,
/// and each prime power of the number of colours.
fn solution_sections(sol: &Solution) -> Vec<Section> {
    let mut found = Section::new("Solutions")
        .with("Solvable", FactValue::Flag(sol.solvable))
        .with("Solutions", count_fact(&sol.count))
        .with(
            "Quiet patterns (presses that change nothing)",
            count_fact(&sol.quiet_count),
        );
    if let (Some(total), Some(buttons)) = (sol.total_presses(), sol.pressed_buttons()) {
        found.push("Presses in all", FactValue::Integer(total as i64));
        found.push("Buttons pressed", FactValue::Integer(buttons as i64));
        found.push("Proven the fewest presses", FactValue::Flag(sol.fewest));
    }
    let mut out = vec![found];
    if let Some(ob) = &sol.obstruction {
        let mut why = Section::new("Why it cannot be solved")
            .note(impossible_words(sol))
            .with("Modulus", FactValue::Integer(ob.modulus as i64))
            .with("The sum on this board", FactValue::Integer(ob.value as i64));
        if sol.n <= MAX_PATTERN_ROWS {
            why.push(
                "Pattern",
                FactValue::Grid(
                    ob.pattern
                        .chunks(sol.n.max(1))
                        .map(|r| r.iter().map(|&v| v as i64).collect())
                        .collect(),
                ),
            );
        }
        out.push(why);
    }
    if sol.moduli.len() > 1 {
        let rows = sol
            .moduli
            .iter()
            .map(|m| {
                vec![
                    m.modulus.to_string(),
                    if m.solvable { "yes" } else { "no" }.to_string(),
                    BigCount::power(m.prime, m.kernel_exponent).to_string(),
                ]
            })
            .collect();
        out.push(
            Section::new("By prime power of the colours").with(
                "Moduli",
                FactValue::Table(Table {
                    columns: ["modulus", "solvable", "quiet patterns"]
                        .map(String::from)
                        .to_vec(),
                    rows,
                }),
            ),
        );
    }
    out
}

/// The typed `tabula solve poggle` report for a solved (or refuted) board.
pub fn solution_report(sol: &Solution, start_kind: &str, seconds: f64, torus: bool) -> SolveReport {
    let (n, k) = (sol.n, sol.k);
    let summary = match sol.total_presses() {
        Some(total) if sol.solvable => format!(
            "This board can be solved with {total} press{}{}.",
            if total == 1 { "" } else { "es" },
            if sol.fewest {
                ", the fewest possible"
            } else {
                " (not proven the fewest)"
            }
        ),
        _ => "This board cannot be solved.".into(),
    };
    let start = match start_kind {
        "ones" => "every button showing 1",
        "random" => "a random board",
        _ => "the position given",
    };
    let mut sections = vec![Section::new("The board")
        .with("Size", FactValue::Text(format!("{n}x{n}")))
        .with("Colours", FactValue::Integer(k as i64))
        .with("Start", FactValue::Text(start.into()))
        .with(
            "Edges",
            FactValue::Text(if torus { "wrap around" } else { "closed" }.into()),
        )];
    sections.extend(solution_sections(sol));
    SolveReport {
        summary,
        position: None,
        value: None,
        solution: Some(match &sol.presses {
            Some(p) if sol.solvable => presses_solution(p, n, k),
            _ => PuzzleSolution::Impossible {
                reason: impossible_words(sol),
            },
        }),
        counts: None,
        sections,
        figures: SolveFigures {
            positions: None,
            seconds,
            peak_bytes: None,
            sweeps: None,
            first_mover_wins: None,
        },
    }
}

/// Solves and reports, typed: `start` is the colours (row-major) or `None` for all ones.
pub fn solve_report(
    n: usize,
    k: u32,
    start: Option<&[u8]>,
    start_kind: &str,
    options: &SolveOptions,
) -> Result<SolveReport, String> {
    let began = Instant::now();
    let s = match start {
        Some(g) => Start::Grid(g),
        None => Start::Ones,
    };
    let sol = solve(n, k, s, options)?;
    let seconds = began.elapsed().as_secs_f64();
    Ok(solution_report(&sol, start_kind, seconds, false))
}

/// What a hint or an analysis shows of a position: the solution from here as a
/// grid of presses, and its presses first in the list of moves.
pub fn analysis_extra(sol: &Solution) -> AnalysisExtra {
    let n = sol.n;
    let mut section = Section::new("Solution from here");
    match sol.presses.as_ref().filter(|_| sol.solvable) {
        // A solved board: nothing to press (never "0 presses in all solve it").
        Some(p) if p.iter().all(|&v| v == 0) => {
            section = section
                .note("Every button already shows the goal colour: nothing is left to press.");
        }
        Some(p) => {
            let total: u64 = p.iter().map(|&v| v as u64).sum();
            section = section.note(format!(
                "Press each button as often as the grid says ({total} press{} in all{}); \
                 the order does not matter.",
                if total == 1 { "" } else { "es" },
                if sol.fewest { ", the fewest" } else { "" }
            ));
            if n <= MAX_PATTERN_ROWS {
                section.push(
                    "Presses",
                    FactValue::Grid(
                        p.chunks(n.max(1))
                            .map(|r| r.iter().map(|&v| v as i64).collect())
                            .collect(),
                    ),
                );
            }
            section.push("Solutions", count_fact(&sol.count));
        }
        None => section = impossible_section(sol),
    }
    let moves = sol.presses.as_ref().filter(|_| sol.solvable).map(|p| {
        let total: u64 = p.iter().map(|&v| v as u64).sum();
        let mut moves: Vec<GradedMove> = Vec::with_capacity(n * n);
        let mut rest = Vec::new();
        for (i, &v) in p.iter().enumerate() {
            let m = GradedMove {
                notation: text::format_press(i / n.max(1), i % n.max(1)),
                cells: vec![i as u32],
                grade: if v > 0 {
                    MoveGrade::Plan { moves_left: total }
                } else {
                    MoveGrade::Ungraded
                },
            };
            if v > 0 {
                moves.push(m);
            } else {
                rest.push(m);
            }
        }
        moves.extend(rest);
        moves
    });
    AnalysisExtra {
        value: None,
        moves,
        sections: vec![section],
    }
}
