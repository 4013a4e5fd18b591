//! Fuzz target `replay`: see `arbiter_fuzz::replay`, which `cargo test` also runs on
//! the seeds (tests/cli/fuzz_seeds.rs).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| arbiter_fuzz::replay::check(data));
