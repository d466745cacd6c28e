"""One device's replay on an executor.

Its events arrive in order, a slice of an Arrow batch at a time, and go straight into the
`stackledger ingest -` of a temporary store: Python holds one batch of lines and the device's
`seq` column (8 bytes an event), never the device's log. Then `stackledger export sqlite
--format ndjson` writes the tables as one NDJSON file each, Arrow's JSON reader reads them in C++
with the schema the binary gave, every cited event is named by the input's `seq` (a vectorised
take), and the store is deleted.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import subprocess
import tempfile
from array import array
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import IO, Any

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.json as pajson

from . import tables

#: Rows per output batch.
_BATCH_ROWS = 8192


@dataclass(frozen=True)
class ReplayOptions:
    """What every device's replay is asked, as `export sqlite` options."""

    every: str = "15m"
    start: str | None = None
    end: str | None = None
    #: The file name of a policy override, found beside the binary (shipped with addFile).
    policy: str | None = None
    #: The tables' columns, as the binary writes them (`tables.read_schema`).
    schema: tables.Schema = field(default_factory=dict)

    def export_arguments(self, policy_path: str | None) -> list[str]:
        arguments = ["--every", self.every]
        if self.start:
            arguments += ["--from", self.start]
        if self.end:
            arguments += ["--to", self.end]
        if policy_path:
            arguments += ["--policy", policy_path]
        return arguments


class DeviceFailed(Exception):
    """The device's log cannot be replayed; the message names the input's seq and what to do."""


class DeviceRun:
    """Streams one device's events into a temporary store, then reads its tables."""

    def __init__(
        self, binary: str, device: str | None, options: ReplayOptions, policy_path: str | None,
        scratch: str | None = None,
    ):
        self.binary = binary
        self.device = device
        self.options = options
        self.policy_path = policy_path
        self.seqs = array("q")
        self.failure: str | None = None
        self.directory = tempfile.mkdtemp(prefix="stackledger-device-", dir=scratch)
        self.store = os.path.join(self.directory, "store")
        # The lines as sent, kept on local disk (not in memory) for the rare device whose log
        # repeats an event id: ingest skips the repeat, and the lines say which one it was.
        # Held open across feed() calls and closed by finish(): no `with` block spans them.
        self.spool = open(os.path.join(self.directory, "events.ndjson"), "wb")  # noqa: SIM115
        self.ingest_out = open(os.path.join(self.directory, "ingest.out"), "w+b")  # noqa: SIM115
        self.ingest_err = open(os.path.join(self.directory, "ingest.err"), "w+b")  # noqa: SIM115
        self.process: subprocess.Popen[bytes] | None = None
        if device is None:
            self.failure = "rows without a device: give every row its device"
            return
        self.process = subprocess.Popen(
            # The store lives only as long as this run: no flush to disk on each commit.
            [binary, "ingest", "--store", self.store, "--no-sync", "--json", "-"],
            stdin=subprocess.PIPE, stdout=self.ingest_out, stderr=self.ingest_err,
            env=_child_environment(self.directory),
        )

    def feed(self, seqs: pa.Array, lines: pa.Array) -> None:
        """Sends the next events of the device, in order."""
        if self.failure is not None:
            return
        if seqs.null_count:
            self.failure = "a row without a seq: give every row its position in its source"
            return
        first = self.seqs[-1] if self.seqs else None
        self.seqs.frombytes(_int64_bytes(seqs))
        if (first is not None and seqs[0].as_py() == first) or _has_repeats(seqs):
            self.failure = f"seq {_first_repeat(seqs, first)} is given to two rows: each row needs its own seq"
            return
        if lines.null_count:
            index = pc.index(pc.is_null(lines), True).as_py()
            self.failure = f"seq {seqs[index].as_py()}: the row has no line"
            return
        breaks = pc.match_substring(lines, "\n")
        if pc.any(breaks).as_py():
            index = pc.index(breaks, True).as_py()
            self.failure = f"seq {seqs[index].as_py()}: the line holds a line break; one event per line"
            return
        data = _newline_terminated(lines)
        self.spool.write(data)
        # ingest may have stopped early; finish() reports why.
        with contextlib.suppress(BrokenPipeError):
            assert self.process is not None and self.process.stdin is not None
            self.process.stdin.write(data)

    def finish(self) -> Iterator[pa.RecordBatch]:
        """The device's output batches (its tables, or one `errors` row); then removes the store."""
        try:
            yield from self._finish()
        finally:
            self.close()

    def _finish(self) -> Iterator[pa.RecordBatch]:
        if self.process is not None and self.failure is None:
            with contextlib.suppress(BrokenPipeError):
                if self.process.stdin is not None:
                    self.process.stdin.close()
            code = self.process.wait()
            if code != 0:
                self.failure = self._ingest_failure(code)
        if self.failure is not None:
            yield self._error(self.failure)
            return
        self.spool.flush()
        try:
            summary = json.loads(_read(self.ingest_out).strip().splitlines()[-1])
            database = self._export()
            yield from self._read_tables(database, summary)
        except DeviceFailed as failure:
            yield self._error(str(failure))

    def close(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        for handle in (self.spool, self.ingest_out, self.ingest_err):
            handle.close()
        shutil.rmtree(self.directory, ignore_errors=True)

    # MARK: - The binary's runs

    def _ingest_failure(self, code: int) -> str:
        """What ingest's JSON error (the last line of its standard error) says, each line at
        fault named by its row's seq: ingest reads standard input, so line n is the n-th row."""
        lines = _read(self.ingest_err).strip().splitlines()
        try:
            error = json.loads(lines[-1])["error"] if lines else None
        except (ValueError, KeyError, TypeError):
            error = None
        if not isinstance(error, dict):
            return f"ingest exited {code}: " + ("; ".join(lines[-3:]) or "no message")
        named = [_problem_by_seq(problem, self.seqs) for problem in error.get("problems", [])[:3]]
        return f"ingest exited {code}: " + ("; ".join(named) or str(error.get("message", "")))

    def _export(self) -> str:
        directory = os.path.join(self.directory, "tables")
        # The input holds the events: the export leaves its events table empty.
        command = [
            self.binary, "export", "sqlite", "--format", "ndjson", "--store", self.store, "--no-sync", "--no-events",
            "--out", directory,
        ]
        command += self.options.export_arguments(self.policy_path)
        result = subprocess.run(
            command, stdin=subprocess.DEVNULL, capture_output=True, check=False, env=_child_environment(self.directory),
        )
        if result.returncode != 0:
            message = result.stderr.decode("utf-8", "replace").strip().replace("stackledger: ", "")
            raise DeviceFailed(f"export sqlite exited {result.returncode}: {message}")
        return directory

    def _store_log(self) -> Iterator[tuple[int, str | None]]:
        """(seq, id) of every stored event, in order, from `log --json`."""
        process = subprocess.Popen(
            [self.binary, "log", "--store", self.store, "--no-sync", "--json"],
            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
            env=_child_environment(self.directory),
        )
        assert process.stdout is not None
        try:
            for line in process.stdout:
                event = json.loads(line)
                yield event["seq"], event.get("id")
        finally:
            process.stdout.close()
            if process.wait() != 0:
                raise DeviceFailed("log --json failed on the temporary store")

    # MARK: - Reading the tables

    def _seq_map(self, summary: dict[str, Any]) -> SeqMap:
        first = summary.get("firstSeq") or 1
        if summary.get("duplicates", 0) == 0:
            return SeqMap(self.seqs, first)
        # Some lines repeated an event id already sent, and ingest skipped them: walk the sent
        # lines beside the stored events to learn which input seq each stored event is.
        stored = array("q")
        log = self._store_log()
        pending = next(log, None)
        with open(self.spool.name, "rb") as lines:
            for index, line in enumerate(lines):
                event_id = json.loads(line).get("id")
                if pending is not None and (event_id is None or event_id == pending[1]):
                    stored.append(self.seqs[index])
                    pending = next(log, None)
        return SeqMap(stored, first)

    def _read_tables(self, directory: str, summary: dict[str, Any]) -> Iterator[pa.RecordBatch]:
        seq_map = self._seq_map(summary)
        with open(os.path.join(directory, "meta.ndjson"), encoding="utf-8") as lines:
            meta = {row["key"]: row["value"] for row in map(json.loads, lines)}
        devices = json.loads(meta["devices"])
        if devices not in ([self.device], ["default"]):
            named = ", ".join(devices)
            raise DeviceFailed(
                f"the lines name the device(s) {named}, not {self.device}: a line's `device` must be its row's"
            )
        for table in tables.EXPORTED:
            yield from self._read_table(os.path.join(directory, f"{table}.ndjson"), table, seq_map)

    def _read_table(self, path: str, table: str, seq_map: SeqMap) -> Iterator[pa.RecordBatch]:
        if os.path.getsize(path) == 0:
            return
        columns = [(name, tables.arrow_type(kind)) for name, kind in self.options.schema[table]]
        # `device` is the row's (the fleet's own column where the table has none).
        in_file = [pa.field(name, kind) for name, kind in columns if name != "device"]
        parse = pajson.ParseOptions(explicit_schema=pa.schema(in_file), unexpected_field_behavior="ignore")
        read = pajson.read_json(path, parse_options=parse)
        seq_column = tables.SEQ_COLUMNS.get(table)
        array_column = tables.SEQ_ARRAY_COLUMNS.get(table)
        for chunk in read.to_batches(max_chunksize=_BATCH_ROWS):
            arrays = []
            for name, kind in columns:
                if name == "device":
                    arrays.append(pa.repeat(pa.scalar(self.device, kind), len(chunk)))
                    continue
                column = chunk.column(name)
                if name == seq_column:
                    column = seq_map.input_seq_column(column)
                elif name == array_column:
                    column = pa.array([seq_map.input_seq_array(text) for text in column.to_pylist()], kind)
                arrays.append(column)
            yield tables.batch(self.options.schema, table, arrays)

    def _error(self, message: str) -> pa.RecordBatch:
        return tables.batch(
            self.options.schema, "errors", [pa.array([self.device], pa.string()), pa.array([message], pa.string())]
        )


class SeqMap:
    """A temporary store's sequence numbers to the input's `seq`."""

    def __init__(self, input_seqs: array[int], first: int):
        self.input_seqs = input_seqs
        self.first = first
        self._column: pa.Array | None = None

    def input_seq_column(self, store_seqs: pa.Array) -> pa.Array:
        """A column of stored sequence numbers (no nulls) as the input's `seq`s."""
        if len(store_seqs) == 0:
            return store_seqs
        if self._column is None:
            self._column = pa.array(self.input_seqs, pa.int64())
        bounds = pc.min_max(store_seqs).as_py()
        for bound in (bounds["min"], bounds["max"]):
            self.input_seq(bound)
        return pc.take(self._column, pc.subtract(store_seqs, self.first))

    def input_seq(self, store_seq: int | None) -> int | None:
        if store_seq is None:
            return None
        index = store_seq - self.first
        if not 0 <= index < len(self.input_seqs):
            raise DeviceFailed(f"the export cites stored event {store_seq}, which no input row matches")
        return int(self.input_seqs[index])

    def input_seq_array(self, text: str | None) -> str | None:
        if text is None:
            return None
        return json.dumps([self.input_seq(s) for s in json.loads(text)], separators=(",", ":"))


# MARK: - Helpers


def _child_environment(directory: str) -> dict[str, str]:
    """The binary needs no environment but a place for its temporary files."""
    return {"TMPDIR": directory, "PATH": "/usr/bin:/bin"}


def _read(handle: IO[bytes]) -> str:
    handle.flush()
    handle.seek(0)
    return handle.read().decode("utf-8", "replace")


def _problem_by_seq(problem: dict[str, Any], seqs: array[int]) -> str:
    """One problem of ingest's JSON error, its line named by the row's seq."""
    line = problem.get("line")
    where = f"seq {seqs[line - 1]}" if isinstance(line, int) and 0 < line <= len(seqs) else f"line {line}"
    field = f"field {problem['field']}: " if problem.get("field") else ""
    return f"{where}: {field}{problem.get('message', '')}"


def _int64_bytes(values: pa.Array) -> bytes:
    values = values.cast(pa.int64())
    buffer = values.buffers()[1]
    start = values.offset * 8
    return memoryview(buffer)[start : start + len(values) * 8].tobytes()


def _has_repeats(seqs: pa.Array) -> bool:
    return len(seqs) > 1 and pc.any(pc.equal(seqs[1:], seqs[:-1])).as_py()


def _first_repeat(seqs: pa.Array, previous: int | None) -> int:
    if previous is not None and seqs[0].as_py() == previous:
        return previous
    return int(seqs[pc.index(pc.equal(seqs[1:], seqs[:-1]), True).as_py()].as_py())


def _newline_terminated(lines: pa.Array) -> bytes:
    """The lines, each followed by a line feed, as one buffer (no per-line Python work)."""
    joined = pc.binary_join_element_wise(lines, pa.scalar("", pa.string()), "\n")
    if isinstance(joined, pa.ChunkedArray):
        joined = joined.combine_chunks()
    offsets, data = joined.buffers()[1], joined.buffers()[2]
    bounds = memoryview(offsets).cast("q" if pa.types.is_large_string(joined.type) else "i")
    start, end = bounds[joined.offset], bounds[joined.offset + len(joined)]
    return memoryview(data)[start:end].tobytes()
