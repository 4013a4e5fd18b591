#!/usr/bin/env python3
"""Which games `arbiter dupes` and `pgn-extract -D` call duplicates, and why
they differ.

    scripts/dupes_vs_pgn_extract.py [--arbiter PATH] FILE.pgn

pgn-extract (Debian package `pgn-extract`, run as `pgn-extract -dDUPES`) keeps the first of each set of
games with the same moves and drops the rest: its duplicates are the
second and later copies. Both tools are run on FILE (plain PGN); each game
is named by its number in arbiter's reading (`arbiter games`), which is
written into a copy of FILE as a tag `[ArbiterGame "N"]` for pgn-extract to
carry along. arbiter's copies are counted the same way: in each group, the
games with the main game's moves (main, exact, same-moves) but the first,
and among the embedded games those with the same moves as an earlier one.
Embedded games themselves are arbiter's only: pgn-extract compares whole
move sequences. Prints the counts, then each game found by one tool only,
by why: no moves, not replayed, a variant, or a transposition (the
final position and length of an earlier game, reached by other moves:
pgn-extract's hash of the moves does not always tell them apart).
"""

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
from collections import defaultdict


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--arbiter", default="target/release/arbiter")
    parser.add_argument("--pgn-extract", default="pgn-extract")
    parser.add_argument("file")
    args = parser.parse_args()
    pgn_extract = args.pgn_extract
    if not shutil_which(pgn_extract) and os.path.exists("/usr/games/pgn-extract"):
        pgn_extract = "/usr/games/pgn-extract"

    games = [json.loads(line) for line in run([args.arbiter, "games", "-q", "--format",
                                               "jsonl", args.file]).splitlines()]
    starts = {g["line"]: g["index"] for g in games}
    with tempfile.TemporaryDirectory() as tmp:
        tagged = os.path.join(tmp, "tagged.pgn")
        with open(args.file, "rb") as src, open(tagged, "wb") as dst:
            for number, line in enumerate(src, 1):
                if number in starts:
                    dst.write(b'[ArbiterGame "%d"]\n' % starts[number])
                dst.write(line)
        dupes = os.path.join(tmp, "dupes.pgn")
        subprocess.run([pgn_extract, "-s", f"-d{dupes}", f"-o{os.devnull}", tagged],
                       check=True, stderr=subprocess.DEVNULL)
        with open(dupes, "rb") as f:
            theirs = {int(n) for n in re.findall(rb'\[ArbiterGame "(\d+)"\]', f.read())}

    ours = set()
    for line in run([args.arbiter, "dupes", "-q", "--format", "jsonl", args.file]).splitlines():
        members = json.loads(line)["games"]
        whole = [m["game"] for m in members if m["kind"] != "embedded"]
        ours.update(sorted(whole)[1:])
        embedded = defaultdict(list)
        for m in members:
            if m["kind"] == "embedded":
                embedded[m["plies"]].append(m["game"])
        for same in embedded.values():
            ours.update(sorted(same)[1:])

    by_index = {g["index"]: g for g in games}
    # The first game to reach each final position in each number of plies.
    first_at = {}
    for g in games:
        first_at.setdefault((g["final_fen"].rsplit(" ", 2)[0], g["plies"]), g["index"])
    print(f"{args.file}: {len(games)} games; pgn-extract {len(theirs)} duplicates, "
          f"arbiter {len(ours)}, both {len(theirs & ours)}")
    for name, only in [("pgn-extract only", theirs - ours), ("arbiter only", ours - theirs)]:
        why = defaultdict(list)
        for n in sorted(only):
            g = by_index[n]
            if g["plies"] == 0 and g["valid"]:
                reason = "no moves"
            elif not g["valid"]:
                reason = "not replayed to the end (an error)"
            elif g["variant"] not in ("chess", "chess960"):
                reason = f"a {g['variant']} game (pgn-extract reads standard chess only)"
            elif first_at[(g["final_fen"].rsplit(" ", 2)[0], g["plies"])] != n:
                reason = "the final position and length of an earlier game, other moves"
            else:
                reason = "other"
            why[reason].append(n)
        print(f"  {name}: {len(only)}")
        for reason, numbers in sorted(why.items()):
            sample = ", ".join(map(str, numbers[:8]))
            print(f"    {reason}: {len(numbers)} (games {sample}{', ...' if len(numbers) > 8 else ''})")


def run(command):
    return subprocess.run(command, check=True, capture_output=True, text=True).stdout


def shutil_which(name):
    from shutil import which
    return which(name)


if __name__ == "__main__":
    sys.exit(main())
