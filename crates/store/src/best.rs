//! Best results of puzzles: high scores (SameGame) and fewest moves (Poggle's
//! presses). The best [`KEEP`] of each game variant and metric are kept.

use crate::damaged::{column, text_of, DamagedRow, Listed};
use crate::{game_words, now, GameTitles, Result, Store, Writer};
use rusqlite::{params, Row};
use serde::{Deserialize, Serialize};

/// How many results are kept per game variant and metric.
pub const KEEP: usize = 20;

/// What a best result measures.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Metric {
    /// The puzzle's score: higher is better.
    Score,
    /// Moves to solve it: fewer is better.
    Moves,
}

impl Metric {
    fn name(self) -> &'static str {
        match self {
            Metric::Score => "score",
            Metric::Moves => "moves",
        }
    }
    fn order(self) -> &'static str {
        match self {
            Metric::Score => "value DESC, achieved_at ASC, id ASC",
            Metric::Moves => "value ASC, achieved_at ASC, id ASC",
        }
    }
    fn parse(s: &str) -> Option<Metric> {
        match s {
            "moves" => Some(Metric::Moves),
            "score" => Some(Metric::Score),
            _ => None,
        }
    }
}

/// One best result.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BestRow {
    /// Registry name.
    pub game: String,
    /// Variant text.
    pub variant: String,
    /// What `value` measures.
    pub metric: Metric,
    /// The score, or the number of moves.
    pub value: i64,
    /// Who played (`human`, a computer player).
    pub player: String,
    /// The session it was reached in. Never sent to clients: a session id is the
    /// only key to a live game.
    #[serde(skip_serializing, default)]
    pub session: Option<String>,
    /// Unix seconds.
    pub achieved_at: i64,
    /// How long the game took, in milliseconds, when it was timed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time_ms: Option<i64>,
}

impl Writer<'_> {
    /// Records a result, with the time the game took (milliseconds) when it was
    /// timed; returns its rank (1 = best) if it is among the best kept.
    #[allow(clippy::too_many_arguments)]
    pub fn add_best_timed(
        &self,
        game: &str,
        variant: &str,
        metric: Metric,
        value: i64,
        player: &str,
        session: Option<&str>,
        time_ms: Option<i64>,
    ) -> Result<Option<usize>> {
        self.conn.execute(
            "INSERT INTO best (game, variant, metric, value, player, session, achieved_at, time_ms) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
            params![game, variant, metric.name(), value, player, session, now(), time_ms],
        )?;
        let id = self.conn.last_insert_rowid();
        let ids: Vec<i64> = {
            let sql = format!(
                // A damaged value is neither ranked nor forgotten with the rest.
                "SELECT id FROM best WHERE game = ?1 AND variant = ?2 AND metric = ?3
                 AND typeof(value) = 'integer' ORDER BY {}",
                metric.order()
            );
            let mut stmt = self.conn.prepare(&sql)?;
            let rows = stmt.query_map(params![game, variant, metric.name()], |r| r.get(0))?;
            rows.collect::<std::result::Result<_, _>>()?
        };
        for old in ids.iter().skip(KEEP) {
            self.conn.execute("DELETE FROM best WHERE id = ?1", [old])?;
        }
        Ok(ids.iter().take(KEEP).position(|&i| i == id).map(|p| p + 1))
    }
}

/// A best result's row in words.
fn best_words(titles: GameTitles, row: &Row<'_>) -> String {
    let variant = text_of(row, 1)
        .filter(|v| !v.is_empty())
        .map_or(String::new(), |v| format!(" ({v})"));
    format!(
        "a best result of {}{variant}",
        text_of(row, 0).map_or_else(|| "a game".into(), |g| game_words(titles, &g))
    )
}

/// One best result (the columns of [`Store::best`]'s query).
fn best_row(titles: GameTitles, row: &Row<'_>) -> std::result::Result<BestRow, DamagedRow> {
    let read = || -> std::result::Result<BestRow, String> {
        let metric: String = column(row, 2, "measure", "text")?;
        Ok(BestRow {
            game: column(row, 0, "game", "text")?,
            variant: column(row, 1, "variant", "text")?,
            metric: Metric::parse(&metric).ok_or("its measure is neither score nor moves")?,
            value: column(row, 3, "value", "a whole number")?,
            player: column(row, 4, "player", "text")?,
            session: column(row, 5, "game in play", "text")?,
            achieved_at: column(row, 6, "date", "a whole number")?,
            time_ms: column(row, 7, "time", "a whole number")?,
        })
    };
    read().map_err(|problem| DamagedRow::new(best_words(titles, row), problem))
}

impl Store {
    /// Best results of a game, best first within each variant and metric; the
    /// rows that cannot be read are listed as damaged.
    pub fn best(&self, game: &str) -> Result<Listed<BestRow>> {
        self.read(|r| {
            let mut stmt = r.conn.prepare(
                "SELECT game, variant, metric, value, player, session, achieved_at, time_ms FROM best WHERE game = ?1
                 ORDER BY variant, metric,
                     CASE WHEN metric = 'moves' THEN value ELSE -value END, achieved_at, id",
            )?;
            let read = stmt
                .query_map([game], |row| Ok(best_row(r.titles, row)))?
                .collect::<std::result::Result<Vec<_>, _>>()?;
            let mut listed = Listed::default();
            for row in read {
                match row {
                    Ok(b) => listed.rows.push(b),
                    Err(d) => listed.damaged.push(d),
                }
            }
            Ok(listed)
        })
    }

    /// Every game's damaged best results.
    pub(crate) fn damaged_best(&self) -> Result<Vec<DamagedRow>> {
        let games: Vec<String> = self.read(|r| {
            let mut stmt = r
                .conn
                .prepare("SELECT DISTINCT game FROM best WHERE typeof(game) = 'text'")?;
            let games = stmt
                .query_map([], |row| row.get(0))?
                .collect::<std::result::Result<_, _>>()?;
            Ok(games)
        })?;
        let mut damaged = Vec::new();
        for game in games {
            damaged.extend(self.best(&game)?.damaged);
        }
        let nameless: i64 = self.read(|r| {
            Ok(r.conn.query_row(
                "SELECT COUNT(*) FROM best WHERE typeof(game) != 'text'",
                [],
                |row| row.get(0),
            )?)
        })?;
        damaged.extend(
            (0..nameless).map(|_| DamagedRow::new("a best result", "its game is not text")),
        );
        Ok(damaged)
    }

    /// Records a result (its own transaction); see [`Writer::add_best_timed`].
    pub fn add_best(
        &self,
        game: &str,
        variant: &str,
        metric: Metric,
        value: i64,
        player: &str,
    ) -> Result<Option<usize>> {
        self.write(|w| w.add_best_timed(game, variant, metric, value, player, None, None))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_util::temp_store;

    #[test]
    fn scores_rank_high_first_and_moves_low_first() {
        let (_d, s) = temp_store();
        assert_eq!(
            s.add_best("samegame", "", Metric::Score, 100, "human")
                .unwrap(),
            Some(1)
        );
        assert_eq!(
            s.add_best("samegame", "", Metric::Score, 300, "human")
                .unwrap(),
            Some(1)
        );
        assert_eq!(
            s.add_best("samegame", "", Metric::Score, 200, "human")
                .unwrap(),
            Some(2)
        );
        assert_eq!(
            s.add_best("poggle", "size=3", Metric::Moves, 9, "human")
                .unwrap(),
            Some(1)
        );
        assert_eq!(
            s.add_best("poggle", "size=3", Metric::Moves, 5, "human")
                .unwrap(),
            Some(1)
        );
        let sg: Vec<i64> = s
            .best("samegame")
            .unwrap()
            .rows
            .iter()
            .map(|r| r.value)
            .collect();
        assert_eq!(sg, vec![300, 200, 100]);
        let pg: Vec<i64> = s
            .best("poggle")
            .unwrap()
            .rows
            .iter()
            .map(|r| r.value)
            .collect();
        assert_eq!(pg, vec![5, 9]);
    }

    #[test]
    fn only_the_best_are_kept() {
        let (_d, s) = temp_store();
        for v in 0..(KEEP as i64 + 5) {
            s.add_best("samegame", "", Metric::Score, v, "human")
                .unwrap();
        }
        assert_eq!(
            s.add_best("samegame", "", Metric::Score, -1, "human")
                .unwrap(),
            None
        );
        let rows = s.best("samegame").unwrap().rows;
        assert_eq!(rows.len(), KEEP);
        assert_eq!(rows[0].value, KEEP as i64 + 4);
        assert_eq!(rows[KEEP - 1].value, 5);
    }

    #[test]
    fn a_timed_result_keeps_its_time() {
        let (_d, s) = temp_store();
        s.write(|w| {
            w.add_best_timed(
                "samegame",
                "",
                Metric::Score,
                500,
                "human",
                None,
                Some(61_250),
            )
        })
        .unwrap();
        s.add_best("samegame", "", Metric::Score, 400, "human")
            .unwrap();
        let rows = s.best("samegame").unwrap().rows;
        assert_eq!(rows[0].value, 500);
        assert_eq!(rows[0].time_ms, Some(61_250));
        assert_eq!(rows[1].time_ms, None);
        let json = serde_json::to_value(&rows[0]).unwrap();
        assert_eq!(json["time_ms"], 61_250);
    }

    /// A damaged best result is listed as damaged, never ranked, and never
    /// forgotten by the trim of the rest.
    #[test]
    fn a_damaged_best_result_is_refused_alone() {
        let (_d, s) = temp_store();
        for v in [10, 20, 30] {
            s.add_best("samegame", "", Metric::Score, v, "human")
                .unwrap();
        }
        s.write(|w| {
            w.conn
                .execute("UPDATE best SET value = 'high' WHERE value = 20", [])?;
            w.conn
                .execute("UPDATE best SET metric = 'speed' WHERE value = 10", [])?;
            Ok(())
        })
        .unwrap();
        let listed = s.best("samegame").unwrap();
        assert_eq!(
            listed.rows.iter().map(|r| r.value).collect::<Vec<_>>(),
            vec![30]
        );
        let words: Vec<&str> = listed.damaged.iter().map(|d| d.message.as_str()).collect();
        for expected in [
            "A best result of samegame cannot be read: its value is text, not a whole number",
            "A best result of samegame cannot be read: its measure is neither score nor moves",
        ] {
            assert!(words.contains(&expected), "{words:?}");
        }
        assert_eq!(words.len(), 2);
        // Ranked among the readable ones only, and kept through the trim.
        assert_eq!(
            s.add_best("samegame", "", Metric::Score, 25, "human")
                .unwrap(),
            Some(2)
        );
        for v in 0..(KEEP as i64 + 5) {
            s.add_best("samegame", "", Metric::Score, v, "human")
                .unwrap();
        }
        assert_eq!(s.best("samegame").unwrap().damaged.len(), 2);
        assert_eq!(s.damaged_best().unwrap().len(), 2);
    }
}
