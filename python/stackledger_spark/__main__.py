"""python -m stackledger_spark --input EVENTS --output DIR [--overwrite]

Replays every device of EVENTS (Parquet, or a folder of NDJSON files) and writes one Parquet
folder per table under DIR: decisions, reasons, reason_events, states, observations,
disagreements, assumptions and errors, with `_MANIFEST.json` beside them (the fleet's version, the
binary's SHA-256, the policy, the input files with their sizes and hashes, each table's row count
and the devices in `errors`). Exit codes as the stackledger CLI: 0 done (devices in
`errors` are reported, not failed), 64 bad usage (an existing DIR without --overwrite), 65
unreadable input, 74 a failed write.
"""

from __future__ import annotations

import argparse
import sys
import time
import warnings

from stackledger_spark import tables

USAGE, DATA_ERROR, IO_ERROR = 64, 65, 74


def parse(arguments: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m stackledger_spark",
        description="Replay a fleet of device logs on Spark into Parquet tables.",
    )
    parser.add_argument("--input", required=True, help="events: a Parquet file or folder, or NDJSON files")
    parser.add_argument("--output", required=True, help="the folder to write the tables into")
    parser.add_argument("--overwrite", action="store_true", help="replace DIR when it exists")
    parser.add_argument("--binary", help="the fleet build of stackledger (tools/build-fleet)")
    parser.add_argument("--every", default="15m", help="the interval between state samples (default 15m)")
    parser.add_argument(
        "--from", dest="start", help="the interval's start (RFC 3339; default: each device's first event)")
    parser.add_argument(
        "--to", dest="end", help="the interval's end (RFC 3339; default: a day after each device's last)")
    parser.add_argument("--policy", help="a policy override file (JSON), as the CLI's --policy")
    parser.add_argument("--partitions", type=int, help="partitions to replay in (default: Spark's parallelism)")
    parser.add_argument("--master", help="the Spark master when not run by spark-submit (for example local[2])")
    return parser.parse_args(arguments)


def main(arguments: list[str] | None = None) -> int:
    options = parse(sys.argv[1:] if arguments is None else arguments)
    # pyspark asks for pandas < 3 whenever a pandas is installed; this command does not use it.
    warnings.filterwarnings("ignore", message="PySpark does not yet fully support pandas")
    from pyspark.sql import SparkSession

    from stackledger_spark import manifest
    from stackledger_spark.fleet import locate_binary, replay_fleet
    from stackledger_spark.inputs import read_events

    builder = SparkSession.builder.appName("stackledger-fleet")
    if options.master:
        builder = builder.master(options.master)
    spark = builder.getOrCreate()
    jvm = spark._jvm
    assert jvm is not None, "a Spark session without its JVM"
    try:
        output_path = jvm.org.apache.hadoop.fs.Path(options.output)
        filesystem = output_path.getFileSystem(spark._jsc.hadoopConfiguration())
        if filesystem.exists(output_path) and not options.overwrite:
            print(
                f"stackledger_spark: {options.output} exists; choose another --output or add --overwrite",
                file=sys.stderr,
            )
            return USAGE
        try:
            events = read_events(spark, options.input)
        except (FileNotFoundError, ValueError) as error:
            print(f"stackledger_spark: --input {error}", file=sys.stderr)
            return DATA_ERROR
        started = time.monotonic()
        try:
            result = replay_fleet(
                events, binary=options.binary, every=options.every, start=options.start, end=options.end,
                policy=options.policy, partitions=options.partitions,
            )
        except (FileNotFoundError, ValueError) as error:
            print(f"stackledger_spark: {error}", file=sys.stderr)
            return USAGE
        staging = options.output.rstrip("/") + ".partial"
        staging_path = jvm.org.apache.hadoop.fs.Path(staging)
        filesystem.delete(staging_path, True)
        counts = {}
        for table in tables.TABLES:
            frame = result[table]
            frame.write.mode("overwrite").parquet(f"{staging}/{table}")
            counts[table] = spark.read.parquet(f"{staging}/{table}").count()
        # A fitted policy's parameters, once for the fleet (the schema is the binary's).
        calibration = tables.calibration_rows(options.policy)
        schema = tables.read_schema(locate_binary(options.binary))
        spark.createDataFrame(calibration, tables.calibration_ddl(schema)).write.mode("overwrite").parquet(
            f"{staging}/{tables.CALIBRATION}")
        counts[tables.CALIBRATION] = len(calibration)
        error_devices = [row.device for row in spark.read.parquet(f"{staging}/errors").select("device").collect()]
        content = manifest.manifest(
            binary=locate_binary(options.binary), policy=options.policy, input_path=options.input,
            options={"every": options.every, "from": options.start, "to": options.end,
                     "partitions": options.partitions},
            counts=counts, error_devices=[d for d in error_devices if d is not None],
            seconds=time.monotonic() - started,
        )
        manifest.write(filesystem, jvm, staging, content)
        # The tables and the manifest appear under --output together, or not at all.
        if filesystem.exists(output_path):
            filesystem.delete(output_path, True)
        if not filesystem.rename(staging_path, output_path):
            print(f"stackledger_spark: cannot move {staging} to {options.output}", file=sys.stderr)
            return IO_ERROR
        result.unpersist()
        seconds = time.monotonic() - started
        summary = ", ".join(f"{counts[t]} {t}" for t in (*tables.TABLES, tables.CALIBRATION))
        print(f"stackledger_spark: wrote {options.output} in {seconds:.1f} s: {summary}", file=sys.stderr)
        print(f"stackledger_spark: manifest {options.output.rstrip('/')}/{manifest.MANIFEST_NAME}", file=sys.stderr)
        errors = spark.read.parquet(f"{options.output}/errors").orderBy("device")
        for row in errors.limit(20).collect():
            print(f"stackledger_spark: device {row.device}: {row.message}", file=sys.stderr)
        return 0
    finally:
        spark.stop()


if __name__ == "__main__":
    sys.exit(main())
