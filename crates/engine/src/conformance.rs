//! Checks every registered game must pass: random playouts stay legal, notation
//! round-trips, undo restores the exact state, saved records replay exactly, bad
//! text never panics, and the perfect player never gives away a win.
//!
//! They are generic over the game type and reached through [`crate::GameEntry::check`],
//! so the shared test runs them for every game in the registry.

use crate::handle::Handle;
use crate::matches::{Match, MatchConfig, MatchImpl};
use rand::Rng as _;
use std::sync::Arc;
use tabula_ai::retrograde::graded_moves;
use tabula_core::{Registered, Turn, Value};

/// Runs every check on `game` with random choices from `seed`.
pub fn check_game<G: Registered>(game: G, seed: u64) -> Result<(), String> {
    let handle = Handle::new(game);
    playouts(handle.game(), seed)?;
    undo_and_replay(&handle, seed)?;
    garbage(handle.game(), seed)?;
    perfect_keeps_wins(&handle, seed)?;
    Ok(())
}

fn playouts<G: Registered>(game: &G, seed: u64) -> Result<(), String> {
    let mut rng = tabula_core::rng_from_seed(seed);
    let mut moves = Vec::new();
    let mut outcomes = Vec::new();
    for _ in 0..8 {
        let mut state = game.initial_state();
        for _ in 0..400 {
            let text = game.format_position(&state);
            let parsed = game
                .parse_position(&text)
                .map_err(|e| format!("{}: position '{text}' does not parse back: {e}", G::NAME))?;
            if parsed != state {
                return Err(format!(
                    "{}: position '{text}' parses to a different state",
                    G::NAME
                ));
            }
            let turn = game.turn(&state);
            moves.clear();
            game.legal_moves(&state, &mut moves);
            match turn {
                Turn::Over(_) => {
                    if !moves.is_empty() {
                        return Err(format!(
                            "{}: the game is over at '{text}' but moves are listed",
                            G::NAME
                        ));
                    }
                    break;
                }
                Turn::Chance => {
                    outcomes.clear();
                    game.chance_outcomes(&state, &mut outcomes);
                    let total: f64 = outcomes.iter().map(|(_, p)| p).sum();
                    if (total - 1.0).abs() > 1e-9
                        || outcomes.iter().any(|(m, _)| !moves.contains(m))
                    {
                        return Err(format!("{}: chance outcomes at '{text}' are not a distribution over the legal outcomes", G::NAME));
                    }
                }
                Turn::Move(_) => {}
            }
            if moves.is_empty() {
                return Err(format!(
                    "{}: nobody can move at '{text}' but the game is not over",
                    G::NAME
                ));
            }
            for &mv in &moves {
                let mt = game.format_move(&state, mv);
                let back = game.parse_move(&state, &mt).map_err(|e| {
                    format!(
                        "{}: move '{mt}' at '{text}' does not parse back: {e}",
                        G::NAME
                    )
                })?;
                if back != mv {
                    return Err(format!(
                        "{}: move '{mt}' at '{text}' parses to another move",
                        G::NAME
                    ));
                }
                let mut a = state.clone();
                game.try_play(&mut a, mv).map_err(|e| {
                    format!("{}: legal move '{mt}' refused at '{text}': {e}", G::NAME)
                })?;
                let mut b = state.clone();
                game.play_unchecked(&mut b, mv);
                if a != b {
                    return Err(format!(
                        "{}: try_play and play_unchecked disagree on '{mt}' at '{text}'",
                        G::NAME
                    ));
                }
            }
            let mv = moves[rng.gen_range(0..moves.len())];
            game.play_unchecked(&mut state, mv);
        }
    }
    Ok(())
}

fn undo_and_replay<G: Registered>(handle: &Arc<Handle<G>>, seed: u64) -> Result<(), String> {
    let seats = handle.game().seats().len();
    let config = MatchConfig {
        players: vec!["human".into(); seats],
        seed,
        position: None,
        undo_depth: None,
    };
    let mut m = MatchImpl::new(handle.clone(), config).map_err(|e| e.to_string())?;
    let mut rng = tabula_core::rng_from_seed(seed ^ 0x55);
    let mut positions = vec![m.view().position];
    // Undo takes back human decisions; dice rolled before the first one stay.
    let mut before_first_human: Option<String> = None;
    for _ in 0..30 {
        if m.turn().is_over() {
            break;
        }
        let view = m.view();
        let mv = if view.legal_moves.is_empty() {
            // A chance node: let the dice roll.
            match m.step().map_err(|e| e.to_string())? {
                Some(e) => e.mv,
                None => break,
            }
        } else {
            let pick = view.legal_moves[rng.gen_range(0..view.legal_moves.len())]
                .mv
                .clone();
            before_first_human.get_or_insert_with(|| view.position.clone());
            m.play(&pick)
                .map_err(|e| format!("{}: legal move '{pick}' refused: {e}", G::NAME))?;
            pick
        };
        let _ = mv;
        positions.push(m.view().position);
    }
    let record = m.record();
    let replayed =
        MatchImpl::replay(handle.clone(), &record).map_err(|e| format!("{}: {e}", G::NAME))?;
    if replayed.view().position != m.view().position {
        return Err(format!("{}: a replayed record ends elsewhere", G::NAME));
    }
    let json = serde_json::to_string(&record).map_err(|e| e.to_string())?;
    let back: crate::MatchRecord = serde_json::from_str(&json).map_err(|e| e.to_string())?;
    if back != record {
        return Err(format!("{}: a record does not survive JSON", G::NAME));
    }
    // Undo step by step: each undo must land exactly on an earlier position.
    let mut undone = 0;
    while m.undo() {
        undone += 1;
        let now = m.view().position;
        if !positions.contains(&now) {
            return Err(format!(
                "{}: undo reached a position never played: {now}",
                G::NAME
            ));
        }
    }
    if let Some(first) = before_first_human {
        if m.view().position != first || undone == 0 {
            return Err(format!(
                "{}: undoing everything does not restore the position before the first move",
                G::NAME
            ));
        }
    }
    while m.redo() {}
    if m.view().position != *positions.last().expect("the start at least") {
        return Err(format!(
            "{}: redoing everything does not restore the last position",
            G::NAME
        ));
    }
    Ok(())
}

fn garbage<G: Registered>(game: &G, seed: u64) -> Result<(), String> {
    let mut rng = tabula_core::rng_from_seed(seed ^ 0xBAD);
    let alphabet: Vec<char> = " 0123456789xoXO.-/:,;=*abcdehmrw\n\té".chars().collect();
    let start = game.initial_state();
    let mut samples = vec![
        String::new(),
        " ".into(),
        "99999999999999999999".into(),
        "-1".into(),
        "\u{0}".into(),
    ];
    for _ in 0..300 {
        let len = rng.gen_range(0..24);
        samples.push(
            (0..len)
                .map(|_| alphabet[rng.gen_range(0..alphabet.len())])
                .collect(),
        );
    }
    // Mutations of a real position text are the likeliest to slip through.
    let text = game.format_position(&start);
    for _ in 0..200 {
        let mut chars: Vec<char> = text.chars().collect();
        if chars.is_empty() {
            break;
        }
        let i = rng.gen_range(0..chars.len());
        match rng.gen_range(0..3) {
            0 => chars[i] = alphabet[rng.gen_range(0..alphabet.len())],
            1 => {
                chars.remove(i);
            }
            _ => chars.insert(i, alphabet[rng.gen_range(0..alphabet.len())]),
        }
        samples.push(chars.into_iter().collect());
    }
    for s in &samples {
        let _ = game.parse_move(&start, s);
        if let Ok(state) = game.parse_position(s) {
            // Whatever parses must be a state the rules can work with.
            let mut moves = Vec::new();
            game.legal_moves(&state, &mut moves);
            let _ = game.turn(&state);
            let again = game.format_position(&state);
            if game.parse_position(&again).ok().as_ref() != Some(&state) {
                return Err(format!(
                    "{}: accepted position '{s}' does not round-trip",
                    G::NAME
                ));
            }
        }
    }
    Ok(())
}

fn perfect_keeps_wins<G: Registered>(handle: &Arc<Handle<G>>, seed: u64) -> Result<(), String> {
    let game = handle.game();
    if !game.is_small() {
        return Ok(());
    }
    let Some(oracle) = handle.oracle() else {
        return Ok(());
    };
    let mut rng = tabula_core::rng_from_seed(seed ^ 0x9E);
    let mut moves = Vec::new();
    for _ in 0..20 {
        let mut state = game.initial_state();
        for _ in 0..200 {
            let Turn::Move(_) = game.turn(&state) else {
                break;
            };
            let Some(g) = oracle.grade(game, &state) else {
                break;
            };
            let graded = graded_moves(game, oracle.as_ref(), &state);
            let Some(&(_, best)) = graded.first() else {
                break;
            };
            if best.value != g.value {
                return Err(format!(
                    "{}: at {} the position is a {} but the best move is a {}",
                    G::NAME,
                    game.format_position(&state),
                    g.value,
                    best.value
                ));
            }
            if g.value != Value::Draw && best.remoteness != g.remoteness {
                return Err(format!(
                    "{}: remoteness of the best move disagrees at {}",
                    G::NAME,
                    game.format_position(&state)
                ));
            }
            moves.clear();
            game.legal_moves(&state, &mut moves);
            let mv = moves[rng.gen_range(0..moves.len())];
            game.play_unchecked(&mut state, mv);
        }
    }
    Ok(())
}
