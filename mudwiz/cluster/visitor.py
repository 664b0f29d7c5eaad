"""A user of another process at one of this process's tables (``Visitor``), as the host sees them: an ordinary
``Session`` to the table, whose messages go to their home (mudwiz/cluster/visits.py), drawn here for them as
their home would draw them (``Session.drawn_as``: mode, width, charset, ambiguous width, language), so that the
home writes them as they are instead of decoding and drawing each one again."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

from mudwiz.games.base import Event
from mudwiz.render import jsonl
from mudwiz.render.ansi import Presenter
from mudwiz.render.style import Style, ambiguous_cells, fit
from mudwiz.session import Session
from mudwiz.texts import speaking

if TYPE_CHECKING:
    from mudwiz.cluster.bus import Bus
    from mudwiz.cluster.upper import Home

DRAWN_MODES = ("ansi", "ascii", "json")


class Host(Protocol):
    """What a visitor needs of the visits (``Visits``): the bus, the host's lobby, and who tells the home where
    the visitor is."""

    bus: Bus
    lobby: Home

    def report(self, visitor: Visitor, force: bool = False, lost: bool = False) -> None: ...


class Visitor(Session):
    """A user of another process at one of this process's tables: what the table says to it goes to their home."""

    def __init__(self, visits: Host, name: str, home: str) -> None:
        super().__init__(name, mode="json")
        self.visits = visits
        self.home = home
        self.code: str | None = None  # a guest's resume code, as their home issued it
        self.reported: tuple[int | None, bool] = (None, False)  # where the home was last told they are
        # how the home draws the user's messages (``Session.drawn_as``), so they are drawn here, once; None: sent
        # as messages. The presenter remembers what it drew last, as the home's would.
        self.drawn: dict[str, Any] | None = None
        self.presenter = Presenter(Style())

    def deliver(self, message: dict[str, Any], event: Event | None = None) -> None:
        if not self.connected:
            return
        drawn = self.drawn
        if drawn is None or message.get("type") == "chat":
            self.visits.bus.send(self.home, {"op": "deliver", "to": self.name, "message": message})
            return
        with speaking(self.lang), ambiguous_cells(self.presenter.style.ambiguous):  # in their words and cells
            if drawn["mode"] == "json":
                text = jsonl.encode(message)
            else:
                lines = fit(self.presenter.lines(message, event), self.presenter.style.width)
                if not lines:
                    return
                text = "\n".join(lines)
        live = event is not None or message.get("type") == "state"
        self.visits.bus.send(self.home, {"op": "drawn", "to": self.name, "text": text, "live": live})

    def wants_text(self) -> bool:
        return self.drawn is not None and self.drawn["mode"] == "json"

    def deliver_text(self, line: str) -> None:
        if self.connected:
            self.visits.bus.send(self.home, {"op": "drawn", "to": self.name, "text": line, "live": True})

    def moved(self) -> None:
        """Not the presence's business (the user is their home's): the home is told where they are now."""
        self.visits.report(self)

    def update(self, message: dict[str, Any]) -> None:
        """What the home says of the user with each line: their mode (the hint's spacing), charset, language (an
        error's hint is worded here, in it), account."""
        self.mode = str(message.get("mode") or "json")
        self.charset = str(message.get("charset") or "utf-8")
        self.lang = str(message.get("lang") or self.lang)
        self.registered = bool(message.get("registered"))
        self.code = message.get("code") or None
        drawn = message.get("drawn")
        self.drawn = drawn if isinstance(drawn, dict) and drawn.get("mode") in DRAWN_MODES else None
        if self.drawn is not None:
            style = Style.for_mode(self.drawn["mode"], int(self.drawn.get("width") or 80),
                                   int(self.drawn.get("ambiguous") or 1), str(self.drawn.get("charset") or "utf-8"))
            if self.presenter.style != style:
                self.presenter.style = style
        if self.code is not None and not self.registered:  # the host's lobby guards the seat with it, as its own
            self.visits.lobby.resume_codes[self.name.lower()] = self.code
