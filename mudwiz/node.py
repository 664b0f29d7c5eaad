"""Which process of a several-process server this is: ``MUDWIZ_NODE`` names it, and the table journal
keeps it with each table it hosts, so that a process restarts with its own tables and another can claim those of a
process that died (``Store.claim_tables``). Unset or empty: the single-process server, which hosts every table."""

from __future__ import annotations

import os


def node_name() -> str:
    """This process's node name, ``MUDWIZ_NODE`` stripped of spaces ('' when unset: the single-process server)."""
    return os.environ.get("MUDWIZ_NODE", "").strip()
