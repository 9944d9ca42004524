//! Live sessions: the record of every match being played, rewritten with each
//! acknowledged change.

use crate::{now, Reader, Result, Store, Writer};
use rusqlite::{params, OptionalExtension};
use tabula_core::StoredRecord;

impl Writer<'_> {
    /// Creates or replaces the record of a live session.
    pub fn put_session<R: StoredRecord>(&self, id: &str, record: &R) -> Result<()> {
        let json = serde_json::to_string(record)?;
        let t = now();
        // Cached: this statement runs for every move.
        self.conn
            .prepare_cached(
                "INSERT INTO sessions (id, game, variant, record, moves, created_at, updated_at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?6)
                 ON CONFLICT(id) DO UPDATE SET record = excluded.record, moves = excluded.moves,
                     variant = excluded.variant, updated_at = excluded.updated_at",
            )?
            .execute(params![
                id,
                record.game(),
                record.variant(),
                json,
                record.moves() as i64,
                t
            ])?;
        Ok(())
    }

    /// Forgets the live sessions nobody has changed for `idle_seconds` (abandoned
    /// browser tabs); saved games are separate and never pruned. Returns how many.
    pub fn prune_sessions(&self, idle_seconds: i64) -> Result<usize> {
        Ok(self.conn.execute(
            "DELETE FROM sessions WHERE updated_at < ?1",
            [now().saturating_sub(idle_seconds)],
        )?)
    }

    /// Forgets a live session.
    pub fn delete_session(&self, id: &str) -> Result<bool> {
        Ok(self
            .conn
            .execute("DELETE FROM sessions WHERE id = ?1", [id])?
            > 0)
    }
}

impl Reader<'_> {
    /// The record of a live session.
    pub fn session<R: StoredRecord>(&self, id: &str) -> Result<Option<R>> {
        let text: Option<String> = self
            .conn
            .query_row("SELECT record FROM sessions WHERE id = ?1", [id], |r| {
                r.get(0)
            })
            .optional()?;
        Ok(match text {
            Some(t) => Some(serde_json::from_str(&t)?),
            None => None,
        })
    }

    /// Ids of all live sessions, most recently changed first.
    pub fn session_ids(&self) -> Result<Vec<String>> {
        let mut stmt = self
            .conn
            .prepare("SELECT id FROM sessions ORDER BY updated_at DESC, rowid DESC")?;
        let ids = stmt
            .query_map([], |r| r.get(0))?
            .collect::<std::result::Result<_, _>>()?;
        Ok(ids)
    }
}

impl Store {
    /// Creates or replaces the record of a live session (its own transaction).
    pub fn put_session<R: StoredRecord>(&self, id: &str, record: &R) -> Result<()> {
        self.write(|w| w.put_session(id, record))
    }

    /// The record of a live session.
    pub fn session<R: StoredRecord>(&self, id: &str) -> Result<Option<R>> {
        self.read(|r| r.session(id))
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use crate::test_util::temp_store;
    use serde::{Deserialize, Serialize};
    use tabula_core::StoredRecord;

    /// A record as the store sees one: a few facts it lists, the rest opaque.
    #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
    pub struct Record {
        pub game: String,
        pub variant: String,
        pub players: Vec<String>,
        pub moves: Vec<String>,
        /// What the store does not understand and keeps as it is.
        pub rest: serde_json::Value,
    }

    impl StoredRecord for Record {
        fn game(&self) -> &str {
            &self.game
        }
        fn variant(&self) -> &str {
            &self.variant
        }
        fn players(&self) -> &[String] {
            &self.players
        }
        fn moves(&self) -> usize {
            self.moves.len()
        }
    }

    pub fn record(game: &str, moves: &[&str]) -> Record {
        Record {
            game: game.into(),
            variant: String::new(),
            players: vec!["human".into(), "random".into()],
            moves: moves.iter().map(|m| m.to_string()).collect(),
            rest: serde_json::json!({"tally": {"wins": [1, 0], "cat": 2, "games": 3}, "learned": [null, {"boxes": [1, 2, 3]}]}),
        }
    }

    #[test]
    fn session_records_round_trip_and_update() {
        let (_d, s) = temp_store();
        assert_eq!(s.session::<Record>("nope").unwrap(), None);
        let r1 = record("tictactoe", &["b2"]);
        s.put_session("abc", &r1).unwrap();
        assert_eq!(s.session("abc").unwrap().as_ref(), Some(&r1));
        let r2 = record("tictactoe", &["b2", "a1", "c3"]);
        s.put_session("abc", &r2).unwrap();
        assert_eq!(s.session("abc").unwrap().as_ref(), Some(&r2));
        s.put_session("def", &r1).unwrap();
        let ids = s.read(|r| r.session_ids()).unwrap();
        assert_eq!(ids.len(), 2);
        assert!(s.write(|w| w.delete_session("abc")).unwrap());
        assert_eq!(s.session::<Record>("abc").unwrap(), None);
    }

    #[test]
    fn pruning_forgets_only_long_idle_sessions() {
        let (_d, s) = temp_store();
        let r = record("tictactoe", &["b2"]);
        s.put_session("old", &r).unwrap();
        s.put_session("new", &r).unwrap();
        let day = 24 * 3600;
        s.write(|w| {
            w.conn.execute(
                "UPDATE sessions SET updated_at = updated_at - ?1 WHERE id = 'old'",
                [100 * day],
            )?;
            Ok(())
        })
        .unwrap();
        assert_eq!(s.write(|w| w.prune_sessions(90 * day)).unwrap(), 1);
        assert_eq!(s.session::<Record>("old").unwrap(), None);
        assert_eq!(s.session("new").unwrap().as_ref(), Some(&r));
        assert_eq!(s.write(|w| w.prune_sessions(90 * day)).unwrap(), 0);
    }
}
