//! Score tallies per pair (or set) of players: wins per seat and the Cat's draws.

use crate::damaged::{column, count, json_column, text_of, DamagedRow, Listed};
use crate::{game_words, now, GameTitles, Result, Store, Writer};
use rusqlite::{params, OptionalExtension, Row};
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

/// The columns of a tally, in the order [`tally`] reads them.
const COLUMNS: [&str; 7] = [
    "game",
    "variant",
    "players",
    "wins",
    "cat",
    "games",
    "updated_at",
];

/// A tally's row in words, as far as its game and players can be read.
fn tally_words(titles: GameTitles, row: &Row<'_>) -> String {
    let game = text_of(row, 0).map_or_else(|| "a game".into(), |g| game_words(titles, &g));
    let variant = text_of(row, 1).filter(|v| !v.is_empty());
    let players = column::<String>(row, 2, "", "")
        .ok()
        .and_then(|p| serde_json::from_str::<Vec<String>>(&p).ok());
    let mut words = format!("the tally of {game}");
    if let Some(v) = variant {
        words.push_str(&format!(" ({v})"));
    }
    if let Some(p) = players {
        words.push_str(&format!(" between {}", p.join(" and ")));
    }
    words
}

/// One tally row (the columns of [`COLUMNS`]), or what makes it unreadable.
fn tally(titles: GameTitles, row: &Row<'_>) -> std::result::Result<TallyRow, DamagedRow> {
    let read = || -> std::result::Result<TallyRow, String> {
        Ok(TallyRow {
            game: column(row, 0, "game", "text")?,
            variant: column(row, 1, "variant", "text")?,
            players: json_column(row, 2, "list of players", "a list of names")?,
            wins: json_column(row, 3, "list of wins", "a list of counts")?,
            cat: count(row, 4, "count of draws")?,
            games: count(row, 5, "count of games")?,
        })
    };
    read().map_err(|problem| DamagedRow::new(tally_words(titles, row), problem))
}

impl Writer<'_> {
    /// Adds a change to the tally of `players` (one name per seat) in a game
    /// variant. A stored tally that cannot be read is set aside, kept whole,
    /// and a fresh one starts from this change.
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
        let found = self
            .conn
            .prepare_cached(
                "SELECT game, variant, players, wins, cat, games FROM tallies
                 WHERE game = ?1 AND variant = ?2 AND players = ?3",
            )?
            .query_row(params![game, variant, key], |r| Ok(tally(self.titles, r)))
            .optional()?;
        let (mut wins, cat, games): (Vec<u64>, u64, u64) = match found {
            Some(Ok(t)) => (t.wins, t.cat, t.games),
            Some(Err(damaged)) => {
                self.set_aside(
                    "tallies",
                    &COLUMNS,
                    "game = ?1 AND variant = ?2 AND players = ?3",
                    params![game, variant, key],
                    &damaged.row,
                    &damaged.problem,
                )?;
                (Vec::new(), 0, 0)
            }
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
    /// Tallies of one game (or all), most recently changed first; the rows that
    /// cannot be read, and those set aside, are listed as damaged.
    pub fn tallies(&self, game: Option<&str>) -> Result<Listed<TallyRow>> {
        self.read(|r| {
            let mut stmt = r.conn.prepare(
                "SELECT game, variant, players, wins, cat, games FROM tallies
                 WHERE (?1 IS NULL OR game = ?1) ORDER BY updated_at DESC, rowid DESC",
            )?;
            let read = stmt
                .query_map([game], |row| Ok(tally(r.titles, row)))?
                .collect::<std::result::Result<Vec<_>, _>>()?;
            let mut listed = Listed::default();
            for row in read {
                match row {
                    Ok(t) => listed.rows.push(t),
                    Err(d) => listed.damaged.push(d),
                }
            }
            listed.damaged.extend(r.set_aside_rows(Some("tallies"))?);
            Ok(listed)
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
        let t = s.tallies(Some("tictactoe")).unwrap().rows;
        assert_eq!(t.len(), 2);
        let hp = t
            .iter()
            .find(|r| r.players == p("human", "perfect"))
            .unwrap();
        assert_eq!((hp.wins.clone(), hp.cat, hp.games), (vec![1, 0], 2, 3));
        assert_eq!(s.tallies(None).unwrap().rows.len(), 3);
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
        let t = s.tallies(Some("nim")).unwrap().rows;
        assert_eq!(
            (t[0].wins.clone(), t[0].cat, t[0].games),
            (vec![0, 0], 0, 0)
        );
        s.add_tally("nim", "", &players, &TallyDelta::default())
            .unwrap();
    }

    /// A damaged tally is refused alone and listed in words; adding to it sets
    /// it aside whole (still listed) and starts it afresh.
    #[test]
    fn a_damaged_tally_is_refused_alone_then_set_aside_when_added_to() {
        let (_d, s) = temp_store();
        let win = TallyDelta {
            wins: vec![1, 0],
            cat: 0,
            games: 1,
        };
        for second in ["perfect", "random", "matchbox"] {
            s.add_tally("tictactoe", "", &p("human", second), &win)
                .unwrap();
        }
        s.write(|w| {
            w.conn.execute(
                "UPDATE tallies SET wins = 'lots' WHERE players = '[\"human\",\"random\"]'",
                [],
            )?;
            w.conn.execute(
                "UPDATE tallies SET games = -3 WHERE players = '[\"human\",\"matchbox\"]'",
                [],
            )?;
            Ok(())
        })
        .unwrap();
        let listed = s.tallies(Some("tictactoe")).unwrap();
        assert_eq!(listed.rows.len(), 1);
        assert_eq!(listed.rows[0].players, p("human", "perfect"));
        let words: Vec<&str> = listed.damaged.iter().map(|d| d.message.as_str()).collect();
        assert_eq!(words.len(), 2, "{words:?}");
        assert!(words.contains(&"The tally of tictactoe between human and random cannot be read: its list of wins is not valid JSON"), "{words:?}");
        assert!(words.contains(&"The tally of tictactoe between human and matchbox cannot be read: its count of games is -3, below zero"), "{words:?}");

        // A game between human and random ends: counted afresh, the damaged row kept aside.
        s.add_tally("tictactoe", "", &p("human", "random"), &win)
            .unwrap();
        let listed = s.tallies(Some("tictactoe")).unwrap();
        assert_eq!(listed.rows.len(), 2);
        let fresh = listed
            .rows
            .iter()
            .find(|r| r.players == p("human", "random"))
            .unwrap();
        assert_eq!((fresh.wins.clone(), fresh.games), (vec![1, 0], 1));
        assert_eq!(listed.damaged.len(), 2);
        let aside = listed
            .damaged
            .iter()
            .find(|d| d.set_aside_at.is_some())
            .expect("set aside");
        assert!(
            aside.message.contains("human and random"),
            "{}",
            aside.message
        );
        let kept: String = s
            .read(|r| {
                Ok(r.conn
                    .query_row("SELECT content FROM set_aside", [], |row| row.get(0))?)
            })
            .unwrap();
        assert!(kept.contains("wins = 'lots'"), "kept whole: {kept}");
    }

    /// Whoever opens the store names the games: a damaged row then says the
    /// game's title, not its id, and a game it has no title for keeps its id.
    #[test]
    fn a_damaged_row_names_its_game_by_the_title_given() {
        let (_d, s) = temp_store();
        s.set_game_titles(|id| (id == "tictactoe").then_some("Tic-tac-toe"));
        let win = TallyDelta {
            wins: vec![1, 0],
            cat: 0,
            games: 1,
        };
        for game in ["tictactoe", "unknown"] {
            s.add_tally(game, "", &p("human", "random"), &win).unwrap();
        }
        s.write(|w| {
            w.conn.execute("UPDATE tallies SET wins = 'lots'", [])?;
            Ok(())
        })
        .unwrap();
        let words = |game| s.tallies(Some(game)).unwrap().damaged[0].message.clone();
        assert_eq!(
            words("tictactoe"),
            "The tally of Tic-tac-toe between human and random cannot be read: its list of wins is not valid JSON"
        );
        assert!(words("unknown").starts_with("The tally of unknown between"));
        // Set aside when added to, it keeps the title in its words.
        s.add_tally("tictactoe", "", &p("human", "random"), &win)
            .unwrap();
        let listed = s.tallies(Some("tictactoe")).unwrap();
        let aside = listed.damaged.iter().find(|d| d.set_aside_at.is_some());
        assert!(
            aside.is_some_and(|d| d.message.starts_with("The tally of Tic-tac-toe")),
            "{:?}",
            listed.damaged
        );
    }
}
