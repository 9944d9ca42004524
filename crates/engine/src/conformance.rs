//! Checks every registered game must pass: random playouts stay legal, the laws of
//! each capability hold (notation round-trips; symmetries are invertible, map legal
//! moves to legal moves and keep turns and exact values; the presentation names
//! every legal move; integer action ids are dense, distinct and map back to their
//! moves), undo restores the exact state, saved records replay exactly,
//! bad text never panics, the perfect player never gives away a win, and the
//! game's own players have their words for a menu.
//!
//! They are generic over the game type and reached through [`crate::GameEntry::check`],
//! so the shared test runs them for every game in the registry.

use crate::handle::Handle;
use crate::matches::{Match, MatchImpl};
use crate::record::MatchConfig;
use rand::Rng as _;
use std::sync::Arc;
use tabula_ai::retrograde::graded_moves;
use tabula_core::{
    Actions, GenericPlayer, Graded, MatchRules, Notation, Oracle, PlayTracker, Presentation,
    Registered, Symmetry, Turn, Value, Variant, UNBOUNDED_GAME_PLIES,
};

/// Runs every check on `game` with random choices from `seed`.
pub fn check_game<G: Registered>(game: G, seed: u64) -> Result<(), String> {
    let handle = Handle::new(game);
    playouts(handle.game(), seed)?;
    action_laws(handle.game(), seed)?;
    preset_action_laws::<G>(seed)?;
    capability_laws(&handle, seed)?;
    undo_and_replay(&handle, seed)?;
    garbage(handle.game(), seed)?;
    perfect_keeps_wins(&handle, seed)?;
    crate::view_laws::check(handle.game(), seed)?;
    own_players_have_words(handle.game())?;
    Ok(())
}

/// Each of the game's own players declares its words for a menu with it
/// (`PlayerKind::with_words`), unless it stands in for a generic player whose
/// words it takes.
fn own_players_have_words<G: Registered>(game: &G) -> Result<(), String> {
    for kind in game.custom_player_kinds() {
        if kind.words.trim().is_empty() && GenericPlayer::from_name(&kind.name).is_none() {
            return Err(format!(
                "{}: its own player '{}' has no words for a menu",
                G::NAME,
                kind.name
            ));
        }
    }
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
                let short = game.short_move(&state, mv);
                if game.parse_move(&state, &short).ok() != Some(mv) {
                    return Err(format!(
                        "{}: move '{mt}' at '{text}' written short as '{short}' does not parse back to it",
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

/// The laws of the optional capabilities, on positions of random playouts: the
/// symmetry laws for every symmetry the game declares (values compared where the
/// game is small enough to have an exact oracle here), and the presentation's
/// words for every legal move.
fn capability_laws<G: Registered>(handle: &Arc<Handle<G>>, seed: u64) -> Result<(), String> {
    let game = handle.game();
    let oracle = if game.is_small() && game.symmetry_count() > 1 {
        handle.oracle()
    } else {
        None
    };
    let mut rng = tabula_core::rng_from_seed(seed ^ 0x5177);
    let mut moves = Vec::new();
    for _ in 0..6 {
        let mut state = game.initial_state();
        for _ in 0..200 {
            symmetry_laws(game, oracle.as_deref(), &state)?;
            presentation_laws(game, &state)?;
            moves.clear();
            game.legal_moves(&state, &mut moves);
            if game.turn(&state).is_over() || moves.is_empty() {
                break;
            }
            let mv = moves[rng.gen_range(0..moves.len())];
            game.play_unchecked(&mut state, mv);
        }
    }
    Ok(())
}

/// Checks the [`Symmetry`] laws at `state`: symmetry 0 is the identity; every
/// symmetry has an inverse in range that undoes it; the image has the same turn,
/// its legal moves are exactly the images of the legal moves, and playing an
/// image move gives the image of the position after the move; with an `oracle`,
/// the image has the same value and remoteness when the oracle knows both.
pub fn symmetry_laws<G: Symmetry + Notation>(
    game: &G,
    oracle: Option<&dyn Oracle<G>>,
    state: &G::State,
) -> Result<(), String> {
    let name = G::NAME;
    let count = game.symmetry_count();
    let text = game.format_position(state);
    if count == 0 {
        return Err(format!(
            "{name}: no symmetries (the identity counts as one)"
        ));
    }
    let mut moves = Vec::new();
    game.legal_moves(state, &mut moves);
    if game.map_state(state, 0) != *state || moves.iter().any(|&m| game.map_move(state, m, 0) != m)
    {
        return Err(format!(
            "{name}: symmetry 0 is not the identity at '{text}'"
        ));
    }
    let turn = game.turn(state);
    let grade = |s: &G::State| -> Option<Graded> { oracle.and_then(|o| o.grade(game, s)) };
    let value = grade(state);
    let mut image_moves = Vec::new();
    for k in 1..count {
        let back = game.inverse_symmetry(k);
        if back >= count {
            return Err(format!(
                "{name}: the inverse of symmetry {k} is {back}, out of range"
            ));
        }
        let image = game.map_state(state, k);
        if game.map_state(&image, back) != *state {
            return Err(format!(
                "{name}: symmetry {k} then its inverse {back} does not give back '{text}'"
            ));
        }
        if game.turn(&image) != turn {
            return Err(format!(
                "{name}: symmetry {k} changes whose turn it is at '{text}'"
            ));
        }
        image_moves.clear();
        game.legal_moves(&image, &mut image_moves);
        let mut mapped: Vec<G::Move> = Vec::with_capacity(moves.len());
        for &m in &moves {
            let m2 = game.map_move(state, m, k);
            if !image_moves.contains(&m2) {
                return Err(format!(
                    "{name}: symmetry {k} maps the legal move '{}' at '{text}' to a move that is not legal in the image",
                    game.format_move(state, m)
                ));
            }
            if game.map_move(&image, m2, back) != m {
                return Err(format!(
                    "{name}: symmetry {k} then its inverse does not give back the move '{}' at '{text}'",
                    game.format_move(state, m)
                ));
            }
            let mut after = state.clone();
            game.play_unchecked(&mut after, m);
            let mut image_after = image.clone();
            game.play_unchecked(&mut image_after, m2);
            if image_after != game.map_state(&after, k) {
                return Err(format!(
                    "{name}: under symmetry {k}, playing '{}' at '{text}' and mapping differ",
                    game.format_move(state, m)
                ));
            }
            if !mapped.contains(&m2) {
                mapped.push(m2);
            }
        }
        if mapped.len() != image_moves.len() {
            return Err(format!(
                "{name}: symmetry {k} at '{text}': {} legal moves map onto {} of the image's {}",
                moves.len(),
                mapped.len(),
                image_moves.len()
            ));
        }
        // An oracle solved from one start may not know an image that start
        // cannot reach (Mu Torere's restricted first move): compare known values.
        if let (Some(v), Some(w)) = (value, grade(&image)) {
            if v != w {
                return Err(format!(
                    "{name}: symmetry {k} changes the value of '{text}' ({v:?} against {w:?})"
                ));
            }
        }
    }
    Ok(())
}

/// The presentation's laws at `state`: every legal move is described in words
/// (the move log never shows an empty line for a move of a player), its words
/// with typed parts say what its words say, and the board drawing is not empty.
fn presentation_laws<G: Presentation>(game: &G, state: &G::State) -> Result<(), String> {
    let name = G::NAME;
    if game.render_text(state).trim().is_empty() {
        return Err(format!(
            "{name}: the board drawing of '{}' is empty",
            game.format_position(state)
        ));
    }
    if let Turn::Move(_) = game.turn(state) {
        let mut moves = Vec::new();
        game.legal_moves(state, &mut moves);
        for mv in moves {
            if game.describe_move(state, mv).trim().is_empty() {
                return Err(format!(
                    "{name}: the move '{}' at '{}' is described by nothing",
                    game.format_move(state, mv),
                    game.format_position(state)
                ));
            }
            let (words, parts) = (game.move_words(state, mv), game.move_parts(state, mv));
            if parts.to_string() != words {
                return Err(format!(
                    "{name}: the move '{}' at '{}' is '{words}' in words but '{parts}' in parts",
                    game.format_move(state, mv),
                    game.format_position(state)
                ));
            }
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

#[cfg(test)]
mod tests {
    use super::symmetry_laws;
    use tabula_ai::retrograde::Solution;
    use tabula_core::{
        ExactAnalysis, Game, Graded, Notation, Oracle, Outcome, ParseError, Symmetry, Turn, Value,
    };

    /// Three cells in a row; players take turns filling one; whoever fills the
    /// middle wins. Its one symmetry besides the identity is the mirror.
    #[derive(Clone)]
    struct Row {
        /// How the mirror is (mis)implemented.
        fault: Fault,
    }

    #[derive(Clone, Copy, PartialEq)]
    enum Fault {
        None,
        /// Moves are not mirrored with the board.
        MovesUnmapped,
        /// The inverse of the mirror is out of range.
        BadInverse,
        /// The mirror hands the move to the other side.
        SwapsTurn,
    }

    /// Cells (bit i: cell i filled) and the side to move.
    type RowState = (u8, usize);

    impl Game for Row {
        type State = RowState;
        type Move = u8;
        const NAME: &'static str = "row";
        fn seats(&self) -> &'static [&'static str] {
            &["A", "B"]
        }
        fn initial_state(&self) -> RowState {
            (0, 0)
        }
        fn turn(&self, s: &RowState) -> Turn {
            if s.0 & 2 != 0 {
                Turn::Over(Outcome::Win(1 - s.1))
            } else {
                Turn::Move(s.1)
            }
        }
        fn legal_moves(&self, s: &RowState, out: &mut Vec<u8>) {
            if !self.turn(s).is_over() {
                out.extend((0..3).filter(|i| s.0 & (1 << i) == 0));
            }
        }
        fn play_unchecked(&self, s: &mut RowState, mv: u8) {
            s.0 |= 1 << mv;
            s.1 = 1 - s.1;
        }
    }

    impl Notation for Row {
        fn parse_move(&self, _: &RowState, text: &str) -> Result<u8, ParseError> {
            text.parse().map_err(|_| ParseError::new("a cell 0..2"))
        }
        fn format_move(&self, _: &RowState, mv: u8) -> String {
            mv.to_string()
        }
        fn parse_position(&self, _: &str) -> Result<RowState, ParseError> {
            Err(ParseError::new("not needed"))
        }
        fn format_position(&self, s: &RowState) -> String {
            format!("{:03b} {}", s.0, s.1)
        }
    }

    impl Symmetry for Row {
        fn symmetry_count(&self) -> usize {
            2
        }
        fn map_state(&self, s: &RowState, k: usize) -> RowState {
            if k == 0 {
                return *s;
            }
            let mirrored = (s.0 & 2) | ((s.0 & 1) << 2) | ((s.0 >> 2) & 1);
            let side = if self.fault == Fault::SwapsTurn {
                1 - s.1
            } else {
                s.1
            };
            (mirrored, side)
        }
        fn map_move(&self, _: &RowState, mv: u8, k: usize) -> u8 {
            if k == 0 || self.fault == Fault::MovesUnmapped {
                mv
            } else {
                2 - mv
            }
        }
        fn inverse_symmetry(&self, k: usize) -> usize {
            if self.fault == Fault::BadInverse {
                k + 5
            } else {
                k
            }
        }
    }

    impl ExactAnalysis for Row {}

    /// Every position of the row, from the start.
    fn positions() -> Vec<RowState> {
        (0u8..8).flat_map(|b| [(b, 0), (b, 1)]).collect()
    }

    #[test]
    fn a_true_mirror_keeps_the_laws_with_and_without_values() {
        let game = Row { fault: Fault::None };
        let solution = Solution::solve(&game, &game.initial_state(), 100).unwrap();
        for s in positions() {
            symmetry_laws(&game, None, &s).unwrap();
            symmetry_laws(&game, Some(&solution as &dyn Oracle<Row>), &s).unwrap();
        }
    }

    #[test]
    fn a_broken_mirror_is_caught() {
        for fault in [Fault::MovesUnmapped, Fault::BadInverse, Fault::SwapsTurn] {
            let game = Row { fault };
            let caught = positions()
                .iter()
                .filter_map(|s| symmetry_laws(&game, None, s).err())
                .next();
            assert!(caught.is_some(), "a broken mirror passed");
        }
    }

    /// An oracle that calls a position won when its left cell is filled: it
    /// knows every position but disagrees with the mirror.
    struct LeftWins;

    impl Oracle<Row> for LeftWins {
        fn grade(&self, _: &Row, s: &RowState) -> Option<Graded> {
            let value = if s.0 & 1 != 0 {
                Value::Win
            } else {
                Value::Loss
            };
            Some(Graded {
                value,
                remoteness: 1,
            })
        }
    }

    #[test]
    fn values_that_differ_from_the_image_are_caught() {
        let game = Row { fault: Fault::None };
        let err = symmetry_laws(&game, Some(&LeftWins as &dyn Oracle<Row>), &(1, 1)).unwrap_err();
        assert!(err.contains("changes the value"), "{err}");
    }
}

/// Random playouts per game and variant for the action laws.
const ACTION_PLAYOUTS: usize = 4;
/// Plies a playout of a game without a natural length bound is followed for.
const ACTION_PLIES: usize = 600;

/// The [`Actions`] laws on random playouts of `game` under the rules of actual
/// play ([`PlayTracker`]): at every position the laws of [`action_laws_at`], and
/// every game over (by its rules or its draw rules) within
/// [`Actions::max_game_length`] plies when that is below the engine's cap
/// (games so bounded are played to the end; the others for 600 plies,
/// `ACTION_PLIES`).
pub fn action_laws<G: Actions + Notation + MatchRules>(game: &G, seed: u64) -> Result<(), String> {
    let mut rng = tabula_core::rng_from_seed(seed ^ 0xAC71);
    let most = game.max_game_length();
    let bounded = most < UNBOUNDED_GAME_PLIES;
    let mut moves = Vec::new();
    for _ in 0..ACTION_PLAYOUTS {
        let mut state = game.initial_state();
        let mut tracker = PlayTracker::new(game, &state);
        let mut plies = 0;
        loop {
            let text = game.format_position(&state);
            action_laws_at(game, &state, &text, &mut rng)?;
            if tracker.turn(game, &state).is_over() {
                let cut = !game.turn(&state).is_over()
                    && tracker.end(&state).is_some_and(|e| e.is_cut_off());
                if bounded && cut {
                    return Err(format!(
                        "{}: the game at '{text}' goes on after {plies} plies, the most it declares",
                        G::NAME
                    ));
                }
                break;
            }
            if !bounded && plies >= ACTION_PLIES {
                break;
            }
            moves.clear();
            game.legal_moves(&state, &mut moves);
            if moves.is_empty() {
                break;
            }
            let mv = moves[rng.gen_range(0..moves.len())];
            tracker.play(game, &mut state, mv);
            plies += 1;
        }
    }
    Ok(())
}

/// [`action_laws`] on every named variant of the game ([`Registered::presets`]).
fn preset_action_laws<G: Registered>(seed: u64) -> Result<(), String> {
    for preset in G::presets() {
        let variant = Variant::parse(preset.variant).map_err(|e| e.to_string())?;
        let game = G::from_variant(&variant)
            .map_err(|e| format!("{}: preset '{}' does not build: {e}", G::NAME, preset.name))?;
        action_laws(&game, seed)
            .map_err(|e| format!("{e} (in the variant '{}')", preset.variant))?;
    }
    Ok(())
}

/// The [`Actions`] laws at one position (`text` names it in messages): legal
/// moves have distinct ids below [`Actions::num_distinct_actions`] (chance
/// outcomes below [`Actions::max_chance_outcomes`], with probabilities that
/// sum to 1), `move_of(action_of(m)) == m`, `move_of` of an id no legal move
/// has is `None` (every id when there are few, else a random sample and the
/// ids past the end), and every seat's observation has as many numbers as the
/// shape says.
pub fn action_laws_at<G: Actions>(
    game: &G,
    state: &G::State,
    text: &str,
    rng: &mut tabula_core::Rng,
) -> Result<(), String> {
    let name = G::NAME;
    let turn = game.turn(state);
    let mut moves = Vec::new();
    game.legal_moves(state, &mut moves);
    let limit = match turn {
        Turn::Chance => game.max_chance_outcomes(),
        _ => game.num_distinct_actions(),
    };
    let mut ids = std::collections::HashSet::new();
    for &mv in &moves {
        let id = game.action_of(state, mv);
        if id >= limit {
            return Err(format!(
                "{name}: move {mv:?} at '{text}' has id {id}, not below {limit}"
            ));
        }
        if !ids.insert(id) {
            return Err(format!(
                "{name}: two legal moves at '{text}' share the id {id}"
            ));
        }
        if game.move_of(state, id) != Some(mv) {
            return Err(format!(
                "{name}: id {id} of move {mv:?} at '{text}' maps back to {:?}",
                game.move_of(state, id)
            ));
        }
    }
    if let Turn::Chance = turn {
        let mut outcomes = Vec::new();
        game.chance_outcomes(state, &mut outcomes);
        let total: f64 = outcomes.iter().map(|(_, p)| p).sum();
        let outcome_ids: std::collections::HashSet<usize> = outcomes
            .iter()
            .map(|&(m, _)| game.action_of(state, m))
            .collect();
        if (total - 1.0).abs() > 1e-9
            || outcomes.iter().any(|&(_, p)| p <= 0.0)
            || outcome_ids.len() != outcomes.len()
        {
            return Err(format!(
                "{name}: the chance outcomes at '{text}' do not have distinct ids and \
                 positive probabilities summing to 1"
            ));
        }
    }
    let mut probes: Vec<usize> = if limit <= 256 {
        (0..limit).collect()
    } else {
        (0..64).map(|_| rng.gen_range(0..limit)).collect()
    };
    probes.extend([limit, limit + 1, usize::MAX]);
    for id in probes {
        if !ids.contains(&id) {
            if let Some(mv) = game.move_of(state, id) {
                return Err(format!(
                    "{name}: id {id} is no legal move's at '{text}' but names {mv:?}"
                ));
            }
        }
    }
    let size: usize = game.observation_shape().iter().product();
    let mut out = Vec::new();
    for seat in 0..game.seats().len() {
        game.observation(state, seat, &mut out);
        if out.len() != size {
            return Err(format!(
                "{name}: the observation of '{text}' for seat {seat} has {} numbers, \
                 its shape {:?} says {size}",
                out.len(),
                game.observation_shape()
            ));
        }
        if out.iter().any(|x| !x.is_finite()) {
            return Err(format!(
                "{name}: the observation of '{text}' for seat {seat} is not all numbers"
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod action_tests {
    use super::{action_laws, action_laws_at};
    use tabula_core::actions::move_with_id;
    use tabula_core::{Actions, Game, MatchRules, Notation, ParseError, Seat, Turn};
    use tabula_tictactoe::{Board, Square, TicTacToe};

    /// Tic-tac-toe with its action encoding broken on purpose.
    #[derive(Clone)]
    struct Faulty(TicTacToe, Fault);

    #[derive(Clone, Copy, PartialEq, Debug)]
    enum Fault {
        None,
        /// Squares 8 and 7 share an id.
        SharedId,
        /// Ids run 1..=9 while only 9 are declared.
        PastTheEnd,
        /// `move_of` hands out any square, taken or not.
        AnySquare,
        /// The observation is one number short.
        ShortObservation,
        /// The declared length bound is too small.
        TooShort,
    }

    impl Game for Faulty {
        type State = Board;
        type Move = Square;
        const NAME: &'static str = "faulty";
        fn seats(&self) -> &'static [&'static str] {
            self.0.seats()
        }
        fn initial_state(&self) -> Board {
            self.0.initial_state()
        }
        fn turn(&self, s: &Board) -> Turn {
            self.0.turn(s)
        }
        fn legal_moves(&self, s: &Board, out: &mut Vec<Square>) {
            self.0.legal_moves(s, out)
        }
        fn play_unchecked(&self, s: &mut Board, mv: Square) {
            self.0.play_unchecked(s, mv)
        }
    }

    impl Notation for Faulty {
        fn parse_move(&self, s: &Board, text: &str) -> Result<Square, ParseError> {
            self.0.parse_move(s, text)
        }
        fn format_move(&self, s: &Board, mv: Square) -> String {
            self.0.format_move(s, mv)
        }
        fn parse_position(&self, text: &str) -> Result<Board, ParseError> {
            self.0.parse_position(text)
        }
        fn format_position(&self, s: &Board) -> String {
            self.0.format_position(s)
        }
    }

    impl MatchRules for Faulty {}

    impl Actions for Faulty {
        fn num_distinct_actions(&self) -> usize {
            9
        }
        fn action_of(&self, s: &Board, mv: Square) -> usize {
            match self.1 {
                Fault::SharedId if mv.0 == 8 => 7,
                Fault::PastTheEnd => usize::from(mv.0) + 1,
                _ => self.0.action_of(s, mv),
            }
        }
        fn move_of(&self, s: &Board, action: usize) -> Option<Square> {
            match self.1 {
                Fault::AnySquare => (action < 9).then_some(Square(action as u8)),
                _ => move_with_id(self, s, action),
            }
        }
        fn observation_shape(&self) -> Vec<usize> {
            self.0.observation_shape()
        }
        fn observation(&self, s: &Board, seat: Seat, out: &mut Vec<f32>) {
            self.0.observation(s, seat, out);
            if self.1 == Fault::ShortObservation {
                out.pop();
            }
        }
        fn max_game_length(&self) -> usize {
            if self.1 == Fault::TooShort {
                4
            } else {
                9
            }
        }
    }

    #[test]
    fn a_sound_encoding_passes() {
        action_laws(&Faulty(TicTacToe::default(), Fault::None), 1).unwrap();
    }

    #[test]
    fn every_broken_encoding_is_caught() {
        for fault in [
            Fault::SharedId,
            Fault::PastTheEnd,
            Fault::AnySquare,
            Fault::ShortObservation,
            Fault::TooShort,
        ] {
            let game = Faulty(TicTacToe::default(), fault);
            assert!(
                action_laws(&game, 1).is_err(),
                "{fault:?} was not caught by the action laws"
            );
        }
    }

    #[test]
    fn a_taken_square_is_no_action() {
        let game = Faulty(TicTacToe::default(), Fault::AnySquare);
        let mut state = game.initial_state();
        game.play_unchecked(&mut state, Square(4));
        let mut rng = tabula_core::rng_from_seed(1);
        let err = action_laws_at(&game, &state, "after 5", &mut rng).unwrap_err();
        assert!(err.contains("id 4 is no legal move's"), "{err}");
    }
}
