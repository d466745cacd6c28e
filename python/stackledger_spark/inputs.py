"""Reading a fleet's events: a Parquet file or folder, or a folder of NDJSON files."""

from __future__ import annotations

import os

from pyspark.sql import DataFrame, SparkSession
from pyspark.sql import functions as F

#: File names read as NDJSON.
NDJSON_SUFFIXES = (".ndjson", ".jsonl", ".json", ".ndjson.gz", ".jsonl.gz")


def read_events(spark: SparkSession, path: str) -> DataFrame:
    """The events at `path` as (device, seq, line).

    Parquet (a file, or a folder of them, such as `export sqlite`'s events table or Spark's own
    output) must have `device`, `seq` and `line`. NDJSON files (one file, or a folder of them)
    are read in the order of their names (on a remote file system, name them by a file or a glob
    ending in .ndjson): `seq` is an event's position in that order, and
    `device` its line's `device` field (`default` when it has none, as ingest reads it; none
    when the line is not a JSON object, and such a line lands in `errors`).
    """
    if _is_parquet(path):
        return spark.read.parquet(path)
    files = _ndjson_files(path)
    if not files:
        raise FileNotFoundError(f"{path}: neither Parquet nor a folder of .ndjson files")
    lines = spark.sparkContext.textFile(",".join(files)).zipWithIndex()
    frame = spark.createDataFrame(lines.map(lambda pair: (pair[0], pair[1] + 1)), "line STRING, seq BIGINT")
    device = F.when(
        F.get_json_object("line", "$").isNull() | ~F.trim("line").startswith("{"), F.lit(None)
    ).otherwise(F.coalesce(F.get_json_object("line", "$.device"), F.lit("default")))
    return frame.select(device.alias("device"), "seq", "line")


def _is_remote(path: str) -> bool:
    return "://" in path and not path.startswith("file:")


def _is_parquet(path: str) -> bool:
    if path.endswith(".parquet"):
        return True
    if _is_remote(path):
        # hdfs://, s3a://...: Parquet, unless the path names NDJSON files (a file or a glob).
        return not path.endswith(NDJSON_SUFFIXES)
    if os.path.isdir(path):
        names = os.listdir(path)
        return any(n.endswith(".parquet") for n in names) and not any(n.endswith(NDJSON_SUFFIXES) for n in names)
    return False


def _ndjson_files(path: str) -> list[str]:
    if _is_remote(path):
        return [path]
    if os.path.isfile(path):
        return [os.path.abspath(path)]
    if not os.path.isdir(path):
        return []
    return [
        os.path.abspath(os.path.join(path, name))
        for name in sorted(os.listdir(path))
        if name.endswith(NDJSON_SUFFIXES) and os.path.isfile(os.path.join(path, name))
    ]
