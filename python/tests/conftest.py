"""Shared fixtures: the binaries under test, a local Spark, and a generated fleet.

tools/test sets STACKLEDGER_FLEET_BINARY (the fleet build, shipped to the executors),
STACKLEDGER_CLI (the ordinary build, for the plain loop the fleet is compared with) and
STACKLEDGER_WORKLOAD (the workload generator).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import dataclass

import pytest


def _required_path(variable: str) -> str:
    path = os.environ.get(variable)
    if not path or not os.path.isfile(path):
        pytest.fail(f"{variable} must name a built binary (tools/test sets it); it is {path!r}")
    return path


@pytest.fixture(scope="session")
def fleet_binary() -> str:
    return _required_path("STACKLEDGER_FLEET_BINARY")


@pytest.fixture(scope="session")
def cli_binary() -> str:
    return _required_path("STACKLEDGER_CLI")


@pytest.fixture(scope="session")
def spark():
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    from pyspark.sql import SparkSession

    session = (
        SparkSession.builder.master("local[2]")
        .appName("stackledger-fleet-tests")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", "4")
        .getOrCreate()
    )
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()


@dataclass
class Fleet:
    """A generated fleet: every row (device, seq, line), and the devices made special."""

    rows: list[tuple[str, int, str]]
    invalid_device: str
    invalid_seq: int
    repeat_device: str
    late_devices: list[str]

    @property
    def devices(self) -> list[str]:
        return sorted({device for device, _, _ in self.rows})


@pytest.fixture(scope="session")
def fleet() -> Fleet:
    """52 devices of about 500 events each, as the workload generator writes them (2% of events
    late), with one invalid line on one device and one event sent twice on another."""
    workload = _required_path("STACKLEDGER_WORKLOAD")
    output = subprocess.run(
        [workload, "events", "--events", "26000", "--devices", "52", "--seed", "11"],
        check=True, capture_output=True, text=True,
    ).stdout
    lines = output.splitlines()
    rows = [(json.loads(line)["device"], seq, line) for seq, line in enumerate(lines, start=1)]
    invalid_device, repeat_device = "device-7", "device-9"
    # One line of device-7 gets a time that is no time.
    index = [i for i, row in enumerate(rows) if row[0] == invalid_device][40]
    event = json.loads(rows[index][2])
    event["time"] = "2026-03-02T25:61:00Z"
    rows[index] = (invalid_device, rows[index][1], json.dumps(event, separators=(",", ":")))
    # An event of device-9 comes again, identical, later in the source (a re-sent record).
    repeats = [i for i, row in enumerate(rows) if row[0] == repeat_device]
    repeated_line = rows[repeats[10]][2]
    insert_at = repeats[30]
    rows.insert(insert_at, (repeat_device, 0, repeated_line))
    # Every fifth device records its own rotations, which the model is compared with.
    for device in sorted({row[0] for row in rows})[::5]:
        _record_rotations(rows, device)
    rows = [(device, seq, line) for seq, (device, _, line) in enumerate(rows, start=1)]
    invalid_seq = next(seq for _, seq, line in rows if "T25:61:00Z" in line)
    late = []
    for device in sorted({row[0] for row in rows} - {invalid_device}):
        times = [_instant(json.loads(line)["time"]) for d, _, line in rows if d == device]
        if any(b < a for a, b in zip(times, times[1:])):
            late.append(device)
    return Fleet(rows, invalid_device, invalid_seq, repeat_device, late)


def _record_rotations(rows: list[tuple[str, int, str]], device: str) -> None:
    """Inserts `stack.rotated` records for the first widget of the device's first stack."""
    positions = [i for i, row in enumerate(rows) if row[0] == device]
    added = next(json.loads(rows[i][2]) for i in positions if '"stack.widgetAdded"' in rows[i][2])
    for count, position in enumerate(reversed(positions[100::150])):
        time = json.loads(rows[position][2])["time"]
        record = {
            "type": "stack.rotated", "time": time, "device": device, "id": f"{device}-rotated-{count}",
            "stack": added["stack"], "instance": added["widget"]["instance"],
        }
        rows.insert(position + 1, (device, 0, json.dumps(record, separators=(",", ":"))))


def _instant(text: str) -> float:
    from datetime import datetime

    return datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp()
