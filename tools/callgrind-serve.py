"""Counts the instructions `stackledger serve` spends answering questions, under callgrind.

Starts the server under `valgrind --tool=callgrind`, collecting only inside the answer of one
kind of question (`/api/state` or `/api/why`: the answering thread's work, from the query's
parameters to its JSON), asks COUNT of them at random instants of random devices (seeded, so
that two builds are asked alike), stops the server and prints the total.
  python3 tools/callgrind-serve.py BINARY STORE KIND COUNT OUT
"""

import json
import random
import re
import subprocess
import sys
import urllib.request
from datetime import datetime, timezone

# The closures of `StoreAPI.state` and `StoreAPI.why` that answer a question.
SYMBOLS = {
    "state": "$s6Server8StoreAPIC5stateyAC6AnswerVAA15QueryParametersVKFAFyKXEfU_",
    "why": "$s6Server8StoreAPIC3whyyAC6AnswerVAA15QueryParametersVKFAFyKXEfU_",
}


def main():
    binary, store, kind, count, out = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5]
    server = subprocess.Popen(
        ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", f"--toggle-collect={SYMBOLS[kind]}",
         binary, "serve", "--store", store, "--port", "0"],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    url = None
    while url is None:
        line = server.stderr.readline()
        if not line:
            raise SystemExit("serve did not start under valgrind")
        match = re.search(r"http://[^ \n]+/", line)
        if match:
            url = match.group(0)
    try:
        devices = json.loads(urllib.request.urlopen(url + "api/devices", timeout=600).read())["devices"]
        rng = random.Random(7)
        for _ in range(count):
            device = rng.choice(devices)
            first = datetime.fromisoformat(device["first"].replace("Z", "+00:00")).timestamp()
            last = datetime.fromisoformat(device["last"].replace("Z", "+00:00")).timestamp()
            at = datetime.fromtimestamp(rng.uniform(first, last), timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
            path = f"api/{kind}?device={device['device']}&at={at}"
            if kind == "why":
                path += f"&stack=stack-{rng.randint(0, 1)}"
            urllib.request.urlopen(url + path, timeout=600).read()
    finally:
        server.terminate()
        server.wait()


if __name__ == "__main__":
    main()
