//! The subcommands, one file each: each picks its observer and its sink
//! and runs the pipeline on the configuration `config.rs` derived from the
//! command line. No algorithms here.

mod check;
mod crosstable;
#[cfg(feature = "db")]
mod db;
mod dupes;
mod filter;
mod fmt;
mod games;
mod generate;
mod key;
mod merge;
mod split;
mod stats;
mod tree;
mod validate;
mod winnable;

use std::{
    fs, io,
    path::{Path, PathBuf},
};

use anyhow::Context;

use crate::{
    cli::{Cli, ColorWhen, Command},
    config::Config,
    diagnostic::text::Palette,
    exit::ExitStatus,
    pipeline,
    progress::Progress,
    replay::observer::Observer,
    select::Selected,
    sink::{Sink, Summary},
    source,
    tournament::check::config::{self, Config as FileConfig},
};

/// Refuses, before any game is read, a directory output (`--csv DIR`,
/// `--plot DIR`) whose path is a file: creating the directory would fail
/// after the whole input was read, with only "File exists".
pub(crate) fn output_dir(flag: &str, dir: &Path) -> anyhow::Result<()> {
    if dir.exists() && !dir.is_dir() {
        anyhow::bail!(
            "{flag} {}: a file of that name exists, and {flag} writes its files into a \
             directory: give the path of a directory (created if missing), or remove or \
             rename the file",
            dir.display()
        );
    }
    Ok(())
}

/// Refuses, before any game is read, a file output (`-o FILE`, `--partial
/// FILE`) whose path is a directory, or in a directory that is not there.
/// An existing file is replaced, as shell redirection does: outputs are
/// written whole to a temporary file and renamed over it, never truncated
/// halfway.
pub(crate) fn output_file(flag: &str, path: &Path) -> anyhow::Result<()> {
    if path.as_os_str() != "-" && path.is_dir() {
        anyhow::bail!(
            "{flag} {}: is a directory, and {flag} writes one file: give the path of a file \
             (an existing file is replaced)",
            path.display()
        );
    }
    // Said before the work, not after it (a partial is written at the end).
    if path.as_os_str() != "-"
        && let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty())
        && !parent.is_dir()
    {
        anyhow::bail!(
            "{flag} {}: the directory {} does not exist (or is not a directory)",
            path.display(),
            parent.display()
        );
    }
    Ok(())
}

/// Whether two output paths name the same file (`-` is standard output):
/// the same file by any name (a link, a hard link, `/dev/stdout` and
/// the file standard output was sent to), or the same path once links are
/// followed for a file not yet written.
pub(crate) fn same_output(a: &Path, b: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    let named =
        |p: &Path| if p.as_os_str() == "-" { Path::new("/dev/stdout") } else { p }.to_owned();
    let (a, b) = (named(a), named(b));
    if let (Ok(x), Ok(y)) = (fs::metadata(&a), fs::metadata(&b)) {
        return (x.dev(), x.ino()) == (y.dev(), y.ino());
    }
    // Not both there yet: the same path once resolved.
    let resolve = crate::sink::atomic::resolve;
    resolve(&a).is_some_and(|x| resolve(&b).is_some_and(|y| x == y))
}

/// Runs a parsed command line.
pub fn run(cli: Cli) -> anyhow::Result<ExitStatus> {
    let Cli { command, color } = cli;
    let palette = match color {
        ColorWhen::Always => Palette::COLORED,
        ColorWhen::Never => Palette::PLAIN,
        // anstream's rules: NO_COLOR, CLICOLOR(_FORCE), TERM, a terminal.
        ColorWhen::Auto => match anstream::AutoStream::choice(&io::stdout()) {
            anstream::ColorChoice::Never => Palette::PLAIN,
            _ => Palette::COLORED,
        },
    };
    // Printed before any configuration is read: it takes no input.
    if let Command::Games(args) = &command
        && args.schema
    {
        io::Write::write_all(&mut io::stdout().lock(), crate::schema::RECORD_SCHEMA.as_bytes())?;
        return Ok(ExitStatus::Clean);
    }
    let run = Run { palette, ..Run::new(Config::of(&command)?) };
    match command {
        Command::Validate(args) => validate::run(args, &run),
        Command::Games(args) => games::run(args, &run),
        Command::Filter(args) => filter::run(args, &run),
        Command::Check(args) => check::run(args, &run),
        Command::Crosstable(args) => crosstable::run(args, &run),
        Command::Stats(args) => stats::run(args, &run),
        Command::Merge(args) => merge::run(args),
        Command::Fmt(args) => fmt::run(args, &run),
        Command::Dupes(args) => dupes::run(args, &run),
        Command::Tree(args) => tree::run(args, &run),
        Command::Split(args) => split::run(args),
        Command::Winnable(args) => winnable::run(args),
        Command::Key(args) => key::run(&args),
        #[cfg(feature = "db")]
        Command::Db(args) => db::run(args, &run),
        Command::Completions(args) => generate::completions(args.shell),
        Command::Man(args) => generate::man(&args.command),
    }
}

/// A run's configuration, its progress bar and the colours of its
/// diagnostics.
struct Run {
    config: Config,
    progress: Progress,
    palette: Palette,
}

impl Run {
    fn new(config: Config) -> Run {
        for link in &config.loops {
            // A warning about the arguments, before any output.
            #[allow(clippy::print_stderr)]
            {
                eprintln!(
                    "arbiter: warning: {link}: a symbolic link to a directory it is in (a loop), skipped"
                );
            }
        }
        for dir in &config.without_pgn {
            // Most likely a wrong path, or files not named `.pgn`; a
            // warning, as ripgrep warns when it searched no file: the
            // status stays what the games decide.
            #[allow(clippy::print_stderr)]
            {
                eprintln!("arbiter: warning: no PGN file found in {dir}");
            }
        }
        let progress = Progress::new(!config.quiet, source::total_size(&config.files));
        Run { config, progress, palette: Palette::PLAIN }
    }

    /// Runs the pipeline with `observer` and `sink`.
    fn games<O: Observer>(
        &self,
        observer: impl Fn() -> O + Sync,
        sink: &mut dyn Sink<O::Output>,
    ) -> io::Result<Summary> {
        self.games_of(&self.config.files, observer, sink)
    }

    /// Runs the pipeline on `files` (some of the configuration's) with
    /// `observer` and `sink`.
    fn games_of<O: Observer>(
        &self,
        files: &[PathBuf],
        observer: impl Fn() -> O + Sync,
        sink: &mut dyn Sink<O::Output>,
    ) -> io::Result<Summary> {
        let Config { replay, pipeline, selection, .. } = &self.config;
        if selection.is_everything() {
            pipeline::run(files, *replay, *pipeline, &self.progress, observer, sink)
        } else {
            let selected = || Selected::new(selection.clone(), observer());
            pipeline::run(files, *replay, *pipeline, &self.progress, selected, sink)
        }
    }
}

/// Reads the configuration file: `path` when given (it must exist), else
/// `arbiter.toml` in the current directory when there is one.
fn load_config(path: Option<&Path>) -> anyhow::Result<FileConfig> {
    let (path, required) = match path {
        Some(path) => (path.to_path_buf(), true),
        None => (PathBuf::from(config::FILE_NAME), false),
    };
    let text = match fs::read_to_string(&path) {
        Ok(text) => text,
        Err(error) if !required && error.kind() == io::ErrorKind::NotFound => {
            return Ok(FileConfig::default());
        }
        Err(error) => return Err(error).with_context(|| format!("reading {}", path.display())),
    };
    FileConfig::parse(&text).with_context(|| format!("in {}", path.display()))
}
