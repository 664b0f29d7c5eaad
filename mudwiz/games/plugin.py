"""One game as one entry: what the server, the bots, the renderers and the client need to know about it.

A ``GamePlugin`` is data, not behaviour: the engine class and dotted paths (``"package.module:attr"``) to the
optional parts, which are imported only when used. A package adds a game by pointing an entry point of the
``mudwiz.games`` group at one (``docs/games.md``); nothing in mudwiz lists games by hand any more.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from importlib import import_module
from typing import Any

from mudwiz.games.base import Game

GROUP = "mudwiz.games"  # the entry point group plugins register in


def load(path: str) -> Any:
    """The object a ``"module:attr"`` path names (``"module"`` alone: the module). Raises ImportError or
    AttributeError when it is missing, for the caller to log."""
    module, _, attr = path.partition(":")
    obj: Any = import_module(module)
    for part in attr.split(".") if attr else ():
        obj = getattr(obj, part)
    return obj


@dataclass(frozen=True)
class GamePlugin:
    """A game's parts. Only ``engine`` is required: a game without a renderer is drawn by
    ``mudwiz.render.generic``, one without bots of a level plays that level randomly, one without client columns
    shows its players' plain fields in the client.

    - ``engine``: the ``Game`` subclass, or its ``"module:Class"`` path (imported when the registry loads);
    - ``renderer``: a module path with ``table_view``, ``score_sheet`` and ``event_lines`` (any may be left out);
    - ``bots``: level name -> ``"module:Class"`` of a policy (``mudwiz.bots.Bot`` subclass); ``random`` is free;
    - ``client``: a module path with ``columns(state)`` and ``info_segments(state)`` for the terminal client;
    - ``low_wins``: the lowest score wins (a rise in score is bad news);
    - ``bot_ratings``: level -> (mu, sigma), the levels' fixed ratings (``bench/ratings.py`` calibrates them); a
      level not here plays as a fresh rating;
    - ``order``: where mudwiz lists its own games (other distributions' games follow by name).
    """

    engine: type[Game] | str
    renderer: str | None = None
    bots: Mapping[str, str] = field(default_factory=dict)
    client: str | None = None
    low_wins: bool = False
    bot_ratings: Mapping[str, tuple[float, float]] = field(default_factory=dict)
    order: int = 0

    @property
    def engine_class(self) -> type[Game]:
        engine = load(self.engine) if isinstance(self.engine, str) else self.engine
        if not (isinstance(engine, type) and issubclass(engine, Game)):
            raise TypeError(f"{self.engine!r} is not a mudwiz.games.base.Game subclass")
        return engine

    @property
    def name(self) -> str:
        """The name tables are opened with (``/new NAME``): the engine's own ``name``."""
        return self.engine_class.name

    @property
    def rules(self) -> Mapping[str, str]:
        """The rules in brief, by section: the engine's ``RULES`` (the game owns its text)."""
        return self.engine_class.RULES

    @classmethod
    def of(cls, obj: Any) -> GamePlugin:
        """What an entry point names, as a plugin: a ``GamePlugin``, or a bare ``Game`` subclass (a game that
        needs nothing but its engine)."""
        if isinstance(obj, GamePlugin):
            return obj
        if isinstance(obj, type) and issubclass(obj, Game):
            return cls(engine=obj)
        raise TypeError(f"{obj!r} is neither a GamePlugin nor a Game subclass")
