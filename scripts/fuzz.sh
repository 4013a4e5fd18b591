#!/usr/bin/env bash
# Fuzzing: runs each cargo-fuzz target of fuzz/ (see fuzz/README.md) for a
# given time, from a corpus seeded with the fixtures and, when present, the
# shared edge corpus (../shared/corpus/edge), and with the reproducers of
# past crashes (fuzz/regressions/TARGET).
#
#   scripts/fuzz.sh [SECONDS_PER_TARGET] [TARGET...]
#
# Defaults: 60 seconds, every target. A long run: scripts/fuzz.sh 3600.
# Needs a nightly toolchain (cargo +nightly) and cargo-fuzz (cargo install
# cargo-fuzz --locked). The corpus grows in fuzz/corpus/TARGET and is kept
# from run to run; logs go to fuzz/logs, reproducers to fuzz/artifacts
# (none of them is committed).
#
# Exits 1 if a target crashed (a panic, one input running longer than
# FUZZ_TIMEOUT seconds, default 20, or the process growing past
# FUZZ_RSS_MB, default 2048), after printing each reproducer's path and
# what it does; 2 if the fuzzers cannot be built or run.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=${1:-60}
[ $# -gt 0 ] && shift
if ! [[ $seconds =~ ^[1-9][0-9]*$ ]]; then
    echo "fuzz: SECONDS_PER_TARGET must be a positive number, not '$seconds'" >&2
    exit 2
fi
# Games longer than this are rare; longer inputs only slow each run down.
max_len=65536
timeout=${FUZZ_TIMEOUT:-20}
rss_mb=${FUZZ_RSS_MB:-2048}
# No sanitizer: the code fuzzed is safe Rust (the only unsafe code maps
# files), and AddressSanitizer would halve the runs. Debug assertions and
# overflow checks on, as in the tests.
build=(--sanitizer none --debug-assertions)

# RUSTUP_AUTO_INSTALL=0: a missing nightly is said, not downloaded.
if ! RUSTUP_AUTO_INSTALL=0 cargo +nightly --version >/dev/null 2>&1; then
    echo "fuzz: no nightly toolchain (cargo +nightly), which cargo-fuzz needs" >&2
    exit 2
fi
if ! cargo fuzz --version >/dev/null 2>&1; then
    echo "fuzz: cargo-fuzz missing: cargo install cargo-fuzz --locked" >&2
    exit 2
fi

# The dependencies arbiter ships with: the fuzz workspace starts from the
# main lockfile, to which cargo adds libfuzzer-sys and what it needs
# (fuzz/Cargo.lock is not committed, so that it never lags behind).
cp Cargo.lock fuzz/Cargo.lock
cargo +nightly fuzz build "${build[@]}" || exit 2
if [ $# -gt 0 ]; then
    targets=("$@")
else
    mapfile -t targets < <(cargo +nightly fuzz list)
fi

# Seeds: each fixture and edge-corpus file, cut to its whole games within
# 16 KiB, or, when its first game is longer, within max_len bytes (the
# fuzzer would cut it anywhere); made anew each run. Small seeds keep the
# runs fast (a target replays its input several times), and the fuzzer
# grows inputs up to max_len; the long ones cross pgn-reader's 16 KiB
# buffer.
edge=../shared/corpus/edge
sources=(fixtures)
if [ -d "$edge" ]; then
    sources+=("$edge")
else
    echo "fuzz: $edge not found: seeding with the fixtures only" >&2
fi
rm -rf fuzz/seeds
mkdir -p fuzz/seeds fuzz/logs
python3 - "$max_len" fuzz/seeds "${sources[@]}" <<'EOF'
import pathlib, sys
max_len, out, sources = int(sys.argv[1]), pathlib.Path(sys.argv[2]), sys.argv[3:]
count = 0
for source in sources:
    for path in sorted(pathlib.Path(source).rglob("*.pgn")):
        data = path.read_bytes()
        for limit in (16384, max_len):
            if len(data) <= limit:
                break
            # Up to the last game that begins within the limit (after a
            # blank line, LF or CRLF).
            lf, crlf = data.rfind(b"\n\n[", 0, limit), data.rfind(b"\n\r\n[", 0, limit)
            cut = max(lf + 2 if lf >= 0 else 0, crlf + 3 if crlf >= 0 else 0)
            if cut > 0:
                data = data[:cut]
                break
        data = data[:max_len]
        name = str(path.relative_to(source)).replace("/", "__")
        (out / f"{pathlib.Path(source).name}__{name}").write_bytes(data)
        count += 1
print(f"fuzz: {count} seeds from {', '.join(sources)}")
EOF

failed=()
for target in "${targets[@]}"; do
    corpus=fuzz/corpus/$target
    artifacts=fuzz/artifacts/$target
    log=fuzz/logs/$target.log
    mkdir -p "$corpus" "$artifacts"
    dirs=("$corpus" fuzz/seeds)
    [ -d "fuzz/regressions/$target" ] && dirs+=("fuzz/regressions/$target")
    started=$(mktemp)
    # Standard error closed (-close_fd_mask=2): `fmt` prints a line for
    # each game it copies unformatted; libFuzzer's own report still shows.
    # A crash's panic message is printed below, by running its reproducer.
    status=0
    cargo +nightly fuzz run "${build[@]}" "$target" "${dirs[@]}" -- \
        -max_total_time="$seconds" -max_len="$max_len" -timeout="$timeout" \
        -rss_limit_mb="$rss_mb" -dict=fuzz/pgn.dict -close_fd_mask=2 \
        -print_final_stats=1 >"$log" 2>&1 || status=$?
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
    rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")
    size=$(find "$corpus" -type f | wc -l)
    echo "fuzz: $target: ${seconds} s, ${runs:-?} runs (${rate:-?}/s), corpus of $size inputs (log: $log)"
    mapfile -t found < <(find "$artifacts" -type f -newer "$started" \
        \( -name 'crash-*' -o -name 'timeout-*' -o -name 'oom-*' -o -name 'leak-*' \))
    rm -f "$started"
    if [ "$status" -eq 0 ] && [ ${#found[@]} -eq 0 ]; then
        continue
    fi
    failed+=("$target")
    echo "fuzz: $target FAILED (exit status $status); libFuzzer's report ($log):" >&2
    grep -E '^==[0-9]+==|SUMMARY|Test unit written|^MS:' "$log" | tail -n 10 >&2 || true
    for reproducer in "${found[@]}"; do
        echo "fuzz: $target: reproducer $reproducer ($(wc -c <"$reproducer") bytes), base64 (its first 3 KiB):" >&2
        head -c 3072 "$reproducer" | base64 -w 0 >&2
        echo >&2
        echo "fuzz: $target: run again (cargo +nightly fuzz run ${build[*]} $target $reproducer):" >&2
        again=$(cargo +nightly fuzz run "${build[@]}" "$target" "$reproducer" 2>&1 || true)
        # The panic and its backtrace; a time-out or an out-of-memory has
        # no panic: then libFuzzer's last words.
        what=$(sed -n '/panicked at/,/ERROR: libFuzzer/p' <<<"$again" | head -n 40)
        [ -n "$what" ] || what=$(grep -E '^==[0-9]+==|SUMMARY' <<<"$again" | tail -n 10)
        echo "$what" >&2
        echo "fuzz: minimise it with: cargo +nightly fuzz tmin ${build[*]} $target $reproducer" >&2
    done
done
if [ ${#failed[@]} -gt 0 ]; then
    echo "fuzz: crashed: ${failed[*]} (once fixed, add each reproducer to fuzz/regressions/TARGET/)" >&2
    exit 1
fi
echo "fuzz: no crash in ${targets[*]}"
