"""A bot's answer may come back later than it was asked for (the server lets bots think in worker threads).

These tests hand the table a thinker whose answers the test releases by hand, on a fake clock, to check what
the table does with a late answer: play it if nothing changed, ask again if the table moved on, drop it if
someone else holds the seat now, and never ask one bot two questions at once. The real threaded thinker is
exercised by every loopback test (the server runs it) and directly at the end.
"""

from __future__ import annotations

import sys
import threading
from typing import Any

from recorder import Recorder
from twisted.internet import defer, reactor
from twisted.internet.task import Clock
from twisted.logger import globalLogPublisher

from mudwiz.commands import dispatch
from mudwiz.lobby import Lobby
from mudwiz.table.botseat import BotSession
from mudwiz.thinking import ThreadedThinking


class HeldAnswers:
    """A thinker that keeps every question until the test releases it."""

    def __init__(self) -> None:
        self.questions: list[tuple[Any, dict[str, Any], defer.Deferred[str | None]]] = []
        self.asked: list[str] = []

    def __call__(self, bot: Any, view: dict[str, Any]) -> defer.Deferred[str | None]:
        assert all(b is not bot for b, _, _ in self.questions), f"{bot.name} asked a second question at once"
        answer: defer.Deferred[str | None] = defer.Deferred()
        self.questions.append((bot, view, answer))
        self.asked.append(bot.name)
        return answer

    def release(self, name: str) -> None:
        """The bot called ``name`` answers the question it was asked, from the view it was given then."""
        for i, (bot, view, answer) in enumerate(self.questions):
            if bot.name == name:
                del self.questions[i]
                answer.callback(bot.choose(view))
                return
        raise AssertionError(f"{name} was not asked anything")


def witches_with_two_bots(think: Any) -> tuple[Clock, Lobby, Recorder]:
    clock = Clock()
    lobby = Lobby(clock, bot_delay=0.5, seed=3, think=think)
    person = Recorder()
    lobby.login(person, "ann")
    for command in ("/new witches", "/bot add random", "/bot add random", "/start"):
        dispatch(lobby, person, command)
    return clock, lobby, person


def pass_cards(lobby: Lobby, person: Recorder) -> None:
    state = person.last_state()
    dispatch(lobby, person, "/pass " + " ".join(state["hand"][: state["pass"]["count"]]))


def test_an_answer_to_a_table_that_moved_on_is_not_played_and_the_bot_is_asked_again() -> None:
    think = HeldAnswers()
    clock, lobby, person = witches_with_two_bots(think)
    table = lobby.tables[1]
    bots = [s.name for s in table.seats if s.is_bot]
    clock.advance(0.5)
    assert sorted(think.asked) == sorted(bots), "both bots owe a pass and are asked after the delay"
    pass_cards(lobby, person)  # the table moves on while both bots think
    think.release(bots[0])
    assert not table.game.view(1)["passed"] and not table.game.view(2)["passed"], "a stale answer is not played"
    clock.advance(0.5)
    assert think.asked == [*think.asked[:2], bots[0]], "asked again; the bot still thinking is not asked twice"
    think.release(bots[0])
    assert table.seats[1].name == bots[0] and table.game.view(1)["passed"]
    think.release(bots[1])  # stale too (bots[0] moved): asked again after the delay
    clock.advance(0.5)
    think.release(bots[1])
    assert table.game.phase == "playing", "everyone has passed"


def test_an_answer_for_a_seat_its_owner_took_back_is_dropped() -> None:
    think = HeldAnswers()
    clock = Clock()
    lobby = Lobby(clock, grace=10, bot_delay=0.5, seed=5, think=think)
    people = [Recorder() for _ in range(3)]
    for i, p in enumerate(people):
        lobby.login(p, f"p{i}")
    dispatch(lobby, people[0], "/new witches")
    for p in people[1:]:
        dispatch(lobby, p, "/join 1")
    dispatch(lobby, people[0], "/start")
    table = lobby.tables[1]
    lobby.disconnect(people[2])
    clock.advance(10)  # grace over: a stand-in plays p2's seat
    assert isinstance(table.seats[2], BotSession)
    clock.advance(0.5)
    assert think.asked == ["p2"]
    back = Recorder()
    lobby.login(back, "p2")
    assert table.seats[2] is back
    think.release("p2")
    assert not table.game.view(2)["passed"], "the stand-in's pass is not made for the person who came back"
    assert back.last_state()["legal"] == ["/pass"]


def test_a_bot_that_fails_to_think_still_moves_and_the_failure_is_logged() -> None:
    def broken(bot: Any, view: dict[str, Any]) -> defer.Deferred[str | None]:
        return defer.fail(RuntimeError("the bot fell over"))

    logged: list[dict[str, Any]] = []
    globalLogPublisher.addObserver(logged.append)
    try:
        clock, lobby, person = witches_with_two_bots(broken)
        clock.advance(0.5)  # the first bot's pass makes the second one's plan stale: it is asked once more
        clock.advance(0.5)
    finally:
        globalLogPublisher.removeObserver(logged.append)
    table = lobby.tables[1]
    assert table.game.view(1)["passed"] and table.game.view(2)["passed"]
    assert any("the bot fell over" in str(e.get("log_failure", "")) for e in logged)


def test_the_threaded_thinker_answers_from_a_worker_thread_on_a_copy_of_the_view() -> None:
    """The real thing: the answer comes from another thread; the bot's view is its own copy; while the pool runs
    the interpreter hands the GIL over more often, so the reactor does not wait long for a thinking thread."""
    seen: dict[str, Any] = {}

    class Probe:
        name = "probe"

        def choose(self, view: dict[str, Any]) -> str:
            seen["thread"] = threading.current_thread().name
            view["hand"].clear()  # whatever the bot does to its copy stays there
            return "pass"

    before = sys.getswitchinterval()
    thinking = ThreadedThinking(reactor, threads=1)
    thinking.startService()
    try:
        assert sys.getswitchinterval() == min(before, ThreadedThinking.switch_interval)
        view = {"hand": ["R1", "R2"]}
        result = []
        answer = thinking(Probe(), view)
        answer.addCallback(result.append)
        for _ in range(500):
            reactor.iterate(0.01)  # type: ignore[attr-defined]
            if result:
                break
    finally:
        thinking.stopService()
    assert sys.getswitchinterval() == before
    assert result == ["pass"]
    assert seen["thread"] != threading.current_thread().name and "mudwiz-bots" in seen["thread"]
    assert view == {"hand": ["R1", "R2"]}
