#!/usr/bin/env bash
# The whole test suite: the command README.md gives and .ci/run runs.
#
#   scripts/test.sh
#
# That the shell scripts parse; formatting, lints, unit and integration
# tests, docs, then the differential test against python-chess (installed
# with pip if missing), the corpus count, and `games`' output read by
# DuckDB (skipped when the duckdb Python package is missing).
set -euo pipefail
cd "$(dirname "$0")/.."

step() { printf '\n== %s\n' "$*"; }

step "shell scripts parse (bash -n)"
for script in scripts/*.sh .ci/run; do
    bash -n "$script"
done
step "cargo fmt --check"
cargo fmt --all -- --check
step "cargo clippy -D warnings"
cargo clippy --locked --all-targets -- -D warnings
step "cargo test"
cargo test --locked
step "cargo doc -D warnings"
RUSTDOCFLAGS="-D warnings" cargo doc --locked --no-deps --document-private-items --quiet
step "differential test against python-chess"
bash scripts/differential.sh
step "every game of the shared corpus is reported"
bash scripts/corpus_count.sh
step "games' CSV and JSON Lines load in DuckDB"
python3 scripts/duckdb_load.py
