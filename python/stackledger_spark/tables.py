"""The tables a fleet replay returns.

Each is the table of the same name that `stackledger export sqlite` writes (docs/queries.md,
"Tables"), in the same column order, with `device` first where the SQLite table has none (a
fleet's rows come from many devices). The columns are read from the schema the binary itself
writes (`stackledger export sqlite --schema`), never copied here. Cited events
(`reason_events.seq`, `observations.seq`, `disagreements.seq`, `assumptions.events`) are named
by the input's `seq`, never by a temporary store's sequence numbers. `errors` holds one row
per device whose log could not be replayed.
"""

from __future__ import annotations

import json
import sqlite3
import subprocess
from typing import Any

import pyarrow as pa

#: The tables, in the order a replay writes them.
TABLES = (
    "decisions", "reasons", "reason_events", "observations", "disagreements", "states", "assumptions", "errors",
)

#: The tables read from a device's SQLite export (all but `errors`).
EXPORTED = [name for name in TABLES if name != "errors"]

#: The fleet-wide table a fitted policy adds (`stackledger calibrate`): one row per parameter
#: fitted, written by the driver from the policy file, never per device.
CALIBRATION = "calibration"

#: Columns holding one cited sequence number, and those holding a JSON array of them.
SEQ_COLUMNS = {"reason_events": "seq", "observations": "seq", "disagreements": "seq"}
SEQ_ARRAY_COLUMNS = {"assumptions": "events"}

_ARROW = {"TEXT": pa.string(), "INTEGER": pa.int64(), "REAL": pa.float64()}
_SPARK = {"TEXT": "STRING", "INTEGER": "BIGINT", "REAL": "DOUBLE"}

#: Each table's columns, in order, with their SQLite types (TEXT, INTEGER, REAL).
Schema = dict[str, list[tuple[str, str]]]


def read_schema(binary: str) -> Schema:
    """The tables' columns, from the schema `binary` writes (`export sqlite --schema`)."""
    result = subprocess.run(
        [binary, "export", "sqlite", "--schema"], capture_output=True, text=True, check=False,
        env={"PATH": "/usr/bin:/bin"},
    )
    if result.returncode != 0:
        raise RuntimeError(f"{binary} export sqlite --schema exited {result.returncode}: {result.stderr.strip()}")
    return schema_of(result.stdout)


def schema_of(sql: str) -> Schema:
    """The tables' columns from the SQL schema `export sqlite` writes."""
    connection = sqlite3.connect(":memory:")
    try:
        connection.executescript(sql)
        schema: Schema = {}
        for table in EXPORTED:
            rows = connection.execute(f'PRAGMA table_info("{table}")').fetchall()
            if not rows:
                raise RuntimeError(f"the binary's schema has no table {table}")
            columns = [(str(row[1]), str(row[2]).upper()) for row in rows]
            if "device" not in (name for name, _ in columns):
                columns.insert(0, ("device", "TEXT"))
            schema[table] = columns
        schema["errors"] = [("device", "TEXT"), ("message", "TEXT")]
        rows = connection.execute(f'PRAGMA table_info("{CALIBRATION}")').fetchall()
        schema[CALIBRATION] = [(str(row[1]), str(row[2]).upper()) for row in rows]
        return schema
    finally:
        connection.close()


def arrow_type(kind: str) -> pa.DataType:
    """The Arrow type of a column of SQLite type `kind`."""
    return _ARROW[kind]


def struct_type(schema: Schema, table: str) -> pa.StructType:
    """The Arrow struct of one table's row."""
    return pa.struct([pa.field(name, arrow_type(kind)) for name, kind in schema[table]])


def output_schema(schema: Schema) -> pa.Schema:
    """What a partition yields: the table a row belongs to, and one struct column per table,
    of which only that table's is set. Spark splits it back into one DataFrame per table."""
    return pa.schema(
        [pa.field("table", pa.string(), nullable=False)] + [pa.field(t, struct_type(schema, t)) for t in TABLES]
    )


def spark_ddl(schema: Schema) -> str:
    """`output_schema` as the DDL string `mapInArrow` takes."""
    structs = ", ".join(
        f"`{table}` STRUCT<" + ", ".join(f"`{c}`: {_SPARK[k]}" for c, k in schema[table]) + ">" for table in TABLES
    )
    return f"`table` STRING, {structs}"


def batch(schema: Schema, table: str, columns: list[pa.Array]) -> pa.RecordBatch:
    """One output batch of `table`'s rows, the other tables' structs left null."""
    rows = len(columns[0]) if columns else 0
    row_type = struct_type(schema, table)
    arrays = [pa.array([table] * rows, pa.string())]
    for name in TABLES:
        if name == table:
            arrays.append(pa.StructArray.from_arrays(columns, fields=list(row_type)))
        else:
            arrays.append(pa.nulls(rows, struct_type(schema, name)))
    return pa.RecordBatch.from_arrays(arrays, schema=output_schema(schema))


def calibration_ddl(schema: Schema) -> str:
    """The `calibration` table's columns as a Spark DDL string."""
    return ", ".join(f"`{name}` {_SPARK[kind]}" for name, kind in schema[CALIBRATION])


def calibration_rows(policy_path: str | None) -> list[tuple[Any, ...]]:
    """The `calibration` rows of the policy file at `policy_path`, as `export sqlite` writes
    them: one per parameter fitted when `calibrate` fitted it, none for any other policy."""
    if policy_path is None:
        return []
    with open(policy_path, encoding="utf-8") as stream:
        document = json.load(stream)
    if not isinstance(document, dict) or document.get("name") != "smartstack-1-fit":
        return []
    fit = document.get("calibration")
    parameters = document.get("parameters")
    if not isinstance(fit, dict) or not isinstance(parameters, dict):
        return []
    held = (fit.get("agreement") or {}).get("afterHeldOut") or {}
    return [
        (name, json.dumps(parameters.get(name)), fit.get("device"), fit.get("fromDigest"),
         1 if fit.get("converged") else 0, held.get("agrees"), held.get("judged"))
        for name in fit.get("fitted", [])
    ]
