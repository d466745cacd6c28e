"""What each Spark task runs: its partition's devices, one after the other.

The partition arrives as Arrow batches sorted by (device, seq). A device's rows may span
batches; each run of one device's rows goes to that device's `DeviceRun`, which is finished
(its tables yielded, its store deleted) as soon as the next device starts.
"""

from __future__ import annotations

import os
import shutil
import stat
import tempfile
from collections.abc import Iterator

import pyarrow as pa
import pyarrow.compute as pc

from .device_run import DeviceRun, ReplayOptions

#: The name the binary is shipped under with SparkContext.addFile.
BINARY_NAME = "stackledger"

#: The shared objects shipped beside the binary, which finds them through $ORIGIN (Debian
#: has no static archive of them), by the start of their names.
SHARED_OBJECTS = ("libmimalloc.so", "libisal.so")


def replay_partition(options: ReplayOptions, batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
    """The `mapInArrow` function: every device of the partition, replayed in order."""
    binary = executor_binary()
    policy = executor_file(options.policy) if options.policy else None
    scratch = executor_scratch()
    current: DeviceRun | None = None
    for batch in batches:
        devices, seqs, lines = batch.column("device"), batch.column("seq"), batch.column("line")
        for start, end in _device_runs(devices):
            device = devices[start].as_py()
            if current is None or current.device != device:
                if current is not None:
                    yield from current.finish()
                current = DeviceRun(binary, device, options, policy, scratch)
            current.feed(seqs.slice(start, end - start), lines.slice(start, end - start))
    if current is not None:
        yield from current.finish()


def _device_runs(devices: pa.Array) -> Iterator[tuple[int, int]]:
    """[start, end) of each run of equal devices (nulls form one run) in a sorted column."""
    count = len(devices)
    if count == 0:
        return
    filled = pc.fill_null(devices, "\u0000")
    changes = pc.not_equal(filled[1:], filled[:-1])
    starts = [0] + [index + 1 for index in pc.indices_nonzero(changes).to_pylist()]
    for position, start in enumerate(starts):
        yield start, starts[position + 1] if position + 1 < len(starts) else count


def executor_file(name: str) -> str:
    """A file shipped with addFile, as this executor sees it."""
    from pyspark import SparkFiles

    return SparkFiles.get(name)


def executor_scratch() -> str:
    """Where the temporary stores go: Spark's own folder for shipped files, on the executor's
    local disk (spark.local.dir), which Spark removes when the application ends."""
    from pyspark import SparkFiles

    return SparkFiles.getRootDirectory()


def executor_binary() -> str:
    """The shipped binary, runnable: copied to a private folder when it lost its execute bit."""
    path = executor_file(BINARY_NAME)
    if os.access(path, os.X_OK):
        return path
    # SparkFiles keeps what was shipped together in one folder: the binary finds its
    # shared objects beside it through $ORIGIN, so they are copied with it.
    folder = tempfile.mkdtemp(prefix="stackledger-binary-", dir=executor_scratch())
    for name in os.listdir(os.path.dirname(path)):
        if name == BINARY_NAME or name.startswith(SHARED_OBJECTS):
            target = os.path.join(folder, name)
            shutil.copyfile(os.path.join(os.path.dirname(path), name), target)
            os.chmod(target, stat.S_IRWXU)
    return os.path.join(folder, BINARY_NAME)
