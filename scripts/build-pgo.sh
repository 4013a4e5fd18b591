#!/usr/bin/env bash
# Profile-guided build of arbiter (PGO): an instrumented binary replays the
# committed sample files, LLVM merges what it measured, and the release
# build is compiled again with those branch and call counts.
#
#   scripts/build-pgo.sh        prints the path of the optimised binary
#
# The training set is the project's committed samples: fixtures/bench/*.pgn
# (TWIC, lichess games with clocks and evals, older master games; the
# inputs of `cargo bench`, and excerpts of 0.6% and 1.4% of the two shared
# corpus files that scripts/bench.sh measures) and fixtures/sample.pgn. The
# commands a user runs are trained: validate, stats and games.
#
# Needs llvm-profdata, the first found of: $LLVM_PROFDATA; rustup's
# llvm-tools component (of rustc's own LLVM), which the script tries to add;
# the newest Debian LLVM (`apt-get install llvm-19` on Debian 12: its
# llvm-profdata merges the raw profiles of rustc 1.95, whose LLVM is 22, and
# rustc reads the merged file; `merge` fails loudly on a raw format it does
# not know). Everything goes under target/pgo/; a plain `cargo build
# --release` is not affected.
set -euo pipefail
cd "$(dirname "$0")/.."

sysroot=$(rustc --print sysroot)
host=$(rustc -vV | sed -n 's/^host: //p')
profdata=${LLVM_PROFDATA:-$sysroot/lib/rustlib/$host/bin/llvm-profdata}
if [ ! -x "$profdata" ] && [ -z "${LLVM_PROFDATA:-}" ]; then
    rustup component add llvm-tools >&2 || true
    if [ ! -x "$profdata" ]; then
        debian=$(ls -d /usr/lib/llvm-*/bin/llvm-profdata 2>/dev/null | sort -V | tail -n 1)
        profdata=${debian:-$profdata}
    fi
fi
if [ ! -x "$profdata" ]; then
    echo "build-pgo: no llvm-profdata ($profdata is missing): install rustup's" \
        "llvm-tools component, or Debian's llvm-19, or set LLVM_PROFDATA" >&2
    exit 1
fi
echo "build-pgo: merging profiles with $profdata" >&2

out=$PWD/target/pgo

# Counters are updated atomically: the training runs replay on two threads,
# and plain counters lose increments where both run the same code, which
# made each build's profile, and so its speed, differ by a few percent.
RUSTFLAGS="${RUSTFLAGS:-} -Cprofile-generate=$out/profiles -Cllvm-args=-instrprof-atomic-counter-update-all" \
    cargo build --release --locked --target-dir "$out/instrumented" >&2
# Only the training runs' profiles: the build also ran instrumented build
# scripts and proc macros, which wrote theirs to the same directory.
rm -rf "$out/profiles" "$out/merged.profdata"
mkdir -p "$out/profiles"

# arbiter exits 1 when games have errors (the samples have some): a result,
# not a failure. Anything else is.
train() {
    local status=0
    "$out/instrumented/release/arbiter" "$@" > /dev/null || status=$?
    if [ "$status" -gt 1 ]; then
        echo "build-pgo: training run 'arbiter $*' failed with status $status" >&2
        exit 1
    fi
}
samples=(fixtures/bench/*.pgn fixtures/sample.pgn)
train validate -q "${samples[@]}"
train validate -q --jobs 1 "${samples[@]}"
train stats -q "${samples[@]}"
train games -q --format csv "${samples[@]}"

"$profdata" merge -o "$out/merged.profdata" "$out/profiles"
RUSTFLAGS="${RUSTFLAGS:-} -Cprofile-use=$out/merged.profdata" \
    cargo build --release --locked --target-dir "$out/optimised" >&2
echo "$out/optimised/release/arbiter"
