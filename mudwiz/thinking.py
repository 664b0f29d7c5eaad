"""Where a bot does its thinking: inline (tests on a fake clock, cheap bots), in worker processes (the server's
default) or in a worker thread.

Worker processes (``ProcessThinking``) take the thinking off the reactor's interpreter altogether: a thinking
thread, however short the switch interval, still takes the GIL from the reactor for every slice it thinks
(bench/load.py ``--mode bots`` measures both).

A ``good`` bot may think for a tenth of a second or more per move. On the reactor thread that would freeze
every connection of the server for that long, once per bot move; in a worker thread the reactor keeps
serving. Under the GIL the reactor still waits for a thinking thread to hand it over, up to the interpreter's
switch interval each time it blocks and wakes (5 ms by default, several times per request): so while the pool
runs, the interval is cut to 1 ms (``bench/reactor.py`` measures the difference). The table only sees a
``Think``: give it a bot and a view, get a Deferred of the bot's action.
"""

from __future__ import annotations

import copy
import json
import sys
from collections.abc import Callable
from typing import Any, Protocol, cast

from twisted.application import service
from twisted.internet import defer, protocol
from twisted.internet.interfaces import IReactorFromThreads, IReactorProcess
from twisted.python.failure import Failure

from mudwiz.workers import WorkerThreads


class Chooser(Protocol):
    def choose(self, view: dict[str, Any]) -> str | None: ...


class Spec(Protocol):
    """What a worker process needs to play a bot as the server's own would: its level, game and seed, and a token
    naming it among all the server's bots (``BotSession``)."""

    token: int
    level: str
    game: str
    seed: int | None


class Think(Protocol):
    def __call__(self, bot: Chooser, view: dict[str, Any]) -> defer.Deferred[str | None]: ...


def think_inline(bot: Chooser, view: dict[str, Any]) -> defer.Deferred[str | None]:
    """Decide on the calling thread: deterministic, for a fake clock and for bots that answer at once."""
    return defer.maybeDeferred(bot.choose, view)


class ThreadedThinking(WorkerThreads):
    """A pool of worker threads for bots, started and stopped with the server.

    The bot gets a deep copy of its view, so nothing the reactor later changes can move under it; a bot object
    is only ever asked one question at a time (the table sees to that), so its own memory needs no lock.
    """

    name: str | None = "bot-thinking"  # type: ignore[assignment]  # IService declares name None until set
    switch_interval = 0.001  # seconds; see the module's docstring

    def __init__(self, reactor: IReactorFromThreads, threads: int = 4) -> None:
        super().__init__(reactor, threads, "bots")
        self.saved_interval = sys.getswitchinterval()

    def __call__(self, bot: Chooser, view: dict[str, Any]) -> defer.Deferred[str | None]:
        return self.run(bot.choose, copy.deepcopy(view))

    def startService(self) -> None:
        self.saved_interval = sys.getswitchinterval()
        sys.setswitchinterval(min(self.saved_interval, self.switch_interval))
        super().startService()

    def stopService(self) -> defer.Deferred[None] | None:
        super().stopService()
        sys.setswitchinterval(self.saved_interval)
        return None


# -- worker processes


class ProcessThinking(service.Service):
    """Bots think in ``processes`` worker processes of their own (``python -m mudwiz.botworker``), started and
    stopped with the server.

    Each bot is given to one process for good (its policy, with its memory, lives there): the one its token
    names, so the bots are dealt round the processes in turn. The view goes down the worker's stdin as a JSON
    line (a copy, so nothing the reactor changes later moves under the bot) and the answer comes back on its
    stdout, firing a Deferred on the reactor: no thread of ours, so nothing takes the GIL from the reactor. A
    worker whose server dies sees its stdin end and exits; one that dies is started again, and the questions it
    had not answered fail (the table then plays a random legal move for that bot).
    """

    name: str | None = "bot-processes"  # type: ignore[assignment]  # IService declares name None until set

    def __init__(self, reactor: IReactorProcess, processes: int = 1) -> None:
        self.reactor = reactor
        self.size = processes
        self.workers: list[BotWorker | None] = []

    def startService(self) -> None:
        super().startService()
        self.workers = [self._spawn(i) for i in range(self.size)]

    def _spawn(self, index: int) -> BotWorker:
        worker = BotWorker(lambda: self._died(index))
        self.reactor.spawnProcess(worker, sys.executable, [sys.executable, "-m", "mudwiz.botworker"],
                                  env=None, childFDs={0: "w", 1: "r", 2: 2})
        return worker

    def _died(self, index: int) -> None:
        if self.running and index < len(self.workers):
            self.workers[index] = self._spawn(index)

    def stopService(self) -> defer.Deferred[None] | None:
        super().stopService()
        for worker in self.workers:
            if worker is not None:
                worker.stop()
        self.workers = []
        return None

    def __call__(self, bot: Chooser, view: dict[str, Any]) -> defer.Deferred[str | None]:
        spec = cast(Spec, bot)
        worker = self.workers[spec.token % len(self.workers)] if self.workers else None
        if worker is None:  # not running (stopping): think here rather than never
            return think_inline(bot, view)
        return worker.ask(spec, view)


class BotWorker(protocol.ProcessProtocol):
    """One worker process: questions down its stdin, answers up its stdout, one JSON object a line, in order."""

    def __init__(self, died: Callable[[], None]) -> None:
        self.died = died
        self.buffer = b""
        self.pending: dict[int, defer.Deferred[str | None]] = {}
        self.asked = 0

    def ask(self, spec: Spec, view: dict[str, Any]) -> defer.Deferred[str | None]:
        self.asked += 1
        answer: defer.Deferred[str | None] = defer.Deferred()
        self.pending[self.asked] = answer
        question = {"id": self.asked, "token": spec.token, "level": spec.level, "game": spec.game,
                    "seed": spec.seed, "view": view}
        assert self.transport is not None
        self.transport.write(json.dumps(question, separators=(",", ":")).encode() + b"\n")
        return answer

    def outReceived(self, data: bytes) -> None:
        *lines, self.buffer = (self.buffer + data).split(b"\n")
        for line in lines:
            reply = json.loads(line)
            answer = self.pending.pop(reply["id"], None)
            if answer is None:
                continue
            if "error" in reply:
                answer.errback(RuntimeError(f"the bot's worker process failed: {reply['error']}"))
            else:
                answer.callback(reply["action"])

    def stop(self) -> None:
        self.died = lambda: None
        if self.transport is not None:
            self.transport.closeStdin()  # the worker's end of file: it exits

    def processEnded(self, reason: Failure) -> None:
        pending, self.pending = self.pending, {}
        for answer in pending.values():
            answer.errback(RuntimeError("the bot's worker process ended"))
        self.died()
