#!/usr/bin/env python3
"""Deterministic random PGN games for the differential test (oracle.py).

Usage:
    python3 scripts/gen_games.py --seed S --games N --out FILE.pgn
                                 [--corrupt-out FILE2.pgn] [--jobs J]
                                 [--no-verify]

Every game is legal (python-chess makes the moves and writes the SAN, with
`+`/`#` suffixes), and game i depends only on (S, i), so the output does not
depend on --jobs. The games are biased towards what the FIDE Laws care about:

* `repetition` – knights/kings/rooks shuffled back and forth until the
  position occurred 2..6 times (threefold, fivefold, going on after it);
* `ep_pin` – a double pawn step whose en passant capture is illegal (pinned
  pawn, rank or diagonal pin) or legal, followed by shuffling: the position
  after the double step must count for repetition only when the en passant
  capture is legal;
* `endgame` – few pieces from a FEN tag with a high halfmove clock and
  mostly quiet moves (50- and 75-move rules), mating when possible;
* `promotion` – pawns on the seventh rank, including underpromotion;
* `mate` / `stalemate` – play that takes a mating (stalemating) move when
  one exists;
* `insufficient` – capture-happy endgames that run into insufficient
  material, sometimes going on afterwards;
* `terminal_start` – a FEN that is already checkmate, stalemate, dead,
  past 100 or 150 halfmoves;
* `minor_ending` – kings with minor pieces or a pawn (dead positions by
  material, or not);
* `chess960` – `[Variant "Chess960"]` (or `chess960`, `Fischerandom`) with
  960 castling, X-FEN or Shredder-FEN castling rights in the FEN tag, and
  sometimes no Variant tag at all (Chess960 only when the castling rights
  need it);
* `castling` – castling whenever possible (some games tagged
  `[Variant "Standard"]` or `"From Position"`);
* `random` – ordinary random games (castling, en passant, promotions);
* `variant` – lichess variants (Atomic, Antichess, King of the Hill,
  Three-check, Racing Kings, Horde, Crazyhouse), some from a FEN tag in
  python-chess's variant FEN (pockets, check counters).

Start positions from random placement must satisfy python-chess's
`is_valid()` and have at most one checker (python-chess accepts impossible
double checks, which arbiter rightly rejects).

Games carry comments, NAGs and variations now and then. The `Result` tag is
the automatic result when there is one, else a plausible result; about 8 % of
games get a deliberately inconsistent result, and a few a result marker that
differs from the tag, no `Result` tag or a non-standard one (`1/2`, `?`).

`--corrupt-out` writes one corrupted copy of every game (kind in its
`[Corruption "..."]` tag): an illegal move, a deleted move, a garbage token
(`foo`, `Nz9`, `e9`, ...), a null move (`--`, `Z0`), a missing promotion
piece, an ambiguous move, a move after the result marker, an unterminated
variation, broken tags, a bad FEN, accepted non-standard notation (`0-0`,
`e2e4`, `e2-e4`, `Ng1f3`, `e8Q`, missing or extra `+`), a piece move with
a wrong capture `x`, and the last game truncated (possibly inside a
comment). Null moves include `0000` and `@@@@`, which python-chess reads as
null moves.

Unless --no-verify is given, the written files are read back with the
oracle's python-chess side: every uncorrupted game must replay legally, and a
summary of the distribution is printed to stderr.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Tuple

import chess
import chess.variant

NAMES = ["Carlsen, M.", "Nakamura, H.", "Caruana, F.", "Ding, L.",
         "Firouzja, A.", "Nepomniachtchi, I.", "So, W.", "Giri, A.",
         "Polgar, J.", "Hou, Y.", "Kasparov, G.", "Anand, V.", "Tal, M.",
         "Müller, K.", "Åberg, S.", "O'Kelly, A.", "Random Mover"]

PROMO_WEIGHTS = [(chess.QUEEN, 50), (chess.KNIGHT, 20), (chess.ROOK, 15),
                 (chess.BISHOP, 15)]

VARIANTS = [
    (chess.variant.AtomicBoard, "Atomic"),
    (chess.variant.AntichessBoard, "Antichess"),
    (chess.variant.KingOfTheHillBoard, "King of the Hill"),
    (chess.variant.ThreeCheckBoard, "Three-check"),
    (chess.variant.RacingKingsBoard, "Racing Kings"),
    (chess.variant.HordeBoard, "Horde"),
    (chess.variant.CrazyhouseBoard, "Crazyhouse"),
]

SCENARIOS = [  # (name, weight)
    ("random", 16), ("repetition", 14), ("ep_pin", 7), ("endgame", 15),
    ("promotion", 8), ("mate", 8), ("stalemate", 5), ("insufficient", 6),
    ("terminal_start", 3), ("chess960", 10), ("variant", 7),
    ("castling", 3), ("minor_ending", 4),
]


@dataclass
class Style:
    mate: float = 0.0        # probability to look for a mating move
    stalemate: float = 0.0   # probability to look for a stalemating move
    capture: float = 0.3
    castle: float = 0.6
    ep: float = 0.8
    promo: float = 0.9
    quiet: float = 0.0       # prefer moves that keep the halfmove clock
    push: float = 0.1        # prefer pawn moves


@dataclass
class GenGame:
    scenario: str
    board0: chess.Board              # start position
    moves: List[chess.Move] = field(default_factory=list)
    sans: List[str] = field(default_factory=list)
    fen_tag: Optional[str] = None
    variant_tag: Optional[str] = None
    headers: Dict[str, str] = field(default_factory=dict)
    result_tag: Optional[str] = "*"
    marker: str = "*"
    # ply index (0-based) -> annotations placed after that move
    comments: Dict[int, str] = field(default_factory=dict)
    nags: Dict[int, str] = field(default_factory=dict)
    variations: Dict[int, List[str]] = field(default_factory=dict)
    lead_comment: Optional[str] = None
    termination: Optional[chess.Outcome] = None
    term_ply: Optional[int] = None


# --------------------------------------------------------------------------
# Move choice
# --------------------------------------------------------------------------

def _pick_promo(rng: random.Random, moves: List[chess.Move]) -> chess.Move:
    total = sum(w for _, w in PROMO_WEIGHTS)
    r = rng.uniform(0, total)
    want = chess.QUEEN
    for piece, w in PROMO_WEIGHTS:
        r -= w
        if r <= 0:
            want = piece
            break
    same = [m for m in moves if m.promotion == want]
    return rng.choice(same or moves)


def choose_move(board: chess.Board, rng: random.Random,
                st: Style) -> Optional[chess.Move]:
    legal = list(board.legal_moves)
    if not legal:
        return None
    if st.mate and rng.random() < st.mate:
        for m in legal:
            board.push(m)
            mate = board.is_checkmate()
            board.pop()
            if mate:
                return m
    if st.stalemate and rng.random() < st.stalemate:
        for m in legal:
            board.push(m)
            stale = board.is_stalemate()
            board.pop()
            if stale:
                return m
    promos = [m for m in legal if m.promotion]
    if promos and rng.random() < st.promo:
        return _pick_promo(rng, promos)
    if st.ep:
        eps = [m for m in legal if board.is_en_passant(m)]
        if eps and rng.random() < st.ep:
            return rng.choice(eps)
    if st.castle:
        castles = [m for m in legal if board.is_castling(m)]
        if castles and rng.random() < st.castle:
            return rng.choice(castles)
    if st.capture and rng.random() < st.capture:
        caps = [m for m in legal if board.is_capture(m)]
        if caps:
            m = rng.choice(caps)
            return _pick_promo(rng, [x for x in caps if x.from_square ==
                                     m.from_square and x.to_square ==
                                     m.to_square]) if m.promotion else m
    if st.quiet and rng.random() < st.quiet:
        quiet = [m for m in legal if not board.is_zeroing(m)]
        if quiet:
            return rng.choice(quiet)
    if st.push and rng.random() < st.push:
        pawns = [m for m in legal
                 if board.piece_type_at(m.from_square) == chess.PAWN]
        if pawns:
            m = rng.choice(pawns)
            if m.promotion:
                return _pick_promo(rng, [x for x in pawns if x.to_square ==
                                         m.to_square and x.from_square ==
                                         m.from_square])
            return m
    m = rng.choice(legal)
    if m.promotion:
        return _pick_promo(rng, [x for x in legal if x.to_square ==
                                 m.to_square and x.from_square ==
                                 m.from_square])
    return m


def push(g: GenGame, board: chess.Board, m: chess.Move) -> None:
    g.sans.append(board.san(m))
    g.moves.append(m)
    board.push(m)
    if g.termination is None:
        o = board.outcome()
        if o is not None:
            g.termination = o
            g.term_ply = len(g.moves)


def play(g: GenGame, board: chess.Board, rng: random.Random, st: Style,
         plies: int, after_end: int = 0) -> None:
    """Play up to `plies` plies, stopping at an automatic end, then up to
    `after_end` more plies if the game can go on."""
    for _ in range(plies):
        if g.termination is not None:
            break
        m = choose_move(board, rng, st)
        if m is None:
            break
        push(g, board, m)
    if g.termination is not None:
        for _ in range(after_end):
            m = choose_move(board, rng, st)
            if m is None:
                break
            push(g, board, m)


def shuffle(g: GenGame, board: chess.Board, rng: random.Random,
            cycles: int) -> bool:
    """Play `cycles` times the same 4-ply cycle (two pieces going there and
    back). Returns False if no cycle could be found."""
    for _attempt in range(30):
        cand_a = [m for m in board.legal_moves
                  if not board.is_zeroing(m) and not board.is_castling(m)
                  and not m.promotion]
        if not cand_a:
            return False
        a = rng.choice(cand_a)
        b1 = board.copy(stack=False)
        b1.push(a)
        if b1.is_game_over():
            continue
        cand_b = [m for m in b1.legal_moves
                  if not b1.is_zeroing(m) and not b1.is_castling(m)
                  and not m.promotion]
        if not cand_b:
            continue
        b = rng.choice(cand_b)
        b1.push(b)
        ra = chess.Move(a.to_square, a.from_square)
        if not b1.is_legal(ra):
            continue
        b1.push(ra)
        rb = chess.Move(b.to_square, b.from_square)
        if not b1.is_legal(rb):
            continue
        cycle = [a, b, ra, rb]
        for _ in range(cycles):
            for m in cycle:
                if g.termination is not None and \
                        g.termination.termination != \
                        chess.Termination.FIVEFOLD_REPETITION:
                    return True
                if not board.is_legal(m):
                    return True
                push(g, board, m)
        return True
    return False


# --------------------------------------------------------------------------
# Start positions
# --------------------------------------------------------------------------

def plausible(b: chess.Board) -> bool:
    """python-chess's is_valid(), and at most one checker: python-chess
    accepts e.g. a double check by two pawns, which no legal game can
    reach (shakmaty rejects it as an impossible check)."""
    return b.is_valid() and len(b.checkers()) <= 1


def random_position(rng: random.Random, white: List[int], black: List[int],
                    halfmove: int, fullmove: int,
                    turn: Optional[bool] = None) -> chess.Board:
    for _ in range(500):
        b = chess.Board(None)
        squares = list(chess.SQUARES)
        rng.shuffle(squares)
        b.set_piece_at(squares.pop(), chess.Piece(chess.KING, chess.WHITE))
        b.set_piece_at(squares.pop(), chess.Piece(chess.KING, chess.BLACK))
        ok = True
        for color, pieces in ((chess.WHITE, white), (chess.BLACK, black)):
            for pt in pieces:
                while squares:
                    sq = squares.pop()
                    if pt == chess.PAWN and chess.square_rank(sq) in (0, 7):
                        squares.insert(0, sq)
                        continue
                    b.set_piece_at(sq, chess.Piece(pt, color))
                    break
                else:
                    ok = False
        b.turn = rng.random() < 0.5 if turn is None else turn
        b.halfmove_clock = halfmove
        b.fullmove_number = fullmove
        if ok and plausible(b):
            return b
    return chess.Board()


def ep_position(rng: random.Random) -> Tuple[chess.Board, chess.Move]:
    """A position and a double pawn step creating an en passant square;
    the capture is legal or not (pinned capturer)."""
    templates = [
        # rank pin: bxc6 e.p. would expose Ka5 to Rh5
        ("6nk/2p5/8/KP5r/8/8/8/6N1 b - - 0 1", "c7c5"),
        # diagonal pin: exd6 e.p. leaves the c3-g7 diagonal
        ("kn6/3p2b1/8/4P3/8/2K5/8/6N1 b - - 0 1", "d7d5"),
        # legal en passant
        ("6nk/2p5/8/1P6/8/8/8/K5N1 b - - 0 1", "c7c5"),
        # two capturers on the same rank as king and rook: both legal
        ("6nk/3p4/8/K1P1P2r/8/8/8/6N1 b - - 0 1", "d7d5"),
        # the double step discovers a check along the 7th rank: exd6 e.p.
        # does not answer it, so the e.p. square is there but unusable
        ("1k6/r2p3K/8/4P3/8/8/8/6N1 b - - 0 1", "d7d5"),
        # plain standard opening with an en passant chance
        ("rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 3",
         "c2c4"),
    ]
    fen, uci = rng.choice(templates)
    b = chess.Board(fen)
    m = chess.Move.from_uci(uci)
    if rng.random() < 0.5:
        b = b.mirror()
        m = chess.Move(chess.square_mirror(m.from_square),
                       chess.square_mirror(m.to_square))
    if not b.is_valid() or not b.is_legal(m):
        b = chess.Board("6nk/2p5/8/KP5r/8/8/8/6N1 b - - 0 1")
        m = chess.Move.from_uci("c7c5")
    return b, m


def terminal_position(rng: random.Random) -> chess.Board:
    fens = [
        "7k/6Q1/6K1/8/8/8/8/8 b - - 0 60",         # checkmate
        "k7/2Q5/1K6/8/8/8/8/8 b - - 3 70",          # stalemate
        "8/8/4k3/8/8/3KB3/8/8 w - - 0 80",          # K+B v K
        "8/8/4k3/8/2n5/3K4/8/8 b - - 12 90",        # K v K+N
        "8/2k5/8/8/8/3K4/1R6/8 w - - 150 140",      # 75 moves
        "8/2k5/8/8/8/3K4/1R6/8 b - - 100 120",      # 50 moves
        "8/2k5/8/8/8/3K4/1R6/8 w - - 149 140",      # 75 after 1 ply
        "8/2k5/8/8/8/3K4/1R6/8 w - - 99 120",       # 50 after 1 ply
        "6k1/5Q2/6K1/8/8/8/8/8 b - - 149 100",      # mate-able at 150
        "2b5/8/4k3/8/8/3KB3/8/8 w - - 0 80",        # opposite bishops
        "8/8/3bk3/8/8/3KB3/8/8 w - - 0 80",         # same-colour bishops
    ]
    return chess.Board(rng.choice(fens))


# --------------------------------------------------------------------------
# Scenarios
# --------------------------------------------------------------------------

def make_game(seed: int, i: int) -> GenGame:
    rng = random.Random(f"{seed}:{i}")
    total = sum(w for _, w in SCENARIOS)
    r = rng.uniform(0, total)
    scenario = SCENARIOS[-1][0]
    for name, w in SCENARIOS:
        r -= w
        if r <= 0:
            scenario = name
            break
    g = globals()["gen_" + scenario](rng)
    finish(g, rng)
    g.headers = headers(g, rng, i)
    annotate(g, rng)
    return g


def new_game(scenario: str, board: chess.Board, fen_tag: bool = True
             ) -> Tuple[GenGame, chess.Board]:
    g = GenGame(scenario, board.copy(stack=False))
    if fen_tag:
        g.fen_tag = board.fen()
    g.termination = board.outcome()
    if g.termination is not None:
        g.term_ply = 0
    return g, board.copy(stack=False)


def gen_random(rng: random.Random) -> GenGame:
    g, b = new_game("random", chess.Board(), fen_tag=False)
    st = Style(mate=0.3, capture=rng.choice([0.2, 0.4, 0.7]), castle=0.6,
               ep=0.8, push=0.15)
    play(g, b, rng, st, rng.randint(10, 350),
         after_end=rng.choice([0, 0, 0, 2, 5]))
    return g


def gen_castling(rng: random.Random) -> GenGame:
    g, b = new_game("castling", chess.Board(), fen_tag=False)
    if rng.random() < 0.3:
        g.variant_tag = rng.choice(["Standard", "From Position"])
    st = Style(castle=1.0, capture=0.1, mate=0.2)
    # develop the pieces between king and rooks first
    play(g, b, rng, Style(castle=1.0, capture=0.05, push=0.3),
         rng.randint(6, 20))
    play(g, b, rng, st, rng.randint(10, 60))
    return g


def gen_repetition(rng: random.Random) -> GenGame:
    if rng.random() < 0.7:
        g, b = new_game("repetition", chess.Board(), fen_tag=False)
        play(g, b, rng, Style(capture=0.2, castle=0.5),
             rng.randint(0, 30))
    else:
        pieces = rng.choice([[chess.ROOK], [chess.KNIGHT, chess.PAWN],
                             [chess.QUEEN], [chess.BISHOP, chess.PAWN]])
        g, b = new_game("repetition",
                        random_position(rng, pieces, [chess.ROOK],
                                        rng.randint(0, 60),
                                        rng.randint(20, 60)))
    if g.termination is None:
        cycles = rng.choice([1, 2, 2, 3, 4, 4, 5])
        shuffle(g, b, rng, cycles)
        if rng.random() < 0.4:
            # a second, different shuffle, or going on after a fivefold
            if g.termination is None:
                shuffle(g, b, rng, rng.choice([2, 4]))
            else:
                play(g, b, rng, Style(quiet=0.8), 0,
                     after_end=rng.randint(1, 6))
    if g.termination is None and rng.random() < 0.3:
        play(g, b, rng, Style(mate=0.5, capture=0.3), rng.randint(1, 20))
    return g


def gen_ep_pin(rng: random.Random) -> GenGame:
    b0, m = ep_position(rng)
    if rng.random() < 0.35:
        # start right after the double step, the FEN tag naming the en
        # passant square whether or not the capture is legal
        b0.push(m)
        b0 = b0.copy(stack=False)
        g, b = new_game("ep_pin", b0)
        g.fen_tag = b0.fen(en_passant="fen")
    else:
        g, b = new_game("ep_pin", b0)
        push(g, b, m)
    cycles = rng.choice([1, 2, 2, 3, 4])
    shuffle(g, b, rng, cycles)
    return g


def gen_endgame(rng: random.Random) -> GenGame:
    white = rng.choice([[chess.QUEEN], [chess.ROOK], [chess.ROOK,
                        chess.BISHOP], [chess.KNIGHT, chess.BISHOP],
                        [chess.BISHOP, chess.BISHOP], [chess.ROOK,
                        chess.PAWN], [chess.QUEEN, chess.PAWN]])
    black = rng.choice([[], [], [chess.KNIGHT], [chess.BISHOP],
                        [chess.ROOK], [chess.PAWN]])
    if rng.random() < 0.5:
        white, black = black or [chess.KNIGHT], white
    clock = rng.choice([0, 40, 70, 90, 95, 99, 100, 110, 130, 140, 145,
                        149])
    b0 = random_position(rng, white, black, clock, rng.randint(30, 150))
    g, b = new_game("endgame", b0)
    st = Style(mate=0.8, stalemate=0.05, quiet=rng.choice([0.8, 0.95, 1.0]),
               capture=0.0, promo=0.9, push=0.0)
    play(g, b, rng, st, rng.randint(20, 220),
         after_end=rng.choice([0, 0, 3]))
    return g


def gen_promotion(rng: random.Random) -> GenGame:
    b0 = random_position(rng, [chess.PAWN, chess.PAWN, chess.KNIGHT],
                         [chess.PAWN, chess.PAWN, chess.ROOK],
                         rng.randint(0, 20), rng.randint(30, 60))
    # move the pawns close to promotion
    for sq, piece in list(b0.piece_map().items()):
        if piece.piece_type == chess.PAWN:
            b0.remove_piece_at(sq)
            rank = 6 if piece.color == chess.WHITE else 1
            for f in rng.sample(range(8), 8):
                s = chess.square(f, rank)
                if b0.piece_at(s) is None:
                    b0.set_piece_at(s, piece)
                    break
    if not plausible(b0):
        b0 = chess.Board("r3k3/1P4P1/8/8/8/8/1p4p1/R3K3 w - - 0 40")
    g, b = new_game("promotion", b0)
    st = Style(mate=0.5, promo=0.95, push=0.6, capture=0.3)
    play(g, b, rng, st, rng.randint(4, 60))
    return g


def gen_mate(rng: random.Random) -> GenGame:
    if rng.random() < 0.5:
        g, b = new_game("mate", chess.Board(), fen_tag=False)
        st = Style(mate=1.0, capture=0.5, push=0.2, castle=0.3)
        play(g, b, rng, st, rng.randint(20, 300))
    else:
        b0 = random_position(rng, rng.choice([[chess.QUEEN], [chess.ROOK],
                                              [chess.ROOK, chess.ROOK]]),
                             rng.choice([[], [chess.PAWN]]),
                             rng.randint(0, 60), rng.randint(30, 80))
        g, b = new_game("mate", b0)
        play(g, b, rng, Style(mate=1.0, capture=0.3), rng.randint(10, 120))
    return g


def gen_stalemate(rng: random.Random) -> GenGame:
    b0 = random_position(rng, rng.choice([[chess.QUEEN], [chess.ROOK],
                                          [chess.PAWN], [chess.QUEEN,
                                                         chess.BISHOP]]),
                         [], rng.randint(0, 80), rng.randint(30, 80))
    g, b = new_game("stalemate", b0)
    play(g, b, rng, Style(stalemate=1.0, mate=0.3, capture=0.2),
         rng.randint(10, 150))
    return g


def gen_insufficient(rng: random.Random) -> GenGame:
    b0 = random_position(rng, rng.choice([[chess.BISHOP, chess.PAWN],
                                          [chess.KNIGHT, chess.KNIGHT],
                                          [chess.BISHOP, chess.KNIGHT]]),
                         rng.choice([[chess.ROOK], [chess.BISHOP],
                                     [chess.KNIGHT, chess.PAWN]]),
                         rng.randint(0, 30), rng.randint(30, 80))
    g, b = new_game("insufficient", b0)
    play(g, b, rng, Style(capture=0.9, mate=0.2), rng.randint(10, 120),
         after_end=rng.choice([0, 1, 4, 8]))
    return g


def gen_minor_ending(rng: random.Random) -> GenGame:
    minors = [[], [chess.KNIGHT], [chess.BISHOP], [chess.BISHOP,
              chess.BISHOP], [chess.KNIGHT, chess.KNIGHT], [chess.PAWN]]
    b0 = random_position(rng, rng.choice(minors[1:]), rng.choice(minors),
                         rng.randint(0, 140), rng.randint(30, 90))
    g, b = new_game("minor_ending", b0)
    play(g, b, rng, Style(quiet=0.9, mate=1.0, capture=0.1),
         rng.randint(2, 60), after_end=rng.choice([0, 2, 6]))
    return g


def gen_terminal_start(rng: random.Random) -> GenGame:
    g, b = new_game("terminal_start", terminal_position(rng))
    play(g, b, rng, Style(mate=0.5, quiet=0.9), rng.randint(0, 6),
         after_end=rng.choice([0, 2]))
    return g


def gen_chess960(rng: random.Random) -> GenGame:
    n = 518 if rng.random() < 0.1 else rng.randrange(960)
    b0 = chess.Board.from_chess960_pos(n)
    g, b = new_game("chess960", b0, fen_tag=n != 518 or rng.random() < 0.5)
    if g.fen_tag is not None and rng.random() < 0.3:
        g.fen_tag = b0.fen(shredder=True)
    g.variant_tag = rng.choice(["Chess960"] * 8 + ["chess960",
                                                   "Fischerandom"])
    if g.fen_tag is not None and rng.random() < 0.15:
        # no Variant tag: Chess960 only if the castling rights need it
        g.variant_tag = None
        b = chess.Board(g.fen_tag)
        b.chess960 = b.has_chess960_castling_rights()
        g.board0 = b.copy(stack=False)
    play(g, b, rng, Style(castle=0.3, capture=0.2, push=0.2), rng.randint(
        6, 20))
    play(g, b, rng, Style(castle=1.0, capture=0.3, mate=0.3, ep=0.8),
         rng.randint(10, 200))
    return g


def gen_variant(rng: random.Random) -> GenGame:
    cls, name = rng.choice(VARIANTS)
    b0 = cls()
    fen_tag = False
    if rng.random() < 0.3:
        # start from a FEN tag (python-chess's variant FEN: crazyhouse
        # pockets, three-check counters) after a few random plies
        for _ in range(rng.randint(2, 16)):
            legal = list(b0.legal_moves)
            if not legal or b0.is_variant_end():
                break
            b0.push(rng.choice(legal))
        b0 = b0.copy(stack=False)
        fen_tag = b0.outcome() is None
        if not fen_tag:
            b0 = cls()
    g, b = new_game("variant", b0, fen_tag=fen_tag)
    g.variant_tag = name
    play(g, b, rng, Style(capture=0.5, mate=0.2, castle=0.3),
         rng.randint(10, 200))
    return g


# --------------------------------------------------------------------------
# Results, headers, annotations
# --------------------------------------------------------------------------

def automatic_result(o: chess.Outcome) -> str:
    if o.winner is None:
        return "1/2-1/2"
    return "1-0" if o.winner else "0-1"


def finish(g: GenGame, rng: random.Random) -> None:
    if g.termination is not None:
        res = automatic_result(g.termination)
        if rng.random() < 0.08:
            res = rng.choice([r for r in ("1-0", "0-1", "1/2-1/2", "*")
                              if r != res])
    else:
        res = rng.choice(["1-0", "0-1", "1/2-1/2", "*", "1-0", "0-1"])
    g.result_tag = res
    g.marker = res
    x = rng.random()
    if x < 0.03:
        g.marker = rng.choice([r for r in ("1-0", "0-1", "1/2-1/2", "*")
                               if r != res])
    elif x < 0.06:
        g.result_tag = None
    elif x < 0.08:
        g.result_tag = rng.choice(["1/2", "0.5-0.5", "?", "1-0 (forfeit)",
                                   ""])


def headers(g: GenGame, rng: random.Random, i: int) -> Dict[str, str]:
    white, black = rng.sample(NAMES, 2)
    h = {
        "Event": f"Generated {g.scenario}",
        "Site": "arbiter differential test",
        "Date": f"{rng.randint(1990, 2025)}.{rng.randint(1, 12):02d}."
                f"{rng.randint(1, 28):02d}",
        "Round": str(i + 1),
        "White": white,
        "Black": black,
    }
    if g.result_tag is not None:
        h["Result"] = g.result_tag
    if g.variant_tag is not None:
        h["Variant"] = g.variant_tag
    if g.fen_tag is not None:
        h["SetUp"] = "1"
        h["FEN"] = g.fen_tag
    h["Scenario"] = g.scenario
    return h


COMMENTS = ["good move", "[%clk 0:03:00]", "a comment (with parentheses)",
            "only move; really", "White resigns?", "1-0 would be premature",
            "multi\nline comment", "odd chars: $5 ! ? *"]


def annotate(g: GenGame, rng: random.Random) -> None:
    n = len(g.moves)
    if n == 0:
        return
    if rng.random() < 0.05:
        g.lead_comment = rng.choice(COMMENTS)
    board = g.board0.copy(stack=False)
    for ply, m in enumerate(g.moves):
        r = rng.random()
        if r < 0.03:
            g.comments[ply] = rng.choice(COMMENTS)
        elif r < 0.05:
            g.nags[ply] = rng.choice(["$1", "$2", "!", "?", "!!", "?!",
                                      "$14"])
        elif r < 0.065:
            alt = [x for x in board.legal_moves if x != m]
            if alt:
                vb = board.copy(stack=False)
                line = []
                for _ in range(rng.randint(1, 3)):
                    legal = list(vb.legal_moves) if line else alt
                    if not legal:
                        break
                    mv = rng.choice(legal)
                    line.append(vb.san(mv))
                    vb.push(mv)
                g.variations[ply] = line
        board.push(m)


# --------------------------------------------------------------------------
# Writing PGN
# --------------------------------------------------------------------------

def _numbered(tokens_out: List[str], sans: List[str], start_black: bool,
              fullmove: int, force_first: bool = True) -> None:
    for k, san in enumerate(sans):
        black = (k + start_black) % 2 == 1
        num = fullmove + (k + start_black) // 2
        if not black:
            tokens_out.append(f"{num}.")
        elif k == 0 and force_first:
            tokens_out.append(f"{num}...")
        tokens_out.append(san)


def movetext_tokens(g: GenGame, sans: Optional[List[str]] = None
                    ) -> List[str]:
    """Tokens of the movetext (no result). `sans` may be a corrupted list;
    then annotations are left out."""
    start_black = g.board0.turn == chess.BLACK
    fullmove = g.board0.fullmove_number
    out: List[str] = []
    if sans is not None:
        _numbered(out, sans, start_black, fullmove)
        return out
    if g.lead_comment:
        out.append("{" + g.lead_comment + "}")
    need_number = True
    for k, san in enumerate(g.sans):
        black = (k + start_black) % 2 == 1
        num = fullmove + (k + start_black) // 2
        if not black:
            out.append(f"{num}.")
        elif need_number:
            out.append(f"{num}...")
        out.append(san)
        need_number = False
        if k in g.nags:
            out.append(g.nags[k])
        if k in g.comments:
            out.append("{" + g.comments[k] + "}")
            need_number = True
        if k in g.variations:
            var: List[str] = []
            _numbered(var, g.variations[k], black, num)
            out.append("(" + " ".join(var) + ")")
            need_number = True
    return out


def wrap(tokens: List[str], width: int = 79) -> str:
    lines: List[str] = []
    cur = ""
    for t in tokens:
        if cur and len(cur) + 1 + len(t) > width:
            lines.append(cur)
            cur = t
        else:
            cur = f"{cur} {t}" if cur else t
    if cur:
        lines.append(cur)
    return "\n".join(lines)


def tag_lines(h: Dict[str, str]) -> str:
    out = []
    for k, v in h.items():
        v = v.replace("\\", "\\\\").replace('"', '\\"')
        out.append(f'[{k} "{v}"]')
    return "\n".join(out)


def game_text(g: GenGame) -> str:
    toks = movetext_tokens(g) + [g.marker]
    return tag_lines(g.headers) + "\n\n" + wrap(toks) + "\n"


# --------------------------------------------------------------------------
# Corruption
# --------------------------------------------------------------------------

CORRUPTIONS = ["illegal", "delete", "garbage", "null", "missing_promotion",
               "ambiguous", "after_result", "unterminated_variation",
               "broken_tags", "bad_fen", "nonstandard", "capture_marker"]


def boards_along(g: GenGame) -> List[chess.Board]:
    """Board before each ply (copies), len == len(moves) + 1."""
    b = g.board0.copy(stack=False)
    out = [b.copy(stack=False)]
    for m in g.moves:
        b.push(m)
        out.append(b.copy(stack=False))
    return out


def illegal_san(board: chess.Board, rng: random.Random) -> str:
    for _ in range(200):
        piece = rng.choice("NBRQK")
        sq = chess.square_name(rng.randrange(64))
        san = piece + sq
        try:
            board.parse_san(san)
        except chess.IllegalMoveError:
            return san
        except ValueError:
            continue
    return "Ke4" if board.king(board.turn) != chess.E4 else "Kd4"


def ambiguous_option(boards: List[chess.Board], g: GenGame,
                     rng: random.Random) -> Optional[Tuple[int, str]]:
    # a played move with a disambiguator: drop it
    cands = []
    for k, san in enumerate(g.sans):
        core = san.rstrip("+#")
        if core[0] in "NBRQ" and "@" not in core and \
                len(core.replace("x", "")) >= 4:
            cands.append(k)
    if cands:
        k = rng.choice(cands)
        san = g.sans[k]
        suffix = san[len(san.rstrip("+#")):]
        core = san.rstrip("+#")
        dest = core[-2:]
        short = core[0] + ("x" if "x" in core else "") + dest + suffix
        try:
            boards[k].parse_san(short)
        except chess.AmbiguousMoveError:
            return k, short
        except ValueError:
            pass
    # else: any position where some legal move needs a disambiguator
    for k in rng.sample(range(len(g.moves)), min(len(g.moves), 40)):
        b = boards[k]
        for m in b.legal_moves:
            san = b.san(m).rstrip("+#")
            if san[0] in "NBRQ" and "@" not in san and \
                    len(san.replace("x", "")) >= 4:
                short = san[0] + ("x" if "x" in san else "") + san[-2:]
                try:
                    b.parse_san(short)
                except chess.AmbiguousMoveError:
                    return k, short
                except ValueError:
                    pass
    return None


def nonstandard(board: chess.Board, m: chess.Move, san: str,
                rng: random.Random) -> str:
    opts = []
    uci = m.uci()
    if board.is_castling(m) and not board.chess960:
        opts.append(san.replace("O", "0"))
    if not board.chess960 or not board.is_castling(m):
        opts.append(uci)                                    # e2e4
        opts.append(uci[:2] + "-" + uci[2:])                # e2-e4
    p = board.piece_at(m.from_square)
    if p and p.piece_type != chess.PAWN and not board.is_castling(m):
        opts.append(p.symbol().upper() + uci[:4])           # Ng1f3
    if m.promotion:
        opts.append(san.replace("=", ""))                   # e8Q
    core = san.rstrip("+#")
    if san.endswith(("+", "#")):
        opts.append(core)                                   # missing +
    elif core[0] in "NBRQK" and len(core) >= 3:
        opts.append(san + "+")                              # wrong +
    return rng.choice(opts) if opts else san


def corrupt(g: GenGame, rng: random.Random, last: bool
            ) -> Tuple[str, str]:
    """Returns (kind, pgn text) of a corrupted copy."""
    n = len(g.sans)
    h = dict(g.headers)
    sans = list(g.sans)
    marker = g.marker
    kind = rng.choice(CORRUPTIONS)
    if n < 2 and kind not in ("broken_tags", "bad_fen"):
        kind = rng.choice(["broken_tags", "bad_fen", "garbage"])
    boards = boards_along(g)
    extra_after: Optional[str] = None
    tail_override: Optional[str] = None
    if kind == "illegal":
        k = rng.randrange(n)
        sans[k] = illegal_san(boards[k], rng)
        kind += f"@{k + 1}"
    elif kind == "delete":
        k = rng.randrange(n - 1)
        del sans[k]
        kind += f"@{k + 1}"
    elif kind == "garbage":
        k = rng.randrange(n + 1)
        sans.insert(k, rng.choice(["foo", "Nz9", "e9", "Qj4", "xyz",
                                   "Ke0"]))
        kind += f"@{k + 1}"
    elif kind == "null":
        k = rng.randrange(n)
        tok = rng.choice(["--", "--", "Z0", "0000", "@@@@"])
        if rng.random() < 0.5:
            sans[k] = tok
        else:
            sans.insert(k, tok)
        kind += f"@{k + 1}"
    elif kind == "missing_promotion":
        ks = [k for k, s in enumerate(sans) if "=" in s]
        if ks:
            k = rng.choice(ks)
            s = sans[k]
            sans[k] = s[:s.index("=")] + s[s.index("=") + 2:]
            kind += f"@{k + 1}"
        else:
            k = rng.randrange(n)
            sans[k] = illegal_san(boards[k], rng)
            kind = f"illegal@{k + 1}"
    elif kind == "ambiguous":
        opt = ambiguous_option(boards, g, rng)
        if opt:
            k, short = opt
            sans[k] = short
            kind += f"@{k + 1}"
        else:
            k = rng.randrange(n)
            sans[k] = illegal_san(boards[k], rng)
            kind = f"illegal@{k + 1}"
    elif kind == "after_result":
        k = rng.randrange(1, n)
        sans.insert(k, marker)
        kind += f"@{k + 1}"
    elif kind == "unterminated_variation":
        k = rng.randrange(1, n)
        b = boards[k]
        alt = [m for m in b.legal_moves]
        sans.insert(k, "( " + b.san(rng.choice(alt)))
        kind += f"@{k + 1}"
    elif kind == "nonstandard":
        ks = rng.sample(range(n), min(n, 3))
        for k in ks:
            sans[k] = nonstandard(boards[k], g.moves[k], sans[k], rng)
        kind += "@" + ",".join(str(k + 1) for k in sorted(ks))
    elif kind == "capture_marker":
        # a piece move with a wrong `x`: python-chess ignores the marker
        ks = [k for k, s in enumerate(sans) if s[0] in "NBRQK"
              and "@" not in s]
        if ks:
            k = rng.choice(ks)
            s = sans[k]
            d = len(s.rstrip("+#")) - 2      # where the target square starts
            sans[k] = s.replace("x", "") if "x" in s else \
                s[:d] + "x" + s[d:]
            kind += f"@{k + 1}"
        else:
            k = rng.randrange(n)
            sans[k] = illegal_san(boards[k], rng)
            kind = f"illegal@{k + 1}"
    elif kind == "bad_fen":
        h["SetUp"] = "1"
        unparsable = [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1",  # 7 ranks
            "4k3/8/8/8/8/8/8/4K2Z w - - 0 1",                # bad piece
        ]
        illegal = [
            "8/8/8/8/8/8/8/8 w - - 0 1",                     # no kings
            "4k3/8/8/8/8/8/8/P3K3 w - - 0 1",                # pawn on rank 1
            "4k3/8/8/8/8/8/4Q3/4K3 w - - 0 1",               # opposite check
            "kk6/8/8/8/8/8/8/4K3 w - - 0 1",                 # two kings
        ]
        # what is illegal differs between variants (python-chess accepts an
        # opposite check in atomic, no kings in antichess, ...): variant
        # games only get FENs that cannot be parsed at all
        h["FEN"] = rng.choice(unparsable + (illegal if g.variant_tag is None
                                            or "960" in g.variant_tag
                                            or "andom" in g.variant_tag
                                            else []))
        # movetext of the original (may not fit, but the FEN is bad anyway)
    elif kind == "broken_tags":
        style = rng.randrange(5)
        if style == 0:
            h["White"] = h["White"] + '\x00UNTERMINATED'
        elif style == 1:
            h["Black"] = h["Black"] + '\x00NOBRACKET'
        elif style == 2:
            h["Date"] = "\x00NOQUOTES"
        elif style == 3:
            h["Round"] = "\x00DUPLICATE"
        else:
            h["Site"] = "\x00EMPTYNAME"
        kind += f"#{style}"
    h["Corruption"] = kind
    toks = movetext_tokens(g, sans)
    body = wrap(toks + [marker])
    tags = tag_lines(h)
    tags = (tags
            .replace('\x00UNTERMINATED"]', " (unterminated")
            .replace('\x00NOBRACKET"]', '"')
            .replace('"\x00NOQUOTES"', "2020.01.01")
            .replace('\x00DUPLICATE"]', '"]\n[Round "99"]')
            .replace('[Site "\x00EMPTYNAME"]', '[ "x"]\n[Site]'))
    text = tags + "\n\n" + body + "\n"
    if last:
        # truncate the last game somewhere in its movetext, possibly inside
        # an unclosed comment
        mt_start = len(tags) + 2
        cut = rng.randrange(mt_start, len(text))
        text = text[:cut]
        if rng.random() < 0.4:
            text = text.rstrip() + " { a comment that never ends\n"
        kind += "+truncated"
        text = text.replace(f'[Corruption "{h["Corruption"]}"]',
                            f'[Corruption "{kind}"]')
        if not text.endswith("\n"):
            text += "\n"
    return kind, text


# --------------------------------------------------------------------------
# Driver
# --------------------------------------------------------------------------

def _work(args: Tuple[int, int, bool]) -> Tuple[str, Optional[str], dict]:
    seed, i, want_corrupt = args
    g = make_game(seed, i)
    text = game_text(g)
    ctext = None
    if want_corrupt:
        crng = random.Random(f"{seed}:{i}:corrupt")
        _, ctext = corrupt(g, crng, last=False)
    info = stats_of(g)
    return text, ctext, info


def stats_of(g: GenGame) -> dict:
    b = g.board0.copy(stack=False)
    promos = under = ep = castles = 0
    for m in g.moves:
        if m.promotion:
            promos += 1
            if m.promotion != chess.QUEEN:
                under += 1
        if b.is_en_passant(m):
            ep += 1
        if b.is_castling(m):
            castles += 1
        b.push(m)
    return dict(scenario=g.scenario, promos=promos, under=under, ep=ep,
                castles=castles, plies=len(g.moves))


def main(argv: Optional[List[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--games", type=int, required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--corrupt-out")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--no-verify", action="store_true")
    args = ap.parse_args(argv)

    work = [(args.seed, i, args.corrupt_out is not None)
            for i in range(args.games)]
    if args.jobs > 1 and args.games >= 50:
        import multiprocessing as mp
        with mp.get_context("fork").Pool(args.jobs) as pool:
            results = pool.map(_work, work, chunksize=16)
    else:
        results = [_work(w) for w in work]

    with open(args.out, "w", encoding="utf-8") as fh:
        fh.write("\n".join(t for t, _, _ in results))
    if args.corrupt_out:
        texts = [c for _, c, _ in results]
        if texts:
            # the last game is truncated
            g = make_game(args.seed, args.games - 1)
            crng = random.Random(f"{args.seed}:{args.games - 1}:corrupt")
            _, texts[-1] = corrupt(g, crng, last=True)
        with open(args.corrupt_out, "w", encoding="utf-8") as fh:
            fh.write("\n".join(texts))  # type: ignore[arg-type]

    if args.no_verify:
        return 0
    return verify(args, [info for _, _, info in results])


def verify(args: argparse.Namespace, infos: List[dict]) -> int:
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    sys.dont_write_bytecode = True  # no scripts/__pycache__ in the tree
    import oracle  # noqa: E402
    games = oracle.split_games(args.out)
    recs = oracle.python_records(games, args.jobs)
    bad = 0
    if len(games) != args.games:
        print(f"gen_games: wrote {args.games} games but read back "
              f"{len(games)}", file=sys.stderr)
        bad += 1
    dist: Dict[str, int] = {}

    def inc(k: str, n: int = 1) -> None:
        dist[k] = dist.get(k, 0) + n

    for g, r, info in zip(games, recs, infos):
        if not r.valid:
            bad += 1
            print(f"gen_games: game {g.index} (line {g.line}) does not "
                  f"replay: {r.error_kind} at ply {r.error_ply}: "
                  f"{r.error_detail}", file=sys.stderr)
        inc(f"scenario {info['scenario']}")
        inc("termination " + (r.termination or "none"))
        if r.termination_ply == 0:
            inc("termination at ply 0")
        if r.threefold_ply is not None:
            inc("threefold")
        if r.fifty_ply is not None:
            inc("fifty")
        if r.moves_after_end:
            inc("moves_after_end > 0")
        if not r.result_consistent:
            inc("result inconsistent")
        if g.tag("FEN") is not None:
            inc("FEN tag")
        v = g.tag("Variant")
        if v is not None:
            inc(f"variant {v}")
        inc("plies", r.plies)
        for k in ("promos", "under", "ep", "castles"):
            if info[k]:
                inc(f"games with {k}")
    print(f"gen_games: {len(games)} games, distribution:", file=sys.stderr)
    for k in sorted(dist):
        print(f"  {k}: {dist[k]}", file=sys.stderr)
    if args.corrupt_out:
        cgames = oracle.split_games(args.corrupt_out)
        crecs = oracle.python_records(cgames, args.jobs)
        cd: Dict[str, int] = {}
        for g, r in zip(cgames, crecs):
            kind = (g.tag("Corruption") or "?").split("@")[0].split("#")[0]
            key = f"{kind}: python-chess " + (r.error_kind or "valid")
            cd[key] = cd.get(key, 0) + 1
        print(f"gen_games: {len(cgames)} corrupted games:", file=sys.stderr)
        for k in sorted(cd):
            print(f"  {k}: {cd[k]}", file=sys.stderr)
    if bad:
        print(f"gen_games: {bad} problems", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
