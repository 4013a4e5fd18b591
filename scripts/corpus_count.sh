#!/usr/bin/env bash
# Every game of the shared corpus is reported: for each `.pgn.zst` file in
# ../shared/corpus, the number of records `arbiter games` prints equals the
# number of lines starting with `[Event ` (how SOURCES.md counts games; every
# game of these files has an Event tag). Skipped when the corpus is absent.
#
#   scripts/corpus_count.sh [ARBITER]
set -euo pipefail
cd "$(dirname "$0")/.."
corpus=../shared/corpus
if [ ! -d "$corpus" ] || ! command -v zstd >/dev/null; then
    echo "corpus_count: $corpus or the zstd command not present, skipped"
    exit 0
fi
arbiter=${1:-target/release/arbiter}
[ -x "$arbiter" ] || cargo build --release --quiet
status=0
for file in "$corpus"/*.pgn.zst; do
    expected=$(zstd -dc "$file" | grep -c '^\[Event ')
    reported=$("$arbiter" games -q --format jsonl "$file" | wc -l)
    if [ "$reported" = "$expected" ]; then
        echo "corpus_count: $(basename "$file"): $reported games reported, $expected in the file"
    else
        echo "corpus_count: $(basename "$file"): $reported games reported, but $expected in the file" >&2
        status=1
    fi
done
exit $status
