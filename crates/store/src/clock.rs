//! The store's own time, which a wrong wall clock cannot move.
//!
//! What is forgotten for its age (live sessions idle for 90 days, job results
//! a day old) is aged by the time the store has seen pass, not by a reading of
//! the wall clock alone: a restart with the clock 400 days ahead would
//! otherwise forget every live game for good.
//!
//! * While a process has the database open, store time runs with the
//!   monotonic clock, whatever the wall clock does.
//! * Between two runs it advances by the wall clock's difference between the
//!   last reading the database recorded and the reading at the next open, but
//!   only when that difference is plausible: from zero up to
//!   [`LONGEST_GAP_COUNTED`] (the expiry period). A clock that went back, or
//!   jumped further ahead than that, counts no time at all, and the jump is
//!   said ([`ClockJump`]). A database left unused for longer than the expiry
//!   period therefore keeps its sessions 90 days more: nothing is lost.
//!
//! The last reading is kept in the table `clock` (one row: the wall clock and
//! store time at that moment), written at every open and once a minute while
//! a server runs. The wall clock is read through [`WallClock`], the seam
//! tests set.

use crate::Result;
use rusqlite::{params, Connection, OptionalExtension};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Live sessions idle for this long are forgotten when a server starts (in
/// store time); also the longest gap between two runs counted as time passed.
pub const IDLE_SESSION_SECONDS: i64 = 90 * 24 * 3600;

/// The longest wall-clock gap between two runs counted as time passed.
pub const LONGEST_GAP_COUNTED: i64 = IDLE_SESSION_SECONDS;

/// A clock set back by less than this is not said (network time corrections).
const SMALL_STEP_BACK: i64 = 600;

/// How often a running store records its clock reading.
const NOTE_EVERY: Duration = Duration::from_secs(60);

/// The wall clock the store reads, in seconds since the Unix epoch.
pub trait WallClock: Send + Sync {
    /// Seconds since the Unix epoch now.
    fn unix_seconds(&self) -> i64;
}

/// The system's wall clock.
pub struct SystemClock;

impl WallClock for SystemClock {
    fn unix_seconds(&self) -> i64 {
        crate::now()
    }
}

/// The wall clock moved in a way not counted as time passed since the
/// database was last used.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClockJump {
    /// How far the clock moved since the last recorded reading (negative:
    /// back).
    pub seconds: i64,
}

impl ClockJump {
    /// The jump in words, for the start-up.
    pub fn words(&self) -> String {
        let how_far = span_words(self.seconds.unsigned_abs());
        let direction = if self.seconds < 0 { "earlier" } else { "later" };
        format!(
            "the clock reads {how_far} {direction} than when this database was last used; \
             that time is not counted towards forgetting idle games (the clock may have been set wrong)"
        )
    }
}

/// A span of seconds in words: days, hours or minutes.
fn span_words(seconds: u64) -> String {
    let plural = |n: u64, unit: &str| format!("{n} {unit}{}", if n == 1 { "" } else { "s" });
    if seconds >= 2 * 86_400 {
        plural(seconds / 86_400, "day")
    } else if seconds >= 2 * 3600 {
        plural(seconds / 3600, "hour")
    } else {
        plural(seconds / 60, "minute")
    }
}

/// The store's time for one open database.
pub(crate) struct StoreClock {
    wall: Arc<dyn WallClock>,
    /// Store time when the database was opened, and the instant it was.
    at_open: i64,
    opened: Instant,
    jump: Option<ClockJump>,
    noted: Mutex<Instant>,
}

impl StoreClock {
    /// Reads the last recorded reading, works out store time now, and records
    /// the new reading (best effort: a database that cannot be written still
    /// opens, and the next open counts from the older reading).
    pub(crate) fn start(conn: &Connection, wall: Arc<dyn WallClock>) -> Result<StoreClock> {
        let now = wall.unix_seconds();
        let last: Option<(i64, i64)> = conn
            .query_row("SELECT wall, store FROM clock WHERE id = 1", [], |r| {
                Ok((r.get(0)?, r.get(1)?))
            })
            .optional()
            .unwrap_or(None);
        let (at_open, jump) = match last {
            None => (now, None),
            Some((last_wall, last_store)) => {
                let gap = now.saturating_sub(last_wall);
                if (0..=LONGEST_GAP_COUNTED).contains(&gap) {
                    (last_store.saturating_add(gap), None)
                } else {
                    let said = !(-SMALL_STEP_BACK..=0).contains(&gap);
                    (last_store, said.then_some(ClockJump { seconds: gap }))
                }
            }
        };
        let clock = StoreClock {
            wall,
            at_open,
            opened: Instant::now(),
            jump,
            noted: Mutex::new(Instant::now()),
        };
        let _ = clock.record(conn);
        Ok(clock)
    }

    /// Store time now (seconds).
    pub(crate) fn now(&self) -> i64 {
        self.at_open
            .saturating_add(self.opened.elapsed().as_secs() as i64)
    }

    /// The jump found when the database was opened.
    pub(crate) fn jump(&self) -> Option<ClockJump> {
        self.jump
    }

    /// Records the wall clock and store time now.
    fn record(&self, conn: &Connection) -> Result<()> {
        conn.execute(
            "INSERT INTO clock (id, wall, store) VALUES (1, ?1, ?2)
             ON CONFLICT(id) DO UPDATE SET wall = excluded.wall, store = excluded.store",
            params![self.wall.unix_seconds(), self.now()],
        )?;
        Ok(())
    }

    /// Records the reading when the last is a minute old; true when it did.
    pub(crate) fn note_if_due(&self, conn: &Connection) -> Result<bool> {
        let mut noted = self.noted.lock().unwrap_or_else(|p| p.into_inner());
        if noted.elapsed() < NOTE_EVERY {
            return Ok(false);
        }
        self.record(conn)?;
        *noted = Instant::now();
        Ok(true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn jumps_are_said_in_days_hours_or_minutes() {
        let ahead = ClockJump {
            seconds: 400 * 86_400,
        };
        assert!(
            ahead.words().contains("400 days later"),
            "{}",
            ahead.words()
        );
        let back = ClockJump { seconds: -3 * 3600 };
        assert!(back.words().contains("3 hours earlier"), "{}", back.words());
        assert_eq!(span_words(60), "1 minute");
    }
}
