//! Saved games: a named copy of a match's full record (dice included), so it
//! replays exactly with `DynGame::resume`.

use crate::{now, Reader, Result, Store, StoreError, Writer};
use rusqlite::{params, OptionalExtension, Row};
use serde::{Deserialize, Serialize};
use tabula_core::StoredRecord;

/// A saved game as listed (the record itself is loaded separately).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SavedGame {
    /// Random id (hex).
    pub id: String,
    /// Unique name; saving under an existing name replaces that save.
    pub name: String,
    /// Registry name of the game.
    pub game: String,
    /// Variant text.
    pub variant: String,
    /// One player name per seat.
    pub players: Vec<String>,
    /// Moves in the record.
    pub moves: usize,
    /// The result in words, if the game had ended.
    pub result: Option<String>,
    /// Unix seconds.
    pub created_at: i64,
    /// Unix seconds.
    pub updated_at: i64,
}

/// Longest name accepted for a saved game.
pub const MAX_NAME: usize = 100;

/// 128 random bits from the OS, as 32 hex digits.
pub fn random_id() -> String {
    use rand::RngCore;
    let mut bytes = [0u8; 16];
    rand::rngs::OsRng.fill_bytes(&mut bytes);
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn check_name(name: &str) -> Result<&str> {
    let name = name.trim();
    if name.is_empty() || name.chars().count() > MAX_NAME || name.chars().any(char::is_control) {
        return Err(StoreError::Invalid(format!(
            "a saved game's name must be 1 to {MAX_NAME} characters without control characters"
        )));
    }
    Ok(name)
}

const COLUMNS: &str = "id, name, game, variant, players, moves, result, created_at, updated_at";

fn summary(row: &Row<'_>) -> rusqlite::Result<(SavedGame, String)> {
    let players: String = row.get(4)?;
    Ok((
        SavedGame {
            id: row.get(0)?,
            name: row.get(1)?,
            game: row.get(2)?,
            variant: row.get(3)?,
            players: Vec::new(),
            moves: row.get::<_, i64>(5)? as usize,
            result: row.get(6)?,
            created_at: row.get(7)?,
            updated_at: row.get(8)?,
        },
        players,
    ))
}

fn with_players((mut s, players): (SavedGame, String)) -> Result<SavedGame> {
    s.players = serde_json::from_str(&players)?;
    Ok(s)
}

impl Writer<'_> {
    /// Saves a record under `name` (replacing a save of that name), or under a
    /// fresh name when `name` is `None`. `result` is the result in words, if over.
    pub fn save_game<R: StoredRecord>(
        &self,
        name: Option<&str>,
        record: &R,
        result: Option<&str>,
    ) -> Result<SavedGame> {
        let t = now();
        let players = serde_json::to_string(record.players())?;
        let json = serde_json::to_string(record)?;
        let existing = match name {
            Some(n) => {
                let n = check_name(n)?;
                self.conn
                    .query_row(
                        "SELECT id, created_at FROM saved_games WHERE name = ?1",
                        [n],
                        |r| Ok((r.get::<_, String>(0)?, r.get::<_, i64>(1)?)),
                    )
                    .optional()?
                    .map(|(id, created)| (id, created, n.to_string()))
            }
            None => None,
        };
        let (id, created_at, name) = match existing {
            Some(e) => e,
            None => {
                let id = random_id();
                let name = match name {
                    Some(n) => n.trim().to_string(),
                    None => format!("{} {}", record.game(), &id[..8]),
                };
                (id, t, name)
            }
        };
        self.conn.execute(
            "INSERT INTO saved_games (id, name, game, variant, players, moves, result, record, created_at, updated_at)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)
             ON CONFLICT(id) DO UPDATE SET game = excluded.game, variant = excluded.variant,
                 players = excluded.players, moves = excluded.moves, result = excluded.result,
                 record = excluded.record, updated_at = excluded.updated_at",
            params![id, name, record.game(), record.variant(), players, record.moves() as i64, result, json, created_at, t],
        )?;
        Ok(SavedGame {
            id,
            name,
            game: record.game().to_string(),
            variant: record.variant().to_string(),
            players: record.players().to_vec(),
            moves: record.moves(),
            result: result.map(str::to_string),
            created_at,
            updated_at: t,
        })
    }

    /// Deletes a saved game by id; false if there was none.
    pub fn delete_saved(&self, id: &str) -> Result<bool> {
        Ok(self
            .conn
            .execute("DELETE FROM saved_games WHERE id = ?1", [id])?
            > 0)
    }
}

impl Reader<'_> {
    /// Saved games (of one game, or all), most recent first.
    pub fn list_saved(&self, game: Option<&str>) -> Result<Vec<SavedGame>> {
        let sql = format!(
            "SELECT {COLUMNS} FROM saved_games WHERE (?1 IS NULL OR game = ?1) ORDER BY updated_at DESC, rowid DESC"
        );
        let mut stmt = self.conn.prepare(&sql)?;
        let rows = stmt
            .query_map([game], summary)?
            .collect::<std::result::Result<Vec<_>, _>>()?;
        rows.into_iter().map(with_players).collect()
    }

    /// A saved game by id, or else by name.
    pub fn load_game<R: StoredRecord>(&self, id_or_name: &str) -> Result<Option<(SavedGame, R)>> {
        let sql = format!("SELECT {COLUMNS}, record FROM saved_games WHERE id = ?1 OR name = ?2 ORDER BY id = ?1 DESC LIMIT 1");
        let found = self
            .conn
            .query_row(&sql, params![id_or_name, id_or_name.trim()], |r| {
                Ok((summary(r)?, r.get::<_, String>(9)?))
            })
            .optional()?;
        match found {
            Some((s, record)) => Ok(Some((with_players(s)?, serde_json::from_str(&record)?))),
            None => Ok(None),
        }
    }
}

impl Store {
    /// Saves a match record; see [`Writer::save_game`].
    pub fn save_game<R: StoredRecord>(
        &self,
        name: Option<&str>,
        record: &R,
        result: Option<&str>,
    ) -> Result<SavedGame> {
        self.write(|w| w.save_game(name, record, result))
    }

    /// A saved game by id or name, with its record (resume it with `DynGame::resume`).
    pub fn load_game<R: StoredRecord>(&self, id_or_name: &str) -> Result<Option<(SavedGame, R)>> {
        self.read(|r| r.load_game(id_or_name))
    }

    /// Saved games (of one game, or all), most recent first.
    pub fn list_saved(&self, game: Option<&str>) -> Result<Vec<SavedGame>> {
        self.read(|r| r.list_saved(game))
    }

    /// Deletes a saved game by id.
    pub fn delete_saved(&self, id: &str) -> Result<bool> {
        self.write(|w| w.delete_saved(id))
    }
}

#[cfg(test)]
mod tests {
    use crate::sessions::tests::{record, Record};
    use crate::test_util::temp_store;

    #[test]
    fn save_list_load_delete() {
        let (_d, s) = temp_store();
        let r = record("tictactoe", &["b2", "a1"]);
        let a = s.save_game(Some("first"), &r, None).unwrap();
        assert_eq!(a.id.len(), 32);
        assert_eq!(a.moves, 2);
        assert_eq!(a.players, vec!["human".to_string(), "random".to_string()]);
        let b = s
            .save_game(None, &record("hexapawn", &[]), Some("White wins"))
            .unwrap();
        assert!(b.name.starts_with("hexapawn "));
        assert_ne!(a.id, b.id);

        let (sa, ra) = s.load_game::<Record>("first").unwrap().unwrap();
        assert_eq!(sa, a);
        assert_eq!(ra, r);
        let (sb, _) = s.load_game::<Record>(&b.id).unwrap().unwrap();
        assert_eq!(sb.result.as_deref(), Some("White wins"));

        assert_eq!(s.list_saved(None).unwrap().len(), 2);
        let only = s.list_saved(Some("tictactoe")).unwrap();
        assert_eq!(only.len(), 1);
        assert_eq!(only[0].name, "first");

        assert!(s.delete_saved(&a.id).unwrap());
        assert!(!s.delete_saved(&a.id).unwrap());
        assert_eq!(s.load_game::<Record>("first").unwrap(), None);
    }

    #[test]
    fn saving_under_a_taken_name_replaces_that_save() {
        let (_d, s) = temp_store();
        let a = s
            .save_game(Some("slot"), &record("tictactoe", &["b2"]), None)
            .unwrap();
        let b = s
            .save_game(Some(" slot "), &record("tictactoe", &["b2", "c3"]), None)
            .unwrap();
        assert_eq!(a.id, b.id);
        assert_eq!(a.created_at, b.created_at);
        let (_, r) = s.load_game::<Record>("slot").unwrap().unwrap();
        assert_eq!(r.moves.len(), 2);
        assert_eq!(s.list_saved(None).unwrap().len(), 1);
    }

    #[test]
    fn bad_names_are_refused() {
        let (_d, s) = temp_store();
        let r = record("tictactoe", &[]);
        assert!(s.save_game(Some("  "), &r, None).is_err());
        assert!(s.save_game(Some("a\nb"), &r, None).is_err());
        assert!(s.save_game(Some(&"x".repeat(101)), &r, None).is_err());
        assert!(s.list_saved(None).unwrap().is_empty());
    }
}
