#!/usr/bin/env python3
"""Checks what arbiter writes as JSON Lines against docs/record.schema.json.

    python3 scripts/schema_check.py [ARBITER]

ARBITER is the binary (default: target/debug/arbiter, built by
`cargo build`). Every fixture's records from `games --format jsonl`, with
and without `--tags all`, and `validate --format jsonl`'s, must validate
against the schema, which must also be what `games --schema` prints; and
`round` must be text wherever it is given, so that pandas and DuckDB do not
read round "1.10" as the number 1.1. Without the jsonschema package the
check is skipped, and says so (ARBITER_REQUIRE_JSONSCHEMA=1 makes that a
failure).
"""

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def records(arbiter, *args):
    run = subprocess.run([arbiter, *args], cwd=ROOT, capture_output=True, text=True)
    if run.returncode not in (0, 1, 2) or not run.stdout:
        sys.exit(f"schema_check: arbiter {' '.join(args)} exited {run.returncode}:\n{run.stderr}")
    return [json.loads(line) for line in run.stdout.splitlines()]


def main():
    arbiter = sys.argv[1] if len(sys.argv) > 1 else str(ROOT / "target/debug/arbiter")
    try:
        import jsonschema
    except ImportError:
        message = "schema_check: skipped: the jsonschema package is missing (pip install jsonschema)"
        if os.environ.get("ARBITER_REQUIRE_JSONSCHEMA") == "1":
            sys.exit(message)
        print(message)
        return
    schema = json.loads((ROOT / "docs/record.schema.json").read_text())
    printed = subprocess.run([arbiter, "games", "--schema"], capture_output=True, text=True)
    if printed.returncode != 0 or json.loads(printed.stdout) != schema:
        sys.exit("schema_check: `games --schema` does not print docs/record.schema.json")
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    runs = {
        "games": ["games", "--format", "jsonl", "-q", "-r", "fixtures"],
        "games --tags all": ["games", "--format", "jsonl", "--tags", "all", "-q", "-r", "fixtures"],
        "validate": ["validate", "--format", "jsonl", "-q", "-r", "fixtures"],
    }
    total = 0
    for name, args in runs.items():
        recs = records(arbiter, *args)
        if not recs:
            sys.exit(f"schema_check: {name}: no records")
        for rec in recs:
            errors = sorted(validator.iter_errors(rec), key=lambda e: list(e.path))
            if errors:
                where = f"{rec.get('file')} game {rec.get('index')}"
                sys.exit(f"schema_check: {name}: {where}: {errors[0].message} at {list(errors[0].path)}")
            if rec["round"] is not None and not isinstance(rec["round"], str):
                sys.exit(f"schema_check: {name}: round is not text: {rec['round']!r}")
        total += len(recs)
    dotted = sum(1 for rec in records(arbiter, *runs["games"]) if "." in (rec["round"] or ""))
    if dotted == 0:
        sys.exit("schema_check: no fixture has a round like 1.10: the check of `round` proves little")
    print(f"schema_check: {total} records of {len(runs)} runs match docs/record.schema.json")


if __name__ == "__main__":
    main()
