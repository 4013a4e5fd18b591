//! Chess, without bytes: the start position a game's tags ask for
//! ([`setup`]), how moves are written ([`notation`]) and resolved to legal
//! moves fast ([`resolve`]), and when two positions are the same
//! ([`identity`], FIDE Art. 9.2.3). Built on shakmaty.

pub mod identity;
pub mod notation;
pub mod resolve;
pub mod setup;
pub mod why;
