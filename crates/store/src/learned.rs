//! Learned state of learning players (matchboxes), per game, variant, seat and
//! kind of learner.

use crate::{now, Result, Store, Writer};
use rusqlite::{params, OptionalExtension};
use serde::{Deserialize, Serialize};
use serde_json::Value as Json;

/// Whose matchboxes: a learner of one kind in one seat of one game variant.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct LearnedKey {
    /// Registry name.
    pub game: String,
    /// Variant text.
    pub variant: String,
    /// The seat the learner plays.
    pub seat: usize,
    /// The learner's kind (`matchbox`, `menace`), without options.
    pub player: String,
}

/// A stored learned state.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LearnedRow {
    /// Whose.
    #[serde(flatten)]
    pub key: LearnedKey,
    /// The learner's JSON (`Strategy::learned`).
    pub state: Json,
    /// Unix seconds.
    pub updated_at: i64,
}

impl Writer<'_> {
    /// Stores (replaces) a learner's state.
    pub fn put_learned(&self, key: &LearnedKey, state: &Json) -> Result<()> {
        self.conn.execute(
            "INSERT INTO learned (game, variant, seat, player, state, updated_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6)
             ON CONFLICT(game, variant, seat, player) DO UPDATE SET state = excluded.state, updated_at = excluded.updated_at",
            params![key.game, key.variant, key.seat as i64, key.player, serde_json::to_string(state)?, now()],
        )?;
        Ok(())
    }
}

impl Store {
    /// A learner's stored state.
    pub fn learned(&self, key: &LearnedKey) -> Result<Option<Json>> {
        self.read(|r| {
            let text: Option<String> = r
                .conn
                .query_row(
                    "SELECT state FROM learned WHERE game = ?1 AND variant = ?2 AND seat = ?3 AND player = ?4",
                    params![key.game, key.variant, key.seat as i64, key.player],
                    |row| row.get(0),
                )
                .optional()?;
            Ok(match text {
                Some(t) => Some(serde_json::from_str(&t)?),
                None => None,
            })
        })
    }

    /// Every stored learner of a game (or of all games).
    pub fn learned_list(&self, game: Option<&str>) -> Result<Vec<LearnedRow>> {
        self.read(|r| {
            let mut stmt = r.conn.prepare(
                "SELECT game, variant, seat, player, state, updated_at FROM learned
                 WHERE (?1 IS NULL OR game = ?1) ORDER BY game, variant, seat, player",
            )?;
            let rows = stmt
                .query_map([game], |row| {
                    Ok((
                        LearnedKey {
                            game: row.get(0)?,
                            variant: row.get(1)?,
                            seat: row.get::<_, i64>(2)? as usize,
                            player: row.get(3)?,
                        },
                        row.get::<_, String>(4)?,
                        row.get::<_, i64>(5)?,
                    ))
                })?
                .collect::<std::result::Result<Vec<_>, _>>()?;
            rows.into_iter()
                .map(|(key, state, updated_at)| {
                    Ok(LearnedRow {
                        key,
                        state: serde_json::from_str(&state)?,
                        updated_at,
                    })
                })
                .collect()
        })
    }

    /// Stores (replaces) a learner's state.
    pub fn put_learned(&self, key: &LearnedKey, state: &Json) -> Result<()> {
        self.write(|w| w.put_learned(key, state))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_util::temp_store;
    use serde_json::json;

    fn key(seat: usize, player: &str) -> LearnedKey {
        LearnedKey {
            game: "hexapawn".into(),
            variant: "".into(),
            seat,
            player: player.into(),
        }
    }

    #[test]
    fn learned_state_is_per_seat_and_kind() {
        let (_d, s) = temp_store();
        assert_eq!(s.learned(&key(1, "matchbox")).unwrap(), None);
        s.put_learned(&key(1, "matchbox"), &json!({"boxes": 24}))
            .unwrap();
        s.put_learned(&key(0, "matchbox"), &json!({"boxes": 3}))
            .unwrap();
        s.put_learned(&key(1, "menace"), &json!({"boxes": 9}))
            .unwrap();
        s.put_learned(&key(1, "matchbox"), &json!({"boxes": 19}))
            .unwrap();
        assert_eq!(
            s.learned(&key(1, "matchbox")).unwrap(),
            Some(json!({"boxes": 19}))
        );
        assert_eq!(
            s.learned(&key(0, "matchbox")).unwrap(),
            Some(json!({"boxes": 3}))
        );
        assert_eq!(s.learned_list(Some("hexapawn")).unwrap().len(), 3);
        assert!(s.learned_list(Some("nim")).unwrap().is_empty());
    }
}
