//! `arbiter db`: builds a game database (the pipeline with `db`'s row
//! observer and shard store), and reads one back: `info` (the manifest),
//! `stats` (a merge of the shards' partials), `search` (`filter`'s
//! predicates on the stored games), `export` (the games as PGN), `find`,
//! `tree` (the moves from a position, as `tree` counts them) and `dupes`
//! (the duplicates, as `dupes` finds them, and `--unique`'s file, written
//! by `dupes`' own writer).

use std::{
    fs::{self, File},
    io::{self, BufReader, Write},
    ops::ControlFlow,
    path::Path,
};

use anyhow::{Context, bail};

use crate::{
    cli::{
        DbArgs, DbBuildArgs, DbCommand, DbDupesArgs, DbExportArgs, DbFindArgs, DbFormat,
        DbInfoArgs, DbSearchArgs, DbStatsArgs, DbTreeArgs, DupesFormat, ExportFormat,
    },
    db::{
        find,
        manifest::{self, Manifest, Shard, Source},
        originals::Originals,
        row::RowMaker,
        scan, search,
        store::{Sizes, Store},
        table::StoredGame,
        tree::{TreeMaker, TreeStore},
    },
    dupes::unique::Store as UniqueStore,
    exit::ExitStatus,
    pipeline::Merge,
    select::board::Identity,
    sink::{CsvSink, JsonlSink, Limit, Sink},
    source,
    stats::{Stats, partial, report},
    tree::{Root, Spec, report as tree_report},
};

/// Runs `db`.
pub(super) fn run(args: DbArgs, run: &super::Run) -> anyhow::Result<ExitStatus> {
    match args.command {
        DbCommand::Build(args) => build(&args, run),
        DbCommand::Info(args) => info(&args),
        DbCommand::Stats(args) => stats(&args),
        DbCommand::Search(args) => search(&args, run),
        DbCommand::Export(args) => export(&args, run),
        DbCommand::Find(args) => find(&args, run),
        DbCommand::Tree(args) => tree(&args, run),
        DbCommand::Dupes(args) => dupes(&args, run),
        DbCommand::Key(args) => super::key::run(&args),
    }
}

/// A line on standard error, unless `--quiet`.
fn note(run: &super::Run, text: &str) -> io::Result<()> {
    if run.config.quiet {
        return Ok(());
    }
    run.progress.suspend(|| writeln!(io::stderr().lock(), "{text}"))
}

/// A line on standard error, always.
fn warn(run: &super::Run, text: &str) -> io::Result<()> {
    run.progress.suspend(|| writeln!(io::stderr().lock(), "{text}"))
}

/// `db build`: the new inputs (by digest) into new shards, then the
/// manifest.
/// The entries a database directory holds before its first manifest:
/// those of a build that died are swept, never read.
const DATABASE_ENTRIES: [&str; 5] = ["games", "stats", "positions", "tree", "manifest.json"];

/// What a file system or a desktop puts in any directory: no user's files.
const HARMLESS_ENTRIES: [&str; 3] = ["lost+found", ".DS_Store", "Thumbs.db"];

/// Refuses a directory that holds other files and is no database (no
/// manifest): a database written among a user's files would mix the two,
/// and the next build's sweep could not tell them apart.
fn refuse_foreign_dir(dir: &Path) -> anyhow::Result<()> {
    let Ok(entries) = fs::read_dir(dir) else { return Ok(()) };
    if dir.join("manifest.json").exists() {
        return Ok(());
    }
    let mut foreign: Vec<String> = entries
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|name| !DATABASE_ENTRIES.contains(&name.as_str()))
        .filter(|name| !HARMLESS_ENTRIES.contains(&name.as_str()))
        // The temporary manifest of a build killed while writing it.
        .filter(|name| !(name.starts_with(".manifest.json.") && name.ends_with(".arbiter-tmp")))
        .collect();
    if foreign.is_empty() {
        return Ok(());
    }
    foreign.sort();
    let more =
        if foreign.len() > 1 { format!(" and {} more", foreign.len() - 1) } else { String::new() };
    bail!(
        "--output {}: not an arbiter database (no manifest.json) and not empty (holds {}{more}): \
         give a new or empty directory, or a database to extend",
        dir.display(),
        foreign[0]
    )
}

/// Locks the database directory for one `db build` at a time: two would
/// each sweep the other's new shards as left by a run that died, and the
/// last manifest written would drop the other's sources. The lock is the
/// directory's own (`flock`), released when the process ends however it
/// ends; readers take none (the manifest is replaced whole).
/// A file system that cannot lock a directory (NFS without its lock
/// service) gets a warning, not a refusal: the build goes on unlocked.
fn lock(dir: &Path, run: &super::Run) -> anyhow::Result<Option<fs::File>> {
    let handle = fs::File::open(dir).with_context(|| format!("opening {}", dir.display()))?;
    match handle.try_lock() {
        Ok(()) => Ok(Some(handle)),
        Err(fs::TryLockError::WouldBlock) => bail!(
            "{}: another `arbiter db build` is writing this database: run this one when it has \
             finished",
            dir.display()
        ),
        Err(fs::TryLockError::Error(error)) => {
            run.progress.suspend(|| {
                writeln!(
                    io::stderr().lock(),
                    "arbiter: warning: {}: cannot lock the database ({error}): do not run another \
                     `db build` on it until this one has finished",
                    dir.display()
                )
            })?;
            Ok(None)
        }
    }
}

fn build(args: &DbBuildArgs, run: &super::Run) -> anyhow::Result<ExitStatus> {
    use crate::sink::plural;
    let dir = &args.output;
    super::output_dir("--output", dir)?;
    refuse_foreign_dir(dir)?;
    // Refused before the directory is made.
    if run.config.files.iter().any(|path| source::is_stdin(path)) {
        bail!(
            "db build reads files, not standard input: a source is known by its digest \
             (save the stream to a file first)"
        );
    }
    for sub in ["games", "stats", "positions", "tree"] {
        let path = dir.join(sub);
        fs::create_dir_all(&path).with_context(|| format!("creating {}", path.display()))?;
    }
    // Held to the end: the manifest is read, extended and written whole.
    let _lock = lock(dir, run)?;
    let existing = Manifest::read(dir)?;
    let new_database = existing.is_none();
    let mut manifest = existing.unwrap_or_default();
    sweep(dir, &manifest, run)?;
    let mut input_errors = 0;
    let mut added: Vec<Source> = Vec::new();
    let mut files = Vec::new();
    let mut next_id = manifest.sources.iter().map(|s| s.id).max().unwrap_or(0) + 1;
    for path in &run.config.files {
        let name = source::display(path);
        // Before the digest: a change while it is read gives another time.
        let modified = manifest::modified(path);
        let (size, sha256) = match regular_file(path).and_then(|()| manifest::digest(path)) {
            Ok(digest) => digest,
            Err(error) => {
                input_errors += 1;
                let error = source::InputError { path: name, source: error };
                run.progress.suspend(|| crate::sink::report_input_error(&error))?;
                continue;
            }
        };
        let known = manifest.source_with(&sha256).or(added.iter().find(|s| s.sha256 == sha256));
        if let Some(known) = known {
            match &known.error {
                // Still an error: the database lacks the rest of the file.
                Some(why) => {
                    input_errors += 1;
                    warn(
                        run,
                        &format!(
                            "arbiter: error: {name}: already in the database (as {}), read only \
                             up to an error: {why}",
                            known.path
                        ),
                    )?;
                }
                None => {
                    // Stored under predicates: not every game of it is.
                    let selected = match known.predicates.is_empty() {
                        true => String::new(),
                        false => format!(", its games that match {}", known.predicates.join(" ")),
                    };
                    note(
                        run,
                        &format!(
                            "db build: {name}: already in the database (as {}{selected})",
                            known.path
                        ),
                    )?;
                }
            }
            continue;
        }
        let predicates = run.config.selection.arguments().to_vec();
        let absolute = fs::canonicalize(path)
            .ok()
            .and_then(|path| path.to_str().map(str::to_owned))
            .filter(|absolute| *absolute != name);
        added.push(Source {
            id: next_id,
            path: name,
            absolute,
            size,
            sha256,
            modified,
            games: 0,
            error: None,
            predicates,
        });
        files.push(path.clone());
        next_id += 1;
    }
    let ids = added.iter().map(|s| (s.path.clone(), s.id)).collect();
    let sizes = Sizes {
        shard_games: args.shard_games,
        row_group: usize::try_from(args.row_group).unwrap_or(usize::MAX),
    };
    let first = manifest.shards.len() as u64 + 1;
    let mut store = Store::new(dir, first, sizes, ids);
    if !files.is_empty() {
        let summary = match args.tree {
            None => run.games_of(&files, || RowMaker::new(args.positions), &mut store),
            Some(min_games) => {
                // The tree's plies are the positions' (or their default).
                let plies = args.positions.unwrap_or(crate::db::tree::DEFAULT_PLIES);
                let mut sink = TreeStore::new(&mut store, dir, min_games, plies);
                let observer = || (RowMaker::new(args.positions), TreeMaker::new(plies));
                run.games_of(&files, observer, &mut sink)
            }
        }
        .with_context(|| format!("writing the database {}", dir.display()))?;
        input_errors += summary.input_errors;
    }
    let games: u64 = store.written.iter().map(|s| s.rows).sum();
    for source in &mut added {
        source.games = store.games.get(&source.id).copied().unwrap_or(0);
        source.error =
            store.failed.iter().find(|(path, _)| *path == source.path).map(|(_, why)| why.clone());
    }
    let new_files = added.len();
    if new_files > 0 || new_database {
        let new_shards = store.written.clone();
        manifest.sources.extend(added);
        manifest.shards.append(&mut store.written);
        manifest.games = manifest.shards.iter().map(|s| s.rows).sum();
        store.keep();
        if let Err(error) = manifest.write(dir) {
            // The manifest is as before: the new shards go, so that a
            // query of `DIR/games/*.parquet` reads what it lists.
            for file in new_shards.iter().flat_map(Shard::files) {
                let _ = fs::remove_file(dir.join(file));
            }
            return Err(error);
        }
    }
    note(
        run,
        &format!(
            "db build: {} from {} into {} ({} in all)",
            plural(games, "game"),
            plural(new_files as u64, "new file"),
            dir.display(),
            plural(manifest.games, "game")
        ),
    )?;
    Ok(if input_errors > 0 { ExitStatus::Error } else { ExitStatus::Clean })
}

/// Refuses an input that is not a regular file (a pipe, a device, a
/// FIFO): `db build` reads a source twice, for its digest and for its
/// games, and looks it up again later by its path.
fn regular_file(path: &Path) -> io::Result<()> {
    if fs::metadata(path)?.is_file() {
        return Ok(());
    }
    Err(io::Error::other(
        "not a regular file (a pipe or a device): db build reads a source twice, for its digest \
         and its games, and later by its path; save it to a file first",
    ))
}

/// Removes the shards and partials a run that died left behind: files
/// named as shards that the manifest does not list.
fn sweep(dir: &Path, manifest: &Manifest, run: &super::Run) -> anyhow::Result<()> {
    let listed: Vec<&str> = manifest.shards.iter().flat_map(Shard::files).collect();
    let digits = |n: &str| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit());
    let subs = [
        ("games", ".parquet"),
        ("stats", ".json"),
        ("positions", ".parquet"),
        ("tree", ".parquet"),
    ];
    for (sub, extension) in subs {
        let path = dir.join(sub);
        let entries = fs::read_dir(&path).with_context(|| format!("reading {}", path.display()))?;
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            let stem = name.strip_prefix("part-").and_then(|n| n.strip_suffix(extension));
            // part-NNNNNN, and part-NNNNNN-RRR for positions.
            let ours = stem.is_some_and(|n| match n.split_once('-') {
                Some((shard, run)) => sub == "positions" && digits(shard) && digits(run),
                None => sub != "positions" && digits(n),
            });
            if ours && !listed.contains(&format!("{sub}/{name}").as_str()) {
                fs::remove_file(entry.path())
                    .with_context(|| format!("removing {}", entry.path().display()))?;
                note(
                    run,
                    &format!("db build: removed {sub}/{name}, left by a run that did not finish"),
                )?;
            }
        }
    }
    Ok(())
}

/// The Parquet files of `manifest` whose footer cannot be read, or does
/// not hold the rows the manifest says (a file cut short, replaced, or a
/// manifest edited), with why. Footers only: a few kilobytes a file.
fn damaged_files(dir: &Path, manifest: &Manifest) -> Vec<(String, String)> {
    use parquet::file::reader::{FileReader, SerializedFileReader};
    let rows_of = |name: &str| -> Result<u64, String> {
        let file = fs::File::open(dir.join(name)).map_err(|error| error.to_string())?;
        let reader = SerializedFileReader::new(file).map_err(|error| error.to_string())?;
        Ok(reader.metadata().file_metadata().num_rows().max(0) as u64)
    };
    let check = |name: &str, expected: Option<u64>| match (rows_of(name), expected) {
        (Err(why), _) => Some(format!("unreadable ({why})")),
        (Ok(rows), Some(expected)) if rows != expected => {
            Some(format!("holds {rows} rows where the manifest says {expected}"))
        }
        _ => None,
    };
    let mut damaged = Vec::new();
    for shard in &manifest.shards {
        let stats = shard_stats(dir, shard).err().map(|why| format!("unreadable ({why:#})"));
        let games = check(&shard.games, Some(shard.rows)).or_else(|| games_schema(dir, shard));
        let files = [(&shard.games, games), (&shard.stats, stats)]
            .into_iter()
            .chain(shard.positions.iter().map(|name| (name, check(name, None))))
            .chain(shard.tree.iter().map(|tree| (&tree.file, check(&tree.file, Some(tree.rows)))));
        damaged.extend(files.filter_map(|(name, why)| Some((name.clone(), why?))));
    }
    damaged
}

/// `db info`: the manifest, for people: the database, each shard's files
/// (games, stats partial, positions files, tree file) with their sizes,
/// and each source. A file the manifest lists but the directory lacks is
/// shown as missing, and a file whose footer is damaged
/// (`damaged_files`) as damaged: both make the exit status 2.
fn info(args: &DbInfoArgs) -> anyhow::Result<ExitStatus> {
    let manifest = Manifest::open(&args.dir)?;
    let mut out = io::stdout().lock();
    let size = |name: &str| fs::metadata(args.dir.join(name)).ok().map(|meta| meta.len());
    let files = |shard: &manifest::Shard| -> Vec<String> {
        [shard.games.clone(), shard.stats.clone()]
            .into_iter()
            .chain(shard.positions.iter().cloned())
            .chain(shard.tree.iter().map(|t| t.file.clone()))
            .collect()
    };
    let listed: Vec<String> = manifest.shards.iter().flat_map(files).collect();
    let bytes: u64 = listed.iter().filter_map(|name| size(name)).sum();
    let missing = listed.iter().filter(|name| size(name).is_none()).count();
    writeln!(out, "database: {}", args.dir.display())?;
    writeln!(out, "format:   {} version {}", manifest.format, manifest.version)?;
    writeln!(out, "games:    {}", manifest.games)?;
    writeln!(out, "shards:   {} ({} files, {} bytes)", manifest.shards.len(), listed.len(), bytes)?;
    let bytes_of = |name: &str| size(name).map_or("missing".to_owned(), |n| format!("{n} bytes"));
    for shard in &manifest.shards {
        let line =
            |what: String, name: &str| format!("  {name:<34} {what:>22}  {}", bytes_of(name));
        writeln!(out, "{}", line(format!("{} games", shard.rows), &shard.games))?;
        writeln!(out, "{}", line("stats partial".into(), &shard.stats))?;
        for name in &shard.positions {
            writeln!(out, "{}", line("positions".into(), name))?;
        }
        if let Some(tree) = &shard.tree {
            let what = format!("tree of {} rows", tree.rows);
            writeln!(
                out,
                "{}  (positions of at least {} games, plies 0 to {})",
                line(what, &tree.file),
                tree.min_games,
                tree.plies
            )?;
        }
    }
    writeln!(out, "sources:  {}", manifest.sources.len())?;
    for source in &manifest.sources {
        writeln!(
            out,
            "  {:>4}  {:>10} games  {:>14} bytes  sha256 {}  {}",
            source.id,
            source.games,
            source.size,
            &source.sha256[..source.sha256.len().min(16)],
            source.path
        )?;
        if let Some(why) = &source.error {
            writeln!(out, "        read only up to an error: {why}")?;
        }
    }
    out.flush()?;
    drop(out);
    if missing > 0 {
        writeln!(
            io::stderr().lock(),
            "db info: {missing} of the files the manifest lists are missing: the database is \
             damaged (build it again from its sources)"
        )?;
        return Ok(ExitStatus::Error);
    }
    let damaged = damaged_files(&args.dir, &manifest);
    if !damaged.is_empty() {
        let mut err = io::stderr().lock();
        for (name, why) in &damaged {
            writeln!(err, "db info: {}: {why}", args.dir.join(name).display())?;
        }
        let count = match damaged.len() {
            1 => "1 of the files the manifest lists is".to_owned(),
            n => format!("{n} of the files the manifest lists are"),
        };
        writeln!(err, "db info: {count} damaged: build the database again from its sources")?;
        return Ok(ExitStatus::Error);
    }
    Ok(ExitStatus::Clean)
}

/// Why a shard's games file does not have the games table's columns,
/// if it does not (another Parquet file in its place).
fn games_schema(dir: &Path, shard: &Shard) -> Option<String> {
    let file = File::open(dir.join(&shard.games)).ok()?;
    let builder = parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder::try_new(file);
    let error = builder
        .map_err(anyhow::Error::from)
        .and_then(|builder| crate::db::table::check_schema(builder.schema()));
    error.err().map(|why| format!("not a games file of this format ({why})"))
}

/// A shard's `stats --partial`, which must count the games of its games
/// file (one overwritten by another's would not).
fn shard_stats(dir: &Path, shard: &Shard) -> anyhow::Result<Stats> {
    let file = File::open(dir.join(&shard.stats))?;
    let part = partial::read(BufReader::new(file))?;
    let games = part.valid.games + part.invalid.games;
    if games != shard.rows {
        bail!("counts {games} games where the manifest says {}", shard.rows);
    }
    Ok(part)
}

/// `db stats`: the shards' partials merged, reported as `stats` does.
fn stats(args: &DbStatsArgs) -> anyhow::Result<ExitStatus> {
    super::stats::one_standard_output(&args.report)?;
    let report = &args.report;
    for (flag, path) in
        [("--partial", &report.partial), ("--csv", &report.csv), ("--plot", &report.plot)]
    {
        if let Some(path) = path {
            outside(&args.dir, flag, path)?;
        }
    }
    let manifest = Manifest::open(&args.dir)?;
    let mut total = Stats::default();
    for shard in &manifest.shards {
        let path = args.dir.join(&shard.stats);
        let part =
            shard_stats(&args.dir, shard).with_context(|| format!("reading {}", path.display()))?;
        total.merge(part);
    }
    report::write(&total, &super::stats::outputs(&args.report), &mut io::stdout().lock())?;
    Ok(ExitStatus::Clean)
}

/// `db search`: the matching games' records, PGN or count.
fn search(args: &DbSearchArgs, run: &super::Run) -> anyhow::Result<ExitStatus> {
    let manifest = Manifest::open(&args.dir)?;
    let limit = args.limit.unwrap_or(u64::MAX);
    let stdout = run.progress.writer();
    let mut matched = 0;
    if args.count {
        // As `filter --count --limit N`: the games it would write.
        matched = count(&args.dir, &manifest, run)?.min(limit);
        writeln!(io::stdout().lock(), "{matched}")?;
    } else if args.format == DbFormat::Pgn {
        let mut wtr = io::BufWriter::new(stdout);
        let (written, status) = write_matches(&args.dir, &manifest, run, &mut wtr, limit, false)?;
        wtr.flush()?;
        if status != ExitStatus::Clean {
            return Ok(status);
        }
        matched = written;
    } else {
        let sink: Box<dyn Sink> = match args.format {
            DbFormat::Jsonl => Box::new(JsonlSink::new(stdout)),
            _ => Box::new(CsvSink::new(stdout)?),
        };
        let mut sink = Limit::new(sink, limit);
        each_match(&args.dir, &manifest, run, |game| {
            matched += 1;
            Ok(sink.record(&game.record, ())?)
        })?;
        sink.finish()?;
    }
    Ok(if matched == 0 { ExitStatus::Findings } else { ExitStatus::Clean })
}

/// Refuses an output (`flag`'s `path`) inside the database `dir`: a
/// command that reads a database never replaces its files (its manifest,
/// a shard) nor adds its own among them. Links are followed; a path not
/// made yet is judged by its nearest existing directory.
fn outside(dir: &Path, flag: &str, path: &Path) -> anyhow::Result<()> {
    let Ok(database) = fs::canonicalize(dir) else { return Ok(()) };
    if path.as_os_str() == "-" {
        return Ok(());
    }
    let mut rest = Vec::new();
    // A link is followed even when it names nothing yet.
    let mut at = match crate::sink::atomic::resolve(path) {
        Some(resolved) => resolved,
        None => std::path::absolute(path)?,
    };
    let inside = loop {
        if let Ok(real) = fs::canonicalize(&at) {
            break rest
                .iter()
                .rev()
                .fold(real, |real, name| real.join(name))
                .starts_with(&database);
        }
        let (Some(name), Some(parent)) = (at.file_name(), at.parent()) else { break false };
        rest.push(name.to_owned());
        at = parent.to_path_buf();
    };
    if inside {
        bail!(
            "{flag} {}: inside the database {}, whose files it would replace or mix with its \
             own: give a path outside it",
            path.display(),
            dir.display()
        );
    }
    Ok(())
}

/// `db export`: the matching games as PGN (or one SQLite file), into a
/// file.
fn export(args: &DbExportArgs, run: &super::Run) -> anyhow::Result<ExitStatus> {
    super::output_file("--output", &args.output)?;
    let manifest = Manifest::open(&args.dir)?;
    outside(&args.dir, "-o", &args.output)?;
    if args.format == ExportFormat::Sqlite {
        return export_sqlite(args, &manifest, run);
    }
    let mut output = super::filter::Output::open(Some(&args.output), run)?;
    let (games, status) =
        write_matches(&args.dir, &manifest, run, output.writer(), u64::MAX, args.quiet)?;
    output.finish()?;
    if !args.quiet {
        writeln!(io::stderr().lock(), "db export: {games} games")?;
    }
    Ok(status)
}

/// `db export --format sqlite`: the selected games, their positions and
/// the sources as one SQLite file, which appears whole or not at all (a
/// device, a pipe or standard output gets a copy of it, written at the
/// end).
#[cfg(feature = "sqlite")]
fn export_sqlite(
    args: &DbExportArgs,
    manifest: &Manifest,
    run: &super::Run,
) -> anyhow::Result<ExitStatus> {
    use std::io::IsTerminal;

    use crate::sink::atomic::{self, Replacement, Scratch, Target};
    let output = &args.output;
    let name = output.to_string_lossy();
    if [".zst", ".gz"].iter().any(|suffix| name.ends_with(suffix)) {
        bail!("-o {name}: a SQLite file is written uncompressed: give a name without .zst or .gz");
    }
    let target = match output.as_os_str() == "-" {
        true => Target::Stdout,
        false => atomic::target(output).with_context(|| format!("-o {name}"))?,
    };
    if target == Target::Stdout && io::stdout().is_terminal() {
        bail!("-o {name}: standard output is a terminal, not a place for a SQLite file");
    }
    let (selection, jobs) = (&run.config.selection, run.config.pipeline.jobs);
    let shown = match target {
        Target::Stdout => "standard output".into(),
        _ => name.clone(),
    };
    let writing = || format!("writing {shown}");
    let export = |file: &Path| {
        crate::db::sqlite::export(&args.dir, manifest, selection, jobs, file).with_context(writing)
    };
    let exported = match target {
        Target::Replace(path) => {
            let replacement = Replacement::begin(&path).with_context(writing)?;
            let exported = export(replacement.path())?;
            let permissions = atomic::permissions(&path, replacement.path());
            fs::set_permissions(replacement.path(), permissions.with_context(writing)?)
                .with_context(writing)?;
            replacement.commit().with_context(writing)?;
            exported
        }
        // SQLite writes a file it can seek in: one of its own, then copied
        // to the stream, the pipe or the device.
        target => {
            let scratch = Scratch::new("arbiter-export.sqlite").with_context(writing)?;
            let exported = export(scratch.path())?;
            let copy = |wtr: &mut dyn Write| io::copy(&mut File::open(scratch.path())?, wtr);
            match target {
                Target::Stdout => copy(&mut io::stdout().lock()),
                _ => atomic::write(output, |wtr| copy(wtr).map(drop)).map(|()| 0),
            }
            .with_context(writing)?;
            exported
        }
    };
    if !args.quiet {
        let (games, positions) = (exported.games, exported.positions);
        writeln!(io::stderr().lock(), "db export: {games} games, {positions} positions")?;
    }
    Ok(ExitStatus::Clean)
}

/// `db export --format sqlite` in a binary built without SQLite.
#[cfg(not(feature = "sqlite"))]
fn export_sqlite(
    args: &DbExportArgs,
    _manifest: &Manifest,
    _run: &super::Run,
) -> anyhow::Result<ExitStatus> {
    bail!(
        "-o {}: --format sqlite needs an arbiter built with SQLite \
         (cargo build --release --features sqlite)",
        args.output.display()
    )
}

/// Writes the first `limit` games the predicates select as PGN, each as
/// its own bytes where its source can serve them (`Originals`); the
/// number written. Without a predicate, games are read by place, and in
/// full only where their source cannot serve them. `quiet`: no line on
/// the games written from the database.
fn write_matches(
    dir: &Path,
    manifest: &Manifest,
    run: &super::Run,
    wtr: &mut dyn Write,
    limit: u64,
    quiet: bool,
) -> anyhow::Result<(u64, ExitStatus)> {
    let mut originals = Originals::new(dir, manifest, true);
    let mut written = 0;
    if limit == 0 {
        return Ok((0, ExitStatus::Clean));
    }
    let mut counted = |wrote: bool| {
        written += u64::from(wrote);
        if written >= limit { ControlFlow::Break(()) } else { ControlFlow::Continue(()) }
    };
    if run.config.selection.is_everything() {
        scan::places(dir, manifest, |place, full| {
            Ok(counted(originals.write_at(wtr, place, full)?))
        })?;
    } else {
        each_match(dir, manifest, run, |game| Ok(counted(originals.write(wtr, &game)?)))?;
    }
    Ok((written, not_written(run, &originals, quiet)?))
}

/// Says which sources' games were written from the database rather than
/// as their own bytes (unless `quiet`), and why each game that could not
/// be written was not (five, then how many more): exit status 2 when
/// there is one.
fn not_written(run: &super::Run, originals: &Originals, quiet: bool) -> io::Result<ExitStatus> {
    from_columns(run, originals, quiet)?;
    let skipped = originals.skipped();
    for why in skipped.iter().take(5) {
        warn(run, &format!("arbiter: error: {why}: not written"))?;
    }
    if skipped.len() > 5 {
        warn(run, &format!("arbiter: error: and {} more games not written", skipped.len() - 5))?;
    }
    Ok(if skipped.is_empty() { ExitStatus::Clean } else { ExitStatus::Error })
}

/// A line for each source some of whose games were written from the
/// database, not as their own bytes (unless `quiet`).
fn from_columns(run: &super::Run, originals: &Originals, quiet: bool) -> io::Result<()> {
    if quiet {
        return Ok(());
    }
    for line in originals.from_columns() {
        warn(run, &format!("arbiter: {line}"))?;
    }
    Ok(())
}

/// `db find`: the games that reached a position, through the positions
/// files where the shards have them, else from every game; each checked by
/// replaying its stored moves (`db::find`). Records carry the first ply at
/// which the game stood in the position.
fn find(args: &DbFindArgs, run: &super::Run) -> anyhow::Result<ExitStatus> {
    let manifest = Manifest::open(&args.dir)?;
    let key = super::key::of(&args.fen)?;
    let target = Identity::parse(&args.fen).map_err(anyhow::Error::msg)?;
    let limit = usize::try_from(args.limit.unwrap_or(u64::MAX)).unwrap_or(usize::MAX);
    // A lookup: a compressed source is not decompressed for a few games.
    let mut originals = (args.format == DbFormat::Pgn && !args.count)
        .then(|| Originals::new(&args.dir, &manifest, false));
    let mut wtr = io::BufWriter::new(run.progress.writer());
    enum Records<W: Write> {
        Jsonl(JsonlSink<W>),
        Csv(CsvSink<W>),
    }
    let mut records = match (args.count, args.format) {
        (true, _) | (false, DbFormat::Pgn) => None,
        (false, DbFormat::Jsonl) => Some(Records::Jsonl(JsonlSink::new(run.progress.writer()))),
        (false, DbFormat::Csv) => {
            Some(Records::Csv(CsvSink::with_int_columns(run.progress.writer(), &["ply"])?))
        }
    };
    let mut matched = 0;
    for shard in &manifest.shards {
        if matched >= limit {
            break;
        }
        let mut found = find::find_in_shard(&args.dir, shard, key, &target, limit - matched)?;
        found.truncate(limit - matched);
        matched += found.len();
        if args.count {
            continue;
        }
        // Never stopped: the limit was applied to `found`.
        let _ = find::games_at(&args.dir, shard, &found, &mut |game, hit| {
            let ply = i64::from(hit.ply);
            match &mut records {
                Some(Records::Jsonl(sink)) => {
                    sink.record_with_ints(&game.record, &[("ply", ply)])?
                }
                Some(Records::Csv(sink)) => sink.record_with_ints(&game.record, &[ply])?,
                None => {
                    if let Some(originals) = &mut originals {
                        originals.write(&mut wtr, &game)?;
                    }
                }
            }
            Ok(ControlFlow::Continue(()))
        })?;
    }
    if args.count {
        writeln!(wtr, "{matched}")?;
    }
    wtr.flush()?;
    match &mut records {
        Some(Records::Jsonl(sink)) => Sink::<()>::finish(sink)?,
        Some(Records::Csv(sink)) => Sink::<()>::finish(sink)?,
        None => {}
    }
    if let Some(originals) = &originals {
        let status = not_written(run, originals, false)?;
        if status != ExitStatus::Clean {
            return Ok(status);
        }
    }
    Ok(if matched == 0 { ExitStatus::Findings } else { ExitStatus::Clean })
}

/// `db tree`: the moves from a position, from the tree files (or the
/// positions files), written as `tree` writes its rows.
fn tree(args: &DbTreeArgs, run: &super::Run) -> anyhow::Result<ExitStatus> {
    if let Some(path) = &args.partial {
        super::output_file("--partial", path)?;
        outside(&args.dir, "--partial", path)?;
    }
    let manifest = Manifest::open(&args.dir)?;
    let fens: Vec<String> = args.fen.iter().cloned().collect();
    let moves: Vec<String> = args.moves.iter().cloned().collect();
    let root = Root::parse(&fens, &moves).map_err(anyhow::Error::msg)?;
    let key = match &args.fen {
        Some(fen) => super::key::of(fen)?,
        None => {
            // The start position, or the one after `--moves`.
            let mut pos = shakmaty::Chess::default();
            for &m in &root.moves {
                shakmaty::Position::play_unchecked(&mut pos, m);
            }
            crate::chess::identity::position_hash(&pos) as i64
        }
    };
    let spec = Spec { root, depth: args.depth };
    let answer = crate::db::tree::answer(&args.dir, &manifest, spec, key, args.max_positions)?;
    // A warning, not a note: the counts may be short (even with `-q`).
    for (shard, k) in &answer.pruned {
        warn(
            run,
            &format!(
                "db tree: {shard} has no row for the position in its tree file (built with \
                 --tree={k}) and no positions files: up to {} of its games may be missing",
                k - 1
            ),
        )?;
    }
    let outputs = tree_report::Outputs {
        csv: args.csv.then(|| "-".into()),
        json: args.json,
        partial: args.partial.clone(),
        min_games: args.min_games,
    };
    tree_report::write(&answer.tree, &outputs, &mut io::stdout().lock())?;
    Ok(ExitStatus::Clean)
}

/// `db dupes`: the stored games through `dupes`' observer and sink, then
/// its groups and report.
fn dupes(args: &DbDupesArgs, run: &super::Run) -> anyhow::Result<ExitStatus> {
    use crate::dupes::{
        self as duplicates, groups,
        index::{Index, Selection},
        report::{self as dupes_report, Totals},
    };
    if let Some(path) = &args.output {
        outside(&args.dir, "-o", path)?;
    }
    let manifest = Manifest::open(&args.dir)?;
    let keep = super::dupes::keep(args.keep);
    // Made first, as `dupes` makes it.
    let store = super::dupes::unique_store(args.output.as_deref())?;
    let mut index = Index::new(Selection { min_plies: args.min_plies }, None);
    let games = crate::db::dupes::index(&args.dir, &manifest, &mut index)?;
    let people = duplicates::people(&index.names);
    let spill = std::mem::take(&mut index.spill).finish().context("writing the prefixes")?;
    let mut entries = index.take_entries();
    let found = groups::find(&mut entries, &people, spill).context("reading the prefixes")?;
    drop(entries);
    let files = manifest.sources.len() as u64;
    let totals = Totals::of(&found, games, files, index.left_out);
    let mut stdout = run.progress.writer();
    match args.format {
        DupesFormat::Text => dupes_report::text(&index, &found, keep, &mut stdout)?,
        DupesFormat::Jsonl => dupes_report::jsonl(&index, &found, keep, &mut stdout)?,
    }
    let mut written = None;
    if let (Some(store), Some(path)) = (store, &args.output) {
        let dropped = dupes_report::dropped(&found, keep);
        let count = unique(&args.dir, &manifest, run, store, &dropped, games)
            .with_context(|| format!("writing {}", path.display()))?;
        written = Some((source::display(path), count));
    }
    // The summary goes with the table, or to stderr beside data.
    let mut summary: Box<dyn Write> = match args.format {
        DupesFormat::Text => stdout,
        DupesFormat::Jsonl => {
            stdout.flush()?;
            Box::new(io::stderr().lock())
        }
    };
    let written = written.as_ref().map(|(path, count)| (path.as_str(), *count));
    dupes_report::summary(&totals, args.min_plies, written, &mut summary)?;
    summary.flush()?;
    Ok(ExitStatus::Clean)
}

/// `db dupes --unique`: every game's text, in the database's order, into
/// `dupes`' own store, which cuts the `dropped` ones (ordinals) out and
/// puts the file in place; the number of games written. The texts are
/// those `dupes` reads from the sources ([`Originals::own_or_stored`])
/// where it can, else the stored games written as PGN.
fn unique(
    dir: &Path,
    manifest: &Manifest,
    run: &super::Run,
    mut store: UniqueStore,
    dropped: &[u32],
    games: u64,
) -> anyhow::Result<u64> {
    let mut originals = Originals::new(dir, manifest, true);
    let mut seen = 0;
    let mut source = None;
    scan::places(dir, manifest, |place, full| {
        // The first game of a source starts on a line of its own.
        let first = source != Some(place.source_id);
        source = Some(place.source_id);
        let text = originals.own_or_stored(place, full)?;
        store.add(&text, first)?;
        seen += 1;
        Ok(ControlFlow::Continue(()))
    })?;
    // The ordinals are those of the first pass: the same games, in order.
    if seen != games {
        bail!("the database changed while it was read ({games} games, then {seen})");
    }
    from_columns(run, &originals, false)?;
    Ok(store.finish(dropped)?)
}

/// Hands each game of the database that the predicates select to `each`,
/// in order: every game when there is no predicate, else those that
/// `db::search` selects, decided on the worker threads.
fn each_match(
    dir: &Path,
    manifest: &Manifest,
    run: &super::Run,
    each: impl FnMut(StoredGame) -> anyhow::Result<ControlFlow<()>>,
) -> anyhow::Result<()> {
    let selection = &run.config.selection;
    if selection.is_everything() {
        return scan::games(dir, manifest, each);
    }
    search::each_match(dir, manifest, selection, run.config.pipeline.jobs, true, each)?;
    Ok(())
}

/// The number of games the predicates select.
fn count(dir: &Path, manifest: &Manifest, run: &super::Run) -> anyhow::Result<u64> {
    let selection = &run.config.selection;
    if selection.is_everything() {
        return Ok(manifest.shards.iter().map(|s| s.rows).sum());
    }
    let jobs = run.config.pipeline.jobs;
    search::each_match(dir, manifest, selection, jobs, false, |_| Ok(ControlFlow::Continue(())))
}
