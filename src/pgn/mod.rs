//! PGN syntax, without chess: where games and their tag sections are in
//! the bytes ([`split`], [`cursor`]), the movetext's tokens ([`lexer`]), the
//! tags as written ([`tags`]) and the export format ([`writer`]); [`chunk`]
//! cuts an input where a game provably begins, for the workers; typed tag
//! values are in [`values`], players' names folded for comparison in
//! [`names`]; [`sniff`] tells an input that is not PGN at all; [`shard`] cuts a
//! stream into shards of N games for `arbiter split`. Nothing here knows a position or a rule (the
//! writer takes moves already in SAN).

pub mod chunk;
pub mod cursor;
pub mod lexer;
pub mod names;
pub mod shard;
pub mod sniff;
pub mod split;
pub mod tags;
pub mod values;
pub mod writer;
