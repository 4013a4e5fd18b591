#!/usr/bin/env bash
# Interleaved timing rounds, for ratios on a noisy machine.
#
#   scripts/rounds.sh [-n ROUNDS] 'LABEL=COMMAND' 'LABEL=COMMAND' ...
#
# Runs the commands one after another, in the order given, ROUNDS times
# (default 5): A B C A B C ... Each command's output is discarded and its
# exit status ignored (arbiter exits 1 when games have errors). Prints a
# Markdown table: each command's median wall time, and the median over the
# rounds of the first command's time divided by its time, i.e. how many
# times faster than the first command it ran in the same round. Drift of the
# machine's speed (a VM here drifts by a third within minutes) cancels
# out within a round, so per-round ratios are steadier than ratios of
# medians taken minutes apart, which is what scripts/bench.sh's rows are.
#
# Example (the targets of issue 3: arbiter against pgn-reader's examples,
# as scripts/bench.sh builds them):
#   ex=~/.cache/arbiter-bench/pgn-reader-0.29.0-examples/target/release
#   scripts/rounds.sh -n 7 "pgn-reader validate=$ex/validate masters.pgn" \
#       "parallel_validate=$ex/parallel_validate masters.pgn" \
#       "arbiter validate=target/release/arbiter validate -q masters.pgn"
set -euo pipefail

usage() {
    echo "usage: scripts/rounds.sh [-n ROUNDS] 'LABEL=COMMAND' ..." >&2
    exit 2
}

rounds=5
if [ "${1:-}" = "-n" ]; then
    rounds=${2:-}
    shift 2 || usage
fi
[[ $rounds =~ ^[1-9][0-9]*$ ]] || usage
[ $# -gt 0 ] || usage

times=$(mktemp)
trap 'rm -f "$times" "$times.one"' EXIT
for round in $(seq "$rounds"); do
    for index in $(seq 0 $(($# - 1))); do
        spec=${*:$((index + 1)):1}
        command=${spec#*=}
        /usr/bin/time -f %e -o "$times.one" sh -c "$command" >/dev/null 2>&1 || true
        printf '%s\t%s\t%s\n' "$round" "$index" "$(tail -n 1 "$times.one")" >>"$times"
        echo "rounds: round $round/$rounds: ${spec%%=*}: $(tail -n 1 "$times.one") s" >&2
    done
done
labels=()
for spec in "$@"; do
    labels+=("${spec%%=*}")
done
python3 - "$times" "${labels[@]}" <<'EOF'
import statistics
import sys

path, labels = sys.argv[1], sys.argv[2:]
seconds = {}
for line in open(path):
    round_, index, wall = line.split("\t")
    seconds.setdefault(int(index), {})[int(round_)] = float(wall)
first = seconds[0]
print(f"| command | median wall s | range | speed against {labels[0]} (median of per-round ratios) |")
print("|---|--:|--:|--:|")
for index, label in enumerate(labels):
    walls = seconds[index]
    # /usr/bin/time has 10 ms steps: a round where either run took less
    # has no ratio.
    ratios = [first[r] / walls[r] for r in walls if walls[r] > 0 and first[r] > 0]
    speed = f"{statistics.median(ratios):.3f}x" if ratios else "n/a"
    print(
        f"| {label} | {statistics.median(walls.values()):.2f} "
        f"| {min(walls.values()):.2f}-{max(walls.values()):.2f} | {speed} |"
    )
print(f"\n{len(first)} rounds.")
EOF
