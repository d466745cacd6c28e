"""The tables a fleet replay returns.

Each is the table of the same name that `stackledger export sqlite` writes (docs/queries.md,
"Tables"), in the same column order, with `device` added where the SQLite table has none (a
fleet's rows come from many devices). Cited events (`reason_events.seq`, `observations.seq`,
`disagreements.seq`, `assumptions.events`) are named by the input's `seq`, never by a
temporary store's sequence numbers. `errors` holds one row per device whose log could not be
replayed.
"""

from __future__ import annotations

import pyarrow as pa

_TEXT = pa.string()
_INT = pa.int64()
_REAL = pa.float64()

#: Each table's columns, in order, with their Arrow types.
TABLES: dict[str, list[tuple[str, pa.DataType]]] = {
    "decisions": [
        ("id", _INT), ("time", _TEXT), ("time_us", _INT), ("device", _TEXT), ("stack", _TEXT),
        ("action", _TEXT), ("instance", _TEXT), ("app", _TEXT), ("kind", _TEXT),
        ("from_instance", _TEXT), ("message", _TEXT),
    ],
    "reasons": [
        ("device", _TEXT), ("id", _INT), ("decision_id", _INT), ("position", _INT), ("code", _TEXT),
        ("basis", _TEXT), ("rule", _TEXT), ("parameters", _TEXT), ("detail", _TEXT),
    ],
    "reason_events": [("device", _TEXT), ("reason_id", _INT), ("seq", _INT), ("event_id", _TEXT)],
    "observations": [
        ("seq", _INT), ("time", _TEXT), ("time_us", _INT), ("device", _TEXT), ("stack", _TEXT),
        ("type", _TEXT), ("judgement", _TEXT), ("matched_by", _TEXT), ("detail", _TEXT),
    ],
    "disagreements": [
        ("seq", _INT), ("time", _TEXT), ("time_us", _INT), ("device", _TEXT), ("stack", _TEXT),
        ("detail", _TEXT),
    ],
    "states": [
        ("time", _TEXT), ("time_us", _INT), ("device", _TEXT), ("stack", _TEXT), ("instance", _TEXT),
        ("app", _TEXT), ("kind", _TEXT), ("position", _INT), ("on_top", _INT), ("suggested", _INT),
        ("score", _REAL), ("normalized", _REAL),
    ],
    "assumptions": [
        ("id", _INT), ("decision_id", _INT), ("state_time_us", _INT), ("device", _TEXT),
        ("stack", _TEXT), ("code", _TEXT), ("instance", _TEXT), ("events", _TEXT), ("detail", _TEXT),
    ],
    "errors": [("device", _TEXT), ("message", _TEXT)],
}

#: The tables read from a device's SQLite export (all but `errors`).
EXPORTED = [name for name in TABLES if name != "errors"]

#: Columns holding one cited sequence number, and those holding a JSON array of them.
SEQ_COLUMNS = {"reason_events": "seq", "observations": "seq", "disagreements": "seq"}
SEQ_ARRAY_COLUMNS = {"assumptions": "events"}


def struct_type(table: str) -> pa.StructType:
    """The Arrow struct of one table's row."""
    return pa.struct([pa.field(name, kind) for name, kind in TABLES[table]])


#: What a partition yields: the table a row belongs to, and one struct column per table, of
#: which only that table's is set. Spark splits it back into one DataFrame per table.
OUTPUT_SCHEMA = pa.schema(
    [pa.field("table", _TEXT, nullable=False)] + [pa.field(name, struct_type(name)) for name in TABLES]
)


def spark_ddl() -> str:
    """OUTPUT_SCHEMA as the DDL string `mapInArrow` takes."""
    spark_types = {_TEXT: "STRING", _INT: "BIGINT", _REAL: "DOUBLE"}
    tables = ", ".join(
        f"`{name}` STRUCT<" + ", ".join(f"`{c}`: {spark_types[t]}" for c, t in columns) + ">"
        for name, columns in TABLES.items()
    )
    return f"`table` STRING, {tables}"


def batch(table: str, columns: list[pa.Array]) -> pa.RecordBatch:
    """One output batch of `table`'s rows, the other tables' structs left null."""
    rows = len(columns[0]) if columns else 0
    row_type = struct_type(table)
    arrays = [pa.array([table] * rows, _TEXT)]
    for name in TABLES:
        if name == table:
            arrays.append(pa.StructArray.from_arrays(columns, fields=list(row_type)))
        else:
            arrays.append(pa.nulls(rows, struct_type(name)))
    return pa.RecordBatch.from_arrays(arrays, schema=OUTPUT_SCHEMA)
