//! The opening book: the exact score of every position of the first plies of
//! a board, mirror images kept once, read from a compact file.
//!
//! The file (all numbers little-endian):
//!
//! ```text
//! magic      8 bytes  "TC4BOOK1"
//! width      1 byte
//! height     1 byte
//! connect    1 byte
//! depth      1 byte   every position with at most this many discs is in it
//! count      4 bytes  entries
//! entries    count x 8 bytes, keys ascending: the position's key (the
//!            smaller of its own and its mirror image's, 7 bytes) and its
//!            score for the side to move (1 byte, signed)
//! ```
//!
//! A position the game has already ended (a line on the board) is not in it;
//! a position where the mover can complete a line at once is.

use super::board::SolverBoard;
use crate::board::Geometry;
use std::fmt;

const MAGIC: &[u8; 8] = b"TC4BOOK1";
const HEADER: usize = 16;
const ENTRY: usize = 8;

/// Why a book file cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BookError {
    /// The file does not start as a book does.
    #[error("this is not an opening book of Connect Four")]
    NotABook,
    /// The file's length is not that of its entries.
    #[error("the book is cut short or has bytes beyond its entries")]
    WrongLength,
    /// Keys out of order or repeated.
    #[error("the book's entries are out of order")]
    Unsorted,
    /// A board the game does not offer.
    #[error("the book is for a board the game does not offer")]
    UnknownBoard,
}

/// An opening book, read from its bytes.
pub struct Book {
    geometry: Geometry,
    depth: u32,
    entries: Vec<(u64, i8)>,
}

impl fmt::Debug for Book {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Book")
            .field("geometry", &self.geometry)
            .field("depth", &self.depth)
            .field("entries", &self.entries.len())
            .finish()
    }
}

impl Book {
    /// A book of `geometry` holding every position up to `depth` discs, from
    /// `(key, score)` pairs (any order).
    pub fn from_entries(geometry: Geometry, depth: u32, mut entries: Vec<(u64, i8)>) -> Book {
        entries.sort_unstable_by_key(|&(k, _)| k);
        entries.dedup_by_key(|e| e.0);
        Book {
            geometry,
            depth,
            entries,
        }
    }

    /// Reads a book from its file's bytes.
    pub fn read(bytes: &[u8]) -> Result<Book, BookError> {
        if bytes.len() < HEADER || &bytes[..8] != MAGIC {
            return Err(BookError::NotABook);
        }
        let geometry =
            Geometry::new(bytes[8], bytes[9], bytes[10]).ok_or(BookError::UnknownBoard)?;
        let depth = u32::from(bytes[11]);
        let count = u32::from_le_bytes([bytes[12], bytes[13], bytes[14], bytes[15]]) as usize;
        if bytes.len() != HEADER + count * ENTRY {
            return Err(BookError::WrongLength);
        }
        let mut entries = Vec::with_capacity(count);
        for chunk in bytes[HEADER..].chunks_exact(ENTRY) {
            let mut key = [0u8; 8];
            key[..7].copy_from_slice(&chunk[..7]);
            let key = u64::from_le_bytes(key);
            if entries.last().is_some_and(|&(last, _)| last >= key) {
                return Err(BookError::Unsorted);
            }
            entries.push((key, chunk[7] as i8));
        }
        Ok(Book {
            geometry,
            depth,
            entries,
        })
    }

    /// The book's file: the same entries always give the same bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(HEADER + self.entries.len() * ENTRY);
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&[
            self.geometry.width(),
            self.geometry.height(),
            self.geometry.connect(),
            self.depth as u8,
        ]);
        out.extend_from_slice(&(self.entries.len() as u32).to_le_bytes());
        for &(key, score) in &self.entries {
            out.extend_from_slice(&key.to_le_bytes()[..7]);
            out.push(score as u8);
        }
        out
    }

    /// The board it is for.
    pub fn geometry(&self) -> Geometry {
        self.geometry
    }

    /// Every position with at most this many discs is in it.
    pub fn depth(&self) -> u32 {
        self.depth
    }

    /// Entries it holds.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether it holds no entry.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Every `(key, score)` entry, keys ascending.
    pub fn entries(&self) -> &[(u64, i8)] {
        &self.entries
    }

    /// The score kept for the position of canonical key `key`.
    pub fn score(&self, key: u64) -> Option<i32> {
        self.entries
            .binary_search_by_key(&key, |&(k, _)| k)
            .ok()
            .map(|i| i32::from(self.entries[i].1))
    }

    /// Whether `b` lies within the book's plies.
    pub fn covers(&self, b: &SolverBoard) -> bool {
        b.discs <= self.depth
    }
}
