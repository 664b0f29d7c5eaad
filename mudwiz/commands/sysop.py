"""The sysops' commands (mudwiz/sysops.py holds their powers): for a sysop only, looked up at each use."""

from __future__ import annotations

from mudwiz.commands.registry import Kind, Reply, Route, Scope, command
from mudwiz.errors import BadCommand
from mudwiz.lobby import Lobby
from mudwiz.session import Session
from mudwiz.sysops import Sysops, shutdown_minutes
from mudwiz.texts import later, now


def _sysops(lobby: Lobby, session: Session, doing: str) -> Sysops:
    """The sysops' powers, for a sysop only: the role is looked up now, so a grant or a revoke made with
    ``mudwiz admin`` while the server runs counts at once."""
    if lobby.sysops is None:
        raise BadCommand(later('only a sysop can {doing}, and this server has none', doing=doing))
    lobby.sysops.require(session, doing)
    return lobby.sysops


@command("kick", "/kick NAME [REASON]", later('sysop: disconnect someone, telling them why (a seat is kept as on a '
                                              'drop)'),
         scope=Scope.LOBBY, kind=Kind.SYSOP, place=1, route=Route.HOME)
def _kick(lobby: Lobby, session: Session, arg: str) -> Reply:
    sysops = _sysops(lobby, session, "kick")
    name, _, reason = arg.partition(" ")
    if not name:
        raise BadCommand(later('usage: /kick NAME [REASON]'))
    return sysops.kick(session, name, reason.strip())


@command("ban", "/ban NAME|ADDRESS [MINUTES]",
         later('sysop: refuse a name or an IP address at login for MINUTES, or until /unban; disconnects them if '
               'online'),
         scope=Scope.LOBBY, kind=Kind.SYSOP, place=2, route=Route.HOME)
def _ban(lobby: Lobby, session: Session, arg: str) -> Reply:
    sysops = _sysops(lobby, session, "ban")
    words = arg.split()
    if not 1 <= len(words) <= 2:
        raise BadCommand(later('usage: /ban NAME|ADDRESS [MINUTES]'))
    return sysops.ban(session, words[0], words[1] if len(words) > 1 else "")


@command("unban", "/unban NAME|ADDRESS", later('sysop: lift a ban'),
         scope=Scope.LOBBY, kind=Kind.SYSOP, place=3, route=Route.HOME)
def _unban(lobby: Lobby, session: Session, arg: str) -> Reply:
    sysops = _sysops(lobby, session, "unban")
    if len(arg.split()) != 1:
        raise BadCommand(later('usage: /unban NAME|ADDRESS; /bans lists the bans'))
    return sysops.unban(arg)


@command("bans", "/bans", later('sysop: the bans in force, and until when'),
         scope=Scope.LOBBY, kind=Kind.SYSOP, place=4, route=Route.HOME)
def _bans(lobby: Lobby, session: Session, arg: str) -> Reply:
    session.deliver({"type": "bans", "bans": _sysops(lobby, session, now('list the bans')).ban_rows()})
    return None


@command("announce", "/announce TEXT", later('sysop: one line to everyone online'),
         scope=Scope.LOBBY, kind=Kind.SYSOP, place=5, route=Route.HOME)
def _announce(lobby: Lobby, session: Session, arg: str) -> Reply:
    sysops = _sysops(lobby, session, "announce")
    if not arg:
        raise BadCommand(later('usage: /announce TEXT'))
    sysops.announce(session, arg)
    return None


@command("shutdown", "/shutdown [MINUTES|cancel]",
         later('sysop: stop the server in MINUTES (default 1, 0: now), telling everyone as it counts down'),
         scope=Scope.LOBBY, kind=Kind.SYSOP, place=6, route=Route.HOME)
def _shutdown(lobby: Lobby, session: Session, arg: str) -> Reply:
    sysops = _sysops(lobby, session, now('shut the server down'))
    if arg.lower() == "cancel":
        return sysops.cancel(session)
    return sysops.shutdown(session, shutdown_minutes(arg))
