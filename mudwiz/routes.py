"""Where a cluster carries out a command (``Route``): declared by each command in the registry
(mudwiz/commands/registry.py) and read by the cluster's visits (mudwiz/cluster/visits.py), kept below both so
that the cluster need not import the commands to know it."""

from __future__ import annotations

from enum import Enum


class Route(Enum):
    """Where a cluster carries out a command typed by a user whose table another process hosts
    (mudwiz/cluster/visits.py); a game's verb, registered nowhere here, goes to the table."""

    HOME = "home"  # the user's own process
    TABLE = "table"  # the table's process
    # the table's process (it says more there), or home when that one does not answer
    ABOUT_TABLE = "about the table"  # i18n: not text (a name in code)
    NOT_ELSEWHERE = "not elsewhere"  # i18n: not text; refused at home, as at a local table: /leave it first
