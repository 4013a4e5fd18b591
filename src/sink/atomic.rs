//! Where an output file named by a path goes ([`target`]: standard output
//! by another name, a device or pipe written directly, or a regular file
//! through its links) and replacing a file whole or not at all (`fmt
//! --in-place`, `-o`, `--rejects`, `stats --partial`, `stats --csv`): the
//! new content goes to a temporary file beside the target, which is synced
//! and renamed over it.
//!
//! The temporary file is named `.NAME.XXXXXX.arbiter-tmp` (NAME the
//! target's name) and locked while it is written, so that no run leaves one
//! behind: SIGINT, SIGTERM and SIGHUP remove it before the process ends as
//! the signal says, and one left by a run killed outright (SIGKILL, a crash,
//! a power cut) is no longer locked, so the next run that writes the same
//! target removes it.

use std::{
    ffi::{OsStr, OsString},
    fs::{self, File},
    io::{self, BufWriter, Write},
    os::unix::ffi::OsStrExt,
    path::{Path, PathBuf},
    sync::{Mutex, OnceLock, PoisonError},
};

use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};

/// The end of every temporary file's name.
const SUFFIX: &str = ".arbiter-tmp";

/// Random characters in a temporary file's name.
const RANDOM: usize = 6;

/// At most this much of the target's name goes into the temporary file's,
/// which must stay within the file system's 255 bytes.
const NAME_BYTES: usize = 200;

/// The temporary files being written, and the [`Provisional`] files,
/// removed on a terminating signal.
static LIVE: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// A new version of `target` being written; `commit` renames it into place,
/// and dropping it uncommitted removes it, leaving `target` as it was.
#[derive(Debug)]
pub struct Replacement {
    temp: tempfile::NamedTempFile,
    target: PathBuf,
    _live: Live,
    /// Whether the target, once committed, stays on the list a signal
    /// removes ([`Replacement::begin_provisional`]).
    provisional: bool,
}

/// A temporary file on the list of live ones, taken off when dropped (the
/// file itself is removed by `NamedTempFile`'s drop, or renamed).
#[derive(Debug)]
struct Live(PathBuf);

impl Drop for Live {
    fn drop(&mut self) {
        LIVE.lock().unwrap_or_else(PoisonError::into_inner).retain(|live| *live != self.0);
    }
}

impl Replacement {
    /// Starts replacing `target` (whose directory must be writable): sweeps
    /// the temporary files of earlier runs that were killed, and creates a
    /// new one, locked and removed on SIGINT, SIGTERM or SIGHUP.
    pub fn begin(target: &Path) -> io::Result<Replacement> {
        // A symbolic link: the file it names is replaced, the link stays.
        let target = &follow_links(target)?;
        let dir = target.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
        Replacement::in_dir(dir, target)
    }

    /// A new temporary file in `dir` for `target`.
    fn in_dir(dir: &Path, target: &Path) -> io::Result<Replacement> {
        let prefix = prefix(target);
        sweep(dir, &prefix);
        handle_signals();
        // Created and listed under the list's lock: a file created after a
        // signal emptied the list would be left behind.
        let mut listed = LIVE.lock().unwrap_or_else(PoisonError::into_inner);
        let temp = tempfile::Builder::new()
            .prefix(&prefix)
            .suffix(SUFFIX)
            .rand_bytes(RANDOM)
            .tempfile_in(dir)?;
        // Until it is committed or removed, the lock says a run owns it.
        temp.as_file().lock()?;
        listed.push(temp.path().to_owned());
        drop(listed);
        let live = Live(temp.path().to_owned());
        Ok(Replacement { temp, target: target.to_owned(), _live: live, provisional: false })
    }

    /// [`Replacement::begin`], for a file that belongs to what a later step
    /// commits (a database's shard, which the manifest lists): committed,
    /// the target stays on the list a terminating signal removes, until a
    /// [`Provisional`] that adopts it is kept.
    pub fn begin_provisional(target: &Path) -> io::Result<Replacement> {
        let mut replacement = Replacement::begin(target)?;
        replacement.provisional = true;
        Ok(replacement)
    }

    /// The temporary file, to write the new content to.
    pub fn file(&self) -> &File {
        self.temp.as_file()
    }

    /// The temporary file's path.
    pub fn path(&self) -> &Path {
        self.temp.path()
    }

    /// Syncs the new content to disk and renames it over the target.
    pub fn commit(self) -> io::Result<()> {
        self.temp.as_file().sync_all()?;
        let Replacement { temp, target, _live, provisional } = self;
        // Renamed and listed under the list's lock: a signal finds the
        // temporary file or the provisional target, never a file it misses.
        let mut live = LIVE.lock().unwrap_or_else(PoisonError::into_inner);
        temp.persist(&target).map_err(|error| error.error)?;
        if provisional {
            live.push(target);
        }
        Ok(())
    }
}

/// A file in place that belongs to what a later step commits (a shard of a
/// database, which the manifest written last lists), put there by a
/// [`Replacement::begin_provisional`]: removed if the run ends before, by
/// a signal or an error, unless [`Provisional::keep`] was called. Left by
/// a run killed outright, it is the next run's to sweep.
#[derive(Debug)]
pub struct Provisional(Option<Live>);

impl Provisional {
    /// The committed provisional file at `path`, removed unless kept.
    pub fn adopt(path: &Path) -> Provisional {
        Provisional(Some(Live(path.to_owned())))
    }

    /// Keeps the file: the step that makes it part of the whole is next.
    /// Called before that step, so that a signal meanwhile can only leave
    /// the file, never remove one the whole lists.
    pub fn keep(mut self) {
        self.0.take();
    }
}

impl Drop for Provisional {
    fn drop(&mut self) {
        if let Some(live) = self.0.take() {
            let _ = fs::remove_file(&live.0);
        }
    }
}

/// A temporary file in the system's temporary directory (`TMPDIR`), for
/// an output that must be complete before it is copied where it goes (a
/// format written by seeking, sent to a pipe): removed when dropped or on
/// a terminating signal, never renamed anywhere.
#[derive(Debug)]
pub struct Scratch(Replacement);

impl Scratch {
    /// A new scratch file, its name starting with `name`.
    pub fn new(name: &str) -> io::Result<Scratch> {
        let dir = std::env::temp_dir();
        Replacement::in_dir(&dir, &dir.join(name)).map(Scratch)
    }

    /// Its path.
    pub fn path(&self) -> &Path {
        self.0.path()
    }
}

/// Where an output named by a path goes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Target {
    /// The process's standard output, named as a file (`/dev/stdout`,
    /// `/dev/fd/1`): written through the stream itself, so that the
    /// shell's redirection holds (`>>` appends; a group's later output
    /// follows).
    Stdout,
    /// The process's standard error, named as a file.
    Stderr,
    /// Not a regular file (a device, a pipe, another open descriptor):
    /// written directly, never replaced.
    Direct(PathBuf),
    /// A regular file, or none yet: replaced whole. The file a chain of
    /// symbolic links names, not the link.
    Replace(PathBuf),
}

/// Where an output at `path` goes; an error for a loop of links.
pub fn target(path: &Path) -> io::Result<Target> {
    let resolved = follow_links(path)?;
    if let Some(fd) = descriptor(&resolved) {
        return Ok(match fd {
            1 => Target::Stdout,
            2 => Target::Stderr,
            _ => Target::Direct(resolved),
        });
    }
    Ok(match fs::metadata(&resolved) {
        Ok(meta) if !meta.is_file() => Target::Direct(resolved),
        _ => Target::Replace(resolved),
    })
}

/// The open descriptor of this process a path names (`/dev/stdout`,
/// `/dev/fd/N`, `/proc/self/fd/N`), whose link must not be followed: it
/// names the file the descriptor was opened on, not the descriptor.
fn descriptor(path: &Path) -> Option<u32> {
    match path.to_str()? {
        "/dev/stdin" => return Some(0),
        "/dev/stdout" => return Some(1),
        "/dev/stderr" => return Some(2),
        _ => {}
    }
    let own = format!("/proc/{}/fd/", std::process::id());
    ["/dev/fd/", "/proc/self/fd/", "/proc/thread-self/fd/", own.as_str()]
        .iter()
        .find_map(|prefix| path.to_str()?.strip_prefix(prefix)?.parse().ok())
}

/// The most links followed, as the kernel's limit (`ELOOP`).
const MAX_LINKS: usize = 40;

/// The file `path` names once symbolic links are followed, whether it
/// exists or not (a link to a file not yet written names that file); up
/// to an open descriptor's name. A loop of links is an error, as it is
/// to the shell.
pub fn follow_links(path: &Path) -> io::Result<PathBuf> {
    let mut path = path.to_owned();
    for _ in 0..MAX_LINKS {
        if descriptor(&path).is_some() {
            return Ok(path);
        }
        let Ok(target) = fs::read_link(&path) else { return Ok(path) };
        // A relative link is relative to the directory holding it.
        path = path.parent().map_or_else(|| target.clone(), |dir| dir.join(&target));
    }
    Err(io::Error::other(format!("{}: too many levels of symbolic links", path.display())))
}

/// The absolute path of the file `path` names, existing or not: links
/// followed, then its directory resolved (which must exist) and its name
/// kept. `None` for a loop of links or a missing directory.
pub fn resolve(path: &Path) -> Option<PathBuf> {
    let path = follow_links(path).ok()?;
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    Some(fs::canonicalize(dir).ok()?.join(path.file_name()?))
}

/// The permissions a replacement of `target` gets: the target's, when it
/// exists and belongs to the user writing it (its mode copied to another
/// owner's file could lock that owner out), else those of a new file
/// (rw-r--r--).
pub fn permissions(target: &Path, temp: &Path) -> io::Result<fs::Permissions> {
    use std::os::unix::fs::{MetadataExt, PermissionsExt};
    let ours = fs::metadata(temp)?;
    Ok(match fs::metadata(target) {
        Ok(meta) if (meta.uid(), meta.gid()) == (ours.uid(), ours.gid()) => meta.permissions(),
        _ => fs::Permissions::from_mode(0o644),
    })
}

/// Writes `path` whole or not at all. A path that names something other
/// than a regular file (`/dev/stdout`, a pipe) is written directly.
pub fn write(path: &Path, write: impl FnOnce(&mut dyn Write) -> io::Result<()>) -> io::Result<()> {
    write_as(path, false, write)
}

/// [`write()`], the file provisional ([`Replacement::begin_provisional`]).
pub fn write_provisional(
    path: &Path,
    write: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> io::Result<()> {
    write_as(path, true, write)
}

fn write_as(
    path: &Path,
    provisional: bool,
    write: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> io::Result<()> {
    let target = match target(path)? {
        Target::Stdout => return write_flushed(&mut io::stdout().lock(), write),
        Target::Stderr => return write_flushed(&mut io::stderr().lock(), write),
        Target::Direct(path) => {
            let file = open_direct(&path)?;
            return write_flushed(&mut BufWriter::new(file), write);
        }
        Target::Replace(target) => target,
    };
    let replacement = match provisional {
        true => Replacement::begin_provisional(&target)?,
        false => Replacement::begin(&target)?,
    };
    let mut wtr = BufWriter::new(replacement.file());
    write(&mut wtr)?;
    wtr.flush()?;
    drop(wtr);
    fs::set_permissions(replacement.path(), permissions(&target, replacement.path())?)?;
    replacement.commit()
}

/// Opens a [`Target::Direct`] output: a device or a pipe as it is; a
/// descriptor's file at its end, as its own redirection (`3>>log`) would
/// write (a new open of it starts at 0).
pub fn open_direct(path: &Path) -> io::Result<File> {
    let descriptor = descriptor(path).is_some();
    fs::OpenOptions::new().write(true).append(descriptor).open(path)
}

/// `write` to `wtr`, flushed.
fn write_flushed<W: Write>(
    wtr: &mut W,
    write: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> io::Result<()> {
    write(wtr)?;
    wtr.flush()
}

/// The start of the names of `target`'s temporary files: `.NAME.`.
fn prefix(target: &Path) -> OsString {
    let name = target.file_name().unwrap_or(OsStr::new("arbiter")).as_bytes();
    let mut prefix = OsString::from(".");
    prefix.push(OsStr::from_bytes(&name[..name.len().min(NAME_BYTES)]));
    prefix.push(".");
    prefix
}

/// Removes the temporary files for this target that no run holds: those of
/// runs that were killed before they could remove them. One that cannot be
/// opened, locked or removed is left alone.
fn sweep(dir: &Path, prefix: &OsStr) {
    let Ok(entries) = fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let name = name.as_bytes();
        let ours = name.len() == prefix.len() + RANDOM + SUFFIX.len()
            && name.starts_with(prefix.as_bytes())
            && name.ends_with(SUFFIX.as_bytes());
        if !ours || !entry.file_type().is_ok_and(|t| t.is_file()) {
            continue;
        }
        let path = entry.path();
        let Ok(file) = File::open(&path) else { continue };
        // A live run holds the lock; a dead run's lock went with it.
        if file.try_lock().is_ok() {
            let _ = fs::remove_file(&path);
        }
    }
}

/// Installs, once, a thread that removes the live temporary files when the
/// process is asked to end, then ends it as the signal would have.
fn handle_signals() {
    static INSTALLED: OnceLock<()> = OnceLock::new();
    INSTALLED.get_or_init(|| {
        // Without the handler, a signal still ends the run safely: the
        // target is untouched and the next run sweeps the temporary file.
        let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP]) else {
            return;
        };
        let _ = std::thread::Builder::new().name("arbiter-signals".into()).spawn(move || {
            if let Some(signal) = signals.forever().next() {
                // Held until the process ends: a file begun or committed
                // meanwhile would escape.
                let mut live = LIVE.lock().unwrap_or_else(PoisonError::into_inner);
                for path in live.drain(..) {
                    let _ = fs::remove_file(path);
                }
                let _ = signal_hook::low_level::emulate_default_handler(signal);
                drop(live);
            }
        });
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_committed_replacement_leaves_only_the_target() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("games.pgn");
        fs::write(&target, "old").unwrap();
        write(&target, |wtr| wtr.write_all(b"new")).unwrap();
        assert_eq!(fs::read(&target).unwrap(), b"new");
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    #[test]
    fn a_dropped_replacement_leaves_the_target_as_it_was() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("games.pgn");
        fs::write(&target, "old").unwrap();
        let replacement = Replacement::begin(&target).unwrap();
        let temp = replacement.path().to_owned();
        assert!(temp.exists());
        drop(replacement);
        assert!(!temp.exists());
        assert_eq!(fs::read(&target).unwrap(), b"old");
    }

    #[test]
    fn links_are_followed_to_the_file_they_name_whether_it_exists_or_not() {
        use std::os::unix::fs::symlink;
        let dir = tempfile::tempdir().unwrap();
        let at = |name: &str| dir.path().join(name);
        fs::create_dir(at("sub")).unwrap();
        // Relative to the link's directory, through a chain, to a file
        // not yet written.
        symlink("sub/middle.pgn", at("first.pgn")).unwrap();
        symlink("last.pgn", at("sub/middle.pgn")).unwrap();
        assert_eq!(follow_links(&at("first.pgn")).unwrap(), at("sub/last.pgn"));
        symlink(at("sub/last.pgn"), at("absolute.pgn")).unwrap();
        assert_eq!(follow_links(&at("absolute.pgn")).unwrap(), at("sub/last.pgn"));
        assert_eq!(follow_links(&at("plain.pgn")).unwrap(), at("plain.pgn"));
        // A loop is an error, as to the shell.
        symlink("b", at("a")).unwrap();
        symlink("a", at("b")).unwrap();
        assert!(follow_links(&at("a")).is_err());
        assert!(Replacement::begin(&at("a")).is_err());
        // The process's own descriptors are not followed to their files.
        assert_eq!(target(Path::new("/dev/stdout")).unwrap(), Target::Stdout);
        assert_eq!(target(Path::new("/dev/fd/2")).unwrap(), Target::Stderr);
        assert_eq!(target(&at("first.pgn")).unwrap(), Target::Replace(at("sub/last.pgn")));
        // Writing through a link makes the file and keeps the link.
        write(&at("first.pgn"), |wtr| wtr.write_all(b"new")).unwrap();
        assert_eq!(fs::read(at("sub/last.pgn")).unwrap(), b"new");
        assert!(fs::symlink_metadata(at("first.pgn")).unwrap().file_type().is_symlink());
    }

    #[test]
    fn only_unlocked_temporary_files_of_the_same_target_are_swept() {
        let dir = tempfile::tempdir().unwrap();
        let target = dir.path().join("games.pgn");
        let dead = dir.path().join(".games.pgn.AbC123.arbiter-tmp");
        let other = dir.path().join(".other.pgn.AbC123.arbiter-tmp");
        let unlike = dir.path().join(".games.pgn.tmp");
        for path in [&dead, &other, &unlike] {
            fs::write(path, "x").unwrap();
        }
        let live = Replacement::begin(&target).unwrap();
        assert!(!dead.exists(), "a temporary file no run holds is swept");
        assert!(other.exists() && unlike.exists(), "other files are left alone");
        // A second run on the same target leaves the first one's file.
        let second = Replacement::begin(&target).unwrap();
        assert!(live.path().exists());
        drop((live, second));
    }
}
