"""The rules engines, by the name a table is created with (``/new wizard``).

Engines are imported on first use so that one game's module never has to know about the others.
"""

from __future__ import annotations

from importlib import import_module

from mudwiz.errors import BadCommand
from mudwiz.games.base import Game

GAMES = {
    "wizard": "mudwiz.games.wizard:Wizard",
    "witches": "mudwiz.games.witches:Witches",
    "tiltowait": "mudwiz.games.tiltowait:Tiltowait",
}


def available() -> list[str]:
    """Names of the games whose engine module is present."""
    names = []
    for name in GAMES:
        try:
            game_class(name)
        except BadCommand:
            continue
        names.append(name)
    return names


def game_class(name: str) -> type[Game]:
    target = GAMES.get(name.lower())
    if target is None:
        raise BadCommand(f"no game called {name!r}; games: {', '.join(GAMES)}")
    module, _, attr = target.partition(":")
    try:
        return getattr(import_module(module), attr)
    except ModuleNotFoundError as exc:
        if exc.name != module:
            raise
        raise BadCommand(f"{name} is not available on this server yet") from None
