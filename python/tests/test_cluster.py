"""The fleet on a Spark standalone cluster on this machine: a master and two workers, each a
process of its own with its own work folder and one core, the fleet submitted with
spark-submit as docs/fleet.md says. Its tables equal local mode's, row for row, and stay so
when one executor's JVM is killed while tasks run."""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from stackledger_spark import TABLES


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _spark_home() -> str:
    import pyspark

    return os.path.dirname(pyspark.__file__)


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A standalone master and two one-core workers; yields the master's URL."""
    folder = tmp_path_factory.mktemp("cluster")
    home = _spark_home()
    environment = dict(os.environ, SPARK_HOME=home, PYSPARK_PYTHON=sys.executable, SPARK_LOCAL_IP="127.0.0.1")
    environment.pop("SPARK_CONF_DIR", None)
    port = _free_port()
    url = f"spark://127.0.0.1:{port}"
    spark_class = os.path.join(home, "bin", "spark-class")
    processes = []
    master_log = folder / "master.log"
    processes.append(subprocess.Popen(
        [spark_class, "org.apache.spark.deploy.master.Master", "--host", "127.0.0.1", "--port", str(port),
         "--webui-port", str(_free_port())],
        env=environment, stdout=master_log.open("wb"), stderr=subprocess.STDOUT))
    for k in range(2):
        work = folder / f"work-{k}"
        work.mkdir()
        processes.append(subprocess.Popen(
            [spark_class, "org.apache.spark.deploy.worker.Worker", url, "--host", "127.0.0.1", "--cores", "1",
             "--memory", "1g", "--work-dir", str(work), "--webui-port", str(_free_port())],
            env=environment, stdout=(folder / f"worker-{k}.log").open("wb"), stderr=subprocess.STDOUT))
    try:
        deadline = time.monotonic() + 90
        while master_log.read_text(errors="replace").count("Registering worker") < 2:
            if time.monotonic() > deadline:
                pytest.fail("the workers did not register with the master:\n" + master_log.read_text()[-3000:])
            time.sleep(0.5)
        yield url
    finally:
        for process in processes:
            process.terminate()
        for process in processes:
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()


def _inputs(folder: Path, rows: list[tuple[str, int, str]]) -> Path:
    source = folder / "ndjson"
    source.mkdir()
    half = len(rows) // 2
    for name, part in (("a.ndjson", rows[:half]), ("b.ndjson", rows[half:])):
        (source / name).write_text("".join(line + "\n" for _, _, line in part))
    return source


def _tables(output: Path) -> dict[str, list[tuple[object, ...]]]:
    import duckdb

    connection = duckdb.connect()
    return {
        table: sorted(connection.execute(f"SELECT * FROM '{output}/{table}/*.parquet'").fetchall(), key=repr)
        for table in TABLES
    }


def _executor_pid(executor: str) -> int | None:
    """The pid of the JVM of executor `executor` (its `--executor-id`)."""
    found = subprocess.run(
        ["pgrep", "-f", f"CoarseGrainedExecutorBackend.* --executor-id {executor} "],
        capture_output=True, text=True, check=False).stdout.split()
    return int(found[0]) if found else None


#: A task of a stage after the first (the input's read) starting on an executor.
_RUNNING = re.compile(r"Starting task \S+ in stage [1-9]\d*\.\d+ \(TID \d+\) \([^,]+,\s*executor (\d+),")


def test_a_standalone_cluster_writes_local_modes_tables_even_when_an_executor_is_lost(
    tmp_path: Path, cluster: str, fleet, fleet_binary: str
) -> None:
    source = _inputs(tmp_path, fleet.rows)
    environment = dict(os.environ, PYSPARK_PYTHON=sys.executable, SPARK_HOME=_spark_home())
    local = tmp_path / "local"
    run = subprocess.run(
        [sys.executable, "-m", "stackledger_spark", "--input", str(source), "--output", str(local),
         "--binary", fleet_binary, "--master", "local[2]"],
        env=environment, capture_output=True, text=True, check=False)
    assert run.returncode == 0, run.stderr[-3000:]
    expected = _tables(local)
    assert sum(len(rows) for rows in expected.values()) > 0

    import stackledger_spark.__main__ as entry

    submit = os.path.join(_spark_home(), "bin", "spark-submit")

    def submitted(output: Path) -> tuple[subprocess.Popen[bytes], Path]:
        # The driver's log goes to a file: a pipe nobody reads while the test watches the
        # executors would fill and stop the driver.
        log = output.with_suffix(".log")
        process = subprocess.Popen(
            [submit, "--master", cluster, "--conf", "spark.ui.enabled=false", entry.__file__,
             "--input", str(source), "--output", str(output), "--binary", fleet_binary, "--partitions", "8"],
            env=environment, stdout=log.open("wb"), stderr=subprocess.STDOUT)
        return process, log

    undisturbed, undisturbed_log = submitted(tmp_path / "cluster")
    undisturbed.wait(timeout=600)
    log = undisturbed_log.read_text(errors="replace")
    assert undisturbed.returncode == 0, log[-3000:]
    assert _tables(tmp_path / "cluster") == expected

    # One executor's JVM is killed (by its pid) as soon as the driver has started a task of
    # a later stage on it: Spark runs its work again on the executor the worker starts instead.
    disturbed, disturbed_log = submitted(tmp_path / "disturbed")
    killed = None
    deadline = time.monotonic() + 120
    while killed is None and disturbed.poll() is None and time.monotonic() < deadline:
        started = _RUNNING.search(disturbed_log.read_text(errors="replace"))
        pid = _executor_pid(started.group(1)) if started else None
        if pid is not None:
            os.kill(pid, signal.SIGKILL)
            killed = pid
        time.sleep(0.05)
    disturbed.wait(timeout=600)
    log = disturbed_log.read_text(errors="replace")
    assert killed is not None, "no task was seen starting on an executor:\n" + log[-3000:]
    assert disturbed.returncode == 0, log[-3000:]
    # The driver lost the executor with a task running on it, and ran that task again.
    assert "Lost executor" in log and ("ExecutorLostFailure" in log or "its executor exited" in log), log[-3000:]
    assert _tables(tmp_path / "disturbed") == expected
