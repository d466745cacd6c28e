"""The measurements of tools/bench-serve, against one running `stackledger serve`.

Prints one line per measurement and, last, the figures against the targets of
docs/performance.md ("serve"). Every question is at a random instant of a random device
(seeded, so that runs ask alike), within that device's events.
"""

import argparse
import json
import os
import random
import re
import statistics
import subprocess
import sys
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime, timezone

# One wrk script for every run: random questions.
LUA = r"""
local devices = { %(devices)s }
local kind = "%(kind)s"
local counter = 0
function setup(thread)
  counter = counter + 1
  thread:set("seed", counter)
end
function init(args)
  math.randomseed(%(seed)d + seed * 7919)
end
function request()
  local d = devices[math.random(#devices)]
  local t = math.random(d[2], d[3])
  local at = os.date("!%%Y-%%m-%%dT%%H:%%M:%%SZ", t)
  local k = kind
  if k == "mixed" then
    if math.random(2) == 1 then k = "state" else k = "why" end
  end
  local path = "/api/" .. k .. "?device=" .. d[1] .. "&at=" .. at
  if k == "why" then path = path .. "&stack=stack-" .. (math.random(2) - 1) end
  return wrk.format("GET", path)
end
function done(summary, latency, requests)
  io.write(string.format('RESULT {"requests":%%d,"seconds":%%.3f,"p50":%%.3f,"p99":%%.3f,"errors":%%d,"non2xx":%%d}\n',
    summary.requests, summary.duration / 1e6, latency:percentile(50) / 1000, latency:percentile(99) / 1000,
    summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout,
    summary.errors.status))
end
"""


def parse_time(text):
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


class Server:
    """`stackledger serve` on a free loopback port."""

    def __init__(self, cli, store):
        self.process = subprocess.Popen(
            [cli, "serve", "--store", store, "--port", "0"],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        line = self.process.stderr.readline()
        match = re.search(r"http://[^ \n]+/", line)
        if not match:
            raise SystemExit(f"serve did not start: {line}")
        self.url = match.group(0)

    def get(self, path):
        with urllib.request.urlopen(self.url + path, timeout=120) as r:
            return r.read()

    def anonymous_mb(self):
        with open(f"/proc/{self.process.pid}/status") as f:
            for line in f:
                if line.startswith("RssAnon:"):
                    return int(line.split()[1]) / 1024
        raise SystemExit("no RssAnon for the server")

    def stop(self):
        self.process.terminate()
        self.process.wait()


def wrk(server, devices, kind, seconds, work, connections=16, seed=1):
    """Runs wrk for `seconds` with `connections` connections on 2 threads."""
    table = ", ".join(f'{{"{d}", {a}, {b}}}' for d, a, b in devices)
    script = os.path.join(work, f"{kind}.lua")
    with open(script, "w") as f:
        f.write(LUA % {"devices": table, "kind": kind, "seed": seed})
    out = subprocess.run(
        ["wrk", "-t2", f"-c{connections}", f"-d{seconds}s", "--timeout", "10s", "-s", script, server.url],
        check=True, capture_output=True, text=True).stdout
    result = json.loads(out.split("RESULT ", 1)[1].splitlines()[0])
    result["rate"] = result["requests"] / result["seconds"]
    if result["errors"] or result["non2xx"]:
        raise SystemExit(f"wrk {kind}: {result['errors']} socket errors, {result['non2xx']} answers not 2xx")
    return result


def ask_count(server, devices, count, connections=16, seed=1):
    """Asks exactly `count` random state and why questions over `connections` kept-alive
    connections (wrk runs for a time, not a count)."""
    import http.client
    from urllib.parse import urlparse

    address = urlparse(server.url)

    def worker(index):
        rng = random.Random(seed * 1000 + index)
        connection = http.client.HTTPConnection(address.hostname, address.port, timeout=60)
        for _ in range(count // connections + (1 if index < count % connections else 0)):
            device, first, last = rng.choice(devices)
            at = datetime.fromtimestamp(rng.randint(first, last), timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
            path = f"/api/state?device={device}&at={at}"
            if rng.random() < 0.5:
                path = f"/api/why?device={device}&at={at}&stack=stack-{rng.randint(0, 1)}"
            connection.request("GET", path)
            response = connection.getresponse()
            response.read()
            if response.status != 200:
                raise SystemExit(f"{path}: {response.status}")
        connection.close()

    with ThreadPoolExecutor(max_workers=connections) as pool:
        list(pool.map(worker, range(connections)))


def cli_questions(cli, store, devices, kind, count, seed=1):
    """The baseline: `count` questions through the CLI, 2 processes at once; questions/s."""
    rng = random.Random(seed)
    commands = []
    for _ in range(count):
        device, first, last = rng.choice(devices)
        at = datetime.fromtimestamp(rng.randint(first, last), timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
        command = [cli, kind, "--store", store, "--device", device, "--at", at, "--json"]
        if kind == "why":
            command += ["--stack", f"stack-{rng.randint(0, 1)}"]
        commands.append(command)

    def ask(command):
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    start = time.perf_counter()
    with ThreadPoolExecutor(max_workers=2) as pool:
        list(pool.map(ask, commands))
    return count / (time.perf_counter() - start)


def first_renders(server, devices, runs=7, seed=1):
    """Milliseconds from navigation start to the page's `data-rendered` mark, per run, each a
    new page of one browser (the first is also the browser's first page)."""
    from playwright.sync_api import sync_playwright

    rng = random.Random(seed)
    times, redraws = [], []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
        for _ in range(runs):
            device, first, last = rng.choice(devices)
            day = datetime.fromtimestamp(rng.randint(first, last - 86400) // 86400 * 86400, timezone.utc)
            page = browser.new_page()
            page.goto(server.url + f"?device={device}&from={day.strftime('%Y-%m-%dT%H:%M:%S')}&span=86400")
            page.wait_for_selector("body[data-rendered]", timeout=60000)
            times.append(int(page.get_attribute("body", "data-rendered")))
            # A zoom or pan redraws the lanes, axis and overview from the data already loaded.
            redraws.append(page.evaluate(
                "() => { const t0 = performance.now(); for (let i = 0; i < 5; i++) draw(); return (performance.now() - t0) / 5; }"))
            page.close()
        browser.close()
    return times, redraws


def overview_times(server, devices):
    """Seconds for each device's first `/api/overview` since the log last grew (the tally of
    the whole log when the server has just started, of the new records after a commit), then
    the same question again (kept for the commit)."""
    first, again = [], []
    for device, _, _ in devices:
        for out in (first, again):
            start = time.perf_counter()
            server.get(f"api/overview?device={device}")
            out.append(time.perf_counter() - start)
    return first, again


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--cli", required=True)
    parser.add_argument("--workload", required=True)
    parser.add_argument("--store", required=True)
    parser.add_argument("--seconds", type=int, default=20)
    parser.add_argument("--work", required=True)
    parser.add_argument("--cli-questions", type=int, default=200)
    args = parser.parse_args()

    server = Server(args.cli, args.store)
    try:
        listed = json.loads(server.get("api/devices"))["devices"]
        devices = [(d["device"], int(parse_time(d["first"]).timestamp()), int(parse_time(d["last"]).timestamp()))
                   for d in listed]
        events = sum(d["events"] for d in listed)
        print(f"store: {events:,} events, {len(devices)} devices; server {server.url}")
        # The overview as the first page opened on a new server asks for it.
        overview_start, _ = overview_times(server, devices)
        print(f"/api/overview per device right after the server started, s: {[round(t, 3) for t in overview_start]}")
        wrk(server, devices, "mixed", 5, args.work, seed=99)  # warm: the page cache and both engines
        figures = {}
        for kind in ("state", "why"):
            served = wrk(server, devices, kind, args.seconds, args.work)
            rate = cli_questions(args.cli, args.store, devices, kind, args.cli_questions)
            figures[kind] = (served, rate)
            print(f"/api/{kind}, 16 connections: {served['rate']:,.0f} requests/s, p50 {served['p50']:.2f} ms, "
                  f"p99 {served['p99']:.2f} ms; CLI `{kind}`, 2 processes: {rate:,.1f} questions/s; "
                  f"ratio {served['rate'] / rate:.1f}")

        # The same while another process ingests a new device's events into the store.
        ingest = subprocess.Popen(
            f"{args.workload} --events 400000 --devices 1 --seed 7 "
            f"| sed 's/\"device-0\"/\"device-live\"/; s/\"id\":\"d0-/\"id\":\"live-/' "
            f"| {args.cli} ingest --store {args.store} -",
            shell=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(1)
        during = wrk(server, devices, "state", args.seconds, args.work, seed=5)
        still = ingest.poll() is None
        if ingest.wait() != 0:
            raise SystemExit(f"the ingest beside the questions failed (exit {ingest.returncode}): nothing was measured")
        print(f"/api/state while ingesting (ingest {'still running' if still else 'finished'} at the end): "
              f"{during['rate']:,.0f} requests/s, p50 {during['p50']:.2f} ms, p99 {during['p99']:.2f} ms")

        overview_first, overview_again = overview_times(server, devices)
        print(f"/api/overview per device after the commit, first / again, s: {[round(t, 3) for t in overview_first]} / "
              f"{[round(t, 4) for t in overview_again]}")
        renders, redraws = first_renders(server, devices)
        print(f"first render of a device-day in Chromium, ms from navigation start: {renders}; "
              f"a redraw, ms: {[round(r, 1) for r in redraws]}")

    finally:
        server.stop()

    # Anonymous memory of a new server: after 10,000 requests, then after 100,000 in all.
    server = Server(args.cli, args.store)
    try:
        ask_count(server, devices, 10_000, seed=11)
        at_10k = server.anonymous_mb()
        ask_count(server, devices, 90_000, seed=12)
        at_100k = server.anonymous_mb()
        print(f"server anonymous memory: {at_10k:.1f} MB after 10,000 requests, {at_100k:.1f} MB after 100,000")
    finally:
        server.stop()

    def verdict(ok):
        return "met" if ok else "NOT MET"

    print("\n| figure | measured | target |")
    print("|---|---|---|")
    for kind, (served, rate) in figures.items():
        print(f"| `/api/{kind}` p50 / p99, 16 clients | {served['p50']:.2f} / {served['p99']:.2f} ms | "
              f"≤ 5 / ≤ 50 ms: {verdict(served['p50'] <= 5)} / {verdict(served['p99'] <= 50)} |")
        print(f"| `/api/{kind}` throughput / CLI's (2 processes) | {served['rate']:,.0f} / {rate:,.1f} per s: "
              f"{served['rate'] / rate:.1f}× | ≥ 20×: {verdict(served['rate'] / rate >= 20)} |")
    print(f"| `/api/state` while ingesting, p50 / p99 | {during['p50']:.2f} / {during['p99']:.2f} ms, "
          f"{during['rate']:,.0f} per s | reported |")
    print(f"| first render of a device-day, median of {len(renders)} (the browser's first page; the slowest) | "
          f"{statistics.median(renders):.0f} ({renders[0]}; {max(renders)}) ms | < 1,000 ms: "
          f"median {verdict(statistics.median(renders) < 1000)}, slowest {verdict(max(renders) < 1000)} |")
    first = max(max(overview_start), max(overview_first))
    print(f"| the overview of a device's whole log, slowest device: on a new server / after a commit / again | "
          f"{max(overview_start):.3f} / {max(overview_first):.3f} / {max(overview_again):.4f} s | "
          f"first < 1 s: {verdict(first < 1)} |")
    print(f"| a redraw of a device-day (a zoom or pan), median of {len(redraws)} | {statistics.median(redraws):.1f} ms | "
          f"≤ 16 ms: {verdict(statistics.median(redraws) <= 16)} |")
    print(f"| anonymous memory, 100,000 vs 10,000 requests | {at_100k:.1f} vs {at_10k:.1f} MB: "
          f"{at_100k - at_10k:+.1f} MB | within 10 MB: {verdict(abs(at_100k - at_10k) <= 10)} |")


if __name__ == "__main__":
    sys.exit(main())
