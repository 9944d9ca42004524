//! A layer's values in memory, backed by huge pages where the system offers them.
//!
//! A sweep of the four-marker start layer (14.4 GB) writes one value per row
//! of the layer for each band, every one on a page of its own: with the usual
//! 4 KiB pages nearly every write also misses the processor's cache of page
//! addresses and walks the page tables (28 MB of them for that layer, far more
//! than its caches hold). Pages of 2 MiB need 512 times fewer entries. Linux
//! gives them to memory that asks for them (`madvise`) when transparent huge
//! pages are enabled for it, as they are by default ("madvise"); elsewhere, or
//! when the system has none free, the values live on ordinary pages, unchanged.

// Unsafe code, each block with its SAFETY comment: madvise, to back a layer's values with huge pages.
#![allow(unsafe_code)]

use std::sync::atomic::AtomicU32;

/// The size of a huge page on x86-64 and most 64-bit ARM systems.
const HUGE_PAGE: usize = 2 << 20;

/// `len` values, all `init`, on huge pages when `huge` and the system offers them.
pub fn new_values(len: u64, init: u32, huge: bool) -> Vec<AtomicU32> {
    let mut values: Vec<AtomicU32> = Vec::with_capacity(len as usize);
    if huge {
        // Asked before the first write, so that the pages are made huge when
        // they are first touched rather than merged later.
        advise_huge(
            values.as_mut_ptr().cast(),
            values.capacity() * size_of::<AtomicU32>(),
        );
    }
    values.extend((0..len).map(|_| AtomicU32::new(init)));
    values
}

/// Asks the system to back the whole huge pages inside `bytes` from `start`
/// with huge pages. A hint: nothing happens where it is refused.
fn advise_huge(start: *mut u8, bytes: usize) {
    #[cfg(target_os = "linux")]
    {
        let first = (start as usize).next_multiple_of(HUGE_PAGE);
        let end = (start as usize + bytes) / HUGE_PAGE * HUGE_PAGE;
        if end > first {
            // SAFETY: MADV_HUGEPAGE over pages of this process's own allocation
            // (`first..end` lies inside it) only says how to back them; their
            // contents and the allocation are unchanged.
            unsafe {
                libc::madvise(first as *mut libc::c_void, end - first, libc::MADV_HUGEPAGE);
            }
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = (start, bytes, HUGE_PAGE);
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::Ordering::Relaxed;

    #[test]
    fn values_start_at_their_value_whatever_the_pages() {
        for huge in [false, true] {
            for len in [0, 1, 1000, (HUGE_PAGE / 4 * 3 + 17) as u64] {
                let v = new_values(len, 7, huge);
                assert_eq!(v.len() as u64, len);
                assert!(v.iter().all(|x| x.load(Relaxed) == 7));
            }
        }
    }
}
