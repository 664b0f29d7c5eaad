"""What a table is at a moment, apart from what it does: its game and move count, its people, its options, its
clocks. The table's parts (:mod:`.pacing`, :mod:`.seating`, :mod:`.fanout`, ...) read and set this and nothing
else of the table; what they make happen to it (a move played, the people changed) they ask for through the
calls they were handed when the table was made. So no part imports the table, and the table is the one place
that ties them together (:mod:`.core`). A plain class, not a protocol: the parts run on every move, and a compiled
build (mudwiz/compiled.py) reads a native class's attributes directly."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from twisted.internet.interfaces import IReactorTime

from mudwiz.errors import BadOption
from mudwiz.games.base import Game
from mudwiz.session import Session
from mudwiz.table.adjourning import Adjourned
from mudwiz.table.options import TableOptions
from mudwiz.table.roster import Roster
from mudwiz.table.timers import Timers


class TableState:
    """The table's state; ``Table`` is this and what changes it."""

    def __init__(self, table_id: int, game_class: type[Game], clock: IReactorTime, host: str, bot_delay: float,
                 seeds: random.Random) -> None:
        self.id = table_id
        self.game_class = game_class
        self.clock = clock
        self.bot_delay = bot_delay  # the server's pace for bots, unless the host sets botdelay
        self.seeds = seeds
        self.roster = Roster(host)
        self.config = TableOptions(game_class)
        self.timers = Timers(clock)
        self.game: Game | None = None
        self.games_played = 0
        self.abandoned = False  # the game ended because no person was left playing it
        self.adjourned: Adjourned | None = None  # the game waits for its people (:mod:`.adjourning`)
        self.tournament: int | None = None  # the tournament whose round this table plays: its games never adjourn
        # told of the table's game ending (finished or abandoned), before anyone may leave: a tournament's result
        self.on_over: Callable[[Any], None] | None = None
        self.moves = 0  # bumped on every change of the game, so stale timers know they are stale
        self.confirmed: set[str] = set()  # who has confirmed the round's result (:mod:`.pacing`)

    @property
    def name(self) -> str:
        return self.game_class.name

    @property
    def status(self) -> str:
        if self.game is None:
            return "waiting"
        if self.game.finished or self.abandoned:
            return "over"
        return "playing" if self.adjourned is None else "adjourned"

    @property
    def in_game(self) -> bool:
        """A game is under way: being played, or adjourned (its seats are still its players')."""
        return self.status in ("playing", "adjourned")

    @property
    def live(self) -> bool:
        """The game is being played: its bots move and its clocks run (not while it is adjourned)."""
        return self.status == "playing"

    @property
    def pace(self) -> float:
        """Seconds a bot waits before moving: the host's ``botdelay`` or the server's delay."""
        return self.config.pace(self.bot_delay)

    @property
    def table_options(self) -> dict[str, Any]:
        return self.config.settings_dict()

    def can_start(self) -> bool:
        """Whether ``/start`` would start a game with the seats and options as they are: enough players, and options
        that hold for that many (Wizard's ``tournament`` is for 3 to 5). A state offers ``/start`` only then, so a
        client that sends what ``legal`` offers never loops on a refused start."""
        cls = self.game_class
        seats = len(self.roster.seats)
        if not cls.min_players <= seats <= cls.max_players:
            return False
        try:
            cls.check_options(self.config.game_options(), seats)
        except BadOption:
            return False
        return True

    # ------------------------------------------------------------ its people and options, as the lobby and commands ask

    @property
    def seats(self) -> list[Session]:
        return self.roster.seats

    @property
    def observers(self) -> list[Session]:
        return self.roster.observers

    @property
    def host(self) -> str:
        return self.roster.host

    @host.setter
    def host(self, name: str) -> None:
        self.roster.host = name

    @property
    def away_until(self) -> dict[str, float]:
        return self.roster.away_until

    @property
    def options(self) -> dict[str, Any]:
        """The options as the host set them, the table's own among them."""
        return self.config.chosen

    def seat_of(self, name: str) -> int | None:
        return self.roster.seat_of(name)

    def seated(self, name: str) -> Session | None:
        return self.roster.seated(name)

    def is_host(self, session: Session) -> bool:
        return self.roster.is_host(session)

    def holds_seat_for(self, name: str) -> bool:
        return self.roster.holds_seat_for(name)

    def option_rows(self) -> list[dict[str, Any]]:
        return self.config.rows()

    def current_options(self) -> dict[str, Any]:
        return self.config.current()

    # ------------------------------------------------------------ the table as the lobby lists it

    def summary(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "game": self.name,
            "status": self.status,
            **({"adjourned": self.adjourned.to_json()} if self.adjourned is not None else {}),
            "host": self.host,
            "players": [s.name for s in self.seats],
            "observers": len(self.observers),
            "seats": f"{len(self.seats)}/{self.game_class.max_players}",
        }
