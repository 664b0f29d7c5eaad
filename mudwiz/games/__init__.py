"""The games this server offers, by the name a table is created with (``/new wizard``): one ``GamePlugin`` each,
found through the ``mudwiz.games`` entry point group, so an installed package adds a game without touching mudwiz.

Everything that lists games (``/help``, ``/new``, the welcome's catalogue, the lobby, the client, the bot levels)
reads this registry. A plugin that fails to load is logged and left out; it never stops the server.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from functools import cache, partial
from importlib.metadata import EntryPoint, entry_points

from twisted.logger import Logger

from mudwiz.errors import BadCommand
from mudwiz.games.base import Game
from mudwiz.games.builtin import BUILTIN
from mudwiz.games.plugin import GROUP, GamePlugin

log = Logger()


def _order(ep: EntryPoint) -> tuple[int, int, str]:
    """Built-ins first in their own order, then other games by name: the same list on every start."""
    dist = getattr(ep, "dist", None)
    own = ep.name in BUILTIN and (dist.name if dist is not None else ep.value.split(".")[0]) == "mudwiz"
    return (0, list(BUILTIN).index(ep.name), "") if own else (1, 0, ep.name)


def _loaded(name: str, what: str, get: Callable[[], object]) -> GamePlugin | None:
    """A plugin checked and its engine imported; None (logged) for anything broken."""
    try:
        plugin = GamePlugin.of(get())
        plugin = dataclasses.replace(plugin, engine=plugin.engine_class)
    except Exception:
        log.failure("game plugin {name} ({what}) could not be loaded: left out", name=name, what=what)
        return None
    if plugin.name != name:
        log.error("game plugin {name} ({what}) is a game called {other!r}: left out",
                  name=name, what=what, other=plugin.name)
        return None
    return plugin


@cache
def plugins() -> dict[str, GamePlugin]:
    """Every game that loaded, by name, built-ins first."""
    found: dict[str, GamePlugin] = {}
    for ep in sorted(entry_points(group=GROUP), key=_order):
        if ep.name in found:
            log.error("game plugin {name} ({what}) is registered twice: the first ({first}) is kept",
                      name=ep.name, what=ep.value, first=found[ep.name].engine)
            continue
        plugin = _loaded(ep.name, ep.value, ep.load)
        if plugin is not None:
            found[ep.name] = plugin
    missing = [name for name in BUILTIN if name not in found]
    if missing and not any(ep.name in BUILTIN for ep in entry_points(group=GROUP)):
        # Metadata from before the games were entry points (an old `pip install -e .`): still offer the built-ins.
        log.warn("mudwiz's own game entry points are not installed (pip install -e . again): built-ins used")
        for name in missing:
            plugin = _loaded(name, "mudwiz.games.builtin", partial(BUILTIN.__getitem__, name))
            if plugin is not None:
                found[name] = plugin
        found = {**{n: found[n] for n in BUILTIN if n in found}, **{n: p for n, p in found.items() if n not in BUILTIN}}
    return found


def available() -> list[str]:
    """Names of the games this server offers, in the order they are listed."""
    return list(plugins())


def plugin(name: str | None) -> GamePlugin | None:
    """The plugin of game ``name`` (any case), or None when this install has no such game."""
    return plugins().get(name.lower()) if name else None


def game_class(name: str) -> type[Game]:
    found = plugin(name)
    if found is None:
        raise BadCommand(f"no game called {name!r}; games: {', '.join(available())}")
    return found.engine_class
