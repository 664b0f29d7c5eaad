"""Findings of the abuse and fault probe that a person or a bot meets on the wire, over loopback TCP.

The table-level cases are in ``test_table_hardening.py``; these show the same fixes as a client sees them.
"""

from __future__ import annotations

import random
import time

from wire import JsonClient, play_until_game_end


def open_table(host: JsonClient, *commands: str) -> int:
    reply = host.request("/new wizard")
    assert reply["type"] == "ok", reply
    table = int(reply["text"].split()[1])
    for cmd in commands:
        assert host.request(cmd)["type"] == "ok", cmd
    return table


def test_leaving_a_finished_table_is_carried_out_and_the_others_can_still_look(server: tuple[str, int]) -> None:
    a, b = JsonClient(server, "fin_a"), JsonClient(server, "fin_b")
    try:
        table = open_table(a, "/option rounds 1", "/option confirm 1", "/bot add random")
        assert b.request(f"/join {table}")["type"] == "ok"
        assert a.request("/start")["type"] == "ok"
        play_until_game_end([a, b], random.Random(5))
        reply = b.request("/leave")
        assert reply == {"type": "ok", "id": reply["id"], "text": f"you leave table {table}"}
        for cmd in ("/look", "/score"):
            assert a.request(cmd)["type"] == "ok"
        state = a.last_state()
        assert state["status"] == "over" and any(p["name"] == "fin_b" for p in state["players"])
        assert not [m for m in a.messages + b.messages if "internal error" in str(m)]
    finally:
        a.close()
        b.close()


def test_watching_and_leaving_in_a_loop_reaches_a_table_a_few_lines_a_second(server: tuple[str, int]) -> None:
    host, flooder = JsonClient(server, "flood_host"), JsonClient(server, "flooder")
    try:
        table = open_table(host)
        errors = 0
        began = time.monotonic()
        for _ in range(60):
            for cmd in (f"/watch {table}", "/leave"):
                reply = flooder.request(cmd)
                if reply["type"] == "error":
                    assert "too fast" in reply["message"] or "not at a table" in reply["message"], reply
                    errors += 1
        assert errors, "the flood was refused at some point"
        assert host.request("/who")["type"] == "ok"
        seen = [m for m in host.messages if m["type"] == "notice" and "flooder" in m["text"]]
        took = time.monotonic() - began  # the burst, then one a second (MOVE_RATE) for as long as the loop took
        assert len(seen) <= 2 * (15 + int(took * 1.0) + 1) + 2, (len(seen), took)
    finally:
        host.close()
        flooder.close()


def test_a_host_back_in_another_letter_case_is_still_the_host(server: tuple[str, int]) -> None:
    host, other = JsonClient(server, "Hosty"), JsonClient(server, "hosty_friend")
    try:
        table = open_table(host, "/option rounds 1", "/bot add random")
        assert other.request(f"/join {table}")["type"] == "ok"
        assert host.request("/start")["type"] == "ok"
        code = host.of_type("welcome")[0]["resume"]  # a guest comes back with the code of their welcome
        host.close()
        other.wait_for(lambda m: m["type"] == "notice" and "lost the connection" in m["text"], since=0)
        host = JsonClient(server, "HOSTY", password=code)
        assert host.of_type("welcome")[0]["name"] == "Hosty"
        state = host.wait_for(lambda m: m["type"] == "state", since=0)
        assert state["you"] == "Hosty" and state["hand"] and state["host"] == "Hosty"
        play_until_game_end([host, other], random.Random(3))
        assert host.request("/start")["type"] == "ok", "the host may start the next game"
    finally:
        host.close()
        other.close()
