//! Helpers shared by the unit tests.

/// A small deterministic generator (xorshift), so tests need no crate.
pub struct Rng(pub u64);

impl Rng {
    /// A number below `n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}
