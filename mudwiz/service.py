"""makeService(): the one place a running server is assembled; ``server.tac`` and ``mudwiz serve`` both call it.

The listening addresses are Twisted endpoint descriptions (``tcp:4000``, ``tcp:4000:interface=127.0.0.1``,
``unix:/tmp/mudwiz.sock``), so where and how to listen is configuration, not code. Each transport is one line in
``makeService``: a call of ``add_listener`` with its factory from ``mudwiz/net/``.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import cast

from twisted.application import service, strports
from twisted.internet.interfaces import IReactorFromThreads, IReactorTime
from twisted.internet.protocol import Factory
from twisted.logger import Logger

from mudwiz.connection import LOGIN_TIMEOUT
from mudwiz.games import available, game_class
from mudwiz.lobby import ARRIVAL_BURST, ARRIVAL_RATE, Lobby
from mudwiz.net.limits import ConnectionCounter, Limits, raise_fd_limit
from mudwiz.net.raw import RawFactory
from mudwiz.net.telnet import MudFactory
from mudwiz.table import IDLE_CLOSE
from mudwiz.thinking import Think, ThreadedThinking, think_inline

DEFAULT_LISTEN = "tcp:4000"
DEFAULT_MOTD = "motd.txt"

log = Logger()


def listen_address(listen: str | None = None) -> str:
    """The endpoint description the server listens on: the argument, else ``MUDWIZ_LISTEN``, else the default."""
    return listen or os.environ.get("MUDWIZ_LISTEN") or DEFAULT_LISTEN


def read_motd(path: str) -> str:
    """The message of the day; a missing file is not fatal, the server greets with a built-in line."""
    candidates = [Path(path)]
    if not Path(path).is_absolute():
        candidates.append(Path(__file__).resolve().parent.parent / path)
    for candidate in candidates:
        if candidate.is_file():
            return candidate.read_text(encoding="utf-8", errors="replace")
    return builtin_motd()


def builtin_motd() -> str:
    """The greeting without a motd file, naming the games this server has (``Wizard, Witches and Tiltowait``)."""
    *most, last = [game_class(name).title for name in available()] or ["card games"]
    return f"Welcome to mudwiz: {', '.join(most)}{' and ' if most else ''}{last} at a text table."


def makeService(
    listen: str | None = None,
    motd: str | None = None,
    *,
    grace: float | None = None,
    bot_delay: float | None = None,
    clock: IReactorTime | None = None,
) -> service.MultiService:
    """Build the server: settings come from arguments, else ``MUDWIZ_*`` environment variables, else defaults."""
    if clock is None:
        from twisted.internet import reactor

        clock = cast(IReactorTime, reactor)
    listen = listen_address(listen)
    motd_text = read_motd(motd or os.environ.get("MUDWIZ_MOTD") or DEFAULT_MOTD)
    top = service.MultiService()
    threads = int(os.environ.get("MUDWIZ_BOT_THREADS", 4))
    think: Think = think_inline  # 0 threads, or a fake clock (no threads): bots think on the reactor thread
    if threads > 0 and IReactorFromThreads.providedBy(clock):
        think = ThreadedThinking(cast(IReactorFromThreads, clock), threads)
        think.setServiceParent(top)
    lobby = Lobby(
        clock,
        think=think,
        grace=grace if grace is not None else float(os.environ.get("MUDWIZ_GRACE", 120)),
        bot_delay=bot_delay if bot_delay is not None else float(os.environ.get("MUDWIZ_BOT_DELAY", 1.0)),
        idle_close=float(os.environ.get("MUDWIZ_IDLE_TABLE", IDLE_CLOSE)),
        arrival_burst=int(os.environ.get("MUDWIZ_ARRIVAL_BURST", ARRIVAL_BURST)),
        arrival_rate=float(os.environ.get("MUDWIZ_ARRIVAL_RATE", ARRIVAL_RATE)),
    )
    top.lobby = lobby  # type: ignore[attr-defined]
    login_timeout = float(os.environ.get("MUDWIZ_LOGIN_TIMEOUT", LOGIN_TIMEOUT))
    shared = (lobby, motd_text, login_timeout, connection_counter())  # one counter: the limits span transports
    add_listener(top, "telnet", listen, MudFactory(*shared))
    add_listener(top, "raw", os.environ.get("MUDWIZ_RAW_LISTEN"), RawFactory(*shared))
    return top


def add_listener(top: service.MultiService, name: str, endpoint: str | None, factory: Factory) -> None:
    """Listen on ``endpoint`` (a Twisted endpoint description) with ``factory``, as the service ``name``; a
    transport whose endpoint is not set (None or empty) is off. ``top.endpoints`` keeps the descriptions, so a
    failure to listen can name the one at fault."""
    if endpoint:
        server = strports.service(endpoint, factory)
        server.setName(name)
        server.setServiceParent(top)
        top.endpoints = {**getattr(top, "endpoints", {}), name: endpoint}  # type: ignore[attr-defined]


def connection_counter() -> ConnectionCounter:
    """The connection limits (mudwiz/net/limits.py), sized to the open-file limit, raised first as far as allowed."""
    before, soft, hard = raise_fd_limit()
    limits = Limits.from_env(os.environ, soft)
    log.info("open files: soft limit {before}, now {soft}; hard limit {hard}; {limits}",
             before=before, soft=soft, hard=hard, limits=limits.describe())
    return ConnectionCounter(limits)
