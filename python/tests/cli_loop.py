"""The plain way, for comparison: the ordinary CLI in a loop over the devices on one machine.

Each device's lines go to a file, `stackledger ingest` stores them in a new store, `export
sqlite` writes the tables, and the cited events are named by the input's seq: the stored
events are the device's lines less those repeating an id already seen (as events.md says
ingest skips them), in order.
"""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import tempfile

from stackledger_spark.tables import EXPORTED, SEQ_ARRAY_COLUMNS, SEQ_COLUMNS, Schema, read_schema


def replay_each_device(
    cli: str, rows: list[tuple[str, int, str]], export_arguments: tuple[str, ...] = ()
) -> tuple[dict[str, list[tuple]], set[str]]:
    """Every table's rows over all devices, and the devices whose ingest failed; `export_arguments`
    go to each `export sqlite`."""
    by_device: dict[str, list[tuple[int, str]]] = {}
    for device, seq, line in rows:
        by_device.setdefault(device, []).append((seq, line))
    schema = read_schema(cli)
    result: dict[str, list[tuple]] = {table: [] for table in EXPORTED}
    failed = set()
    for device in sorted(by_device):
        events = sorted(by_device[device])
        with tempfile.TemporaryDirectory() as folder:
            source = os.path.join(folder, "events.ndjson")
            with open(source, "w") as handle:
                handle.writelines(line + "\n" for _, line in events)
            store, database = os.path.join(folder, "store"), os.path.join(folder, "tables.db")
            ingest = subprocess.run([cli, "ingest", "--store", store, source], capture_output=True, check=False)
            if ingest.returncode != 0:
                failed.add(device)
                continue
            subprocess.run(
                [cli, "export", "sqlite", "--store", store, "--out", database, *export_arguments],
                check=True, capture_output=True,
            )
            stored, seen = [], set()
            for seq, line in events:
                event_id = json.loads(line).get("id")
                if event_id is None or event_id not in seen:
                    stored.append(seq)
                    seen.add(event_id)
            for table in EXPORTED:
                result[table] += _table_rows(schema, database, table, device, stored)
    return result, failed


def _table_rows(schema: Schema, database: str, table: str, device: str, stored: list[int]) -> list[tuple]:
    connection = sqlite3.connect(database)
    try:
        names = [name for name, _ in schema[table]]
        selected = ", ".join("?" if name == "device" else f'"{name}"' for name in names)
        rows = []
        for found in connection.execute(f'SELECT {selected} FROM "{table}" ORDER BY rowid', (device,)):
            row = list(found)
            for position, name in enumerate(names):
                if name == SEQ_COLUMNS.get(table):
                    row[position] = stored[row[position] - 1]
                elif name == SEQ_ARRAY_COLUMNS.get(table):
                    cited = [stored[s - 1] for s in json.loads(row[position])]
                    row[position] = json.dumps(cited, separators=(",", ":"))
            rows.append(tuple(row))
        return rows
    finally:
        connection.close()
