"""Competing over days, in SQL both databases run: tournaments (each one's whole state, as its runner keeps it:
mudwiz/lobby/tournaments.py) and seasons (the points each player gathers in a game over a season).

A tournament is one row whose ``state`` is its JSON, written whole at each change (a sign-up, a round paired, a
table's result), so that a restart, or another process of a cluster taking it over, carries on from the last one.
"""

from __future__ import annotations

import json
from typing import Any

from mudwiz.store.dialect import SQLHooks


def competition(seq: str) -> tuple[str, ...]:
    """Version 11: tournaments and season points, ``seq`` being this database's auto-numbered key."""
    return (
        f"""CREATE TABLE tournaments (
            id {seq},
            game TEXT NOT NULL,
            status TEXT NOT NULL,
            state TEXT NOT NULL,
            created DOUBLE PRECISION NOT NULL,
            updated DOUBLE PRECISION NOT NULL
        )""",
        "CREATE INDEX tournaments_by_status ON tournaments (status, id)",
        """CREATE TABLE season_points (
            season TEXT NOT NULL,
            game TEXT NOT NULL,
            name_key TEXT NOT NULL,
            name TEXT NOT NULL,
            points DOUBLE PRECISION NOT NULL DEFAULT 0,
            games INTEGER NOT NULL DEFAULT 0,
            PRIMARY KEY (season, game, name_key)
        )""",
    )


class TournamentsSQL(SQLHooks):
    """The ``Store`` methods of tournaments; ``SQLStore`` (sql.py) gives the connections."""

    def new_tournament(self, game: str, status: str, state: dict[str, Any], now: float) -> int:
        with self._transaction() as db:
            (tid,) = db.execute(self._sql(
                "INSERT INTO tournaments (game, status, state, created, updated) VALUES (?, ?, ?, ?, ?) RETURNING id"),
                (game, status, json.dumps(state, sort_keys=True), now, now)).fetchone()
        return int(tid)

    def save_tournament(self, tid: int, status: str, state: dict[str, Any], now: float) -> None:
        with self._transaction() as db:
            db.execute(self._sql("UPDATE tournaments SET status = ?, state = ?, updated = ? WHERE id = ?"),
                       (status, json.dumps(state, sort_keys=True), now, tid))

    def tournaments(self, statuses: tuple[str, ...], limit: int = 50) -> list[tuple[int, str, dict[str, Any]]]:
        """The tournaments in one of ``statuses``, newest first: (id, status, state)."""
        among, args = self.dialect.one_of("status", list(statuses))
        with self._reading() as db:
            rows = db.execute(self._sql(f"SELECT id, status, state FROM tournaments WHERE {among} "
                                        "ORDER BY id DESC LIMIT ?"), (*args, limit)).fetchall()
        return [(int(r[0]), str(r[1]), json.loads(r[2])) for r in rows]

    def tournament(self, tid: int) -> tuple[str, dict[str, Any]] | None:
        with self._reading() as db:
            row = db.execute(self._sql("SELECT status, state FROM tournaments WHERE id = ?"), (tid,)).fetchone()
        return None if row is None else (str(row[0]), json.loads(row[1]))
