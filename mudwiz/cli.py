"""The ``mudwiz`` command: ``mudwiz serve`` runs the server without twistd; ``mudwiz client`` the terminal client;
``mudwiz admin`` grants the sysop role and lifts bans (mudwiz/admin.py); ``mudwiz door`` runs as a BBS door
(mudwiz/door.py); ``mudwiz bulletin`` prints the season and the hall of fame (mudwiz/bulletin.py)."""

from __future__ import annotations

import argparse
import gc
import os
import sys

from mudwiz import __version__, admin
from mudwiz.service import DEFAULT_LISTEN


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="mudwiz", description="a text multi-user card-game server")
    parser.add_argument("--version", action="version", version=f"mudwiz {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)
    serve = sub.add_parser("serve", help="run the server")
    serve.add_argument("--listen", help=f"a Twisted endpoint description (default $MUDWIZ_LISTEN or {DEFAULT_LISTEN})")
    serve.add_argument("--motd", help="message-of-the-day file (default $MUDWIZ_MOTD or motd.txt)")
    serve.add_argument("--data", help="the data directory (default $MUDWIZ_DATA or ./data)")
    serve.add_argument("--workers", type=positive, default=1, metavar="N",
                       help="N server processes behind the same ports, under a supervisor that restarts them "
                       "(default 1: this process alone); N > 1 needs MUDWIZ_DATABASE_URL and MUDWIZ_REDIS_URL "
                       "(docs/scaling.md)")
    serve.add_argument("--inherit", help=argparse.SUPPRESS)  # a worker's: its listeners' descriptors, NAME=FD,...
    serve.add_argument("--parent-fd", type=int, help=argparse.SUPPRESS)  # a worker's: its supervisor's pipe
    exporting = sub.add_parser("export", help="print a recorded game as JSON (docs/protocol.md)")
    exporting.add_argument("id", type=int, help="the game's id (/history lists them)")
    exporting.add_argument("--data", help="the data directory (default $MUDWIZ_DATA or ./data)")
    exporting.add_argument("--analysis", nargs="?", const="", metavar="NAME",
                           help="add the coach's analysis (as /analyze gives it) of every person's seat, or NAME's")
    admin.add_parser(sub)
    board = sub.add_parser("bulletin", help="the season's table, the last tournaments and the hall of fame as "
                           "80x24 pages or JSON (docs/tournaments.md)")
    board.add_argument("--game", help="one game (default every game)")
    board.add_argument("--format", default="ansi", help="ansi (default), ascii, cp437 (CP437 bytes) or json")
    board.add_argument("--data", help="the data directory (default $MUDWIZ_DATA or ./data)")
    door = sub.add_parser("door", help="run as a BBS door for the caller on stdin/stdout (docs/bbs.md)")
    door.add_argument("drop_file", metavar="DROPFILE", help="the BBS's DOOR32.SYS or DOOR.SYS for this caller")
    door.add_argument("--server", help="HOST:PORT of the server's rlogin port (default $MUDWIZ_DOOR_SERVER or "
                      "127.0.0.1:4513)")
    door.add_argument("--secret", help="this BBS's secret in the server's MUDWIZ_RLOGIN_BBS (default "
                      "$MUDWIZ_DOOR_SECRET; none when the server trusts the door's address)")
    door.add_argument("--charset", help="sjis or euc-jp: a Japanese BBS's callers' terminals (default "
                      "$MUDWIZ_DOOR_CHARSET; none: CP437 for ANSI callers)")
    door.add_argument("--lang", help="en or ja: the caller's language, chosen for them (default $MUDWIZ_DOOR_LANG; "
                      "none: Japanese with --charset, else the server's)")
    client = sub.add_parser("client", help="the full-screen terminal client")
    client.add_argument("address", nargs="?", default="localhost:4000", help="HOST[:PORT] (default localhost:4000)")
    client.add_argument("--lang", help="the language to speak, en or ja, and to ask of the server (default: from "
                        "LC_ALL, LC_MESSAGES or LANG)")
    args = parser.parse_args(argv)
    if args.command == "serve":
        if args.workers > 1:
            from mudwiz import supervisor

            return supervisor.run(args.workers, args.listen, args.motd, args.data)
        return serve_forever(args.listen, args.motd, args.data, inherit=args.inherit, parent_fd=args.parent_fd)
    if args.command == "export":
        return export_game(args.id, args.data, args.analysis)
    if args.command == "bulletin":
        from mudwiz.bulletin import run as bulletin

        return bulletin(args.game, args.format, args.data)
    if args.command == "admin":
        return admin.run(args)
    if args.command == "door":
        from mudwiz.door import run

        return run(args.drop_file, args.server, args.secret, args.charset, args.lang)
    from mudwiz.client.app import run_client

    return run_client(args.address, args.lang)


def positive(text: str) -> int:
    """``--workers``' argument: a whole number from 1."""
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number from 1")
    return int(text)


# The cyclic garbage collector's thresholds for a running server (the defaults: 700, 10, 10). A move allocates a few
# hundred dicts and lists (every viewer's state), so at 700 a young collection ran every few moves: some 5 % of a
# command's CPU. Garbage is still collected, every 20,000 allocations rather than 700.
GC_THRESHOLDS = (20_000, 20, 100)


def tune_gc() -> None:
    """Collect less often, and never scan what was made at the start (modules, the catalogue, restored tables):
    ``gc.freeze`` moves it out of the collector's sight for good (it lives as long as the server anyway)."""
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


def serve_forever(listen: str | None, motd: str | None, data: str | None = None, *, inherit: str | None = None,
                  parent_fd: int | None = None) -> int:
    """The server in this process until it is stopped. A worker of ``mudwiz serve --workers N`` is also given
    the listening sockets it adopts (``inherit``) and the pipe from its supervisor (``parent_fd``), and stops
    when that pipe ends (mudwiz/supervisor.py)."""
    from twisted.internet import reactor
    from twisted.internet.error import CannotListenError
    from twisted.logger import globalLogBeginner

    from mudwiz.service import cannot_listen, makeService, stop_on_signals, stop_once, stop_started
    from mudwiz.supervisor import ParentWatch, log_observer, parse_inherited

    stderr = sys.stderr  # the log takes over sys.stderr; a failure to start is said on the real one
    from mudwiz.net.rlogin import TrustError
    from mudwiz.settings import SettingError
    from mudwiz.store import StoreError

    globalLogBeginner.beginLoggingTo([log_observer(os.environ.get("MUDWIZ_NODE"))])
    try:
        top = makeService(listen, motd, data=data, inherited=parse_inherited(inherit or ""))
    except StoreError as exc:  # a damaged, locked, foreign or newer database, an unwritable directory: as is
        print(f"mudwiz: cannot use the game records: {exc}", file=stderr)
        return 1
    except (TrustError, SettingError) as exc:  # MUDWIZ_RLOGIN_BBS unreadable, a MUDWIZ_* setting it cannot run with
        print(f"mudwiz: {exc}", file=stderr)
        return 1
    tune_gc()
    try:
        top.startService()
    except CannotListenError as exc:  # a taken port, a bad interface: one line, not a traceback
        endpoints = top.endpoints  # type: ignore[attr-defined]  # set by makeService: the listening descriptions
        print(cannot_listen(endpoints, exc), file=stderr)
        stop_started(top)  # the services that did start (the store's thread and file) let go
        return 1
    reactor.addSystemEventTrigger("before", "shutdown", top.stopService)
    stop = stop_once(reactor)
    stop_on_signals(reactor, stop)
    if parent_fd is not None:
        ParentWatch(reactor, parent_fd, stop).startReading()
    reactor.run()
    return int(getattr(top, "exit_status", 0))  # 1: the node could not join its cluster (mudwiz/cluster/)


def export_game(game_id: int, data: str | None, analysis: str | None = None) -> int:
    """Print game ``game_id`` of the store (``MUDWIZ_DATABASE_URL``'s database, else the data directory's file) as
    one JSON document; a missing game or an unusable store is one line on stderr and status 1. The server may be
    running: the file is shared (WAL), and so is a database. ``analysis`` (not None): with the coach's analysis
    of every person's seat ("") or of that player's, as ``analysis``: [{``player``, ...}] (docs/protocol.md)."""
    import json

    from mudwiz.service import existing_store
    from mudwiz.store import StoreError

    try:
        store = existing_store(data)
    except StoreError as exc:
        print(f"mudwiz: cannot read the game records: {exc}", file=sys.stderr)
        return 1
    try:
        record = store.game(game_id)
    except StoreError as exc:
        print(f"mudwiz: cannot read the game records: {exc}", file=sys.stderr)
        return 1
    finally:
        store.close()
    if record is None:
        print(f"mudwiz: there is no game {game_id} in {store.where}", file=sys.stderr)
        return 1
    document = record.to_dict()
    if analysis is not None:
        from mudwiz.commands.analysis import analysing, seats_of
        from mudwiz.errors import MudwizError
        from mudwiz.ratings import PEOPLE
        from mudwiz.slices import finish

        seats = seats_of(record, analysis) if analysis else [
            i for i, seat in enumerate(record.seats) if seat["kind"] in PEOPLE]
        try:
            if analysis and not seats:
                raise MudwizError(f"{analysis} played no seat of game {game_id}")
            document["analysis"] = finish(analysing(record, seats, None))
        except MudwizError as exc:
            print(f"mudwiz: {exc}", file=sys.stderr)
            return 1
    print(json.dumps(document, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
