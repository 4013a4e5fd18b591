//! Running the `arbiter` binary and reading what it prints.

use std::{
    io::{Read, Write},
    path::{Path, PathBuf},
    process::{Child, Command, ExitStatus, Stdio},
    time::{Duration, Instant},
};

use serde_json::Value;

/// The sample and every fixture of `fixtures/rules` and
/// `fixtures/bad-input`, in name order.
pub fn every_fixture() -> Vec<String> {
    let mut paths = vec![fixture("sample.pgn")];
    for dir in ["rules", "bad-input"] {
        let full = fixture(dir);
        let mut names: Vec<String> = std::fs::read_dir(&full)
            .expect("fixture dir")
            .map(|e| e.expect("dir entry").file_name().to_string_lossy().into_owned())
            .filter(|n| n.ends_with(".pgn"))
            .collect();
        names.sort();
        paths.extend(names.into_iter().map(|n| format!("{full}/{n}")));
    }
    paths
}

/// Absolute path of a file under `fixtures/`, as a string for the command
/// line (records name their file exactly as it was given).
pub fn fixture(relative: &str) -> String {
    let path: PathBuf = [env!("CARGO_MANIFEST_DIR"), "fixtures", relative].iter().collect();
    assert!(path.exists(), "missing fixture {}", path.display());
    path.to_str().expect("fixture paths are UTF-8").to_owned()
}

/// What one run of the binary did.
#[derive(Debug)]
pub struct Run {
    /// Exit code; always `Some`, as a run killed by a signal fails the test.
    pub code: Option<i32>,
    /// Standard output read as UTF-8 (invalid bytes replaced).
    pub stdout: String,
    /// Standard output byte for byte, for the tests of `fmt`'s bytes.
    pub stdout_bytes: Vec<u8>,
    pub stderr: String,
}

/// A run of the binary: its arguments and, where a test needs them,
/// standard input, a working directory and a watchdog. Every test spawns
/// arbiter through [`Arbiter::run`] ([`run`] is its shorthand), so that
/// every run is checked for a panic.
pub struct Arbiter<'a> {
    args: &'a [&'a str],
    stdin: Option<&'a [u8]>,
    /// How many times `stdin` is written.
    repeat: u64,
    dir: Option<&'a Path>,
    limit: Option<Duration>,
}

impl<'a> Arbiter<'a> {
    /// `arbiter args...` with no standard input, in the test's directory,
    /// waited for as long as it takes.
    pub fn new(args: &'a [&'a str]) -> Self {
        Arbiter { args, stdin: None, repeat: 1, dir: None, limit: None }
    }

    /// `input` on standard input.
    pub fn stdin(self, input: &'a [u8]) -> Self {
        Arbiter { stdin: Some(input), ..self }
    }

    /// `input` written `times` times on standard input, streamed (for
    /// inputs larger than a test should hold, or than a run should read).
    pub fn stdin_repeated(self, input: &'a [u8], times: u64) -> Self {
        Arbiter { stdin: Some(input), repeat: times, ..self }
    }

    /// Runs in `dir` (where an arbiter.toml may be).
    pub fn current_dir(self, dir: &'a Path) -> Self {
        Arbiter { dir: Some(dir), ..self }
    }

    /// Fails the test if the run has not finished within `limit`: for
    /// inputs built to make a step of super-linear time hang, or reads
    /// that could block (a watchdog, not a measure of speed).
    pub fn within(self, limit: Duration) -> Self {
        Arbiter { limit: Some(limit), ..self }
    }

    /// Runs it, and fails the test if arbiter panicked or was killed by a
    /// signal.
    pub fn run(self) -> Run {
        let args = self.args;
        let mut command = Command::new(env!("CARGO_BIN_EXE_arbiter"));
        command
            .args(args)
            .stdin(if self.stdin.is_some() { Stdio::piped() } else { Stdio::null() })
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        if let Some(dir) = self.dir {
            command.current_dir(dir);
        }
        let mut child = command.spawn().expect("the arbiter binary runs");
        let stdin = child.stdin.take();
        let mut stdout = child.stdout.take().expect("piped stdout");
        let mut stderr = child.stderr.take().expect("piped stderr");
        // Input written and output drained from other threads, so that a
        // full pipe cannot stall the run.
        let (status, stdout, stderr) = std::thread::scope(|scope| {
            if let (Some(input), Some(mut pipe)) = (self.stdin, stdin) {
                // A run that stops reading early closes the pipe: not our
                // concern here.
                let repeat = self.repeat;
                scope.spawn(move || {
                    for _ in 0..repeat {
                        if pipe.write_all(input).is_err() {
                            break;
                        }
                    }
                });
            }
            let stdout = scope.spawn(move || read_all(&mut stdout));
            let stderr = scope.spawn(move || read_all(&mut stderr));
            let status = match self.limit {
                None => child.wait().expect("wait for arbiter"),
                Some(limit) => wait_within(&mut child, limit, args),
            };
            (status, stdout.join().expect("stdout reader"), stderr.join().expect("stderr reader"))
        });
        let run = Run {
            code: status.code(),
            stdout: String::from_utf8_lossy(&stdout).into_owned(),
            stdout_bytes: stdout,
            stderr: String::from_utf8_lossy(&stderr).into_owned(),
        };
        assert_no_panic(args, &run.stderr);
        assert!(run.code.is_some(), "arbiter {args:?} was killed: {status}\n{}", run.stderr);
        run
    }
}

/// Runs `arbiter args...` with no standard input: `Arbiter::new(args).run()`.
pub fn run(args: &[&str]) -> Run {
    Arbiter::new(args).run()
}

/// Asserts that `stderr`, what `arbiter args...` printed there, shows no
/// panic: neither the panic message nor the note on `RUST_BACKTRACE` that
/// follows it.
#[track_caller]
pub fn assert_no_panic(args: &[&str], stderr: &str) {
    assert!(
        !stderr.contains("panicked") && !stderr.contains("RUST_BACKTRACE"),
        "arbiter {args:?} panicked:\n{stderr}"
    );
}

fn read_all(pipe: &mut impl Read) -> Vec<u8> {
    let mut bytes = Vec::new();
    pipe.read_to_end(&mut bytes).expect("read arbiter's output");
    bytes
}

/// Waits for `child`; kills it and fails the test after `limit`.
pub fn wait_within(child: &mut Child, limit: Duration, args: &[&str]) -> ExitStatus {
    let deadline = Instant::now() + limit;
    loop {
        if let Some(status) = child.try_wait().expect("wait for arbiter") {
            return status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("arbiter {args:?} did not finish within {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// The binary started with `args`, reading and printing nothing: a run to
/// interrupt.
pub fn spawn_silent<S: AsRef<std::ffi::OsStr>>(args: &[S]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("the arbiter binary runs")
}

/// Sends SIG`name` (number `number`) to `child` and checks that it ended
/// by that signal.
pub fn interrupt(mut child: Child, name: &str, number: i32) {
    use std::os::unix::process::ExitStatusExt;
    let pid = child.id().to_string();
    let sent = Command::new("kill").args([&format!("-{name}"), &pid]).status().expect("kill");
    assert!(sent.success());
    let status = child.wait().expect("wait");
    assert_eq!(status.signal(), Some(number), "SIG{name}: ended with {status}");
}

/// Parses JSON Lines output: one object per non-empty line.
pub fn parse_jsonl(stdout: &str) -> Vec<Value> {
    stdout
        .lines()
        .filter(|line| !line.trim().is_empty())
        .map(|line| serde_json::from_str(line).unwrap_or_else(|e| panic!("not JSON ({e}): {line}")))
        .collect()
}

/// Runs `arbiter args...` and returns the JSON records it printed. The run
/// must end with exit code 0 or 1 (findings), never a usage/I/O error.
pub fn records(args: &[&str]) -> Vec<Value> {
    let run = run(args);
    assert!(
        matches!(run.code, Some(0 | 1)),
        "arbiter {args:?} exited with {:?}\nstderr:\n{}",
        run.code,
        run.stderr
    );
    parse_jsonl(&run.stdout)
}

/// `arbiter games --format jsonl fixtures/<relative>`.
pub fn games(relative: &str) -> Vec<Value> {
    let path = fixture(relative);
    records(&["games", "--format", "jsonl", &path])
}

/// The record of the game whose `Event` tag is `event`.
pub fn game<'a>(records: &'a [Value], event: &str) -> &'a Value {
    let found: Vec<&Value> = records.iter().filter(|r| r["event"] == event).collect();
    match found.as_slice() {
        [one] => one,
        _ => {
            let events: Vec<&Value> = records.iter().map(|r| &r["event"]).collect();
            panic!("expected exactly one game with Event {event:?}; events: {events:?}")
        }
    }
}

/// `arbiter games --format jsonl fixtures/<relative>`, then the game whose
/// `Event` tag is `event`.
pub fn game_in(relative: &str, event: &str) -> Value {
    game(&games(relative), event).clone()
}

/// The kinds of the record's warnings, in order.
pub fn warning_kinds(record: &Value) -> Vec<String> {
    record["warnings"]
        .as_array()
        .unwrap_or_else(|| panic!("warnings is not an array: {record}"))
        .iter()
        .map(|w| w["kind"].as_str().expect("warning kind is a string").to_owned())
        .collect()
}

/// The record's warnings of one kind.
pub fn warnings_of<'a>(record: &'a Value, kind: &str) -> Vec<&'a Value> {
    record["warnings"]
        .as_array()
        .unwrap_or_else(|| panic!("warnings is not an array: {record}"))
        .iter()
        .filter(|w| w["kind"] == kind)
        .collect()
}

/// Asserts the record has a warning of `kind` on `line`.
#[track_caller]
pub fn assert_warning(record: &Value, kind: &str, line: u64) {
    let lines: Vec<&Value> = warnings_of(record, kind).iter().map(|w| &w["line"]).collect();
    assert!(
        lines.iter().any(|l| **l == line),
        "expected a {kind} warning on line {line}, got {lines:?} in {}",
        record["warnings"]
    );
}

/// Asserts the record has no warning of `kind`.
#[track_caller]
pub fn assert_no_warning(record: &Value, kind: &str) {
    assert!(
        warnings_of(record, kind).is_empty(),
        "expected no {kind} warning, got {}",
        record["warnings"]
    );
}

/// Asserts a valid game: no error, all plies replayed.
#[track_caller]
pub fn assert_valid(record: &Value, plies: u64) {
    assert_eq!(record["valid"], true, "{record}");
    assert!(record["error"].is_null(), "{record}");
    assert!(record["error_ply"].is_null(), "{record}");
    assert_eq!(record["plies"], plies, "{record}");
}

/// Asserts the game's first error: its kind, the token as written, its ply
/// and line; `plies` legal plies were replayed before it.
#[track_caller]
pub fn assert_error(record: &Value, kind: &str, san: &str, error_ply: u64, line: u64) {
    assert_eq!(record["valid"], false, "{record}");
    let error = &record["error"];
    assert_eq!(error["kind"], kind, "{record}");
    assert_eq!(error["san"], san, "{record}");
    assert_eq!(error["line"], line, "{record}");
    assert_eq!(record["error_ply"], error_ply, "{record}");
    assert_eq!(record["plies"], error_ply - 1, "{record}");
}

/// Asserts the first automatic end of the game.
#[track_caller]
pub fn assert_termination(record: &Value, termination: &str, ply: u64) {
    assert_eq!(record["termination"], termination, "{record}");
    assert_eq!(record["termination_ply"], ply, "{record}");
}

/// Asserts the game reached no automatic end.
#[track_caller]
pub fn assert_no_termination(record: &Value) {
    assert!(record["termination"].is_null(), "{record}");
    assert!(record["termination_ply"].is_null(), "{record}");
    assert_eq!(record["moves_after_end"], 0, "{record}");
}

/// The board part (first FEN field) of the record's final position.
pub fn final_board(record: &Value) -> String {
    let fen = record["final_fen"].as_str().unwrap_or_else(|| panic!("no final_fen: {record}"));
    fen.split(' ').next().unwrap_or_default().to_owned()
}

/// Asserts the record is Scholar's mate read normally: the good game every
/// bad-input fixture ends with.
#[track_caller]
pub fn assert_good_game(record: &Value, line: u64) {
    assert_eq!(record["event"], "Good game after", "{record}");
    assert_eq!(record["white"], "White", "{record}");
    assert_eq!(record["black"], "Black", "{record}");
    assert_eq!(record["line"], line, "{record}");
    assert_valid(record, 7);
    assert_termination(record, "checkmate", 7);
    assert_eq!(record["result"], "1-0", "{record}");
    assert_eq!(record["result_marker"], "1-0", "{record}");
    assert_eq!(record["result_consistent"], true, "{record}");
    assert_eq!(record["warnings"], serde_json::json!([]), "{record}");
}

/// Runs `arbiter args...` under GNU time and returns its standard output
/// and peak resident memory in KiB; `None` (saying so on standard error)
/// when `/usr/bin/time` is not installed. Only for tests whose point is
/// memory; it does not check for a panic, the caller checks the output.
pub fn peak_memory(args: &[&str]) -> Option<(Vec<u8>, u64)> {
    peak_memory_with_stdin(args, None)
}

/// The least peak of `runs` runs of [`peak_memory`]: a busy machine only
/// adds to a peak (a reader thread further ahead of the workers), so the
/// least of a few is the run's own, for slopes that must not flake.
pub fn least_peak_memory(args: &[&str], runs: usize) -> Option<(Vec<u8>, u64)> {
    let mut least: Option<(Vec<u8>, u64)> = None;
    for _ in 0..runs {
        let (stdout, peak) = peak_memory(args)?;
        if least.as_ref().is_none_or(|(_, l)| peak < *l) {
            least = Some((stdout, peak));
        }
    }
    least
}

/// [`peak_memory`], with the file `stdin` (if any) on standard input.
pub fn peak_memory_with_stdin(args: &[&str], stdin: Option<&Path>) -> Option<(Vec<u8>, u64)> {
    let time = Path::new("/usr/bin/time");
    if !time.exists() {
        #[allow(clippy::print_stderr)]
        {
            eprintln!("skipped: /usr/bin/time not found (GNU time measures the peak memory)");
        }
        return None;
    }
    let input = match stdin {
        Some(path) => Stdio::from(std::fs::File::open(path).expect("the input file opens")),
        None => Stdio::inherit(),
    };
    let out = Command::new(time)
        .args(["-f", "%M"])
        .arg(env!("CARGO_BIN_EXE_arbiter"))
        .args(args)
        .stdin(input)
        .output()
        .expect("GNU time runs arbiter");
    let stderr = String::from_utf8_lossy(&out.stderr);
    let peak = stderr.lines().last().and_then(|l| l.trim().parse().ok());
    let peak = peak.unwrap_or_else(|| panic!("no peak memory from GNU time in\n{stderr}"));
    Some((out.stdout, peak))
}
