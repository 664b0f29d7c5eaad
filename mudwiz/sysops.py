"""Sysops: accounts given the ``sysop`` role by ``mudwiz admin grant NAME sysop`` may kick, ban,
announce and shut the server down; and the bans they make are checked here, at connection and at login.

The role is read from the store each time a sysop command runs (one indexed read), so a grant or a revoke made
with the admin command line while the server runs counts at once, without logging in again. Bans live in the
store too: they outlast a restart, and ``mudwiz admin unban`` lifts one from outside. A sysop cannot kick or ban
themself, another sysop (revoke the role first, from the command line), or the address they are connected from.

The stop is the same whatever asks for it, ``/shutdown`` or a TERM signal: ``farewell`` (the ``Farewell``
service's stop, which runs after the listeners have stopped accepting) tells everyone, closes every connection
and waits (at most ``FAREWELL`` seconds) for them to go, with the lobby marked ``stopping`` so that a player's
connection closing keeps their seat as it is: no grace period, no stand-in, no game recorded as abandoned on the
way down.
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Callable
from typing import Any, Protocol

from twisted.application import service
from twisted.internet import defer
from twisted.internet.interfaces import IDelayedCall, IReactorTime
from twisted.logger import Logger

from mudwiz.errors import BadCommand
from mudwiz.numbers import whole_number
from mudwiz.session import Session
from mudwiz.store import Ban, Store, StoreError, iso_time
from mudwiz.texts import Later, english, later, later_n
from mudwiz.until import until
from mudwiz.usertext import is_bbs_name, is_name, name_form, one_line, said

log = Logger()

SYSOP = "sysop"
ROLES = (SYSOP,)
MARKS = (30, 10)  # seconds before the stop with a notice, besides the start and each whole minute
LONGEST_SHUTDOWN = 24 * 60  # minutes
FAREWELL = 2.0  # seconds the stop waits for the connections to take their last line and close
_MINUTES = re.compile(r"^[0-9]{1,6}(\.[0-9]{1,3})?$")  # a ban's length: 30, 1.5, 0.05


class Online(Protocol):
    """What the sysops need of the lobby (which holds them): who is online, its clock, and whether it stops."""

    clock: IReactorTime
    users: dict[str, Session]
    stopping: bool

    def find_user(self, name: str) -> Session | None: ...  # here or (cluster) on another node

    def broadcast(self, message: dict[str, Any]) -> None: ...  # cluster: to the users of the other nodes

    def ban_elsewhere(self, address: str, text: str | Later, by: str, until: float | None) -> bool: ...  # cluster


def until_text(until: float | None) -> Later:
    """``until 2026-11-24 01:00:00 UTC``, or ``until a sysop lifts it`` (in the reader's language)."""
    if until is None:
        return later("until a sysop lifts it")
    return later("until {when}", when=iso_time(until).replace("T", " ").replace("Z", " UTC"))


def address_key(text: str) -> str:
    """An address as bans are kept and looked up: as ``ipaddress`` spells it, an IPv4 address mapped into IPv6
    (``::ffff:127.0.0.12``, as a dual-stack listener may report it) as IPv4. ``ValueError`` if it is none."""
    address = ipaddress.ip_address(text)
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return str(address.ipv4_mapped)
    return str(address)


def ban_target(text: str) -> tuple[str, str]:
    """``(kind, target)`` of what ``/ban`` names: an IPv4 or IPv6 address (as the network edge spells it), else a
    name (any name, registered or not). A mapped IPv4 address was kept as ``::ffff:7f00:c`` and never matched."""
    text = text.strip()
    try:
        return "address", address_key(text)
    except ValueError:
        pass
    text = name_form(text)  # a Japanese name as it logs in (``ｶﾅ`` is ``カナ``)
    if not is_name(text) and not is_bbs_name(text):
        raise BadCommand(later("{text!r} is neither a name nor an IP address", text=one_line(text)[:40]))
    return "name", text


def ban_minutes(text: str) -> float | None:
    """A ban's length in minutes (a positive number, decimals allowed: 0.5 is 30 s); "" is None: until lifted."""
    if not text:
        return None
    if not _MINUTES.match(text) or float(text) <= 0:
        raise BadCommand(later("usage: /ban NAME|ADDRESS [MINUTES]: MINUTES a number above 0, such as 30 or 1.5"))
    return float(text)


def span(seconds: int) -> Later:
    """``2 minutes``, ``1 minute``, ``30 seconds`` (in the reader's language)."""
    if seconds >= 60 and seconds % 60 == 0:
        return later_n("{n} minute", "{n} minutes", seconds // 60)
    return later_n("{n} second", "{n} seconds", seconds)


class Sysops:
    """What sysops may do, on ``lobby``, with the roles and bans kept in ``store``; ``stop`` stops the server
    (the reactor's ``stop``; a test's recorder)."""

    def __init__(self, lobby: Online, store: Store, stop: Callable[[], None]) -> None:
        self.lobby = lobby
        self.store = store
        self.stop = stop
        self.countdown: list[IDelayedCall] = []
        self.told = False  # everyone has heard that the server stops now

    @property
    def now(self) -> float:
        return self.lobby.clock.seconds()

    def is_sysop(self, session: Session) -> bool:
        """Logged in with the password of an account that has the role now."""
        return session.registered and not session.is_bot and SYSOP in self.store.roles(session.name)

    def require(self, session: Session, doing: str) -> None:
        if not self.is_sysop(session):
            raise BadCommand(later("only a sysop can {doing}", doing=doing))

    # ------------------------------------------------------------ bans at the door

    def refusal(self, kind: str, target: str) -> Later | None:
        """The one line that refuses a banned name or address; None when it may come in."""
        if not target:  # a unix socket has no address
            return None
        if kind == "address":
            try:
                target = address_key(target)
            except ValueError:
                pass  # not an IP address (a test's made-up one): looked up as it is
        try:
            ban = self.store.ban_on(kind, target, self.now)
        except StoreError as exc:  # a sick disk must not lock everybody out: let them in, and say so
            log.error("cannot read the bans, {kind} {target} let in: {why}", kind=kind, target=target, why=str(exc))
            return None
        if ban is None:
            return None
        if kind == "address":
            return later("your address {target} is banned from this server {until}", target=ban.target,
                         until=until_text(ban.until))
        return later("{target} is banned from this server {until}", target=ban.target, until=until_text(ban.until))

    # ------------------------------------------------------------ kick and ban

    def _online(self, name: str) -> Session:
        target = self.lobby.find_user(name)
        if target is None:
            raise BadCommand(later("nobody called {name} is online", name=name))
        return target

    def _spare(self, by: Session, name: str) -> None:
        """A sysop never removes themself or another sysop: one slip must not lock the people in charge out."""
        if name.lower() == by.name.lower():
            raise BadCommand(later("that is you; /quit leaves"))
        if SYSOP in self.store.roles(name):
            account = self.store.account(name)
            name = account.name if account is not None else name
            raise BadCommand(later("{name} is a sysop: revoke the role first (mudwiz admin revoke {name} sysop)",
                                   name=name))

    def remove(self, session: Session, text: str | Later, by: str, until: float | None = None) -> None:
        """Tell ``session`` why in one line and close its connection; its seat then follows the usual drop
        rules (kept for the grace period)."""
        message: dict[str, Any] = {"type": "kicked", "by": by, "text": text}
        if until is not None:
            message["until"] = iso_time(until)
        session.deliver(message)
        session.close()
        log.info("{name} removed by {by}: {text}", name=session.name, by=by, text=english(text))

    def kick(self, by: Session, name: str, reason: str = "") -> Later:
        target = self._online(name)
        self._spare(by, target.name)
        if reason.strip():
            told = later("You are disconnected by the sysop {name}: {why}.", name=by.name,
                         why=said(reason, later("a reason")))
        else:
            told = later("You are disconnected by the sysop {name}.", name=by.name)
        self.remove(target, told, by.name)
        return later("{name} is disconnected", name=target.name)

    def ban(self, by: Session, what: str, minutes: str = "") -> Later:
        kind, target = ban_target(what)
        length = ban_minutes(minutes)
        if kind == "name":
            self._spare(by, target)
        elif target == by.address:
            raise BadCommand(later("{target} is the address you are connected from", target=target))
        until = None if length is None else self.now + length * 60
        self.store.add_ban(Ban(kind, target, until, by.name, self.now))
        log.info("{by} bans {kind} {target} {until}", by=by.name, kind=kind, target=target,
                 until=until_text(until).english())
        shown = later("address {target}", target=target) if kind == "address" else target
        text = later("You are banned by the sysop {name} {until}.", name=by.name, until=until_text(until))
        gone = self.drop_banned(kind, target, text, by.name, until)
        told = kind == "address" and self.lobby.ban_elsewhere(target, text, by.name, until)
        done = later("{target} is banned {until}", target=shown, until=until_text(until))
        if gone:
            done = later("{done}; disconnected: {names}", done=done, names=", ".join(gone))
        return later("{done}; the other nodes disconnect theirs", done=done) if told else done

    def drop_banned(self, kind: str, target: str, text: str | Later, by: str, until: float | None) -> list[str]:
        """Close the connections a new ban refuses (``text`` says why): here, or on another node for a name;
        an address's on another node are that node's to close (``ban_elsewhere``). Their names."""
        online = self._banned_online(kind, target)
        for s in online:
            self.remove(s, text, by, until)
        return [s.name for s in online]

    def _banned_online(self, kind: str, target: str) -> list[Session]:
        if kind == "name":
            found = self.lobby.find_user(target)
            return [found] if found is not None else []
        return [s for s in self.lobby.users.values() if s.address == target and not self.is_sysop(s)]

    def unban(self, what: str) -> Later:
        kind, target = ban_target(what)
        if not self.store.lift_ban(kind, target):
            raise BadCommand(later("{target} is not banned; /bans lists the bans", target=target))
        return later("{target} may log in again", target=target)

    def ban_rows(self) -> list[dict[str, Any]]:
        """The bans in force, for the ``bans`` message."""
        return [{"kind": b.kind, "target": b.target, "until": None if b.until is None else iso_time(b.until),
                 "by": b.by, "since": iso_time(b.created)} for b in self.store.bans(self.now)]

    # ------------------------------------------------------------ telling everyone

    def everyone(self, message: dict[str, Any]) -> None:
        for s in list(self.lobby.users.values()):
            s.deliver(message)

    def announce(self, by: Session, text: str) -> None:
        message = {"type": "announce", "from": by.name, "text": said(text, later("an announcement"))}
        self.everyone(message)
        self.lobby.broadcast(message)

    # ------------------------------------------------------------ shutting down

    def shutdown(self, by: Session, minutes: int) -> Later:
        """Stop the server in ``minutes`` (0: now), telling everyone at the start, each whole minute, 30 s and
        10 s before; a shutdown already counting down is replaced."""
        replaced = self.cancel_countdown()
        seconds = minutes * 60
        log.info("shutdown by {by} in {span}", by=by.name, span=span(seconds).english())
        if seconds == 0:
            self.stop_now(by.name)
            return later("the server stops now")
        self._notify(seconds, by.name)
        marks = [m * 60 for m in range(minutes - 1, 0, -1)] + [s for s in MARKS if s < seconds]
        clock = self.lobby.clock
        self.countdown = [clock.callLater(seconds - mark, self._notify, mark, by.name) for mark in marks]
        self.countdown.append(clock.callLater(seconds, self.stop_now, by.name))
        if replaced:
            return later("the server stops in {span}; the earlier shutdown is replaced", span=span(seconds))
        return later("the server stops in {span}", span=span(seconds))

    def cancel(self, by: Session) -> Later:
        if not self.cancel_countdown():
            raise BadCommand(later("no shutdown is counting down"))
        log.info("shutdown cancelled by {by}", by=by.name)
        self.everyone({"type": "shutdown", "seconds": None, "by": by.name,
                       "text": later("The shutdown is cancelled by the sysop {name}: the server keeps running.",
                                     name=by.name)})
        return later("the shutdown is cancelled")

    def cancel_countdown(self) -> bool:
        """Cancel a countdown under way; whether there was one."""
        active = [call for call in self.countdown if call.active()]
        for call in active:
            call.cancel()
        self.countdown = []
        return bool(active)

    def _notify(self, seconds: int, by: str) -> None:
        self.everyone({"type": "shutdown", "seconds": seconds, "by": by,
                       "text": later("The server stops in {span} (shutdown by the sysop {by}).", span=span(seconds),
                                     by=by)})

    def stop_now(self, by: str) -> None:
        self.countdown = []
        log.info("stopping the server: shutdown by {by}", by=by)
        self.everyone({"type": "shutdown", "seconds": 0, "by": by,
                       "text": later("The server is stopping now (shutdown by the sysop {by}).", by=by)})
        self.told = True
        self.stop()

    def farewell(self) -> defer.Deferred[None]:
        """The clean stop (any cause): everyone told, every connection closed with the lobby ``stopping`` (their
        seats kept as they are); fires once they are gone, or after ``FAREWELL`` seconds."""
        self.cancel_countdown()
        self.lobby.stopping = True
        if not self.told:
            self.everyone({"type": "shutdown", "seconds": 0, "by": None, "text": later("The server is stopping now.")})
            self.told = True
        for s in list(self.lobby.users.values()):
            s.close()
        return until(self.lobby.clock, lambda: not self.lobby.users, FAREWELL)


class Farewell(service.Service):
    """The sysops' ``farewell`` as a service's stop: started after the store and stopped (in reverse order)
    after the listeners, so no new connection comes in while the others are told goodbye."""

    name: str | None = "farewell"  # type: ignore[assignment]  # IService declares name None until set

    def __init__(self, sysops: Sysops) -> None:
        self.sysops = sysops

    def stopService(self) -> defer.Deferred[None]:
        super().stopService()
        return self.sysops.farewell()


def shutdown_minutes(text: str) -> int:
    """``/shutdown``'s MINUTES: a whole number from 0 (now) to a day; "" is 1."""
    if not text:
        return 1
    minutes = whole_number(text)
    if minutes is None or minutes > LONGEST_SHUTDOWN:
        raise BadCommand(later("usage: /shutdown [MINUTES|cancel]: MINUTES a whole number from 0 (now) to {most}",
                               most=LONGEST_SHUTDOWN))
    return minutes
