//! The progress bar: bytes read, games, games/s and, when the size of the
//! input is known, an ETA. Drawn on standard error with indicatif, at most
//! ten times a second, and only after half a second so short runs do not
//! flicker; hidden with `--quiet` or when standard error is not a terminal.
//! Output written while it shows goes through `Progress::writer`, which
//! clears the bar for each line so nothing tears.

use std::{
    io::{self, IsTerminal, Write},
    sync::{
        Arc,
        atomic::{AtomicBool, Ordering},
    },
    time::{Duration, Instant},
};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// Delay before the first draw (cargo's: "short-lived operations don't
/// flicker").
const FIRST_DRAW: Duration = Duration::from_millis(500);

/// A progress bar, or nothing. Cheap to clone: clones share the bar.
#[derive(Debug, Clone)]
pub struct Progress {
    bar: ProgressBar,
    enabled: bool,
    start: Instant,
    shown: Arc<AtomicBool>,
}

impl Progress {
    /// A bar for `total` bytes (unknown for standard input), shown only if
    /// `wanted` and standard error is a terminal.
    pub fn new(wanted: bool, total: Option<u64>) -> Self {
        let enabled = wanted
            && io::stderr().is_terminal()
            && std::env::var_os("TERM").is_none_or(|t| t != "dumb");
        let bar = ProgressBar::with_draw_target(total, ProgressDrawTarget::hidden());
        let template = match total {
            Some(_) => {
                "{binary_bytes}/{binary_total_bytes} {wide_bar} {binary_bytes_per_sec} {msg} ETA {eta}"
            }
            None => "{spinner} {binary_bytes} {binary_bytes_per_sec} {msg}",
        };
        if let Ok(style) = ProgressStyle::with_template(template) {
            bar.set_style(style);
        }
        Progress { bar, enabled, start: Instant::now(), shown: Arc::new(AtomicBool::new(false)) }
    }

    /// A bar that never shows.
    pub fn hidden() -> Self {
        Progress::new(false, None)
    }

    /// Counts `bytes` of input read.
    pub fn read(&self, bytes: u64) {
        self.bar.inc(bytes);
    }

    /// Shows `games` done so far (the bar limits its own redraw rate).
    pub fn games(&self, games: u64) {
        if !self.enabled {
            return;
        }
        let elapsed = self.start.elapsed();
        if elapsed < FIRST_DRAW {
            return;
        }
        if !self.shown.swap(true, Ordering::Relaxed) {
            self.bar.set_draw_target(ProgressDrawTarget::stderr_with_hz(10));
        }
        let rate = games as f64 / elapsed.as_secs_f64();
        self.bar.set_message(format!("{games} games ({rate:.0}/s)"));
    }

    /// Runs `f` with the bar cleared, so what `f` prints does not tear it.
    pub fn suspend<R>(&self, f: impl FnOnce() -> R) -> R {
        self.bar.suspend(f)
    }

    /// Standard output for a sink: block-buffered when it is not a
    /// terminal (sinks flush it after each chunk); line by line, around
    /// the bar if there is one, when it is.
    pub fn writer(&self) -> Box<dyn Write> {
        let stdout = io::stdout();
        if self.enabled && stdout.is_terminal() {
            Box::new(io::LineWriter::new(Suspended { progress: self.clone(), out: stdout }))
        } else if stdout.is_terminal() {
            // A person reading: each line as soon as it is found (standard
            // output is line-buffered).
            Box::new(stdout)
        } else {
            Box::new(io::BufWriter::with_capacity(1 << 16, stdout))
        }
    }

    /// Removes the bar.
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

/// A writer that clears the bar while it writes.
struct Suspended {
    progress: Progress,
    out: io::Stdout,
}

impl Write for Suspended {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.progress.suspend(|| self.out.write_all(buf)).map(|()| buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }
}
