//! What a store needs to know about a record it keeps without understanding it.
//!
//! The database (`tabula-store`) keeps the records of live sessions and saved
//! games as JSON text. It needs a handful of facts to list and find them (the
//! game, the variant, the players, how many moves); the rest of the record is
//! the engine's business. This trait names those facts, so the store depends on
//! this crate only and not on the engine or any game.

use serde::{de::DeserializeOwned, Serialize};

/// A record the store saves as JSON and lists by a few facts.
pub trait StoredRecord: Serialize + DeserializeOwned {
    /// The registry name of the game.
    fn game(&self) -> &str;
    /// The variant text.
    fn variant(&self) -> &str;
    /// One player name per seat.
    fn players(&self) -> &[String];
    /// How many moves the record holds (shown in lists).
    fn moves(&self) -> usize;
}
