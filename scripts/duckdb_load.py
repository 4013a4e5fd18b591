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
  PGN in file order, so that its lichess id joins back;
- `arbiter db build --positions` of the same input: DuckDB reads
  `DIR/games/*.parquet` with no options, one row per game, each column of
  the type docs/DATABASE.md documents; each row's verdict is the CSV
  record's; the positions files hold each replayed game's start position
  and name no other game; and the `moves` column, decoded as
  docs/DATABASE.md says and replayed with python-chess (when installed),
  reaches each game's `final_fen`, whose key is python-chess's polyglot
  hash;
- every DuckDB query the README, docs/DATABASE.md and docs/GUIDE.md
  show runs on a database of the fixtures (the rating bands are bands);
- `arbiter db export --format sqlite` of that database, read by Python's
  own sqlite3 module: the same columns, and every value of every row equal
  to DuckDB's reading of the Parquet files (dates and times as ISO text,
  lists and maps as JSON), the same positions (skipped when arbiter was
  built without `--features sqlite`; ARBITER_REQUIRE_SQLITE=1 makes that
  a failure).

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


# The types DuckDB must read the documented columns as (docs/DATABASE.md).
DATABASE_TYPES = {
    "game_id": "BIGINT", "source_id": "INTEGER", "file": "VARCHAR", "offset": "BIGINT",
    "index": "BIGINT", "date": "DATE", "date_text": "VARCHAR", "white_elo": "INTEGER",
    "time_base": "BIGINT", "utc_datetime": "TIMESTAMP WITH TIME ZONE",
    "tags": "MAP(VARCHAR, VARCHAR)", "valid": "BOOLEAN", "plies": "INTEGER",
    "warnings": "VARCHAR[]", "warning_lines": "BIGINT[]", "codes": "VARCHAR[]",
    "moves": "BLOB", "clocks": "INTEGER[]", "evals": "INTEGER[]", "text": "BLOB",
    "final_material": "VARCHAR", "final_key": "BIGINT", "mainline_hash": "BIGINT",
    "home_pawns": "INTEGER",
}


def move_code(board, move):
    """The two-byte code of a legal move of `board` (docs/DATABASE.md)."""
    import chess
    if move.drop:
        return move.to_square << 6 | (8 + move.drop) << 12
    if board.is_castling(move):
        # King to the castling rook, in every mode.
        king = move.from_square
        kingside = board.is_kingside_castling(move)
        rooks = board.clean_castling_rights() & board.occupied_co[board.turn]
        rook = next(sq for sq in chess.scan_forward(rooks)
                    if (chess.square_file(sq) > chess.square_file(king)) == kingside)
        return king | rook << 6 | 7 << 12
    return move.from_square | move.to_square << 6 | (move.promotion or 0) << 12


def candidate(board, byte):
    """The code of the candidate a byte names in `board`, or None
    (docs/DATABASE.md): the piece in its high four bits, the candidate of
    that piece in its low four."""
    import chess
    us, own = board.turn, board.occupied_co[board.turn]
    pieces = list(chess.scan_forward(own))
    if byte >> 4 >= len(pieces):
        return None
    origin = pieces[byte >> 4]
    promoting = False
    if board.piece_type_at(origin) == chess.PAWN:
        step = 8 if us == chess.WHITE else -8
        targets = chess.BB_PAWN_ATTACKS[us][origin] | chess.BB_SQUARES[origin + step]
        if chess.square_rank(origin) == (1 if us == chess.WHITE else 6):
            targets |= chess.BB_SQUARES[origin + 2 * step]
        promoting = chess.square_rank(origin) == (6 if us == chess.WHITE else 1)
    else:
        targets = board.attacks_mask(origin)
    codes = []
    for target in chess.scan_forward(targets & ~own):
        plain = origin | target << 6
        codes += [plain | kind << 12 for kind in (2, 3, 4, 5)] if promoting else [plain]
    return codes[byte & 15] if byte & 15 < len(codes) else None


def decode_moves(blob, board):
    """Plays a `moves` value on `board`, as docs/DATABASE.md decodes it;
    returns the plies played."""
    i = plies = 0
    while i < len(blob):
        if blob[i] == 255:
            wanted = blob[i + 1] | blob[i + 2] << 8
            i += 3
        else:
            wanted = candidate(board, blob[i])
            i += 1
        move = next(m for m in board.legal_moves if move_code(board, m) == wanted)
        board.push(move)
        plies += 1
    return plies


def home_pawns(board):
    """The `home_pawns` of a board, as docs/DATABASE.md defines it."""
    import chess
    white = board.pieces_mask(chess.PAWN, chess.WHITE) >> 8 & 0xFF
    black = board.pieces_mask(chess.PAWN, chess.BLACK) >> 48 & 0xFF
    return white | black << 8


def placement(fen):
    """A FEN's placement (its pocket sorted) and side to move."""
    board, turn = fen.split()[:2]
    if "[" in board:
        board, pocket = board.rstrip("]").split("[")
        board += "[" + "".join(sorted(pocket)) + "]"
    return board, turn


def board_of(variant, fen):
    """The start position of a stored game, in python-chess."""
    import chess
    import chess.variant
    if variant in ("chess", "chess960"):
        cls = chess.Board
    else:
        cls = chess.variant.find_variant({"3check": "threecheck"}.get(variant, variant))
    chess960 = variant == "chess960"
    return cls(fen, chess960=chess960) if fen else cls(chess960=chess960)


def database(duckdb, label, inputs, arbiter, tmp, db_conn, replay_at_most=None):
    """Builds a database of `inputs` and checks DuckDB's reading of it
    against the records already loaded into `db_conn` (table p)."""
    out = tmp / f"{label}-db"
    subprocess.run([arbiter, "db", "build", "-q", "--positions", *inputs, "-o", str(out)],
                   check=True, cwd=ROOT)
    glob = f"{out}/games/*.parquet"
    types = dict(db_conn.execute(f"SELECT column_name, column_type FROM (DESCRIBE FROM '{glob}')")
                 .fetchall())
    wrong = {c: (types.get(c), t) for c, t in DATABASE_TYPES.items() if types.get(c) != t}
    check(label, not wrong, f"database column types (found, documented): {wrong}")
    db_conn.execute(f"CREATE TABLE g AS FROM '{glob}'")
    rows, records = (db_conn.execute(f"SELECT count(*) FROM {t}").fetchone()[0] for t in "gp")
    check(label, rows == records, f"{rows} rows in the database, {records} records")
    joined, differ = db_conn.execute("""
        SELECT count(*), count(*) FILTER (
            g.valid IS DISTINCT FROM p.valid OR g.plies IS DISTINCT FROM p.plies
            OR g.final_fen IS DISTINCT FROM p.final_fen OR g.white IS DISTINCT FROM p.white
            OR g.error_kind IS DISTINCT FROM p.error_kind
            OR g.termination IS DISTINCT FROM p.termination)
        FROM g JOIN p USING (file, index)
    """).fetchone()
    check(label, joined == records and differ == 0,
          f"{joined} of {records} rows join the records, {differ} differ")
    positions = f"{out}/positions/*.parquet"
    types = db_conn.execute(f"SELECT column_name, column_type FROM (DESCRIBE FROM '{positions}')")
    check(label, types.fetchall() == [("key", "BIGINT"), ("game_id", "BIGINT"), ("ply", "INTEGER")],
          "positions columns")
    starts, replayed, orphans = db_conn.execute(f"""
        SELECT (SELECT count(*) FROM '{positions}' WHERE ply = 0),
               (SELECT count(*) FROM g WHERE final_fen IS NOT NULL),
               (SELECT count(*) FROM '{positions}' p ANTI JOIN g USING (game_id))
    """).fetchone()
    check(label, starts == replayed and orphans == 0,
          f"{starts} start positions for {replayed} games replayed; {orphans} of no game")
    sqlite_export(label, out, arbiter, tmp, db_conn)
    try:
        import chess  # noqa: F401
    except ImportError:
        print(f"duckdb_load: {label}: moves not decoded (python-chess missing)", file=sys.stderr)
        return
    games = db_conn.execute("""
        SELECT game_id, variant, fen, moves, final_fen, plies, final_key, home_pawns FROM g
        WHERE error_kind IS NULL AND 'unsupported_variant' NOT IN warnings
        ORDER BY game_id
    """).fetchall()
    if replay_at_most is not None:
        games = games[:replay_at_most]
    import chess.polyglot
    decoded = keyed = 0
    for game_id, variant, fen, blob, final_fen, plies, final_key, home in games:
        board = board_of(variant, fen)
        decoded_plies = decode_moves(blob, board)
        check(label, decoded_plies == plies, f"game {game_id}: {decoded_plies} plies decoded, "
              f"{plies} played")
        # Piece placement and side to move: the FEN's first two fields (a
        # crazyhouse pocket's pieces in any order).
        check(label, placement(board.fen()) == placement(final_fen),
              f"game {game_id}: decoded to {board.fen()}, arbiter has {final_fen}")
        check(label, home == home_pawns(board),
              f"game {game_id}: home_pawns {home}, python-chess's board has {home_pawns(board)}")
        decoded += 1
        # The key is the polyglot hash, signed; python-chess's counts an en
        # passant capture that is pseudo-legal only, arbiter's a legal one.
        if variant == "chess" and (board.has_legal_en_passant()
                                   or not board.has_pseudo_legal_en_passant()):
            polyglot = chess.polyglot.zobrist_hash(board)
            signed = polyglot - (1 << 64) if polyglot >= 1 << 63 else polyglot
            check(label, signed == final_key,
                  f"game {game_id}: final_key {final_key}, polyglot hash {signed}")
            keyed += 1
            # `arbiter key`, which SQL users run, prints the same (for a
            # sample: a process each).
            if keyed <= 40:
                printed = subprocess.run([arbiter, "key", final_fen], check=True, cwd=ROOT,
                                         capture_output=True, text=True).stdout.strip()
                check(label, printed == str(signed),
                      f"game {game_id}: arbiter key {final_fen!r} printed {printed}, "
                      f"polyglot hash {signed}")
    print(f"duckdb_load: {label}: database of {rows} games reads in DuckDB with the documented "
          f"types; {decoded} games' moves decode with python-chess to their final position, "
          f"and {keyed} final keys are python-chess's polyglot hashes (the first "
          f"{min(keyed, 40)} printed by `arbiter key`)")


def sqlite_value(value):
    """A value of DuckDB's reading of `games` as the SQLite export stores
    it: booleans 0 or 1, dates and times as ISO text (UTC), lists and maps
    as the JSON values they are written as."""
    import datetime
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, datetime.datetime):
        utc = value.astimezone(datetime.timezone.utc)
        text = utc.strftime("%Y-%m-%d %H:%M:%S")
        return text + (f".{utc.microsecond // 1000:03d}" if utc.microsecond else "")
    if isinstance(value, datetime.date):
        return value.isoformat()
    if isinstance(value, dict):
        # DuckDB returns a MAP as {key: [...], value: [...]} or as a dict.
        if set(value) == {"key", "value"} and isinstance(value["key"], list):
            return list(zip(value["key"], value["value"]))
        return list(value.items())
    return value


def sqlite_export(label, out, arbiter, tmp, db_conn):
    """`db export --format sqlite` of the database `out`, read by Python's
    sqlite3, against DuckDB's reading of its Parquet files (table g)."""
    import json
    import sqlite3
    target = tmp / f"{label}.sqlite"
    run = subprocess.run([arbiter, "db", "export", "-q", str(out), "--format", "sqlite",
                          "-o", str(target)], cwd=ROOT, capture_output=True, text=True)
    if run.returncode != 0 and "--features sqlite" in run.stderr:
        skip("arbiter was built without SQLite (--features sqlite)", "ARBITER_REQUIRE_SQLITE")
        return
    check(label, run.returncode == 0, f"db export --format sqlite failed: {run.stderr}")
    lite = sqlite3.connect(target)
    names = [row[1] for row in lite.execute("PRAGMA table_info(games)")]
    expected = [row[0] for row in db_conn.execute("SELECT column_name FROM (DESCRIBE g)").fetchall()]
    check(label, names == expected, f"SQLite columns {names}, Parquet columns {expected}")
    json_columns = {name for name, kind in db_conn.execute(
        "SELECT column_name, column_type FROM (DESCRIBE g)").fetchall()
        if kind.endswith("[]") or kind.startswith("MAP")}
    ours = lite.execute("SELECT * FROM games ORDER BY game_id")
    theirs = db_conn.execute("SELECT * FROM g ORDER BY game_id").fetchall()
    rows = 0
    for lite_row, duck_row in zip(ours, theirs):
        rows += 1
        for name, a, b in zip(names, lite_row, duck_row):
            if name in json_columns and a is not None:
                a = json.loads(a)
                a = list(a.items()) if isinstance(a, dict) else a
            b = sqlite_value(b)
            check(label, a == b, f"game {duck_row[0]}: {name} is {a!r} in SQLite, "
                  f"{b!r} in Parquet")
    total = db_conn.execute("SELECT count(*) FROM g").fetchone()[0]
    check(label, rows == total and lite.execute("SELECT count(*) FROM games").fetchone()[0] == total,
          f"{rows} rows compared of {total}")
    digest = "SELECT count(*), sum(key % 1000003), sum(game_id % 1000003), sum(ply) FROM "
    positions = lite.execute(digest + "positions").fetchone()
    parquet = db_conn.execute(digest + f"'{out}/positions/*.parquet'").fetchone()
    check(label, tuple(positions) == tuple(parquet),
          f"positions: SQLite {positions}, Parquet {parquet}")
    print(f"duckdb_load: {label}: db export --format sqlite holds the {rows} games with every "
          f"value DuckDB reads from the Parquet files, and the {positions[0]} positions")


def documented_queries(duckdb, arbiter, tmp):
    """Runs every DuckDB query of README.md, docs/DATABASE.md and
    docs/GUIDE.md (```sql blocks; SQLite's are skipped) on a database of
    the fixtures built with `--positions --tree`, the docs' DIR and
    sample.db standing for it: each must run, and the rating bands of
    White's score must be the bands they say they are."""
    out = tmp / "docs-db"
    subprocess.run([arbiter, "db", "build", "-q", "--positions", "--tree", "-r", "fixtures",
                    "-o", str(out)], check=True, cwd=ROOT)
    conn = duckdb.connect()
    ran = 0
    for doc in ["README.md", "docs/DATABASE.md", "docs/GUIDE.md"]:
        text = (ROOT / doc).read_text(encoding="utf-8")
        for block in re.findall(r"^```sql\n(.*?)^```", text, re.MULTILINE | re.DOTALL):
            if block.lstrip().startswith("-- sqlite3"):
                continue
            block = re.sub(r"'(DIR|sample\.db)/", f"'{out}/", block)
            # DATABASE.md's home-pawns mask, a placeholder there.
            block = re.sub(r"~H\b", "~0", block)
            for statement in filter(str.strip, block.split(";")):
                if not re.sub(r"--[^\n]*", "", statement).strip():
                    continue
                try:
                    rows = conn.execute(statement).fetchall()
                except duckdb.Error as error:
                    check("docs", False, f"{doc}: {error}\n{statement.strip()}")
                if " AS band" in statement:
                    bands = [row[0] for row in rows]
                    check("docs", bands and all(b is None or b == int(b) and int(b) % 200 == 0
                                        for b in bands),
                          f"{doc}: rating bands {bands[:5]}...")
                ran += 1
    check("docs", ran >= 10, f"only {ran} documented queries found")
    print(f"duckdb_load: docs: {ran} documented DuckDB queries run")


def main():
    try:
        import duckdb
    except ImportError:
        skip("the duckdb Python package is missing", "ARBITER_REQUIRE_DUCKDB")
        return
    arbiter = arbiter_binary()
    with tempfile.TemporaryDirectory(prefix="arbiter-duckdb.") as tmp:
        tmp = Path(tmp)
        db, _ = load(duckdb, "fixtures", ["-r", "fixtures"], arbiter, tmp)
        database(duckdb, "fixtures", ["-r", "fixtures"], arbiter, tmp, db)
        documented_queries(duckdb, arbiter, tmp)

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
        database(duckdb, "corpus", [str(CORPUS_FILE)], arbiter, tmp, db, replay_at_most=2000)


if __name__ == "__main__":
    main()
