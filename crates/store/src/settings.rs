//! Settings per game: a JSON object (the server reads it into its typed
//! settings). A row that cannot be read is refused alone; a write over it sets
//! it aside first, kept whole.

use crate::damaged::{column, json_column, text_of, DamagedRow, Listed};
use crate::{game_words, now, GameTitles, Reader, Result, Store, StoreError, Writer};
use rusqlite::{params, OptionalExtension, Row};
use serde_json::Value as Json;

/// A game's settings row in words.
fn settings_words(titles: GameTitles, game: Option<&str>) -> String {
    match game {
        Some(g) => format!("the settings of {}", game_words(titles, g)),
        None => "the settings of a game".into(),
    }
}

/// The settings object in column 0, or why not.
fn settings_object(row: &Row<'_>) -> std::result::Result<Json, String> {
    let json: Json = json_column(row, 0, "text", "a JSON object")?;
    if json.is_object() {
        Ok(json)
    } else {
        Err("its text is not a JSON object".into())
    }
}

impl Writer<'_> {
    /// Replaces the settings of a game; they must be a JSON object.
    pub fn put_settings(&self, game: &str, settings: &Json) -> Result<()> {
        if !settings.is_object() {
            return Err(StoreError::Invalid("settings must be a JSON object".into()));
        }
        self.conn.execute(
            "INSERT INTO settings (game, json, updated_at) VALUES (?1, ?2, ?3)
             ON CONFLICT(game) DO UPDATE SET json = excluded.json, updated_at = excluded.updated_at",
            params![game, serde_json::to_string(settings)?, now()],
        )?;
        Ok(())
    }

    /// Sets the stored settings of a game aside (kept whole, listed as damaged)
    /// because of `problem`, so that new ones can take their place.
    pub fn set_aside_settings(&self, game: &str, problem: &str) -> Result<()> {
        self.set_aside(
            "settings",
            &["game", "json", "updated_at"],
            "game = ?1",
            params![game],
            &settings_words(self.titles, Some(game)),
            problem,
        )
    }

    /// The stored settings of a game, as [`Store::settings`] reads them.
    pub fn settings(&self, game: &str) -> Result<Option<Json>> {
        Reader {
            conn: self.conn,
            titles: self.titles,
        }
        .settings(game)
    }
}

impl Reader<'_> {
    /// The stored settings of a game; [`StoreError::Damaged`] when the row is
    /// not a JSON object.
    pub fn settings(&self, game: &str) -> Result<Option<Json>> {
        let found = self
            .conn
            .query_row("SELECT json FROM settings WHERE game = ?1", [game], |row| {
                Ok(settings_object(row))
            })
            .optional()?;
        match found {
            None => Ok(None),
            Some(Ok(json)) => Ok(Some(json)),
            Some(Err(problem)) => Err(StoreError::Damaged(DamagedRow::new(
                settings_words(self.titles, Some(game)),
                problem,
            ))),
        }
    }

    /// Every game's stored settings (game, settings); the rows that cannot be
    /// read, and those set aside, are listed as damaged.
    pub fn all_settings(&self) -> Result<Listed<(String, Json)>> {
        let titles = self.titles;
        let mut stmt = self
            .conn
            .prepare("SELECT json, game FROM settings ORDER BY game")?;
        let read = stmt
            .query_map([], |row| {
                let game = text_of(row, 1);
                Ok(column::<String>(row, 1, "game", "text")
                    .and_then(|g| settings_object(row).map(|s| (g, s)))
                    .map_err(|problem| {
                        DamagedRow::new(settings_words(titles, game.as_deref()), problem)
                    }))
            })?
            .collect::<std::result::Result<Vec<_>, _>>()?;
        let mut listed = Listed::default();
        for row in read {
            match row {
                Ok(s) => listed.rows.push(s),
                Err(d) => listed.damaged.push(d),
            }
        }
        listed
            .damaged
            .extend(self.set_aside_rows(Some("settings"))?);
        Ok(listed)
    }
}

impl Store {
    /// The stored settings of a game, if any were saved.
    pub fn settings(&self, game: &str) -> Result<Option<Json>> {
        self.read(|r| r.settings(game))
    }

    /// Replaces the settings of a game.
    pub fn put_settings(&self, game: &str, settings: &Json) -> Result<()> {
        self.write(|w| w.put_settings(game, settings))
    }
}

#[cfg(test)]
mod tests {
    use crate::test_util::temp_store;
    use serde_json::json;

    #[test]
    fn settings_are_per_game_objects() {
        let (_d, s) = temp_store();
        assert_eq!(s.settings("kono").unwrap(), None);
        s.put_settings("kono", &json!({"legend": false, "ai_level": 66}))
            .unwrap();
        s.put_settings("nim", &json!({"legend": true})).unwrap();
        assert_eq!(
            s.settings("kono").unwrap(),
            Some(json!({"legend": false, "ai_level": 66}))
        );
        s.put_settings("kono", &json!({"undo_depth": 3})).unwrap();
        assert_eq!(s.settings("kono").unwrap(), Some(json!({"undo_depth": 3})));
        assert_eq!(s.settings("nim").unwrap(), Some(json!({"legend": true})));
        assert!(s.put_settings("kono", &json!([1, 2])).is_err());
    }

    #[test]
    fn damaged_settings_are_refused_alone_and_set_aside_before_a_write() {
        let (_d, s) = temp_store();
        s.put_settings("kono", &json!({"legend": false})).unwrap();
        s.put_settings("nim", &json!({"legend": true})).unwrap();
        s.write(|w| {
            Ok(w.conn
                .execute("UPDATE settings SET json = '[1' WHERE game = 'kono'", [])?)
        })
        .unwrap();
        match s.settings("kono") {
            Err(crate::StoreError::Damaged(d)) => assert_eq!(
                d.message,
                "The settings of kono cannot be read: its text is not valid JSON"
            ),
            other => panic!("{other:?}"),
        }
        assert_eq!(s.settings("nim").unwrap(), Some(json!({"legend": true})));
        let all = s.read(|r| r.all_settings()).unwrap();
        assert_eq!((all.rows.len(), all.damaged.len()), (1, 1));
        s.write(|w| {
            w.set_aside_settings("kono", "its text is not valid JSON")?;
            w.put_settings("kono", &json!({"legend": true}))
        })
        .unwrap();
        assert_eq!(s.settings("kono").unwrap(), Some(json!({"legend": true})));
        let all = s.read(|r| r.all_settings()).unwrap();
        assert_eq!((all.rows.len(), all.damaged.len()), (2, 1));
    }
}
