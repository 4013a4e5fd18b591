#!/usr/bin/env bash
# The whole test suite: the command README.md gives and .ci/run runs.
#
#   scripts/test.sh
#
# That the shell scripts parse; formatting, lints, unit and integration
# tests, docs, then the differential test against python-chess (installed
# with pip if missing), the corpus count, `games`' output read by DuckDB
# (skipped when the duckdb Python package is missing), and Spark and
# Polars (scripts/spark_test.py: skipped when pyspark, java or polars is
# missing, unless ARBITER_REQUIRE_SPARK=1 or ARBITER_REQUIRE_POLARS=1;
# ARBITER_SKIP_SPARK=1 skips Spark). `cargo test` runs
# the fuzz targets of fuzz/ on their seeds (tests/cli/fuzz_seeds.rs);
# fuzzing itself, which first builds every dependency instrumented (about
# 5 minutes on 2 cores), runs only when asked: ARBITER_FUZZ_SECONDS=N runs
# each target N seconds, given a nightly toolchain and cargo-fuzz (a
# missing nightly is not downloaded: RUSTUP_AUTO_INSTALL=0).
set -euo pipefail
cd "$(dirname "$0")/.."

# Each step says when it starts (seconds since the suite began), so that a
# CI log shows where the time goes.
step() { printf '\n== [%4ds] %s\n' "$SECONDS" "$*"; }

step "shell scripts parse (bash -n)"
for script in scripts/*.sh .ci/run; do
    bash -n "$script"
done
step "cargo fmt --check"
cargo fmt --all -- --check
# fuzz/ is a workspace of its own, which `--all` leaves out.
rustfmt --check --edition 2024 fuzz/src/*.rs fuzz/fuzz_targets/*.rs
# Every feature is built and tested (`sqlite`, off by default, adds
# `db export --format sqlite`); the default build is linted too (its
# `--format sqlite` stub, and the test of it that `cargo test` without
# features runs).
step "cargo clippy -D warnings (with --features sqlite, then without)"
cargo clippy --locked --all-targets --features sqlite -- -D warnings
cargo clippy --locked --all-targets -- -D warnings
step "cargo test"
cargo test --locked --features sqlite
step "cargo doc -D warnings"
RUSTDOCFLAGS="-D warnings" cargo doc --locked --no-deps --document-private-items --quiet \
    --features sqlite
step "differential test against python-chess"
# The binary `cargo test` built (dependencies optimised, our code with
# debug assertions): a release build would cost minutes and check less.
ARBITER="${ARBITER:-$PWD/target/debug/arbiter}" bash scripts/differential.sh
step "every game of the shared corpus is reported"
bash scripts/corpus_count.sh
step "the dead-position analysis against labelled positions (scripts/unwinnability.sh)"
if [ -d ../shared/unwinnability ]; then
    bash scripts/unwinnability.sh
else
    echo "unwinnability: skipped: ../shared/unwinnability not found (tests/cli/winnable.rs runs the fixtures' subset)"
fi
step "games' CSV and JSON Lines load in DuckDB"
# The debug binary too: a release build here would cost minutes.
ARBITER="${ARBITER:-$PWD/target/debug/arbiter}" python3 scripts/duckdb_load.py
step "Spark (local[2]) and Polars read arbiter's numbers (scripts/spark_test.py)"
if [ -n "${ARBITER_PIP_DONE:-}" ]; then
    # .ci/run's background install of pyspark and polars.
    waited=$SECONDS
    while [ ! -e "$ARBITER_PIP_DONE" ] && [ $((SECONDS - waited)) -lt 1200 ]; do sleep 2; done
    echo "waited $((SECONDS - waited)) s for pip install of pyspark and polars"
    if [ "$(cat "$ARBITER_PIP_DONE" 2>/dev/null)" != 0 ]; then
        cat "$ARBITER_PIP_DONE.log" 2>/dev/null || true
        echo "spark_test: failed: pip install of pyspark and polars did not succeed" >&2
        exit 1
    fi
fi
ARBITER="${ARBITER:-$PWD/target/debug/arbiter}" python3 scripts/spark_test.py
fuzz_seconds=${ARBITER_FUZZ_SECONDS:-0}
if [ "$fuzz_seconds" = 0 ]; then
    step "fuzzing: not run (ARBITER_FUZZ_SECONDS=N runs each target N s; cargo test ran them on their seeds)"
elif ! RUSTUP_AUTO_INSTALL=0 cargo +nightly --version >/dev/null 2>&1; then
    step "fuzzing: failed: ARBITER_FUZZ_SECONDS=$fuzz_seconds, but no nightly toolchain (cargo +nightly)"
    exit 1
elif ! cargo fuzz --version >/dev/null 2>&1; then
    step "fuzzing: failed: ARBITER_FUZZ_SECONDS=$fuzz_seconds, but cargo-fuzz is missing (cargo install cargo-fuzz --locked)"
    exit 1
else
    step "fuzz targets, $fuzz_seconds s each (scripts/fuzz.sh)"
    bash scripts/fuzz.sh "$fuzz_seconds"
fi
step "done"
