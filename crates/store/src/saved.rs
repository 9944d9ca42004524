//! Saved games: a named copy of a match's full record (dice included), so it
//! replays exactly with `DynGame::resume`.

use crate::damaged::{column, count, json_column, text_of, DamagedRow, Listed};
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

const COLUMNS: &str =
    "id, name, game, variant, players, moves, result, created_at, updated_at, rowid";

/// A saved game's row in words, as far as its id and name can be read.
fn saved_words(row: &Row<'_>) -> String {
    match (text_of(row, 1), text_of(row, 0)) {
        (Some(name), _) => format!("the saved game \"{name}\""),
        (None, Some(id)) => format!("the saved game with id {id}"),
        (None, None) => match row.get::<_, i64>(9) {
            Ok(n) => format!("saved game number {n}"),
            Err(_) => "a saved game".into(),
        },
    }
}

/// The listed facts of a saved game's row (the columns of [`COLUMNS`]), or
/// what makes it unreadable.
fn summary(row: &Row<'_>) -> std::result::Result<SavedGame, DamagedRow> {
    let read = || -> std::result::Result<SavedGame, String> {
        Ok(SavedGame {
            id: column(row, 0, "id", "text")?,
            name: column(row, 1, "name", "text")?,
            game: column(row, 2, "game", "text")?,
            variant: column(row, 3, "variant", "text")?,
            players: json_column(row, 4, "list of players", "a list of names")?,
            moves: count(row, 5, "number of moves")? as usize,
            result: column(row, 6, "result", "text")?,
            created_at: column(row, 7, "date", "a whole number")?,
            updated_at: column(row, 8, "date of change", "a whole number")?,
        })
    };
    read().map_err(|problem| DamagedRow::new(saved_words(row), problem).with_id(text_of(row, 0)))
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
                // A damaged save of that name is replaced whole (its date too,
                // when that cannot be read): the caller asked to replace it.
                self.conn
                    .query_row(
                        "SELECT id, created_at FROM saved_games WHERE name = ?1 AND typeof(id) = 'text'",
                        [n],
                        |r| Ok((r.get::<_, String>(0)?, r.get::<_, i64>(1).unwrap_or(t))),
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
                 record = excluded.record, created_at = excluded.created_at,
                 updated_at = excluded.updated_at",
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
    /// Saved games (of one game, or all), most recent first; a row that cannot
    /// be read is listed as damaged and the others as usual.
    pub fn list_saved(&self, game: Option<&str>) -> Result<Listed<SavedGame>> {
        let sql = format!(
            "SELECT {COLUMNS}, CASE WHEN typeof(record) = 'text' THEN json_valid(record) ELSE 0 END
             FROM saved_games WHERE (?1 IS NULL OR game = ?1) ORDER BY updated_at DESC, rowid DESC"
        );
        let mut stmt = self.conn.prepare(&sql)?;
        let read = stmt
            .query_map([game], |r| {
                // The record is not read for a list, only checked to be JSON.
                Ok(summary(r).and_then(|saved| match r.get::<_, i64>(10) {
                    Ok(1) => Ok(saved),
                    _ => Err(
                        DamagedRow::new(saved_words(r), "its record is not valid JSON")
                            .with_id(Some(saved.id)),
                    ),
                }))
            })?
            .collect::<std::result::Result<Vec<_>, _>>()?;
        let mut listed = Listed::default();
        for row in read {
            match row {
                Ok(saved) => listed.rows.push(saved),
                Err(damaged) => listed.damaged.push(damaged),
            }
        }
        Ok(listed)
    }

    /// A saved game by id, or else by name. One that cannot be read (its
    /// listed facts or its record) is [`StoreError::Damaged`].
    pub fn load_game<R: StoredRecord>(&self, id_or_name: &str) -> Result<Option<(SavedGame, R)>> {
        let sql = format!("SELECT {COLUMNS}, record FROM saved_games WHERE id = ?1 OR name = ?2 ORDER BY id = ?1 DESC LIMIT 1");
        let found = self
            .conn
            .query_row(&sql, params![id_or_name, id_or_name.trim()], |r| {
                Ok(summary(r).and_then(|saved| {
                    json_column::<R>(r, 10, "record", "a game's record")
                        .map(|record| (saved, record))
                        .map_err(|problem| {
                            DamagedRow::new(saved_words(r), problem).with_id(text_of(r, 0))
                        })
                }))
            })
            .optional()?;
        match found {
            None => Ok(None),
            Some(Ok(found)) => Ok(Some(found)),
            Some(Err(damaged)) => Err(StoreError::Damaged(damaged)),
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

    /// Saved games (of one game, or all), most recent first, and the rows that
    /// cannot be read.
    pub fn list_saved(&self, game: Option<&str>) -> Result<Listed<SavedGame>> {
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
    use crate::StoreError;

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

        assert_eq!(s.list_saved(None).unwrap().rows.len(), 2);
        let only = s.list_saved(Some("tictactoe")).unwrap().rows;
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
        assert_eq!(s.list_saved(None).unwrap().rows.len(), 1);
    }

    #[test]
    fn bad_names_are_refused() {
        let (_d, s) = temp_store();
        let r = record("tictactoe", &[]);
        assert!(s.save_game(Some("  "), &r, None).is_err());
        assert!(s.save_game(Some("a\nb"), &r, None).is_err());
        assert!(s.save_game(Some(&"x".repeat(101)), &r, None).is_err());
        assert_eq!(s.list_saved(None).unwrap(), Default::default());
    }

    /// Each way a row can be damaged: that row alone is refused, in words,
    /// and the others are listed and load as usual.
    #[test]
    fn a_damaged_saved_game_is_refused_alone_in_words() {
        let (_d, s) = temp_store();
        let cases = [
            (
                "players",
                "UPDATE saved_games SET players = 'not json' WHERE name = 'players'",
                "its list of players is not valid JSON",
            ),
            (
                "shape",
                "UPDATE saved_games SET players = '[1, 2]' WHERE name = 'shape'",
                "its list of players is not a list of names",
            ),
            (
                "moves",
                "UPDATE saved_games SET moves = 'many' WHERE name = 'moves'",
                "its number of moves is text, not a whole number",
            ),
            (
                "date",
                "UPDATE saved_games SET created_at = 'Sunday' WHERE name = 'date'",
                "its date is text, not a whole number",
            ),
            (
                "record",
                "UPDATE saved_games SET record = '{' WHERE name = 'record'",
                "its record is not valid JSON",
            ),
            (
                "blob",
                "UPDATE saved_games SET name = X'00ff' WHERE name = 'blob'",
                "its name is binary data, not text",
            ),
        ];
        let good = s
            .save_game(Some("good"), &record("tictactoe", &["b2"]), None)
            .unwrap();
        let mut ids = Vec::new();
        for (name, sql, _) in cases {
            ids.push(
                s.save_game(Some(name), &record("tictactoe", &["b2"]), None)
                    .unwrap()
                    .id,
            );
            s.write(|w| Ok(w.conn.execute(sql, [])?)).unwrap();
        }
        let listed = s.list_saved(None).unwrap();
        assert_eq!(listed.rows, vec![good.clone()]);
        assert_eq!(listed.damaged.len(), cases.len(), "{:?}", listed.damaged);
        for ((name, _, words), id) in cases.iter().zip(&ids) {
            match s.load_game::<Record>(id) {
                Err(StoreError::Damaged(d)) => {
                    assert!(d.message.contains(words), "{name}: {}", d.message);
                    assert_eq!(d.id.as_ref(), Some(id));
                    if *name != "blob" {
                        assert!(
                            d.message
                                .starts_with(&format!("The saved game \"{name}\" cannot be read")),
                            "{}",
                            d.message
                        );
                    }
                }
                other => panic!("{name}: {other:?}"),
            }
        }
        assert!(s.load_game::<Record>("good").unwrap().is_some());
        // Saving under a damaged save's name replaces it whole; deleting one works.
        s.save_game(Some("date"), &record("tictactoe", &["a1"]), None)
            .unwrap();
        assert!(s.load_game::<Record>("date").unwrap().is_some());
        assert!(s.delete_saved(&ids[0]).unwrap());
        assert_eq!(s.list_saved(None).unwrap().damaged.len(), cases.len() - 2);
    }
}
