//! The JSON of `tabula solve poggle` and of the analysis (hint, show solution).

use crate::count::BigCount;
use crate::solver::{Solution, SolveOptions};
use crate::text;
use crate::{solve, Start};
use serde_json::{json, Value};
use std::time::Instant;

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

/// Why the start cannot be solved, in words.
pub fn reason_text(sol: &Solution) -> Option<String> {
    let ob = sol.obstruction.as_ref()?;
    Some(format!(
        "the start is not in the column space of the press matrix mod {m}: the quiet pattern in \
         'obstruction' (pressing each button that many times changes no button) makes the sum over \
         all buttons of pattern x colour (mod {k}) an invariant of every press; it is 0 when every \
         button shows 0 but {v} on this start, so no presses can solve it",
        m = ob.modulus,
        k = sol.k,
        v = ob.value
    ))
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
