#!/usr/bin/env python3
"""`db find`'s latency at 1x, 4x and 16x the corpus (issue 23): the time
should grow with the number of files, not the number of games.

    python3 scripts/db_find_curve.py [--arbiter BIN] [--work DIR] [--rounds N]

Builds `db build --positions=40` of the two bench files once (into
WORK/x1, kept between runs), then makes WORK/x4 and WORK/x16: the same
files hard-linked under new shard names, the manifest listing each shard
N times (so N times the games and the positions files; the answers are N
times as many). Then times each query on each database, the databases
interleaved in each round, and prints the median and the range of
`--rounds` rounds (wall time, milliseconds), the median CPU time (user
and system, which the load of a shared machine distorts less) and the
answer's size.

Not run in CI: it needs the corpus (../shared/corpus) and about 400 MB of
disk for the database (the copies are links). Uses the release build.
"""

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT.parent / "shared" / "corpus"

# (name, FEN, extra arguments)
QUERIES = [
    # The Najdorf after 6 plies: 19,267 games of the corpus.
    ("najdorf --count", "rnbqkb1r/1p2pppp/p2p1n2/8/3NP3/2N5/PPP2PPP/R1BQKB1R w KQkq - 0 6",
     ["--count"]),
    ("najdorf --limit 20", "rnbqkb1r/1p2pppp/p2p1n2/8/3NP3/2N5/PPP2PPP/R1BQKB1R w KQkq - 0 6",
     ["--limit", "20", "--format", "jsonl"]),
    # The Poisoned Pawn after 9...Qa3 (ply 18).
    ("poisoned pawn (ply 18) --format jsonl",
     "rnb1kb1r/1p3ppp/p2ppn2/6B1/3NPP2/q1N5/P1PQ2PP/1R2KB1R w Kkq - 2 10",
     ["--format", "jsonl"]),
    # A Nimzo-Indian, Rubinstein, after 10...Qc7 (ply 20).
    ("nimzo (ply 20) --format jsonl",
     "r1b2rk1/ppq2ppp/2n1pn2/2p5/2BP4/P1P1PN2/5PPP/R1BQ1RK1 w - - 1 11", ["--format", "jsonl"]),
    # A position no game reached.
    ("absent --count", "8/8/8/4k3/8/8/4K3/8 w - - 0 1", ["--count"]),
]


def run(cmd, **kw):
    return subprocess.run(cmd, check=True, capture_output=True, **kw)


def build(arbiter, work):
    x1 = work / "x1"
    if not (x1 / "manifest.json").exists():
        inputs = [str(CORPUS / "bench-masters.pgn.zst"), str(CORPUS / "bench-lichess.pgn.zst")]
        start = time.perf_counter()
        run([arbiter, "db", "build", "-q", "--positions=40", "-o", str(x1), *inputs])
        print(f"built {x1} in {time.perf_counter() - start:.1f} s", file=sys.stderr)
    return x1


def copies(x1, work, n):
    """The 1x database n times over: links under new shard names."""
    out = work / f"x{n}"
    manifest = json.loads((x1 / "manifest.json").read_text())
    if (out / "manifest.json").exists():
        return out
    for sub in ["games", "stats", "positions"]:
        (out / sub).mkdir(parents=True, exist_ok=True)
    shards = []
    for copy in range(n):
        for shard in manifest["shards"]:
            number = len(shards) + 1

            def link(name, shard_number=number):
                sub, base = name.split("/")
                # part-000001.parquet, part-000001-003.parquet, part-000001.json
                rest = base[len("part-000001"):]
                new = f"{sub}/part-{shard_number:06d}{rest}"
                if not (out / new).exists():
                    os.link(x1 / name, out / new)
                return new

            shards.append({
                "games": link(shard["games"]),
                "stats": link(shard["stats"]),
                "rows": shard["rows"],
                "positions": [link(p) for p in shard.get("positions", [])],
            })
    manifest["shards"] = shards
    manifest["games"] = sum(s["rows"] for s in shards)
    (out / "manifest.json").write_text(json.dumps(manifest, indent=2))
    return out


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--arbiter", default=str(ROOT / "target" / "release" / "arbiter"))
    parser.add_argument("--work", default="/tmp/db-find-curve")
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    work = Path(args.work)
    work.mkdir(parents=True, exist_ok=True)
    x1 = build(args.arbiter, work)
    dbs = [(1, x1), (4, copies(x1, work, 4)), (16, copies(x1, work, 16))]
    times = {}
    cpus = {}
    sizes = {}
    for _ in range(args.rounds):
        for name, fen, extra in QUERIES:
            for n, db in dbs:
                cmd = [args.arbiter, "db", "find", str(db), "--fen", fen, *extra]
                before = resource.getrusage(resource.RUSAGE_CHILDREN)
                start = time.perf_counter()
                done = subprocess.run(cmd, capture_output=True)
                elapsed = (time.perf_counter() - start) * 1000
                after = resource.getrusage(resource.RUSAGE_CHILDREN)
                cpu = (after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime) * 1000
                if done.returncode not in (0, 1):
                    sys.exit(f"{cmd}: {done.stderr.decode()}")
                times.setdefault((name, n), []).append(elapsed)
                cpus.setdefault((name, n), []).append(cpu)
                out = done.stdout.decode()
                sizes[(name, n)] = out.strip() if "--count" in extra else len(out.splitlines())
    print(f"load average (1 minute) at the end: {os.getloadavg()[0]:.1f}")
    print("| query | corpus | games | files | answer | wall median ms | wall range ms "
          "| CPU median ms |")
    print("|---|--:|--:|--:|--:|--:|--:|--:|")
    for name, _, _ in QUERIES:
        for n, db in dbs:
            manifest = json.loads((db / "manifest.json").read_text())
            files = sum(1 + len(s.get("positions", [])) for s in manifest["shards"])
            t = times[(name, n)]
            print(f"| {name} | {n}x | {manifest['games']:,} | {files} | {sizes[(name, n)]} "
                  f"| {statistics.median(t):.0f} | {min(t):.0f}-{max(t):.0f} "
                  f"| {statistics.median(cpus[(name, n)]):.0f} |")


if __name__ == "__main__":
    main()
