"""``/again``: after a game, the same seats and options again once every person seated agrees (the agreement is
mudwiz/meeting/agreement.py's). Each change is shown to the table's people: who has agreed, who is awaited.
"""

from __future__ import annotations

from typing import Any

from mudwiz.errors import BadCommand
from mudwiz.meeting.agreement import Agreed, Agreement, AgreementEvent, AllAgreed, Cancelled, State, Withdrew
from mudwiz.session import Session
from mudwiz.table import Table
from mudwiz.texts import later


class Rematches:
    """The rematches being agreed, by table number."""

    def __init__(self) -> None:
        # table number -> (the games it had played when proposed, the agreement): one proposed after an earlier
        # game is stale, not to be agreed to now
        self.agreements: dict[int, tuple[int, Agreement]] = {}

    def again(self, session: Session, table: Table) -> str | None:
        """``session`` proposes a rematch at ``table``, or agrees to the one proposed."""
        if table.seat_of(session.name) is None or session.is_bot:
            raise BadCommand(later("only the people seated agree to a rematch"))
        if table.in_game or not table.games_played:  # after a game: over, or set up again since (one sat down)
            raise BadCommand(later("/again is for after a game: this one is running") if table.in_game
                             else later("/again is for after a game: /start starts the first"))
        games, agreement = self.agreements.get(table.id, (-1, None))
        if agreement is None or agreement.state is not State.OPEN or games != table.games_played:
            agreement, events = Agreement.propose([s.name for s in table.roster.humans()], session.name)
            self.agreements[table.id] = (table.games_played, agreement)
        else:
            events = agreement.agree(session.name)
        self._show(table, events)
        return None

    def left(self, session: Session, table: Table) -> None:
        """``session`` left ``table``: a rematch they were asked to is called off."""
        agreement = self.agreements.get(table.id, (0, None))[1]
        if agreement is not None:
            self._show(table, agreement.leave(session.name))
        if agreement is None or agreement.state is not State.OPEN or not table.seats:
            self.agreements.pop(table.id, None)

    def _show(self, table: Table, events: list[AgreementEvent]) -> None:
        for event in events:
            if isinstance(event, Agreed | Withdrew):
                said = {"name": event.name, "agreed": ", ".join(event.agreed), "waiting": ", ".join(event.waiting)}
                table.announce(later("{name} wants a rematch: agreed {agreed}; waiting for {waiting} (/again to "
                                     "agree).", **said) if event.waiting
                               else later("{name} wants a rematch: agreed {agreed}.", **said))
                self._tell(table, {"type": "again", "table": table.id, "agreed": list(event.agreed),
                                   "waiting": list(event.waiting)})
            elif isinstance(event, AllAgreed):
                self.agreements.pop(table.id, None)
                self._start(table)
            elif isinstance(event, Cancelled):
                table.announce(later("{name} left: the rematch is called off.", name=event.by))
                self._tell(table, {"type": "again", "table": table.id, "agreed": [], "waiting": [],
                                   "called_off_by": event.by})

    @staticmethod
    def _tell(table: Table, message: dict[str, Any]) -> None:
        for viewer in table.roster.viewers():
            if not viewer.is_bot and viewer.connected:
                viewer.deliver(message)

    @staticmethod
    def _start(table: Table) -> None:
        """Everyone agreed: the same seats and options again, started as the host's ``/start`` starts them."""
        host = table.seated(table.host)
        if host is None or host.is_bot:
            people = table.roster.humans()
            if not people:
                return
            table.host, host = people[0].name, people[0]
        table.start(host)
