"""Swiss pairing for games of several players a table, and a round's points: sans-I/O, no clock, no table.

Each round the entrants are ordered by standing (points, then rating, then name) and dealt into tables of the
size asked, the top of the order together, as a Swiss system seats similar scores together. Then seats are
exchanged between neighbouring tables wherever that lowers the number of pairs of players who have met before
(never at the price of mixing standings more than one table apart), so nobody meets the same opponents again
where it can be avoided. The last table takes what is left over; its empty seats are the bots' (``bots``).

A table's points go by place, from the bottom 0, 1, 2, 4, 8, ... (4 seats: 4/2/1/0; 3: 2/1/0), the tied sharing
the average of their places' points; a bot's points are its own and go to nobody.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from mudwiz.seasons import place_points


@dataclass(frozen=True)
class Pairing:
    """One round's tables: each a list of entrants' names in seat order; ``bots`` the empty seats of the last."""

    tables: list[list[str]]
    bots: int


def table_count(entrants: int, size: int) -> int:
    return max(1, math.ceil(entrants / size))


def pair(entrants: Sequence[str], points: Mapping[str, float], ratings: Mapping[str, float],
         met: set[frozenset[str]], size: int) -> Pairing:
    """Round's tables of ``size`` seats for ``entrants`` (``met``: pairs who shared a table already)."""
    order = sorted(entrants, key=lambda n: (-points.get(n, 0.0), -ratings.get(n, 0.0), n.lower()))
    count = table_count(len(order), size)
    tables = [order[i * size:(i + 1) * size] for i in range(count)]
    improved = True
    while improved:  # exchange seats of neighbouring tables while that meets fewer old opponents
        improved = False
        for upper, lower in zip(tables, tables[1:], strict=False):
            for i, j in itertools.product(range(len(upper)), range(len(lower))):
                before = repeats(upper, met) + repeats(lower, met)
                upper[i], lower[j] = lower[j], upper[i]
                if repeats(upper, met) + repeats(lower, met) < before:
                    improved = True
                else:
                    upper[i], lower[j] = lower[j], upper[i]
    return Pairing(tables, count * size - len(order))


def repeats(table: Sequence[str], met: set[frozenset[str]]) -> int:
    """How many pairs at ``table`` have met before."""
    return sum(1 for a, b in itertools.combinations(table, 2) if frozenset((a.lower(), b.lower())) in met)


def met_pairs(tables: Sequence[Sequence[str]]) -> set[frozenset[str]]:
    """The pairs of players (lower-cased) who sat at one of ``tables`` together."""
    return {frozenset((a.lower(), b.lower())) for table in tables for a, b in itertools.combinations(table, 2)}


@dataclass(frozen=True)
class Standing:
    name: str
    points: float
    buchholz: float  # the sum of the points of every opponent met (each time met)
    firsts: int  # tables won (a shared first place counts)
    score: int  # the sum of their game scores, the last tie-break


def standings(entrants: Sequence[str], results: Sequence[Mapping[str, tuple[int, int]]]) -> list[Standing]:
    """The order of ``entrants`` after the tables ``results`` (each: name -> (place, score), bots included, the
    entrants' names as entered): points, then Buchholz, then first places, then game scores, then name."""
    points = {n: 0.0 for n in entrants}
    firsts = {n: 0 for n in entrants}
    score = {n: 0 for n in entrants}
    opponents: dict[str, list[str]] = {n: [] for n in entrants}
    for table in results:
        names = list(table)
        got = place_points([table[n][0] for n in names])
        for name, earned in zip(names, got, strict=True):
            if name not in points:
                continue  # a bot's
            points[name] += earned
            firsts[name] += table[name][0] == 1
            score[name] += table[name][1]
            opponents[name] += [o for o in names if o != name and o in points]
    rows = [Standing(n, points[n], sum(points[o] for o in opponents[n]), firsts[n], score[n]) for n in entrants]
    return sorted(rows, key=lambda r: (-r.points, -r.buchholz, -r.firsts, -r.score, r.name.lower()))
