//! The export observer: each game replayed without error, written in PGN
//! export format (`arbiter fmt`), or its original bytes when it cannot be.
//! The format itself is `pgn::writer`'s.

use shakmaty::{
    Color, Move, Position,
    san::{San, SanPlus, Suffix},
};

use crate::{
    pgn::writer::{MovetextWriter, write_tags},
    replay::observer::{GameEnd, Observer},
};

/// A game as `arbiter fmt` writes it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Export {
    /// The formatted game, or, for a game that could not be replayed, its
    /// original bytes exactly.
    pub text: Vec<u8>,
    /// Whether `text` is formatted (false: copied through).
    pub formatted: bool,
    /// Whether `text` differs from the original bytes.
    pub changed: bool,
}

/// The observer that writes each game in export format. It needs the
/// variations replayed (`ReplayOptions::variations`), to write their moves.
#[derive(Debug, Default)]
pub struct Exporter {
    writer: MovetextWriter,
    /// The move about to be played: its number, side and SAN.
    next: Option<(u32, Color, San)>,
}

impl Observer for Exporter {
    type Output = Export;

    fn start<P: Position>(&mut self, _pos: &P, _standard: bool) {
        self.writer = MovetextWriter::new();
    }

    fn before_move<P: Position>(&mut self, pos: &P, m: &Move) {
        self.next = Some((pos.fullmoves().get(), pos.turn(), San::from_move(pos, *m)));
    }

    /// The move in canonical SAN, with the suffix the new position calls for.
    fn after_move<P: Position>(&mut self, pos: &P, _m: &Move, _ply: u32, _mainline: bool) {
        if let Some((number, turn, san)) = self.next.take() {
            self.writer.san(number, turn, SanPlus { san, suffix: Suffix::from_position(pos) });
        }
    }

    fn nag(&mut self, nag: u8) {
        self.writer.nag(nag);
    }

    fn comment(&mut self, text: &[u8]) {
        self.writer.comment(text);
    }

    fn begin_variation(&mut self) {
        self.writer.open_variation();
    }

    fn end_variation(&mut self) {
        self.writer.close_variation();
    }

    /// A game replayed without error is written in export format; any
    /// other is copied as it is.
    fn end_game(&mut self, game: &GameEnd<'_, '_>) -> Export {
        let writer = std::mem::replace(&mut self.writer, MovetextWriter::new());
        let record = game.record;
        let original = game.text;
        if !game.replayed || record.error.is_some() {
            return Export { text: original.to_vec(), formatted: false, changed: false };
        }
        let result = record.result_marker.or(record.result.as_deref()).unwrap_or("*");
        let mut text = Vec::with_capacity(original.len() + 64);
        write_tags(&game.tags.to_list(), result, &mut text);
        text.extend_from_slice(&writer.finish(result));
        text.push(b'\n');
        let changed = text != original;
        Export { text, formatted: true, changed }
    }
}
