#!/usr/bin/env python3
"""Spark and Polars give arbiter's numbers (the command test.sh runs).

    python3 scripts/spark_test.py [ARBITER]

ARBITER defaults to $ARBITER, else target/debug/arbiter. On a few
fixtures (the sample, a week of TWIC, lichess's variants; one of them
compressed, as dumps are):

- Spark, in local[2] mode, one session for every check:
  - `arbiter split --games 300 --compress zst`, then
    scripts/spark/arbiter_spark.py's job: `stats --partial` of each shard
    on the executors (the binary shipped with the job), `arbiter merge` on
    the driver. The merged tables and `--json` are one `arbiter stats`
    run's, byte for byte;
  - Spark SQL over `arbiter db build`'s games: games by result and by
    variant equal the counts of `arbiter games`' records of the PGN, and a
    player's games equal `arbiter db search --player NAME --count`;
- Polars reads `DIR/games/*.parquet` with no options: as many rows as
  records, and the same games by result.

Polars and PySpark install with pip (`pip install polars pyspark`: about
500 MB; .ci/run installs them in the background while the build runs);
Spark needs a Java runtime (17 or later). Each check is skipped, saying so
on standard error, when its package (or java) is missing, unless
ARBITER_REQUIRE_SPARK=1 or ARBITER_REQUIRE_POLARS=1 makes that a failure;
ARBITER_SKIP_SPARK=1 skips the Spark checks, and says so.
"""

import collections
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts" / "spark"))
INPUTS = ["fixtures/sample.pgn", "fixtures/bench/twic1599.pgn", "fixtures/variants/lichess.pgn"]
PLAYER = "Praggnanandhaa,R"


def skip(what, variable):
    """Skips (or fails, with `variable`=1) because `what` is missing."""
    if os.environ.get(variable) == "1":
        sys.exit(f"spark_test: failed: {what} ({variable}=1)")
    print(f"spark_test: skipped: {what} (set {variable}=1 to make this a failure)",
          file=sys.stderr)


def check(label, condition, detail):
    if not condition:
        sys.exit(f"spark_test: {label}: {detail}")


def arbiter(binary, *args, stdin=None):
    """`arbiter args...`: its standard output, as bytes (status 0 required)."""
    done = subprocess.run([binary, *args], input=stdin, capture_output=True, cwd=ROOT)
    check("arbiter", done.returncode == 0,
          f"{' '.join(args)}: exit {done.returncode}: {done.stderr.decode(errors='replace')}")
    return done.stdout


def records(binary, inputs):
    return [json.loads(line) for line in
            arbiter(binary, "games", "-q", "--format", "jsonl", *inputs).splitlines()]


def spark_checks(binary, inputs, db, tmp, expected):
    import arbiter_spark
    from pyspark.sql import SparkSession
    started = time.monotonic()
    spark = (SparkSession.builder.master("local[2]").appName("arbiter spark_test")
             .config("spark.ui.enabled", "false")
             .config("spark.ui.showConsoleProgress", "false")
             .config("spark.sql.shuffle.partitions", "2")
             .getOrCreate())
    spark.sparkContext.setLogLevel("ERROR")
    try:
        shards = tmp / "shards"
        arbiter(binary, "split", "-q", "--games", "300", "--compress", "zst", *inputs,
                "-o", str(shards))
        partials = arbiter_spark.shard_partials(spark, str(shards), binary)
        check("spark stats", len(partials) == len(list(shards.iterdir())) > 3,
              f"{len(partials)} partials of {len(list(shards.iterdir()))} shards")
        for options in ([], ["--json"]):
            merged = arbiter_spark.merge(binary, [p for _, p in partials], options)
            once = arbiter(binary, "stats", "-q", *options, *inputs)
            check("spark stats", merged == once,
                  f"merged {options}:\n{merged.decode()}\none run:\n{once.decode()}")
        print(f"spark_test: spark: the merged stats of {len(partials)} shards are one "
              "`arbiter stats` run's, byte for byte (tables and --json)")

        by_result, by_variant, played = arbiter_spark.counts(spark, str(db), PLAYER)
        check("spark sql", by_result == expected["result"],
              f"by result: Spark {by_result}, arbiter {expected['result']}")
        check("spark sql", by_variant == expected["variant"],
              f"by variant: Spark {by_variant}, arbiter {expected['variant']}")
        check("spark sql", played == expected["player"] > 0,
              f"{PLAYER}'s games: Spark {played}, arbiter {expected['player']}")
        print(f"spark_test: spark: Spark SQL counts {sum(by_result.values())} games by result "
              f"and by variant ({len(by_variant)} variants) and {played} of {PLAYER}, "
              f"as arbiter does ({time.monotonic() - started:.1f} s)")
    finally:
        spark.stop()


def polars_checks(db, expected):
    import polars as pl
    games = pl.read_parquet(f"{db}/games/*.parquet")
    check("polars", games.height == sum(expected["result"].values()),
          f"{games.height} rows, {sum(expected['result'].values())} records")
    by_result = {r or "": n for r, n in
                 games.group_by("result").len().iter_rows()}
    check("polars", by_result == expected["result"],
          f"by result: Polars {by_result}, arbiter {expected['result']}")
    played = games.filter((pl.col("white") == PLAYER) | (pl.col("black") == PLAYER)).height
    check("polars", played == expected["player"], f"{PLAYER}: Polars {played}")
    print(f"spark_test: polars: {games.height} games read with no options, the same by result "
          f"and {played} of {PLAYER}")


def main():
    binary = (sys.argv[1] if len(sys.argv) > 1 else
              os.environ.get("ARBITER", str(ROOT / "target" / "debug" / "arbiter")))
    binary = str(Path(binary).resolve())
    try:
        import pyspark  # noqa: F401
        spark = os.environ.get("ARBITER_SKIP_SPARK") != "1"
        if spark and shutil.which("java") is None:
            skip("java is missing (a JRE 17 or later)", "ARBITER_REQUIRE_SPARK")
            spark = False
    except ImportError:
        spark = False
        if os.environ.get("ARBITER_SKIP_SPARK") != "1":
            skip("the pyspark Python package is missing", "ARBITER_REQUIRE_SPARK")
    if os.environ.get("ARBITER_SKIP_SPARK") == "1":
        print("spark_test: Spark skipped: ARBITER_SKIP_SPARK=1", file=sys.stderr)
    try:
        import polars  # noqa: F401
        use_polars = True
    except ImportError:
        use_polars = False
        skip("the polars Python package is missing", "ARBITER_REQUIRE_POLARS")
    if not (spark or use_polars):
        return
    with tempfile.TemporaryDirectory(prefix="arbiter-spark.") as tmp:
        tmp = Path(tmp)
        # One input compressed, as a lichess dump is.
        twic = tmp / "twic1599.pgn.zst"
        arbiter_zst = subprocess.run(["zstd", "-q", "-c", str(ROOT / INPUTS[1])],
                                     capture_output=True)
        inputs = INPUTS
        if arbiter_zst.returncode == 0:
            twic.write_bytes(arbiter_zst.stdout)
            inputs = [INPUTS[0], str(twic), INPUTS[2]]
        db = tmp / "db"
        arbiter(binary, "db", "build", "-q", *inputs, "-o", str(db))
        games = records(binary, inputs)
        expected = {
            "result": dict(collections.Counter(g.get("result") or "" for g in games)),
            "variant": dict(collections.Counter(g["variant"] for g in games)),
            "player": int(arbiter(binary, "db", "search", str(db), "--player", PLAYER,
                                  "--count").decode().strip()),
        }
        check("arbiter", expected["player"] == sum(
            PLAYER in (g.get("white"), g.get("black")) for g in games),
            f"{PLAYER}: {expected['player']} by --player, other spellings in the records")
        if use_polars:
            polars_checks(db, expected)
        if spark:
            spark_checks(binary, inputs, db, tmp, expected)


if __name__ == "__main__":
    main()
