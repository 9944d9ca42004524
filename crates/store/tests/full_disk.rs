//! An existing database on a full disk says so in words when it cannot be
//! opened, not "disk I/O error" with SQLite's code. The full disk is a small
//! tmpfs: the test needs to mount one (root on Linux) and says why it skipped
//! when it cannot.

use std::path::{Path, PathBuf};
use std::process::Command;
use tabula_store::Store;

/// A 1 MiB tmpfs mounted for the test's life.
struct SmallDisk {
    at: PathBuf,
    _dir: tempfile::TempDir,
}

impl SmallDisk {
    fn mount() -> Result<SmallDisk, String> {
        let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
        let at = dir.path().join("disk");
        std::fs::create_dir(&at).map_err(|e| e.to_string())?;
        let out = Command::new("mount")
            .args(["-t", "tmpfs", "-o", "size=1m", "tmpfs"])
            .arg(&at)
            .output()
            .map_err(|e| format!("cannot run mount: {e}"))?;
        if !out.status.success() {
            return Err(format!(
                "cannot mount a small tmpfs: {}",
                String::from_utf8_lossy(&out.stderr).trim()
            ));
        }
        Ok(SmallDisk { at, _dir: dir })
    }
}

impl Drop for SmallDisk {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg(&self.at).status();
    }
}

/// Writes a file until the disk refuses more.
fn fill(dir: &Path) {
    use std::io::Write;
    let mut f = std::fs::File::create(dir.join("filler")).unwrap();
    let block = vec![0u8; 4096];
    while f.write_all(&block).is_ok() {}
    let _ = f.sync_all();
}

#[test]
fn an_existing_database_on_a_full_disk_says_the_disk_is_full() {
    let disk = match SmallDisk::mount() {
        Ok(d) => d,
        Err(why) => {
            eprintln!("skipped: {why}");
            return;
        }
    };
    let db = disk.at.join("tabula.db");
    {
        let store = Store::open(&db).unwrap();
        store.cache_put("k", b"v").unwrap();
    }
    fill(&disk.at);
    let said = match Store::open(&db) {
        Ok(store) => {
            // Opened: then a write must say so.
            match store.cache_put("k2", &[1u8; 100_000]) {
                Ok(()) => panic!("nothing refused on a full disk"),
                Err(e) => e.to_string(),
            }
        }
        Err(e) => e.to_string(),
    };
    assert!(said.contains("is full"), "{said}");
    assert!(said.contains("make room"), "{said}");
    assert!(
        !said.contains("4874") && !said.contains("I/O error"),
        "{said}"
    );
}
