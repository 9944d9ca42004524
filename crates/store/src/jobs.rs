//! Results of background jobs (solve, simulate, train): kept in the database, not
//! in memory, within a disk budget ([`JOB_RESULTS_BYTES`] in all, at most
//! [`JOB_RESULT_BYTES`] each; the oldest finished results are forgotten first).

use crate::damaged::{column, text_of, DamagedRow};
use crate::{Result, Store, StoreError};
use rusqlite::{params, OptionalExtension, Row};
use serde_json::Value as Json;

/// Most bytes of JSON all stored job results may take together (256 MiB).
pub const JOB_RESULTS_BYTES: u64 = 256 << 20;
/// Most bytes of JSON one job result may take (1 MiB): a larger result is refused.
pub const JOB_RESULT_BYTES: usize = 1 << 20;

/// What became of a job.
#[derive(Clone, Debug, PartialEq)]
pub enum JobState {
    /// Waiting or running (in a server that has not stopped since).
    Running,
    /// Finished with this result.
    Done(Json),
    /// Failed (or was cancelled, or the server stopped first), with a message.
    Failed(String),
}

/// A stored job: its kind and state.
#[derive(Clone, Debug, PartialEq)]
pub struct JobRow {
    /// `solve`, `simulate` or `train`.
    pub kind: String,
    /// Where it is.
    pub state: JobState,
}

/// A job's row in words.
fn job_words(id: Option<&str>) -> String {
    match id {
        Some(id) => format!(
            "the result of job {}",
            id.chars().take(8).collect::<String>()
        ),
        None => "the result of a job".into(),
    }
}

/// A job's kind, state and body (columns 0 to 2), or why they cannot be read.
fn job_row(row: &Row<'_>) -> std::result::Result<JobRow, String> {
    let kind: String = column(row, 0, "kind", "text")?;
    let state: String = column(row, 1, "state", "text")?;
    let body: Option<String> = column(row, 2, "result", "text")?;
    let body = body.unwrap_or_default();
    let state = match state.as_str() {
        "done" => {
            JobState::Done(serde_json::from_str(&body).map_err(|_| "its result is not valid JSON")?)
        }
        "error" => JobState::Failed(body),
        "running" => JobState::Running,
        _ => return Err("its state is not one this program knows".into()),
    };
    Ok(JobRow { kind, state })
}

/// What the message of a job running when the server stopped says.
pub const STOPPED: &str = "the server stopped before this job finished: start it again";

impl Store {
    /// Records a job that was accepted and has not finished yet.
    pub fn job_started(&self, id: &str, kind: &str) -> Result<()> {
        self.write(|w| {
            w.conn.execute(
                "INSERT INTO job_results (id, kind, state, body, bytes, finished_at)
                 VALUES (?1, ?2, 'running', NULL, 0, NULL)
                 ON CONFLICT(id) DO NOTHING",
                params![id, kind],
            )?;
            Ok(())
        })
    }

    /// Stores how a job ended. A result over [`JOB_RESULT_BYTES`] is refused: the
    /// job is stored as failed with a message saying so (and that message is
    /// returned as `Err(StoreError::Invalid)`). Older results are forgotten until
    /// all fit in [`JOB_RESULTS_BYTES`].
    pub fn job_finished(&self, id: &str, kind: &str, outcome: &JobState) -> Result<()> {
        let (state, body) = match outcome {
            JobState::Running => ("running", String::new()),
            JobState::Done(v) => ("done", serde_json::to_string(v)?),
            JobState::Failed(e) => ("error", e.clone()),
        };
        let (total_budget, one_budget) = self.job_budget();
        let too_large = body.len() > one_budget;
        let (state, body) = if too_large {
            (
                "error",
                format!(
                    "the result is too large to keep ({} bytes, more than the {} allowed); \
                     run it with the command line instead",
                    body.len(),
                    one_budget
                ),
            )
        } else {
            (state, body)
        };
        self.write(|w| {
            w.conn.execute(
                "INSERT INTO job_results (id, kind, state, body, bytes, finished_at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6)
                 ON CONFLICT(id) DO UPDATE SET state = excluded.state, body = excluded.body,
                   bytes = excluded.bytes, finished_at = excluded.finished_at",
                params![id, kind, state, body, body.len() as i64, w.now],
            )?;
            // The newest results first: forget those beyond the budget.
            w.conn.execute(
                "DELETE FROM job_results WHERE id IN (
                   SELECT id FROM (
                     SELECT id, SUM(bytes) OVER (ORDER BY finished_at DESC, rowid DESC) AS total
                     FROM job_results WHERE state != 'running')
                   WHERE total > ?1)",
                [total_budget as i64],
            )?;
            Ok(())
        })?;
        if too_large {
            return Err(StoreError::Invalid(body));
        }
        Ok(())
    }

    /// A stored job, if it is known. A row that cannot be read (a state it
    /// does not know, a result that is not JSON) is [`StoreError::Damaged`].
    pub fn job(&self, id: &str) -> Result<Option<JobRow>> {
        let row = self.read(|r| {
            Ok(r.conn
                .query_row(
                    "SELECT kind, state, body FROM job_results WHERE id = ?1",
                    [id],
                    |row| Ok(job_row(row)),
                )
                .optional()?)
        })?;
        match row {
            None => Ok(None),
            Some(Ok(row)) => Ok(Some(row)),
            Some(Err(problem)) => Err(StoreError::Damaged(DamagedRow::new(
                job_words(Some(id)),
                problem,
            ))),
        }
    }

    /// Jobs whose row cannot be read.
    pub(crate) fn damaged_jobs(&self) -> Result<Vec<DamagedRow>> {
        self.read(|r| {
            let mut stmt = r.conn.prepare(
                "SELECT id, typeof(kind), state,
                     CASE WHEN typeof(body) = 'text' THEN json_valid(body) ELSE 0 END,
                     typeof(body)
                 FROM job_results
                 WHERE typeof(id) != 'text' OR typeof(kind) != 'text'
                    OR state IS NOT 'running' AND state IS NOT 'done' AND state IS NOT 'error'
                    OR state = 'done' AND NOT (CASE WHEN typeof(body) = 'text' THEN json_valid(body) ELSE 0 END)
                    OR state = 'error' AND typeof(body) != 'text'",
            )?;
            let rows = stmt
                .query_map([], |row| {
                    let id = text_of(row, 0);
                    let state = text_of(row, 2);
                    let problem = if row.get::<_, String>(1)? != "text" {
                        "its kind is not text"
                    } else if !matches!(state.as_deref(), Some("running" | "done" | "error")) {
                        "its state is not one this program knows"
                    } else if state.as_deref() == Some("done") {
                        "its result is not valid JSON"
                    } else if row.get::<_, String>(4)? != "text" {
                        "its message is not text"
                    } else {
                        "its id is not text"
                    };
                    Ok(DamagedRow::new(job_words(id.as_deref()), problem))
                })?
                .collect::<std::result::Result<_, _>>()?;
            Ok(rows)
        })
    }

    /// Forgets a job; false if it was not stored.
    pub fn delete_job(&self, id: &str) -> Result<bool> {
        self.write(|w| {
            Ok(w.conn
                .execute("DELETE FROM job_results WHERE id = ?1", [id])?
                > 0)
        })
    }

    /// At start: jobs left running by a server that stopped are marked failed
    /// ([`STOPPED`]), and finished ones older than `max_age_seconds` are
    /// forgotten. Returns how many were marked failed.
    pub fn settle_jobs(&self, max_age_seconds: i64) -> Result<usize> {
        self.write(|w| {
            let stopped = w.conn.execute(
                "UPDATE job_results SET state = 'error', body = ?1, bytes = length(?1),
                   finished_at = ?2 WHERE state = 'running'",
                params![STOPPED, w.now],
            )?;
            w.conn.execute(
                "DELETE FROM job_results WHERE finished_at < ?1",
                [w.now - max_age_seconds],
            )?;
            Ok(stopped)
        })
    }

    /// Bytes taken by stored job results.
    pub fn job_results_bytes(&self) -> Result<u64> {
        self.read(|r| {
            let n: i64 = r.conn.query_row(
                "SELECT COALESCE(SUM(bytes), 0) FROM job_results",
                [],
                |row| row.get(0),
            )?;
            Ok(n as u64)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_util::temp_store;
    use serde_json::json;

    #[test]
    fn results_round_trip_and_running_jobs_are_settled() {
        let (_d, s) = temp_store();
        assert_eq!(s.job("a").unwrap(), None);
        s.job_started("a", "solve").unwrap();
        assert_eq!(s.job("a").unwrap().unwrap().state, JobState::Running);
        s.job_finished("a", "solve", &JobState::Done(json!({"report": 7})))
            .unwrap();
        let row = s.job("a").unwrap().unwrap();
        assert_eq!(row.kind, "solve");
        assert_eq!(row.state, JobState::Done(json!({"report": 7})));
        s.job_started("b", "train").unwrap();
        assert_eq!(s.settle_jobs(3600).unwrap(), 1);
        assert_eq!(
            s.job("b").unwrap().unwrap().state,
            JobState::Failed(STOPPED.into())
        );
        assert!(s.delete_job("a").unwrap());
        assert!(!s.delete_job("a").unwrap());
    }

    #[test]
    fn a_result_too_large_is_refused_with_a_message() {
        let (_d, s) = temp_store();
        s.set_budgets(JOB_RESULTS_BYTES, 1_000, crate::CACHE_BYTES);
        let big = json!({"text": "x".repeat(1_001)});
        let err = s
            .job_finished("big", "solve", &JobState::Done(big))
            .unwrap_err();
        assert!(err.to_string().contains("too large"), "{err}");
        match s.job("big").unwrap().unwrap().state {
            JobState::Failed(m) => assert!(m.contains("too large"), "{m}"),
            other => panic!("expected a failure, got {other:?}"),
        }
        assert!(s.job_results_bytes().unwrap() < 1000);
    }

    #[test]
    fn the_oldest_results_go_first_beyond_the_budget() {
        let (_d, s) = temp_store();
        s.set_budgets(10_000, 1_000, crate::CACHE_BYTES);
        let chunk = "y".repeat(900);
        let n = 15;
        for i in 0..n {
            s.job_finished(&format!("j{i}"), "solve", &JobState::Done(json!(chunk)))
                .unwrap();
        }
        assert!(s.job_results_bytes().unwrap() <= 10_000);
        assert_eq!(s.job("j0").unwrap(), None, "the oldest result is forgotten");
        assert!(s.job(&format!("j{}", n - 1)).unwrap().is_some());
    }

    #[test]
    fn a_damaged_job_result_is_refused_alone_in_words() {
        let (_d, s) = temp_store();
        for id in ["good", "body", "state"] {
            s.job_finished(id, "solve", &JobState::Done(json!({"report": 1})))
                .unwrap();
        }
        s.write(|w| {
            w.conn
                .execute("UPDATE job_results SET body = '{' WHERE id = 'body'", [])?;
            w.conn.execute(
                "UPDATE job_results SET state = 'lost' WHERE id = 'state'",
                [],
            )?;
            Ok(())
        })
        .unwrap();
        assert!(s.job("good").unwrap().is_some());
        for (id, words) in [
            (
                "body",
                "The result of job body cannot be read: its result is not valid JSON",
            ),
            (
                "state",
                "The result of job state cannot be read: its state is not one this program knows",
            ),
        ] {
            match s.job(id) {
                Err(StoreError::Damaged(d)) => assert_eq!(d.message, words),
                other => panic!("{other:?}"),
            }
        }
        let damaged = s.damaged_jobs().unwrap();
        assert_eq!(damaged.len(), 2, "{damaged:?}");
        // Forgetting one works as for any other.
        assert!(s.delete_job("body").unwrap());
    }
}
