"""The two words every part of a game speaks: a seat, by its number, and where the game stands (``Phase``)."""

from __future__ import annotations

from enum import StrEnum

Seat = int


class Phase(StrEnum):
    """Where a table's game stands, one vocabulary for engines, renderers, bots and the client. A member equals
    its word (``Phase.PLAYING == "playing"``), so views and JSON carry the words the protocol documents."""

    # every game
    WAITING = "waiting"  # the table's, before the start: no game yet
    PLAYING = "playing"
    ROUNDEND = "roundend"  # a round is scored; the table's ``advance()`` ends the pause
    GAMEOVER = "gameover"
    # A game's own phases (bidding, passing...) are its plugin's (``GamePlugin.phases``), not members here.
