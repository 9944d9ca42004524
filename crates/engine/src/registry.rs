//! The list of games. Registering a game is one line in [`registry`].

use crate::handle::{DynGame, Handle};
use crate::EngineError;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};
use tabula_core::{Registered, Variant, VariantOption};

/// A registered game: its name, and how to build it in a variant.
#[derive(Clone)]
pub struct GameEntry {
    /// Registry name.
    pub name: &'static str,
    /// Title.
    pub title: &'static str,
    /// One sentence.
    pub summary: &'static str,
    /// The variant options.
    pub options: fn() -> Vec<VariantOption>,
    build: fn(&Variant) -> Result<Arc<dyn DynGame>, EngineError>,
    check: fn(&Variant, u64) -> Result<(), String>,
}

impl GameEntry {
    /// Runs the shared conformance checks ([`crate::conformance`]) on this game.
    pub fn check(&self, variant: &str, seed: u64) -> Result<(), String> {
        let v = Variant::parse(variant).map_err(|e| e.to_string())?;
        (self.check)(&v, seed)
    }
}

/// The registry entry of a game type.
pub fn entry<G: Registered>() -> GameEntry {
    fn build<G: Registered>(v: &Variant) -> Result<Arc<dyn DynGame>, EngineError> {
        v.check_known(G::NAME, &G::options())?;
        let game = G::from_variant(v)?;
        Ok(Arc::new(Handle::new(game)))
    }
    fn check<G: Registered>(v: &Variant, seed: u64) -> Result<(), String> {
        let game = G::from_variant(v).map_err(|e| e.to_string())?;
        crate::conformance::check_game(game, seed)
    }
    GameEntry {
        name: G::NAME,
        title: G::TITLE,
        summary: G::SUMMARY,
        options: G::options,
        build: build::<G>,
        check: check::<G>,
    }
}

/// Every game, in the order they are listed.
pub fn registry() -> Vec<GameEntry> {
    vec![
        entry::<tabula_tictactoe::TicTacToe>(),
        entry::<tabula_hexapawn::Hexapawn>(),
        entry::<tabula_kono::Kono>(),
        entry::<tabula_mutorere::MuTorere>(),
        entry::<tabula_nim::Nim>(),
        entry::<tabula_northcott::Northcott>(),
        entry::<tabula_auto120::Auto120>(),
        entry::<tabula_samegame::SameGame>(),
        entry::<tabula_poggle::Poggle>(),
    ]
}

/// Finds a game by name (case-insensitive; `_` and `-` are interchangeable).
pub fn find(name: &str) -> Result<GameEntry, EngineError> {
    let norm = |s: &str| s.to_ascii_lowercase().replace('_', "-");
    let wanted = norm(name);
    registry()
        .into_iter()
        .find(|e| {
            norm(e.name) == wanted || norm(e.name).replace('-', "") == wanted.replace('-', "")
        })
        .ok_or_else(|| EngineError::UnknownGame(name.chars().take(40).collect()))
}

type Cache = Mutex<HashMap<(String, String), Arc<dyn DynGame>>>;

/// Builds (or reuses) a game in a variant. Handles are cached so that solutions
/// are computed once per process.
pub fn build(name: &str, variant: &str) -> Result<Arc<dyn DynGame>, EngineError> {
    static CACHE: OnceLock<Cache> = OnceLock::new();
    let entry = find(name)?;
    let v = Variant::parse(variant)?;
    let key = (entry.name.to_string(), v.to_string());
    let cache = CACHE.get_or_init(Default::default);
    if let Some(h) = cache.lock().ok().and_then(|c| c.get(&key).cloned()) {
        return Ok(h);
    }
    let handle = (entry.build)(&v)?;
    if let Ok(mut c) = cache.lock() {
        if c.len() >= 256 {
            c.clear();
        }
        c.insert(key, handle.clone());
    }
    Ok(handle)
}
