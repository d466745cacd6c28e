"""The entry point: a DataFrame of events in, one DataFrame per table out."""

from __future__ import annotations

import functools
import os
import shutil
import tempfile
import zipfile
from dataclasses import dataclass

from pyspark import SparkContext, StorageLevel
from pyspark.sql import DataFrame
from pyspark.sql import functions as F

from . import tables
from .device_run import ReplayOptions
from .partition import BINARY_NAME, SHARED_OBJECTS, replay_partition

#: The environment variable naming the binary when `binary` is not given.
BINARY_VARIABLE = "STACKLEDGER_FLEET_BINARY"


@dataclass
class FleetTables:
    """The tables of a fleet replay (`tables.TABLES`, their columns those of `export sqlite`), each a DataFrame.

    They are cut from one persisted result, so reading several of them replays each device
    once; `unpersist()` frees it.
    """

    result: DataFrame

    def __getitem__(self, table: str) -> DataFrame:
        if table not in tables.TABLES:
            raise KeyError(f"no table {table!r}; the tables are {', '.join(tables.TABLES)}")
        return self.result.where(F.col("table") == table).select(f"`{table}`.*")

    def __getattr__(self, table: str) -> DataFrame:
        if table in tables.TABLES:
            return self[table]
        raise AttributeError(table)

    @property
    def names(self) -> list[str]:
        return list(tables.TABLES)

    def unpersist(self) -> None:
        self.result.unpersist()


def replay_fleet(
    events: DataFrame,
    *,
    binary: str | None = None,
    every: str = "15m",
    start: str | None = None,
    end: str | None = None,
    policy: str | None = None,
    partitions: int | None = None,
) -> FleetTables:
    """Replays every device of `events` with the `stackledger` binary on the executors.

    `events` has one row per event: `device` (string), `seq` (the event's order in its source)
    and `line` (its NDJSON line), such as the `events` table of `export sqlite`. Each device is
    replayed alone, over its own first to last event (with the day after it, as `export sqlite`)
    unless `start`/`end` (RFC 3339) are given; states are sampled every `every`; `policy` is a
    policy override file. A device whose log is invalid gets one row in `errors` and the others
    complete. `binary` is the fleet build of `stackledger` (tools/build-fleet), else the
    `STACKLEDGER_FLEET_BINARY` variable; it is shipped to the executors with addFile, with the
    shared objects beside it (libmimalloc.so.2, libisal.so.2).
    """
    missing = [name for name in ("device", "seq", "line") if name not in events.columns]
    if missing:
        raise ValueError(
            f"the events DataFrame lacks {', '.join(missing)}: it needs device, seq and line "
            "(the columns of export sqlite's events table)"
        )
    spark = events.sparkSession
    context = spark.sparkContext
    path = locate_binary(binary)
    distribute(context, path)
    ship_package(context)
    policy_name = None
    if policy is not None:
        if not os.path.isfile(policy):
            raise FileNotFoundError(f"--policy {policy}: no such file")
        context.addFile(os.path.abspath(policy))
        policy_name = os.path.basename(policy)
    options = ReplayOptions(
        every=every, start=start, end=end, policy=policy_name, schema=tables.read_schema(path)
    )
    frame = events.select(
        F.col("device").cast("string").alias("device"),
        F.col("seq").cast("long").alias("seq"),
        F.col("line").cast("string").alias("line"),
    )
    count = partitions or context.defaultParallelism
    ordered = frame.repartition(count, "device").sortWithinPartitions("device", "seq")
    result = ordered.mapInArrow(functools.partial(replay_partition, options), tables.spark_ddl(options.schema))
    return FleetTables(result.persist(StorageLevel.MEMORY_AND_DISK))


def locate_binary(binary: str | None) -> str:
    """The binary to ship: the argument, else $STACKLEDGER_FLEET_BINARY, else `stackledger` on PATH."""
    path = binary or os.environ.get(BINARY_VARIABLE) or shutil.which(BINARY_NAME)
    if not path or not os.path.isfile(path):
        raise FileNotFoundError(
            f"no stackledger binary at {path or 'PATH'}: build it with tools/build-fleet and pass "
            f"binary= (or --binary, or set {BINARY_VARIABLE})"
        )
    return os.path.abspath(path)


def ship_package(context: SparkContext) -> None:
    """Ships this package to the executors (addPyFile), so that they need only pyspark and pyarrow."""
    name = "stackledger_spark.zip"
    if any(entry.endswith("/" + name) for entry in context.listFiles):
        return
    folder = os.path.dirname(os.path.abspath(__file__))
    archive = os.path.join(tempfile.mkdtemp(prefix="stackledger-spark-"), name)
    with zipfile.ZipFile(archive, "w") as bundle:
        for entry in sorted(os.listdir(folder)):
            if entry.endswith(".py"):
                bundle.write(os.path.join(folder, entry), f"stackledger_spark/{entry}")
    context.addPyFile(archive)


def distribute(context: SparkContext, binary: str) -> None:
    """Ships the binary, and the shared objects beside it that it finds through $ORIGIN."""
    if os.path.basename(binary) != BINARY_NAME:
        raise ValueError(f"the binary must be named {BINARY_NAME} (it is {os.path.basename(binary)})")
    shipped = set(context.listFiles)
    folder = os.path.dirname(binary)
    for name in [BINARY_NAME, *sorted(n for n in os.listdir(folder) if n.startswith(SHARED_OBJECTS))]:
        path = os.path.join(folder, name)
        if not any(entry.endswith("/" + name) for entry in shipped):
            context.addFile(path)
