"""Seeks across nodes: one node holds the seek book (the *authority*: the first node by name among those alive,
which every node works out alike from the heartbeats, without a vote), and the others carry their users' seek
commands to it and its answers back (docs/scaling.md, "Seeks across nodes").

Messages, each to one node:

- home -> authority ``seek_cmd`` {rid, name, registered, verb, args, desk}: a seek command (``seek``, ``unseek``,
  ``seeks``, ``quick``; ``gone`` at a logout, ``put_back`` for a match called off), answered by ``seek_reply``
  {rid, answer} (no answer within ``ANSWER_WITHIN`` seconds: a one-line error). ``desk`` ``tournaments``: a
  tournament command, the tournaments running on the authority too (mudwiz/lobby/tournament_desk.py).
- authority -> the oldest seeker's node ``seek_make`` {seeks, typed, bots}: make the match's table there.
- table's node -> another seeker's node ``seek_seat`` {name, table, message}: tell them and seat them there.

Each home keeps a copy of its users' seeks placed in a book elsewhere; when the authority changes (a node with a
name before it joins, or it is gone), the old one, if alive, hands its book over and every home sends its copies
again, so the book is whole on the new one within a beat or two.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol

from twisted.internet import defer
from twisted.internet.interfaces import IDelayedCall, IReactorTime
from twisted.logger import Logger

from mudwiz.errors import BadCommand
from mudwiz.meeting.seeks import Seek
from mudwiz.meeting.seekwire import Typed, seek_dict, seek_of, typed_of
from mudwiz.session import Session
from mudwiz.texts import later

if TYPE_CHECKING:
    from mudwiz.cluster.service import ClusterService

log = Logger()

ANSWER_WITHIN = 5.0  # seconds a seek command waits for the authority's answer
NOT_ANSWERING = later("the server process that holds the seeks is not answering; try again in a few seconds")
Answer = dict[str, Any]


class Asked(Protocol):
    """A desk the authority answers commands at: the seek book's, the tournaments'."""

    def do(self, user: Session, verb: str, args: dict[str, Any]) -> Answer: ...


class Desk(Protocol):
    waiting_elsewhere: Callable[[str], list[tuple[int, int]]]  # the other processes' waiting tables (/quick)

    def do(self, user: Session, verb: str, args: Mapping[str, Any]) -> Answer: ...

    def clear(self) -> list[tuple[Seek, Typed]]: ...


class Maker(Protocol):
    def make(self, seeks: Sequence[Seek], typed: Typed, bots: int) -> None: ...


class Seekers(Protocol):
    """The lobby's seeking part (mudwiz/lobby/seeking.py), as the cluster uses it."""

    @property
    def desk(self) -> Desk: ...

    @property
    def matches(self) -> Maker: ...

    def seat(self, name: str, number: int, message: dict[str, Any]) -> None: ...


class Books(Protocol):
    """The lobby's tournaments (mudwiz/lobby/tournaments.py): run on the authority, their commands asked there."""

    @property
    def desk(self) -> Asked: ...

    def books_here(self, here: bool) -> None: ...


class ClusterSeeks:
    """This node's end of the seek book: asking the authority, and being it."""

    def __init__(self, seeking: Seekers, cluster: ClusterService, clock: IReactorTime,
                 node_of: Callable[[str], str | None], user: Callable[[str], Session | None]) -> None:
        self.seeking = seeking
        self.bus = cluster.bus
        self.nodes = cluster.nodes
        self.clock = clock
        self.node_of = node_of  # the node a user of another node is on (None: not online elsewhere)
        self.user = user  # a user of another node as a session whose messages go there
        self.running = False
        self.authority = self.bus.node
        self.pending: dict[str, tuple[defer.Deferred[Answer], IDelayedCall]] = {}
        self.mine: dict[str, tuple[dict[str, Any], list[Any]]] = {}  # lower name -> (seek, typed) in a book elsewhere
        # the desks answered here while this node is the authority: the seek book's, the tournaments' (added by them)
        self.desks: dict[str, Asked] = {"seeks": seeking.desk}
        self.on_authority: list[Callable[[bool], None]] = []  # told at the start and each change: is it this node
        self._rids = itertools.count(1)
        for op, handler in (("seek_cmd", self._command), ("seek_reply", self._reply), ("seek_make", self._make),
                            ("seek_seat", self._seat)):
            self.bus.on(op, handler)
        self.nodes.on_new.append(lambda node: self._changed())
        self.nodes.on_gone.append(lambda node: self._changed(gone=node))

    def start(self) -> None:
        self.running = True
        self.authority = self.nodes.live()[0]
        self._tell_authority()

    def stop(self) -> None:
        self.running = False

    def _tell_authority(self) -> None:
        for told in self.on_authority:
            told(self.running and self.authority == self.me)

    @property
    def me(self) -> str:
        return self.bus.node

    # ------------------------------------------------------------ home: asking the authority

    def seek_book(self) -> str | None:
        """The authority when it is another node; None: this one (or the cluster has not started)."""
        if not self.running:
            return None
        return None if self.authority == self.me else self.authority

    def ask(self, node: str, session: Session, verb: str, args: dict[str, Any],
            desk: str = "seeks") -> defer.Deferred[Answer]:
        rid = f"{self.me}:{next(self._rids)}"
        answered: defer.Deferred[Answer] = defer.Deferred()
        timer = self.clock.callLater(ANSWER_WITHIN, self._unanswered, rid)
        self.pending[rid] = (answered, timer)
        self.bus.send(node, {"op": "seek_cmd", "rid": rid, "name": session.name, "registered": session.registered,
                             "verb": verb, "args": args, "desk": desk})
        if desk == "seeks":
            answered.addCallback(self._keep, session.name.lower(), verb)
        return answered

    def _keep(self, answer: Answer, key: str, verb: str) -> Answer:
        """The copy of the user's seek, as the authority's answer leaves it (of this node's users only: a book
        handed over is answered to the node that held it)."""
        if self.node_of(key) is not None:
            return answer
        if answer.get("placed") is not None:
            self.mine[key] = (answer["placed"], list(answer.get("typed") or ()))
        elif answer.get("withdrawn") or answer.get("matched") or answer.get("join") is not None or verb == "gone":
            self.mine.pop(key, None)
        return answer

    def _reply(self, message: dict[str, Any]) -> None:
        waiting = self.pending.pop(str(message.get("rid")), None)
        if waiting is not None:
            waiting[1].cancel()
            waiting[0].callback(message.get("answer") or {})

    def _unanswered(self, rid: str) -> None:
        waiting = self.pending.pop(rid, None)
        if waiting is not None:
            waiting[0].errback(BadCommand(NOT_ANSWERING))

    # ------------------------------------------------------------ the authority

    def _command(self, message: dict[str, Any]) -> None:
        name = str(message["name"])
        user = self.user(name) or Session(name)
        user.registered = bool(message.get("registered"))
        desk = str(message.get("desk", "seeks"))
        asked = self.desks.get(desk)
        if asked is None:
            answer: Answer = {"error": later("no desk {desk} here", desk=desk)}
        else:
            answer = asked.do(user, str(message["verb"]), message.get("args") or {})
        self.bus.send(message["from"], {"op": "seek_reply", "rid": message["rid"], "answer": answer})

    def to_seeker(self, name: str, message: dict[str, Any]) -> bool:
        node = self.node_of(name)
        if node is None:
            return False
        self.bus.send(node, message)
        return True

    def _make(self, message: dict[str, Any]) -> None:
        seeks = [seek_of(seek) for seek in message["seeks"]]
        for seek in seeks:
            self.mine.pop(seek.key, None)
        self.seeking.matches.make(seeks, typed_of(message.get("typed")), int(message.get("bots") or 0))

    def _seat(self, message: dict[str, Any]) -> None:
        self.mine.pop(str(message["name"]).lower(), None)
        self.seeking.seat(str(message["name"]), int(message["table"]), message["message"])

    # ------------------------------------------------------------ the authority changes

    def _changed(self, gone: str | None = None) -> None:
        """A node came or went: if the authority is another now, the book moves to it. The old one, alive, hands
        its seeks over; a dead one's are sent again by every home from its copies."""
        if not self.running:
            return
        before, now = self.authority, self.nodes.live()[0]
        if now == before:
            return
        self.authority = now
        log.info("the seek book is on {node} now (was on {before})", node=now, before=before)
        self._tell_authority()
        if before == self.me:
            for taken, as_typed in self.seeking.desk.clear():
                self._restore(seek_dict(taken), list(as_typed))
        elif before == gone:
            for kept, typed in list(self.mine.values()):
                self._restore(kept, typed)

    def _restore(self, seek: dict[str, Any], typed: list[Any]) -> None:
        owner = Session(str(seek["owner"]))
        args = {"seek": seek, "typed": typed}
        if self.authority == self.me:
            self.mine.pop(owner.name.lower(), None)
            self.seeking.desk.do(owner, "put_back", args)
        else:
            self.ask(self.authority, owner, "put_back", args).addErrback(lambda failure: None)
