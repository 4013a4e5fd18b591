#!/usr/bin/env python3
"""Differential test of `arbiter games --format jsonl` against python-chess.

Usage:
    python3 scripts/oracle.py [--arbiter PATH] [--max-games N] [--quiet]
                              [--jobs J] FILE...

FILE may be `.pgn` or `.pgn.zst`. For every file the script runs arbiter,
replays the same games with python-chess (an independent implementation of
the rules), pairs the games by their 1-based index in the file, compares
them field by field and prints every disagreement. It ends with the line

    oracle: N passed, M failed

and exits non-zero iff a game disagrees (M > 0), the game counts differ or
arbiter could not be run.

What is compared, per game (see src/record.rs for the schema): `line` (the
game split), `plies`, `valid`, `error_ply`, whether there is an `error`,
`termination`, `termination_ply`, `threefold_ply`, `fifty_ply`,
`moves_after_end`, `result_consistent` and `final_fen`. Error kinds are
compared only coarsely ("some error at this ply"); both kinds are printed in a
mismatch report.

How the python-chess side computes them
---------------------------------------
* The start position is built exactly as `chess.pgn.read_game` builds it
  (`Headers.variant()`, `FEN` tag, `Headers.is_chess960()`, and Chess960 when
  the castling rights need it). A FEN that python-chess cannot parse, or that
  gives a position for which `Board.status()` reports a flaw (see 6 below),
  is a `bad_fen` error at ply 0.
* Moves are parsed by `Board.parse_san` (through a `chess.pgn.BaseVisitor`
  subclass, so nothing is logged and the first error is captured with its
  ply). The first failing mainline move is the error; a null move (`--`,
  `Z0`, `0000`, `@@@@`, which python-chess accepts) is an error at its ply;
  a move after the first movetext result marker is a `move_after_result`
  error; a `(` variation still open when the game ends is
  `unterminated_variation` and a `{` comment still open where the game ends
  (see 1 below) is `unterminated_comment` (error ply = mainline plies before
  it + 1).
* After ply 0 and after every legally replayed ply: `Board.outcome()` gives
  the first automatic end (python-chess's order: variant loss/win/draw,
  checkmate, insufficient material, stalemate, seventy-five moves, fivefold);
  `Board.is_repetition(3)` gives `threefold_ply` and `Board.is_fifty_moves()`
  gives `fifty_ply`. Replaying goes on after an automatic end, so
  `moves_after_end` counts the later legal plies.
* `final_fen` is `Board.fen()` (legal en passant squares only).

Deliberate differences (and why)
--------------------------------
1. Game splitting and tags follow pgn-reader, not `chess.pgn.read_game`.
   arbiter reads PGN with pgn-reader, whose split differs from python-chess's
   in harmless ways (pgn-reader: movetext ends at a line starting with `[` or
   an empty line; whitespace-only lines and any number of blank lines between
   tags and movetext do not end a game; several tags may share a line; an
   unterminated tag value ends at the line end), and arbiter's two own
   rules for tag sections: `%` lines and `;` comments between tag pairs are
   ignored (pgn-reader ends the section at a `;`), and a blank line followed
   by a tag pair that gives a tag of the section again ends the game there
   (a game without moves; the pair starts the next game), where python-chess
   merges the two sections. This script therefore splits
   the file itself the way arbiter does, parses the tag pairs the way
   pgn-reader does (the first of duplicated tags wins, as arbiter documents),
   and hands python-chess each game re-serialised: one `[Name "value"]` line
   per tag, a blank line, the movetext without whitespace-only lines. Like
   arbiter, a `{` comment whose text (up to its `}` or the end of the file)
   contains an empty line followed by a line starting like a tag pair
   (`[Name "`) is taken as never closed: the game ends there with an
   `unterminated_comment` error and the tag pair starts the next game
   (pgn-reader alone would swallow the following games). The
   computed start line of every game is compared with arbiter's `line`, and a
   different number of games is reported as such (never silently
   mis-paired): the rule checking itself is still all python-chess.
2. Unparseable tokens (`foo`, `Nz9`, `e9`, ...): python-chess's tokenizer
   skips them silently, so when arbiter reports `unparseable_token` at ply k
   the oracle can only check the prefix: python-chess must have no error
   before ply k, and the game is then replayed by python-chess for k - 1 plies
   and compared field by field as if the error were at ply k.
3. The recorded result is the `Result` tag if it is `1-0`, `0-1`,
   `1/2-1/2` or `*`, else the last result marker of the mainline movetext
   (found by this script's own scan with comments and variations removed,
   because python-chess stops visiting tokens after an error).
4. Variants (`Variant` tag naming a chess.variant board other than standard
   or Chess960): only the first four FEN fields are compared, with
   Crazyhouse pockets (`[...]`) and promoted markers (`~`) removed, because
   python-chess and shakmaty write the variant FEN extensions (pockets,
   `+0+0` / `3+3` check counters) differently.
5. A `Variant` python-chess does not know cannot be replayed by it; for
   those games only arbiter's `variant` field is compared (it must be the
   tag's value) and the game is reported as passed.
6. Start positions: python-chess's `read_game` accepts any FEN it can parse;
   arbiter rejects positions shakmaty finds illegal. The oracle's `bad_fen`
   is "python-chess cannot parse it, or `Board.status()` reports a flaw"
   except for impossible castling rights and an impossible en passant square,
   which python-chess repairs silently when replaying (castling rights are
   cleaned, the en passant square is ignored) and arbiter repairs with a
   warning; `final_fen` then shows the repaired fields on both sides.
7. `--max-games N` is per file: both sides see the file's first N games
   (cut at the start of game N + 1 as split by rule 1).
8. Dead positions beyond insufficient material (Art. 5.2.2: `dead_position`,
   found by arbiter's own analysis, which python-chess does not have) are a
   documented extension: when arbiter ends a standard game there at ply k,
   python-chess must not have ended it at or before ply k, and the game is
   then compared as if python-chess had ended it at ply k too (termination,
   `moves_after_end` and `result_consistent` follow). The analysis itself is
   tested against labelled positions (scripts/unwinnability.sh).

Known disagreements that are NOT hidden (python-chess is more lenient than
the Laws; scripts/gen_games.py does not generate such positions):
* a start position with a double check that no legal move can give (two
  pawns, two knights, knight and pawn): `Board.status()` accepts it, arbiter
  (shakmaty: "impossible check") rejects it as `bad_fen`;
* an Atomic start position whose side not to move is in check: python-chess's
  AtomicBoard drops STATUS_OPPOSITE_CHECK, arbiter rejects it.
"""

from __future__ import annotations

import argparse
import codecs
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field, replace
from typing import Iterator, List, Optional, Tuple

import chess
import chess.pgn
import chess.variant

RESULTS = ("1-0", "0-1", "1/2-1/2", "*")
TAG_NAME_OK = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_+#=:-]*\Z")


# --------------------------------------------------------------------------
# Reading files (plain or zstd) as text blocks
# --------------------------------------------------------------------------

def _byte_blocks(path: str, size: int = 1 << 22) -> Iterator[bytes]:
    if path.endswith(".zst"):
        try:
            import zstandard  # type: ignore
        except ImportError:
            zstandard = None
        if zstandard is not None:
            with open(path, "rb") as fh:
                reader = zstandard.ZstdDecompressor().stream_reader(fh)
                while True:
                    block = reader.read(size)
                    if not block:
                        return
                    yield block
        else:
            proc = subprocess.Popen(["zstd", "-dc", "--", path],
                                    stdout=subprocess.PIPE)
            assert proc.stdout is not None
            try:
                while True:
                    block = proc.stdout.read(size)
                    if not block:
                        break
                    yield block
            finally:
                proc.stdout.close()
                if proc.poll() is None:
                    proc.terminate()
                proc.wait()
    else:
        with open(path, "rb") as fh:
            while True:
                block = fh.read(size)
                if not block:
                    return
                yield block


def text_blocks(path: str) -> Iterator[str]:
    dec = codecs.getincrementaldecoder("utf-8")(errors="replace")
    for block in _byte_blocks(path):
        yield dec.decode(block)
    tail = dec.decode(b"", final=True)
    if tail:
        yield tail


# --------------------------------------------------------------------------
# Splitting games the way pgn-reader 0.29 does
# --------------------------------------------------------------------------

@dataclass
class RawGame:
    index: int                 # 1-based index in the file
    line: int                  # 1-based start line
    tags: List[Tuple[str, str]]
    movetext: str
    unterminated_comment: bool = False
    text: str = ""             # the raw text of the whole game

    def tag(self, name: str) -> Optional[str]:
        for k, v in self.tags:
            if k == name:
                return v
        return None


class _NeedMore(Exception):
    pass


_MT_SPECIAL = re.compile(r"[{;\n]")
_SWALLOWED = re.compile(r'\n\r?\n(?P<tag>\[)[A-Za-z0-9_]+ +"')
_TAG_STOP = re.compile(r'["\n\]]')
_TAG_PAIR = re.compile(r'\[[A-Za-z0-9_]+ +"')
_VALUE_STOP = re.compile(r'[\\"\n]')


def _unescape(raw: str) -> str:
    if "\\" not in raw:
        return raw
    return re.sub(r'\\([\\"])', r"\1", raw)


class Splitter:
    """Incremental pgn-reader-compatible splitter over text blocks."""

    def __init__(self, blocks: Iterator[str]):
        self.blocks = blocks
        self.buf = ""
        self.eof = False
        self.base_line = 1      # line number of buf[0]
        self.count_pos = 0      # newlines counted in buf[:count_pos]
        self.count_line = 1     # line number at buf[count_pos]
        self.index = 0

    def _more(self, keep_from: int) -> None:
        # drop consumed prefix, then append the next block
        if keep_from > 0:
            if keep_from >= self.count_pos:
                self.count_line += self.buf.count("\n", self.count_pos,
                                                  keep_from)
                self.count_pos = 0
            else:
                self.count_pos -= keep_from  # (never happens: counts trail)
            self.buf = self.buf[keep_from:]
        try:
            self.buf += next(self.blocks)
        except StopIteration:
            self.eof = True

    def _line_at(self, pos: int) -> int:
        self.count_line += self.buf.count("\n", self.count_pos, pos)
        self.count_pos = pos
        return self.count_line

    # --- low-level helpers mirroring pgn-reader (raise _NeedMore) ---
    def _peek(self, pos: int) -> Optional[str]:
        if pos < len(self.buf):
            return self.buf[pos]
        if self.eof:
            return None
        raise _NeedMore

    def _find(self, s: str, pos: int) -> int:
        j = self.buf.find(s, pos)
        if j < 0 and not self.eof:
            raise _NeedMore
        return j

    def _skip_whitespace(self, pos: int, new_line: bool) -> int:
        while True:
            ch = self._peek(pos)
            if ch is None:
                return pos
            if ch in " \t\r":
                pos += 1
            elif ch == "\n":
                new_line = True
                pos += 1
            elif ch == "%" and new_line:
                j = self._find("\n", pos + 1)
                pos = len(self.buf) if j < 0 else j + 1
            else:
                return pos

    def _skip_ket(self, pos: int) -> Tuple[int, str]:
        while True:
            ch = self._peek(pos)
            if ch is None:
                return pos, "movetext"
            if ch in " \t\r":
                pos += 1
            elif ch == "]":
                return self._gap(pos + 1, False)
            elif ch == "\n":
                return self._gap(pos + 1, True)
            else:
                return pos, "movetext"

    def _opens_tag_pair(self, pos: int) -> bool:
        m = _TAG_PAIR.match(self.buf, pos)
        if m is None and not self.eof and self.buf.find("\n", pos) < 0:
            raise _NeedMore
        return m is not None

    def _gap(self, pos: int, new_line: bool) -> Tuple[int, str]:
        """What separates two tag pairs (arbiter's `GameSplitter::gap`):
        whitespace, `%` lines and `;` comments. Returns where what follows
        begins and what it is: "tag", "next" (a tag pair after a blank line)
        or "movetext" (from the first `;` after the last blank line)."""
        blank, comment = False, None
        while True:
            ch = self._peek(pos)
            if ch is None:
                break
            if ch in " \t\r":
                pos += 1
            elif ch == "\n":
                if new_line:
                    blank, comment = True, None
                new_line = True
                pos += 1
            elif ch == "%" and new_line:
                j = self._find("\n", pos + 1)
                pos = len(self.buf) if j < 0 else j + 1
            elif ch == ";":
                if comment is None:
                    comment = pos
                j = self._find("\n", pos)
                pos = len(self.buf) if j < 0 else j
                new_line = False
            elif ch == "[":
                if blank and self._opens_tag_pair(pos):
                    return pos, "next"
                return pos, "tag"
            else:
                break
        return (pos if comment is None else comment), "movetext"

    def _read_tags(self, pos: int, tags: List[Tuple[str, str]]
                   ) -> Tuple[int, bool]:
        """Reads a tag section; returns where its movetext begins and
        whether the game has none: its section ended at a blank line
        followed by a tag pair giving one of its tags again (a second
        Event), which starts the next game."""
        while self._peek(pos) == "[":
            pos += 1
            m = _TAG_STOP.search(self.buf, pos)
            if m is None:
                if not self.eof:
                    raise _NeedMore
                return len(self.buf), False  # unterminated tag at EOF
            if m.group() != '"':
                if m.group() == "\n":
                    pos, after = self._gap(m.end(), True)
                else:
                    pos, after = self._skip_ket(m.end())
                if not self._goes_on(pos, after, tags):
                    return pos, after == "next"
                continue
            left = m.start()
            name_end = left - 1 if left > pos and self.buf[left - 1] == " " \
                else left
            name = self.buf[pos:name_end]
            j = left + 1
            while True:
                v = _VALUE_STOP.search(self.buf, j)
                if v is None:
                    if not self.eof:
                        raise _NeedMore
                    return len(self.buf), False
                c = v.group()
                if c == '"':
                    value_end, consumed = v.start(), v.start() + 1
                    # A quote inside the value, unescaped: the value runs to
                    # the line's last quote when the line ends with `"]` and
                    # holds no other bracket (as arbiter and python-chess
                    # read `[Black "B"x"]`).
                    if self._peek(consumed) not in ("]", None) \
                            and "\n" not in self.buf[left + 1:value_end]:
                        line_end = self.buf.find("\n", consumed)
                        if line_end < 0:
                            if not self.eof:
                                raise _NeedMore
                            line_end = len(self.buf)
                        line = self.buf[consumed:line_end].rstrip(" \t\r\x0c")
                        inside = line[:-2]
                        if line.endswith('"]') and inside.strip(" \t\r\x0c") \
                                and "[" not in inside and "]" not in inside:
                            value_end = consumed + len(inside)
                            consumed = value_end + 1
                    break
                if c == "\n":
                    value_end, consumed = v.start(), v.start()
                    break
                j = min(v.start() + 2, len(self.buf))
            tags.append((name, _unescape(self.buf[left + 1:value_end])))
            pos, after = self._skip_ket(consumed)
            if not self._goes_on(pos, after, tags):
                return pos, after == "next"
        return pos, False

    def _goes_on(self, pos: int, after: str,
                 tags: List[Tuple[str, str]]) -> bool:
        if after != "next":
            return after == "tag"
        # Names compared as arbiter compares them (`trim_ascii_end`).
        ws = " \t\n\x0c\r"
        name = self.buf[pos + 1:self.buf.index('"', pos)].rstrip(ws)
        return name not in {n.rstrip(ws) for n, _ in tags}

    def _read_movetext(self, pos: int) -> Tuple[int, int, bool]:
        """Returns (end of movetext, position to continue, unterminated)."""
        buf = self.buf
        while True:
            m = _MT_SPECIAL.search(buf, pos)
            if m is None:
                if not self.eof:
                    raise _NeedMore
                return len(buf), len(buf), False
            k = m.start()
            ch = buf[k]
            if ch == "{":
                j = buf.find("}", k + 1)
                if j < 0 and not self.eof:
                    raise _NeedMore
                # arbiter's recovery (see docstring 1): a comment whose text
                # holds a blank line followed by a tag pair was never closed,
                # and that tag pair starts the next game
                sw = _SWALLOWED.search(buf, k + 1, len(buf) if j < 0 else j)
                if sw is not None:
                    return sw.start(), sw.start("tag"), True
                if j < 0:
                    return len(buf), len(buf), True
                pos = j + 1
            elif ch == ";":
                j = self._find("\n", k + 1)
                if j < 0:
                    return len(buf), len(buf), False
                pos = j
            else:  # "\n"
                nx = self._peek(k + 1)
                if nx is None:
                    return k + 1, k + 1, False
                if nx == "%":
                    j = self._find("\n", k + 2)
                    if j < 0:
                        return len(buf), len(buf), False
                    pos = j
                elif nx == "[" or nx == "\n":
                    return k, k + 1, False
                elif nx == "\r":
                    nn = self._peek(k + 2)
                    if nn == "\n":
                        return k, k + 2, False
                    if nn is None:
                        return len(buf), len(buf), False
                    pos = k + 2
                else:
                    pos = k + 1

    def games(self) -> Iterator[RawGame]:
        pos = 0
        while True:
            try:
                start = pos
                if self.buf.startswith("\ufeff", pos):
                    start += 1
                start = self._skip_whitespace(start, True)
                if self._peek(start) is None:
                    return
                tags: List[Tuple[str, str]] = []
                mt_start, tags_only = self._read_tags(start, tags)
                if tags_only:
                    mt_end, nxt, unterminated = mt_start, mt_start, False
                else:
                    mt_end, nxt, unterminated = self._read_movetext(mt_start)
            except _NeedMore:
                self._more(pos)
                pos = 0
                continue
            self.index += 1
            line = self._line_at(start)
            yield RawGame(self.index, line, tags, self.buf[mt_start:mt_end],
                          unterminated, self.buf[start:mt_end])
            pos = nxt


def split_games(path: str, max_games: Optional[int] = None
                ) -> List[RawGame]:
    out: List[RawGame] = []
    for g in Splitter(text_blocks(path)).games():
        if max_games is not None and len(out) >= max_games:
            break
        out.append(g)
    return out


# --------------------------------------------------------------------------
# The python-chess side
# --------------------------------------------------------------------------

_COMMENT_OR_LINE = re.compile(r"\{[^}]*\}?|;[^\n]*|\n%[^\n]*")
_RESULT_TOKEN = re.compile(
    r"(?<![\w/-])(1-0|0-1|1/2-1/2|\*|½-½)(?![\w/-])")


def movetext_result_marker(movetext: str) -> Optional[str]:
    """Last result marker of the mainline (comments/variations removed)."""
    text = _COMMENT_OR_LINE.sub(" ", "\n" + movetext)
    # drop variations (nested)
    out = []
    depth = 0
    for ch in text:
        if ch == "(":
            depth += 1
        elif ch == ")":
            if depth:
                depth -= 1
        elif depth == 0:
            out.append(ch)
    found = _RESULT_TOKEN.findall("".join(out))
    if not found:
        return None
    r = found[-1]
    return "1/2-1/2" if r == "½-½" else r


def python_chess_text(g: RawGame) -> str:
    """The game re-serialised for chess.pgn.read_game (see docstring 1)."""
    parts = []
    seen = set()
    for name, value in g.tags:
        if name in seen or not TAG_NAME_OK.match(name):
            continue
        seen.add(name)
        value = value.replace("\r", "").replace("\n", "")
        parts.append(f'[{name} "{value}"]\n')
    mt = g.movetext.replace("\r\n", "\n")
    # Whitespace-only lines do not end a game for pgn-reader but do for
    # python-chess: drop them. (Empty lines can only be inside comments
    # here, else pgn-reader would have ended the game; python-chess reads
    # comments across lines, so they stay.)
    body = "\n".join(ln for ln in mt.split("\n")
                     if ln == "" or not ln.isspace())
    return "".join(parts) + "\n" + body + "\n"


# Setup flaws python-chess's read_game() silently repairs (it cleans castling
# rights and ignores an unusable en passant square); arbiter does the same
# with a warning. See docstring 6.
LENIENT_STATUS = chess.STATUS_BAD_CASTLING_RIGHTS | chess.STATUS_INVALID_EP_SQUARE

TERMINATION_NAMES = {
    chess.Termination.CHECKMATE: "checkmate",
    chess.Termination.STALEMATE: "stalemate",
    chess.Termination.INSUFFICIENT_MATERIAL: "insufficient_material",
    chess.Termination.SEVENTYFIVE_MOVES: "seventyfive_moves",
    chess.Termination.FIVEFOLD_REPETITION: "fivefold_repetition",
    chess.Termination.VARIANT_WIN: "variant_win",
    chess.Termination.VARIANT_LOSS: "variant_win",
    chess.Termination.VARIANT_DRAW: "variant_draw",
}


class OracleVisitor(chess.pgn.BaseVisitor):
    """Replays the mainline, records the first error and per-ply facts."""

    def __init__(self, max_plies: Optional[int] = None):
        self.max_plies = max_plies
        self.board: Optional[chess.Board] = None
        self.plies = 0
        self.error_kind: Optional[str] = None
        self.error_ply: Optional[int] = None
        self.error_detail = ""
        self.stopped = False
        self.pending = False
        self.saw_result = False
        self.open_variations = 0
        self.variation_ply: Optional[int] = None
        self.unsupported_variant: Optional[str] = None
        self.termination: Optional[str] = None
        self.winner: Optional[bool] = None
        self.termination_ply: Optional[int] = None
        self.threefold_ply: Optional[int] = None
        self.fifty_ply: Optional[int] = None
        self.last_comment_ply: Optional[int] = None

    # --- errors ---
    def _error(self, kind: str, ply: int, detail: str = "") -> None:
        if self.error_kind is None:
            self.error_kind, self.error_ply = kind, ply
            self.error_detail = detail
        self.stopped = True

    def handle_error(self, error: Exception) -> None:
        msg = str(error)
        if self.board is None:
            if msg.startswith("unsupported variant"):
                self.unsupported_variant = msg
            else:
                self._error("bad_fen", 0, msg)
        # parse errors were recorded in parse_san already

    # --- position analysis ---
    def _analyse(self) -> None:
        b = self.board
        assert b is not None
        p = self.plies
        if self.termination is None:
            o = b.outcome()
            if o is not None:
                self.termination = TERMINATION_NAMES[o.termination]
                self.winner = o.winner
                self.termination_ply = p
        if self.threefold_ply is None and b.is_repetition(3):
            self.threefold_ply = p
        if self.fifty_ply is None and b.is_fifty_moves():
            self.fifty_ply = p

    def visit_board(self, board: chess.Board) -> None:
        if self.board is None:
            self.board = board
            status = board.status() & ~LENIENT_STATUS
            if status:
                self._error("bad_fen", 0,
                            f"invalid position ({chess.Status(status)!r})")
                return
            self._analyse()
        elif self.pending:
            self.pending = False
            self.plies += 1
            self._analyse()

    # --- movetext ---
    def begin_parse_san(self, board: chess.Board, san: str):
        if self.stopped:
            return chess.pgn.SKIP
        if self.saw_result:
            self._error("move_after_result", self.plies + 1, san)
            return chess.pgn.SKIP
        if self.max_plies is not None and self.plies >= self.max_plies:
            self.stopped = True
            return chess.pgn.SKIP
        return None

    def parse_san(self, board: chess.Board, san: str) -> chess.Move:
        ply = self.plies + 1
        try:
            move = board.parse_san(san)
        except chess.AmbiguousMoveError as e:
            self._error("ambiguous_move", ply, f"{san}: {e}")
            raise
        except chess.IllegalMoveError as e:
            kind = "illegal_move"
            if re.fullmatch(r"[a-h]x?[a-h]?[18][+#]?", san):
                kind = "missing_promotion"
            self._error(kind, ply, f"{san}: {e}")
            raise
        except chess.InvalidMoveError as e:
            self._error("unparseable_token", ply, f"{san}: {e}")
            raise
        if not move:
            self._error("null_move", ply, san)
            raise ValueError(f"null move {san!r}")
        return move

    def visit_move(self, board: chess.Board, move: chess.Move) -> None:
        self.pending = True

    def visit_result(self, result: str) -> None:
        if not self.stopped:
            self.saw_result = True

    def visit_comment(self, comment: str) -> None:
        if not self.stopped:
            self.last_comment_ply = self.plies

    def begin_variation(self):
        if not self.stopped:
            if self.open_variations == 0:
                self.variation_ply = self.plies
            self.open_variations += 1
        return chess.pgn.SKIP

    def end_variation(self) -> None:
        if not self.stopped and self.open_variations:
            self.open_variations -= 1

    def result(self) -> "OracleVisitor":
        return self


@dataclass
class PyRecord:
    plies: int
    valid: bool
    error_ply: Optional[int]
    error_kind: Optional[str]
    error_detail: str
    termination: Optional[str]
    termination_ply: Optional[int]
    threefold_ply: Optional[int]
    fifty_ply: Optional[int]
    moves_after_end: int
    result_consistent: bool
    final_fen: str
    is_variant: bool
    unsupported_variant: Optional[str]
    recorded_result: Optional[str]
    winner: Optional[bool] = None


def python_record(g: RawGame, max_plies: Optional[int] = None,
                  forced_error: Optional[Tuple[str, int]] = None) -> PyRecord:
    v = chess.pgn.read_game(io.StringIO(python_chess_text(g)),
                            Visitor=lambda: OracleVisitor(max_plies))
    if v is None:  # nothing at all: treat as an empty game
        v = OracleVisitor(max_plies)
    if v.error_kind is None and not v.stopped:
        if v.open_variations:
            v._error("unterminated_variation", (v.variation_ply or 0) + 1)
        elif g.unterminated_comment:
            ply = v.last_comment_ply if v.last_comment_ply is not None \
                else v.plies
            v._error("unterminated_comment", ply + 1)
    if forced_error is not None and v.error_kind is None:
        v.error_kind, v.error_ply = forced_error
    board = v.board
    is_variant = board is not None and type(board) is not chess.Board
    tag = g.tag("Result")
    recorded = tag if tag in RESULTS else movetext_result_marker(g.movetext)
    if v.termination is None:
        consistent = True
    elif v.termination in ("checkmate", "variant_win"):
        consistent = recorded == ("1-0" if v.winner else "0-1")
    else:
        consistent = recorded == "1/2-1/2"
    if v.error_kind == "bad_fen":
        final_fen = ""
        v.plies = 0
    else:
        final_fen = board.fen() if board is not None else ""
    return PyRecord(
        plies=v.plies,
        valid=v.error_kind is None,
        error_ply=v.error_ply,
        error_kind=v.error_kind,
        error_detail=v.error_detail,
        termination=v.termination if v.error_kind != "bad_fen" else None,
        termination_ply=v.termination_ply if v.error_kind != "bad_fen" else None,
        threefold_ply=v.threefold_ply if v.error_kind != "bad_fen" else None,
        fifty_ply=v.fifty_ply if v.error_kind != "bad_fen" else None,
        moves_after_end=(v.plies - v.termination_ply)
        if v.termination_ply is not None and v.error_kind != "bad_fen" else 0,
        result_consistent=consistent if v.error_kind != "bad_fen" else True,
        final_fen=final_fen,
        is_variant=is_variant,
        unsupported_variant=v.unsupported_variant,
        recorded_result=recorded,
        winner=v.winner,
    )


# --------------------------------------------------------------------------
# Comparison
# --------------------------------------------------------------------------

def _variant_fen_key(fen: str) -> str:
    parts = fen.split()
    if not parts:
        return fen
    board = re.sub(r"\[[^\]]*\]", "", parts[0]).replace("~", "")
    # shakmaty may write a crazyhouse pocket as a 9th rank
    ranks = board.split("/")
    if len(ranks) == 9:
        board = "/".join(ranks[:8])
    return " ".join([board] + parts[1:4])


def compare(a: dict, p: PyRecord, g: RawGame) -> List[Tuple[str, object, object]]:
    diffs: List[Tuple[str, object, object]] = []
    if a.get("line") != g.line:
        diffs.append(("line", a.get("line"), g.line))
    if p.unsupported_variant is not None:
        tag = g.tag("Variant")
        if a.get("variant") != tag:
            diffs.append(("variant", a.get("variant"), tag))
        return diffs
    a_err = a.get("error") or {}
    a_kind = a_err.get("kind")
    a_eply = a.get("error_ply")
    if (a_kind == "unparseable_token" and a_eply is not None
            and (p.error_ply is None or p.error_ply >= a_eply)):
        # docstring 2: compare the prefix only
        if p.error_ply != a_eply:
            p = python_record(g, max_plies=a_eply - 1,
                              forced_error=("unparseable_token", a_eply))
    end = a.get("termination_ply")
    if (a.get("termination") == "dead_position" and not p.is_variant
            and end is not None
            and (p.termination_ply is None or p.termination_ply > end)):
        # docstring 8: arbiter's extension of Art. 5.2.2
        p = replace(p, termination="dead_position", termination_ply=end,
                    moves_after_end=p.plies - end,
                    result_consistent=p.recorded_result == "1/2-1/2")
    fields = [
        ("plies", a.get("plies"), p.plies),
        ("valid", a.get("valid"), p.valid),
        ("error_ply", a_eply, p.error_ply),
        ("error", a_kind is not None, p.error_kind is not None),
        ("termination", a.get("termination"), p.termination),
        ("termination_ply", a.get("termination_ply"), p.termination_ply),
        ("threefold_ply", a.get("threefold_ply"), p.threefold_ply),
        ("fifty_ply", a.get("fifty_ply"), p.fifty_ply),
        ("moves_after_end", a.get("moves_after_end"), p.moves_after_end),
        ("result_consistent", a.get("result_consistent"),
         p.result_consistent),
    ]
    for name, av, pv in fields:
        if av != pv:
            if name == "error" and a_eply != p.error_ply:
                continue  # already reported as error_ply
            if name == "error_ply" or name == "error":
                av = f"{av} ({a_kind})"
                pv = f"{pv} ({p.error_kind}: {p.error_detail})"
            diffs.append((name, av, pv))
    afen = a.get("final_fen", "")
    if p.is_variant:
        if _variant_fen_key(afen) != _variant_fen_key(p.final_fen):
            diffs.append(("final_fen[:4]", afen, p.final_fen))
    elif afen != p.final_fen:
        diffs.append(("final_fen", afen, p.final_fen))
    return diffs


# --------------------------------------------------------------------------
# Running arbiter
# --------------------------------------------------------------------------

def find_arbiter(explicit: Optional[str]) -> str:
    if explicit:
        return explicit
    here = os.path.dirname(os.path.abspath(__file__))
    cand = os.path.join(here, "..", "target", "release", "arbiter")
    if os.path.exists(cand):
        return os.path.normpath(cand)
    found = shutil.which("arbiter")
    if found:
        return found
    sys.exit("oracle: arbiter binary not found (build it with "
             "`cargo build --release` or pass --arbiter PATH)")


_FEN_FLAG_CACHE: dict = {}


def arbiter_extra_args(arbiter: str) -> List[str]:
    """Flags asking arbiter for final FENs, if its `games` command has one."""
    if arbiter in _FEN_FLAG_CACHE:
        return _FEN_FLAG_CACHE[arbiter]
    extra: List[str] = []
    try:
        help_text = subprocess.run([arbiter, "games", "--help"],
                                   capture_output=True, text=True,
                                   timeout=30).stdout
    except (OSError, subprocess.SubprocessError):
        help_text = ""
    # Not `--fen`: that is the position predicate, and records always
    # carry the final FEN.
    for flag in ("--final-fen", "--fens", "--with-fen"):
        if re.search(re.escape(flag) + r"\b", help_text):
            extra.append(flag)
            break
    if re.search(r"--quiet\b", help_text):
        extra.append("--quiet")
    _FEN_FLAG_CACHE[arbiter] = extra
    return extra


def run_arbiter(arbiter: str, path: str, extra: List[str]) -> List[dict]:
    cmd = [arbiter, "games", "--format", "jsonl"] + extra + [path]
    proc = subprocess.run(cmd, capture_output=True)
    if proc.returncode < 0 or (proc.returncode != 0 and not proc.stdout):
        raise RuntimeError(
            f"`{' '.join(cmd)}` failed with status {proc.returncode}: "
            f"{proc.stderr.decode(errors='replace')[-2000:]}")
    out = []
    for ln in proc.stdout.decode("utf-8", errors="replace").splitlines():
        if ln.strip():
            out.append(json.loads(ln))
    return out


# --------------------------------------------------------------------------
# Driver
# --------------------------------------------------------------------------

def _py_worker(g: RawGame) -> PyRecord:
    return python_record(g)


def python_records(games: List[RawGame], jobs: int) -> List[PyRecord]:
    if jobs <= 1 or len(games) < 200:
        return [python_record(g) for g in games]
    import multiprocessing as mp
    ctx = mp.get_context("fork") if hasattr(os, "fork") else mp.get_context()
    with ctx.Pool(jobs) as pool:
        return pool.map(_py_worker, games, chunksize=64)


def describe(g: RawGame) -> str:
    first = g.text.lstrip().split("\n", 1)[0][:100]
    return (f"{g.tag('White') or '?'} - {g.tag('Black') or '?'}"
            f" | first line: {first}")


def main(argv: Optional[List[str]] = None) -> int:
    ap = argparse.ArgumentParser(
        description="Compare `arbiter games --format jsonl` with python-chess.")
    ap.add_argument("files", nargs="+", metavar="FILE")
    ap.add_argument("--arbiter", help="path of the arbiter binary "
                    "(default: target/release/arbiter, else PATH)")
    ap.add_argument("--max-games", type=int, default=None,
                    help="compare only the first N games of each file")
    ap.add_argument("--quiet", action="store_true",
                    help="print only mismatches and the closing line")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1,
                    help="python-chess worker processes (default: all CPUs)")
    ap.add_argument("--max-report", type=int, default=200,
                    help="print at most this many mismatching games")
    ap.add_argument("--arbiter-arg", action="append", default=[],
                    help="extra argument for `arbiter games` (repeatable)")
    args = ap.parse_args(argv)

    arbiter = find_arbiter(args.arbiter)
    extra = arbiter_extra_args(arbiter) + args.arbiter_arg
    passed = failed = 0
    count_problem = False
    reported = 0
    tmpdir = tempfile.mkdtemp(prefix="oracle-")
    try:
        for path in args.files:
            games = split_games(path, args.max_games)
            run_path = path
            if args.max_games is not None:
                # give arbiter exactly the same games
                run_path = os.path.join(tmpdir, "head.pgn")
                with open(run_path, "w", encoding="utf-8") as fh:
                    fh.write(_head_text(path, games))
            try:
                arecs = run_arbiter(arbiter, run_path, extra)
            except (RuntimeError, ValueError) as e:
                print(f"oracle: {path}: {e}")
                count_problem = True
                failed += len(games)
                continue
            precs = python_records(games, args.jobs)
            if len(arecs) != len(games):
                count_problem = True
                print(f"GAME COUNT {path}: arbiter {len(arecs)} games, "
                      f"pgn-reader-style split {len(games)} games")
                for i in range(min(len(arecs), len(games))):
                    if arecs[i].get("line") != games[i].line:
                        print(f"  first divergence at game {i + 1}: arbiter "
                              f"line {arecs[i].get('line')}, split line "
                              f"{games[i].line}: {describe(games[i])}")
                        break
            for i in range(min(len(arecs), len(games))):
                g, a, p = games[i], arecs[i], precs[i]
                diffs = compare(a, p, g)
                if diffs:
                    failed += 1
                    if reported < args.max_report:
                        reported += 1
                        print(f"MISMATCH {path} game {g.index} (line "
                              f"{g.line}): {describe(g)}")
                        for name, av, pv in diffs:
                            print(f"    {name}: arbiter={av!r} "
                                  f"python-chess={pv!r}")
                else:
                    passed += 1
            extra_games = abs(len(arecs) - len(games))
            failed += extra_games
            if not args.quiet:
                print(f"oracle: {path}: {len(games)} games compared")
    finally:
        shutil.rmtree(tmpdir, ignore_errors=True)
    if reported < failed and reported >= args.max_report:
        print(f"(only the first {args.max_report} mismatching games shown)")
    print(f"oracle: {passed} passed, {failed} failed")
    return 1 if failed or count_problem else 0


def _head_text(path: str, games: List[RawGame]) -> str:
    """The file's text before the start line of game len(games) + 1."""
    if not games:
        return ""
    stop_line = None
    for g in Splitter(text_blocks(path)).games():
        if g.index > len(games):
            stop_line = g.line
            break
    out: List[str] = []
    line = 1
    for block in text_blocks(path):
        if stop_line is None:
            out.append(block)
            continue
        pos = 0
        while line < stop_line:
            nl = block.find("\n", pos)
            if nl < 0:
                break
            line += 1
            pos = nl + 1
        if line >= stop_line:
            out.append(block[:pos])
            break
        out.append(block)
    return "".join(out)


if __name__ == "__main__":
    sys.exit(main())
