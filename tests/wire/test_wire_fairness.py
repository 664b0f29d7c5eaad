"""One connection's burst of lines cannot hold the others up (net/budget.py ``SHARE_LINES``), over loopback TCP.

A client pipelines thousands of commands in one write while another one talks: the other's line is acted on
between the burst's shares, not after all of it, and the burst is still answered whole and in order. Before,
a read was acted on whole: 5,000 ``/help`` in one write kept everyone else waiting 3 s. Lines typed as raw keys
(rlogin, ssh with a PTY: lineedit.py) are shared the same way. The shares of each second (a burst this long is
a flood to them: test_wire_flood.py) are lifted here, so that the turn's share alone is seen.
"""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest
from wire import JsonClient, RloginClient, free_port, running_server

BURST = 10_000  # 50 KB of "/who\n"
CHAT = "heard in between"
PER_TURN_ONLY = {"MUDWIZ_FAIR_CPU": "0", "MUDWIZ_LINES_PER_SECOND": "0", "MUDWIZ_OUTPUT_PER_SECOND": "0"}


@pytest.fixture(scope="module")
def server() -> Iterator[tuple[str, int]]:
    with running_server(**PER_TURN_ONLY) as address:
        yield address


def test_a_pipelined_burst_is_read_in_shares_and_another_client_is_heard_between_them(
        server: tuple[str, int]) -> None:
    burst, other = JsonClient(server, "burst"), JsonClient(server, "between")
    try:
        start = len(burst.messages)  # what login brought (a who list among it)
        burst.sock.sendall(b"/who\n" * BURST)
        burst.wait_for(lambda m: m["type"] == "who")  # the server is into the burst: now the other talks
        other.send(f"/say {CHAT}")
        heard = burst.wait_for(lambda m: m["type"] == "chat" and m["text"] == CHAT)
        answered_before = sum(m["type"] == "who" for m in burst.messages[start:burst.messages.index(heard)])
        deadline = time.monotonic() + 120
        while sum(m["type"] == "ok" for m in burst.messages[start:]) < BURST and time.monotonic() < deadline:
            burst.read(0.5)
        burst.read(0.5)
        # every /who answered, each with its ok, nothing lost or doubled by the pauses between shares
        answers = [m["type"] for m in burst.messages[start:] if m["type"] in ("who", "ok", "error")]
        assert answers == ["who", "ok"] * BURST, answers[:4]
        assert answered_before < BURST // 2, f"the other client was heard only after {answered_before} lines"
        assert other.request("/who")["type"] == "ok"
    finally:
        burst.close()
        other.close()


@pytest.fixture(scope="module")
def rlogin_server() -> Iterator[tuple[tuple[str, int], tuple[str, int]]]:
    rlogin = free_port()
    with running_server(MUDWIZ_RLOGIN=f"tcp:{rlogin}:interface=127.0.0.1", MUDWIZ_RLOGIN_BBS="dove=127.0.0.3",
                        **PER_TURN_ONLY) as s:
        yield (s[0], s[1]), (s[0], rlogin)


def test_keys_typed_in_a_burst_are_edited_into_lines_in_shares_and_none_is_lost(rlogin_server) -> None:
    telnet, rlogin = rlogin_server
    caller = RloginClient(rlogin, "Keys", "", source="127.0.0.3")
    other = JsonClient(telnet, "talker")
    try:
        caller.read_until(b"Welcome, Keys@dove!")
        lines = 400
        # each line a command of its own name, numbered: its one-line error names it, so order and loss show
        caller.type(b"".join(b"/n%d\r" % i for i in range(lines)))
        caller.read_until(b"/n0;")  # the server is into the burst: now the other talks
        other.send(f"/say {CHAT}")
        caller.read_until(b"/n%d;" % (lines - 1), timeout=60)
        deadline = time.monotonic() + 10
        while CHAT.encode() not in caller.output and time.monotonic() < deadline:
            caller.read(0.5)
        text = caller.output.decode("utf-8", "replace")
        told = [text.find(f"/n{i};") for i in range(lines)]
        assert all(at >= 0 for at in told), "a line was lost"
        assert told == sorted(told), "lines answered out of order"
        heard = text.find(CHAT)
        assert heard >= 0
        assert sum(at < heard for at in told) < lines // 2, "the other client was heard only after the burst"
    finally:
        caller.close()
        other.close()
