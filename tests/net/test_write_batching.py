"""One write a connection an update: what a line causes is held back and written to each connection
once, at the end of the line (on a running server, of the reactor's turn, after one commit of the turn's moves),
unchanged and in order; output outside a line, and writes beside the text (telnet's subnegotiations), keep their
place. On the telnet listener's real protocol, over ``StringTransport``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from turns import Turns, outflow
from twisted.internet.address import IPv4Address
from twisted.internet.task import Clock
from twisted.internet.testing import StringTransport

from mudwiz.lobby import Lobby
from mudwiz.net import budget, lines, turns
from mudwiz.net.budget import SHARE_LINES, Budget
from mudwiz.net.lines import MAX_HELD
from mudwiz.net.telnet import MudFactory
from mudwiz.outflow import BUSY_EVERY
from mudwiz.store import SQLiteStore
from mudwiz.table import Journal


class Counting(StringTransport):
    """A transport that counts the writes it is given."""

    writes = 0
    before: Any = None  # called before the first write, if set

    def write(self, data: bytes) -> None:
        if self.before is not None and not self.writes:
            self.before()
        self.writes += 1
        super().write(data)


class Client:
    def __init__(self, factory: MudFactory, first: bytes) -> None:
        self.protocol: Any = factory.buildProtocol(IPv4Address("TCP", "10.0.0.1", 4000))
        self.outflow = factory.outflow
        self.transport = Counting()
        self.protocol.makeConnection(self.transport)
        self.protocol.dataReceived(first)

    def json(self, cmd: str) -> None:
        self.protocol.dataReceived(json.dumps({"id": 1, "cmd": cmd}).encode() + b"\n")

    def messages(self) -> list[dict[str, Any]]:
        lines = self.transport.value().split(b"\n")
        return [json.loads(line[line.find(b"{"):]) for line in lines if b"{" in line]

    def fresh(self) -> None:
        self.transport.clear()
        self.transport.writes = 0


def table(factory: MudFactory) -> list[Client]:
    """A Wizard table of four JSON connections, its game started."""
    clients = [Client(factory, f"/mode json\np{i}\n".encode()) for i in range(4)]
    clients[0].json("/new wizard")
    for c in clients[1:]:
        c.json("/join 1")
    clients[0].json("/start")
    return clients


def journaled_lobby(tmp_path: Path) -> tuple[Clock, SQLiteStore, Lobby]:
    """A lobby on a fake clock whose table journal groups its moves, as a running server's does (a real SQLite
    file): the commit waits for the journal's gate, run before anything is written."""
    clock = Clock()
    store = SQLiteStore(tmp_path / "mudwiz.sqlite")
    lobby = Lobby(clock, seed=1)
    lobby.journal = Journal(store)
    lobby.journal.grouped = True
    return clock, store, lobby


def test_a_move_is_one_write_to_each_connection_at_the_table() -> None:
    factory = MudFactory(Lobby(Clock(), seed=1), "", 0.0, outflow=outflow())
    clients = table(factory)
    for c in clients:
        c.fresh()
    clients[0].json("/bid 0")  # p0, left of the dealer, bids first
    for c in clients:
        kinds = [m["type"] for m in c.messages()]
        assert kinds.count("state") == 1 and kinds.count("bid_made") == 1, kinds
        assert c.transport.writes == 1, f"{c.transport.writes} writes for {kinds}"
    assert [m["type"] for m in clients[0].messages()] == ["bid_made", "state", "ok"], "the reply after the move's news"
    assert clients[1].messages()[-1]["legal"] == ["/bid 0", "/bid 1"], "the next bidder is offered the bids"


def test_output_outside_a_line_is_written_at_once() -> None:
    clock = Clock()
    factory = MudFactory(Lobby(clock, seed=1), "", 0.0, outflow=outflow())
    clients = table(factory)
    clients[0].fresh()
    clock.advance(300 - 30)  # the turn clock's warning, from a timer: nobody's line holds it back
    assert b"30 s left for your move" in clients[0].transport.value()


def test_a_telnet_client_gets_a_burst_in_one_write_and_its_gmcp_before_each_message() -> None:
    factory = MudFactory(Lobby(Clock(), seed=1), "", 0.0, outflow=outflow())
    clients = table(factory)
    refuse = b"\xff\xfc\x1f\xff\xfc\x18"  # WONT NAWS, WONT TTYPE: the name waits for them no more
    eor = Client(factory, b"\xff\xfd\x19" + refuse + b"eor\r\n")  # DO EOR, a name
    mud = Client(factory, b"\xff\xfd\x19\xff\xfd\xc9" + refuse + b"mud\r\n")  # DO EOR, DO GMCP, a name
    eor.fresh()
    eor.protocol.dataReceived(b"/watch 1\r\n")  # the table drawn, and the reply
    data = eor.transport.value()
    assert b"Waiting for p0 to bid" in data and b"you watch table 1" in data
    assert b"\xff\xef" not in data, "whole lines: no prompt, no IAC EOR"
    assert eor.transport.writes == 1, "the burst in one write"
    mud.protocol.dataReceived(b"/watch 1\r\n")
    mud.fresh()
    clients[0].json("/bid 0")
    data = mud.transport.value()
    gmcp, text = data.find(b"\xff\xfa\xc9Game.BidMade"), data.find(b"p0 bids 0")
    state = data.find(b"\xff\xfa\xc9Game.State")
    assert 0 <= gmcp < text < state, "each message's GMCP comes just before its text, as unbatched"


def test_a_connection_whose_write_fails_keeps_no_one_elses_text_back() -> None:
    factory = MudFactory(Lobby(Clock(), seed=1), "", 0.0, outflow=outflow())
    clients = table(factory)

    def broken(data: bytes) -> None:
        raise RuntimeError("a bug below the framing")

    clients[0].transport.write = broken  # type: ignore[method-assign]  # the mover's own reply fails
    for c in clients[1:]:
        c.fresh()
    clients[0].json("/bid 0")
    for c in clients[1:]:
        assert [m["type"] for m in c.messages()] == ["bid_made", "state"], "the others are sent the move"
    clients[0].transport.write = Counting.write.__get__(clients[0].transport)  # type: ignore[method-assign]
    clients[1].json("/bid 0")
    assert "bid_made" in [m["type"] for m in clients[0].messages()], "and the failed one is written to again"


def test_on_a_running_server_a_turns_lines_leave_at_its_end_after_one_commit_of_their_moves(tmp_path: Path) -> None:
    """``hold_per_turn`` (a running server's): what two lines of one reactor turn cause waits for the turn's end;
    then their moves are committed in one go (the journal's gate) before the first byte leaves, and each
    connection is written once with both moves' messages, in order."""
    clock, store, lobby = journaled_lobby(tmp_path)
    clients = table(MudFactory(lobby, "", 0.0, outflow=outflow()))
    journaled: list[int] = []  # the moves in the journal when each connection was first written to this turn
    for c in clients:
        c.fresh()
        c.transport.before = lambda: journaled.append(len(store.open_tables()[0].moves))
    out = clients[0].outflow
    ungate = out.gate(lobby.journal.commit)
    out.hold_per_turn(clock.callLater)
    try:
        clients[0].json("/bid 0")
        clients[1].json("/bid 1")
        assert [c.transport.writes for c in clients] == [0, 0, 0, 0] and lobby.journal.pending
        clock.advance(0)  # the turn ends
    finally:
        out.hold_per_turn(None)
        ungate()
    assert journaled == [2, 2, 2, 2], "committed, both moves at once, before anything was written"
    for c in clients:
        kinds = [m["type"] for m in c.messages()]
        assert c.transport.writes == 1 and kinds.count("bid_made") == 2 and kinds.count("state") == 2, kinds
    assert [m["player"] for m in clients[3].messages() if m["type"] == "bid_made"] == ["p0", "p1"]


def test_a_burst_of_commands_is_written_as_it_passes_the_held_limit_not_all_at_the_turns_end(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Held text is bounded: past ``MAX_HELD`` characters a connection's text is written at once, so the backlog
    limit (which counts writes) sees a client that pastes a screenful of ``/help`` and never reads. (A turn's
    share of lines is lifted here, so all of them are acted on in the one turn: test_wire_fairness.py.)"""
    monkeypatch.setattr(budget, "SHARE_LINES", 1000)
    monkeypatch.setattr(budget, "SHARE_SECONDS", 60.0)
    monkeypatch.setattr(budget, "SHARE_CHARACTERS", 1 << 30)
    clock = Clock()
    client = Client(MudFactory(Lobby(clock, seed=1), "", 0.0, outflow=outflow(), budget=PER_TURN_ONLY),
                    b"/mode json\npaster\n")
    client.fresh()
    client.outflow.hold_per_turn(clock.callLater)
    try:
        client.protocol.dataReceived(b"/help\n" * 100)
        written = len(client.transport.value())
        assert client.transport.writes >= 2 and written >= MAX_HELD, "written while the turn still runs"
        assert client.protocol.protocol.held_size <= MAX_HELD
        clock.advance(0)
    finally:
        client.outflow.hold_per_turn(None)
    assert [m["type"] for m in client.messages()].count("help") == 100


# The shares of a turn alone: the per-second ones (net/budget.py) are test_budget.py's
PER_TURN_ONLY = Budget(fair_cpu=0, lines_per_second=0, output_per_second=0)


@pytest.fixture(autouse=True)
def counted_turns(monkeypatch: pytest.MonkeyPatch) -> None:
    """The turn's bound on the wall clock (turns.TURN_SECONDS) lifted: these count the shares of lines, on a
    machine of any speed; and a fresh crowd for each test (its turn and the lines put off)."""
    monkeypatch.setattr(turns, "TURN_SECONDS", 60.0)
    PER_TURN_ONLY.crowd.__init__()  # type: ignore[misc]  # (the frozen budget's one mutable part)


def sharing(name: str) -> tuple[Client, Turns]:
    """A JSON connection logged in as ``name``, on a running server whose turns the test runs (``Turns``)."""
    factory = MudFactory(Lobby(Clock(), seed=1), "", 0.0, outflow=outflow(), budget=PER_TURN_ONLY)
    client = Client(factory, b"/mode json\n" + name.encode() + b"\n")
    client.fresh()
    turns = Turns()
    client.outflow.hold_per_turn(turns.callLater)
    return client, turns


def whos(ids: range) -> bytes:
    """Requests of ``/who``, one a line, with these ids."""
    return b"".join(b'{"id":%d,"cmd":"/who"}\n' % i for i in ids)


def test_a_burst_is_acted_on_a_share_a_turn_its_socket_unread_in_between_and_every_line_in_order() -> None:
    """A turn acts on at most ``SHARE_LINES`` of one connection's lines; the rest wait in the buffer, the socket
    paused (the kernel keeps what comes), until the next turn. Nothing is lost or reordered. With a flood's lines
    waiting (``backlogged``), its turns' answers are gathered, written every ``BUSY_EVERY`` rather than every
    turn."""
    client, turns = sharing("sharer")
    try:
        client.protocol.dataReceived(whos(range(100)))
        assert 0 < client.protocol.protocol.share.lines <= SHARE_LINES, "the first turn's share"
        assert client.transport.producerState == "paused"
        assert not client.messages(), "held to the turn's end"
        taken = 0
        while turns.calls and taken < 100:
            turns.next()
            taken += 1
    finally:
        client.outflow.hold_per_turn(None)
    assert [m["id"] for m in client.messages() if m["type"] == "ok"] == list(range(100))
    assert taken > 100 // SHARE_LINES
    assert 0 < client.transport.writes <= 2 * taken // 3, "the backlogged connection's turns' answers gathered"
    assert client.transport.producerState == "producing"


def test_a_turns_output_leaves_once_its_sockets_are_read() -> None:
    """On a running server what a turn's lines cause is written once the poll has read its sockets
    (``Outflow.turn_read``, net/turns.py ``Crowd.read``), not after the next turn's timed calls."""
    client, turns = sharing("asker")
    try:
        client.protocol.dataReceived(whos(range(1)))
        assert not client.messages(), "held while the turn reads"
        client.outflow.turn_read()
        assert [m["id"] for m in client.messages() if m["type"] == "ok"] == [0]
    finally:
        client.outflow.hold_per_turn(None)


class Ticks:
    """``perf_counter`` for ``net/lines.py``: each reading ``step`` seconds after the last."""

    def __init__(self, step: float) -> None:
        self.now, self.step = 0.0, step

    def __call__(self) -> float:
        self.now += self.step
        return self.now


def test_a_line_that_took_longer_than_a_share_rests_its_connection_pace_times_as_long(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A costly line (a replay of a long game) is acted on, then its connection rests ``PACE`` times what it took
    before the next line is read: a client that repeats it gets at most a quarter of the server."""
    monkeypatch.setattr(lines, "perf_counter", Ticks(0.010))  # every line takes 10 ms: twice a share
    monkeypatch.setattr(lines, "thread_time", Ticks(0.010))  # of the process's own time (a wait for a core is not)
    client, turns = sharing("slow")
    try:
        client.protocol.dataReceived(whos(range(1, 3)))
        assert client.protocol.protocol.paused and client.transport.producerState == "paused"
        rest = [d for d in turns.delays if d > 0]
        assert rest == [pytest.approx(budget.PACE * 0.010)]
        turns.next()  # the turn's end, and the rest's end (run here at once)
        turns.next()
    finally:
        client.outflow.hold_per_turn(None)
    assert [m["id"] for m in client.messages() if m["type"] == "ok"] == [1, 2]


def test_cheap_lines_are_never_rested_only_shared_out_a_turn_at_a_time(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(lines, "perf_counter", Ticks(0.001))  # a line takes 1 ms: a share is spent in 3
    client, turns = sharing("cheap")
    try:
        client.protocol.dataReceived(whos(range(10)))
        while turns.calls:
            turns.next()
    finally:
        client.outflow.hold_per_turn(None)
    assert [m["id"] for m in client.messages() if m["type"] == "ok"] == list(range(10))
    assert set(turns.delays) - {BUSY_EVERY} == {0}, "never a rest (only the gathered answers' write)"
    assert len(turns.delays) >= 10 // 3  # a pause every share, a turn's end every turn


def test_on_a_running_server_a_bots_move_leaves_as_one_write_after_its_commit(tmp_path: Path) -> None:
    """Output that no line causes (a bot's move, from its timer) is held to the turn's end as well: each person
    at the table is written once with the move's news and their state, after the move is committed."""
    clock, store, lobby = journaled_lobby(tmp_path)
    factory = MudFactory(lobby, "", 0.0, outflow=outflow())
    host = Client(factory, b"/mode json\nhost\n")
    watcher = Client(factory, b"/mode json\nwatcher\n")
    host.json("/new wizard")
    for _ in range(3):
        host.json("/bot add")
    host.json("/start")
    watcher.json("/watch 1")
    journaled: list[int] = []  # the moves in the journal when each connection was first written to
    out = factory.outflow
    ungate = out.gate(lobby.journal.commit)
    out.hold_per_turn(clock.callLater)
    try:
        for c in (host, watcher):
            c.transport.before = lambda: journaled.append(len(store.open_tables()[0].moves))
        legal = [m for m in host.messages() if m["type"] == "state"][-1]["legal"]
        bots_moved = 0
        for _ in range(30):
            if bots_moved == 3:
                break
            if legal:  # the host's own bid: a line, as always, its turn ended at once
                host.json(legal[0])
                clock.advance(0)
            for c in (host, watcher):
                c.fresh()
            journaled.clear()
            clock.advance(1)  # a bot's delay: it moves, and the turn its timer ran in ends
            news = [m for m in host.messages() if m["type"] in ("bid_made", "trump_chosen")]
            states = [m for m in host.messages() if m["type"] == "state"]
            legal = states[-1]["legal"] if states else []
            if news:
                bots_moved += 1
                for c in (host, watcher):
                    kinds = [m["type"] for m in c.messages()]
                    assert c.transport.writes == 1 and kinds[-1] == "state", kinds
                assert journaled == [len(store.open_tables()[0].moves)] * 2, "committed before the first byte"
        assert bots_moved == 3, "the three bots bid"
    finally:
        out.hold_per_turn(None)
        ungate()
