//! Every way in gives the same records: each fixture read as a mapped
//! file, from standard input, compressed with zstd, gzip, bzip2 and xz, on one
//! thread and on four, and cut into chunks as small as one byte (so chunk
//! boundaries fall inside every game), and from a named pipe. Only the
//! `file` field may differ.

use std::{
    fs,
    io::Write,
    path::Path,
    process::{Child, Command},
    time::Duration,
};

use serde_json::Value;

use crate::util::{Arbiter, every_fixture, fixture, parse_jsonl, run};

/// The records of `args` with the `file` field removed.
fn records_without_file(args: &[&str], stdin: Option<&[u8]>) -> Vec<Value> {
    let run = match stdin {
        Some(bytes) => Arbiter::new(args).stdin(bytes).run(),
        None => run(args),
    };
    assert_eq!(run.code, Some(0), "{args:?}: {}", run.stderr);
    let mut records = parse_jsonl(&run.stdout);
    for record in &mut records {
        record.as_object_mut().expect("record object").remove("file");
    }
    records
}

fn compress(bytes: &[u8], format: &str) -> Vec<u8> {
    match format {
        "zst" => zstd::encode_all(bytes, 3).expect("zstd"),
        "gz" => {
            let mut encoder =
                flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
            encoder.write_all(bytes).expect("gzip");
            encoder.finish().expect("gzip")
        }
        "bz2" => {
            let mut encoder =
                bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::default());
            encoder.write_all(bytes).expect("bzip2");
            encoder.finish().expect("bzip2")
        }
        "xz" => {
            let mut encoder = liblzma::write::XzEncoder::new(Vec::new(), 6);
            encoder.write_all(bytes).expect("xz");
            encoder.finish().expect("xz")
        }
        other => panic!("unknown format {other}"),
    }
}

#[test]
fn every_input_path_gives_the_same_records() {
    let dir = tempfile::tempdir().expect("temp dir");
    for path in every_fixture() {
        let bytes = fs::read(&path).expect("fixture");
        let reference =
            records_without_file(&["games", "--format", "jsonl", "-j", "1", &path], None);
        let name = Path::new(&path).file_name().expect("name").to_string_lossy().into_owned();

        let from_stdin = records_without_file(&["games", "--format", "jsonl", "-"], Some(&bytes));
        assert_eq!(from_stdin, reference, "{name} from standard input");

        for format in ["zst", "gz", "bz2", "xz"] {
            let compressed = dir.path().join(format!("{name}.{format}"));
            fs::write(&compressed, compress(&bytes, format)).expect("write");
            let compressed = compressed.to_string_lossy().into_owned();
            let got = records_without_file(&["games", "--format", "jsonl", &compressed], None);
            assert_eq!(got, reference, "{name}.{format}");
            let piped = compress(&bytes, format);
            let got = records_without_file(
                &["games", "--format", "jsonl", "--chunk-size", "5", "-"],
                Some(&piped),
            );
            assert_eq!(got, reference, "{name}.{format} on standard input in 5-byte chunks");
        }

        for chunk in ["1", "7", "100", "4096"] {
            let got = records_without_file(
                &["games", "--format", "jsonl", "-j", "4", "--chunk-size", chunk, &path],
                None,
            );
            assert_eq!(got, reference, "{name} with --chunk-size {chunk} -j 4");
        }
    }
}

#[test]
fn diagnostics_do_not_depend_on_threads_or_chunks() {
    let paths = every_fixture();
    let mut one: Vec<&str> = vec!["validate", "-j", "1"];
    one.extend(paths.iter().map(String::as_str));
    let mut many: Vec<&str> = vec!["validate", "-j", "4", "--chunk-size", "3"];
    many.extend(paths.iter().map(String::as_str));
    let (one, many) = (run(&one), run(&many));
    assert_eq!(one.code, many.code);
    assert!(
        one.stdout == many.stdout,
        "validate output differs between -j 1 and -j 4 --chunk-size 3"
    );
    assert!(one.stdout.contains(" games in "), "{}", one.stdout);
}

/// `-j 0` is one thread per core, as in ripgrep: the same output as one
/// thread (it was a usage error).
/// A full disk (`/dev/full` says so on every write) is an error that names
/// the output, whichever it is: it was a bare "No space left on device"
/// for some.
#[test]
fn a_full_disk_is_an_error_that_names_the_output() {
    if !Path::new("/dev/full").exists() {
        #[allow(clippy::print_stderr)]
        {
            eprintln!("skipped: no /dev/full on this system");
        }
        return;
    }
    let sample = fixture("sample.pgn");
    let db = tempfile::tempdir().unwrap();
    let dir = db.path().to_str().unwrap();
    assert_eq!(run(&["db", "build", "-q", &sample, "-o", dir]).code, Some(0));
    for args in [
        vec!["filter", "-q", "-o", "/dev/full", &sample],
        vec![
            "filter",
            "-q",
            "--result",
            "1-0",
            "-o",
            "/dev/null",
            "--rejects",
            "/dev/full",
            &sample,
        ],
        vec!["dupes", "-q", "--unique", "-o", "/dev/full", &sample],
        vec!["stats", "-q", "--partial", "/dev/full", &sample],
        vec!["db", "export", "-q", dir, "-o", "/dev/full"],
    ] {
        let out = run(&args);
        assert_eq!(out.code, Some(2), "{args:?}: {}", out.stderr);
        assert!(
            out.stderr.contains("error: writing /dev/full: No space left on device")
                && out.stderr.matches("/dev/full").count() == 1,
            "{args:?}: {}",
            out.stderr
        );
    }
}

#[test]
fn jobs_zero_means_every_core() {
    let sample = fixture("sample.pgn");
    let (zero, one) =
        (run(&["validate", "-j", "0", &sample]), run(&["validate", "-j", "1", &sample]));
    assert_eq!(zero.code, Some(1), "{}", zero.stderr);
    assert_eq!(zero.stdout, one.stdout);
    assert!(zero.stdout.contains("207 games in 1 file"), "{}", zero.stdout);
    // Thousands of threads took minutes for one game: a usage error.
    let many = run(&["validate", "-j", "4000", &sample]);
    assert_eq!(many.code, Some(2), "{}", many.stderr);
    assert!(many.stderr.contains("0..=1024"), "{}", many.stderr);
}

/// A named pipe given as a file cannot be mapped: it is read as a stream,
/// and opened once (a second open would wait for a writer that is gone),
/// with the records of the plain file. A run that hangs fails after a
/// minute instead of hanging the suite.
#[test]
fn a_named_pipe_is_read_as_a_stream() {
    let sample = fixture("sample.pgn");
    let reference = records_without_file(&["games", "--format", "jsonl", &sample], None);
    let dir = tempfile::tempdir().expect("temp dir");
    let pipe = dir.path().join("games.pgn");
    let made = Command::new("mkfifo").arg(&pipe).status().expect("mkfifo runs");
    assert!(made.success(), "mkfifo failed");
    let _writer = Killed(
        Command::new("sh")
            .args(["-c", "cat \"$1\" > \"$2\"", "sh", &sample])
            .arg(&pipe)
            .spawn()
            .expect("sh runs"),
    );
    let pipe = pipe.to_str().expect("UTF-8 path");
    let run =
        Arbiter::new(&["games", "--format", "jsonl", pipe]).within(Duration::from_secs(60)).run();
    assert_eq!(run.code, Some(0), "arbiter on a named pipe: {}", run.stderr);
    let mut got = parse_jsonl(&run.stdout);
    for record in &mut got {
        record.as_object_mut().expect("record object").remove("file");
    }
    assert_eq!(got, reference, "a named pipe");
}

/// A child process killed when the test is done with it, passed or failed
/// (the pipe's writer would otherwise wait for a reader forever).
struct Killed(Child);

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Issue 21, item 13: symbolic-link loops under `-r` are skipped with a
/// warning, and each file is read once (two loops never finished before).
#[test]
fn r21_directory_loops_are_skipped_with_a_warning() {
    let dir = tempfile::tempdir().unwrap();
    let sub = dir.path().join("a");
    std::fs::create_dir(&sub).unwrap();
    std::fs::copy(fixture("rules/castling.pgn"), sub.join("castling.pgn")).unwrap();
    std::os::unix::fs::symlink("..", sub.join("up")).unwrap();
    std::os::unix::fs::symlink("../a", sub.join("self")).unwrap();
    let root = dir.path().to_str().unwrap();
    let run = Arbiter::new(&["games", "--format", "jsonl", "-r", root])
        .within(std::time::Duration::from_secs(30))
        .run();
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let once =
        crate::util::records(&["games", "--format", "jsonl", &fixture("rules/castling.pgn")]);
    assert_eq!(parse_jsonl(&run.stdout).len(), once.len(), "each game once");
    assert_eq!(run.stderr.matches("(a loop), skipped").count(), 2, "{}", run.stderr);
}

/// A FIFO named `*.pgn` inside a directory is no file of it: the run
/// reads the directory's files and ends (it waited for a writer forever).
#[test]
fn a_fifo_in_a_directory_is_left_out() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(fixture("rules/castling.pgn"), dir.path().join("castling.pgn")).unwrap();
    let fifo = dir.path().join("pipe.pgn");
    let made = Command::new("mkfifo").arg(&fifo).status().expect("mkfifo runs");
    assert!(made.success());
    let root = dir.path().to_str().unwrap();
    let run = Arbiter::new(&["games", "--format", "jsonl", root])
        .within(std::time::Duration::from_secs(30))
        .run();
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let once =
        crate::util::records(&["games", "--format", "jsonl", &fixture("rules/castling.pgn")]);
    assert_eq!(parse_jsonl(&run.stdout).len(), once.len());
}

/// Issue 21, item 13: a file name that is not UTF-8 works as an argument
/// and inside a directory, for reading and for `fmt --in-place`; reports
/// and records show it with U+FFFD for the bytes that are not UTF-8.
#[test]
fn r21_file_names_that_are_not_utf8_are_read() {
    use std::{ffi::OsStr, os::unix::ffi::OsStrExt};
    let dir = tempfile::tempdir().unwrap();
    let sub = dir.path().join(OsStr::from_bytes(b"club-\xff"));
    fs::create_dir(&sub).unwrap();
    let file = sub.join(OsStr::from_bytes(b"caf\xe9.pgn"));
    fs::copy(fixture("rules/castling.pgn"), &file).unwrap();
    let expected =
        crate::util::records(&["games", "--format", "jsonl", &fixture("rules/castling.pgn")]);
    let arbiter = |args: &[&OsStr]| {
        let output = Command::new(env!("CARGO_BIN_EXE_arbiter")).args(args).output().unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
        crate::util::assert_no_panic(&["(a non-UTF-8 path)"], &stderr);
        (output.status.code(), parse_jsonl(&String::from_utf8_lossy(&output.stdout)), stderr)
    };
    let jsonl = ["games", "-q", "--format", "jsonl"].map(OsStr::new);
    for input in [file.as_os_str(), sub.as_os_str(), dir.path().as_os_str()] {
        let (code, records, stderr) = arbiter(&[&jsonl[..], &[OsStr::new("-r"), input]].concat());
        assert_eq!(code, Some(0), "{stderr}");
        assert_eq!(records.len(), expected.len(), "{stderr}");
        assert!(records[0]["file"].as_str().unwrap().ends_with("club-\u{fffd}/caf\u{fffd}.pgn"));
    }
    let (code, _, stderr) =
        arbiter(&[OsStr::new("fmt"), OsStr::new("--in-place"), file.as_os_str()]);
    assert_eq!(code, Some(0), "{stderr}");
    let (code, records, _) = arbiter(&[&jsonl[..], &[file.as_os_str()]].concat());
    assert_eq!((code, records.len()), (Some(0), expected.len()));
}
