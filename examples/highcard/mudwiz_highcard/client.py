"""High Card in mudwiz's terminal client (``mudwiz-client``): the hints its plugin's ``client`` names.

Each function is optional; the client asks for the ones a game has (docs/games.md, "The client").
"""

from __future__ import annotations

from typing import Any

from mudwiz_highcard import SWAPPING


def info_segments(state: dict[str, Any]) -> list[str]:
    """The table's facts in force, beside the dealer and the leader: whose swap it is, while the swaps last."""
    if state.get("phase") == SWAPPING:
        return [f"Swapping: {state.get('to_swap') or '?'} swaps a card or stands"]
    return []


def first_choice(state: dict[str, Any], before: dict[str, Any] | None) -> str | None:
    """When the swap is newly yours, the cursor starts on ``/stand``: a habitual Enter keeps the hand."""
    asked = state.get("you") in (state.get("waiting") or []) and state.get("phase") == SWAPPING
    was = before is not None and before.get("phase") == SWAPPING and state.get("you") in (before.get("waiting") or [])
    return "/stand" if asked and not was else None
