"""What a fleet run wrote, and from what: the `_MANIFEST.json` beside its tables."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
from datetime import datetime, timezone
from importlib import metadata
from typing import Any

#: The manifest's file name in the output folder (Spark's readers pass over names starting with `_`).
MANIFEST_NAME = "_MANIFEST.json"


def file_digest(path: str) -> str:
    """The SHA-256 of a local file, as `sha256:HEX`."""
    digest = hashlib.sha256()
    with open(path, "rb") as stream:
        for block in iter(lambda: stream.read(1 << 20), b""):
            digest.update(block)
    return "sha256:" + digest.hexdigest()


def input_files(path: str) -> list[dict[str, Any]]:
    """Every file of the input at `path` (a file, or a folder walked in name order) with its
    size and SHA-256; a remote input (hdfs://, s3a://, ...) is named whole, not hashed."""
    if "://" in path and not path.startswith("file:"):
        return [{"path": path, "bytes": None, "sha256": None, "note": "remote: not read by the driver"}]
    local = path[len("file:") :] if path.startswith("file:") else path
    if os.path.isfile(local):
        paths = [local]
    else:
        paths = [
            os.path.join(folder, name)
            for folder, folders, names in sorted(os.walk(local))
            for name in sorted(names)
            if not name.startswith((".", "_"))
        ]
    return [
        {"path": os.path.abspath(p), "bytes": os.path.getsize(p), "sha256": file_digest(p)} for p in sorted(paths)
    ]


def policy_of(binary: str, policy: str | None) -> dict[str, Any]:
    """The policy's name, version and digest, as the binary reports them."""
    command = [binary, "policy", "--json"] + (["--policy", policy] if policy else [])
    printed = subprocess.run(command, check=True, capture_output=True, text=True).stdout
    answer: dict[str, Any] = json.loads(printed)
    return {"name": answer["name"], "version": answer["version"], "digest": answer["digest"], "file": policy}


def fleet_version() -> str:
    """This package's installed version."""
    try:
        return metadata.version("stackledger-spark")
    except metadata.PackageNotFoundError:
        return "unknown"


def manifest(
    *, binary: str, policy: str | None, input_path: str, options: dict[str, Any], counts: dict[str, int],
    error_devices: list[str], seconds: float,
) -> dict[str, Any]:
    """The manifest of one run: the fleet's version, the binary's SHA-256, the policy, the input
    files with their sizes and hashes, each table's row count, and the devices in `errors`."""
    return {
        "fleet": fleet_version(),
        "binary": {"path": os.path.abspath(binary), "sha256": file_digest(binary)},
        "policy": policy_of(binary, policy),
        "input": input_files(input_path),
        "options": options,
        "tables": counts,
        "errors": sorted(error_devices),
        "seconds": round(seconds, 3),
        "written": datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
    }


def write(filesystem: Any, jvm: Any, folder: str, content: dict[str, Any]) -> str:
    """Writes `content` as `_MANIFEST.json` into `folder`: with Python's own files when the folder
    is local (no checksum file beside it), else through the folder's Hadoop file system."""
    path = f"{folder.rstrip('/')}/{MANIFEST_NAME}"
    data = (json.dumps(content, indent=2, sort_keys=True) + "\n").encode()
    if "://" not in path or path.startswith("file:"):
        local = path[len("file:") :] if path.startswith("file:") else path
        with open(local, "wb") as stream:
            stream.write(data)
    else:
        stream = filesystem.create(jvm.org.apache.hadoop.fs.Path(path), True)
        stream.write(bytearray(data))
        stream.close()
    return path
