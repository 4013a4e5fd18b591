#!/usr/bin/env python3
"""Which games `arbiter filter` and pgn-extract select on equivalent
criteria, and why they differ.

    scripts/filter_vs_pgn_extract.py [--arbiter PATH] [--player NAME] [--elo N]
        [--line "e4 c5 Nf3 d6"]... [--material KRPvKR] [--queries LIST]
        [--strict] FILE.pgn...

pgn-extract (Debian package `pgn-extract`) is run on a copy of each FILE
(plain PGN) in which every game carries a tag `[ArbiterGame "N"]`, N its
number in arbiter's reading, so that the games it writes are named as
arbiter names them. The selections (--queries, all by default), arbiter's
and pgn-extract's:

  player     --player NAME       -t file: Player "NAME"
  elo        --elo N..           -t file: WhiteElo >= "N", BlackElo >= "N"
  line       --fen FEN           -x file: the line of moves, FEN the position
                                 it reaches as arbiter replays it
  fen        --fen FEN           -t file: FEN "FEN"
  material   --material KRPvKR   -z file: 0 rp r  (stability 0: one position)
  material2  --material KRPvKR   -z file: rp r    (the default stability, 2)

NAME is by default the first word of the most frequent name of the file
(among those in fewer than half its games); the lines, the open Sicilian
and 1. d4 d5. A run of pgn-extract without criteria gives the games it
reads at all (it drops a game with an error, without --keepbroken).

Prints, for each selection, both criteria, how many games each tool
selects and how many both, then the games selected by one tool only, by
why: each reason is a rule of one of the tools, found from arbiter's record
of the game, its movetext, further arbiter runs (the same placement of
pieces with another side to move, castling rights or en passant capture;
the plies the position is reached at; the final material) and the
material run for material2. A difference that fits none is "unexplained".
Exit status 0; with --strict, 1 when some difference is unexplained
(scripts/differential.sh runs it so on fixtures/bench and
fixtures/select/pgn-extract.pgn). Without pgn-extract it says so and exits 0.
"""

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unicodedata
from collections import Counter, defaultdict

# The open Sicilian, and 1. d4 d5, a placement also reached with the other
# side to move (1. d3 d5 2. d4).
LINES = ["e4 c5 Nf3 d6 d4 cxd4 Nxd4 Nf6 Nc3", "d4 d5"]
UNEXPLAINED = "unexplained"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--arbiter", default="target/release/arbiter")
    parser.add_argument("--pgn-extract", default="pgn-extract")
    parser.add_argument("--player", help="default: from the file")
    parser.add_argument("--elo", type=int, default=2500)
    parser.add_argument("--line", action="append",
                        help="SAN moves from the start (repeatable; default: "
                        + " and ".join(map(repr, LINES)) + ")")
    parser.add_argument("--material", default="KRPvKR")
    parser.add_argument("--queries", default="player,elo,line,fen,material,material2",
                        help="which selections to compare (comma-separated)")
    parser.add_argument("--strict", action="store_true",
                        help="exit 1 when a difference is unexplained")
    parser.add_argument("files", nargs="+")
    args = parser.parse_args()
    pgn_extract = shutil.which(args.pgn_extract)
    if (pgn_extract is None and args.pgn_extract == "pgn-extract"
            and os.path.exists("/usr/games/pgn-extract")):
        pgn_extract = "/usr/games/pgn-extract"
    if pgn_extract is None:
        print(f"filter_vs_pgn_extract: skipped: {args.pgn_extract} not found "
              "(apt-get install pgn-extract)")
        return 0
    unexplained = 0
    for path in args.files:
        unexplained += Comparison(args, pgn_extract, path).run()
    if unexplained:
        print(f"{unexplained} differences unexplained")
    return 1 if args.strict and unexplained else 0


class Comparison:
    def __init__(self, args, pgn_extract, path):
        self.args = args
        self.arbiter = args.arbiter
        self.pgn_extract = pgn_extract
        self.path = path

    def run(self):
        out = run([self.arbiter, "games", "-q", "--format", "jsonl", "--tags",
                   "WhiteElo,BlackElo", self.path])
        self.games = {}
        for line in out.splitlines():
            g = json.loads(line)
            self.games[g["index"]] = g
        with open(self.path, "rb") as f:
            self.lines = f.read().split(b"\n")
        player = self.args.player or self.frequent_name()
        sig = self.args.material
        elo = self.args.elo
        white, black = [side.upper().replace("K", "", 1).lower() for side in sig.split("v")]
        wanted = self.args.queries.split(",")
        queries = []
        if "player" in wanted:
            queries.append(("player", ["--player", player], "-t", f'Player "{player}"\n',
                            self.why_player, None))
        if "elo" in wanted:
            queries.append(("elo", ["--elo", f"{elo}.."], "-t",
                            f'WhiteElo >= "{elo}"\nBlackElo >= "{elo}"\n', self.why_elo, None))
        for line in self.args.line or LINES:
            fen = self.line_fen(line)
            if "line" in wanted:
                queries.append(("line", ["--fen", fen], "-x", line + "\n", self.why_position,
                                (fen, len(line.split()))))
            if "fen" in wanted:
                queries.append(("fen", ["--fen", fen], "-t", f'FEN "{fen}"\n', self.why_position,
                                (fen, len(line.split()))))
        if "material" in wanted or "material2" in wanted:
            # material2 explains some of its differences by material's selection.
            queries.append(("material", ["--material", sig], "-z", f"0 {white} {black}\n",
                            self.why_material, None))
        if "material2" in wanted:
            queries.append(("material2", ["--material", sig], "-z", f"{white} {black}\n",
                            self.why_material, None))
        self.sig = sig
        self.player = player
        self.elo = elo
        self.cache = {}
        unexplained = 0
        with tempfile.TemporaryDirectory() as tmp:
            self.tmp = tmp
            self.tagged = os.path.join(tmp, "tagged.pgn")
            starts = {g["line"]: g["index"] for g in self.games.values()}
            with open(self.tagged, "wb") as dst:
                for number, line in enumerate(self.lines, 1):
                    if number in starts:
                        dst.write(b'[ArbiterGame "%d"]\n' % starts[number])
                    dst.write(line)
                    if number < len(self.lines):
                        dst.write(b"\n")
            self.read = self.extract([], None)
            print(f"{self.path}: {len(self.games)} games; pgn-extract reads {len(self.read)} "
                  f"(drops {len(self.games) - len(self.read)})")
            for name, ours_args, option, criteria, why, position in queries:
                self.query = name
                if position:
                    self.fen, self.plies_of_line = position
                ours = self.select(ours_args)
                crit = os.path.join(tmp, f"{name}.txt")
                with open(crit, "w") as f:
                    f.write(criteria)
                theirs = self.extract(option, crit)
                if name == "material":
                    self.theirs_stable0 = theirs
                shown = criteria.strip().replace("\n", " + ")
                print(f"  {name}: arbiter filter {' '.join(map(quote, ours_args))} | "
                      f"pgn-extract {option} [{shown}]")
                print(f"    arbiter {len(ours)}, pgn-extract {len(theirs)}, "
                      f"both {len(ours & theirs)}")
                for side, only in [("pgn-extract only", theirs - ours),
                                   ("arbiter only", ours - theirs)]:
                    if not only:
                        continue
                    reasons = defaultdict(list)
                    for n in sorted(only):
                        reason, example = why(n, side == "arbiter only")
                        reasons[reason].append((n, example))
                    print(f"    {side}: {len(only)}")
                    for reason, games in sorted(reasons.items(), key=lambda r: -len(r[1])):
                        if reason.startswith(UNEXPLAINED):
                            unexplained += len(games)
                        numbers = ", ".join(str(n) for n, _ in games[:6])
                        more = ", ..." if len(games) > 6 else ""
                        examples = [e for _, e in games if e]
                        shown_examples = ""
                        if examples:
                            common = Counter(examples).most_common(3)
                            shown_examples = "; e.g. " + ", ".join(e for e, _ in common)
                        print(f"      {reason}: {len(games)} "
                              f"(games {numbers}{more}){shown_examples}")
        return unexplained

    # Running the tools.

    def select(self, predicates):
        key = tuple(predicates)
        if key not in self.cache:
            out = subprocess.run([self.arbiter, "filter", "-q", "--format", "jsonl", *predicates,
                                  self.path], capture_output=True, text=True)
            if out.returncode not in (0, 1):
                sys.exit(f"arbiter filter {' '.join(predicates)}: {out.stderr.strip()}")
            self.cache[key] = {json.loads(line)["index"] for line in out.stdout.splitlines()}
        return self.cache[key]

    def extract(self, option, criteria):
        out = os.path.join(self.tmp, "out.pgn")
        command = [self.pgn_extract, "-s", "--quiet", f"-o{out}"]
        if criteria:
            command.append(f"{option}{criteria}")
        subprocess.run(command + [self.tagged], check=True, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)
        with open(out, "rb") as f:
            return {int(n) for n in re.findall(rb'\[ArbiterGame "(\d+)"\]', f.read())}

    def line_fen(self, line):
        pgn = os.path.join(tempfile.gettempdir(), f"filter-vs-pgn-extract-{os.getpid()}.pgn")
        with open(pgn, "w") as f:
            f.write(f"{line} *\n")
        try:
            g = json.loads(run([self.arbiter, "games", "-q", "--format", "jsonl", pgn]))
        finally:
            os.unlink(pgn)
        if not g["valid"] or g["plies"] != len(line.split()):
            sys.exit(f"--line {line!r}: not a legal line of SAN moves from the start")
        return g["final_fen"]

    def frequent_name(self):
        counts = Counter()
        for g in self.games.values():
            for name in {g["white"], g["black"]}:
                if name and name != "?":
                    counts[name] += 1
        for name, count in counts.most_common():
            if count < len(self.games) / 2:
                return re.split(r"[ ,]", name.strip())[0] or name
        return "Carlsen"

    def movetext(self, n):
        g = self.games[n]
        later = self.games.get(n + 1)
        end = later["line"] - 1 if later else len(self.lines)
        return b"\n".join(self.lines[g["line"] - 1:end]).decode("utf-8", "replace")

    # Why a game is selected by one tool only.

    def dropped(self, n):
        """pgn-extract does not read the game at all: why."""
        g = self.games[n]
        if g["variant"] not in ("chess", "chess960"):
            return f"a {g['variant']} game (pgn-extract reads standard chess; drops it)"
        if not g["valid"]:
            return f"an error (arbiter: {g['error']['kind']}); pgn-extract drops the game"
        kinds = sorted({w["kind"] for w in g["warnings"]})
        return (f"{UNEXPLAINED}: pgn-extract drops a game arbiter reads "
                f"(warnings: {', '.join(kinds)})")

    def why_player(self, n, ours):
        g = self.games[n]
        if ours and n not in self.read:
            return self.dropped(n), None
        name = self.player
        names = [x for x in (g["white"], g["black"]) if x]
        if not ours:
            starting = [x for x in names if x.startswith(name)]
            if starting:
                return (f"another name that begins with {name!r} (pgn-extract compares the "
                        f"start of the value)", repr(starting[0]))
            return UNEXPLAINED, repr(" - ".join(names))
        for x in names:
            if x.lower().startswith(name.lower()) and not x.startswith(name):
                return "the name in another case (pgn-extract's match is case-sensitive)", repr(x)
        for x in names:
            if x.lstrip().startswith(name) and not x.startswith(name):
                return ("spaces before the name (pgn-extract compares the start of the "
                        "value)", repr(x))
        query = fold(name)
        for x in names:
            if set(query) <= set(fold(x)):
                return (f"the words of {name!r} in another order or among others (arbiter's "
                        f"name matching; pgn-extract compares the start of the value)", repr(x))
        for x in names:
            words = fold(x)
            if any(len(w) == 1 and any(q.startswith(w) for q in query if q not in words)
                   for w in words):
                return (f"an initial of the name taken for a word of {name!r} (arbiter's name "
                        f"matching: initials match the names they abbreviate)", repr(x))
        return UNEXPLAINED, repr(" - ".join(names))

    def why_elo(self, n, ours):
        g = self.games[n]
        if ours and n not in self.read:
            return self.dropped(n), None
        values = (g.get("tag_WhiteElo"), g.get("tag_BlackElo"))
        example = f"{values[0]!r}/{values[1]!r}"
        if not ours:
            if any(v is not None and not re.fullmatch(r"\s*\+?\d+\s*", v) for v in values):
                return ("a rating that is not a number, whose leading digits pgn-extract "
                        "reads", example)
            if any(v is not None and re.fullmatch(r"\s*\+?\d+\s*", v) and int(v) > 4000
                   for v in values):
                return "a rating over 4000 (arbiter reads it as no rating)", example
        return UNEXPLAINED, example

    def why_position(self, n, ours):
        g = self.games[n]
        if ours:
            if n not in self.read:
                return self.dropped(n), None
            if self.query == "line":
                limit = 2 * ((self.plies_of_line + 1) // 2 + 4)
                within = set()
                for ply in range(0, limit + 1):
                    within |= self.select(["--fen", self.fen, "--ply", str(ply)])
                    if n in within:
                        break
                if n not in within:
                    return (f"reached after ply {limit} only (pgn-extract looks for a -x line's "
                            f"position up to move (plies + 1) / 2 + 4)", None)
            return UNEXPLAINED, None
        placement = self.fen.split()[0]
        if n not in self.select(["--placement", placement]):
            if not g["valid"]:
                return (f"reached after arbiter's error ({g['error']['kind']}), where pgn-extract "
                        f"reads on", None)
            return UNEXPLAINED + ": not this placement in arbiter's replay", None
        side, castling = self.fen.split()[1:3]
        other = "b" if side == "w" else "w"
        rights = self.possible_castling(placement)
        castlings = ["".join(r for r in rights if r in subset) or "-"
                     for subset in subsets(rights)]
        same_side = [f"{placement} {side} {c} - 0 1" for c in castlings if c != castling]
        if same_side and n in self.select([a for f in same_side for a in ("--fen", f)]):
            return ("the same placement and side to move, other castling rights (pgn-extract "
                    "compares the board only)", None)
        other_side = [f"{placement} {other} {c} - 0 1" for c in castlings]
        if n in self.select([a for f in other_side for a in ("--fen", f)]):
            return ("the same placement, the other side to move (pgn-extract compares the "
                    "board only)", None)
        own_ep = self.fen.split()[3]
        ep = [sq for sq in ["-", *self.en_passant(placement, side)] if sq != own_ep]
        ep_fens = [f"{placement} {side} {castling} {sq} 0 1" for sq in ep]
        if ep and n in self.select([a for f in ep_fens for a in ("--fen", f)]):
            return ("the same placement, side to move and castling rights, not the same en "
                    "passant capture (pgn-extract compares the board only)", None)
        return UNEXPLAINED + ": the same placement", None

    def why_material(self, n, ours):
        g = self.games[n]
        if ours and n not in self.read:
            return self.dropped(n), None
        if ours and self.query == "material2" and n in self.theirs_stable0:
            return ("the material held in fewer than three positions in a row (the default "
                    "stability of 2 plies; `0 rp r` asks for one position)", None)
        moves = strip_comments(self.movetext(n))
        if re.search(r"(?<![A-Za-z])[a-h]x?[a-h]?[18]=?[QRBN]", moves):
            return ("a promotion in the game: pgn-extract adds the new piece to the other "
                    "side's material, and takes a pawn from it", None)
        if ours:
            final = self.select(["--final-material", self.sig])
            if n in final:
                return ("reached at the final position only (pgn-extract looks at the positions "
                        "before each move)", None)
            return UNEXPLAINED, None
        if not g["valid"]:
            return (f"reached after arbiter's error ({g['error']['kind']}), where pgn-extract "
                    f"reads on", None)
        return UNEXPLAINED, None

    @staticmethod
    def possible_castling(placement):
        rows = []
        for rank in placement.split("/"):
            row = ""
            for c in rank:
                row += "." * int(c) if c.isdigit() else c
            rows.append(row)
        rights = ""
        if rows[7][4] == "K":
            rights += "K" if rows[7][7] == "R" else ""
            rights += "Q" if rows[7][0] == "R" else ""
        if rows[0][4] == "k":
            rights += "k" if rows[0][7] == "r" else ""
            rights += "q" if rows[0][0] == "r" else ""
        return rights

    @staticmethod
    def en_passant(placement, side):
        """The squares behind a pawn that may just have made a double step."""
        rows = []
        for rank in placement.split("/"):
            row = ""
            for c in rank:
                row += "." * int(c) if c.isdigit() else c
            rows.append(row)
        # rows[0] is rank 8. White to move: a black pawn on rank 5 (rows[3]).
        pawn, rank, behind, start = ("p", 3, 2, 1) if side == "w" else ("P", 4, 5, 6)
        squares = []
        for file in range(8):
            if rows[rank][file] == pawn and rows[behind][file] == "." and rows[start][file] == ".":
                squares.append("abcdefgh"[file] + ("6" if side == "w" else "3"))
        return squares


def subsets(rights):
    for mask in range(1 << len(rights)):
        yield {r for i, r in enumerate(rights) if mask >> i & 1}


def fold(name):
    """A name's words as arbiter compares them: lower case, accents removed,
    split at anything that is not a letter or a digit."""
    plain = "".join(c for c in unicodedata.normalize("NFD", name) if not unicodedata.combining(c))
    return [w for w in re.split(r"[^0-9a-z]+", plain.lower()) if w]


def strip_comments(text):
    """The mainline's moves of a game's text, roughly: tags, comments and
    variations left out."""
    text = re.sub(r"\{[^}]*\}", " ", text)
    text = re.sub(r"^\[.*$", " ", text, flags=re.M)
    text = re.sub(r";.*$", " ", text, flags=re.M)
    while True:
        inner = re.sub(r"\([^()]*\)", " ", text)
        if inner == text:
            return text
        text = inner


def quote(word):
    return word if re.fullmatch(r"[\w.,/+-]+", word) else f'"{word}"'


def run(command):
    return subprocess.run(command, check=True, capture_output=True, text=True).stdout


if __name__ == "__main__":
    sys.exit(main())
