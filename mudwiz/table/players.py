"""What only the table knows of each of its game's players, the same for every viewer of a state: whether a bot
holds the seat, whether they are away and for how long, a stand-in, the rating shown with them (``who_is_who``)."""

from __future__ import annotations

from typing import Any

from mudwiz.games.base import Game
from mudwiz.ratings import RatingBoard
from mudwiz.session import Session
from mudwiz.table.botseat import is_stand_in, seat_kind
from mudwiz.table.state import TableState


class Players:
    """The table's own fields of each player, made once for an update and kept while nothing in them changes."""

    def __init__(self, table: TableState, board: RatingBoard | None) -> None:
        """``board``: the ratings shown with each player (None: a server that keeps no records)."""
        self.table = table
        self.board = board
        # the last ``who_is_who`` made with every holder of a seat connected, for its game and those holders
        self._people: tuple[Game, list[Session | None], dict[str, dict[str, Any]]] | None = None

    def who_is_who(self) -> dict[str, dict[str, Any]]:
        """What only the table knows of each of the game's players, by lower-cased name, the same for every
        viewer: whether a bot holds the seat, whether they are away and for how long, a stand-in, their rating."""
        table = self.table
        game = table.game
        assert game is not None
        roster = table.roster
        holders = [roster.seated(name) for name in game.players]  # None once they left a finished game
        connected = [h is not None and h.connected for h in holders]
        # The same holders, all connected, in a game still running: nothing here has changed (a session's kind is
        # fixed, ratings change at a game's end), and building it was a tenth of a state's cost.
        steady = all(connected) and not game.finished
        known = self._people
        if steady and known is not None and known[0] is game and known[1] == holders:
            return known[2]
        now = table.clock.seconds()
        board = self.board
        failed = board.failed if board is not None else 0
        people = {}
        for name, holder, on in zip(game.players, holders, connected, strict=True):
            away = not on
            fields: dict[str, Any] = {"bot": holder is not None and holder.is_bot, "away": away,
                                      "stand_in": is_stand_in(holder),
                                      "rating": self.rating(name, holder)}
            key = name.lower()
            if away and (until := roster.away_until.get(key)) is not None:
                fields["away_for"] = max(0, round(until - now))
            people[key] = fields
        if board is not None and board.failed != failed:  # a rating not read: asked again on the next update
            steady = False
        self._people = (game, holders, people) if steady else None
        return people

    def rating(self, name: str, holder: Session | None) -> int | None:
        """The rating shown for a seat in this table's game, from the ratings in memory (no read of the store for
        a state): a person's (a stand-in's: the person's), a bot level's fixed entry; None for a guest, a player
        not rated yet, or a server that keeps no records."""
        board = self.board
        if board is None:
            return None
        return board.for_seat(name, "person" if holder is None else seat_kind(holder), self.table.name)
