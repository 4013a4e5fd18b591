#!/usr/bin/env python3
"""arbiter on Spark: exact statistics of PGN shards, and Spark SQL over a
database that `arbiter db build` wrote.

    spark-submit scripts/spark/arbiter_spark.py stats SHARDS_DIR [ARBITER] [-- STATS OPTIONS]
    spark-submit scripts/spark/arbiter_spark.py sql DB_DIR [PLAYER]

`stats`: the map step runs `arbiter stats --partial -` on each shard that
`arbiter split --games N FILE -o SHARDS_DIR` wrote (plain or `.zst`), on
the executors, the binary shipped with the job (`SparkContext.addFile`:
give the path of a Linux build, `cargo build --release`); the reduce step
is `arbiter merge` on the driver. Every statistic is an exact count, so
the output is byte for byte that of one `arbiter stats` over the whole
file. Shards are read with `binaryFiles` (any file system Spark reads:
local, HDFS, S3): each is held whole by one task, so choose N for shards
of tens of MB (100,000 lichess games are about 100 MB, 25 MB as `.zst`).

`sql`: the games table as a Spark DataFrame (`spark.read.parquet`, no
option), and the counts scripts/spark_test.py compares with arbiter's:
games by result, by variant, and one player's games.
"""

import os
import subprocess
import sys
import tempfile

from pyspark import SparkFiles


def shard_partials(spark, shards_dir, arbiter, stats_args=()):
    """`arbiter stats --partial -` of each shard of `shards_dir`, run on the
    executors: a list of (shard path, partial) sorted by path."""
    sc = spark.sparkContext
    sc.addFile(arbiter)
    name = os.path.basename(arbiter)
    args = list(stats_args)

    def partials(shards):
        binary = SparkFiles.get(name)
        # addFile keeps the file's mode on most file systems, not all.
        if not os.access(binary, os.X_OK):
            os.chmod(binary, 0o755)
        for path, content in shards:
            # The shard on standard input (compressed or not): arbiter
            # decompresses it as it reads, and writes one partial, one line.
            done = subprocess.run([binary, "stats", "-q", *args, "--partial", "-", "-"],
                                  input=content, capture_output=True, check=False)
            if done.returncode != 0:
                raise RuntimeError(f"arbiter stats on {path}: exit {done.returncode}: "
                                   f"{done.stderr.decode(errors='replace')}")
            yield path, done.stdout

    # At least a task a core: binaryFiles packs small files together.
    shards = sc.binaryFiles(shards_dir, minPartitions=sc.defaultParallelism)
    return sorted(shards.mapPartitions(partials).collect())


def merge(arbiter, partials, merge_args=()):
    """`arbiter merge` of the partials (a list of bytes), on the driver: the
    merged output, as bytes. Each partial goes to a file of its own, as a
    shard given twice is refused by content."""
    with tempfile.TemporaryDirectory(prefix="arbiter-spark.") as tmp:
        files = []
        for i, partial in enumerate(partials):
            path = os.path.join(tmp, f"part-{i:06}.json")
            with open(path, "wb") as f:
                f.write(partial)
            files.append(path)
        done = subprocess.run([arbiter, "merge", *merge_args, *files],
                              capture_output=True, check=False)
        if done.returncode != 0:
            raise RuntimeError(f"arbiter merge: exit {done.returncode}: "
                               f"{done.stderr.decode(errors='replace')}")
        return done.stdout


def games(spark, db_dir):
    """The games table of the database in `db_dir`."""
    return spark.read.parquet(os.path.join(db_dir, "games"))


def counts(spark, db_dir, player=None):
    """Counts from the database with Spark SQL: {result: games},
    {variant: games}, and the games `player` played with either colour."""
    games(spark, db_dir).createOrReplaceTempView("games")
    by_result = dict(spark.sql(
        "SELECT coalesce(result, '') AS r, count(*) FROM games GROUP BY result").collect())
    by_variant = dict(spark.sql(
        "SELECT variant, count(*) FROM games GROUP BY variant").collect())
    played = None
    if player is not None:
        played = spark.sql("SELECT count(*) FROM games WHERE white = :p OR black = :p",
                           args={"p": player}).collect()[0][0]
    return by_result, by_variant, played


def session(app):
    """A SparkSession: the master `spark-submit` gives, else local[2]."""
    from pyspark.sql import SparkSession
    builder = SparkSession.builder.appName(app)
    if "spark.master" not in os.environ.get("PYSPARK_SUBMIT_ARGS", ""):
        builder = builder.master(os.environ.get("ARBITER_SPARK_MASTER", "local[2]"))
    return builder.getOrCreate()


def main(argv):
    if len(argv) < 2 or argv[0] not in ("stats", "sql"):
        sys.exit(__doc__)
    command, rest = argv[0], argv[1:]
    passed = []
    if "--" in rest:
        passed, rest = rest[rest.index("--") + 1:], rest[:rest.index("--")]
    spark = session(f"arbiter {command}")
    try:
        if command == "stats":
            arbiter = os.path.abspath(rest[1] if len(rest) > 1 else "target/release/arbiter")
            partials = shard_partials(spark, rest[0], arbiter)
            # Options of the report go to merge (the partials hold every count).
            sys.stdout.buffer.write(merge(arbiter, [p for _, p in partials], passed))
        else:
            by_result, by_variant, played = counts(spark, rest[0], rest[1] if len(rest) > 1 else None)
            print("games by result:", by_result)
            print("games by variant:", by_variant)
            if played is not None:
                print(f"games of {rest[1]}:", played)
    finally:
        spark.stop()


if __name__ == "__main__":
    main(sys.argv[1:])
