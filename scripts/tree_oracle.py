#!/usr/bin/env python3
"""Differential test of `arbiter tree` against a brute-force python-chess
tally: every position of the tree, with its games, results, routes,
players' mean rating, performance and years, must be what python-chess
counts, position by position.

    python3 scripts/tree_oracle.py --arbiter target/release/arbiter FILE...
    python3 scripts/tree_oracle.py --arbiter ... --corpus ../shared/corpus FILE...

python-chess reads the files (`.pgn`, or `.pgn.zst` through the `zstd`
command); the games it replays without error, in standard chess, are
written to a temporary file, which both sides then read: the comparison is
of the trees, not of two PGN readers. With `--corpus DIR`, the `.pgn.zst`
files of DIR are added (the first `--max-games` games of each); a missing
DIR is said on standard error and skipped.

The trees asked for: the start position at depths 1, 2 and 4; roots drawn
with a fixed seed from the games' positions (`--fen`, where games transpose
into each other) and opening moves (`--moves`); `--elo` (a predicate on the
tags); and `--valid`, a predicate on the record, with which every game is
replayed to its end rather than stopped once it can add nothing. Exits
non-zero on any difference, printing the query and the first positions
that differ.
"""

import argparse
import json
import logging
import math
import os
import random
import re
import subprocess
import sys
import tempfile

import chess
import chess.pgn

DATE = re.compile(r"^([0-9]{4}|\?{4})\.([0-9]{1,2}|\?{1,2})\.([0-9]{1,2}|\?{1,2})$")
RESULTS = {"1-0": 2, "1/2-1/2": 1, "0-1": 0}


def key(board):
    """FIDE's identity of positions (Art. 9.2.3): a FEN's first four
    fields, the en passant square only when a capture is legal."""
    return board.epd(en_passant="legal")


def rating(value):
    """`WhiteElo`/`BlackElo` as arbiter reads them: digits (a `+` allowed),
    from 1 to 4000."""
    value = (value or "").strip()
    if not re.fullmatch(r"\+?[0-9]+", value):
        return None
    n = int(value)
    return n if 1 <= n <= 4000 else None


def year(value):
    m = DATE.match((value or "").strip())
    if not m or "?" in m.group(1):
        return None
    y = int(m.group(1))
    return y if y > 0 else None


def result(tag):
    """The result as `tree` reads it: the `Result` tag when it is one of
    the four (the replay stops before the movetext's marker)."""
    tag = (tag or "").strip()
    return tag if tag in RESULTS or tag == "*" else None


class Game:
    """What the tally needs of a game: its positions and moves, its result,
    ratings and year."""

    def __init__(self, game):
        board = game.board()
        self.standard_start = "FEN" not in game.headers
        self.keys = [key(board)]
        self.sans = []
        for move in game.mainline_moves():
            self.sans.append(board.san(move))
            board.push(move)
            self.keys.append(key(board))
        self.result = result(game.headers.get("Result"))
        self.index = 0
        self.elo = [rating(game.headers.get("WhiteElo")), rating(game.headers.get("BlackElo"))]
        self.year = year(game.headers.get("Date"))


def read_games(path, max_games):
    if path.endswith(".zst"):
        proc = subprocess.Popen(["zstd", "-dc", "--", path], stdout=subprocess.PIPE)
        handle = open(proc.stdout.fileno(), encoding="utf-8", errors="replace", closefd=False)
    else:
        proc = None
        handle = open(path, encoding="utf-8", errors="replace")
    count = 0
    try:
        while max_games is None or count < max_games:
            try:
                game = chess.pgn.read_game(handle)
            except Exception:  # a reader crash ends the file here
                break
            if game is None:
                break
            count += 1
            yield game
    finally:
        handle.close()
        if proc is not None:
            proc.kill()
            proc.wait()


def usable(game):
    """Standard chess, replayed by python-chess without an error."""
    variant = game.headers.get("Variant", "Standard").strip().lower()
    if variant not in ("standard", "chess", "from position", "normal"):
        return False
    if game.errors:
        return False
    try:
        return game.board().is_valid()
    except ValueError:
        return False


def tally(games, root_key, root_sans, depth, keep=lambda g: True):
    """The tree, brute force: per position its games (once each), results,
    ratings, performance data and years; per (from, to) the games."""
    nodes = {}
    edges = {}
    for g in games:
        if not keep(g):
            continue
        if root_sans:
            if not g.standard_start or g.sans[: len(root_sans)] != root_sans:
                continue
            at = len(root_sans)
        else:
            if root_key not in g.keys:
                continue
            at = g.keys.index(root_key)
        window = g.keys[at: at + depth + 1]
        for k in set(window):
            node = nodes.setdefault(k, {"games": 0, "results": [0, 0, 0], "rated": 0, "rating_sum": 0,
                                        "perf": {True: [0, 0, 0], False: [0, 0, 0]}, "years": []})
            node["games"] += 1
            points = RESULTS.get(g.result)
            if points is not None:
                node["results"][2 - points] += 1
            for elo in g.elo:
                if elo is not None:
                    node["rated"] += 1
                    node["rating_sum"] += elo
            if points is not None:
                white, black = g.elo
                if black is not None:
                    node["perf"][chess.WHITE] = [a + b for a, b in zip(node["perf"][chess.WHITE], [1, points, black])]
                if white is not None:
                    node["perf"][chess.BLACK] = [a + b for a, b in zip(node["perf"][chess.BLACK], [1, 2 - points, white])]
            if g.year is not None:
                node["years"].append(g.year)
        for pair in set(zip(window, window[1:])):
            edges[pair] = edges.get(pair, 0) + 1
    return nodes, edges


def performance(games, points_x2, opponents):
    if games == 0:
        return None
    score = points_x2 / 2 / games
    if score <= 0:
        dp = -800.0
    elif score >= 1:
        dp = 800.0
    else:
        dp = max(-800.0, min(800.0, 400 * math.log10(score / (1 - score))))
    return opponents / games + dp


def expected_rows(nodes, edges, root_key):
    routes = {}
    for (_, to) in edges:
        routes[to] = routes.get(to, 0) + 1
    rows = {}
    root_turn = root_key.split()[1] == "w"
    for k, n in nodes.items():
        side = root_turn if k == root_key else not (k.split()[1] == "w")
        games, points_x2, opponents = n["perf"][side]
        rows[k] = {
            "games": n["games"],
            "white_wins": n["results"][0],
            "draws": n["results"][1],
            "black_wins": n["results"][2],
            "unscored": n["games"] - sum(n["results"]),
            "routes": routes.get(k, 0),
            "side": "white" if side else "black",
            "rated_games": games,
            "performance": performance(games, points_x2, opponents),
            "avg_rating": n["rating_sum"] / n["rated"] if n["rated"] else None,
            "first_year": min(n["years"]) if n["years"] else None,
            "last_year": max(n["years"]) if n["years"] else None,
        }
    return rows


def close(a, b):
    if a is None or b is None:
        return a is None and b is None
    return abs(a - b) <= 0.051


def compare(query, got, expected):
    """The differences between arbiter's rows and python-chess's, by FEN."""
    problems = []
    rows = {r["fen"]: r for r in got["rows"]}
    if len(rows) != len(got["rows"]):
        problems.append("a position has two rows")
    if got["root"]["positions"] != len(got["rows"]):
        problems.append(f"{got['root']['positions']} positions but {len(got['rows'])} rows")
    for k in sorted(set(rows) | set(expected)):
        if k not in rows or k not in expected:
            problems.append(f"{k}: only in {'arbiter' if k in rows else 'python-chess'}")
            continue
        r, e = rows[k], expected[k]
        for field, want in e.items():
            have = r[field]
            same = close(have, want) if field in ("performance", "avg_rating") else have == want
            if not same:
                problems.append(f"{k}: {field} arbiter {have}, python-chess {want}")
    return problems


def run_tree(arbiter, args, path):
    command = [arbiter, "tree", "-q", "--json", "--max-positions", "10000000", *args, path]
    out = subprocess.run(command, capture_output=True, text=True)
    if out.returncode != 0:
        raise RuntimeError(f"{' '.join(command)}: exit {out.returncode}: {out.stderr}")
    return json.loads(out.stdout)


def valid_games(arbiter, path):
    """The games arbiter finds valid, by number (what `--valid` keeps: the
    verdict is oracle.py's to check, the tree is this script's)."""
    command = [arbiter, "games", "-q", "--format", "jsonl", path]
    out = subprocess.run(command, capture_output=True, text=True, check=True)
    return {r["index"] for r in map(json.loads, out.stdout.splitlines()) if r["valid"]}


def check(arbiter, path, games, label, corpus_depth):
    start = key(chess.Board())
    rng = random.Random(20261126)
    queries = []
    for depth in (1, 2, 4 if not corpus_depth else 3):
        queries.append(([f"--depth", str(depth)], start, [], depth, None))
    standard = [g for g in games if g.standard_start and len(g.sans) >= 4]
    for _ in range(6 if standard else 0):
        g = rng.choice(standard)
        ply = rng.randrange(2, min(len(g.keys), 13))
        queries.append((["--fen", g.keys[ply] + " 0 1", "--depth", "2"], g.keys[ply], [], 2, None))
        n = rng.randrange(1, min(len(g.sans), 6) + 1)
        board = chess.Board()
        for san in g.sans[:n]:
            board.push_san(san)
        queries.append((["--moves", " ".join(g.sans[:n]), "--depth", "2"], key(board), g.sans[:n], 2, None))
    both_2000 = lambda g: all(e is not None and e >= 2000 for e in g.elo)
    queries.append((["--elo", "2000..", "--depth", "2"], start, [], 2, both_2000))
    valid = valid_games(arbiter, path)
    queries.append((["--valid", "--depth", "3"], start, [], 3, lambda g: g.index in valid))
    failed = 0
    for args, root_key, root_sans, depth, keep in queries:
        got = run_tree(arbiter, args, path)
        nodes, edges = tally(games, root_key, root_sans, depth, keep or (lambda g: True))
        problems = compare(args, got, expected_rows(nodes, edges, root_key))
        if problems:
            failed += 1
            print(f"tree_oracle: {label}: {args}: {len(problems)} differences", file=sys.stderr)
            for p in problems[:10]:
                print(f"    {p}", file=sys.stderr)
    positions = sum(1 for _ in queries)
    print(f"tree_oracle: {label}: {positions - failed} trees agree, {failed} differ ({len(games)} games)")
    return failed


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--arbiter", required=True)
    parser.add_argument("--corpus", help="also the .pgn.zst files of this directory, if it exists")
    parser.add_argument("--max-games", type=int, default=3000, help="per corpus file")
    parser.add_argument("files", nargs="*")
    args = parser.parse_args()
    # python-chess logs each game it cannot replay; those are left out.
    logging.getLogger("chess.pgn").setLevel(logging.CRITICAL)
    failed = 0
    sets = [("fixtures", [(f, None) for f in args.files], False)]
    if args.corpus:
        if os.path.isdir(args.corpus):
            zst = sorted(os.path.join(args.corpus, f) for f in os.listdir(args.corpus) if f.endswith(".pgn.zst"))
            sets.append(("corpus", [(f, args.max_games) for f in zst], True))
        else:
            print(f"tree_oracle: corpus skipped: {args.corpus} not found", file=sys.stderr)
    for label, files, corpus in sets:
        if not files:
            continue
        exported = []
        games = []
        for path, most in files:
            for game in read_games(path, most):
                if usable(game):
                    exporter = chess.pgn.StringExporter(headers=True, variations=False, comments=False)
                    exported.append(game.accept(exporter))
                    games.append(Game(game))
        with tempfile.NamedTemporaryFile("w", suffix=".pgn", delete=False, encoding="utf-8") as f:
            f.write("\n\n".join(exported) + "\n")
            temp = f.name
        for number, game in enumerate(games, 1):
            game.index = number
        try:
            failed += check(args.arbiter, temp, games, label, corpus)
        finally:
            os.unlink(temp)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
