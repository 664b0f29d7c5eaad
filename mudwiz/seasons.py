"""Seasons: the period a game's end falls in (``MUDWIZ_SEASON``: month, quarter or year) and the points a place at
a table earns, both pure, for the store (season points added as a rated game is recorded) and the tournaments."""

from __future__ import annotations

import os
import time
from collections.abc import Mapping

PERIODS = ("month", "quarter", "year")
DEFAULT_PERIOD = "month"


def season_of(t: float, period: str) -> str:
    """The season (UTC) of ``t``, seconds since the epoch: ``2026-12`` (month), ``2026-Q4`` (quarter), ``2026``
    (year); an unknown period is refused in one line."""
    at = time.gmtime(t)
    if period == "month":
        return f"{at.tm_year:04d}-{at.tm_mon:02d}"
    if period == "quarter":
        return f"{at.tm_year:04d}-Q{(at.tm_mon - 1) // 3 + 1}"
    if period == "year":
        return f"{at.tm_year:04d}"
    raise ValueError(f"MUDWIZ_SEASON must be one of {', '.join(PERIODS)}, not {period!r}")


def season_period(environ: Mapping[str, str] | None = None) -> str:
    """The period ``MUDWIZ_SEASON`` names (default month); an unknown one is refused in one line."""
    period = (os.environ if environ is None else environ).get("MUDWIZ_SEASON", DEFAULT_PERIOD).strip().lower()
    if period not in PERIODS:
        raise ValueError(f"MUDWIZ_SEASON must be one of {', '.join(PERIODS)}, not {period!r}")
    return period


def place_points(places: list[int]) -> list[float]:
    """The season points of each seat of a table given its place (1 the best, tied seats the same place): from
    the bottom 0, 1, 2, 4, 8... (4 seats: 4, 2, 1, 0), seats that tie sharing the average of the points of the
    places they take together."""
    n = len(places)
    ladder = [0.0] + [float(2 ** i) for i in range(n - 1)]  # points of the places from the bottom
    ladder.reverse()  # ladder[k]: the points of the (k + 1)-th place
    order = sorted(range(n), key=lambda i: places[i])
    points = [0.0] * n
    k = 0
    while k < n:
        j = k
        while j < n and places[order[j]] == places[order[k]]:
            j += 1
        share = sum(ladder[k:j]) / (j - k)
        for i in order[k:j]:
            points[i] = share
        k = j
    return points
