"""Adjourned games as people ask for them: ``/adjourn`` (every person at the game agrees to stop for now),
``/resume`` (take your seat back in one, or, back at one, go on without those still away: every person back
agrees) and ``/adjourned`` (whose games wait, and until when). The game's side is mudwiz/table/adjourning.py; the
agreements are mudwiz/meeting/agreement.py's, shown to the table's people as they change.
"""

from __future__ import annotations

from typing import Any

from mudwiz.errors import BadCommand
from mudwiz.lobby.keeping import Kept
from mudwiz.meeting.agreement import Agreed, Agreement, AgreementEvent, AllAgreed, State, Withdrew
from mudwiz.session import Session
from mudwiz.table import Table
from mudwiz.texts import Later, later


class Adjournments:
    """The agreements being made at tables, by table number: what is agreed (``adjourn`` or ``go on``) and with
    whom; one asked of other people than are at the table now (someone came or went) is asked again."""

    def __init__(self, kept: Kept) -> None:
        self.kept = kept
        self.agreements: dict[int, tuple[str, Agreement]] = {}

    def adjourn(self, session: Session, table: Table) -> Later | None:
        """``session`` proposes to adjourn ``table``'s game, or agrees to it."""
        if table.roster.own_seat(session) is None:
            raise BadCommand(later("only the people playing at a table adjourn its game"))
        if not table.in_game:
            raise BadCommand(later("/adjourn is for a game being played: this one is over") if table.game is not None
                             else later("/adjourn is for a game being played: /start starts one"))
        if table.adjourned is not None:
            raise BadCommand(later("the game is adjourned already; /resume goes on without {names}",
                                   names=", ".join(table.waiting_for())))
        return self._agree("adjourn", session, table)

    def go_on(self, session: Session, table: Table) -> Later | None:
        """Back at an adjourned game: go on without those still away, once every person back agrees."""
        if table.roster.own_seat(session) is None or table.adjourned is None:
            raise BadCommand(later("/resume without a number is for an adjourned game you are back at; "
                                   "/adjourned lists yours"))
        return self._agree("go on", session, table)  # i18n: not text (the agreement's kind)

    def _agree(self, what: str, session: Session, table: Table) -> Later | None:
        asked = [s.name for s in table.seats if not s.is_bot and s.connected]
        current = self.agreements.get(table.id)
        if current is None or current[0] != what or current[1].state is not State.OPEN \
                or {n.lower() for n in current[1].asked} != {n.lower() for n in asked}:
            agreement, events = Agreement.propose(asked, session.name)
            self.agreements[table.id] = (what, agreement)
        else:
            events = current[1].agree(session.name)
        return self._show(what, session, table, events)

    def _show(self, what: str, session: Session, table: Table, events: list[AgreementEvent]) -> Later | None:
        for event in events:
            if isinstance(event, Agreed | Withdrew) and event.waiting:
                said = {"name": event.name, "agreed": ", ".join(event.agreed), "waiting": ", ".join(event.waiting)}
                if what == "adjourn":
                    table.announce(later("{name} wants to adjourn the game: agreed {agreed}; waiting for {waiting} "
                                         "(/adjourn to agree).", **said), exclude=session)
                    return later("you want to adjourn the game; waiting for {waiting}", waiting=said["waiting"])
                table.announce(later("{name} wants to go on without those away: agreed {agreed}; waiting for "
                                     "{waiting} (/resume to agree).", **said), exclude=session)
                return later("you want to go on without those away; waiting for {waiting}", waiting=said["waiting"])
            if isinstance(event, AllAgreed):
                self.agreements.pop(table.id, None)
                if what == "adjourn":
                    table.adjourn(session.name, later("The game at table {n} is adjourned by agreement.", n=table.id))
                    return None  # each person was told, with how to come back
                away = table.waiting_for()
                for name in away:
                    self.kept.hold_seat(name, table)
                table.go_on(later("The game goes on without {names}: their seats are kept for {seconds:g} s, then a "
                                  "bot plays them.", names=", ".join(away), seconds=self.kept.grace))
                return None
        return None


def adjourned_rows(summaries: list[dict[str, Any]], name: str, keep: float) -> list[dict[str, Any]]:
    """The adjourned games ``name`` has a seat in, from the tables as ``/tables`` lists them (every process's):
    each with when it was adjourned and until when it is kept (seconds, the table's clock)."""
    key = name.lower()
    rows = []
    for summary in summaries:
        adjourned = summary.get("adjourned")
        if adjourned is None or key not in (p.lower() for p in summary["players"]):
            continue
        rows.append({"id": summary["id"], "game": summary["game"], "players": summary["players"],
                     "since": adjourned["since"], "until": adjourned["since"] + keep, "last": adjourned["last"]})
    return sorted(rows, key=lambda row: row["since"])
