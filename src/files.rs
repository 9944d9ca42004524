//! Files named on the command line. Read (`play --resume`, `train --load`,
//! `solve --board`) with a size cap and only when they are regular files, so
//! `/dev/zero`, a FIFO or a directory is refused at once instead of read
//! forever. Written (`play --save`, `train --save`) only over regular files, in
//! one piece, and never larger than what reading them back accepts.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use thiserror::Error;

/// The largest board file (`solve --board`): a 100 × 100 SameGame board is 20 KiB.
pub const MAX_BOARD_BYTES: u64 = 8 << 20;

/// The largest saved game or saved matchboxes file. Matchboxes of a long Kono
/// training are tens of MiB (about 8 MiB per 200 games), hence more room than
/// for a board; what is saved is checked against the same limit.
pub const MAX_SAVED_BYTES: u64 = 64 << 20;

/// Why a file named on the command line could not be read or written.
#[derive(Debug, Error)]
pub enum FileError {
    /// The system refused to open, read or write the file. What it said is
    /// part of the message (not a separate cause, which would print it twice).
    #[error("cannot {doing} {}: {}", .path.display(), io_words(.error))]
    Io {
        /// `read` or `write`.
        doing: &'static str,
        /// The file as named.
        path: PathBuf,
        /// What the system said.
        error: std::io::Error,
    },
    /// A directory, device, FIFO or socket rather than a file.
    #[error("cannot {doing} {}: it is not a regular file", .path.display())]
    NotAFile {
        /// `read` or `write`.
        doing: &'static str,
        /// The file as named.
        path: PathBuf,
    },
    /// More bytes than the limit of its kind.
    #[error("cannot read {}: the file is larger than {} MiB", .path.display(), .limit >> 20)]
    TooLarge {
        /// The file as named.
        path: PathBuf,
        /// The limit, in bytes.
        limit: u64,
    },
    /// What would be saved is more than reading it back accepts.
    #[error(
        "cannot write {}: it would take {} MiB, more than the {} MiB that reading it back accepts",
        .path.display(), .size.div_ceil(1 << 20), .limit >> 20
    )]
    TooLargeToSave {
        /// The file as named.
        path: PathBuf,
        /// The size it would have, in bytes.
        size: u64,
        /// The limit, in bytes.
        limit: u64,
    },
    /// Not UTF-8 text.
    #[error("cannot read {}: it is not text (UTF-8)", .path.display())]
    NotText {
        /// The file as named.
        path: PathBuf,
    },
}

fn io<'a>(doing: &'static str, path: &'a Path) -> impl FnOnce(std::io::Error) -> FileError + 'a {
    move |error| FileError::Io {
        doing,
        path: path.to_path_buf(),
        error,
    }
}

/// What the system said, in words: "there is no such file" rather than
/// "No such file or directory (os error 2)".
fn io_words(e: &std::io::Error) -> String {
    use std::io::ErrorKind;
    match e.kind() {
        ErrorKind::NotFound => "there is no such file".into(),
        ErrorKind::PermissionDenied => "permission denied".into(),
        #[cfg(unix)]
        _ if e.raw_os_error() == Some(libc::ENOSPC) => "the disk is full".into(),
        _ => {
            let text = e.to_string();
            match text.find(" (os error ") {
                Some(at) => text[..at].to_string(),
                None => text,
            }
        }
    }
}

fn not_a_file(doing: &'static str, path: &Path) -> FileError {
    FileError::NotAFile {
        doing,
        path: path.to_path_buf(),
    }
}

/// The bytes of `path`, at most `limit` of them: a larger file is refused after
/// reading one byte past the limit, whatever its size.
pub fn read_bytes(path: &Path, limit: u64) -> Result<Vec<u8>, FileError> {
    // Checked before opening: opening a FIFO for reading waits for a writer.
    if !std::fs::metadata(path).map_err(io("read", path))?.is_file() {
        return Err(not_a_file("read", path));
    }
    let file = std::fs::File::open(path).map_err(io("read", path))?;
    // Checked again on what was opened, in case the name changed in between.
    if !file.metadata().map_err(io("read", path))?.is_file() {
        return Err(not_a_file("read", path));
    }
    let mut bytes = Vec::new();
    file.take(limit + 1)
        .read_to_end(&mut bytes)
        .map_err(io("read", path))?;
    if bytes.len() as u64 > limit {
        return Err(FileError::TooLarge {
            path: path.to_path_buf(),
            limit,
        });
    }
    Ok(bytes)
}

/// The text of `path`, read as [`read_bytes`] reads it.
pub fn read_text(path: &Path, limit: u64) -> Result<String, FileError> {
    String::from_utf8(read_bytes(path, limit)?).map_err(|_| FileError::NotText {
        path: path.to_path_buf(),
    })
}

/// Refuses a database path that exists but is not a regular file (SQLite would
/// report a device as a "disk I/O error").
pub fn check_database(path: &Path) -> Result<(), FileError> {
    match std::fs::metadata(path) {
        Ok(m) if !m.is_file() => Err(not_a_file("open", path)),
        _ => Ok(()),
    }
}

/// Writes `text` to `path` through a file next to it renamed over it, so a crash
/// never leaves half a file. Refuses a `path` that exists but is not a regular
/// file (renaming over `/dev/null` would replace the device), and a text longer
/// than `limit` (it could not be read back).
pub fn save(path: &Path, text: &str, limit: u64) -> Result<(), FileError> {
    if text.len() as u64 > limit {
        return Err(FileError::TooLargeToSave {
            path: path.to_path_buf(),
            size: text.len() as u64,
            limit,
        });
    }
    match std::fs::metadata(path) {
        Ok(m) if !m.is_file() => return Err(not_a_file("write", path)),
        _ => {}
    }
    let mut tmp_name = path.file_name().unwrap_or_default().to_os_string();
    tmp_name.push(".tmp");
    let tmp = path.with_file_name(tmp_name);
    if std::fs::symlink_metadata(&tmp).is_ok_and(|m| !m.is_file()) {
        return Err(not_a_file("write", &tmp));
    }
    let mut file = std::fs::File::create(&tmp).map_err(io("write", &tmp))?;
    let written = file
        .write_all(text.as_bytes())
        .and_then(|()| file.sync_all())
        .map_err(io("write", path))
        .and_then(|()| std::fs::rename(&tmp, path).map_err(io("write", path)));
    if written.is_err() {
        // A failed save leaves nothing behind (a full disk would otherwise
        // keep an empty or partial temporary file).
        drop(file);
        let _ = std::fs::remove_file(&tmp);
    }
    written
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("tabula-files-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        dir.join(name)
    }

    #[test]
    fn a_file_of_exactly_the_limit_is_read_and_one_byte_more_is_refused() {
        let path = scratch("cap");
        std::fs::write(&path, vec![b'a'; 1000]).unwrap();
        assert_eq!(read_text(&path, 1000).unwrap().len(), 1000);
        let e = read_text(&path, 999).unwrap_err();
        assert!(matches!(e, FileError::TooLarge { .. }), "{e}");
        let e = read_text(&path, MAX_BOARD_BYTES + 1)
            .map(|t| t.len())
            .unwrap();
        assert_eq!(e, 1000);
        std::fs::remove_file(&path).ok();
    }

    #[test]
    fn the_limit_is_named_in_mib() {
        let path = scratch("big");
        std::fs::write(&path, vec![b' '; MAX_BOARD_BYTES as usize + 1]).unwrap();
        let e = read_text(&path, MAX_BOARD_BYTES).unwrap_err().to_string();
        assert!(e.ends_with("the file is larger than 8 MiB"), "{e}");
        std::fs::remove_file(&path).ok();
    }

    #[test]
    fn devices_directories_and_binary_files_are_refused() {
        for path in ["/dev/zero", "/dev/null", "/"] {
            let e = read_bytes(Path::new(path), MAX_BOARD_BYTES).unwrap_err();
            assert!(matches!(e, FileError::NotAFile { .. }), "{path}: {e}");
        }
        let path = scratch("binary");
        std::fs::write(&path, [0xff, 0xfe, 0]).unwrap();
        let e = read_text(&path, MAX_BOARD_BYTES).unwrap_err().to_string();
        assert!(e.contains("not text"), "{e}");
        let e = read_text(&scratch("missing"), MAX_BOARD_BYTES).unwrap_err();
        assert!(matches!(e, FileError::Io { .. }), "{e}");
    }

    #[test]
    fn saves_replace_regular_files_only_and_stay_readable() {
        let path = scratch("saved.json");
        save(&path, "one", 10).unwrap();
        save(&path, "two", 10).unwrap();
        assert_eq!(read_text(&path, 10).unwrap(), "two");
        let e = save(&path, "eleven char", 10).unwrap_err();
        assert!(matches!(e, FileError::TooLargeToSave { .. }), "{e}");
        assert_eq!(
            read_text(&path, 10).unwrap(),
            "two",
            "a refused save keeps the file"
        );
        let dir = scratch("a-directory");
        std::fs::create_dir_all(&dir).unwrap();
        let e = save(&dir, "x", 10).unwrap_err();
        assert!(matches!(e, FileError::NotAFile { .. }), "{e}");
        // Not run against real devices: a failure would replace one.
        std::fs::remove_file(&path).ok();
    }

    /// A save on a full disk says so and leaves no temporary file. The disk
    /// is a 1 MiB tmpfs, which needs root to mount: skipped, with the
    /// reason, where it cannot be.
    #[cfg(target_os = "linux")]
    #[test]
    fn a_save_on_a_full_disk_says_so_and_leaves_nothing_behind() {
        use std::process::Command;
        let dir = scratch("full-disk");
        std::fs::create_dir_all(&dir).unwrap();
        let mounted = Command::new("mount")
            .args(["-t", "tmpfs", "-o", "size=1m", "tmpfs"])
            .arg(&dir)
            .output();
        match &mounted {
            Ok(out) if out.status.success() => {}
            Ok(out) => {
                eprintln!(
                    "skipped: cannot mount a small tmpfs: {}",
                    String::from_utf8_lossy(&out.stderr).trim()
                );
                return;
            }
            Err(e) => {
                eprintln!("skipped: cannot run mount: {e}");
                return;
            }
        }
        let result = std::panic::catch_unwind(|| {
            // Fill the disk, then save beside the filler.
            let mut filler = std::fs::File::create(dir.join("filler")).unwrap();
            while filler.write_all(&[0u8; 4096]).is_ok() {}
            let path = dir.join("game.json");
            let e = save(&path, &"x".repeat(100_000), 1 << 20).unwrap_err();
            let said = e.to_string();
            assert!(said.contains("the disk is full"), "{said}");
            assert!(said.contains("game.json"), "{said}");
            let left: Vec<_> = std::fs::read_dir(&dir)
                .unwrap()
                .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                .collect();
            assert_eq!(left, ["filler"], "nothing else is left");
        });
        let _ = Command::new("umount").arg(&dir).status();
        if let Err(panic) = result {
            std::panic::resume_unwind(panic);
        }
    }
}
