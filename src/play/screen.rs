//! What the play screen shows: the board with its status and result, the
//! scores, the help, a hint and the rules.

use crate::{progress, report, style};
use anyhow::Result;
use std::io::Write;
use tabula_engine::{build, Match, MatchView};

/// Whether the legal moves leave no choice: one move, or moves that all do the
/// same (Auto120's markers standing on one square: each goes to the same square).
pub fn one_choice(moves: &[tabula_engine::MoveInfo]) -> bool {
    match moves {
        [] => false,
        [_] => true,
        [first, rest @ ..] => {
            !first.cells.is_empty() && rest.iter().all(|m| m.cells == first.cells)
        }
    }
}

/// Lines of a game's own status that speak of the next move: wrong once the game
/// is over by a resignation, a declared win or a draw rule, which the position
/// itself does not know of.
fn speaks_of_next_move(line: &str) -> bool {
    let l = line.to_ascii_lowercase();
    [
        " to move",
        " to play",
        " to roll",
        "'s move",
        "choose a marker",
        "(type ",
        "press a button",
    ]
    .iter()
    .any(|w| l.contains(w))
}

/// Lines of a game's own status that say how the game ended ("X wins", "draw:
/// the Cat wins"): at the end the match's result says it once, knowing what the
/// position does not (a resignation, a draw rule).
fn speaks_of_result(line: &str, result: &str) -> bool {
    let l = line.trim().to_ascii_lowercase();
    l == result.trim().to_ascii_lowercase()
        || l.ends_with(" wins")
        || l.starts_with("draw")
        || l.contains("the cat")
}

/// The board, the game's status lines it does not show itself and, at the end,
/// the result once (without any line still asking for a move). A status line
/// saying whose move it is, when the board already says so, is not repeated.
pub fn draw(out: &mut impl Write, v: &MatchView) -> Result<()> {
    let over = v.turn.is_over();
    let result = v.result.clone().unwrap_or_default();
    let stale = |l: &str| over && (speaks_of_next_move(l) || speaks_of_result(l, &result));
    let board: String = v
        .board_text
        .lines()
        .filter(|l| !stale(l))
        .map(|l| format!("{l}\n"))
        .collect();
    // No blank line between the board and the prompt: a screen of 24 lines.
    writeln!(
        out,
        "\n{}",
        style::colour_board(&board, &v.view).trim_end_matches('\n')
    )?;
    // The board text of some games already shows the status, or whose move it is.
    let shown = |line: &str| {
        v.board_text.contains(line)
            || (speaks_of_next_move(line) && v.board_text.lines().any(speaks_of_next_move))
    };
    for s in v.view.status.iter().filter(|s| !shown(s) && !stale(s)) {
        writeln!(out, "{s}")?;
    }
    if over {
        let verdict = match won(v) {
            Some(true) => ": you win.",
            Some(false) => ": you lose.",
            None => "",
        };
        writeln!(out, "{result}{verdict}")?;
    }
    Ok(())
}

/// Whether the one person playing against the computer won (a seat's name
/// alone does not say which side was theirs); `None` for a draw, a puzzle, or
/// two people or none at the board.
fn won(v: &MatchView) -> Option<bool> {
    let humans: Vec<usize> = (0..v.seats.len())
        .filter(|&i| v.seats[i].player == "human")
        .collect();
    match (humans.as_slice(), v.outcome) {
        ([me], Some(tabula_core::Outcome::Win(w))) if v.seats.len() == 2 => Some(w == *me),
        _ => None,
    }
}

pub fn rules(out: &mut impl Write, game: &str, variant: &str) -> Result<()> {
    let text = build(game, variant)?.rules();
    write!(out, "{}", crate::commands::markdown_for_terminal(&text))?;
    Ok(())
}

pub fn example(v: &MatchView) -> String {
    v.legal_moves
        .first()
        .map(|m| format!("'{}'", m.mv))
        .unwrap_or_else(|| "a move".into())
}

pub fn tally_line(v: &MatchView) -> String {
    // A puzzle has no Cat: it is won (solved, cleared) or not; the result line
    // above says in the game's words what winning it is.
    if v.seats.len() == 1 {
        return format!(
            "Games: {} played, {} won",
            v.tally.games,
            v.tally.wins.first().copied().unwrap_or(0)
        );
    }
    let parts: Vec<String> = v
        .seats
        .iter()
        .zip(&v.tally.wins)
        .map(|(s, w)| format!("{} {}", s.name, w))
        .collect();
    // The Cat (draws, and games every player resigned) only once it has won
    // one: "Cat got 0" in a game that cannot be drawn misleads.
    if v.tally.cat == 0 {
        return format!("Scores: {}", parts.join(", "));
    }
    format!("Scores: {} (Cat got {})", parts.join(", "), v.tally.cat)
}

pub fn help(out: &mut impl Write, v: &MatchView) -> Result<()> {
    writeln!(
        out,
        "Type a move in the game's notation, for example {}.",
        example(v)
    )?;
    writeln!(out, "  moves    list the legal moves")?;
    writeln!(
        out,
        "  hint     a move to play, and how every move compares, best first"
    )?;
    writeln!(out, "  undo     take back your last move (and the replies)")?;
    writeln!(out, "  redo     play again what undo took back")?;
    writeln!(out, "  board    show the board again")?;
    writeln!(out, "  resign   give up this game")?;
    writeln!(
        out,
        "  win      declare that you win (for testers; the other side loses)"
    )?;
    writeln!(out, "  rules    the rules of the game and its notation")?;
    writeln!(
        out,
        "  new      start a new game (also 'reset': back to the start)"
    )?;
    writeln!(
        out,
        "  setup M  play M for the side to move with no reply (set-up mode); 'go' lets the computer answer"
    )?;
    writeln!(
        out,
        "  save F   save the game to file F (resume with --resume F)"
    )?;
    writeln!(out, "  quit     leave")?;
    Ok(())
}

pub fn hint(out: &mut impl Write, m: &dyn Match) -> Result<()> {
    out.flush()?;
    let working = progress::spinner("Working out a hint…");
    let h = m.hint();
    drop(working);
    match h {
        Ok(h) => write!(out, "{}", report::hint_text(&h, report::width()))?,
        Err(e) => writeln!(out, "No hint: {e}")?,
    }
    Ok(())
}
