#!/usr/bin/env bash
# Checksums of every command's output on the fixtures and the shared corpus,
# one line per run: a refactoring must leave them all unchanged.
#
#   scripts/outputs.sh BINARY > before.txt
#   scripts/outputs.sh target/release/arbiter > after.txt && diff before.txt after.txt
#
# Each line: the command, the input, and the SHA-256 of standard output, of
# standard error and of every file written, then the exit status.
# `--quick` leaves out the two large corpus files.
set -uo pipefail
bin=$(realpath "$1")
quick=${2:-}
cd "$(dirname "$0")/.."
shared=../shared/corpus
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

inputs=(fixtures)
[ -d "$shared/edge" ] && inputs+=("$shared/edge")
if [ "$quick" != "--quick" ]; then
    for f in "$shared"/bench-*.pgn.zst; do [ -f "$f" ] && inputs+=("$f"); done
fi

run() { # label input args...
    local label=$1 input=$2; shift 2
    rm -rf "$scratch/out"; mkdir -p "$scratch/out"
    (cd "$scratch/out" && "$bin" "$@" >"$scratch/stdout" 2>"$scratch/stderr" </dev/null)
    local rc=$?
    local files
    files=$(cd "$scratch/out" && find . -type f | sort | xargs -r sha256sum | sha256sum | cut -c1-16)
    printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$label" "$input" \
        "$(sha256sum <"$scratch/stdout" | cut -c1-16)" \
        "$(sha256sum <"$scratch/stderr" | cut -c1-16)" "$files" "$rc"
}

for input in "${inputs[@]}"; do
    path=$(realpath "$input")
    r=(); [ -d "$path" ] && r=(-r)
    run validate "$input" validate -q "${r[@]}" "$path"
    run validate-errors "$input" validate -q --errors-only "${r[@]}" "$path"
    run validate-jsonl "$input" validate -q --format jsonl "${r[@]}" "$path"
    run validate-variations "$input" validate -q --variations "${r[@]}" "$path"
    run games-csv "$input" games -q "${r[@]}" "$path"
    run games-jsonl "$input" games -q --format jsonl "${r[@]}" "$path"
    run games-variations "$input" games -q --variations --format jsonl "${r[@]}" "$path"
    run stats "$input" stats -q "${r[@]}" "$path"
    run stats-json "$input" stats -q --json "${r[@]}" "$path"
    run stats-csv "$input" stats -q --csv tables "${r[@]}" "$path"
    run stats-plot "$input" stats -q --plot plots "${r[@]}" "$path"
    run stats-partial "$input" stats -q --partial part.json "${r[@]}" "$path"
    run check "$input" check -q "${r[@]}" "$path"
    run check-jsonl "$input" check -q --format jsonl "${r[@]}" "$path"
    run check-sarif "$input" check -q --format sarif "${r[@]}" "$path"
    run crosstable "$input" crosstable -q "${r[@]}" "$path"
    run crosstable-csv "$input" crosstable -q --csv "${r[@]}" "$path"
    run crosstable-html "$input" crosstable -q --html "${r[@]}" "$path"
    run fmt "$input" fmt -q "${r[@]}" "$path"
    run fmt-check "$input" fmt -q --check "${r[@]}" "$path"
done
# merge: partials of two halves of the fixtures give the outputs of one run.
"$bin" stats -q --partial "$scratch/a.json" -r fixtures/rules >/dev/null 2>&1
"$bin" stats -q --partial "$scratch/b.json" -r fixtures/stats >/dev/null 2>&1
run merge fixtures merge "$scratch/a.json" "$scratch/b.json"
run merge-json fixtures merge --json "$scratch/a.json" "$scratch/b.json"
# Standard input.
for f in fixtures/sample.pgn fixtures/rules/variations.pgn; do
    rm -rf "$scratch/out"; mkdir -p "$scratch/out"
    for cmd in validate games stats fmt check; do
        "$bin" "$cmd" -q - <"$f" >"$scratch/stdout" 2>"$scratch/stderr"; rc=$?
        printf '%s-stdin\t%s\t%s\t%s\t-\t%s\n' "$cmd" "$f" \
            "$(sha256sum <"$scratch/stdout" | cut -c1-16)" \
            "$(sha256sum <"$scratch/stderr" | cut -c1-16)" "$rc"
    done
done
