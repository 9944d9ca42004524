//! The JSON of a board's cells, written once and kept while a server answers.
//!
//! A server sends a game's whole view with every move, and in most games the
//! cells (their places, shapes, labels and names) are the same in every
//! position: writing them again was the largest part of writing an answer. Inside
//! [`with_kept_cells`] a view's `cells` are written from the JSON kept for the
//! same cells, on this thread, of the last few boards written; outside it (the
//! CLI's pretty-printed JSON, Python) they are written as usual. The text is the
//! same either way: both are serde_json's compact form of the same cells.

use crate::view::ViewCell;
use serde::{Serialize, Serializer};
use serde_json::value::RawValue;
use std::cell::{Cell, RefCell};

/// How many boards' cells a thread keeps (a server thread answers for games of
/// several kinds in turn).
const KEPT: usize = 8;

thread_local! {
    /// Whether a caller of [`with_kept_cells`] is writing compact JSON now.
    static ON: Cell<bool> = const { Cell::new(false) };
    /// The cells written last and their JSON, most recent first.
    static KEPT_CELLS: RefCell<Vec<(Vec<ViewCell>, Box<RawValue>)>> = const { RefCell::new(Vec::new()) };
}

/// Runs `write`, which writes views as compact JSON with `serde_json` (never
/// pretty-printed, never another format), with their cells written from the JSON
/// kept for the same cells.
pub fn with_kept_cells<T>(write: impl FnOnce() -> T) -> T {
    /// Turns the keeping off again, even if `write` panics.
    struct Off(bool);
    impl Drop for Off {
        fn drop(&mut self) {
            ON.with(|on| on.set(self.0));
        }
    }
    let _off = Off(ON.with(|on| on.replace(true)));
    write()
}

/// Writes a view's `cells` (`#[serde(serialize_with)]`).
pub(crate) fn serialize<S: Serializer>(cells: &[ViewCell], s: S) -> Result<S::Ok, S::Error> {
    if !ON.with(Cell::get) {
        return cells.serialize(s);
    }
    KEPT_CELLS.with(|kept| {
        let mut kept = kept.borrow_mut();
        match kept.iter().position(|(c, _)| c.as_slice() == cells) {
            Some(0) => {}
            Some(i) => {
                let hit = kept.remove(i);
                kept.insert(0, hit);
            }
            None => {
                let Ok(json) = serde_json::value::to_raw_value(cells) else {
                    return cells.serialize(s);
                };
                kept.insert(0, (cells.to_vec(), json));
                kept.truncate(KEPT);
            }
        }
        kept[0].1.serialize(s)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::view::{Layout, View};

    fn board(label: &str) -> View {
        let mut v = View {
            width: 2.0,
            height: 1.0,
            layout: Layout::Grid {
                columns: 2,
                rows: 1,
            },
            cells: (0..2)
                .map(|i| ViewCell {
                    id: i,
                    x: f64::from(i),
                    w: 1.0,
                    h: 1.0,
                    label: Some(format!("{label}{i}")),
                    ..ViewCell::default()
                })
                .collect(),
            ..View::default()
        };
        v.name_cells();
        v
    }

    #[test]
    fn kept_cells_are_written_as_the_cells_themselves() {
        let (a, b) = (board("a"), board("b\"quoted\""));
        let plain = [&a, &b, &a].map(|v| serde_json::to_string(v).unwrap());
        let kept = with_kept_cells(|| [&a, &b, &a].map(|v| serde_json::to_string(v).unwrap()));
        assert_eq!(kept, plain);
        assert!(
            plain[1].contains(r#""label":"b\"quoted\"0""#),
            "{}",
            plain[1]
        );
        // Outside, a pretty-printed view is pretty inside its cells too.
        assert!(serde_json::to_string_pretty(&a)
            .unwrap()
            .contains("\"id\": 0"));
    }

    #[test]
    fn changed_cells_are_written_anew() {
        let mut a = board("a");
        let before = with_kept_cells(|| serde_json::to_string(&a).unwrap());
        a.cells[1].colour = Some(3);
        let after = with_kept_cells(|| serde_json::to_string(&a).unwrap());
        assert_ne!(before, after);
        assert_eq!(after, serde_json::to_string(&a).unwrap());
    }

    #[test]
    fn keeping_ends_with_the_call_even_after_a_panic() {
        let _ = std::panic::catch_unwind(|| with_kept_cells(|| panic!("a writer failed")));
        assert!(!ON.with(Cell::get));
    }
}
