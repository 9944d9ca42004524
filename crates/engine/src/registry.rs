//! The list of games. Registering a game is one line in [`registry`].

use crate::dyn_game::DynGame;
use crate::engine::Engine;
use crate::handle::Handle;
use crate::EngineError;
use std::sync::Arc;
use tabula_core::{Registered, TestCases, Variant, VariantOption};

type BuildFn = fn(&Engine, &Variant, &[&str]) -> Result<Arc<dyn DynGame>, EngineError>;

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
    /// Options that change only rules of actual play ([`GameEntry::play_rules`]).
    pub play_only: &'static [&'static str],
    /// What the game declares for the shared tests ([`Registered::test_cases`]).
    pub test_cases: fn() -> TestCases,
    build: BuildFn,
    play_limit: fn(&Variant) -> Result<Option<String>, EngineError>,
    check: fn(&Variant, u64) -> Result<(), String>,
    check_stepping: fn(&Variant, u64) -> Result<(), String>,
}

impl GameEntry {
    /// Runs the shared conformance checks ([`crate::conformance`]) on this game.
    pub fn check(&self, variant: &str, seed: u64) -> Result<(), String> {
        let v = Variant::parse(variant).map_err(|e| e.to_string())?;
        (self.check)(&v, seed)
    }

    /// Plays the stepping state against the typed game
    /// ([`crate::step_agreement`]) in this variant.
    pub fn check_stepping(&self, variant: &str, seed: u64) -> Result<(), String> {
        let v = Variant::parse(variant).map_err(|e| e.to_string())?;
        (self.check_stepping)(&v, seed)
    }

    /// The variants the shared tests check in full: the usual game and the
    /// variants the game declares ([`TestCases::variants`]), each once, as
    /// written. (Presets get the checks of their own: they build, and their
    /// action ids follow the laws.)
    pub fn checked_variants(&self) -> Vec<String> {
        let mut out = vec![String::new()];
        for case in (self.test_cases)().variants {
            if !out.iter().any(|o| o == case.variant) {
                out.push(case.variant.to_string());
            }
        }
        out
    }
}

/// The registry entry of a game type.
pub fn entry<G: Registered>() -> GameEntry {
    fn build<G: Registered>(
        engine: &Engine,
        v: &Variant,
        play_only: &[&str],
    ) -> Result<Arc<dyn DynGame>, EngineError> {
        v.check_known(G::NAME, &G::options())?;
        let game = G::from_variant(v).map_err(|e| e.labelled(&G::options()))?;
        let key = (
            G::NAME.to_string(),
            solution_key(&game.variant(), play_only),
        );
        let tables = engine.shared_tables::<G>(key);
        Ok(Arc::new(Handle::sharing(game, tables)))
    }
    fn play_limit<G: Registered>(v: &Variant) -> Result<Option<String>, EngineError> {
        v.check_known(G::NAME, &G::options())?;
        let game = G::from_variant(v).map_err(|e| e.labelled(&G::options()))?;
        Ok(game.play_limit())
    }
    fn check<G: Registered>(v: &Variant, seed: u64) -> Result<(), String> {
        let game = G::from_variant(v).map_err(|e| e.to_string())?;
        crate::conformance::check_game(game, seed)
    }
    fn check_stepping<G: Registered>(v: &Variant, seed: u64) -> Result<(), String> {
        let game = G::from_variant(v).map_err(|e| e.to_string())?;
        crate::step_agreement::check_stepping(game, seed)
    }
    GameEntry {
        name: G::NAME,
        title: G::TITLE,
        summary: G::SUMMARY,
        options: G::options,
        play_only: &[],
        test_cases: G::test_cases,
        build: build::<G>,
        play_limit: play_limit::<G>,
        check: check::<G>,
        check_stepping: check_stepping::<G>,
    }
}

impl GameEntry {
    /// Names the options that only change rules of actual play (draws by
    /// repetition or for lack of progress), not the game's exact solution:
    /// variants that differ only in them share one solution in memory.
    pub fn play_rules(mut self, options: &'static [&'static str]) -> Self {
        self.play_only = options;
        self
    }
}

/// The normalised variant with the options of `play_only` blanked out: the key of
/// the solution tables.
fn solution_key(normalised: &Variant, play_only: &[&str]) -> String {
    let mut v = normalised.clone();
    for name in play_only {
        if v.get(name).is_some() {
            v.set(name, "*");
        }
    }
    v.to_string()
}

/// Every game, in the order they are listed.
pub fn registry() -> Vec<GameEntry> {
    vec![
        entry::<tabula_tictactoe::TicTacToe>(),
        entry::<tabula_hexapawn::Hexapawn>(),
        entry::<tabula_kono::Kono>().play_rules(&["nocapture"]),
        entry::<tabula_mutorere::MuTorere>(),
        entry::<tabula_nim::Nim>(),
        entry::<tabula_northcott::Northcott>().play_rules(&["repetition", "progress"]),
        entry::<tabula_auto120::Auto120>(),
        entry::<tabula_samegame::SameGame>(),
        entry::<tabula_poggle::Poggle>(),
        entry::<tabula_pig::Pig>(),
        entry::<tabula_connect4::ConnectFour>(),
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
        .ok_or_else(|| {
            EngineError::UnknownGame(name.chars().take(40).flat_map(char::escape_debug).collect())
        })
}

/// The title of the game registered as `name` ("Tic-tac-toe" for `tictactoe`),
/// read as [`find`] reads names; `None` for a name no game has.
pub fn title_of(name: &str) -> Option<&'static str> {
    find(name).ok().map(|e| e.title)
}

impl Engine {
    /// Builds (or reuses) a game in a variant. Handles are cached so that
    /// solutions are computed once per engine; the cache is bounded in bytes of
    /// solution ([`Engine::cache_max_memory`]) and forgets the least recently
    /// used games first. Solutions grow after a game is built (the first
    /// perfect move or hint), so the bound is enforced again each time a game
    /// is asked for.
    pub fn build(&self, name: &str, variant: &str) -> Result<Arc<dyn DynGame>, EngineError> {
        let entry = find(name)?;
        let v = Variant::parse(variant)?;
        let key = (entry.name.to_string(), v.to_string());
        if let Some(handle) = self.cached(&key) {
            return Ok(handle);
        }
        let handle = (entry.build)(self, &v, entry.play_only)?;
        self.keep(key, handle.clone());
        Ok(handle)
    }
}

/// [`Engine::build`] in the process's default engine ([`Engine::global`]).
pub fn build(name: &str, variant: &str) -> Result<Arc<dyn DynGame>, EngineError> {
    Engine::global().build(name, variant)
}

/// Refuses, before anything is built, a variant too large to play (a match
/// could not start from it: [`Registered::play_limit`]), with the reason in
/// words; also refuses an unknown game or a bad variant as
/// [`Engine::build`] does.
/// Building a game may take a while for a large variant (its first positions
/// are played to learn whether it has dice), so a request to play checks this
/// first.
pub fn check_playable(name: &str, variant: &str) -> Result<(), EngineError> {
    let entry = find(name)?;
    let v = Variant::parse(variant)?;
    match (entry.play_limit)(&v)? {
        Some(why) => Err(EngineError::Invalid(why)),
        None => Ok(()),
    }
}
