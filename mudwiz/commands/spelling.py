"""A person's name as its owner spells it, for the commands that take one (``/ignore``, ``/channel mute``): a
module of its own, registering no command, so importing it does not change the order the commands register in."""

from __future__ import annotations

from mudwiz.errors import BadCommand
from mudwiz.lobby import Lobby
from mudwiz.texts import later


def spelled(lobby: Lobby, name: str) -> str:
    """``name`` as its owner spells it, found as /ignore finds a name (online, held or registered)."""
    found = spelling_of(lobby, name)
    if found is None:
        raise BadCommand(later('nobody is called {name}', name=name))
    return found


def spelling_of(lobby: Lobby, name: str) -> str | None:
    """``name`` as its owner spells it (online, held, or registered: offline, as registered); None: nobody's."""
    online = lobby.find_user(name)
    if online is not None:
        return online.name
    if lobby.holds_name(name):
        return lobby.held_spelling(name)
    return lobby.registered_as(name)
