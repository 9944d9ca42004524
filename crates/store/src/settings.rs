//! Settings per game: a JSON object (the server validates its keys and types).

use crate::{now, Result, Store, StoreError, Writer};
use rusqlite::{params, OptionalExtension};
use serde_json::Value as Json;

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
}

impl Store {
    /// The stored settings of a game, if any were saved.
    pub fn settings(&self, game: &str) -> Result<Option<Json>> {
        self.read(|r| {
            let text: Option<String> = r
                .conn
                .query_row("SELECT json FROM settings WHERE game = ?1", [game], |row| {
                    row.get(0)
                })
                .optional()?;
            Ok(match text {
                Some(t) => Some(serde_json::from_str(&t)?),
                None => None,
            })
        })
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
}
