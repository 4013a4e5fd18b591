#!/usr/bin/env python3
"""`games` output loads in DuckDB without options (the command test.sh runs).

    python3 scripts/duckdb_load.py [ARBITER]

ARBITER defaults to $ARBITER, else the release build (built if missing).
For the fixtures (one run over fixtures/, recursively) and, when
../shared/corpus is there, the lichess corpus file:

- `games` as CSV, `games --tags Site,...` as CSV and `games --format jsonl
  --tags all` load with DuckDB's `FROM 'file'`, no options, one row per
  game: as many rows as JSON Lines records, and for the corpus as many as
  lines starting with `[Event ` (every game of it has one). The corpus's
  CSV with tags is read with `sample_size = -1`, as docs/GUIDE.md says: a
  few of its ratings are `?` after many numbers, which DuckDB's sampled
  guess of the column's type does not see;
- the CSV's `tag_Site` (and white, black, event) of each game is the JSON
  Lines record's; for the corpus, each game's `[Site "..."]` read from the
  PGN in file order, so that its lichess id joins back.

Skipped, saying so on standard error, when the duckdb Python package is
missing (`pip install duckdb`; .ci/run installs it), and the corpus part
when the corpus or the zstd command is missing; ARBITER_REQUIRE_DUCKDB=1
and ARBITER_REQUIRE_CORPUS=1 make these failures instead.
"""

import csv
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORPUS_FILE = ROOT.parent / "shared" / "corpus" / "bench-lichess.pgn.zst"
TAGS = "Site,UTCDate,WhiteElo,BlackElo,TimeControl,ECO,Opening,Termination"


def skip(what, variable):
    """Skips (or fails, with `variable`=1) because `what` is missing."""
    if os.environ.get(variable) == "1":
        sys.exit(f"duckdb_load: failed: {what} ({variable}=1)")
    print(f"duckdb_load: skipped: {what} (set {variable}=1 to make this a failure)",
          file=sys.stderr)


def arbiter_binary():
    given = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("ARBITER")
    if given:
        return given
    target = os.environ.get("CARGO_TARGET_DIR", str(ROOT / "target"))
    binary = Path(target) / "release" / "arbiter"
    if not binary.exists():
        subprocess.run(["cargo", "build", "--release", "--quiet"], cwd=ROOT, check=True)
    return str(binary)


def games(arbiter, args, out):
    """`arbiter games -q args...` into the file `out`."""
    with open(out, "wb") as f:
        subprocess.run([arbiter, "games", "-q", *args], stdout=f, check=True, cwd=ROOT)


def check(label, condition, detail):
    if not condition:
        sys.exit(f"duckdb_load: {label}: {detail}")


def load(duckdb, label, inputs, arbiter, tmp, tagged_csv_options="", expected_games=None):
    """Loads the outputs of `games` on `inputs` (the CSV without and with
    tags, and JSON Lines with every tag); returns the connection and the
    number of games. The CSV with tags is read with `tagged_csv_options`."""
    plain, csv, jsonl = (tmp / f"{label}{suffix}" for suffix in (".csv", "-tags.csv", ".jsonl"))
    games(arbiter, inputs, plain)
    games(arbiter, ["--tags", TAGS, *inputs], csv)
    games(arbiter, ["--format", "jsonl", "--tags", "all", *inputs], jsonl)
    records = sum(1 for line in open(jsonl, encoding="utf-8") if line.strip())
    db = duckdb.connect()
    # Tables, so that every value of every row is read; no option but
    # those given: the sniffer decides, as it does for a user.
    db.execute(f"CREATE TABLE p AS FROM '{plain}'")
    db.execute(f"CREATE TABLE c AS FROM read_csv('{csv}'{tagged_csv_options})")
    db.execute(f"CREATE TABLE j AS FROM '{jsonl}'")
    counts = [db.execute(f"SELECT count(*) FROM {t}").fetchone()[0] for t in "pcj"]
    check(label, counts == [records] * 3,
          f"rows in DuckDB (CSV, CSV with tags, JSON Lines): {counts}, but {records} records")
    if expected_games is not None:
        check(label, records == expected_games, f"{records} records, {expected_games} games")
    # The same text through both formats, game by game.
    joined, differ = db.execute("""
        SELECT count(*), count(*) FILTER (
            c.tag_Site IS DISTINCT FROM j.tag_Site OR c.white IS DISTINCT FROM j.white
            OR c.black IS DISTINCT FROM j.black OR c.event IS DISTINCT FROM j.event)
        FROM c JOIN j USING (file, index)
    """).fetchone()
    check(label, joined == records and differ == 0,
          f"{joined} of {records} games join, {differ} differ between CSV and JSON Lines")
    print(f"duckdb_load: {label}: {records} games; CSV, CSV with tags and JSON Lines load alike")
    return db, records


def main():
    try:
        import duckdb
    except ImportError:
        skip("the duckdb Python package is missing", "ARBITER_REQUIRE_DUCKDB")
        return
    arbiter = arbiter_binary()
    with tempfile.TemporaryDirectory(prefix="arbiter-duckdb.") as tmp:
        tmp = Path(tmp)
        load(duckdb, "fixtures", ["-r", "fixtures"], arbiter, tmp)

        if not CORPUS_FILE.exists():
            skip(f"{CORPUS_FILE} not found", "ARBITER_REQUIRE_CORPUS")
            return
        if shutil.which("zstd") is None:
            skip("the zstd command not found", "ARBITER_REQUIRE_CORPUS")
            return
        pgn = subprocess.run(["zstd", "-dc", str(CORPUS_FILE)], check=True,
                             capture_output=True).stdout
        expected = len(re.findall(rb"^\[Event ", pgn, re.MULTILINE))
        sites = [s.decode() for s in re.findall(rb'^\[Site "([^"]*)"\]', pgn, re.MULTILINE)]
        check("corpus", len(sites) == expected, f"{len(sites)} Site tags, {expected} games")
        del pgn
        # A few of the corpus's ratings are `?`, past the rows DuckDB's
        # sniffer samples: the tags' CSV is read as the GUIDE says to.
        db, rows = load(duckdb, "corpus", [str(CORPUS_FILE)], arbiter, tmp,
                        ", sample_size = -1", expected)
        # Each game's Site as the PGN has it, numbered in file order.
        site_file = tmp / "sites.csv"
        with open(site_file, "w", newline="", encoding="utf-8") as f:
            writer = csv.writer(f, quoting=csv.QUOTE_ALL)
            writer.writerows(enumerate(sites, 1))
        db.execute(f"""CREATE TABLE sites AS FROM read_csv('{site_file}', header = false,
                       columns = {{'n': 'BIGINT', 'site': 'VARCHAR'}})""")
        joined, ids = db.execute("""
            SELECT count(*), count(DISTINCT split_part(c.tag_Site, '/', 4))
            FROM c JOIN sites ON c.index = sites.n AND c.tag_Site = sites.site
        """).fetchone()
        check("corpus", joined == rows == ids,
              f"{joined} of {rows} games have their PGN's Site, {ids} distinct lichess ids")
        print(f"duckdb_load: corpus: every one of {rows} games joins back by its Site")


if __name__ == "__main__":
    main()
