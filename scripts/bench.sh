#!/usr/bin/env bash
# Side-by-side throughput of arbiter and its peers, as Markdown tables.
#
#   scripts/bench.sh [-n RUNS] [--python-games N] FILE [FILE...]
#
# For each FILE (plain PGN, or .zst / .gz / .bz2) prints one table whose
# rows are the same work done by different tools on that file, run one
# after the other in this invocation:
#
#   cat FILE > /dev/null, grep -F -c "[Event " FILE   speed-of-light references
#   zstd -dc / gzip -dc / bzip2 -dc FILE > /dev/null  decompression reference
#                                                     (compressed input only)
#   arbiter validate --jobs 1 -q FILE                 one worker thread
#   arbiter validate -q FILE                          all cores
#   arbiter stats -q FILE                             once `arbiter stats` exists
#   arbiter tree -q FILE, and --depth 8               once `arbiter tree` exists
#   pgn-reader 0.29 examples: stats (parse only,      built from the crates.io
#     the parsing floor), validate, parallel_validate crate, never committed
#   pgn-extract -r -s FILE                            Debian package
#   python-chess on the first N games (default 20000) read_game + replay
#
# Columns: wall time (median of RUNS runs, default 3; the range shows the
# noise), CPU time (user + system, median), games/s, MiB/s of the
# uncompressed PGN (MiB = 2^20 bytes), MiB/s of the compressed file for rows
# that read it compressed, and peak RSS (the largest `/usr/bin/time -f %M`
# over the runs; for a memory-mapped input this includes the file pages the
# process touched). Rates are per wall second. On a busy machine CPU time
# is the steadier figure: wall time then also measures the other load.
#
# Games are counted once per file, as the lines that begin with `[Event `
# (`grep -c '^\[Event '` on the uncompressed text); every rate divides by
# that count, whatever each tool itself counts. Games without an Event tag
# are therefore not counted.
#
# Compressed input: arbiter reads .zst/.gz/.bz2 itself and pgn-reader's
# examples read .zst, so those rows run on FILE as given; every other row
# runs on a decompressed copy in a temporary directory (the `input` column
# says which). Rows for python-chess run on a prefix file holding the
# first N games, and its rates are for that prefix.
#
# Each command's standard output goes to a temporary file, not /dev/null:
# GNU grep stops at the first match when its output is /dev/null. The two
# `> /dev/null` rows say so in their names (run through `sh -c`).
#
# Exit statuses: arbiter and the pgn-reader validators exit 1 when games
# have errors; that is a result, not a failure. A tool that cannot be
# built, installed or run gets a row saying so, and the script goes on.
#
# Environment:
#   ARBITER=/path/to/arbiter  use this binary instead of `cargo build --release`
#   BENCH_RUNS=N              same as -n
#   BENCH_PYTHON_GAMES=N      same as --python-games (0 = skip python-chess)
#   PYTHON=python3            the interpreter with python-chess
#   XDG_CACHE_HOME            pgn-reader's examples are built under
#                             ${XDG_CACHE_HOME:-~/.cache}/arbiter-bench
#   TMPDIR                    where decompressed copies go
#
# Progress goes to standard error, the tables to standard output:
#   scripts/bench.sh big.pgn.zst > benches/runs/$(date +%F)-$(hostname).md
set -uo pipefail

usage() { sed -n '2,/^set -uo/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//'; }

args=("$@")
runs=${BENCH_RUNS:-3}
py_games=${BENCH_PYTHON_GAMES:-20000}
py=${PYTHON:-python3}
files=()
while (($#)); do
    case $1 in
        -n | --runs) runs=${2:?}; shift 2 ;;
        --python-games) py_games=${2:?}; shift 2 ;;
        -h | --help) usage; exit 0 ;;
        --) shift; files+=("$@"); break ;;
        -*) echo "bench: unknown option $1" >&2; usage >&2; exit 2 ;;
        *) files+=("$1"); shift ;;
    esac
done
if ((${#files[@]} == 0)); then
    usage >&2
    exit 2
fi
if ! [[ $runs =~ ^[1-9][0-9]*$ && $py_games =~ ^[0-9]+$ ]]; then
    echo "bench: RUNS must be >= 1 and --python-games >= 0" >&2
    exit 2
fi
for f in "${files[@]}"; do
    [[ -r $f ]] || { echo "bench: cannot read $f" >&2; exit 2; }
done
cmdline="scripts/bench.sh $(printf '%q ' "${args[@]}")"
cmdline=${cmdline% }

repo=$(cd "$(dirname "$0")/.." && pwd)
cache=${XDG_CACHE_HOME:-$HOME/.cache}/arbiter-bench
tmp=$(mktemp -d "${TMPDIR:-/tmp}/arbiter-bench.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

log() { printf 'bench: %s\n' "$*" >&2; }
# Last non-empty line of a file, for reasons, one line and short.
last_line() { grep -v '^[[:space:]]*$' "$1" 2>/dev/null | tail -n 1 | tr '|' '/' | cut -c1-160; }

# ---------------------------------------------------------------- tools

ensure_apt() { # ensure_apt COMMAND PACKAGE
    command -v "$1" >/dev/null 2>&1 && return 0
    [[ -x /usr/games/$1 ]] && return 0
    log "installing $2 with apt-get"
    { apt-get install -y -q "$2" || { apt-get update -q && apt-get install -y -q "$2"; }; } \
        >"$tmp/apt.log" 2>&1
}

if ! [[ -x /usr/bin/time ]]; then
    ensure_apt /usr/bin/time time
fi
if ! [[ -x /usr/bin/time ]]; then
    echo "bench: /usr/bin/time (Debian package time) is missing and could not be installed" >&2
    exit 2
fi

# arbiter: $arbiter or the reason it is unavailable in $arbiter_why.
arbiter=${ARBITER:-}
arbiter_why=
arbiter_rev=
if [[ -n $arbiter ]]; then
    [[ -x $arbiter ]] || arbiter_why="ARBITER=$arbiter is not executable"
else
    log "cargo build --release (arbiter)"
    if (cd "$repo" && cargo build --release --quiet) >"$tmp/arbiter-build.log" 2>&1; then
        arbiter=${CARGO_TARGET_DIR:-$repo/target}/release/arbiter
        [[ $arbiter = /* ]] || arbiter=$repo/$arbiter
    else
        arbiter_why="cargo build --release failed: $(last_line "$tmp/arbiter-build.log")"
    fi
    arbiter_rev=$(cd "$repo" && git describe --always --dirty 2>/dev/null)
fi
arbiter_tree=0
if [[ -z $arbiter_why ]] && "$arbiter" tree --help >/dev/null 2>&1; then
    arbiter_tree=1
fi
arbiter_stats=0
if [[ -z $arbiter_why ]] && "$arbiter" stats --help >/dev/null 2>&1; then
    arbiter_stats=1
fi

# pgn-reader 0.29.0's examples, built from the crates.io crate in the cache.
pr_dir=$cache/pgn-reader-0.29.0-examples
pr_bin=$pr_dir/target/release
pr_why=
build_pgn_reader() {
    mkdir -p "$pr_dir/src/bin" || { pr_why="cannot create $pr_dir"; return; }
    cat >"$pr_dir/Cargo.toml" <<'EOF'
# Throwaway package: pgn-reader 0.29.0's examples, built by arbiter's
# scripts/bench.sh with arbiter's release profile. Not part of arbiter.
[package]
name = "pgn-reader-examples"
version = "0.0.0"
edition = "2024"
publish = false

[dependencies]
pgn-reader = "=0.29.0"
shakmaty = "0.30"
zstd = "0.13"
crossbeam = "0.8"

[profile.release]
codegen-units = 1
lto = "thin"

[workspace]
EOF
    [[ -f $pr_dir/src/main.rs ]] || echo 'fn main() {}' >"$pr_dir/src/main.rs"
    local cargo_home=${CARGO_HOME:-$HOME/.cargo} src
    src=$(find "$cargo_home/registry/src" -maxdepth 2 -type d -name pgn-reader-0.29.0 2>/dev/null | head -n 1)
    if [[ -z $src ]]; then
        log "fetching pgn-reader 0.29.0"
        (cd "$pr_dir" && cargo fetch --quiet) >"$tmp/pr-fetch.log" 2>&1 ||
            { pr_why="cargo fetch failed: $(last_line "$tmp/pr-fetch.log")"; return; }
        src=$(find "$cargo_home/registry/src" -maxdepth 2 -type d -name pgn-reader-0.29.0 2>/dev/null | head -n 1)
        if [[ -z $src ]]; then
            local crate
            crate=$(find "$cargo_home/registry/cache" -maxdepth 2 -name pgn-reader-0.29.0.crate 2>/dev/null | head -n 1)
            [[ -n $crate ]] || { pr_why="pgn-reader-0.29.0.crate not found after cargo fetch"; return; }
            tar -xzf "$crate" -C "$pr_dir" || { pr_why="cannot unpack $crate"; return; }
            src=$pr_dir/pgn-reader-0.29.0
        fi
    fi
    local ex
    for ex in validate parallel_validate stats; do
        [[ -f $src/examples/$ex.rs ]] || { pr_why="$src/examples/$ex.rs missing"; return; }
        cmp -s "$src/examples/$ex.rs" "$pr_dir/src/bin/$ex.rs" ||
            cp "$src/examples/$ex.rs" "$pr_dir/src/bin/$ex.rs"
    done
    log "cargo build --release (pgn-reader 0.29.0 examples in $pr_dir)"
    (cd "$pr_dir" && cargo build --release --quiet --bins) >"$tmp/pr-build.log" 2>&1 ||
        pr_why="build failed: $(last_line "$tmp/pr-build.log")"
}
build_pgn_reader

# pgn-extract (Debian installs it in /usr/games).
pgn_extract=
pe_why=
ensure_apt pgn-extract pgn-extract
if command -v pgn-extract >/dev/null 2>&1; then
    pgn_extract=$(command -v pgn-extract)
elif [[ -x /usr/games/pgn-extract ]]; then
    pgn_extract=/usr/games/pgn-extract
else
    pe_why="apt-get install pgn-extract failed: $(last_line "$tmp/apt.log")"
fi

# python-chess.
py_why=
if ((py_games > 0)) && ! "$py" -c 'import chess.pgn' >/dev/null 2>&1; then
    log "installing python-chess with pip"
    "$py" -m pip install --quiet chess >"$tmp/pip.log" 2>&1 ||
        py_why="pip install chess failed: $(last_line "$tmp/pip.log")"
fi
((py_games > 0)) || py_why="skipped (--python-games 0)"
cat >"$tmp/replay.py" <<'EOF'
# Reads every game with chess.pgn.read_game (which parses each SAN on a
# board) and replays its mainline on a fresh board.
import sys

import chess.pgn

games = errors = plies = 0
with open(sys.argv[1], encoding="utf-8", errors="replace") as f:
    while (game := chess.pgn.read_game(f)) is not None:
        games += 1
        errors += bool(game.errors)
        board = game.board()
        for move in game.mainline_moves():
            board.push(move)
            plies += 1
print(f"{games} games, {errors} with errors, {plies} plies")
EOF

# ---------------------------------------------------------------- header

cpu=$(grep -m 1 '^model name' /proc/cpuinfo 2>/dev/null | cut -d: -f2- | sed 's/^ *//')
mem=$(awk '/^MemTotal/ { printf "%.1f GiB", $2 / 1048576 }' /proc/meminfo 2>/dev/null)
echo "# arbiter benchmark"
echo
echo "- command: \`$cmdline\` (from \`$repo\`)"
echo "- date: $(date -u '+%Y-%m-%d %H:%M UTC'), host: $(hostname)"
echo "- machine: $(nproc) cores ($cpu), $mem RAM; load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "- rustc: $(rustc --version 2>/dev/null || echo unknown)"
if [[ -z $arbiter_why ]]; then
    echo "- arbiter: \`$arbiter\` ($("$arbiter" --version 2>/dev/null)${arbiter_rev:+, built from $arbiter_rev})"
else
    echo "- arbiter: unavailable ($arbiter_why)"
fi
echo "- pgn-reader 0.29.0 examples: ${pr_why:-built from the crates.io crate in \`$pr_dir\` (release, codegen-units=1, lto=thin, as arbiter)}"
echo "- pgn-extract: ${pe_why:-$(dpkg-query -W -f '${Version}' pgn-extract 2>/dev/null || echo "$pgn_extract")}"
if [[ -z $py_why ]]; then
    echo "- python-chess: $("$py" -c 'import chess, sys; print(chess.__version__, "on Python", sys.version.split()[0])' 2>/dev/null)"
else
    echo "- python-chess: $py_why"
fi
echo "- wall: median of $runs runs (range: fastest-slowest); CPU: user + system, median; games counted once with \`grep -c '^\\[Event '\`; MiB/s of the uncompressed PGN, and of the compressed file where the tool read it compressed; peak RSS: largest \`/usr/bin/time -f %M\` of the runs"

# ---------------------------------------------------------------- measuring

# Per file; set by bench_file.
games=0 plain_bytes=0 packed_bytes=0

# measure OK_STATUSES CMD...: runs CMD $runs times; sets m_med, m_min,
# m_max (wall seconds), m_cpu (median user + system seconds), m_rss (KiB),
# or m_fail with the reason.
measure() {
    local ok=$1
    shift
    local times=() cpus=() rss=0 i t0 t1 rc r u s
    m_fail=
    for ((i = 0; i < runs; i++)); do
        t0=$(date +%s%N)
        /usr/bin/time -f '%M %U %S' -o "$tmp/time.out" "$@" >"$tmp/stdout" 2>"$tmp/stderr"
        rc=$?
        t1=$(date +%s%N)
        if ! [[ " $ok " == *" $rc "* ]]; then
            local why
            why=$(last_line "$tmp/stderr")
            m_fail="failed: exit $rc${why:+: $why}"
            return 1
        fi
        times+=("$(((t1 - t0) / 1000))")
        read -r r u s < <(tail -n 1 "$tmp/time.out")
        [[ $r =~ ^[0-9]+$ ]] && ((r > rss)) && rss=$r
        cpus+=("$(awk -v u="$u" -v s="$s" 'BEGIN { print u + s }')")
    done
    read -r m_med m_min m_max < <(printf '%s\n' "${times[@]}" | sort -n | awk '
        { t[NR] = $1 / 1e6 }
        END {
            med = NR % 2 ? t[(NR + 1) / 2] : (t[NR / 2] + t[NR / 2 + 1]) / 2
            printf "%.3f %.3f %.3f\n", med, t[1], t[NR]
        }')
    m_cpu=$(printf '%s\n' "${cpus[@]}" | sort -g | awk '
        { t[NR] = $1 }
        END { printf "%.2f\n", NR % 2 ? t[(NR + 1) / 2] : (t[NR / 2] + t[NR / 2 + 1]) / 2 }')
    m_rss=$rss
}

# row TOOL INPUT_NOTE RATE_GAMES RATE_BYTES PACKED_BYTES OK_STATUSES CMD...
# PACKED_BYTES is 0 unless the command reads the compressed file.
row() {
    local tool=$1 input=$2 g=$3 bytes=$4 packed=$5 ok=$6
    shift 6
    log "$tool ($input)"
    if ! measure "$ok" "$@"; then
        printf '| %s | %s | %s | | | | | | |\n' "$tool" "$input" "$m_fail"
        return
    fi
    awk -v tool="$tool" -v input="$input" -v g="$g" -v b="$bytes" -v p="$packed" \
        -v med="$m_med" -v lo="$m_min" -v hi="$m_max" -v cpu="$m_cpu" -v rss="$m_rss" '
        function commas(n,   s) {
            s = sprintf("%.0f", n)
            while (s ~ /[0-9][0-9][0-9][0-9]/) sub(/[0-9][0-9][0-9]($|,)/, ",&", s)
            return s
        }
        BEGIN {
            mib = 1048576
            t = med > 0 ? med : 0.001
            printf "| %s | %s | %.3f | %.3f-%.3f | %.2f | %s | %.1f | %s | %.1f |\n", tool, input, med, lo, hi, cpu,
                commas(g / t), b / mib / t, (p > 0 ? sprintf("%.1f", p / mib / t) : ""), rss / 1024
        }'
}

na() { # na TOOL INPUT REASON
    log "$1: $3"
    printf '| %s | %s | %s | | | | | | |\n' "$1" "$2" "$3"
}

bench_file() {
    local file=$1 name plain decompress=
    name=$(basename "$file")
    case $file in
        *.zst) decompress="zstd -dc" ;;
        *.gz) decompress="gzip -dc" ;;
        *.bz2) decompress="bzip2 -dc" ;;
    esac
    plain=$file
    packed_bytes=0
    if [[ -n $decompress ]]; then
        plain=$tmp/${name%.*}
        log "decompressing $file to $plain"
        if ! $decompress "$file" >"$plain"; then
            echo
            echo "## $file"
            echo
            echo "cannot decompress $file with $decompress; skipped"
            return
        fi
        packed_bytes=$(stat -c %s "$file")
    fi
    plain_bytes=$(stat -c %s "$plain")
    games=$(grep -c '^\[Event ' "$plain")
    cat "$plain" >/dev/null # warm the page cache before the first timing

    echo
    echo "## \`$file\`"
    echo
    printf -- '- %s games (`[Event ` lines), %.1f MiB uncompressed' "$games" \
        "$(awk -v b="$plain_bytes" 'BEGIN { print b / 1048576 }')"
    if ((packed_bytes > 0)); then
        printf ', %.1f MiB compressed (%s)' "$(awk -v b="$packed_bytes" 'BEGIN { print b / 1048576 }')" \
            "${file##*.}"
    fi
    echo
    echo
    echo "| tool | input | wall s (median) | range s | CPU s | games/s | MiB/s | compressed MiB/s | peak RSS MiB |"
    echo "|---|---|--:|--:|--:|--:|--:|--:|--:|"

    # Inputs as each kind of tool reads them.
    local raw="plain" dec="plain" raw_packed=0 pr_in=$plain pr_note="plain" pr_packed=0
    if [[ -n $decompress ]]; then
        raw="${file##*.} (compressed)"
        dec="decompressed copy"
        raw_packed=$packed_bytes
        if [[ $file == *.zst ]]; then
            pr_in=$file pr_note=$raw pr_packed=$packed_bytes
        else
            pr_note=$dec
        fi
    fi

    row 'cat > /dev/null' "$dec" "$games" "$plain_bytes" 0 0 \
        sh -c 'exec cat -- "$1" >/dev/null' sh "$plain"
    row 'grep -F -c "[Event "' "$dec" "$games" "$plain_bytes" 0 "0 1" grep -F -c "[Event " "$plain"
    if [[ -n $decompress ]]; then
        row "$decompress > /dev/null" "$raw" "$games" "$plain_bytes" "$raw_packed" 0 \
            sh -c "exec $decompress -- \"\$1\" >/dev/null" sh "$file"
    fi

    local jobs_all
    jobs_all=$(nproc)
    if [[ -z $arbiter_why ]]; then
        row 'arbiter validate --jobs 1 -q' "$raw" "$games" "$plain_bytes" "$raw_packed" "0 1" \
            "$arbiter" validate --jobs 1 -q "$file"
        row "arbiter validate -q ($jobs_all threads)" "$raw" "$games" "$plain_bytes" "$raw_packed" "0 1" \
            "$arbiter" validate -q "$file"
        if ((arbiter_stats)); then
            row "arbiter stats -q ($jobs_all threads)" "$raw" "$games" "$plain_bytes" "$raw_packed" "0 1" \
                "$arbiter" stats -q "$file"
        else
            na 'arbiter stats' "$raw" 'n/a (no stats command yet)'
        fi
        if ((arbiter_tree)); then
            row "arbiter tree -q ($jobs_all threads)" "$raw" "$games" "$plain_bytes" "$raw_packed" 0 \
                "$arbiter" tree -q "$file"
            row "arbiter tree -q --depth 8 ($jobs_all threads)" "$raw" "$games" "$plain_bytes" \
                "$raw_packed" 0 "$arbiter" tree -q --depth 8 "$file"
        else
            na 'arbiter tree' "$raw" 'n/a (no tree command yet)'
        fi
    else
        na 'arbiter validate --jobs 1 -q' "$raw" "unavailable: $arbiter_why"
        na 'arbiter validate -q' "$raw" "unavailable: $arbiter_why"
        na 'arbiter stats' "$raw" "unavailable: $arbiter_why"
        na 'arbiter tree' "$raw" "unavailable: $arbiter_why"
    fi

    if [[ -z $pr_why ]]; then
        row 'pgn-reader 0.29 example stats (parse only)' "$pr_note" "$games" "$plain_bytes" "$pr_packed" 0 \
            "$pr_bin/stats" "$pr_in"
        row 'pgn-reader 0.29 example validate (1 thread)' "$pr_note" "$games" "$plain_bytes" "$pr_packed" "0 1" \
            "$pr_bin/validate" "$pr_in"
        row 'pgn-reader 0.29 example parallel_validate (1 reader + 3 workers)' "$pr_note" "$games" \
            "$plain_bytes" "$pr_packed" "0 1" "$pr_bin/parallel_validate" "$pr_in"
    else
        local ex
        for ex in stats validate parallel_validate; do
            na "pgn-reader 0.29 example $ex" "$pr_note" "unavailable: $pr_why"
        done
    fi

    if [[ -n $pgn_extract ]]; then
        row 'pgn-extract -r -s' "$dec" "$games" "$plain_bytes" 0 "0 1" "$pgn_extract" -r -s "$plain"
    else
        na 'pgn-extract -r -s' "$dec" "unavailable: $pe_why"
    fi

    if [[ -z $py_why ]]; then
        # The prefix ends where game py_games + 1 begins.
        local cut py_n py_bytes prefix=$tmp/python-prefix.pgn
        cut=$(grep -b -m "$((py_games + 1))" '^\[Event ' "$plain" | tail -n 1 | cut -d: -f1)
        if ((games > py_games)) && [[ -n $cut ]]; then
            head -c "$cut" "$plain" >"$prefix"
            py_n=$py_games
        else
            cp "$plain" "$prefix"
            py_n=$games
        fi
        py_bytes=$(stat -c %s "$prefix")
        row "python-chess $("$py" -c 'import chess; print(chess.__version__)') read_game + replay" \
            "first $py_n games, $(awk -v b="$py_bytes" 'BEGIN { printf "%.1f", b / 1048576 }') MiB, plain" \
            "$py_n" "$py_bytes" 0 0 "$py" "$tmp/replay.py" "$prefix"
        rm -f "$prefix"
    else
        na 'python-chess read_game + replay' "first $py_games games" "$py_why"
    fi
    [[ $plain == "$file" ]] || rm -f "$plain"
}

for f in "${files[@]}"; do
    bench_file "$f"
done
echo
echo "Load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)."
