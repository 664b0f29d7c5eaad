"""Seasons: the period a game's end falls in (``MUDWIZ_SEASON``: month, quarter or year) and the points a place at
a table earns, both pure, for the store (season points added as a rated game is recorded) and the tournaments."""

from __future__ import annotations

import os
import time
from collections.abc import Iterable, Mapping, Set
from typing import Any

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


FameGame = tuple[int, str, list[dict[str, Any]]]  # a game's id, its game's name, its standings


def fame_records(games: Iterable[FameGame], registered: Set[str]) -> dict[str, dict[str, Any]]:
    """A game's records, from its finished games oldest first: ``best_score`` (the most points one registered
    person made in one game: name, score, id), ``streak`` (the most first places in a row one registered person
    took in the games of it they played: name, games) and ``most_games`` (name, games); the earliest holder keeps
    a record another only equals. Linear in the games given."""
    found: dict[str, dict[str, Any]] = {}
    runs: dict[tuple[str, str], int] = {}
    played: dict[tuple[str, str], int] = {}
    names: dict[str, str] = {}
    for game_id, game, standings in games:
        best = found.setdefault(game, {"best_score": None, "streak": None, "most_games": None})
        for row in standings:
            key = str(row["player"]).lower()
            if key not in registered:
                continue
            names[key] = str(row["player"])
            score = row.get("score")
            if isinstance(score, int | float) and (best["best_score"] is None or score > best["best_score"]["score"]):
                best["best_score"] = {"name": row["player"], "score": score, "id": game_id}
            run = runs[(game, key)] = runs.get((game, key), 0) + 1 if row.get("place") == 1 else 0
            if run and (best["streak"] is None or run > best["streak"]["games"]):
                best["streak"] = {"name": row["player"], "games": run}
            count = played[(game, key)] = played.get((game, key), 0) + 1
            if best["most_games"] is None or count > best["most_games"]["games"]:
                best["most_games"] = {"name": row["player"], "games": count}
    return found
