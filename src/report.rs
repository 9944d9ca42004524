//! Readable terminal reports of the typed results the games produce
//! ([`tabula_core::results`]: solve, analyze, count, train, hint): wrapped to
//! the terminal's width ([`width`]), aligned tables (comfy-table), grids for
//! rows of numbers, percentages, durations and sizes as the result's types say.
//! Nothing here knows a game or guesses from field names: a game fills typed
//! sections and facts, and every game's are shown the same way.

use comfy_table::{presets::UTF8_FULL_CONDENSED, Cell, CellAlignment, ContentArrangement};
use std::io::IsTerminal;
use tabula_core::{
    Analysis, CountReport, FactValue, GradedMove, Hint, MoveGrade, PuzzleSolution, Remoteness,
    Section, SolveFigures, SolveReport, Table, Training, Value,
};

/// The columns text may use: `COLUMNS` when set, else the terminal's width when
/// printing to one, else 80; never below 40.
pub fn width() -> usize {
    if let Some(n) = std::env::var("COLUMNS")
        .ok()
        .and_then(|c| c.trim().parse::<usize>().ok())
    {
        return n.clamp(40, 1000);
    }
    if std::io::stdout().is_terminal() {
        return (termimad::terminal_size().0 as usize).clamp(40, 1000);
    }
    80
}

/// A whole number with thousands separators: 64140783 → "64,140,783".
pub fn thousands(n: i128) -> String {
    let digits = n.unsigned_abs().to_string();
    let mut out = String::new();
    for (i, ch) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(ch);
    }
    if n < 0 {
        format!("-{out}")
    } else {
        out
    }
}

/// A count with its noun in the right number: "1 legal move", "12 legal moves".
pub fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// A position's text wrapped between its rows (at each `/`), so that no row of a
/// SameGame or Poggle board is cut in two; a row wider than a line is cut.
fn position_lines(position: &str, width: usize, first: &str, rest: &str) -> String {
    let rows: Vec<String> = position.split_inclusive('/').map(str::to_string).collect();
    let room = width.saturating_sub(columns(rest).max(columns(first)));
    if rows.len() < 2 || rows.iter().any(|r| columns(r) > room) {
        return wrap(position, width, first, rest);
    }
    let mut out = String::new();
    let mut line = first.to_string();
    let mut fresh = true;
    for row in rows {
        if !fresh && columns(&line) + columns(&row) > width {
            out += line.trim_end();
            out.push('\n');
            line = rest.to_string();
        }
        line += &row;
        fresh = false;
    }
    out += line.trim_end();
    out.push('\n');
    out
}

/// A duration in seconds as a person reads it: "0.65 ms", "7.99 s".
pub fn duration(seconds: f64) -> String {
    if seconds <= 0.0 || !seconds.is_finite() {
        "0 s".into()
    } else if seconds < 0.001 {
        format!("{:.1} µs", seconds * 1e6)
    } else if seconds < 1.0 {
        format!("{:.2} ms", seconds * 1e3)
    } else if seconds < 120.0 {
        format!("{seconds:.2} s")
    } else {
        format!("{:.1} min", seconds / 60.0)
    }
}

/// A share as a percentage: 0.5041 → "50.4%".
pub fn percent(p: f64) -> String {
    format!("{:.1}%", p * 100.0)
}

/// A number rounded for reading: 2 decimals at most above 1, four significant
/// digits below it, and powers of ten for tiny values (1e-12 is not "0").
fn decimal(x: f64) -> String {
    if x != 0.0 && x.abs() < 1e-4 {
        return format!("{x:.1e}").replace(".0e", "e");
    }
    let places = if x.abs() >= 1.0 || x == 0.0 {
        2
    } else {
        (3 - x.abs().log10().floor() as i32).clamp(2, 8) as usize
    };
    let s = format!("{x:.places$}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" {
        "0".into()
    } else {
        s.to_string()
    }
}

/// The columns `text` takes on a terminal (a wide character takes two, a
/// combining accent none).
pub fn columns(text: &str) -> usize {
    textwrap::core::display_width(text)
}

/// Words wrapped to `width` columns (textwrap, measuring each character's
/// width on a terminal): the first line starts with `first`, the others with
/// `rest`; each `\n` starts a paragraph indented as the other lines. A word
/// longer than a line is cut.
pub fn wrap(text: &str, width: usize, first: &str, rest: &str) -> String {
    let mut out = String::new();
    for (i, paragraph) in text.split('\n').enumerate() {
        let options = textwrap::Options::new(width.max(1))
            .initial_indent(if i == 0 { first } else { rest })
            .subsequent_indent(rest)
            // Not at a hyphen: "--max-memory" cut after "--max-" reads as
            // another option.
            .word_splitter(textwrap::WordSplitter::NoHyphenation)
            .break_words(true);
        for line in textwrap::wrap(paragraph.trim_end(), options) {
            out.push_str(line.trim_end());
            out.push('\n');
        }
    }
    out
}

/// Items in a row separated by `sep`, wrapped at separators, each kept whole.
pub fn list(items: &[String], sep: &str, width: usize, indent: &str) -> String {
    let mut out = String::new();
    let mut line = indent.to_string();
    let mut len = columns(indent);
    let mut any = false;
    for (i, item) in items.iter().enumerate() {
        let piece = if i + 1 < items.len() {
            format!("{item}{}", sep.trim_end())
        } else {
            item.clone()
        };
        let plen = columns(&piece);
        let gap = if any {
            sep.len() - sep.trim_end().len()
        } else {
            0
        };
        if any && len + gap + plen > width {
            out.push_str(line.trim_end());
            out.push('\n');
            line = indent.to_string();
            len = columns(&line);
            any = false;
        }
        if any {
            line.push_str(&" ".repeat(gap));
            len += gap;
        }
        line.push_str(&piece);
        len += plen;
        any = true;
    }
    out.push_str(line.trim_end());
    out.push('\n');
    out
}

/// A table with a header row, at most `width` columns wide; numbers are
/// right-aligned.
pub fn table(header: &[String], rows: &[Vec<String>], width: usize, indent: &str) -> String {
    let mut t = comfy_table::Table::new();
    t.load_preset(UTF8_FULL_CONDENSED)
        .set_content_arrangement(ContentArrangement::Dynamic)
        .set_width(width.saturating_sub(columns(indent)).max(20) as u16)
        .set_header(header.iter().map(Cell::new));
    for row in rows {
        t.add_row(row.iter().enumerate().map(|(i, c)| {
            let numeric = i > 0
                && !c.is_empty()
                && c.chars()
                    .next()
                    .is_some_and(|ch| ch.is_ascii_digit() || ch == '-' || ch == '+' || ch == '≤')
                && c.chars().all(|ch| {
                    ch.is_ascii_digit() || ",.%-+ ≤()".contains(ch) || ch.is_alphabetic()
                })
                && c.chars().filter(|ch| ch.is_alphabetic()).count() <= 3;
            let cell = Cell::new(c);
            if numeric {
                cell.set_alignment(CellAlignment::Right)
            } else {
                cell
            }
        }));
    }
    t.to_string()
        .lines()
        .map(|l| format!("{indent}{l}\n"))
        .collect()
}

/// A grid of numbers with 1-based row and column numbers, 0 shown as `.`; a
/// grid wider than `width` is shown in bands of columns.
pub fn grid(rows: &[Vec<i64>], width: usize, indent: &str) -> String {
    let cols = rows.iter().map(Vec::len).max().unwrap_or(0);
    if cols == 0 {
        return String::new();
    }
    let cell = rows
        .iter()
        .flatten()
        .map(|v| v.to_string().len())
        .max()
        .unwrap_or(1)
        .max(cols.to_string().len());
    let label = rows.len().to_string().len();
    let room = width.saturating_sub(columns(indent) + label + 1);
    let per_band = (room / (cell + 1)).max(1);
    let mut out = String::new();
    let mut start = 0;
    while start < cols {
        let end = (start + per_band).min(cols);
        out += &format!("{indent}{:label$} ", "");
        for c in start + 1..=end {
            out += &format!(" {c:>cell$}");
        }
        out.push('\n');
        for (r, row) in rows.iter().enumerate() {
            out += &format!("{indent}{:>label$} ", r + 1);
            for v in row.iter().take(end).skip(start) {
                let shown = if *v == 0 {
                    ".".to_string()
                } else {
                    v.to_string()
                };
                out += &format!(" {shown:>cell$}");
            }
            out.push('\n');
        }
        start = end;
    }
    out
}

/// A fact's value on one line, when it has one (not grids or tables).
pub fn inline(value: &FactValue) -> Option<String> {
    Some(match value {
        FactValue::Text(t) => t.clone(),
        FactValue::Integer(n) => thousands(*n as i128),
        FactValue::Number(x) => decimal(*x),
        FactValue::Percent(p) => percent(*p),
        FactValue::Seconds(s) => duration(*s),
        FactValue::Bytes(b) => tabula_core::format_bytes(*b),
        FactValue::Flag(b) => if *b { "yes" } else { "no" }.into(),
        FactValue::List(items) if items.is_empty() => "none".into(),
        FactValue::List(items) => items.join(", "),
        FactValue::Phrases(items) if items.is_empty() => "none".into(),
        FactValue::Phrases(items) => items
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(", "),
        FactValue::Grid(_) | FactValue::Table(_) => return None,
    })
}

/// Sections as blocks: the title, the note, then each fact.
pub fn sections_text(sections: &[Section], width: usize) -> String {
    let mut out = String::new();
    for s in sections {
        out += &wrap(&format!("{}:", s.title), width, "", "  ");
        if let Some(note) = &s.note {
            out += &wrap(note, width, "  ", "  ");
        }
        for f in &s.facts {
            match &f.value {
                FactValue::Grid(rows) => {
                    out += &wrap(&format!("{}:", f.label), width, "  ", "    ");
                    out += &grid(rows, width, "    ");
                }
                FactValue::Table(Table { columns, rows }) => {
                    // A section holding one table needs no second heading.
                    if s.facts.len() > 1 {
                        out += &wrap(&format!("{}:", f.label), width, "  ", "    ");
                    }
                    out += &table(columns, rows, width, "  ");
                }
                other => {
                    let text = inline(other).unwrap_or_default();
                    out += &wrap(&format!("{}: {text}", f.label), width, "  ", "      ");
                }
            }
        }
    }
    out
}

/// "a win for X in 11 plies", "a loss for O in at most 112 plies", "a draw".
#[cfg(test)]
fn value_phrase(value: Value, remoteness: Option<Remoteness>, side: Option<&str>) -> String {
    tabula_core::PositionValue::Solved { value, remoteness }.words(side)
}

/// The moves of an analysis: a table when graded (result and plies, chances,
/// points), the plan's moves first, else a wrapped list.
pub fn moves_text(moves: &[GradedMove], width: usize) -> String {
    moves_text_upto(moves, width, usize::MAX)
}

/// [`moves_text`] with at most `limit` rows in a table of graded moves (the
/// best ones; the heading says how many there are).
fn moves_text_upto(moves: &[GradedMove], width: usize, limit: usize) -> String {
    let Some(first) = moves.first() else {
        return "No legal moves: the game is over.\n".into();
    };
    let listing = Listing {
        moves,
        width,
        limit,
    };
    match &first.grade {
        MoveGrade::Solved { .. } | MoveGrade::Bounded { .. } => listing.solved(),
        MoveGrade::WinChance { .. } => listing.chances(),
        MoveGrade::Points { .. } => listing.points(),
        MoveGrade::Plan { moves_left } => listing.plan(*moves_left),
        MoveGrade::Ungraded => listing.ungraded(),
    }
}

/// The graded moves of an analysis, laid out `width` columns wide, at most
/// `limit` rows of a table.
struct Listing<'a> {
    moves: &'a [GradedMove],
    width: usize,
    limit: usize,
}

impl Listing<'_> {
    /// The words a heading adds when rows are left out ("; the best 8 of 60 shown").
    fn cut(&self, sep: &str) -> String {
        let all = self.moves.len();
        if all > self.limit {
            format!("{sep} the best {} of {all} shown", self.limit)
        } else {
            String::new()
        }
    }

    fn heading(&self, text: &str) -> String {
        wrap(text, self.width, "", "")
    }

    /// Solved moves: the result for the mover and the plies to the end.
    fn solved(&self) -> String {
        let bound = self.moves.iter().any(|m| {
            matches!(
                m.grade,
                MoveGrade::Solved {
                    remoteness: Some(Remoteness::AtMost(_)),
                    ..
                }
            )
        });
        let rows: Vec<Vec<String>> = self
            .moves
            .iter()
            .take(self.limit)
            .map(|m| match &m.grade {
                MoveGrade::Solved { value, remoteness } => vec![
                    m.notation.clone(),
                    value.to_string(),
                    match (value, remoteness) {
                        (Value::Draw, _) | (_, None) => "—".into(),
                        (_, Some(r)) => r.short(),
                    },
                ],
                MoveGrade::Bounded { at_least, at_most } => vec![
                    m.notation.clone(),
                    if at_least == at_most {
                        at_least.to_string()
                    } else {
                        format!("{at_least} or {at_most}")
                    },
                    "?".into(),
                ],
                _ => vec![m.notation.clone(), "?".into(), "?".into()],
            })
            .collect();
        let unknown = self.moves.iter().any(|m| !m.grade.is_worked_out());
        let mut out = self.heading(&format!(
            "Moves, best first (the result for the mover; plies, that is single moves of \
             either side, to the end with perfect play{}{}{}):",
            if bound {
                "; ≤ marks a bound, not an exact count"
            } else {
                ""
            },
            if unknown {
                "; ? was not worked out in the time allowed"
            } else {
                ""
            },
            self.cut(";")
        ));
        out += &table(
            &["move", "result", "plies"].map(String::from),
            &rows,
            self.width,
            "",
        );
        out
    }

    /// Moves of a game of chance: each one's chance to win, exact or estimated.
    fn chances(&self) -> String {
        let estimate = self
            .moves
            .iter()
            .any(|m| matches!(m.grade, MoveGrade::WinChance { exact: false, .. }));
        let rows: Vec<Vec<String>> = self
            .moves
            .iter()
            .take(self.limit)
            .map(|m| match m.grade {
                MoveGrade::WinChance { chance, exact } => vec![
                    m.notation.clone(),
                    if exact {
                        percent(chance)
                    } else {
                        format!("about {:.0}%", chance * 100.0)
                    },
                ],
                _ => vec![m.notation.clone(), String::new()],
            })
            .collect();
        let mut out = self.heading(&format!(
            "{}{}):",
            if estimate {
                "Moves, best first by the computer's look-ahead (estimated chance to win"
            } else {
                "Moves, best first (chance to win with best play on both sides"
            },
            self.cut(";")
        ));
        out += &table(
            &["move", "chance to win"].map(String::from),
            &rows,
            self.width,
            "",
        );
        out
    }

    /// Moves of a puzzle scored by points: what each brings now (at most 15).
    fn points(&self) -> String {
        let all = self.moves.len();
        let shown = self.limit.min(15);
        let rows: Vec<Vec<String>> = self
            .moves
            .iter()
            .take(shown)
            .map(|m| match m.grade {
                MoveGrade::Points { points } => vec![m.notation.clone(), format!("+{points}")],
                _ => vec![m.notation.clone(), String::new()],
            })
            .collect();
        let mut out = self.heading(&format!(
            "Moves by the points they bring now ({all} in all{}):",
            if all > shown {
                format!(", the best {shown} shown")
            } else {
                String::new()
            }
        ));
        out += &table(&["move", "points"].map(String::from), &rows, self.width, "");
        out
    }

    /// A puzzle's solution from here: its moves, then how many others there are.
    fn plan(&self, moves_left: u64) -> String {
        let plan: Vec<String> = self
            .moves
            .iter()
            .filter(|m| matches!(m.grade, MoveGrade::Plan { .. }))
            .map(|m| m.notation.clone())
            .collect();
        let mut out = self.heading(&format!(
            "Moves of a solution ({moves_left} in all from here; {}):",
            plural(
                self.moves.len() - plan.len(),
                "other legal move",
                "other legal moves"
            )
        ));
        out += &list(&plan, "   ", self.width, "  ");
        out
    }

    /// Moves without grades: their names, wrapped.
    fn ungraded(&self) -> String {
        let names: Vec<String> = self.moves.iter().map(|m| m.notation.clone()).collect();
        let mut out = format!("{}:\n", plural(names.len(), "legal move", "legal moves"));
        out += &list(&names, "   ", self.width, "  ");
        out
    }
}

/// What chance may do next (a die's roll, a draw for who starts), as `tabula
/// analyze` lists it at a chance node: the outcome in the game's notation, its
/// chance, the position it leads to and who moves there.
pub struct Roll {
    /// The outcome (`roll 3`, `start 1`).
    pub outcome: String,
    /// Its probability, 0..1.
    pub chance: f64,
    /// The position after it, in the game's notation (for `--position`).
    pub position: String,
    /// The seat to move after it, by name (`None`: chance acts again).
    pub mover: Option<String>,
}

/// `tabula analyze` as readable text. At a chance node (`rolls` given) there is
/// no move to grade: the rolls that may come are listed instead, each with the
/// position it leads to.
pub fn analysis_text(a: &Analysis, rolls: Option<&[Roll]>, width: usize) -> String {
    let mut out = String::new();
    let side = a.to_move.as_deref();
    let whose = match (side, rolls) {
        (Some(s), _) => format!(" ({s} to move)"),
        (None, Some(_)) => " (chance acts next)".to_string(),
        (None, None) => String::new(),
    };
    out += &position_lines(&format!("{}{whose}", a.position), width, "Position: ", "  ");
    if let Some(v) = &a.value {
        out += &wrap(&format!("Value: {}.", v.words(side)), width, "", "  ");
    }
    out += &sections_text(&a.sections, width);
    if let Some(note) = &a.note {
        out += &wrap(note, width, "", "");
    }
    match rolls {
        Some(rolls) => out += &rolls_text(rolls, width),
        None => out += &moves_text(&a.moves, width),
    }
    out
}

/// What chance may do at a chance node, in a table.
fn rolls_text(rolls: &[Roll], width: usize) -> String {
    let mut out = wrap(
        "Chance acts next (a roll of the dice, or a draw): there is no move to choose \
         until it has. Each outcome and the position it leads to (analyze one with \
         --position):",
        width,
        "",
        "",
    );
    let rows: Vec<Vec<String>> = rolls
        .iter()
        .map(|r| {
            vec![
                r.outcome.clone(),
                percent(r.chance),
                r.mover
                    .as_ref()
                    .map(|m| format!("{m} to move"))
                    .unwrap_or_else(|| "chance again".into()),
                r.position.clone(),
            ]
        })
        .collect();
    out += &table(
        &["outcome", "chance", "then", "position"].map(String::from),
        &rows,
        width,
        "",
    );
    out
}

/// Rows of graded moves a hint shows: the best ones, so that the hint and the
/// prompt fit a 24-line screen (`tabula analyze` lists them all).
const HINT_ROWS: usize = 8;

/// The play prompt's `hint`: the suggestion and why, then the best moves graded.
/// The game's own sections (its analysis of the position) come only when they
/// are the reason: a puzzle's plan, or why no move can be suggested (an
/// unsolvable Poggle board); the rest is `tabula analyze`'s.
pub fn hint_text(h: &Hint, width: usize) -> String {
    let a = &h.analysis;
    match &h.best {
        None if !a.sections.is_empty() => sections_text(&a.sections, width),
        None => wrap(&format!("Hint: {}", h.reason), width, "", "  "),
        Some(m) => {
            // The reason names the move ("Play 3 (column 3): it wins …"):
            // said once. A count of plies says what a ply is.
            let ply = if h.reason.contains(" plies") || h.reason.contains(" ply") {
                " (A ply is one move of either side.)"
            } else {
                ""
            };
            let mut out = wrap(&format!("Hint: {}{ply}", h.reason), width, "", "  ");
            if matches!(m.grade, MoveGrade::Plan { .. }) {
                out += &sections_text(&a.sections, width);
            }
            out += &moves_text_upto(&a.moves, width, HINT_ROWS);
            out
        }
    }
}

/// The solver's figures, one per line, each said of what it is: the time is
/// this answer's (a table read from the cache is quick; the game's sections
/// say how long its solve took). A figure the game's sections already give, under
/// a label speaking of the same thing with the same value, is not repeated.
fn figures_text(f: &SolveFigures, sections: &[Section], width: usize) -> String {
    let given = |keyword: &str, value: &str| {
        sections.iter().flat_map(|s| &s.facts).any(|fact| {
            fact.label.to_lowercase().contains(keyword)
                && inline(&fact.value).is_some_and(|v| v == value)
        })
    };
    let mut out = String::new();
    let mut line = |keyword: &str, label: &str, value: String| {
        if !given(keyword, &value) {
            out += &wrap(&format!("{label}: {value}"), width, "", "  ");
        }
    };
    if let Some(p) = f.positions {
        line("position", "Positions", thousands(p as i128));
    }
    if let Some(s) = f.sweeps {
        line("sweep", "Sweeps", thousands(s as i128));
    }
    if let Some(b) = f.peak_bytes {
        line(
            "peak",
            "Peak memory of the solve",
            tabula_core::format_bytes(b),
        );
    }
    line("time", "Time to answer", duration(f.seconds));
    out
}

/// Rows of presses shown at most, beyond which `--json` has them.
const MAX_SHOWN_ROWS: usize = 200;

/// A puzzle's solution as text.
fn solution_text(s: &PuzzleSolution, width: usize) -> String {
    match s {
        PuzzleSolution::Presses {
            grid: g,
            rows,
            total,
        } => {
            let mut out = wrap(
                &format!(
                    "Presses ({} in all; press each button as often as shown, in any order):",
                    thousands(*total as i128)
                ),
                width,
                "",
                "  ",
            );
            let n = g.len().max(rows.len());
            if n > MAX_SHOWN_ROWS {
                out += &wrap(
                    &format!(
                        "The board has {} rows, too many to show here; --json lists them.",
                        thousands(n as i128)
                    ),
                    width,
                    "  ",
                    "  ",
                );
            } else {
                let numbers: Vec<Vec<i64>> = g
                    .iter()
                    .map(|r| r.iter().map(|&v| v as i64).collect())
                    .collect();
                out += &grid(&numbers, width, "  ");
            }
            out
        }
        PuzzleSolution::Line {
            moves,
            score,
            cleared,
        } => {
            let mut out = wrap(
                &format!(
                    "The line ({} move{}, {score} points{}):",
                    moves.len(),
                    if moves.len() == 1 { "" } else { "s" },
                    if *cleared { ", the board cleared" } else { "" }
                ),
                width,
                "",
                "  ",
            );
            let numbered: Vec<String> = moves
                .iter()
                .enumerate()
                .map(|(i, m)| format!("{}. {m}", i + 1))
                .collect();
            out += &list(&numbered, "  ", width, "  ");
            out
        }
        PuzzleSolution::Impossible { reason } => wrap(reason, width, "", ""),
    }
}

/// `tabula solve` as readable text.
pub fn solve_text(title: &str, r: &SolveReport, width: usize) -> String {
    let mut out = wrap(title, width, "", "  ");
    out += &wrap(&r.summary, width, "", "");
    if let Some(p) = &r.position {
        out += &wrap(&format!("Position: {p}"), width, "", "  ");
    }
    if let Some(s) = &r.solution {
        out += &solution_text(s, width);
    }
    out += &sections_text(&r.sections, width);
    out += &figures_text(&r.figures, &r.sections, width);
    out
}

/// `tabula count` as readable text.
pub fn count_text(title: &str, c: &CountReport, width: usize) -> String {
    let mut out = wrap(&format!("{title}: counts"), width, "", "  ");
    out += &wrap(&c.summary, width, "", "");
    out += &sections_text(&c.sections, width);
    out
}

/// `tabula train` as readable text: the summary, the sections and the
/// learning curve as a chart.
pub fn train_text(title: &str, t: &Training, width: usize) -> String {
    let mut out = wrap(title, width, "", "  ");
    out += &wrap(&t.summary, width, "", "");
    out += &sections_text(&t.sections, width);
    out += &curve_chart(&t.curve.points, width);
    out += &format!("Time the training took: {}\n", duration(t.figures.seconds));
    out
}

/// The learning curve: one bar per block of games, `#` for the machine's losses
/// and `=` for draws (a shrinking bar is a machine that learns).
pub fn curve_chart(curve: &[tabula_core::CurvePoint], width: usize) -> String {
    if curve.is_empty() {
        return String::new();
    }
    let mut out = wrap(
        "Learning curve (each bar: the machine's losses # and draws = in a block of games):",
        width,
        "",
        "",
    );
    let size = |b: &tabula_core::CurvePoint| b.wins + b.losses + b.draws;
    let biggest = curve.iter().map(size).max().unwrap_or(1).max(1);
    let span = curve.last().map_or(1, |b| b.to.to_string().len());
    let tail_len = |b: &tabula_core::CurvePoint| {
        columns(&format!(
            " {} lost, {} drawn of {}",
            b.losses,
            b.draws,
            size(b)
        ))
    };
    let tail = curve.iter().map(tail_len).max().unwrap_or(0);
    // "  games " + from + "-" + to + " |" + bar + "|" + tail
    let fixed = 8 + 2 * span + 1 + 2 + 1 + tail;
    let bar_width = width.saturating_sub(fixed).clamp(10, 40);
    for b in curve {
        let scale = |x: u64| ((x as f64 / biggest as f64) * bar_width as f64).round() as usize;
        let bar = "#".repeat(scale(b.losses)) + &"=".repeat(scale(b.draws));
        let bar: String = bar.chars().take(bar_width).collect();
        out += &format!(
            "  games {:>span$}-{:<span$} |{bar:<bar_width$}| {} lost, {} drawn of {}\n",
            b.from,
            b.to,
            b.losses,
            b.draws,
            size(b)
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_wrap_between_rows_never_inside_one() {
        // SameGame 15x15: fifteen rows of fifteen digits.
        let rows: Vec<String> = (0..15).map(|r| format!("{:015}", r * 7)).collect();
        let text = rows.join("/");
        let out = position_lines(&format!("{text} (Player to move)"), 80, "Position: ", "  ");
        assert!(out.lines().all(|l| l.chars().count() <= 80), "{out}");
        assert!(out.starts_with("Position: 000000000000000/"), "{out}");
        for line in out.lines().skip(1) {
            let body = line.trim_start();
            assert!(
                body.len() >= 15 && body.as_bytes()[15] == b'/' || !body.contains('/'),
                "{out}"
            );
        }
        // Every row whole on one line.
        for row in &rows {
            assert!(
                out.lines().any(|l| l.contains(row.as_str())),
                "{row} cut:\n{out}"
            );
        }
        // A row wider than the line is cut like any long word.
        let wide = format!("{}/{}", "1".repeat(100), "2".repeat(100));
        let out = position_lines(&wide, 80, "", "  ");
        assert!(out.lines().all(|l| l.chars().count() <= 80), "{out}");
    }
    use tabula_core::PositionValue;

    #[test]
    fn numbers_read_as_people_write_them() {
        assert_eq!(thousands(64_140_783), "64,140,783");
        assert_eq!(thousands(-1000), "-1,000");
        assert_eq!(thousands(999), "999");
        assert_eq!(duration(0.000647), "647.0 µs");
        assert_eq!(inline(&FactValue::Percent(0.504114)).unwrap(), "50.4%");
        assert_eq!(inline(&FactValue::Number(1e-12)).unwrap(), "1e-12");
        assert_eq!(inline(&FactValue::Number(0.0123456)).unwrap(), "0.01235");
        assert_eq!(inline(&FactValue::Seconds(0.0)).unwrap(), "0 s");
        assert_eq!(inline(&FactValue::Integer(1234567)).unwrap(), "1,234,567");
        assert_eq!(inline(&FactValue::Flag(false)).unwrap(), "no");
        assert_eq!(
            inline(&FactValue::Number(66.50292205810547)).unwrap(),
            "66.5"
        );
    }

    #[test]
    fn a_draw_has_no_remoteness_and_a_bound_says_so() {
        let text = value_phrase(Value::Draw, Some(Remoteness::Exact(0)), None);
        assert!(!text.contains('0'), "{text}");
        assert_eq!(
            value_phrase(Value::Loss, Some(Remoteness::Exact(6)), Some("White")),
            "a loss for White in 6 plies"
        );
        assert_eq!(
            value_phrase(Value::Loss, Some(Remoteness::AtMost(112)), Some("O")),
            "a loss for O in at most 112 plies"
        );
        let moves = vec![GradedMove {
            notation: "1:3->1".into(),
            cells: vec![],
            grade: MoveGrade::solved(Value::Win, Remoteness::AtMost(9)),
        }];
        let text = moves_text(&moves, 80);
        assert!(text.contains("≤ 9") && text.contains("bound"), "{text}");
    }

    #[test]
    fn wrapping_keeps_every_line_within_the_width() {
        let long = "word ".repeat(50) + &"x".repeat(200);
        for w in [40, 80] {
            let text = wrap(&long, w, "", "  ");
            assert!(text.lines().all(|l| l.chars().count() <= w), "{text}");
            assert!(text.contains("word word"));
        }
        let items: Vec<String> = (0..300).map(|i| format!("{i}:1->2")).collect();
        let text = list(&items, ", ", 80, "  ");
        assert!(text.starts_with("  0:1->2, 1:1->2,"), "{text}");
        assert!(text.lines().all(|l| l.chars().count() <= 80), "{text}");
        let rows: Vec<Vec<i64>> = (0..3).map(|_| (0..64).collect()).collect();
        let text = grid(&rows, 80, "  ");
        assert!(text.lines().all(|l| l.chars().count() <= 80), "{text}");
        assert!(text.contains("64"), "{text}");
    }

    #[test]
    fn grids_show_rows_and_columns_from_one() {
        let g = grid(&[vec![1, 0], vec![0, 1]], 80, "");
        assert_eq!(g, "   1 2\n1  1 .\n2  . 1\n");
    }

    #[test]
    fn win_chances_name_each_seat() {
        let v = PositionValue::WinChances {
            chances: vec![
                tabula_core::SeatChance {
                    seat: "Player 1".into(),
                    chance: 0.531,
                },
                tabula_core::SeatChance {
                    seat: "Player 2".into(),
                    chance: 0.469,
                },
            ],
        };
        let text = v.words(None);
        assert!(text.contains("Player 1 wins 53.1%"), "{text}");
    }
}
