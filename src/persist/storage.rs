//! Files that must survive crashes, `kill -9`, flat batteries and app updates. No Bevy here:
//! the save plugin decides *when* to write; this module decides *how*.
//!
//! A save of `name` is written as:
//! 1. the new bytes go to `name.tmp` in the same directory, which is flushed and fsynced;
//! 2. the current `name`, if it is good, is renamed to `name.bak` (the previous good save);
//! 3. `name.tmp` is renamed over `name`, and the directory is fsynced.
//!
//! Each rename is atomic, so a kill at any instant leaves a loadable save: `name` (old or new),
//! or, between steps 2 and 3, the complete `name.tmp` (new) and `name.bak` (old). [`load`]
//! tries them in that order. A file that exists but cannot be read as a save is never deleted:
//! it is renamed aside (`name.bad-<unix time>`) and the player is told in one sentence.
//!
//! In a browser the same steps run on the page's localStorage ([`backend`]): a path is a key,
//! a write is one `setItem` (atomic by itself), a rename a copy and a removal. A full or
//! refused storage is an error like a full disk: reported, and the previous save stays.

use std::io;
use std::path::{Path, PathBuf};

/// A kind of file kept by [`save`] and [`load`]: how to turn it into text and back.
pub trait SaveFormat: Sized {
    /// The file name, e.g. `game.ron`.
    const FILE: &'static str;
    /// The string key of what the player calls it, for messages (`"save.game"`).
    const WHAT: &'static str;
    /// The file's contents, or why they cannot be written (then nothing is written and the
    /// previous file stays).
    fn encode(&self) -> Result<String, String>;
    /// Reads the contents back; the error says what is wrong, in plain words.
    fn decode(text: &str) -> Result<Self, String>;
}

/// Why a save could not be written. The previous save is untouched when this happens.
#[derive(Debug)]
pub struct SaveError {
    /// The file being written.
    pub path: PathBuf,
    /// The operating system's reason.
    pub source: io::Error,
}

impl std::fmt::Display for SaveError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "could not save {}: {}", self.path.display(), self.source)
    }
}

impl std::error::Error for SaveError {}

/// What [`load`] found.
#[derive(Debug)]
pub enum Loaded<T> {
    /// Nothing was saved yet.
    Nothing,
    /// The latest save, read normally (possibly the complete `.tmp` of a save that was
    /// interrupted just before its last rename).
    Latest(T),
    /// The main file was unreadable; this is the previous good save.
    Backup {
        /// The previous good save.
        value: T,
        /// What was wrong with the main file.
        problem: Problem,
    },
    /// Nothing readable: start afresh. The bad files were renamed aside, not deleted.
    Unreadable {
        /// What was wrong.
        problem: Problem,
    },
}

/// Why a save could not be read, and where the bad file was put aside; the app turns it into
/// one plain sentence in the player's language.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// What was wrong with the file, in plain words.
    pub why: String,
    /// The name the unreadable file was kept under, if it could be renamed.
    pub kept_as: Option<String>,
}

fn sibling(dir: &Path, file: &str, suffix: &str) -> PathBuf {
    dir.join(format!("{file}{suffix}"))
}

/// The main file of `T` in `dir`.
pub fn path_of<T: SaveFormat>(dir: &Path) -> PathBuf {
    dir.join(T::FILE)
}

/// The backup (previous good save) of `T` in `dir`.
pub fn backup_path_of<T: SaveFormat>(dir: &Path) -> PathBuf {
    sibling(dir, T::FILE, ".bak")
}

/// Whether a file (or, in a browser, a key) exists at `path`.
pub fn exists(path: &Path) -> bool {
    backend::exists(path)
}

fn read_as<T: SaveFormat>(path: &Path) -> Option<Result<T, String>> {
    match backend::read(path) {
        Ok(bytes) => Some(match String::from_utf8(bytes) {
            Ok(text) => T::decode(&text),
            Err(e) => Err(format!(
                "not text (byte {} is invalid)",
                e.utf8_error().valid_up_to()
            )),
        }),
        Err(e) if e.kind() == io::ErrorKind::NotFound => None,
        Err(e) => Some(Err(e.to_string())),
    }
}

/// Writes `value` safely (see the module docs). On error the previous save is intact.
pub fn save<T: SaveFormat>(dir: &Path, value: &T) -> Result<(), SaveError> {
    let text = value.encode().map_err(|why| SaveError {
        path: path_of::<T>(dir),
        source: io::Error::other(format!("could not encode it: {why}")),
    })?;
    write_atomic::<T>(dir, text.as_bytes())
}

/// Writes raw `bytes` as the file of `T` with the same steps as [`save`] (tests use this to
/// plant bad files the same way the app writes good ones).
pub fn write_atomic<T: SaveFormat>(dir: &Path, bytes: &[u8]) -> Result<(), SaveError> {
    let main = path_of::<T>(dir);
    let err = |path: &Path| {
        let path = path.to_path_buf();
        move |source| SaveError { path, source }
    };
    backend::create_dir_all(dir).map_err(err(dir))?;
    // Writing `.tmp` would destroy the newest save if an earlier save was cut off between its
    // renames: finish that save first.
    finish_interrupted_save::<T>(dir);
    let tmp = sibling(dir, T::FILE, ".tmp");
    backend::write_synced(&tmp, bytes).map_err(err(&tmp))?;
    // Keep the current file as the backup only if it is a good save: a corrupted main file must
    // not push the last good backup out.
    if matches!(read_as::<T>(&main), Some(Ok(_))) {
        let bak = backup_path_of::<T>(dir);
        backend::rename(&main, &bak).map_err(err(&bak))?;
    }
    backend::rename(&tmp, &main).map_err(err(&main))?;
    backend::sync_dir(dir);
    Ok(())
}

/// If the main file is missing but a complete `.tmp` is there (a save killed between its two
/// renames), makes the `.tmp` the main file. Returns whether it did.
fn finish_interrupted_save<T: SaveFormat>(dir: &Path) -> bool {
    let main = path_of::<T>(dir);
    let tmp = sibling(dir, T::FILE, ".tmp");
    if exists(&main) || !matches!(read_as::<T>(&tmp), Some(Ok(_))) {
        return false;
    }
    let done = backend::rename(&tmp, &main).is_ok();
    backend::sync_dir(dir);
    done
}

fn set_aside(path: &Path) -> Option<PathBuf> {
    let stamp = backend::unix_seconds();
    let mut target = PathBuf::from(format!("{}.bad-{stamp}", path.display()));
    let mut n = 1;
    while exists(&target) {
        target = PathBuf::from(format!("{}.bad-{stamp}-{n}", path.display()));
        n += 1;
    }
    backend::rename(path, &target).ok().map(|()| target)
}

/// The file system's few operations the saves need: the OS's files.
#[cfg(not(all(target_family = "wasm", target_os = "unknown")))]
mod backend {
    use std::fs::{self, File, OpenOptions};
    use std::io::{self, Write};
    use std::path::Path;
    use std::time::{SystemTime, UNIX_EPOCH};

    pub(super) fn read(path: &Path) -> io::Result<Vec<u8>> {
        fs::read(path)
    }

    pub(super) fn exists(path: &Path) -> bool {
        path.exists()
    }

    pub(super) fn create_dir_all(dir: &Path) -> io::Result<()> {
        fs::create_dir_all(dir)
    }

    /// Writes `bytes` to `path` and waits until they are on the disk.
    pub(super) fn write_synced(path: &Path, bytes: &[u8]) -> io::Result<()> {
        let mut file = OpenOptions::new()
            .write(true)
            .create(true)
            .truncate(true)
            .open(path)?;
        file.write_all(bytes)?;
        file.sync_all()
    }

    pub(super) fn rename(from: &Path, to: &Path) -> io::Result<()> {
        fs::rename(from, to)
    }

    /// Makes the renames durable. Directories cannot be opened for syncing everywhere
    /// (Windows); where they cannot, the rename is still atomic, only its durability is up to
    /// the OS.
    pub(super) fn sync_dir(dir: &Path) {
        if let Ok(d) = File::open(dir) {
            let _ = d.sync_all();
        }
    }

    pub(super) fn unix_seconds() -> u64 {
        SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map(|d| d.as_secs())
            .unwrap_or(0)
    }
}

/// The same operations on the page's localStorage: a path is a key (`montello/game.ron`), a
/// write one `setItem`, a rename a copy then a removal (a reload between the two leaves both
/// keys, which [`load`] reads like the files' interrupted rename).
#[cfg(all(target_family = "wasm", target_os = "unknown"))]
mod backend {
    use std::io;
    use std::path::Path;

    fn storage() -> io::Result<web_sys::Storage> {
        web_sys::window()
            .and_then(|w| w.local_storage().ok().flatten())
            .ok_or_else(|| io::Error::other("this browser gives the page no storage"))
    }

    fn key(path: &Path) -> String {
        path.to_string_lossy().into_owned()
    }

    /// The browser's refusal in words: "QuotaExceededError: …" when the storage is full.
    fn refused(e: wasm_bindgen::JsValue) -> io::Error {
        let why = js_sys::Error::from(e).to_string();
        io::Error::other(format!("the browser refused to store it ({why})"))
    }

    pub(super) fn read(path: &Path) -> io::Result<Vec<u8>> {
        match storage()?.get_item(&key(path)).map_err(refused)? {
            Some(text) => Ok(text.into_bytes()),
            None => Err(io::ErrorKind::NotFound.into()),
        }
    }

    pub(super) fn exists(path: &Path) -> bool {
        storage().is_ok_and(|s| s.get_item(&key(path)).ok().flatten().is_some())
    }

    pub(super) fn create_dir_all(_dir: &Path) -> io::Result<()> {
        storage().map(drop)
    }

    pub(super) fn write_synced(path: &Path, bytes: &[u8]) -> io::Result<()> {
        let text = std::str::from_utf8(bytes)
            .map_err(|_| io::Error::other("a save must be text in a browser"))?;
        storage()?.set_item(&key(path), text).map_err(refused)
    }

    pub(super) fn rename(from: &Path, to: &Path) -> io::Result<()> {
        let storage = storage()?;
        let text = storage
            .get_item(&key(from))
            .map_err(refused)?
            .ok_or(io::ErrorKind::NotFound)?;
        storage.set_item(&key(to), &text).map_err(refused)?;
        storage.remove_item(&key(from)).map_err(refused)
    }

    pub(super) fn sync_dir(_dir: &Path) {}

    pub(super) fn unix_seconds() -> u64 {
        (js_sys::Date::now() / 1000.0) as u64
    }
}

/// Reads the save of `T` from `dir`, falling back as the module docs describe. Never panics
/// and never deletes: a bad file is renamed aside.
pub fn load<T: SaveFormat>(dir: &Path) -> Loaded<T> {
    let main = path_of::<T>(dir);
    let bak = backup_path_of::<T>(dir);
    // A save cut off between its renames left its complete `.tmp`: newer than the backup.
    finish_interrupted_save::<T>(dir);
    let problem = match read_as::<T>(&main) {
        Some(Ok(value)) => return Loaded::Latest(value),
        None => None,
        Some(Err(why)) => {
            let aside = set_aside(&main);
            Some((why, aside))
        }
    };
    let backup = read_as::<T>(&bak);
    match (problem, backup) {
        (None, None) => Loaded::Nothing,
        (None, Some(Ok(value))) => Loaded::Latest(value),
        (Some((why, aside)), Some(Ok(value))) => Loaded::Backup {
            value,
            problem: problem_of(why, aside.as_deref()),
        },
        (problem, Some(Err(bak_why))) => {
            let bak_aside = set_aside(&bak);
            let (why, aside) = match problem {
                Some((why, aside)) => (why, aside.or(bak_aside)),
                None => (bak_why, bak_aside),
            };
            Loaded::Unreadable {
                problem: problem_of(why, aside.as_deref()),
            }
        }
        (Some((why, aside)), None) => Loaded::Unreadable {
            problem: problem_of(why, aside.as_deref()),
        },
    }
}

fn problem_of(why: String, aside: Option<&Path>) -> Problem {
    Problem {
        why,
        kept_as: aside
            .and_then(|p| p.file_name())
            .map(|name| name.to_string_lossy().into_owned()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;
    use std::time::{SystemTime, UNIX_EPOCH};

    /// A tiny format for the tests: `v1:<number>`.
    #[derive(Debug, PartialEq)]
    struct Counter(u64);

    impl SaveFormat for Counter {
        const FILE: &'static str = "counter.txt";
        const WHAT: &'static str = "counter";
        fn encode(&self) -> Result<String, String> {
            Ok(format!("v1:{}", self.0))
        }
        fn decode(text: &str) -> Result<Self, String> {
            let n = text.strip_prefix("v1:").ok_or("no version")?;
            n.parse().map(Counter).map_err(|e| e.to_string())
        }
    }

    fn dir() -> PathBuf {
        let d = std::env::temp_dir().join(format!(
            "montello-storage-{}-{}",
            std::process::id(),
            SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .map(|d| d.as_nanos())
                .unwrap_or(0)
        ));
        fs::create_dir_all(&d).expect("temp dir");
        d
    }

    /// A bigger file for the kill test, so a kill often lands mid-write: `n`, then 64 KiB
    /// of a pattern that depends on `n`, then `end`. Anything torn fails to decode.
    #[derive(Debug, PartialEq)]
    struct Blob(u64);

    const BLOB_LEN: usize = 64 * 1024;

    impl SaveFormat for Blob {
        const FILE: &'static str = "blob.txt";
        const WHAT: &'static str = "blob";
        fn encode(&self) -> Result<String, String> {
            let c = (b'a' + (self.0 % 26) as u8) as char;
            Ok(format!(
                "{}\n{}\nend",
                self.0,
                c.to_string().repeat(BLOB_LEN)
            ))
        }
        fn decode(text: &str) -> Result<Self, String> {
            let mut lines = text.split('\n');
            let n: u64 = lines
                .next()
                .and_then(|l| l.parse().ok())
                .ok_or("no number")?;
            let c = (b'a' + (n % 26) as u8) as char;
            let body = lines.next().ok_or("no body")?;
            if body.len() != BLOB_LEN || body.chars().any(|x| x != c) || lines.next() != Some("end")
            {
                return Err("torn".into());
            }
            Ok(Blob(n))
        }
    }

    /// The writer process of the kill test: saves forever until killed.
    #[test]
    #[ignore = "run only as the child process of kill_9_during_saves_always_leaves_a_loadable_save"]
    fn save_writer_child() {
        let Some(dir) = std::env::var_os("MONTELLO_SAVE_WRITER_DIR") else {
            return;
        };
        let dir = PathBuf::from(dir);
        let mut n = match load::<Blob>(&dir) {
            Loaded::Latest(Blob(n)) | Loaded::Backup { value: Blob(n), .. } => n,
            _ => 0,
        };
        loop {
            n += 1;
            save(&dir, &Blob(n)).expect("save");
        }
    }

    #[test]
    fn kill_9_during_saves_always_leaves_a_loadable_save() {
        let d = dir();
        save(&d, &Blob(0)).expect("first save");
        let exe = std::env::current_exe().expect("test binary");
        // A fixed seed (printed on failure) so a failing schedule can be replayed.
        let seed = 0x6b69_6c6c_u64;
        let mut rng = seed;
        let mut last = 0;
        let mut mid_save = 0;
        // A hundred rounds, and more (up to 400) until a kill has landed inside a save and
        // a save has completed: on a loaded machine the writer may not start in time.
        for round in 0..400 {
            if round >= 100 && last > 0 && mid_save > 0 {
                break;
            }
            let mut child = std::process::Command::new(&exe)
                .args([
                    "--exact",
                    concat!(module_path!(), "::save_writer_child").trim_start_matches("montello::"),
                    "--ignored",
                    "--test-threads=1",
                ])
                .env("MONTELLO_SAVE_WRITER_DIR", &d)
                .stdout(std::process::Stdio::null())
                .stderr(std::process::Stdio::null())
                .spawn()
                .expect("spawn writer");
            rng = rng
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            // Longer waits while no save has completed yet (a slow start under load).
            let patience = if last == 0 { round as u64 * 1_000 } else { 0 };
            std::thread::sleep(std::time::Duration::from_micros(
                2_000 + (rng >> 33) % 30_000 + patience,
            ));
            child.kill().expect("kill -9");
            child.wait().expect("reap");
            if d.join("blob.txt.tmp").exists() {
                mid_save += 1;
            }
            match load::<Blob>(&d) {
                Loaded::Latest(Blob(n)) => {
                    assert!(
                        n >= last,
                        "round {round} (seed {seed:#x}): went back from {last} to {n}"
                    );
                    last = n;
                }
                other => panic!(
                    "round {round} (seed {seed:#x}): no loadable save after kill -9: {other:?}"
                ),
            }
        }
        assert!(
            last > 0,
            "the writer never completed a save: the test proved nothing"
        );
        assert!(
            mid_save > 0,
            "no kill landed inside a save: the test proved nothing"
        );
    }

    #[test]
    fn save_keeps_the_previous_good_save_as_backup() {
        let d = dir();
        assert!(matches!(load::<Counter>(&d), Loaded::Nothing));
        save(&d, &Counter(1)).expect("save");
        save(&d, &Counter(2)).expect("save");
        assert!(matches!(load::<Counter>(&d), Loaded::Latest(Counter(2))));
        assert_eq!(
            fs::read_to_string(backup_path_of::<Counter>(&d)).expect("bak"),
            "v1:1"
        );
        assert!(!d.join("counter.txt.tmp").exists());
    }

    #[test]
    fn a_corrupt_main_file_falls_back_to_the_backup_and_is_kept_aside() {
        let d = dir();
        save(&d, &Counter(1)).expect("save");
        save(&d, &Counter(2)).expect("save");
        fs::write(path_of::<Counter>(&d), "v1:2garbage").expect("corrupt");
        match load::<Counter>(&d) {
            Loaded::Backup { value, problem } => {
                assert_eq!(value, Counter(1));
                let kept = problem.kept_as.expect("the bad file was renamed");
                assert!(kept.starts_with("counter.txt.bad-"), "{kept}");
                assert!(!problem.why.is_empty());
            }
            other => panic!("expected the backup, got {other:?}"),
        }
        let aside: Vec<_> = fs::read_dir(&d)
            .expect("dir")
            .filter_map(|e| e.ok())
            .filter(|e| {
                e.file_name()
                    .to_string_lossy()
                    .starts_with("counter.txt.bad-")
            })
            .collect();
        assert_eq!(aside.len(), 1);
        assert_eq!(
            fs::read_to_string(aside[0].path()).expect("aside"),
            "v1:2garbage"
        );
    }

    #[test]
    fn a_corrupt_main_file_does_not_replace_a_good_backup() {
        let d = dir();
        save(&d, &Counter(1)).expect("save");
        save(&d, &Counter(2)).expect("save");
        fs::write(path_of::<Counter>(&d), "junk").expect("corrupt");
        save(&d, &Counter(3)).expect("save");
        assert_eq!(
            fs::read_to_string(backup_path_of::<Counter>(&d)).expect("bak"),
            "v1:1"
        );
        assert!(matches!(load::<Counter>(&d), Loaded::Latest(Counter(3))));
    }

    #[test]
    fn nothing_readable_starts_afresh_and_deletes_nothing() {
        let d = dir();
        fs::write(path_of::<Counter>(&d), [0xff, 0xfe, 0x00]).expect("write");
        fs::write(backup_path_of::<Counter>(&d), "v9:1").expect("write");
        match load::<Counter>(&d) {
            Loaded::Unreadable { problem } => assert!(problem.kept_as.is_some(), "{problem:?}"),
            other => panic!("expected a fresh start, got {other:?}"),
        }
        let kept = fs::read_dir(&d)
            .expect("dir")
            .filter_map(|e| e.ok())
            .count();
        assert_eq!(kept, 2, "both bad files are kept aside");
    }

    #[test]
    fn an_interrupted_save_is_recovered_from_its_complete_tmp() {
        let d = dir();
        save(&d, &Counter(1)).expect("save");
        // The state between the two renames: main gone to .bak, the new file complete in .tmp.
        fs::rename(path_of::<Counter>(&d), backup_path_of::<Counter>(&d)).expect("rename");
        fs::write(d.join("counter.txt.tmp"), "v1:2").expect("tmp");
        assert!(matches!(load::<Counter>(&d), Loaded::Latest(Counter(2))));
        assert!(
            path_of::<Counter>(&d).exists(),
            "the recovered save became the main file"
        );
        // A torn .tmp (killed while writing, before the renames) is ignored...
        fs::write(d.join("counter.txt.tmp"), "v1:").expect("tmp");
        assert!(matches!(load::<Counter>(&d), Loaded::Latest(Counter(2))));
        // ...also when the main file is missing: the backup is the newest complete save.
        fs::remove_file(path_of::<Counter>(&d)).expect("remove");
        assert!(matches!(load::<Counter>(&d), Loaded::Latest(Counter(1))));
    }

    /// A counter that cannot be written past 9 (as if its encoder failed).
    #[derive(Debug, PartialEq)]
    struct Small(u64);

    impl SaveFormat for Small {
        const FILE: &'static str = "small.txt";
        const WHAT: &'static str = "small";
        fn encode(&self) -> Result<String, String> {
            if self.0 > 9 {
                return Err(format!("{} has two digits", self.0));
            }
            Ok(self.0.to_string())
        }
        fn decode(text: &str) -> Result<Self, String> {
            text.parse().map(Small).map_err(|e| e.to_string())
        }
    }

    #[test]
    fn a_value_that_cannot_be_encoded_writes_nothing_and_keeps_the_good_file() {
        let d = dir();
        save(&d, &Small(7)).expect("saves");
        let e = save(&d, &Small(12)).expect_err("cannot encode");
        assert!(e.to_string().contains("two digits"), "{e}");
        assert!(matches!(load::<Small>(&d), Loaded::Latest(Small(7))));
        assert!(
            !backup_path_of::<Small>(&d).exists(),
            "nothing was moved aside"
        );
        let _ = fs::remove_dir_all(&d);
    }
}
