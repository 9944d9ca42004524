//! Rows that cannot be read. The database is a file anyone can edit (or a disk
//! can damage), so every row is read on its own: one that cannot be read is
//! refused alone, described in words, and the rest of its list is read as
//! usual ([`Listed`]). A row a write must replace (a tally to add to, a
//! learner's boxes, settings) is first set aside, whole, in the `set_aside`
//! table, so nothing stored is lost; set-aside rows are listed as damaged too.

use crate::log_check::DamagedLog;
use crate::{now, Reader, Result, Writer};
use rusqlite::types::{FromSql, Type, ValueRef};
use rusqlite::{params, Row};
use serde::de::DeserializeOwned;
use serde::Serialize;

/// How many set-aside rows are kept (the oldest are forgotten first).
pub const SET_ASIDE_ROWS: usize = 1000;

/// A row that could not be read.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct DamagedRow {
    /// The row in words, as far as it could be read (`the saved game "Sunday"`).
    pub row: String,
    /// What is wrong with it, in words (`its list of players is not valid JSON`).
    pub problem: String,
    /// The whole sentence, to show as it is.
    pub message: String,
    /// The id to act on the row by, when it has one (a saved game's id:
    /// deleting that saved game removes the row).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// When the row was set aside (Unix seconds), for a row moved out of the way
    /// so that a fresh one could take its place, or a damaged write-ahead log
    /// was found and kept aside (its message says where).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub set_aside_at: Option<i64>,
}

impl DamagedRow {
    /// A damaged row described in words.
    pub fn new(row: impl Into<String>, problem: impl Into<String>) -> DamagedRow {
        let (row, problem) = (row.into(), problem.into());
        let mut message = format!("{row} cannot be read: {problem}");
        if let Some(first) = message.chars().next() {
            message.replace_range(..first.len_utf8(), &first.to_uppercase().to_string());
        }
        DamagedRow {
            row,
            problem,
            message,
            id: None,
            set_aside_at: None,
        }
    }

    /// The same, with the id to act on it by.
    pub fn with_id(mut self, id: Option<String>) -> DamagedRow {
        self.id = id;
        self
    }
}

/// A list read row by row: the rows that could be read, and those that could not.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Listed<T> {
    /// The rows read, in the list's order.
    pub rows: Vec<T>,
    /// The rows that could not be read, in words.
    pub damaged: Vec<DamagedRow>,
}

impl<T> Default for Listed<T> {
    fn default() -> Self {
        Listed {
            rows: Vec::new(),
            damaged: Vec::new(),
        }
    }
}

/// A kind of SQLite value, in words.
fn type_words(t: Type) -> &'static str {
    match t {
        Type::Null => "missing",
        Type::Integer => "a whole number",
        Type::Real => "a number with a fraction",
        Type::Text => "text",
        Type::Blob => "binary data",
    }
}

/// Column `i` as a `T`, or why not in words: "its number of moves is text, not
/// a whole number".
pub(crate) fn column<T: FromSql>(
    row: &Row<'_>,
    i: usize,
    what: &str,
    expected: &str,
) -> std::result::Result<T, String> {
    row.get::<_, T>(i).map_err(|e| match e {
        rusqlite::Error::InvalidColumnType(_, _, t) => {
            format!("its {what} is {}, not {expected}", type_words(t))
        }
        rusqlite::Error::IntegralValueOutOfRange(..) => {
            format!("its {what} is out of range")
        }
        rusqlite::Error::FromSqlConversionFailure(..) | rusqlite::Error::Utf8Error(..) => {
            format!("its {what} is not readable text")
        }
        other => format!("its {what} cannot be read ({other})"),
    })
}

/// A whole number of at least 0 in column `i`.
pub(crate) fn count(row: &Row<'_>, i: usize, what: &str) -> std::result::Result<u64, String> {
    let n: i64 = column(row, i, what, "a whole number")?;
    u64::try_from(n).map_err(|_| format!("its {what} is {n}, below zero"))
}

/// Column `i` as JSON text holding a `T`: "its list of players is not valid
/// JSON", "… is not a list of names".
pub(crate) fn json_column<T: DeserializeOwned>(
    row: &Row<'_>,
    i: usize,
    what: &str,
    expected: &str,
) -> std::result::Result<T, String> {
    let text: String = column(row, i, what, "text")?;
    from_json(&text, what, expected)
}

/// `text` as JSON holding a `T`, or why not in words.
pub(crate) fn from_json<T: DeserializeOwned>(
    text: &str,
    what: &str,
    expected: &str,
) -> std::result::Result<T, String> {
    serde_json::from_str(text).map_err(|e| match e.classify() {
        serde_json::error::Category::Data => format!("its {what} is not {expected}"),
        _ => format!("its {what} is not valid JSON"),
    })
}

/// Column `i` as short, printable text when it is text: names a row whose
/// other columns are damaged. Control characters are written out and texts
/// longer than 60 characters cut.
pub(crate) fn text_of(row: &Row<'_>, i: usize) -> Option<String> {
    match row.get_ref(i).ok()? {
        ValueRef::Text(bytes) => Some(tabula_core::quoted(&String::from_utf8_lossy(bytes), 60)),
        _ => None,
    }
}

impl Writer<'_> {
    /// Moves the rows of `table` that `condition` selects into `set_aside`,
    /// whole (each column as an SQL literal, so nothing is lost), described as
    /// `row` with its `problem`. `columns` are the table's columns; `condition`
    /// may use `?1` and `?2`... bound to `args`.
    pub(crate) fn set_aside(
        &self,
        table: &str,
        columns: &[&str],
        condition: &str,
        args: &[&dyn rusqlite::ToSql],
        row: &str,
        problem: &str,
    ) -> Result<()> {
        let content = columns
            .iter()
            .map(|c| format!("'{c} = ' || quote({c})"))
            .collect::<Vec<_>>()
            .join(" || ', ' || ");
        let n = args.len();
        let insert = format!(
            "INSERT INTO set_aside (source, row, problem, content, set_aside_at)
             SELECT '{table}', ?{}, ?{}, {content}, ?{} FROM {table} WHERE {condition}",
            n + 1,
            n + 2,
            n + 3
        );
        let mut values: Vec<&dyn rusqlite::ToSql> = args.to_vec();
        let at = now();
        values.extend([&row as &dyn rusqlite::ToSql, &problem, &at]);
        self.conn.execute(&insert, values.as_slice())?;
        self.conn
            .execute(&format!("DELETE FROM {table} WHERE {condition}"), args)?;
        self.conn.execute(
            "DELETE FROM set_aside WHERE id NOT IN (
               SELECT id FROM set_aside ORDER BY set_aside_at DESC, id DESC LIMIT ?1)",
            params![SET_ASIDE_ROWS as i64],
        )?;
        Ok(())
    }
}

impl Writer<'_> {
    /// Records a damaged log found at start-up (kept until forgotten by hand:
    /// at most [`DAMAGED_LOGS`], the oldest forgotten first).
    pub(crate) fn record_damaged_log(&self, log: &DamagedLog, at: i64) -> Result<()> {
        self.conn.execute(
            "INSERT INTO damaged_logs (problem, loss, kept_as, pages_lost, bytes_lost, found_at)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            params![
                log.problem,
                log.loss_words(),
                log.kept_as.as_ref().map(|p| p.display().to_string()),
                log.pages_lost as i64,
                log.bytes_lost as i64,
                at
            ],
        )?;
        self.conn.execute(
            "DELETE FROM damaged_logs WHERE id NOT IN (
               SELECT id FROM damaged_logs ORDER BY found_at DESC, id DESC LIMIT ?1)",
            params![DAMAGED_LOGS as i64],
        )?;
        Ok(())
    }
}

/// How many damaged logs are listed (the oldest are forgotten first; the files
/// kept aside stay where they are).
pub const DAMAGED_LOGS: usize = 100;

impl Reader<'_> {
    /// The damaged logs found at start-ups, newest first.
    pub(crate) fn damaged_logs(&self) -> Result<Vec<DamagedRow>> {
        let mut stmt = self.conn.prepare(
            "SELECT problem, loss, kept_as, found_at FROM damaged_logs
             ORDER BY found_at DESC, id DESC",
        )?;
        let rows = stmt
            .query_map([], |r| {
                let problem = r
                    .get::<_, String>(0)
                    .unwrap_or_else(|_| "it was damaged".into());
                let loss = r.get::<_, String>(1).unwrap_or_default();
                let kept_as = r.get::<_, Option<String>>(2).ok().flatten();
                let mut d = DamagedRow::new("the database's write-ahead log", problem.clone());
                d.message = format!(
                    "The database's write-ahead log was found damaged at a start ({problem}): {loss}; {}",
                    match &kept_as {
                        Some(p) => format!("the damaged log is kept as {p}"),
                        None => "there was no log file left to keep".into(),
                    }
                );
                d.set_aside_at = r.get(3).ok();
                Ok(d)
            })?
            .collect::<std::result::Result<_, _>>()?;
        Ok(rows)
    }

    /// The rows set aside from `table` (every table when `None`), newest first.
    pub(crate) fn set_aside_rows(&self, table: Option<&str>) -> Result<Vec<DamagedRow>> {
        let mut stmt = self.conn.prepare(
            "SELECT row, problem, set_aside_at FROM set_aside
             WHERE (?1 IS NULL OR source = ?1) ORDER BY set_aside_at DESC, id DESC",
        )?;
        let rows = stmt
            .query_map([table], |r| {
                // Our own words, unless someone damaged these too.
                let row = r
                    .get::<_, String>(0)
                    .unwrap_or_else(|_| "a row set aside".into());
                let problem = r
                    .get::<_, String>(1)
                    .unwrap_or_else(|_| "it was damaged".into());
                let mut d = DamagedRow::new(row, problem);
                d.set_aside_at = r.get(2).ok();
                d.message
                    .push_str(" (it was set aside, kept whole, and a fresh one started)");
                Ok(d)
            })?
            .collect::<std::result::Result<_, _>>()?;
        Ok(rows)
    }
}
