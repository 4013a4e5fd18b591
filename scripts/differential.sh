#!/usr/bin/env bash
# Differential test of arbiter against python-chess (the command CI runs).
#
#   bash scripts/differential.sh
#
# 1. builds arbiter in release mode (skip with ARBITER=/path/to/arbiter),
# 2. generates $ARBITER_DIFF_GAMES (default 3000) random games and a
#    corrupted copy of each with a fixed seed (ARBITER_DIFF_SEED) into a
#    temporary directory, checking with python-chess that every uncorrupted
#    game replays legally,
# 3. runs scripts/oracle.py once on every fixtures/**/*.pgn (minus the files
#    listed in scripts/differential-exclude.txt), the random games and the
#    corrupted games; with ARBITER_CORPUS=1 and ../shared/corpus present it
#    also runs the corpus, ARBITER_CORPUS_MAX (default 20000) games per file
#    (a missing corpus is said on standard error; with
#    ARBITER_REQUIRE_CORPUS=1 it is a failure, and the corpus is run).
#
# 4. runs scripts/select_oracle.py: the position and move predicates of
#    `filter` (--fen, --placement, --material, --final-material, --moves,
#    --ply) count the games python-chess counts, on fixtures/bench and the
#    random games; and scripts/filter_partition.py: `filter --rejects`
#    writes every game of the fixtures and the random games once, byte for
#    byte, whatever decides the selection (the record, the tags, the
#    positions).
#
# 5. with pgn-extract installed (Debian package `pgn-extract`; without it the
#    step is skipped, said on standard error), runs
#    scripts/filter_vs_pgn_extract.py --strict: every game that `filter` and
#    pgn-extract select differently (tags, a position, a material balance)
#    on fixtures/bench and fixtures/select/pgn-extract.pgn must differ by one
#    of the rules the README's "Against pgn-extract" explains.
# 6. runs scripts/tree_oracle.py: `tree`'s positions and counts are a
#    brute-force python-chess tally's, on fixtures/tree, fixtures/select,
#    fixtures/bench and the random games, and on the first
#    ARBITER_TREE_CORPUS_MAX (default 3000) games of each ../shared/corpus
#    file when that directory is there (its absence is said on standard
#    error).
#
# Exits non-zero on any mismatch. Needs python3 with python-chess
# (`pip install chess`).
set -euo pipefail

cd "$(dirname "$0")/.."
root=$(pwd)
py=${PYTHON:-python3}
seed=${ARBITER_DIFF_SEED:-20251122}
games=${ARBITER_DIFF_GAMES:-3000}

if ! "$py" -c 'import chess' 2>/dev/null; then
    echo "differential: python-chess missing, installing it" >&2
    "$py" -m pip install --quiet chess
fi

if [ -n "${ARBITER:-}" ]; then
    arbiter=$ARBITER
else
    cargo build --release --quiet
    arbiter=$root/target/release/arbiter
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/arbiter-diff.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

"$py" scripts/gen_games.py --seed "$seed" --games "$games" \
    --out "$tmp/random.pgn" --corrupt-out "$tmp/corrupt.pgn"

files=()
if [ -d fixtures ]; then
    exclude=scripts/differential-exclude.txt
    while IFS= read -r -d '' f; do
        f=${f#./}
        if [ -f "$exclude" ] && grep -qE "^${f//./\\.}([[:space:]]|$)" "$exclude"; then
            echo "differential: skipping $f ($(grep -E "^${f//./\\.}([[:space:]]|$)" "$exclude" | sed -E 's/^[^#]*#? *//'))" >&2
            continue
        fi
        files+=("$f")
    done < <(find fixtures -name '*.pgn' -type f -print0 | sort -z)
fi
files+=("$tmp/random.pgn" "$tmp/corrupt.pgn")

max_args=()
if [ "${ARBITER_CORPUS:-}" = 1 ] || [ "${ARBITER_REQUIRE_CORPUS:-}" = 1 ]; then
    if [ -d ../shared/corpus ]; then
        while IFS= read -r -d '' f; do
            files+=("$f")
        done < <(find ../shared/corpus \( -name '*.pgn' -o -name '*.pgn.zst' \) -type f -print0 | sort -z)
        max_args=(--max-games "${ARBITER_CORPUS_MAX:-20000}")
    elif [ "${ARBITER_REQUIRE_CORPUS:-}" = 1 ]; then
        echo "differential: failed: ../shared/corpus not found (ARBITER_REQUIRE_CORPUS=1)" >&2
        exit 1
    else
        echo "differential: corpus skipped: ../shared/corpus not found (set ARBITER_REQUIRE_CORPUS=1 to make this a failure)" >&2
    fi
fi

# The checks below are independent and mostly single-threaded Python: they
# run side by side (two cores halve the step), each into its own log, which
# is printed whole, in order, when all are done.
pids=()
names=()
side_by_side() {
    local name=$1
    shift
    ( "$@" ) >"$tmp/$name.log" 2>&1 &
    pids+=($!)
    names+=("$name")
}
finish_side_by_side() {
    local i failed=0
    for i in "${!pids[@]}"; do
        if ! wait "${pids[$i]}"; then
            failed=1
            echo "differential: failed: ${names[$i]}" >>"$tmp/${names[$i]}.log"
        fi
        cat "$tmp/${names[$i]}.log" >&2
    done
    return "$failed"
}

select_checks() {
    "$py" scripts/select_oracle.py --arbiter "$arbiter" fixtures/bench/*.pgn "$tmp/random.pgn"
    for file in fixtures/sample.pgn fixtures/select/predicates.pgn "$tmp/random.pgn" "$tmp/corrupt.pgn"; do
        "$py" scripts/filter_partition.py --arbiter "$arbiter" "$file" \
            -- --invalid -- --elo 2000.. -- --result 1-0 -- --material KRPvKR \
            -- --fen "rnbqkbnr/pp2pppp/3p4/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 0 3"
    done
}

against_pgn_extract() {
    local out
    if ! out=$("$py" scripts/filter_vs_pgn_extract.py --strict --arbiter "$arbiter" "$@"); then
        echo "$out"
        echo "differential: failed: filter and pgn-extract select differently by a rule not explained" >&2
        return 1
    fi
}
pgn_extract_checks() {
    if command -v pgn-extract >/dev/null 2>&1 || [ -x /usr/games/pgn-extract ]; then
        against_pgn_extract fixtures/bench/*.pgn
        against_pgn_extract --player Carlsen --line "e4 c5 Nf3 d6" --line "e4 Nf6 e5 d5" \
            fixtures/select/pgn-extract.pgn
        echo "differential: filter against pgn-extract: every difference explained" >&2
    else
        echo "differential: filter against pgn-extract skipped: pgn-extract not found (apt-get install pgn-extract)" >&2
    fi
}

side_by_side select select_checks
side_by_side tree "$py" scripts/tree_oracle.py --arbiter "$arbiter" --corpus ../shared/corpus \
    --max-games "${ARBITER_TREE_CORPUS_MAX:-3000}" \
    fixtures/tree/*.pgn fixtures/select/*.pgn fixtures/bench/*.pgn "$tmp/random.pgn"
side_by_side pgn-extract pgn_extract_checks
finish_side_by_side
exec "$py" scripts/oracle.py --arbiter "$arbiter" --quiet "${max_args[@]}" "${files[@]}"
