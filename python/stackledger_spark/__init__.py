"""Replays a fleet of StackLedger device logs on Apache Spark.

`replay_fleet(events)` takes a DataFrame of events (device, seq, line) and returns the tables
of `stackledger export sqlite`, one DataFrame each, with `errors` for the devices whose log
could not be replayed. `python -m stackledger_spark` does the same from Parquet or NDJSON files
to a folder of Parquet tables. See docs/fleet.md.
"""

from .fleet import FleetTables, replay_fleet
from .inputs import read_events
from .tables import TABLES

__all__ = ["TABLES", "FleetTables", "read_events", "replay_fleet"]
