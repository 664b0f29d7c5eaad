"""Computer players. A bot sees only its own ``view`` (exactly what a person in its seat would) and answers
with one action in the common vocabulary; the table plays it through the same call a person's command uses.

Levels are looked up by name so the table need not know how any bot thinks.
"""

from __future__ import annotations

import random
from importlib import import_module
from typing import Any, Protocol

from mudwiz.errors import BadCommand

RANDOM = "mudwiz.bots.randombot:RandomBot"
# level -> the policy class, either one for every game or one per game name (a game without one plays randomly)
LEVELS: dict[str, str | dict[str, str]] = {
    "random": RANDOM,
    "good": {
        "wizard": "mudwiz.bots.wizard_good:WizardGood",
        "witches": "mudwiz.bots.witches_good:WitchesGood",
        "tiltowait": "mudwiz.bots.tiltowait_good:TiltowaitGood",
    },
}


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
    target = LEVELS.get(level)
    if target is None:
        raise BadCommand(f"no bot level {level!r}; levels: {', '.join(LEVELS)}")
    if isinstance(target, dict):
        target = target.get(game.lower(), RANDOM)
    module, _, attr = target.partition(":")
    return getattr(import_module(module), attr)(game, rng)

