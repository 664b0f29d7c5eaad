"""Season points in SQL both databases run (the table is schema version 11's, competition.py): each rated game
adds its registered players' place points (mudwiz/seasons.py) to their season, in the game record's
transaction."""

from __future__ import annotations

import json
from collections.abc import Sequence
from contextlib import closing
from typing import Any

from mudwiz.seasons import place_points, season_of, season_period
from mudwiz.store.base import GameRecord
from mudwiz.store.dialect import DB, SQLHooks

PEOPLE = ("person", "stand-in")  # the seats that gather season points, as ratings.PEOPLE

SeasonRow = tuple[str, float, int]  # name, points, games


class SeasonsSQL(SQLHooks):
    """The ``Store`` methods of seasons; ``SQLStore`` (sql.py) gives the connections."""

    def _add_season_points(self, db: DB, season: str, game: str, rows: Sequence[tuple[str, float]]) -> None:
        with closing(db.cursor()) as cursor:
            cursor.executemany(self._sql(
                "INSERT INTO season_points (season, game, name_key, name, points, games) VALUES (?, ?, ?, ?, ?, 1) "
                "ON CONFLICT (season, game, name_key) DO UPDATE SET name = excluded.name, "
                "points = season_points.points + excluded.points, games = season_points.games + 1"),
                [(season, game, name.lower(), name, float(points)) for name, points in rows])

    def add_season_points(self, season: str, game: str, rows: Sequence[tuple[str, float]]) -> None:
        with self._transaction() as db:
            self._add_season_points(db, season, game, rows)

    def season_table(self, season: str, game: str, limit: int = 10) -> list[SeasonRow]:
        with self._reading() as db:
            rows = db.execute(self._sql(
                "SELECT name, points, games FROM season_points WHERE season = ? AND game = ? "
                "ORDER BY points DESC, games, name_key LIMIT ?"), (season, game, limit)).fetchall()
        return [(str(n), float(p), int(g)) for n, p, g in rows]

    def season_winners(self, game: str | None = None, before: str | None = None) -> list[tuple[str, str, str, float]]:
        """Each season's top player of each game (game given: that game's), seasons before ``before`` only when
        it is given, newest first: (season, game, name, points); a tie at the top goes to fewer games, then the
        name. One pass over the season rows asked for (a few hundred a season)."""
        where, args = ["1 = 1"], []
        if game is not None:
            where.append("game = ?")
            args.append(game)
        if before is not None:
            where.append("season < ?")
            args.append(before)
        with self._reading() as db:
            rows = db.execute(self._sql(
                f"SELECT season, game, name, points, games FROM season_points WHERE {' AND '.join(where)} "
                "ORDER BY season DESC, game, points DESC, games, name_key"), tuple(args)).fetchall()
        best: dict[tuple[str, str], tuple[str, str, str, float]] = {}
        for season, g, name, points, _ in rows:
            best.setdefault((season, g), (str(season), str(g), str(name), float(points)))
        return list(best.values())

    def _season_game(self, db: DB, record: GameRecord, registered: set[str]) -> None:
        """Inside ``record_game``'s transaction, for a rated game: each registered person's place points
        (``place_points`` over every seat) added to the season of the game's end (``MUDWIZ_SEASON``)."""
        if not record.standings or len(record.seats) < 2:
            return
        places = {row["player"].lower(): int(row["place"]) for row in record.standings}
        if any(s["name"].lower() not in places for s in record.seats):
            return
        points = place_points([places[s["name"].lower()] for s in record.seats])
        rows = [(s["name"], p) for s, p in zip(record.seats, points, strict=True)
                if s["kind"] in PEOPLE and s["name"].lower() in registered]
        if rows:
            self._add_season_points(db, season_of(record.ended, season_period()), record.game, rows)

    def fame_games(self, game: str | None, limit: int) -> tuple[list[tuple[int, str, list[dict[str, Any]]]], set[str]]:
        """The last ``limit`` games with standings (of ``game`` when given), oldest first: (id, game, standings),
        and the lower-cased registered names among their players: the hall of fame's records are read from these
        (``seasons.fame_records``). Cost: one read of at most ``limit`` rows by the games' key, and one of the
        accounts of their names."""
        where, args = ("standings IS NOT NULL", []) if game is None else ("standings IS NOT NULL AND game = ?", [game])
        with self._reading() as db:
            rows = db.execute(self._sql(f"SELECT id, game, standings FROM games WHERE {where} "
                                        "ORDER BY id DESC LIMIT ?"), (*args, limit)).fetchall()
            games = [(int(i), str(g), list(json.loads(s))) for i, g, s in reversed(rows)]
            keys = sorted({str(r["player"]).lower() for _, _, standings in games for r in standings})
            if not keys:
                return games, set()
            known, known_args = self.dialect.one_of("name_key", keys)
            registered = {str(k) for (k,) in db.execute(
                self._sql(f"SELECT name_key FROM accounts WHERE {known}"), known_args)}
        return games, registered
