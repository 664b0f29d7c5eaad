"""The games this server offers, by the name a table is created with (``/new wizard``): one ``GamePlugin`` each,
found through the ``mudwiz.games`` entry point group, so an installed package adds a game without touching mudwiz.

Everything that lists games (``/help``, ``/new``, the welcome's catalogue, the lobby, the client, the bot levels)
reads this registry. A plugin that fails to load is logged and left out; it never stops the server.
"""

from __future__ import annotations

import dataclasses
import pkgutil
from collections.abc import Callable
from functools import cache, partial
from importlib.metadata import EntryPoint, entry_points

from twisted.logger import Logger

from mudwiz.errors import BadCommand
from mudwiz.games.base import Game
from mudwiz.games.plugin import GROUP, GamePlugin, load
from mudwiz.texts import Domain, Later, later

log = Logger()


def _own(ep: EntryPoint) -> bool:
    """Whether an entry point is one of mudwiz's own games (listed first, in their plugins' ``order``)."""
    dist = getattr(ep, "dist", None)
    return (dist.name if dist is not None else ep.value.split(".")[0]) == "mudwiz"


def builtin_paths() -> dict[str, str]:
    """mudwiz's own games as found in its source, without entry points: each package of ``mudwiz.games`` that has
    a ``plugin`` module, by package name -> the path of its ``PLUGIN``."""
    return {info.name: f"{__name__}.{info.name}.plugin:PLUGIN" for info in pkgutil.iter_modules(__path__)
            if info.ispkg}


def _loaded(name: str, what: str, get: Callable[[], object]) -> GamePlugin | None:
    """A plugin checked and its engine imported; None (logged) for anything broken."""
    try:
        plugin = GamePlugin.of(get())
        plugin = dataclasses.replace(plugin, engine=plugin.engine_class)
        if plugin.texts is not None:  # its catalog's domain, for its texts to be read in every language
            load(plugin.texts)
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
    own: set[str] = set()
    points = entry_points(group=GROUP)
    for ep in sorted(points, key=lambda ep: (not _own(ep), ep.name)):
        if ep.name in found:
            log.error("game plugin {name} ({what}) is registered twice: the first ({first}) is kept",
                      name=ep.name, what=ep.value, first=found[ep.name].engine)
            continue
        plugin = _loaded(ep.name, ep.value, ep.load)
        if plugin is not None:
            found[ep.name] = plugin
            own |= {ep.name} if _own(ep) else set()
    if not any(_own(ep) for ep in points):
        # Metadata from before the games were entry points (an old `pip install -e .`): still offer the built-ins.
        log.warn("mudwiz's own game entry points are not installed (pip install -e . again): built-ins used")
        for name, path in builtin_paths().items():
            plugin = _loaded(name, path, partial(load, path))
            if plugin is not None and name not in found:
                found[name] = plugin
                own.add(name)
    return dict(sorted(found.items(), key=lambda item: (item[0] not in own, item[1].order, item[0])))


def available() -> list[str]:
    """Names of the games this server offers, in the order they are listed."""
    return list(plugins())


def plugin(name: str | None) -> GamePlugin | None:
    """The plugin of game ``name`` (any case), or None when this install has no such game."""
    return plugins().get(name.lower()) if name else None


def section_help(command: str) -> Later:
    """``/help``'s words for a command that shows one section of a game's rules (``/spells``): those of the
    first game whose plugin declares it (``GamePlugin.sections``), read in each reader's language."""
    found = next((p for p in plugins().values() if command in p.sections), None)
    if found is None:
        return later("the {section} of a game here", section=command)
    return its_text(found, found.sections[command])


def its_text(found: GamePlugin, text: str) -> Later:
    """A text a game's plugin marked for its own catalog (``N_``: a letter's meaning, a section's help words), to
    be read in the reader's language; as written where the game has no catalog."""
    domain = load(found.texts) if found.texts else None
    return Later(domain.name if isinstance(domain, Domain) else "", text)


def languages() -> list[str]:
    """The languages ``/rules`` can be shown in (``en``, ``ja``): English, which every game has, and each language
    some game's plugin has its rules in (``GamePlugin.rules_in``); a game without one is shown the English."""
    return list(dict.fromkeys(["en", *(lang for p in plugins().values() for lang in p.rules_in)]))


def game_class(name: str) -> type[Game]:
    found = plugin(name)
    if found is None:
        raise BadCommand(later("no game called {name}; games: {games}", name=repr(name), games=", ".join(available())))
    return found.engine_class
