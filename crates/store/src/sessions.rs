//! Live sessions: the record of every match being played, rewritten with each
//! acknowledged change. Each write counts the session's revision up and is
//! refused ([`StoreError::Stale`]) when the writer's copy is not the stored
//! revision: a copy that another program changed meanwhile never overwrites
//! what that program acknowledged.

use crate::damaged::{column, from_json, text_of, DamagedRow};
use crate::{now, Reader, Result, Store, StoreError, Writer};
use rusqlite::{params, OptionalExtension};
use tabula_core::StoredRecord;

/// A session's revision: 1 when created, one more with every write.
pub type Revision = i64;

/// A live session's row in words.
fn session_words(id: Option<&str>) -> String {
    match id {
        Some(id) => format!(
            "the game in play {}",
            id.chars().take(8).collect::<String>()
        ),
        None => "a game in play".into(),
    }
}

impl Writer<'_> {
    /// Stores the record of a new live session, at revision 1.
    pub fn insert_session<R: StoredRecord>(&self, id: &str, record: &R) -> Result<Revision> {
        let json = serde_json::to_string(record)?;
        // Cached: this statement runs for every new game (a page's New game).
        self.conn
            .prepare_cached(
                "INSERT INTO sessions (id, game, variant, record, moves, created_at, updated_at, revision, touched)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?6, 1, ?7)",
            )?
            .execute(params![id, record.game(), record.variant(), json, record.moves() as i64, now(), self.now])?;
        Ok(1)
    }

    /// Replaces the record of a live session read at `revision`, and returns
    /// its new revision. Refused with [`StoreError::Stale`] when the stored
    /// revision is another (the session changed, or went, since it was read).
    pub fn update_session<R: StoredRecord>(
        &self,
        id: &str,
        record: &R,
        revision: Revision,
    ) -> Result<Revision> {
        let json = serde_json::to_string(record)?;
        // Cached: this statement runs for every move.
        let changed = self
            .conn
            .prepare_cached(
                "UPDATE sessions SET record = ?3, moves = ?4, variant = ?5, updated_at = ?6,
                     revision = revision + 1, touched = ?7
                 WHERE id = ?1 AND revision = ?2",
            )?
            .execute(params![
                id,
                revision,
                json,
                record.moves() as i64,
                record.variant(),
                now(),
                self.now
            ])?;
        if changed == 0 {
            return Err(StoreError::Stale);
        }
        Ok(revision + 1)
    }

    /// Forgets the live sessions nobody has changed for `idle_seconds` of
    /// store time (abandoned browser tabs: `clock.rs`, so that a wrong wall
    /// clock forgets nothing); saved games are separate and never pruned.
    /// Returns how many.
    pub fn prune_sessions(&self, idle_seconds: i64) -> Result<usize> {
        Ok(self.conn.execute(
            "DELETE FROM sessions WHERE touched < ?1",
            [self.now.saturating_sub(idle_seconds)],
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
    /// The record of a live session with its revision. A row that cannot be
    /// read is [`StoreError::Damaged`].
    pub fn session_at<R: StoredRecord>(&self, id: &str) -> Result<Option<(R, Revision)>> {
        let found = self
            .conn
            .query_row(
                "SELECT record, revision FROM sessions WHERE id = ?1",
                [id],
                |r| {
                    let read = column::<String>(r, 0, "record", "text").and_then(|text| {
                        let revision = column::<i64>(r, 1, "revision", "a whole number")?;
                        Ok((
                            from_json::<R>(&text, "record", "a game's record")?,
                            revision,
                        ))
                    });
                    Ok(read)
                },
            )
            .optional()?;
        match found {
            None => Ok(None),
            Some(Ok(found)) => Ok(Some(found)),
            Some(Err(problem)) => Err(StoreError::Damaged(DamagedRow::new(
                session_words(Some(id)),
                problem,
            ))),
        }
    }

    /// The record of a live session.
    pub fn session<R: StoredRecord>(&self, id: &str) -> Result<Option<R>> {
        Ok(self.session_at(id)?.map(|(r, _)| r))
    }

    /// Ids of all live sessions, most recently changed first (rows whose id is
    /// not text are left out).
    pub fn session_ids(&self) -> Result<Vec<String>> {
        let mut stmt = self.conn.prepare(
            "SELECT id FROM sessions WHERE typeof(id) = 'text'
             ORDER BY updated_at DESC, rowid DESC",
        )?;
        let ids = stmt
            .query_map([], |r| r.get(0))?
            .collect::<std::result::Result<_, _>>()?;
        Ok(ids)
    }

    /// Live sessions whose row cannot be read: an id, record or revision of the
    /// wrong type, or a record that is not JSON (whether it is a match's record
    /// is for the server to find when it is opened).
    pub(crate) fn damaged_sessions(&self) -> Result<Vec<DamagedRow>> {
        let mut stmt = self.conn.prepare(
            "SELECT id, typeof(record), typeof(revision),
                 CASE WHEN typeof(record) = 'text' THEN json_valid(record) ELSE 0 END
             FROM sessions
             WHERE typeof(id) != 'text' OR typeof(revision) != 'integer'
                OR NOT (CASE WHEN typeof(record) = 'text' THEN json_valid(record) ELSE 0 END)",
        )?;
        let rows = stmt
            .query_map([], |r| {
                let id = text_of(r, 0);
                let problem = if r.get::<_, String>(1)? != "text" {
                    "its record is not text".to_string()
                } else if r.get::<_, String>(2)? != "integer" {
                    "its revision is not a whole number".to_string()
                } else if r.get::<_, i64>(3)? == 0 {
                    "its record is not valid JSON".to_string()
                } else {
                    "its id is not text".to_string()
                };
                Ok(DamagedRow::new(session_words(id.as_deref()), problem))
            })?
            .collect::<std::result::Result<_, _>>()?;
        Ok(rows)
    }
}

impl Store {
    /// Stores the record of a new live session (its own transaction).
    pub fn insert_session<R: StoredRecord>(&self, id: &str, record: &R) -> Result<Revision> {
        self.write(|w| w.insert_session(id, record))
    }

    /// The record of a live session.
    pub fn session<R: StoredRecord>(&self, id: &str) -> Result<Option<R>> {
        self.read(|r| r.session(id))
    }

    /// The record of a live session with its revision.
    pub fn session_at<R: StoredRecord>(&self, id: &str) -> Result<Option<(R, Revision)>> {
        self.read(|r| r.session_at(id))
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use crate::test_util::temp_store;
    use crate::StoreError;
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
        assert_eq!(s.insert_session("abc", &r1).unwrap(), 1);
        assert_eq!(s.session("abc").unwrap().as_ref(), Some(&r1));
        let r2 = record("tictactoe", &["b2", "a1", "c3"]);
        assert_eq!(s.write(|w| w.update_session("abc", &r2, 1)).unwrap(), 2);
        assert_eq!(s.session_at("abc").unwrap(), Some((r2, 2)));
        assert!(s.insert_session("abc", &r1).is_err(), "an id is used once");
        s.insert_session("def", &r1).unwrap();
        let ids = s.read(|r| r.session_ids()).unwrap();
        assert_eq!(ids.len(), 2);
        assert!(s.write(|w| w.delete_session("abc")).unwrap());
        assert_eq!(s.session::<Record>("abc").unwrap(), None);
    }

    /// Two copies of one session (two servers on one database): the copy read
    /// before the other's write cannot overwrite what that write stored.
    #[test]
    fn a_write_from_a_stale_copy_is_refused_and_changes_nothing() {
        let (_d, s) = temp_store();
        let start = s
            .insert_session("abc", &record("tictactoe", &["5"]))
            .unwrap();
        // X and Y both read revision 1; Y writes first.
        let y = s
            .write(|w| w.update_session("abc", &record("tictactoe", &["5", "1"]), start))
            .unwrap();
        let x = s.write(|w| w.update_session("abc", &record("tictactoe", &["5", "3"]), start));
        assert!(matches!(x, Err(StoreError::Stale)), "{x:?}");
        assert!(x.unwrap_err().to_string().contains("try again"));
        let (stored, revision) = s.session_at::<Record>("abc").unwrap().unwrap();
        assert_eq!((stored.moves, revision), (vec!["5".into(), "1".into()], y));
        // Read again, X writes on top of Y's move.
        s.write(|w| w.update_session("abc", &record("tictactoe", &["5", "1", "3"]), y))
            .unwrap();
        // A session that went (pruned, deleted) is not written back either.
        s.write(|w| w.delete_session("abc")).unwrap();
        let gone = s.write(|w| w.update_session("abc", &record("tictactoe", &[]), y + 1));
        assert!(matches!(gone, Err(StoreError::Stale)));
        assert_eq!(s.session::<Record>("abc").unwrap(), None);
    }

    #[test]
    fn a_damaged_session_is_refused_alone_in_words() {
        let (_d, s) = temp_store();
        s.insert_session("good", &record("tictactoe", &["5"]))
            .unwrap();
        s.insert_session("bad1", &record("tictactoe", &["5"]))
            .unwrap();
        s.insert_session("bad2", &record("tictactoe", &["5"]))
            .unwrap();
        s.write(|w| {
            w.conn.execute(
                "UPDATE sessions SET record = '{not json' WHERE id = 'bad1'",
                [],
            )?;
            w.conn
                .execute("UPDATE sessions SET revision = 'x' WHERE id = 'bad2'", [])?;
            Ok(())
        })
        .unwrap();
        assert!(s.session::<Record>("good").unwrap().is_some());
        for (id, words) in [
            ("bad1", "record is not valid JSON"),
            ("bad2", "revision is text, not a whole number"),
        ] {
            match s.session::<Record>(id) {
                Err(StoreError::Damaged(d)) => {
                    assert!(d.message.contains(words), "{}", d.message);
                    assert!(d.message.starts_with("The game in play"), "{}", d.message);
                }
                other => panic!("{id}: {other:?}"),
            }
        }
        let damaged = s.read(|r| r.damaged_sessions()).unwrap();
        assert_eq!(damaged.len(), 2, "{damaged:?}");
    }

    #[test]
    fn pruning_forgets_only_long_idle_sessions() {
        let (_d, s) = temp_store();
        let r = record("tictactoe", &["b2"]);
        s.insert_session("old", &r).unwrap();
        s.insert_session("new", &r).unwrap();
        let day = 24 * 3600;
        s.write(|w| {
            w.conn.execute(
                "UPDATE sessions SET touched = touched - ?1 WHERE id = 'old'",
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
