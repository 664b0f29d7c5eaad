"""Finding a game over loopback TCP: seeks matched into a started game, quick play filled with bots after the
wait, a match backed out of during its countdown, and ``/again`` starting the same seats again."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from wire import JsonClient, play_until_game_end, running_server


@pytest.fixture(scope="module")
def seek_server() -> Iterator[tuple[str, int]]:
    with running_server(MUDWIZ_SEEK_BOTS="1", MUDWIZ_SEEK_COUNTDOWN="0.5") as address:
        yield address


def started(client: JsonClient, table: int) -> dict:
    return client.wait_for(lambda m: m["type"] == "state" and m["table"] == table and m["phase"] != "waiting",
                           since=0)


def test_seeks_are_matched_into_a_started_game(seek_server: tuple[str, int]) -> None:
    a, b, c = (JsonClient(seek_server, name) for name in ("Seeka", "Seekb", "Seekc"))
    assert a.request("/seek wizard 3 casual rounds=1")["type"] == "ok"
    listed = b.request("/seeks") and b.wait_for(lambda m: m["type"] == "seeks", since=b.mark)
    assert [(s["who"], s["game"], s["players"], s["options"]) for s in listed["seeks"]] == [
        ("Seeka", "wizard", 3, {"rounds": "1"})]
    assert b.request("/seek wizard 3 rounds=1")["type"] == "ok"
    assert c.request("/seek wizard 3 rounds=1")["type"] == "ok"
    for client in (a, b, c):
        matched = client.wait_for(lambda m: m["type"] == "matched", since=0)
        assert matched["players"] == ["Seeka", "Seekb", "Seekc"] and matched["bots"] == 0
        assert started(client, matched["table"])["players"][0]["name"] == "Seeka"
    assert a.request("/leave")["type"] == "ok"
    for client in (a, b, c):
        client.sock.close()


def test_a_seeker_backs_out_during_the_countdown(seek_server: tuple[str, int]) -> None:
    slow = "MUDWIZ_SEEK_COUNTDOWN"
    with running_server(**{slow: "30"}) as address:
        a, b, c = (JsonClient(address, name) for name in ("Backa", "Backb", "Backc"))
        for client in (a, b, c):
            assert client.request("/seek wizard 3")["type"] == "ok"
        c.wait_for(lambda m: m["type"] == "matched", since=0)
        assert c.request("/leave")["type"] == "ok"
        a.wait_for(lambda m: m["type"] == "notice" and "backed out" in m["text"], since=0)
        listed = a.request("/seeks") and a.wait_for(lambda m: m["type"] == "seeks", since=a.mark)
        assert sorted(s["who"] for s in listed["seeks"]) == ["Backa", "Backb"]
        tables = a.request("/tables") and a.wait_for(lambda m: m["type"] == "tables", since=a.mark)
        assert tables["tables"] == []


def test_quick_play_fills_with_bots_after_the_wait(seek_server: tuple[str, int]) -> None:
    q = JsonClient(seek_server, "Quicky")
    reply = q.request("/quick witches")
    assert reply["type"] == "ok" and "bots fill the empty seats in 1 s" in reply["text"]
    matched = q.wait_for(lambda m: m["type"] == "matched", since=0, timeout=15)
    assert matched["bots"] == 3 and matched["players"][0] == "Quicky"
    assert started(q, matched["table"])
    q.sock.close()


def test_again_starts_the_same_seats_again(seek_server: tuple[str, int]) -> None:
    clients = [JsonClient(seek_server, name) for name in ("Againa", "Againb", "Againc")]
    for client in clients:
        assert client.request("/seek wizard 3 rounds=1")["type"] == "ok"
    table = clients[0].wait_for(lambda m: m["type"] == "matched", since=0)["table"]
    for client in clients:
        started(client, table)
    play_until_game_end(clients, random.Random(7))
    first, *rest = clients
    assert first.request("/again")["type"] == "ok"
    shown = rest[0].wait_for(lambda m: m["type"] == "again", since=0)
    assert shown["agreed"] == ["Againa"] and shown["waiting"] == ["Againb", "Againc"]
    for client in rest:
        assert client.request("/again")["type"] == "ok"

    def starts(client: JsonClient) -> int:
        return sum(1 for m in client.of_type("notice") if "starts: Againa, Againb, Againc" in m["text"])

    for client in clients:
        client.wait_for(lambda m, c=client: starts(c) == 2, since=0)  # type: ignore[misc]
        assert client.last_state()["phase"] != "waiting" and client.last_state()["table"] == table
