"""A round end's ``/ok``s: people confirm together, as a round's result reaches them all at once. Each
one who confirms gets their own state at once, before their reply (docs/protocol.md: the messages a command causes
come before its reply); everyone else's state showing it is sent once the batch of output ends (a line's, or on a
running server a reactor turn's), once for all the ``/ok``s in it, and not at all when the last one dealt the next
round. On the telnet listener's real protocol, over ``StringTransport``."""

from __future__ import annotations

from typing import Any

from test_write_batching import Client, table
from turns import outflow
from twisted.internet.task import Clock

from mudwiz.lobby import Lobby
from mudwiz.net.telnet import MudFactory


def at_round_end(clock: Clock) -> list[Client]:
    """A Wizard table of four JSON connections whose first round (one card each) has just ended."""
    clients = table(MudFactory(Lobby(clock, seed=1), "", 0.0, outflow=outflow()))
    for _ in range(100):
        latest = [[m for m in c.messages() if m["type"] == "state"][-1] for c in clients]
        if latest[0]["phase"] == "roundend":
            for c in clients:
                c.fresh()
            return clients
        mover = next(i for i, s in enumerate(latest) if s["legal"])
        clients[mover].json(latest[mover]["legal"][0])
    raise AssertionError("the round did not end")


def kinds(client: Client) -> list[str]:
    return [m["type"] for m in client.messages()]


def states(client: Client) -> list[dict[str, Any]]:
    return [m for m in client.messages() if m["type"] == "state"]


def test_oks_in_one_turn_show_each_confirmer_at_once_and_the_rest_once_at_the_turns_end() -> None:
    clock = Clock()
    clients = at_round_end(clock)
    out = clients[0].outflow
    out.hold_per_turn(clock.callLater)
    try:
        for c in clients[:3]:
            c.json("/ok")
        clock.advance(0)  # the turn ends
    finally:
        out.hold_per_turn(None)
    for i, c in enumerate(clients):
        assert states(c)[-1]["confirmed"] == ["p0", "p1", "p2"], f"p{i}'s last state shows all three"
        assert c.transport.writes == 1, "one write a connection, as for a move"
    for c in clients[:3]:
        assert kinds(c)[:2] == ["state", "ok"], "the confirmer's own state comes before its reply"
        assert "/ok" not in states(c)[0]["legal"], "and no longer offers /ok"
    assert [len(states(c)) for c in clients] == [2, 2, 1, 1], "p2, the last to confirm, was current already"
    assert "/ok" in states(clients[3])[-1]["legal"], "the one not confirmed is still asked to"


def test_the_last_ok_in_the_turn_deals_and_nobody_is_sent_the_round_end_again() -> None:
    clock = Clock()
    clients = at_round_end(clock)
    out = clients[0].outflow
    out.hold_per_turn(clock.callLater)
    try:
        for c in clients:
            c.json("/ok")
        clock.advance(0)
    finally:
        out.hold_per_turn(None)
    for c in clients:
        assert states(c)[-1]["phase"] == "bidding", "the next round is dealt and is the last word"
    assert sum(len(states(c)) for c in clients) == 3 + 4, "three confirmers' own states, then the deal's four"


def test_without_a_turn_hold_the_others_are_shown_with_the_line() -> None:
    """A line's own batch (tests, ``bench/moves.py``, a server before its service runs): the others' states leave
    with that line's output, as before."""
    clients = at_round_end(Clock())
    clients[0].json("/ok")
    assert kinds(clients[0]) == ["state", "ok"]
    for c in clients[1:]:
        assert [s["confirmed"] for s in states(c)] == [["p0"]]


def test_batch_work_runs_at_once_outside_a_batch_and_a_failing_piece_costs_only_itself() -> None:
    done: list[str] = []
    out = outflow()
    out.at_batch_end("a", lambda: done.append("now"))
    assert done == ["now"], "no batch open: at once"
    out.open_batch()
    try:
        out.at_batch_end("a", lambda: done.append("first"))
        out.at_batch_end("a", lambda: done.append("a, last asked"))
        out.at_batch_end("b", lambda: 1 / 0)
        out.at_batch_end("c", lambda: out.at_batch_end("d", lambda: done.append("d, asked by c")))
        assert done == ["now"], "held until the batch ends"
    finally:
        out.close_batch()
    assert done == ["now", "a, last asked", "d, asked by c"]
