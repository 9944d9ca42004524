//! Giving freed memory back to the system after heavy work.
//!
//! glibc keeps the pages of freed blocks in the arena of the thread that used them.
//! A server that runs large computations one after another on different blocking
//! threads then holds their peaks as resident memory, and each new computation peaks
//! on top of what the last ones left: twenty large Poggle solves in a row reached
//! 1.3-1.55 GiB this way. Trimming after each heavy piece of work keeps the resident
//! size near what is in use.

// Unsafe code, each block with its SAFETY comment: glibc's malloc_trim, called through its C interface.
#![allow(unsafe_code)]

use std::time::Duration;

/// Work that took at least this long is followed by a trim (a trim costs about a
/// millisecond for each few hundred MiB of heap, too much after every request).
pub(crate) const HEAVY: Duration = Duration::from_millis(100);

/// Returns the allocator's free memory to the system where the allocator keeps it
/// (glibc); elsewhere does nothing.
pub(crate) fn give_back() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: `malloc_trim` only releases free memory of the allocator's own arenas;
    // it reads and writes no memory of ours.
    unsafe {
        libc::malloc_trim(0);
    }
}
