"""Computer players. A bot sees only its own ``view`` (exactly what a person in its seat would) and answers
with one action in the common vocabulary; the table plays it through the same call a person's command uses.

Levels are looked up by name in the games' plugins (``GamePlugin.bots``) so the table need not know how any bot
thinks.
"""

from __future__ import annotations

import random
from typing import Any, Protocol

from mudwiz.errors import BadCommand
from mudwiz.games import plugin, plugins
from mudwiz.games.plugin import load
from mudwiz.texts import later

RANDOM = "mudwiz.bots.randombot:RandomBot"  # every game's, and the level a game without its own plays
# Old names still understood: ``good`` was the one level before ``easy``, ``normal`` and ``hard``; commands typed
# from habit, saved tables and recorded games (``bot:good``) name it, and it plays as ``normal``.
ALIASES = {"good": "normal"}


def levels() -> list[str]:
    """The bot levels: ``random`` (every game), then the levels any game's plugin brings, in the games' order."""
    named = [level for p in plugins().values() for level in p.bots]
    return list(dict.fromkeys(["random", *named]))


def canonical(level: str) -> str:
    """The level ``level`` names (lower case, an old alias resolved); unknown names are returned as typed."""
    level = level.lower()
    return ALIASES.get(level, level)


def known_level(level: str) -> str:
    """``level`` as a level's own name, or BadCommand (one line, listing the levels) when there is none such."""
    found = canonical(level)
    if found not in levels():
        raise BadCommand(later("no bot level {level}; levels: {levels}", level=repr(level), levels=", ".join(levels())))
    return found


class Policy(Protocol):
    def choose(self, view: dict[str, Any]) -> str | None:
        """An action text from ``view["legal"]`` (concrete, e.g. ``pass R3 R4 G1``), or None to do nothing."""


class Bot:
    """The constructor every level shares: ``make_policy`` builds a bot from the game's name and a seeded ``rng``,
    the bot's one source of randomness."""

    def __init__(self, game: str, rng: random.Random) -> None:
        self.game = game
        self.rng = rng


def make_policy(level: str, game: str, rng: random.Random) -> Policy:
    """The game's policy of ``level`` (its plugin's ``bots``); a game without one of that level plays randomly."""
    level = known_level(level)
    found = plugin(game)
    target = found.bots.get(level, RANDOM) if found is not None and level != "random" else RANDOM
    return load(target)(game, rng)

