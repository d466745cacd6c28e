"""The fleet on Spark in local mode against the plain CLI loop, the shipped binary, and the
command-line wrapper."""

from __future__ import annotations

import hashlib
import importlib.metadata
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from cli_loop import replay_each_device

from stackledger_spark import TABLES, read_events, replay_fleet
from stackledger_spark.tables import EXPORTED


@pytest.fixture(scope="module")
def events(spark, fleet):
    return spark.createDataFrame(fleet.rows, "device STRING, seq BIGINT, line STRING")


@pytest.fixture(scope="module")
def plain_loop(cli_binary, fleet):
    return replay_each_device(cli_binary, fleet.rows)


def collected(result, table):
    return sorted(tuple(row) for row in result[table].collect())


def test_the_fleet_covers_what_it_should(fleet):
    assert len(fleet.devices) == 52
    assert fleet.late_devices, "the generated fleet must hold late events"
    repeated = [line for device, _, line in fleet.rows if device == fleet.repeat_device]
    assert len(repeated) == len(set(repeated)) + 1, "one event of the repeat device comes twice"


@pytest.mark.parametrize("partitions", [1, 2, 8])
def test_every_partitioning_gives_the_rows_of_the_plain_loop(events, fleet_binary, plain_loop, partitions):
    expected, failed = plain_loop
    result = replay_fleet(events, binary=fleet_binary, partitions=partitions)
    try:
        for table in EXPORTED:
            rows = collected(result, table)
            assert rows == sorted(expected[table]), f"{table} differs with {partitions} partitions"
        assert expected["decisions"], "the fleet must make decisions"
        assert expected["states"] and expected["reason_events"] and expected["observations"]
        errors = result["errors"].collect()
        assert {row.device for row in errors} == failed
    finally:
        result.unpersist()


def test_policy_interval_and_sampling_pass_through(spark, tmp_path, fleet, fleet_binary, cli_binary):
    policy = tmp_path / "policy.json"
    policy.write_text('{"rotationCapPerWidgetPerDay": 1}')
    chosen = set(fleet.devices[:6])
    rows = [row for row in fleet.rows if row[0] in chosen]
    start, end = "2026-03-03T00:00:00Z", "2026-03-05T00:00:00Z"
    arguments = ("--policy", str(policy), "--from", start, "--to", end, "--every", "1h")
    expected, _ = replay_each_device(cli_binary, rows, arguments)
    default, _ = replay_each_device(cli_binary, rows, arguments[2:])
    events = spark.createDataFrame(rows, "device STRING, seq BIGINT, line STRING")
    result = replay_fleet(events, binary=fleet_binary, policy=str(policy), start=start, end=end, every="1h")
    try:
        for table in EXPORTED:
            assert collected(result, table) == sorted(expected[table]), table
        # The policy changed the decisions, and the samples are hourly within the interval.
        assert sorted(expected["decisions"]) != sorted(default["decisions"])
        times = {row.time_us for row in result["states"].select("time_us").distinct().collect()}
        assert len(times) == 49 and min(times) == 1772496000000000
    finally:
        result.unpersist()


def test_an_invalid_line_fails_its_device_only(events, fleet, fleet_binary):
    result = replay_fleet(events, binary=fleet_binary)
    try:
        errors = result["errors"].collect()
        assert [row.device for row in errors] == [fleet.invalid_device]
        message = errors[0].message
        assert f"seq {fleet.invalid_seq}:" in message and "time" in message, message
        devices = {row.device for row in result["states"].select("device").distinct().collect()}
        assert devices == set(fleet.devices) - {fleet.invalid_device}
    finally:
        result.unpersist()


def test_cited_events_are_named_by_the_input_seq_and_id(events, fleet, fleet_binary):
    by_seq = {(device, seq): json.loads(line).get("id") for device, seq, line in fleet.rows}
    result = replay_fleet(events, binary=fleet_binary)
    try:
        cited = result["reason_events"].collect()
        assert any(row.device == fleet.repeat_device for row in cited)
        for row in cited:
            assert by_seq[(row.device, row.seq)] == row.event_id
        for row in result["observations"].collect():
            assert json.loads(next(line for _, s, line in fleet.rows if s == row.seq))["type"] == row.type
    finally:
        result.unpersist()


def test_a_missing_column_is_named(spark, fleet_binary):
    frame = spark.createDataFrame([("d", 1)], "device STRING, seq BIGINT")
    with pytest.raises(ValueError, match="lacks line"):
        replay_fleet(frame, binary=fleet_binary)


def test_the_shipped_binary_needs_only_the_c_library(spark, fleet_binary):
    def inspect(_):
        from pyspark import SparkFiles

        path = SparkFiles.get("stackledger")
        ldd = subprocess.run(["ldd", path], capture_output=True, text=True, check=False).stdout
        version = subprocess.run([path, "--version"], env={}, capture_output=True, text=True, check=False)
        yield path, ldd, version.returncode, version.stdout.strip()

    replay_fleet(spark.createDataFrame([], "device STRING, seq BIGINT, line STRING"), binary=fleet_binary)
    [(path, ldd, code, version)] = spark.sparkContext.parallelize([0], 1).mapPartitions(inspect).collect()
    assert os.path.realpath(path) != os.path.realpath(fleet_binary), "the test must run Spark's copy"
    assert code == 0 and version.startswith("stackledger "), version
    c_library = {"linux-vdso.so.1", "libc.so.6", "libm.so.6", "libpthread.so.0", "libdl.so.2", "librt.so.1"}
    for line in ldd.strip().splitlines():
        name = line.split()[0]
        if name.startswith("/") and "ld-linux" in name:
            continue
        if name in ("libmimalloc.so.2", "libisal.so.2"):
            assert line.split("=>")[1].split()[0] == os.path.join(os.path.dirname(path), name), line
            continue
        assert name in c_library, f"the shipped binary needs {line.strip()}"


def test_the_command_line_writes_parquet_tables(tmp_path, fleet, fleet_binary):
    import duckdb

    source = tmp_path / "ndjson"
    source.mkdir()
    half = len(fleet.rows) // 2
    for name, part in (("a.ndjson", fleet.rows[:half]), ("b.ndjson", fleet.rows[half:])):
        (source / name).write_text("".join(line + "\n" for _, _, line in part))
    output = tmp_path / "tables"
    command = [sys.executable, "-m", "stackledger_spark", "--input", str(source), "--output", str(output),
               "--binary", fleet_binary, "--master", "local[2]"]
    environment = dict(os.environ, PYSPARK_PYTHON=sys.executable)
    first = subprocess.run(command, env=environment, capture_output=True, text=True, check=False)
    assert first.returncode == 0, first.stderr[-3000:]
    assert sorted(os.listdir(output)) == sorted([*TABLES, "calibration", "_MANIFEST.json"])
    assert f"manifest {output}/_MANIFEST.json" in first.stderr
    connection = duckdb.connect()
    decisions = connection.execute(f"SELECT count(*) FROM '{output}/decisions/*.parquet'").fetchone()[0]
    sampled = connection.execute(f"SELECT count(DISTINCT device) FROM '{output}/states/*.parquet'").fetchone()[0]
    assert decisions > 0 and sampled == len(fleet.devices) - 1
    errors = connection.execute(f"SELECT device, message FROM '{output}/errors/*.parquet'").fetchall()
    assert [device for device, _ in errors] == [fleet.invalid_device]
    # seq is the event's position in the files, in the order of their names.
    assert f"seq {fleet.invalid_seq}:" in errors[0][1]
    written = json.loads((output / "_MANIFEST.json").read_text())
    for table in [*TABLES, "calibration"]:
        rows = connection.execute(f"SELECT count(*) FROM '{output}/{table}/*.parquet'").fetchone()[0]
        assert written["tables"][table] == rows, table
    assert written["tables"]["calibration"] == 0
    assert written["errors"] == [fleet.invalid_device]
    assert [(f["path"], f["bytes"], f["sha256"]) for f in written["input"]] == [
        (str(source / name), (source / name).stat().st_size,
         "sha256:" + hashlib.sha256((source / name).read_bytes()).hexdigest())
        for name in ("a.ndjson", "b.ndjson")
    ]
    assert written["binary"]["sha256"] == "sha256:" + hashlib.sha256(Path(fleet_binary).read_bytes()).hexdigest()
    policy = json.loads(subprocess.run([fleet_binary, "policy", "--json"], capture_output=True, check=True).stdout)
    assert written["policy"]["digest"] == policy["digest"] and written["policy"]["name"] == policy["name"]
    assert written["fleet"] == importlib.metadata.version("stackledger-spark")
    quarterly = connection.execute(f"SELECT count(*) FROM '{output}/states/*.parquet'").fetchone()[0]
    again = subprocess.run(command, env=environment, capture_output=True, text=True, check=False)
    assert again.returncode == 64 and "--overwrite" in again.stderr
    # A policy `calibrate` fitted: its fitted parameters become the calibration table.
    fitted = tmp_path / "fit.json"
    fitted.write_text(json.dumps({
        "name": "smartstack-1-fit", "parameters": {"rotationCapPerWidgetPerDay": 2, "scrollHoldMinutes": 60},
        "calibration": {"device": "phone", "fromDigest": policy["digest"], "converged": True,
                        "fitted": ["rotationCapPerWidgetPerDay", "scrollHoldMinutes"],
                        "agreement": {"afterHeldOut": {"agrees": 9, "judged": 10}}}}))
    replaced = subprocess.run(
        [*command, "--overwrite", "--every", "1h", "--policy", str(fitted)], env=environment, capture_output=True,
        text=True, check=False)
    assert replaced.returncode == 0, replaced.stderr[-3000:]
    hourly = connection.execute(f"SELECT count(*) FROM '{output}/states/*.parquet'").fetchone()[0]
    assert 0 < hourly < quarterly
    calibration = connection.execute(
        f"SELECT parameter, value, device, converged, held_out_agrees, held_out_judged "
        f"FROM '{output}/calibration/*.parquet' ORDER BY parameter").fetchall()
    assert calibration == [("rotationCapPerWidgetPerDay", "2", "phone", 1, 9, 10),
                           ("scrollHoldMinutes", "60", "phone", 1, 9, 10)]
    manifest_policy = json.loads((output / "_MANIFEST.json").read_text())["policy"]
    assert manifest_policy["name"] == "smartstack-1-fit"


def test_read_events_numbers_ndjson_lines_in_file_order(spark, tmp_path):
    (tmp_path / "b.ndjson").write_text('{"type":"x","time":"t","device":"p"}\n{"type":"y"}\n')
    (tmp_path / "a.ndjson").write_text('not json\n{"type":"z","time":"t","device":"q"}\n')
    rows = sorted((r.seq, r.device) for r in read_events(spark, str(tmp_path)).collect())
    assert rows == [
        (1, None), (2, "q"), (3, "p"), (4, "default"),
    ]
