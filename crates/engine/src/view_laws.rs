//! The laws of a game's declared view, checked for every registered game by the
//! conformance suite on random playouts (see `docs/ARCHITECTURE.md`, "The
//! rendering model"):
//!
//! * every cell has a name a player reads ("b3", "row 2, column 3"), no two alike;
//! * cell ids are unique, and a game's places never move: every position reached
//!   by play has the same cells (ids, places, shapes) as the start, so a face
//!   keeps every heap, square and point where it was while a game is played or
//!   reviewed;
//! * a grid layout holds its cells, each within one of its `columns x rows` places;
//! * every legal move's cells, and the last move's, are cells of the view;
//! * the last move of the position after a move touching cells is that move;
//! * cells of one group or column target are one click: a group holds at least
//!   one cell where a legal move starts;
//! * the view names the game's seats, and gives facts only for declared cards.

use crate::shown::view_after;
use std::collections::{HashMap, HashSet};
use tabula_core::{ClickTarget, Layout, Registered, Turn, View};

/// The cells of a view as (id, x, y, w, h, shape), for comparing places.
fn places(view: &View) -> Vec<(u32, u64, u64, u64, u64, bool)> {
    let mut p: Vec<_> = view
        .cells
        .iter()
        .map(|c| {
            (
                c.id,
                c.x.to_bits(),
                c.y.to_bits(),
                c.w.to_bits(),
                c.h.to_bits(),
                c.shape == tabula_core::Shape::Circle,
            )
        })
        .collect();
    p.sort_unstable();
    p
}

/// Checks the laws on three random games of `game`.
pub(crate) fn check<G: Registered>(game: &G, seed: u64) -> Result<(), String> {
    let name = G::NAME;
    let mut rng = tabula_core::rng_from_seed(seed ^ 0x005e_ed0f_u64);
    let declared: HashSet<String> = game
        .presentation()
        .panels
        .iter()
        .filter_map(|p| {
            serde_json::to_value(p).ok()?["kind"]
                .as_str()
                .map(String::from)
        })
        .collect();
    let seats: Vec<&str> = game.seats().to_vec();
    let start = game.initial_state();
    let start_places = places(&view_after(game, std::slice::from_ref(&start), &[]));
    let mut moves = Vec::new();
    for _ in 0..3 {
        let mut states = vec![start.clone()];
        let mut played = Vec::new();
        for _ in 0..120 {
            let state = states.last().cloned().unwrap_or_else(|| start.clone());
            let view = view_after(game, &states, &played);
            let at = || game.format_position(&state);
            let ids: HashSet<u32> = view.cells.iter().map(|c| c.id).collect();
            if ids.len() != view.cells.len() {
                return Err(format!("{name}: two cells share an id at '{}'", at()));
            }
            let named: HashSet<&str> = view
                .cells
                .iter()
                .filter_map(|c| c.name.as_deref().filter(|n| !n.trim().is_empty()))
                .collect();
            if named.len() != view.cells.len() {
                return Err(format!(
                    "{name}: a cell at '{}' has no name, or two cells share one",
                    at()
                ));
            }
            if places(&view) != start_places {
                return Err(format!(
                    "{name}: the cells at '{}' are not the start's (a place moved, came or went)",
                    at()
                ));
            }
            if let Layout::Grid { columns, rows } = view.layout {
                if columns == 0 || rows == 0 || view.cells.len() > (columns * rows) as usize {
                    return Err(format!(
                        "{name}: a {columns}x{rows} grid cannot hold {} cells",
                        view.cells.len()
                    ));
                }
                let (cw, ch) = (view.width / columns as f64, view.height / rows as f64);
                for c in &view.cells {
                    let (col, row) = ((c.x + c.w / 2.0) / cw, (c.y + c.h / 2.0) / ch);
                    if !(0.0..columns as f64).contains(&col) || !(0.0..rows as f64).contains(&row) {
                        return Err(format!("{name}: cell {} lies outside its grid", c.id));
                    }
                }
            }
            if view
                .seats
                .iter()
                .map(|s| s.name.as_str())
                .collect::<Vec<_>>()
                != seats
            {
                return Err(format!("{name}: the view's seats are not the game's"));
            }
            for facts in &view.panels {
                let kind = serde_json::to_value(facts)
                    .ok()
                    .and_then(|j| j["kind"].as_str().map(String::from))
                    .unwrap_or_default();
                if !declared.contains(&kind) {
                    return Err(format!(
                        "{name}: facts for a '{kind}' card the game does not declare"
                    ));
                }
            }
            if let Some(last) = &view.last_move {
                if let Some(c) = last.cells.iter().find(|c| !ids.contains(c)) {
                    return Err(format!(
                        "{name}: the last move's cell {c} is not a cell of '{}'",
                        at()
                    ));
                }
            }
            moves.clear();
            game.legal_moves(&state, &mut moves);
            let mut starts = HashSet::new();
            for &m in &moves {
                let cells = game.move_cells(&state, m);
                if let Some(c) = cells.iter().find(|c| !ids.contains(c)) {
                    return Err(format!(
                        "{name}: the move '{}' at '{}' touches cell {c}, not a cell of the view",
                        game.format_move(&state, m),
                        at()
                    ));
                }
                starts.extend(cells.first().copied());
            }
            if matches!(game.turn(&state), Turn::Move(_)) {
                let mut groups: HashMap<u32, bool> = HashMap::new();
                for c in &view.cells {
                    if let ClickTarget::Group { group } = c.target {
                        *groups.entry(group).or_default() |= starts.contains(&c.id);
                    }
                }
                if let Some((g, _)) = groups.iter().find(|(_, has)| !**has) {
                    return Err(format!(
                        "{name}: no legal move starts in group {g} at '{}'",
                        at()
                    ));
                }
            }
            if moves.is_empty() {
                break;
            }
            let m = moves[rand::Rng::gen_range(&mut rng, 0..moves.len())];
            let cells = game.move_cells(&state, m);
            let mut next = state.clone();
            game.play_unchecked(&mut next, m);
            states.push(next);
            played.push(m);
            if !cells.is_empty() {
                let after = view_after(game, &states, &played);
                if after.last_move.as_ref().map(|l| &l.cells) != Some(&cells) {
                    return Err(format!(
                        "{name}: after '{}' at '{}' the view's last move is {:?}, not its cells {cells:?}",
                        game.format_move(&state, m),
                        at(),
                        after.last_move
                    ));
                }
            }
        }
    }
    Ok(())
}
