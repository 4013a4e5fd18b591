#!/usr/bin/env bash
# Every game of the shared corpus is reported: for each `.pgn.zst` file in
# ../shared/corpus, the number of records `arbiter games` prints equals the
# number of lines starting with `[Event ` (how SOURCES.md counts games; every
# game of these files has an Event tag). Skipped, saying so on standard
# error, when the corpus, its `.pgn.zst` files or the zstd command are
# absent; with ARBITER_REQUIRE_CORPUS=1 that is a failure instead.
# Then, for each file, `filter --rejects` with a predicate on the record,
# one on the tags and one on positions writes every game once, byte for
# byte (scripts/filter_partition.py); the same on the edge/ files.
#
#   scripts/corpus_count.sh [ARBITER]
set -euo pipefail
cd "$(dirname "$0")/.."
corpus=../shared/corpus

# Skips (exit 0), or fails (exit 1) under ARBITER_REQUIRE_CORPUS=1: $1 is
# what is missing.
missing() {
    if [ "${ARBITER_REQUIRE_CORPUS:-}" = 1 ]; then
        echo "corpus_count: failed: $1 (ARBITER_REQUIRE_CORPUS=1)" >&2
        exit 1
    fi
    echo "corpus_count: skipped: $1 (set ARBITER_REQUIRE_CORPUS=1 to make this a failure)" >&2
    exit 0
}

[ -d "$corpus" ] || missing "$corpus not found"
command -v zstd >/dev/null || missing "the zstd command not found"
shopt -s nullglob
files=("$corpus"/*.pgn.zst)
[ ${#files[@]} -gt 0 ] || missing "no .pgn.zst file in $corpus"
arbiter=${1:-target/release/arbiter}
[ -x "$arbiter" ] || cargo build --release --quiet
status=0
for file in "${files[@]}"; do
    expected=$(zstd -dc "$file" | grep -c '^\[Event ')
    reported=$("$arbiter" games -q --format jsonl "$file" | wc -l)
    if [ "$reported" = "$expected" ]; then
        echo "corpus_count: $(basename "$file"): $reported games reported, $expected in the file"
    else
        echo "corpus_count: $(basename "$file"): $reported games reported, but $expected in the file" >&2
        status=1
    fi
    plain=$(mktemp)
    zstd -dc "$file" > "$plain"
    python3 scripts/filter_partition.py --arbiter "$arbiter" "$plain" \
        -- --invalid -- --elo 2000.. \
        -- --fen "rnbqkbnr/pp2pppp/3p4/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 0 3" || status=1
    rm -f "$plain"
done
# The odd real-world files too, quietly unless one fails.
for file in "$corpus"/edge/*.pgn; do
    python3 scripts/filter_partition.py --arbiter "$arbiter" "$file" \
        -- --invalid -- --elo 2000.. -- --moves "1. e4" >/dev/null || status=1
done
exit $status
