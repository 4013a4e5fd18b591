//! The progress bar: drawn on standard error when it is a terminal and a
//! run lasts, never with `--quiet` or when standard error is not a
//! terminal. The terminal is a pseudo-terminal from util-linux's `script`
//! (Debian's essential bsdutils package).

use std::process::{Command, Stdio};

use crate::util::{assert_no_panic, fixture};

/// Runs `shell` on a pseudo-terminal and returns what it showed. The one
/// run of arbiter not made with `util::Arbiter`, which cannot give it a
/// terminal: what the terminal showed is checked for a panic instead.
fn on_a_terminal(shell: &str) -> String {
    let output = Command::new("script")
        .args(["-qec", shell, "/dev/null"])
        .env("TERM", "xterm")
        .stdin(Stdio::null())
        .output()
        .expect("script (util-linux) runs");
    let shown = String::from_utf8_lossy(&output.stdout).into_owned();
    // `-e`: script exits as the command did (validate: 1, the sample has an
    // illegal move); anything else means no terminal was had.
    assert_eq!(
        output.status.code(),
        Some(1),
        "script failed: {}\n{shown}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert_no_panic(&[shell], &shown);
    shown
}

/// `arbiter validate` of standard input that only comes after 1.5 s, so
/// the run outlasts the 500 ms before the bar's first draw; `redirect`
/// follows the command.
fn slow_validate(flags: &str, redirect: &str) -> String {
    let (bin, sample) = (env!("CARGO_BIN_EXE_arbiter"), fixture("sample.pgn"));
    format!("(sleep 1.5; cat '{sample}') | '{bin}' validate -j 1 {flags} - {redirect}")
}

#[test]
fn the_bar_shows_on_a_terminal_only_and_not_with_quiet() {
    // The bar reads standard input's bytes per second ("B/s"); the rest of
    // validate's output never has it.
    let shown = on_a_terminal(&slow_validate("", ""));
    assert!(shown.contains("B/s"), "no bar on a terminal: {shown:?}");
    assert!(shown.contains(" games in "), "no summary: {shown:?}");
    for (flags, redirect, what) in
        [("-q", "", "with --quiet"), ("", "2>/dev/null", "with standard error off the terminal")]
    {
        let shown = on_a_terminal(&slow_validate(flags, redirect));
        assert!(!shown.contains("B/s"), "a bar {what}: {shown:?}");
        assert!(shown.contains(" games in "), "no summary {what}: {shown:?}");
    }
}

/// Standard input that is a regular file (`validate - < file`) has a size:
/// the bar shows it and an ETA, as for a file named on the command line;
/// a pipe has none, and gets the spinner. The run is held up past the
/// bar's first draw by a reader of its output that waits 1.5 s (the
/// findings of 3,000 games fill the pipe).
#[test]
fn standard_input_from_a_file_gets_a_sized_bar_with_an_eta() {
    let dir = tempfile::tempdir().expect("tempdir");
    let input = dir.path().join("many.pgn");
    let mut text = std::fs::read_to_string(fixture("sample.pgn")).expect("the sample");
    text.push_str(&"[Event \"E\"]\n\n1. e4 e5 *\n\n".repeat(3000));
    std::fs::write(&input, &text).expect("write");
    let (bin, input) = (env!("CARGO_BIN_EXE_arbiter"), input.display());
    let slow_reader = "(sleep 1.5; cat > /dev/null)";
    let shown = |shell: &str| {
        let output = Command::new("script")
            .args(["-qec", shell, "/dev/null"])
            .env("TERM", "xterm")
            .stdin(Stdio::null())
            .output()
            .expect("script (util-linux) runs");
        let shown = String::from_utf8_lossy(&output.stdout).into_owned();
        assert_no_panic(&[shell], &shown);
        shown
    };
    let from_file = shown(&format!("'{bin}' validate -j 1 - < '{input}' | {slow_reader}"));
    assert!(from_file.contains("B/s") && from_file.contains("ETA"), "{from_file:?}");
    let from_pipe = shown(&format!("cat '{input}' | '{bin}' validate -j 1 - | {slow_reader}"));
    assert!(from_pipe.contains("B/s") && !from_pipe.contains("ETA"), "{from_pipe:?}");
}
