#!/usr/bin/env python3
"""`filter PREDICATES -o MATCHED --rejects REJECTED FILE`: the two outputs
hold every game of FILE exactly once, byte for byte, each in input order.

    python3 scripts/filter_partition.py --arbiter target/release/arbiter FILE [-- PREDICATES...]

FILE is cut into its games where `arbiter games` says each begins (the
first `[` of its line; the first game also has what comes before it), then
each game, in order, must be the next bytes of MATCHED or of REJECTED, and
both must be used up. The count of matched games must be what `filter
--count` prints. Several predicate sets may be given, separated by `--`.
Exits 1 on any difference, saying where.
"""

import argparse
import json
import mmap
import os
import subprocess
import sys
import tempfile


def game_starts(arbiter, path):
    """Byte offsets where the games of `path` begin (the first is 0)."""
    lines = []
    with subprocess.Popen([arbiter, "games", "-q", "--format", "jsonl", path],
                          stdout=subprocess.PIPE) as proc:
        for record in proc.stdout:
            lines.append(json.loads(record)["line"])
    with open(path, "rb") as f, mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as data:
        starts, line, offset = [], 1, 0
        for target in lines:
            while line < target:
                offset = data.find(b"\n", offset) + 1
                line += 1
            first = offset
            while first < len(data) and data[first] in b" \t\r\f\v":
                first += 1
            starts.append(first)
        if starts:
            starts[0] = 0
        return starts, len(data)


def check(arbiter, path, predicates, starts, size):
    with tempfile.TemporaryDirectory() as tmp:
        matched, rejected = os.path.join(tmp, "m.pgn"), os.path.join(tmp, "r.pgn")
        run = subprocess.run([arbiter, "filter", "-q", *predicates, "-o", matched,
                              "--rejects", rejected, path])
        if run.returncode not in (0, 1):
            return f"exit status {run.returncode}"
        count = subprocess.run([arbiter, "filter", "-q", "--count", *predicates, path],
                               capture_output=True, text=True).stdout.strip()
        with open(path, "rb") as f, open(matched, "rb") as m, open(rejected, "rb") as r:
            data = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
            outs = [m.read(), r.read()]
            at, taken = [0, 0], [0, 0]
            bounds = starts + [size]
            for k in range(len(starts)):
                text = data[bounds[k]:bounds[k + 1]]
                side = next((s for s in (0, 1) if outs[s].startswith(text, at[s])), None)
                if side is None:
                    return f"game {k + 1} (byte {bounds[k]}) is in neither output at its place"
                at[side] += len(text)
                taken[side] += 1
            if at != [len(outs[0]), len(outs[1])]:
                return f"bytes left over: matched {len(outs[0]) - at[0]}, rejected {len(outs[1]) - at[1]}"
            if count != str(taken[0]):
                return f"--count says {count}, the output holds {taken[0]}"
            print(f"filter_partition: {os.path.basename(path)} {' '.join(predicates)}: "
                  f"{taken[0]} matched + {taken[1]} rejected = {len(starts)} games, byte for byte")
            return None


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--arbiter", default="target/release/arbiter")
    parser.add_argument("file")
    parser.add_argument("predicates", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    sets, current = [], []
    for word in args.predicates:
        if word == "--":
            if current:
                sets.append(current)
            current = []
        else:
            current.append(word)
    if current:
        sets.append(current)
    starts, size = game_starts(args.arbiter, args.file)
    failed = False
    for predicates in sets or [["--invalid"]]:
        problem = check(args.arbiter, args.file, predicates, starts, size)
        if problem:
            print(f"filter_partition: {args.file} {' '.join(predicates)}: {problem}", file=sys.stderr)
            failed = True
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
