#!/usr/bin/env python3
"""Differential test of arbiter's position and move predicates against
python-chess: `filter --count` with --fen, --placement, --material,
--final-material and --moves (and --ply) must count the games python-chess
counts, on the standard games without errors of the given files.

    python3 scripts/select_oracle.py --arbiter target/release/arbiter FILE...

Queries are drawn with a fixed seed from the games themselves: positions at
early plies (where games transpose into each other), positions right after
a double pawn step (where the en passant square counts only when a capture
is legal), material signatures reached, final material, and opening move
sequences. Exits non-zero on any difference, printing the query.
"""

import argparse
import random
import subprocess
import sys

import chess
import chess.pgn

ORDER = [chess.KING, chess.QUEEN, chess.ROOK, chess.BISHOP, chess.KNIGHT, chess.PAWN]


def signature(board, color):
    return "".join(chess.piece_symbol(t).upper() * len(board.pieces(t, color)) for t in ORDER)


def material(board):
    return (signature(board, chess.WHITE), signature(board, chess.BLACK))


def identity(board):
    """FIDE's identity of positions: the FEN's first four fields, with the
    en passant square only when a legal capture exists."""
    return " ".join(board.fen(en_passant="legal").split()[:4])


class Game:
    def __init__(self, game):
        board = game.board()
        self.keys = [identity(board)]
        self.placements = [board.board_fen()]
        self.materials = [material(board)]
        self.sans = []
        self.double_steps = []
        for move in game.mainline_moves():
            self.sans.append(board.san(move))
            double = board.piece_type_at(move.from_square) == chess.PAWN and abs(
                move.to_square - move.from_square) == 16
            board.push(move)
            if double:
                self.double_steps.append(len(self.keys))
            self.keys.append(identity(board))
            self.placements.append(board.board_fen())
            self.materials.append(material(board))


def load(paths):
    games = []
    for path in paths:
        with open(path, encoding="utf-8", errors="replace") as f:
            while True:
                game = chess.pgn.read_game(f)
                if game is None:
                    break
                variant = game.headers.get("Variant", "Standard").lower()
                if game.errors or "FEN" in game.headers or variant not in ("standard", "chess", "from position"):
                    continue
                games.append(Game(game))
    return games


def either(sig, mat):
    return mat == sig or mat == (sig[1], sig[0])


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--arbiter", required=True)
    parser.add_argument("--seed", type=int, default=20261126)
    parser.add_argument("--queries", type=int, default=12, help="of each kind")
    parser.add_argument("files", nargs="+")
    args = parser.parse_args()
    games = load(args.files)
    rng = random.Random(args.seed)
    queries = []
    for _ in range(args.queries):
        g = rng.choice(games)
        ply = rng.randrange(min(len(g.keys), 17))
        fen = g.keys[ply] + " 0 1"
        queries.append((["--fen", fen], sum(g.keys[ply] in h.keys for h in games)))
        queries.append((["--fen", fen, "--ply", str(ply)],
                        sum(len(h.keys) > ply and h.keys[ply] == g.keys[ply] for h in games)))
        queries.append((["--placement", g.placements[ply]],
                        sum(g.placements[ply] in h.placements for h in games)))
        with_double = [h for h in games if h.double_steps]
        if with_double:
            h = rng.choice(with_double)
            key = h.keys[rng.choice(h.double_steps)]
            for fen in (key, key.rsplit(" ", 1)[0] + " -"):
                # The square as written in the FEN, and none: only the legal
                # capture makes a difference.
                board = chess.Board(fen + " 0 1")
                wanted = identity(board)
                queries.append((["--fen", fen + " 0 1"], sum(wanted in k.keys for k in games)))
        ply = rng.randrange(len(g.materials))
        sig = g.materials[ply]
        text = sig[0] + "v" + sig[1]
        queries.append((["--material", text], sum(any(either(sig, m) for m in h.materials) for h in games)))
        queries.append((["--material", text, "--material-strict"], sum(sig in h.materials for h in games)))
        final = g.materials[-1]
        queries.append((["--final-material", final[0] + "v" + final[1]],
                        sum(either(final, h.materials[-1]) for h in games)))
        n = rng.randrange(1, min(len(g.sans), 8) + 1) if g.sans else 0
        if n:
            moves = " ".join(g.sans[:n])
            queries.append((["--moves", moves], sum(h.sans[:n] == g.sans[:n] for h in games)))
    failed = 0
    for predicate, expected in queries:
        command = [args.arbiter, "filter", "-q", "--count", "--variant", "standard", "--valid",
                   "--tag", "!FEN~.", *predicate, *args.files]
        out = subprocess.run(command, capture_output=True, text=True)
        if out.returncode not in (0, 1):
            print(f"select_oracle: {predicate}: exit {out.returncode}: {out.stderr}", file=sys.stderr)
            failed += 1
            continue
        got = int(out.stdout.split()[0])
        if got != expected:
            print(f"select_oracle: {predicate}: arbiter {got}, python-chess {expected}", file=sys.stderr)
            failed += 1
    print(f"select_oracle: {len(queries) - failed} queries agree, {failed} differ ({len(games)} games)")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
