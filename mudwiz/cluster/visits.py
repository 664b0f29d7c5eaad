"""Playing at a table another process hosts: the user's own process (their *home*) forwards their table commands,
and the table's process (its *host*) seats a ``Visitor`` in their name that sends everything it is told home.

On the host a visitor is an ordinary ``Session`` to the table, the lobby and the commands: its lines run through the
same ``commands.dispatch`` as a local user's (handed in at startup: ``Upper``), so refusals, hints and timing are
the same. It is not one of the host's users (not in ``lobby.users``, not in its /who): the user is their home's. Its
``deliver`` sends each message home (``deliver``), where the real session renders it as for a local table; where it
sits is reported home (``at``), which sets or clears ``Session.elsewhere`` there.

Messages (docs/scaling.md), each to one node:

- home -> host ``cmd`` {rid, name, line, mode, charset, registered, code}: one line the user typed; answered by
  ``reply`` {rid, ok | error} (no answer within ``ANSWER_WITHIN`` seconds: a one-line error, never a hang).
- home -> all ``which_table`` {id}, answered ``table_is`` {id, table}: a table nobody at home has heard of yet
  (unheard.py).
- home -> host ``drop`` {name}: the user's connection is gone: the host keeps the seat as for a local drop.
- any -> host ``reattach`` {name, mode, charset, registered, code}: the user logged in (anywhere) and proved the
  name: the host seats a new visitor in the seat it kept and reports it (``at``).
- host -> home ``drawn`` {to, text, live}: messages already drawn for the user as their home said (``drawn`` in
  ``cmd``/``reattach``: mode, width, charset; JSON lines for a JSON reader), written as they are;
  ``deliver`` {to, message} where the home said nothing of it (a side channel reads the messages) and for chat
  (the home's /ignore filters it); ``at`` {to, table, seated}.

All of it goes through ``Bus.publish``, which sends a reactor turn's messages to one process in one PUBLISH.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

from twisted.internet.defer import Deferred
from twisted.logger import Logger

from mudwiz.cluster.unheard import ANSWER_WITHIN, Directory, Unheard, then
from mudwiz.cluster.visitor import Visitor
from mudwiz.cluster.visitwords import node_lost, not_answering, unreachable_at_login
from mudwiz.cluster.waiting import Pending
from mudwiz.errors import BadCommand, MudwizError
from mudwiz.routes import Route
from mudwiz.session import Session
from mudwiz.texts import later, speaking

if TYPE_CHECKING:
    from mudwiz.cluster.upper import Home, Upper

log = Logger()

def place(session: Session, where: tuple[str, int, bool] | None) -> None:
    """Where the user is elsewhere now (the process, table and whether seated), told on if it changed."""
    if session.elsewhere != where:
        session.elsewhere = where
        session.moved()


def held_table(lobby: Home, key: str) -> Any:
    """The table of this process keeping a seat for ``key``, if any."""
    away = lobby.away.get(key)
    if away is not None and away[0].holds_seat_for(key):
        return away[0]
    return next((t for t in lobby.tables.values() if t.holds_seat_for(key)), None)


class TablesPart(Directory, Protocol):
    """What the visits need of the table directory (``ClusterTables``)."""

    def remote_table(self, number: str) -> tuple[str, int] | None: ...

    def reachable(self, node: str) -> bool: ...

    def takeover_soon(self) -> bool: ...

    def publish(self) -> None: ...

    def soon(self) -> None: ...


class Visits:
    """Both ends of the visits: as a home (forwarding, answers, deliveries) and as a host (visitors)."""

    def __init__(self, part: TablesPart, upper: Upper) -> None:
        self.part = part
        self.upper = upper
        self.lobby = part.lobby
        self.bus = part.bus
        self.clock = part.clock
        self.visitors: dict[str, Visitor] = {}  # host: lower-cased name -> visitor seated or watching here
        self.pending: dict[str, Pending] = {}  # home: request key -> its callbacks
        self._keys = itertools.count(1)
        self.moves: Callable[[Session, str], bool] = lambda session, text: False  # handoff.py's: moved, not a visitor
        self.unheard = Unheard(part, self)  # home: the lines waiting for word of their table
        # home: lower-cased name -> how their messages were last said to be drawn (``drawn`` in ``about``)
        self.drawn_told: dict[str, dict[str, Any] | None] = {}
        for op, handler in (("cmd", self._command), ("reply", self._reply), ("deliver", self._deliver),
                            ("drawn", self._drawn), ("update", self._update),
                            ("at", self._at), ("drop", self._drop), ("reattach", self._reattach)):
            self.bus.on(op, handler)

    # ------------------------------------------------------------ home: forwarding

    def target(self, session: Session, text: str) -> tuple[str, int] | None:
        """The (node, table) a line goes to, or None when this process answers it."""
        text = text.strip()
        if not text:
            return None
        verb, _, rest = text[1:].partition(" ") if text.startswith("/") else ("say", "", text)
        verb = verb.lower()
        if session.elsewhere is not None:
            if self.upper.route(verb) is not Route.HOME:  # the table's commands, game verbs, and /help about the table
                return session.elsewhere[0], session.elsewhere[1]
            return None
        if verb in ("join", "watch", "resume") and session.table is None:
            return self.part.remote_table(rest.strip().lstrip("#"))
        return None

    def forward(self, session: Session, text: str, ok: Callable[[Any], None],
                error: Callable[[MudwizError], None]) -> bool:
        """Send ``text`` to the process hosting the user's table (``ok``/``error`` answer it when its reply comes);
        False when the line is for this process."""
        target = self.target(session, text)
        if target is None:
            number = self.unheard.number(session, text)
            if number is None:
                return False
            self.hold_lines(session, self.unheard.wait(number, session, text, ok, error))
            return True
        node, table = target
        verb = text.strip()[1:].partition(" ")[0].lower() if text.strip().startswith("/") else ""
        if session.elsewhere is not None and self.upper.route(verb) is Route.NOT_ELSEWHERE:
            error(BadCommand(later("you are at table {n}; /leave it first", n=table)))
            return True
        if not self.part.reachable(node):
            if self.upper.route(verb) is Route.ABOUT_TABLE:
                return False
            if verb == "leave" and session.elsewhere is not None:  # let go of a table nobody can reach
                self.place(session, None)
                ok(later("you leave table {n}", n=table))
            else:
                error(not_answering(table))
            return True
        key = f"{self.bus.node}:{next(self._keys)}"
        timer = self.clock.callLater(ANSWER_WITHIN, self._unanswered, key)
        answered: Deferred[None] = Deferred()
        self.pending[key] = Pending(then(ok, answered), then(error, answered), node, table, timer)
        self.bus.send(node, {"op": "cmd", "rid": key, "line": text, **self.about(session)})
        # The user's next line is read once this one is answered (or not, within ``ANSWER_WITHIN``): the host's
        # work for a visitor is one command at a time, as a local user's shares (net/budget.py) hold them here
        self.hold_lines(session, answered)
        return True

    @staticmethod
    def hold_lines(session: Session, answered: Deferred[None]) -> None:
        """The user's next line is read once ``answered`` fires."""
        outbox = getattr(getattr(session, "connection", None), "outbox", None)
        if outbox is not None and not answered.called:
            outbox.wait(answered)

    def dispatch(self, session: Session, text: str) -> Any:
        """``text`` carried out here."""
        return self.upper.dispatch(session, text)

    def about(self, session: Session) -> dict[str, Any]:
        """What the host needs to know of the user for their visitor."""
        drawn = self.drawn_told[session.name.lower()] = session.drawn_as()
        return {"name": session.name, "mode": session.mode, "charset": session.charset, "lang": session.lang,
                "registered": session.registered, "code": self.lobby.resume_code(session), "drawn": drawn}

    def _unanswered(self, key: str) -> None:
        pending = self.pending.pop(key, None)
        if pending is not None:
            pending.error(not_answering(pending.table))

    def _reply(self, m: dict[str, Any]) -> None:
        pending = self.pending.pop(m["rid"], None)
        if pending is None:  # too late: the user was told it was not answered
            return
        if pending.timer.active():
            pending.timer.cancel()
        if m.get("error") is not None:
            pending.error(MudwizError(m["error"]))  # a Later worded where read, or a str already worded
        else:
            pending.ok(m.get("ok"))

    def _deliver(self, m: dict[str, Any]) -> None:
        session = self.lobby.users.get(str(m["to"]).lower())
        if session is not None:
            session.deliver(m["message"])

    def _drawn(self, m: dict[str, Any]) -> None:
        key = str(m["to"]).lower()
        session = self.lobby.users.get(key)
        if session is None:
            return
        session.deliver_drawn(str(m["text"]), bool(m.get("live")))
        if session.drawn_as() != self.drawn_told.get(key):  # a window resized, a /mode here: drawn so from now on
            self.bus.send(m["from"], {"op": "update", **self.about(session)})

    def _update(self, m: dict[str, Any]) -> None:
        """The home says how the user's messages are drawn now (and their mode, charset, account)."""
        visitor = self.visitors.get(str(m["name"]).lower())
        if visitor is not None and visitor.home == m["from"]:
            visitor.update(m)

    def _at(self, m: dict[str, Any]) -> None:
        """The host says where the user is at its tables now."""
        session = self.lobby.users.get(str(m["to"]).lower())
        table = m.get("table")
        if session is None:  # they dropped meanwhile: the host keeps their seat as for any drop
            if table is not None:
                self.bus.send(m["from"], {"op": "drop", "name": m["to"]})
            return
        if table is None:
            if session.elsewhere is not None and session.elsewhere[0] == m["from"]:
                if m.get("lost"):
                    session.notice(later("your seat at table {n} is no longer kept.", n=session.elsewhere[1]))
                self.place(session, None)
            return
        self.place(session, (m["from"], int(table), bool(m.get("seated"))))

    place = staticmethod(place)

    def dropped(self, session: Session) -> None:
        """The user's connection is gone: their table's process keeps the seat as it would for its own user."""
        assert session.elsewhere is not None
        self.drawn_told.pop(session.name.lower(), None)
        self.bus.send(session.elsewhere[0], {"op": "drop", "name": session.name})

    def reattach(self, session: Session, node: str, table: int) -> None:
        """Ask ``node`` for the seat it keeps for ``session`` (who has proved the name)."""
        self.place(session, (node, table, True))
        if not self.part.reachable(node):
            session.notice(unreachable_at_login(table, self.part.takeover_soon()))
            return
        self.bus.send(node, {"op": "reattach", **self.about(session)})

    def node_gone(self, node: str, takeover: bool = True) -> None:
        """``node`` is gone: what waited for it is answered now, and its visitors here are dropped. ``takeover``:
        its tables are taken over in a few seconds (else Redis is away, and the process may be alive: told so,
        not promised a takeover that does not come)."""
        for key, pending in list(self.pending.items()):
            if pending.node == node:
                self._unanswered(key)
        self.unheard.gone(node)
        for session in self.lobby.users.values():
            if session.elsewhere is not None and session.elsewhere[0] == node:
                table = session.elsewhere[1]
                session.notice(node_lost(table, takeover, session.elsewhere[2]))
        for visitor in [v for v in self.visitors.values() if v.home == node]:
            self._drop({"from": node, "name": visitor.name})

    # ------------------------------------------------------------ host: visitors

    def report(self, visitor: Visitor, force: bool = False, lost: bool = False) -> None:
        """Tell the visitor's home where they are, if that changed (seated or watching, which table)."""
        table = visitor.table
        seat = table.roster.own_seat(visitor) if table is not None else None
        where = (table.id if table is not None else None, seat is not None)
        if where == visitor.reported and not force:
            return
        visitor.reported = where
        message = {"op": "at", "to": visitor.name, "table": where[0], "seated": where[1]}
        if lost:
            message["lost"] = True
        self.bus.send(visitor.home, message)

    def _command(self, m: dict[str, Any]) -> None:
        home, key = m["from"], str(m["name"]).lower()
        visitor = self.visitors.get(key)
        if visitor is None or visitor.home != home:
            visitor = Visitor(self, str(m["name"]), home)
        visitor.update(m)
        answer: dict[str, Any]
        try:
            answer = {"ok": self.upper.dispatch(visitor, str(m["line"]))}  # a Later: worded at home
        except MudwizError as exc:
            with speaking(visitor.lang):
                answer = {"error": self.upper.hint(visitor, str(exc))}
        except Exception:  # a bug costs one reply, never the host's other tables
            log.failure("forwarded command {line!r} from {name}@{home} failed", line=m["line"], name=m["name"],
                        home=home)
            answer = {"error": later("internal error; the command was not carried out")}
        self.report(visitor)
        self.keep(visitor)
        self.bus.send(home, {"op": "reply", "rid": m["rid"], **answer})
        self.part.soon()

    def keep(self, visitor: Visitor) -> None:
        """A visitor at a table is kept (their next lines find it); one at none is forgotten."""
        key = visitor.name.lower()
        if visitor.table is not None and visitor.connected:
            self.visitors[key] = visitor
        elif self.visitors.get(key) is visitor:
            del self.visitors[key]

    def _drop(self, m: dict[str, Any]) -> None:
        visitor = self.visitors.get(str(m["name"]).lower())
        if visitor is None or visitor.home != m["from"]:
            return
        del self.visitors[visitor.name.lower()]
        if visitor.code is not None and not visitor.registered:
            self.lobby.resume_codes[visitor.name.lower()] = visitor.code  # the seat is the code's now
        self.lobby.drop_from_table(visitor)
        self.part.publish()

    def _reattach(self, m: dict[str, Any]) -> None:
        """A user who proved the name on ``m["from"]`` takes back the seat kept for it here."""
        home, key = m["from"], str(m["name"]).lower()
        current = self.visitors.get(key)
        if current is not None and current.home == home and current.table is not None:  # asked twice
            self.report(current, force=True)
            current.table.send_state(current, look=True)
            return
        if current is not None and current.home != home:  # proved elsewhere: their old home lost them
            self._drop({"from": current.home, "name": current.name})
        table = held_table(self.lobby, key)
        if table is None:
            self.bus.send(home, {"op": "at", "to": m["name"], "table": None, "seated": False, "lost": True})
            return
        held = table.seated(key)
        assert held is not None
        visitor = Visitor(self, held.name, home)
        visitor.update(m)
        away = self.lobby.away.pop(key, None)
        if away is not None and away[1].active():
            away[1].cancel()
        log.info("{name} is back at table {table} from {home}", name=visitor.name, table=table.id, home=home)
        table.reattach(visitor)
        self.keep(visitor)
        self.part.publish()

    def code_of(self, name: str) -> str | None:
        """A visiting guest's resume code, for the journal to keep with their seat."""
        visitor = self.visitors.get(name.lower())
        return visitor.code if visitor is not None and not visitor.registered else None
