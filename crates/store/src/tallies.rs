//! Score tallies per pair (or set) of players: wins per seat and the Cat's draws.

use crate::{now, Result, Store, Writer};
use rusqlite::{params, OptionalExtension};
use serde::{Deserialize, Serialize};

/// The tally of one game variant between the same players in the same seats.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TallyRow {
    /// Registry name.
    pub game: String,
    /// Variant text.
    pub variant: String,
    /// One player name per seat.
    pub players: Vec<String>,
    /// Games won by each seat.
    pub wins: Vec<u64>,
    /// Draws (and games nobody won): the Cat's.
    pub cat: u64,
    /// Games finished.
    pub games: u64,
}

/// A change of a tally (negative when an undo takes back a finished game).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TallyDelta {
    /// Change of each seat's wins.
    pub wins: Vec<i64>,
    /// Change of the Cat's count.
    pub cat: i64,
    /// Change of the number of games.
    pub games: i64,
}

impl TallyDelta {
    /// True when nothing changes.
    pub fn is_zero(&self) -> bool {
        self.cat == 0 && self.games == 0 && self.wins.iter().all(|w| *w == 0)
    }
}

fn apply(value: u64, delta: i64) -> u64 {
    if delta >= 0 {
        value.saturating_add(delta as u64)
    } else {
        value.saturating_sub(delta.unsigned_abs())
    }
}

impl Writer<'_> {
    /// Adds a change to the tally of `players` (one name per seat) in a game variant.
    pub fn add_tally(
        &self,
        game: &str,
        variant: &str,
        players: &[String],
        delta: &TallyDelta,
    ) -> Result<()> {
        if delta.is_zero() {
            return Ok(());
        }
        let key = serde_json::to_string(players)?;
        // Cached statements (both): every game that ends in a session runs them.
        let found: Option<(String, i64, i64)> = self
            .conn
            .prepare_cached(
                "SELECT wins, cat, games FROM tallies WHERE game = ?1 AND variant = ?2 AND players = ?3",
            )?
            .query_row(params![game, variant, key], |r| {
                Ok((r.get(0)?, r.get(1)?, r.get(2)?))
            })
            .optional()?;
        let (mut wins, cat, games): (Vec<u64>, u64, u64) = match found {
            Some((w, c, g)) => (serde_json::from_str(&w)?, c as u64, g as u64),
            None => (Vec::new(), 0, 0),
        };
        let seats = players.len().max(delta.wins.len());
        wins.resize(wins.len().max(seats), 0);
        for (w, d) in wins.iter_mut().zip(&delta.wins) {
            *w = apply(*w, *d);
        }
        self.conn.prepare_cached(
            "INSERT INTO tallies (game, variant, players, wins, cat, games, updated_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
             ON CONFLICT(game, variant, players) DO UPDATE SET wins = excluded.wins, cat = excluded.cat,
                 games = excluded.games, updated_at = excluded.updated_at",
        )?.execute(
            params![
                game,
                variant,
                key,
                serde_json::to_string(&wins)?,
                apply(cat, delta.cat) as i64,
                apply(games, delta.games) as i64,
                now()
            ],
        )?;
        Ok(())
    }
}

impl Store {
    /// Tallies of one game (or all), most recently changed first.
    pub fn tallies(&self, game: Option<&str>) -> Result<Vec<TallyRow>> {
        self.read(|r| {
            let mut stmt = r.conn.prepare(
                "SELECT game, variant, players, wins, cat, games FROM tallies
                 WHERE (?1 IS NULL OR game = ?1) ORDER BY updated_at DESC, rowid DESC",
            )?;
            let rows = stmt
                .query_map([game], |row| {
                    Ok((
                        row.get::<_, String>(0)?,
                        row.get::<_, String>(1)?,
                        row.get::<_, String>(2)?,
                        row.get::<_, String>(3)?,
                        row.get::<_, i64>(4)?,
                        row.get::<_, i64>(5)?,
                    ))
                })?
                .collect::<std::result::Result<Vec<_>, _>>()?;
            rows.into_iter()
                .map(|(game, variant, players, wins, cat, games)| {
                    Ok(TallyRow {
                        game,
                        variant,
                        players: serde_json::from_str(&players)?,
                        wins: serde_json::from_str(&wins)?,
                        cat: cat as u64,
                        games: games as u64,
                    })
                })
                .collect()
        })
    }

    /// Adds a change to a tally (its own transaction).
    pub fn add_tally(
        &self,
        game: &str,
        variant: &str,
        players: &[String],
        delta: &TallyDelta,
    ) -> Result<()> {
        self.write(|w| w.add_tally(game, variant, players, delta))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_util::temp_store;

    fn p(a: &str, b: &str) -> Vec<String> {
        vec![a.to_string(), b.to_string()]
    }

    #[test]
    fn tallies_add_up_per_pair_with_the_cat() {
        let (_d, s) = temp_store();
        let win0 = TallyDelta {
            wins: vec![1, 0],
            cat: 0,
            games: 1,
        };
        let draw = TallyDelta {
            wins: vec![0, 0],
            cat: 1,
            games: 1,
        };
        s.add_tally("tictactoe", "", &p("human", "perfect"), &win0)
            .unwrap();
        s.add_tally("tictactoe", "", &p("human", "perfect"), &draw)
            .unwrap();
        s.add_tally("tictactoe", "", &p("human", "perfect"), &draw)
            .unwrap();
        s.add_tally("tictactoe", "", &p("perfect", "human"), &win0)
            .unwrap();
        s.add_tally("hexapawn", "", &p("human", "matchbox"), &draw)
            .unwrap();
        let t = s.tallies(Some("tictactoe")).unwrap();
        assert_eq!(t.len(), 2);
        let hp = t
            .iter()
            .find(|r| r.players == p("human", "perfect"))
            .unwrap();
        assert_eq!((hp.wins.clone(), hp.cat, hp.games), (vec![1, 0], 2, 3));
        assert_eq!(s.tallies(None).unwrap().len(), 3);
    }

    #[test]
    fn negative_deltas_take_back_and_never_underflow() {
        let (_d, s) = temp_store();
        let players = p("human", "random");
        s.add_tally(
            "nim",
            "",
            &players,
            &TallyDelta {
                wins: vec![0, 1],
                cat: 0,
                games: 1,
            },
        )
        .unwrap();
        s.add_tally(
            "nim",
            "",
            &players,
            &TallyDelta {
                wins: vec![0, -1],
                cat: 0,
                games: -1,
            },
        )
        .unwrap();
        s.add_tally(
            "nim",
            "",
            &players,
            &TallyDelta {
                wins: vec![-5, 0],
                cat: -1,
                games: -1,
            },
        )
        .unwrap();
        let t = s.tallies(Some("nim")).unwrap();
        assert_eq!(
            (t[0].wins.clone(), t[0].cat, t[0].games),
            (vec![0, 0], 0, 0)
        );
        s.add_tally("nim", "", &players, &TallyDelta::default())
            .unwrap();
    }
}
