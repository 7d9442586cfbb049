//! Writing result files: atomically (a run stopped half-way never leaves a
//! truncated file where a good one was), and into folders whose names come
//! from the command line or a fixed default, never from the data.

pub mod board_view;
pub mod export;
pub mod playtest;
pub mod plot;
pub mod report;
pub mod rows;
pub mod table;
pub mod tournament;

use std::io;
use std::path::{Path, PathBuf};

/// A board's or scenario's name as one safe path component: lower case,
/// letters, digits, `-` and `_` only (`"../../escaped"` becomes `escaped`,
/// `"USA 1910"` `usa-1910`), at most 64 characters, never empty.
pub fn folder_name(name: &str) -> String {
    let mut out = String::new();
    for c in name.chars().flat_map(char::to_lowercase) {
        if c.is_alphanumeric() || c == '_' {
            out.push(c);
        } else if !out.ends_with('-') && !out.is_empty() {
            out.push('-');
        }
        if out.chars().count() >= 64 {
            break;
        }
    }
    let out = out.trim_matches('-');
    if out.is_empty() {
        "board".to_string()
    } else {
        out.to_string()
    }
}

/// The default result folder of a board: `output/<folder name>`.
pub fn board_folder(name: &str) -> PathBuf {
    PathBuf::from("output").join(folder_name(name))
}

/// The temporary name beside `path` that [`write_atomic`] renames into
/// place; it keeps the extension, for writers that go by it (PNG).
pub fn temporary(path: &Path) -> PathBuf {
    let name = path
        .file_name()
        .map_or("file".into(), |n| n.to_string_lossy().into_owned());
    path.with_file_name(format!(".tmp-{}-{name}", std::process::id()))
}

/// Moves a finished temporary file into place (or removes it on failure).
pub fn commit(temporary: &Path, path: &Path) -> io::Result<()> {
    std::fs::rename(temporary, path).inspect_err(|_| {
        let _ = std::fs::remove_file(temporary);
    })
}

/// Writes `bytes` to a temporary file beside `path`, then renames it over
/// `path`: readers see the old file or the new one, never a part.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let tmp = temporary(path);
    if let Err(e) = std::fs::write(&tmp, bytes) {
        let _ = std::fs::remove_file(&tmp);
        return Err(e);
    }
    commit(&tmp, path)
}

/// `n` and the noun, plural unless `n` is 1: "1 game", "4 games".
pub fn counted(n: u64, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counted_is_singular_for_one_alone() {
        assert_eq!(counted(1, "game"), "1 game");
        assert_eq!(counted(0, "game"), "0 games");
        assert_eq!(counted(20, "game"), "20 games");
    }

    #[test]
    fn names_from_the_data_cannot_leave_the_output_folder() {
        assert_eq!(folder_name("USA"), "usa");
        assert_eq!(folder_name("USA 1910 (Mega)"), "usa-1910-mega");
        assert_eq!(folder_name("../../escaped"), "escaped");
        assert_eq!(folder_name("/etc/passwd"), "etc-passwd");
        assert_eq!(folder_name(".."), "board");
        assert_eq!(folder_name("C:\\x"), "c-x");
        assert_eq!(folder_name(&"a".repeat(500)).len(), 64);
        assert_eq!(folder_name("Zürich"), "zürich");
    }

    #[test]
    fn an_atomic_write_replaces_the_file_and_leaves_nothing_else() {
        let dir = std::env::temp_dir().join(format!("ttr-opt-output-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("a.json");
        write_atomic(&path, b"one").unwrap();
        write_atomic(&path, b"two").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"two");
        let names: Vec<_> = std::fs::read_dir(&dir).unwrap().collect();
        assert_eq!(names.len(), 1);
        // A folder that does not exist: an error, and no file anywhere.
        assert!(write_atomic(&dir.join("no/such/b.json"), b"x").is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
