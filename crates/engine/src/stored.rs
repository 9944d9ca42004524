//! A match's record as the store keeps it: JSON text listed by a few facts.

use crate::record::MatchRecord;
use tabula_core::StoredRecord;

impl StoredRecord for MatchRecord {
    fn game(&self) -> &str {
        &self.game
    }
    fn variant(&self) -> &str {
        &self.variant
    }
    fn players(&self) -> &[String] {
        &self.config.players
    }
    fn moves(&self) -> usize {
        self.moves.len()
    }
}
