//! Fuzz target `split`: see `arbiter_fuzz::split`, which `cargo test` also runs on
//! the seeds (tests/cli/fuzz_seeds.rs).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| arbiter_fuzz::split::check(data));
