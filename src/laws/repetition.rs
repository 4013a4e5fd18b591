//! Repetition of positions: FIDE Art. 9.2 (the same position for the
//! third time: a draw may be claimed) and Art. 9.6.1 (for the fifth time:
//! the game is drawn). Positions are the same under Art. 9.2.3
//! (`chess::identity`). [`RepetitionTable`] counts occurrences within the
//! window since the last irreversible move, storing no boards while the
//! window is short.

use std::collections::HashMap;

use shakmaty::{Bitboard, Board, Color, Position, Square};

use crate::chess::{identity::position_hash, resolve::Replayable};

/// Art. 9.2: the same position for the third time, a draw may be claimed.
/// Finding: `threefold_ply` in the record.
#[inline]
pub fn threefold(occurrences: u32) -> bool {
    occurrences >= 3
}

/// Art. 9.6.1: the same position for the fifth time ends the game.
/// Finding: the `fivefold_repetition` termination.
#[inline]
pub fn fivefold(occurrences: u32) -> bool {
    occurrences >= 5
}

/// Beyond this many positions since the last irreversible move, occurrences
/// are counted in a hash map instead of by scanning (keeps hostile games of
/// millions of shuffling plies linear).
const SCAN_LIMIT: usize = 256;

/// A position as the repetition rule sees it, within one window of
/// reversible moves.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
struct Seen {
    /// See [`Seen::key`].
    key: u64,
    board: Board,
}

/// Flips the key of a position with a legal en passant capture.
const EN_PASSANT_KEY: u64 = 0x9e37_79b9_7f4a_7c15;

/// Flips the key of a position with Black to move.
const BLACK_KEY: u64 = 0x5851_f42d_4c95_7f2d;

impl Seen {
    /// `en_passant` says whether `pos` has a legal en passant capture.
    fn of<P: Replayable>(pos: &P, en_passant: bool) -> Seen {
        Seen { key: Seen::key(pos, en_passant), board: pos.board().clone() }
    }

    /// A cheap first test, and the parts of the identity besides the board.
    /// Chess: the occupied squares, flipped by constants for Black to move
    /// and for a legal en passant capture (only ever in a window's first
    /// position, where castling rights are those of the whole window);
    /// equal boards have equal occupancy, so two positions are the same
    /// exactly when keys and boards are. Variants: the full position hash,
    /// which covers pockets, check counts and en passant too.
    /// `en_passant` says whether `pos` has a legal en passant capture.
    fn key<P: Replayable>(pos: &P, en_passant: bool) -> u64 {
        if !P::PLAIN_MOVES {
            return position_hash(pos);
        }
        pos.board().occupied().0
            ^ if en_passant { EN_PASSANT_KEY } else { 0 }
            ^ if pos.turn() == Color::Black { BLACK_KEY } else { 0 }
    }
}

/// Counts how often each position occurred since the last irreversible move.
///
/// In that window the castling rights cannot change and only the first
/// position can have an en passant capture, so in chess two positions are
/// the same exactly when their keys and boards are (occupancy compared
/// first, as python-chess does). Every move inside the window only moves a
/// piece (shakmaty's `is_irreversible` covers captures, pawn moves,
/// castling, the loss of castling rights and any move from a position with
/// an en passant capture), so the window keeps a key, a count and a step
/// per position instead of a copy of its board: an earlier board is
/// rebuilt, only when its key matches, by taking the steps back from the
/// current one. Past `SCAN_LIMIT` positions, boards go into a hash map.
#[derive(Debug, Default)]
pub struct RepetitionTable {
    /// The window's positions, oldest first, scanned newest first.
    window: Vec<Entry>,
    /// Past the scan limit, and always for variants (whose moves also drop,
    /// explode and capture within a window): occurrences by position.
    by_position: HashMap<Seen, u32>,
}

/// A position of the window.
#[derive(Debug, Clone, Copy)]
struct Entry {
    /// [`Seen::key`] of the position.
    key: u64,
    /// How often the position had occurred, itself included.
    count: u32,
    /// The step (from, to) that reached it from the previous entry (none
    /// for the window's first).
    step: Option<(Square, Square)>,
}

impl RepetitionTable {
    /// Forgets every position: an irreversible move was played.
    pub fn clear(&mut self) {
        self.window.clear();
        self.by_position.clear();
    }

    /// Records `pos`, reached by the piece `step` (from, to) of a normal
    /// move, and returns how often its position has now occurred.
    /// `en_passant` says whether `pos` has a legal en passant capture.
    pub fn record<P: Replayable>(
        &mut self,
        pos: &P,
        step: Option<(Square, Square)>,
        en_passant: bool,
    ) -> u32 {
        if !P::PLAIN_MOVES || !self.by_position.is_empty() {
            return self.count_by_position(Seen::of(pos, en_passant));
        }
        let key = Seen::key(pos, en_passant);
        let step = step.filter(|_| !self.window.is_empty());
        debug_assert!(step.is_some() || self.window.is_empty(), "a window move is a normal move");
        self.window.push(Entry { key, count: 1, step });
        let newest = self.window.len() - 1;
        // Same side to move only: every other earlier entry, newest first.
        let mut same_side = self.window[..newest].iter().rev().skip(1).step_by(2);
        if let Some(nth) = same_side.position(|entry| entry.key == key) {
            let count = self.count_by_board(newest - 2 - 2 * nth, pos.board());
            self.window[newest].count = count;
        }
        let count = self.window[newest].count;
        if self.window.len() >= SCAN_LIMIT {
            self.spill(pos.board());
        }
        count
    }

    /// Counts `seen` in the hash map (out of line: the rare path).
    #[inline(never)]
    fn count_by_position(&mut self, seen: Seen) -> u32 {
        let count = self.by_position.entry(seen).or_default();
        *count += 1;
        *count
    }

    /// How often the newest entry's position, on `board`, has occurred,
    /// where entry `first_match` is the latest earlier one with its key:
    /// one more than at its latest earlier occurrence.
    #[inline(never)]
    fn count_by_board(&self, first_match: usize, board: &Board) -> u32 {
        let newest = self.window.len() - 1;
        let key = self.window[newest].key;
        let mut earlier = board.clone();
        let mut at = newest;
        for i in (0..=first_match).rev().step_by(2) {
            if self.window[i].key != key {
                continue;
            }
            self.step_back(&mut earlier, &mut at, i);
            if earlier == *board {
                return self.window[i].count + 1;
            }
        }
        1
    }

    /// Takes `board`, the board of entry `*at`, back to that of entry
    /// `target`.
    fn step_back(&self, board: &mut Board, at: &mut usize, target: usize) {
        while *at > target {
            if let Some((from, to)) = self.window[*at].step
                && let Some(piece) = board.remove_piece_at(to)
            {
                board.set_piece_at(from, piece);
            }
            *at -= 1;
        }
    }

    /// Moves the window into the hash map; `board` is its newest board.
    fn spill(&mut self, board: &Board) {
        let mut earlier = board.clone();
        let mut at = self.window.len() - 1;
        for i in (0..self.window.len()).rev() {
            self.step_back(&mut earlier, &mut at, i);
            // Newest first: the latest count of a position is its total.
            let seen = Seen { key: self.window[i].key, board: earlier.clone() };
            self.by_position.entry(seen).or_insert(self.window[i].count);
        }
        self.window.clear();
    }
}

/// Whether the chess move that reached `after` was irreversible (shakmaty's
/// `is_irreversible`, told after the fact from what the tracker keeps of
/// the position before: its castling rights and whether it had a legal en
/// passant capture). A capture or pawn move zeroes the clock; castling, a
/// king or rook move that loses a right, and a capture of a rook on its
/// square change the castling rights; and no later position can equal one
/// with a legal en passant capture, whatever the move from it was.
pub fn was_irreversible<P: Position>(
    after: &P,
    castling_before: Bitboard,
    en_passant_before: bool,
) -> bool {
    after.halfmoves() == 0
        || after.castles().castling_rights() != castling_before
        || en_passant_before
}

#[cfg(test)]
mod tests {
    use shakmaty::{CastlingMode, Chess, Move, fen::Fen};

    use super::*;
    use crate::chess::identity::legal_en_passant;

    /// Random games from the start position and from Chess960 ones: at
    /// every ply, the irreversibility the tracker tells after the fact is
    /// shakmaty's `is_irreversible` before the move, including the moves
    /// that are irreversible only by a lost castling right or by leaving a
    /// position with a legal en passant capture.
    #[test]
    fn irreversible_moves_are_told_after_the_fact() {
        let mut rng = crate::testing::Rng(0x9e37_79b9_7f4a_7c15);
        let (mut by_castling, mut by_en_passant, mut checked) = (0, 0, 0);
        for game in 0..400 {
            let mut pos: Chess = if game % 2 == 0 {
                Chess::default()
            } else {
                let fen = [
                    "rbbqnknr/pppppppp/8/8/8/8/PPPPPPPP/RBBQNKNR w KQkq - 0 1",
                    "nrkbbqrn/pppppppp/8/8/8/8/PPPPPPPP/NRKBBQRN w KQkq - 0 1",
                ][game % 4 / 2];
                Fen::from_ascii(fen.as_bytes())
                    .unwrap()
                    .into_position(CastlingMode::Chess960)
                    .unwrap()
            };
            for _ in 0..120 {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                let m = moves[rng.below(moves.len())];
                let expected = pos.is_irreversible(m);
                let castling = pos.castles().castling_rights();
                let en_passant = legal_en_passant(&pos).is_some();
                let quiet = !m.is_zeroing();
                pos.play_unchecked(m);
                assert_eq!(was_irreversible(&pos, castling, en_passant), expected, "{m:?}");
                checked += 1;
                by_castling += usize::from(quiet && castling != pos.castles().castling_rights());
                by_en_passant += usize::from(quiet && en_passant);
            }
        }
        assert!(
            checked > 20_000 && by_castling > 500 && by_en_passant > 50,
            "{checked} moves, {by_castling} quiet ones losing a right, {by_en_passant} from en passant"
        );
    }

    /// Random walks of kings and minor pieces without captures: one window
    /// of reversible moves, long past the scan limit. At every ply the
    /// table's count equals a plain count of (board, side to move).
    #[test]
    fn counts_like_a_plain_tally_through_long_windows() {
        let mut rng = crate::testing::Rng(0x2545_f491_4f6c_dd1d);
        let (mut repeated, mut other_side, mut spilled) = (0, 0, 0);
        for _ in 0..40 {
            let mut pos: Chess = Fen::from_ascii(b"1n2kb2/8/8/8/8/8/8/1N2KB2 w - - 0 1")
                .unwrap()
                .into_position(CastlingMode::Standard)
                .unwrap();
            let mut table = RepetitionTable::default();
            let mut tally: HashMap<(Board, Color), u32> = HashMap::new();
            // The last move's step, and the one before (the same side's).
            let (mut last, mut own_last) = (None, None);
            for ply in 0..700 {
                let expected = tally.entry((pos.board().clone(), pos.turn())).or_default();
                *expected += 1;
                assert_eq!(table.record(&pos, last, false), *expected, "ply {ply}");
                repeated += usize::from(*expected > 1);
                // Past the scan (whose parity keeps the sides apart), the
                // same board with the other side to move.
                other_side += usize::from(
                    ply > SCAN_LIMIT && tally.contains_key(&(pos.board().clone(), !pos.turn())),
                );
                spilled += usize::from(ply == SCAN_LIMIT && !table.by_position.is_empty());
                let moves: Vec<Move> =
                    pos.legal_moves().into_iter().filter(|m| !m.is_capture()).collect();
                // Often a side takes its last move back: repetitions.
                let back = |m: &&Move| {
                    own_last.is_some_and(|(from, to)| m.from() == Some(to) && m.to() == from)
                };
                let m = match moves.iter().find(back) {
                    Some(&m) if rng.below(3) > 0 => m,
                    _ => moves[rng.below(moves.len())],
                };
                own_last = last;
                last = m.from().map(|from| (from, m.to()));
                pos.play_unchecked(m);
            }
        }
        let counts = format!("{repeated} {other_side} {spilled}");
        assert!(repeated > 1000 && other_side > 20 && spilled == 40, "{counts}");
    }
}
