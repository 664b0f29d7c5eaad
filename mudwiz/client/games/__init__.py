"""The client's part of the built-in games' plugins (``GamePlugin.client``): the per-player columns of the table
pane (``columns(state)``), the order of its rows (``order(state)``), the table's facts in force
(``info_segments(state)``) and the move Enter offers first when the game asks something new of you
(``first_choice(state, before)``). A game without such a module gets its players' plain fields as columns, in
trick order, and no facts but dealer and leader.

``client_part`` lives here, not in ``panes``: the model asks for ``first_choice`` too, and ``panes`` imports the
model."""

from __future__ import annotations

from collections.abc import Callable
from importlib import import_module
from typing import Any

from mudwiz.games import plugin


def client_part(game: str | None, part: str) -> Callable[..., Any] | None:
    """A function of the game's client module (its plugin's ``client``: ``columns``, ``info_segments``, ...), or
    None for a game this install does not know or whose plugin has no such part."""
    found = plugin(game)
    if found is None or found.client is None:
        return None
    try:
        module = import_module(found.client)
    except ImportError:
        return None
    return getattr(module, part, None)
