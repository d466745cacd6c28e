"""The rounds of tools/bench-against: two builds over the same logs, alternating, with ratios."""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import time


def timed(command: list[str]) -> float:
    """Runs a command to its end; its wall time in seconds. A failure stops the benchmark."""
    start = time.perf_counter()
    done = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, check=False)
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed ({done.returncode}): {done.stderr.decode()[-2000:]}")
    return seconds


def instants(binary: str, store: str, count: int = 10) -> list[tuple[str, str]]:
    """`count` (device, time) pairs spread over each device's span, from `stats --json`."""
    stats = json.loads(subprocess.run([binary, "stats", "--store", store, "--json"], capture_output=True,
                                      check=True).stdout)
    devices = sorted(stats["devices"])
    first, last = stats["firstTime"], stats["lastTime"]
    from datetime import datetime, timezone

    def parse(text: str) -> float:
        return datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp()

    a, b = parse(first), parse(last)
    out = []
    for k in range(count):
        t = a + (b - a) * (k + 0.5) / count
        stamp = datetime.fromtimestamp(t, timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
        out.append((devices[k % len(devices)], stamp))
    return out


def one_round(binary: str, log: str, work: str, events: int, size: int) -> dict[str, float]:
    """Ingest, rebuild, state questions and bytes of one build over one log."""
    store = os.path.join(work, "store")
    shutil.rmtree(store, ignore_errors=True)
    ingest = timed([binary, "ingest", "--store", store, log])
    rebuild = timed([binary, "rebuild", "--store", store])
    questions = instants(binary, store)
    state = statistics.median(
        timed([binary, "state", "--store", store, "--device", d, "--at", t, "--json"]) for d, t in questions)
    stats = json.loads(subprocess.run([binary, "stats", "--store", store, "--json"], capture_output=True,
                                      check=True).stdout)
    shutil.rmtree(store, ignore_errors=True)
    return {
        "ingest events/s": events / ingest,
        "rebuild events/s": events / rebuild,
        "state end to end, s": state,
        "checkpoints / log": stats["checkpointBytes"] / stats["logBytes"],
        "store / NDJSON": (stats["usedBytes"] - stats["checkpointBytes"]) / size,
    }


#: Figures where more is better; the others (times, bytes) are better smaller.
HIGHER_IS_BETTER = {"ingest events/s", "rebuild events/s"}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--old", required=True)
    parser.add_argument("--new", required=True)
    parser.add_argument("--rev", required=True)
    parser.add_argument("--workload", required=True)
    parser.add_argument("--events", type=int, required=True)
    parser.add_argument("--rounds", type=int, required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("shapes", nargs="+")
    args = parser.parse_args()
    print(f"## {args.rev} against this tree: {args.events:,} events a shape, {args.rounds} alternating rounds, medians")
    print()
    print(f"| shape | figure | {args.rev} | this tree | ratio (above 1: this tree is better) |")
    print("|---|---|---:|---:|---:|")
    for shape in args.shapes:
        log = os.path.join(args.work, f"{shape}.ndjson")
        with open(log, "wb") as out:
            subprocess.run([args.workload, "--shape", shape, "--events", str(args.events)], stdout=out, check=True)
        size = os.path.getsize(log)
        runs: dict[str, list[dict[str, float]]] = {"old": [], "new": []}
        for r in range(args.rounds):
            order = ["old", "new"] if r % 2 == 0 else ["new", "old"]
            for which in order:
                binary = args.old if which == "old" else args.new
                runs[which].append(one_round(binary, log, args.work, args.events, size))
        for figure in runs["old"][0]:
            old = statistics.median(run[figure] for run in runs["old"])
            new = statistics.median(run[figure] for run in runs["new"])
            ratio = (new / old if figure in HIGHER_IS_BETTER else old / new) if old and new else float("nan")
            mark = " **worse**" if ratio < 0.95 else ""
            def show(v: float, figure: str = figure) -> str:
                if "/ log" in figure:
                    return f"{100 * v:.1f} %"
                if "NDJSON" in figure:
                    return f"{v:.2f}"
                if figure.endswith(", s"):
                    return f"{1000 * v:.1f} ms"
                return f"{v:,.0f}"
            print(f"| {shape} | {figure} | {show(old)} | {show(new)} | {ratio:.2f}{mark} |")
        os.remove(log)


if __name__ == "__main__":
    main()
