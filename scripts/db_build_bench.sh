#!/usr/bin/env bash
# `db build` against `validate`, on the same file, interleaved: for each
# round and each FILE, `validate`, `db build` (`build`) and `db build
# --positions=40` (`build40`) of each binary, one after the other, each
# database into an empty directory. Prints one line a run (tab-separated:
# binary, file, command, wall s, user+sys s, peak RSS KB), then the
# medians (and the largest peak RSS) in the order first run.
#
#   scripts/db_build_bench.sh [-n ROUNDS] BINARY[,BINARY...] FILE...
#
# Several binaries (comma-separated) compare builds side by side: on a
# shared machine, only runs interleaved in one script compare.
set -euo pipefail
rounds=3
if [[ ${1:-} == -n ]]; then rounds=$2; shift 2; fi
IFS=, read -r -a binaries <<<"${1:?binaries}"
shift
(($#)) || { echo "usage: $0 [-n ROUNDS] BINARY[,BINARY...] FILE..." >&2; exit 2; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/db_build_bench.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
runs=$tmp/runs.tsv
measure() { # label file name command...
    local label=$1 file=$2 name=$3
    shift 3
    rm -rf "$tmp/db"
    # Exit status 1 (games with errors) is a result, not a failure.
    /usr/bin/time -o "$tmp/time" -f '%e %U %S %M' "$@" >/dev/null 2>"$tmp/err" || true
    # The last line: a failing command's first says how it exited.
    read -r wall user sys rss < <(tail -n 1 "$tmp/time")
    printf '%s\t%s\t%s\t%s\t%.2f\t%s\n' "$label" "$(basename "$file")" "$name" \
        "$wall" "$(echo "$user + $sys" | bc)" "$rss" | tee -a "$runs"
}
for ((round = 1; round <= rounds; round++)); do
    for file in "$@"; do
        for bin in "${binaries[@]}"; do
            label=$(basename "$bin")
            measure "$label" "$file" validate "$bin" validate -q "$file"
            measure "$label" "$file" build "$bin" db build -q -o "$tmp/db" "$file"
            measure "$label" "$file" build40 "$bin" db build -q --positions=40 -o "$tmp/db" "$file"
        done
    done
done
echo
echo "medians of $rounds: binary, file, command, wall s, CPU s, peak RSS KB (largest)"
awk -F'\t' '
    function median(list,   n, a, i, j, t) {
        n = split(list, a, " ")
        for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
        return a[int((n + 1) / 2)]
    }
    { key = $1 "\t" $2 "\t" $3; wall[key] = wall[key] " " $4; cpu[key] = cpu[key] " " $5
      if ($6 > rss[key]) rss[key] = $6; if (!(key in seen)) { seen[key] = 1; order[++n] = key } }
    END { for (i = 1; i <= n; i++) { k = order[i]; printf "%s\t%s\t%s\t%s\n", k, median(wall[k]), median(cpu[k]), rss[k] } }' "$runs"
