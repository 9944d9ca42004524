//! Learned state of learning players (matchboxes), per game, variant, seat and
//! kind of learner.

use crate::damaged::{column, count, json_column, text_of, DamagedRow, Listed};
use crate::{game_words, now, GameTitles, Result, Store, StoreError, Writer};
use rusqlite::{params, OptionalExtension, Row};
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

/// A learner's row in words.
fn learned_words(titles: GameTitles, key: &LearnedKey) -> String {
    let variant = if key.variant.is_empty() {
        String::new()
    } else {
        format!(" ({})", key.variant)
    };
    format!(
        "the learned state of {} in seat {} of {}{variant}",
        key.player,
        key.seat + 1,
        game_words(titles, &key.game)
    )
}

/// The same, for a row whose key columns may be damaged.
fn row_words(titles: GameTitles, row: &Row<'_>) -> String {
    let seat = row.get::<_, i64>(2).ok().map_or(String::new(), |s| {
        format!(" in seat {}", s.saturating_add(1))
    });
    format!(
        "the learned state of {}{seat} of {}",
        text_of(row, 3).unwrap_or_else(|| "a player".into()),
        text_of(row, 0).map_or_else(|| "a game".into(), |g| game_words(titles, &g))
    )
}

/// One learner's row (game, variant, seat, player, state, updated_at).
fn learned_row(titles: GameTitles, row: &Row<'_>) -> std::result::Result<LearnedRow, DamagedRow> {
    let read = || -> std::result::Result<LearnedRow, String> {
        Ok(LearnedRow {
            key: LearnedKey {
                game: column(row, 0, "game", "text")?,
                variant: column(row, 1, "variant", "text")?,
                seat: count(row, 2, "seat")? as usize,
                player: column(row, 3, "player", "text")?,
            },
            state: json_column(row, 4, "state", "JSON")?,
            updated_at: column(row, 5, "date of change", "a whole number")?,
        })
    };
    read().map_err(|problem| DamagedRow::new(row_words(titles, row), problem))
}

/// The columns of a learner's row.
const COLUMNS: [&str; 6] = ["game", "variant", "seat", "player", "state", "updated_at"];

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
    /// A learner's stored state. A row that cannot be read is
    /// [`StoreError::Damaged`] (set it aside with [`Store::set_aside_learned`]
    /// to start the learner afresh without losing it).
    pub fn learned(&self, key: &LearnedKey) -> Result<Option<Json>> {
        self.read(|r| {
            let found = r
                .conn
                .query_row(
                    "SELECT state FROM learned WHERE game = ?1 AND variant = ?2 AND seat = ?3 AND player = ?4",
                    params![key.game, key.variant, key.seat as i64, key.player],
                    |row| Ok(json_column::<Json>(row, 0, "state", "JSON")),
                )
                .optional()?;
            match found {
                None => Ok(None),
                Some(Ok(state)) => Ok(Some(state)),
                Some(Err(problem)) => Err(StoreError::Damaged(DamagedRow::new(
                    learned_words(r.titles, key),
                    problem,
                ))),
            }
        })
    }

    /// Sets a learner's stored state aside (kept whole, listed as damaged) when
    /// it cannot be used: `problem` says why, in words. Its learner starts afresh.
    pub fn set_aside_learned(&self, key: &LearnedKey, problem: &str) -> Result<()> {
        self.write(|w| {
            w.set_aside(
                "learned",
                &COLUMNS,
                "game = ?1 AND variant = ?2 AND seat = ?3 AND player = ?4",
                params![key.game, key.variant, key.seat as i64, key.player],
                &learned_words(w.titles, key),
                problem,
            )
        })
    }

    /// Every stored learner of a game (or of all games); the rows that cannot
    /// be read, and those set aside, are listed as damaged.
    pub fn learned_list(&self, game: Option<&str>) -> Result<Listed<LearnedRow>> {
        self.read(|r| {
            let mut stmt = r.conn.prepare(
                "SELECT game, variant, seat, player, state, updated_at FROM learned
                 WHERE (?1 IS NULL OR game = ?1) ORDER BY game, variant, seat, player",
            )?;
            let read = stmt
                .query_map([game], |row| Ok(learned_row(r.titles, row)))?
                .collect::<std::result::Result<Vec<_>, _>>()?;
            let mut listed = Listed::default();
            for row in read {
                match row {
                    Ok(l) => listed.rows.push(l),
                    Err(d) => listed.damaged.push(d),
                }
            }
            listed.damaged.extend(r.set_aside_rows(Some("learned"))?);
            Ok(listed)
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
        assert_eq!(s.learned_list(Some("hexapawn")).unwrap().rows.len(), 3);
        assert_eq!(s.learned_list(Some("nim")).unwrap(), Listed::default());
    }

    /// A damaged learner's row is refused alone, in words; set aside, it is
    /// kept whole and listed, and the learner's next boxes take its place.
    #[test]
    fn a_damaged_learned_row_is_refused_alone_and_can_be_set_aside() {
        let (_d, s) = temp_store();
        s.put_learned(&key(0, "matchbox"), &json!({"boxes": 3}))
            .unwrap();
        s.put_learned(&key(1, "matchbox"), &json!({"boxes": 4}))
            .unwrap();
        s.write(|w| {
            Ok(w.conn
                .execute("UPDATE learned SET state = 'boxes!' WHERE seat = 1", [])?)
        })
        .unwrap();
        match s.learned(&key(1, "matchbox")) {
            Err(StoreError::Damaged(d)) => assert_eq!(
                d.message,
                "The learned state of matchbox in seat 2 of hexapawn cannot be read: its state is not valid JSON"
            ),
            other => panic!("{other:?}"),
        }
        assert_eq!(
            s.learned(&key(0, "matchbox")).unwrap(),
            Some(json!({"boxes": 3}))
        );
        let listed = s.learned_list(None).unwrap();
        assert_eq!((listed.rows.len(), listed.damaged.len()), (1, 1));

        s.set_aside_learned(&key(1, "matchbox"), "its state is not valid JSON")
            .unwrap();
        assert_eq!(s.learned(&key(1, "matchbox")).unwrap(), None);
        s.put_learned(&key(1, "matchbox"), &json!({"boxes": 0}))
            .unwrap();
        let listed = s.learned_list(None).unwrap();
        assert_eq!(listed.rows.len(), 2);
        assert_eq!(listed.damaged.len(), 1);
        assert!(listed.damaged[0].set_aside_at.is_some());
    }
}
