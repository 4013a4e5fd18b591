//! Fuzz target `select`: see `arbiter_fuzz::select`, which `cargo test` also runs on
//! the seeds (tests/cli/fuzz_seeds.rs).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| arbiter_fuzz::select::check(data));
