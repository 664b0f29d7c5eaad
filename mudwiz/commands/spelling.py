"""A person's name as its owner spells it, for the commands that take one (``/ignore``, ``/channel mute``): a
module of its own, registering no command, so importing it does not change the order the commands register in."""

from __future__ import annotations

from mudwiz.errors import BadCommand
from mudwiz.lobby import Lobby
from mudwiz.texts import later


def spelled(lobby: Lobby, name: str) -> str:
    """``name`` as its owner spells it, found as /ignore finds a name (online, held or registered)."""
    online = lobby.find_user(name)
    if online is not None:
        return online.name
    if lobby.holds_name(name):
        return lobby.held_spelling(name)
    registered = lobby.registered_as(name)
    if registered is not None:  # offline: as registered, not as typed
        return registered
    raise BadCommand(later('nobody is called {name}', name=name))
