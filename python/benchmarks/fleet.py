"""The fleet benchmark: devices and events per second on Spark local[1] and local[2], against
the sequential CLI loop over the same devices, in the same run.

    python fleet.py --binary .build/fleet/stackledger --workload WORKLOAD [--devices 200]
                    [--events-per-device 5000] [--runs 3]

The loop runs, for each device, `stackledger ingest` of the device's NDJSON file into a new
store and `stackledger export sqlite` of it, with the options the fleet gives them (`--no-sync`
for a temporary store, `--no-events`, `--format ndjson`): what a user with one machine would
script. The loop is timed a second time writing one SQLite database a device instead, for the
cost of each form. Spark
runs `replay_fleet` over the same events read from Parquet and counts every table (so every
device is replayed and its tables read into Arrow). Both use the same binary. Spark's start-up
(the JVM and the session) is timed apart from the replay. Medians of --runs runs.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

import pyarrow as pa
import pyarrow.parquet as pq


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", required=True)
    parser.add_argument("--workload", required=True)
    parser.add_argument("--devices", type=int, default=200)
    parser.add_argument("--events-per-device", type=int, default=5000)
    parser.add_argument("--runs", type=int, default=3)
    options = parser.parse_args()
    folder = tempfile.mkdtemp(prefix="stackledger-bench-fleet-")
    try:
        devices, events = generate(options, folder)
        print(f"fleet: {len(devices)} devices, {events} events", file=sys.stderr)
        loop = [timed(lambda: cli_loop(options.binary, devices, folder, "ndjson")) for _ in range(options.runs)]
        report("cli loop (sequential)", statistics.median(loop), None, len(devices), events, loop)
        sqlite = [timed(lambda: cli_loop(options.binary, devices, folder, "sqlite")) for _ in range(options.runs)]
        report("cli loop (sequential), SQLite tables", statistics.median(sqlite), None, len(devices), events, sqlite,
               baseline=statistics.median(loop))
        for cores in (1, 2):
            startups, replays = [], []
            for _ in range(options.runs):
                startup, replay = spark_run(options.binary, folder, cores)
                startups.append(startup)
                replays.append(replay)
            report(f"spark local[{cores}]", statistics.median(replays), statistics.median(startups),
                   len(devices), events, replays, baseline=statistics.median(loop), cores=cores)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def generate(options, folder: str) -> tuple[list[str], int]:
    """The workload as Parquet (device, seq, line) and as one NDJSON file per device."""
    total = options.devices * options.events_per_device
    text = subprocess.run(
        [options.workload, "events", "--events", str(total), "--devices", str(options.devices), "--seed", "3"],
        check=True, capture_output=True, text=True,
    ).stdout
    lines = text.splitlines()
    device_of = [json.loads(line)["device"] for line in lines]
    table = pa.table({"device": device_of, "seq": list(range(1, len(lines) + 1)), "line": lines})
    os.makedirs(os.path.join(folder, "events"))
    pq.write_table(table, os.path.join(folder, "events", "part-0.parquet"))
    files: dict[str, list[str]] = {}
    for device, line in zip(device_of, lines):
        files.setdefault(device, []).append(line)
    os.makedirs(os.path.join(folder, "devices"))
    for device, device_lines in files.items():
        with open(os.path.join(folder, "devices", device + ".ndjson"), "w") as handle:
            handle.writelines(line + "\n" for line in device_lines)
    return sorted(files), len(lines)


def cli_loop(binary: str, devices: list[str], folder: str, form: str) -> None:
    for device in devices:
        work = tempfile.mkdtemp(dir=folder)
        store = os.path.join(work, "store")
        events = os.path.join(folder, "devices", device + ".ndjson")
        subprocess.run([binary, "ingest", "--store", store, "--no-sync", events], check=True, capture_output=True)
        subprocess.run([binary, "export", "sqlite", "--store", store, "--no-sync", "--no-events", "--format", form,
                        "--out", os.path.join(work, "tables")], check=True, capture_output=True)
        shutil.rmtree(work)


def spark_run(binary: str, folder: str, cores: int) -> tuple[float, float]:
    """(seconds to start Spark, seconds to replay every device and count every table)."""
    started = time.monotonic()
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    from pyspark.sql import SparkSession

    from stackledger_spark import TABLES, replay_fleet

    spark = (SparkSession.builder.master(f"local[{cores}]").appName("stackledger-bench-fleet")
             .config("spark.ui.enabled", "false").getOrCreate())
    spark.sparkContext.setLogLevel("ERROR")
    events = spark.read.parquet(os.path.join(folder, "events"))
    events.count()
    startup = time.monotonic() - started
    try:
        started = time.monotonic()
        result = replay_fleet(events, binary=binary, partitions=cores * 4)
        counts = {table: result[table].count() for table in TABLES}
        replay = time.monotonic() - started
        if counts["errors"]:
            raise SystemExit(f"the benchmark fleet has {counts['errors']} failed devices")
        result.unpersist()
        return startup, replay
    finally:
        spark.stop()


def timed(work) -> float:
    started = time.monotonic()
    work()
    return time.monotonic() - started


def report(name, seconds, startup, devices, events, runs, baseline=None, cores=1):
    line = {
        "run": name, "seconds": round(seconds, 2), "devicesPerSecond": round(devices / seconds, 2),
        "eventsPerSecond": round(events / seconds), "runs": [round(r, 2) for r in runs],
    }
    if startup is not None:
        line["startupSeconds"] = round(startup, 2)
    if baseline is not None:
        line["speedupOverLoop"] = round(baseline / seconds, 2)
        # Core-milliseconds per device that Spark adds to the loop's work.
        line["overheadPerDeviceCoreMs"] = round((seconds * cores - baseline) * 1000 / devices, 1)
    print(json.dumps(line), flush=True)


if __name__ == "__main__":
    main()
