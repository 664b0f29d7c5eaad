"""Sitting down, watching, leaving, a stand-in taking a seat and its holder taking it back: the comings and goings of
the people at a table (:mod:`.roster`) as the table's commands make them, told to everyone there."""

from __future__ import annotations

from collections.abc import Callable

from mudwiz.errors import BadCommand
from mudwiz.session import Place, Session
from mudwiz.table.adjourning import missing, waiting_line
from mudwiz.table.botseat import is_stand_in
from mudwiz.table.fanout import FanOut
from mudwiz.table.state import TableState
from mudwiz.texts import Later, later, later_n


class Seating:
    """Sitting down, watching, leaving, a stand-in taking a seat and its holder taking it back: each checked,
    told to the table, and followed by ``people_changed`` so that nobody is waited on who is not here."""

    def __init__(self, table: TableState, place: Place, fanout: FanOut,
                 people_changed: Callable[..., None], schedule_bots: Callable[[], None]) -> None:
        """``place``: the table as its people's sessions know it (the same table: ``table`` is its state);
        ``people_changed(gone_for_good=False)`` and ``schedule_bots()``: the table's, told after every change."""
        self.table = table
        self.place = place
        self.fanout = fanout
        self.people_changed = people_changed
        self.schedule_bots = schedule_bots

    def sit(self, session: Session, by: Session | None = None) -> None:
        """``by``: who seated ``session`` (the host, a bot), answered by their command's reply, not the notice."""
        table, roster, fanout = self.table, self.table.roster, self.fanout
        if table.in_game and roster.holds_seat_for(session.name):
            self.reattach(session)
            return
        if roster.seat_of(session.name) is not None:
            raise BadCommand(later("you are already seated at table {n}", n=table.id))
        if table.in_game:
            raise BadCommand(later("table {n} is playing; /watch {n} to observe", n=table.id))
        if len(roster.seats) >= table.game_class.max_players:
            raise BadCommand(later("table {n} is full ({players} players)", n=table.id,
                                   players=table.game_class.max_players))
        if table.status == "over":
            table.game = None  # a finished game's table is ready for a new one
        roster.sit(session)
        session.table = self.place
        level = getattr(session, "level", None) if session.is_bot else None  # which bot: what the host chose
        fanout.announce(later("{name} ({level}) sits down at table {n}.", name=session.name, level=level, n=table.id)
                        if level else later("{name} sits down at table {n}.", name=session.name, n=table.id),
                        exclude=by)
        fanout.send_states(look=session)
        self.people_changed()

    def watch(self, session: Session) -> None:
        table, roster, fanout = self.table, self.table.roster, self.fanout
        seat = roster.seat_of(session.name)
        if seat is not None and roster.seats[seat] is not session:  # a stand-in plays it for them, or it is kept
            raise BadCommand(later("your seat at table {n} is kept for you: /join {n} takes it back", n=table.id))
        if session in roster.observers or seat is not None:
            raise BadCommand(later("you are already at table {n}", n=table.id))
        roster.observers.append(session)
        session.table = self.place
        fanout.announce(later("{name} is watching table {n}.", name=session.name, n=table.id))
        fanout.send_state(session, look=True)
        self.people_changed()

    def leave(self, session: Session, by: Session | None = None, dropped: bool = False) -> Later:
        """Take ``session`` away from the table; mid-game a bot takes the seat so the others can play on. ``by``:
        who took them away (the host, a bot), answered by their command's reply, not the notice. ``dropped``:
        their connection is gone (not a ``/leave``): a table left empty stays open ``idle_close`` seconds for them
        to find on coming back, as a running game's does."""
        table, roster, fanout = self.table, self.table.roster, self.fanout
        session.table = None
        if session.connected and not session.is_bot:
            session.deliver({"type": "left", "table": table.id})
        if session in roster.observers:
            roster.observers.remove(session)
            fanout.announce(later("{name} stops watching.", name=session.name))
            self.people_changed(gone_for_good=not dropped)
            return later("you stop watching")
        seat = roster.seat_of(session.name)
        if seat is None:
            return later("you were not at this table")
        playing = table.in_game
        bots = playing and any(s.is_bot and not is_stand_in(s) for s in roster.seats)  # the host's: gone if it closes
        if playing:
            self.stand_in(seat, later("{name} leaves; a bot plays their seat.", name=session.name))
        else:
            del roster.seats[seat]
            fanout.announce(later("{name} leaves table {n}.", name=session.name, n=table.id), exclude=by)
        if roster.is_host(session) and roster.hand_over_host():
            fanout.announce(later("{name} is now the host.", name=roster.host))
        self.people_changed(gone_for_good=not dropped)
        if roster.seats or roster.observers:  # a watcher too: the host and seats they see have changed
            fanout.send_states()
        return self._left_game(session, bots) if playing else later("you leave table {n}", n=table.id)

    def _left_game(self, session: Session, bots: bool) -> Later:
        """What leaving a running game means for the one who left: their seat, and that a registered player's
        rating does not dodge the game (docs/accounts.md, "Who is rated")."""
        n = self.table.id
        if not self.table.abandoned:
            if session.registered:
                return later("you leave table {n}: a bot plays your seat (/join {n} takes it back); the game still "
                             "counts for your rating", n=n)
            return later("you leave table {n}: a bot plays your seat (/join {n} takes it back)", n=n)
        if not session.registered:
            return later("you leave table {n}: nobody is left, so the game is abandoned", n=n)
        if bots:
            return later("you leave table {n}: nobody is left, so the game is abandoned; it counts for your rating "
                         "as it stood, you placed below the bots", n=n)
        return later("you leave table {n}: nobody is left, so the game is abandoned; it counts for your rating as "
                     "it stood", n=n)

    def stand_in(self, seat: int, why: str | Later) -> None:
        """A random bot plays ``seat`` for a person who left or whose grace ran out; ``why`` tells the table."""
        table = self.table
        bot = table.roster.stand_in(seat, table.name, table.seeds.randrange(2**32))
        bot.table = self.place
        self.fanout.announce(why)
        self.people_changed()
        self.schedule_bots()

    def stand_ins_go(self) -> None:
        """The game they stood in for is over: the stand-ins leave. Left seated, the host's next ``/start`` dealt
        them into a new game under their absent people's names (and it was rated as theirs), while the people
        themselves were refused ``/join`` and ``/watch`` there as "already seated"."""
        roster, fanout = self.table.roster, self.fanout
        gone = [s for s in roster.seats if is_stand_in(s)]
        if not gone:
            return
        roster.seats[:] = [s for s in roster.seats if not is_stand_in(s)]
        for bot in gone:
            bot.table = None
        names = ", ".join(s.name for s in gone)
        fanout.announce(later_n("The game is over: the stand-in for {names} leaves the table.",
                                "The game is over: the stand-ins for {names} leave the table.", len(gone), names=names))
        if roster.seated(roster.host) is None and roster.hand_over_host():  # the host was one they stood in for
            fanout.announce(later("{name} is now the host.", name=roster.host))
        self.people_changed()

    def reattach(self, session: Session) -> None:
        """A dropped player is back under the same name: their seat, with a fresh view."""
        roster, fanout = self.table.roster, self.fanout
        seat = roster.seat_of(session.name)
        if seat is None:
            return
        roster.put_back(seat, session)
        session.table = self.place
        fanout.announce(later("{name} is back.", name=session.name))
        fanout.send_states(look=session)  # the others' states said "away" until the next move
        if self.table.adjourned is not None and missing(roster.seats):
            session.notice(waiting_line(self.table.id, missing(roster.seats)))
        self.people_changed()
