"""Every game end to end over loopback: JSON clients play a whole game from ``state.legal`` alone.

Witches' passing phase offers the pattern ``/pass`` (any ``state.pass.count`` cards of the hand), which the
client fills in; everything else is sent exactly as listed.
"""

from __future__ import annotations

import random

import pytest
from wire import JsonClient, play_until_game_end

GAMES = {
    "witches": (4, ["hands=1"]),
    "tiltowait": (4, ["hands=1"]),
}


@pytest.mark.parametrize("game", sorted(GAMES))
def test_json_clients_play_a_whole_game(server: tuple[str, int], game: str) -> None:
    players, options = GAMES[game]
    names = [f"{game[:4]}{i}" for i in range(players)]
    clients = [JsonClient(server, n) for n in names]
    host, *others = clients
    assert host.request(f"/new {game}")["type"] == "ok"
    table = host.wait_for(lambda m: m["type"] == "state", since=host.mark)["table"]
    for c in others:
        assert c.request(f"/join {table}")["type"] == "ok"
    for opt in options:
        assert host.request(f"/option {opt}")["type"] == "ok"
    watcher = JsonClient(server, f"{game[:4]}obs")
    assert watcher.request(f"/watch {table}")["type"] == "ok"
    assert host.request("/start")["type"] == "ok"
    play_until_game_end(clients, random.Random(game))
    watcher.wait_for(lambda m: m["type"] == "game_end")
    for c in clients:
        end = c.of_type("game_end")[-1]
        assert sorted(s["player"] for s in end["standings"]) == sorted(names)
        totals = dict.fromkeys(names, 0)
        for m in c.of_type("round_end"):
            for r in m["results"]:
                totals[r["player"]] += r["delta"]
                assert r["score"] == totals[r["player"]]
        assert {s["player"]: s["score"] for s in end["standings"]} == totals
        for s in c.of_type("state"):
            assert s["table"] == table and isinstance(s["legal"], list)
    assert all(s["hand"] == [] for s in watcher.of_type("state"))
    for c in [*clients, watcher]:
        c.close()


def test_a_wrong_pass_is_answered_with_the_pass_as_it_must_be_typed(server: tuple[str, int]) -> None:
    """The moves listed after an error are ones a person can type: Witches' pattern move ``pass`` is shown
    with its cards (``/pass C1 C2 ...``), not as a bare ``/pass`` that would itself be refused."""
    clients = [JsonClient(server, f"passer{i}") for i in range(3)]
    host, *others = clients
    try:
        assert host.request("/new witches")["type"] == "ok"
        table = host.wait_for(lambda m: m["type"] == "state", since=host.mark)["table"]
        for c in others:
            assert c.request(f"/join {table}")["type"] == "ok"
        assert host.request("/start")["type"] == "ok"
        state = host.wait_for(lambda m: m["type"] == "state" and m["legal"] == ["/pass"], since=host.mark)
        error = host.request("/bid 1")
        assert error["type"] == "error" and error["message"].endswith("; you may: /pass C1 C2 ...")
        error = host.request(f"/pass {state['hand'][0]}")
        assert error["type"] == "error" and "pass exactly 4 cards, not 1" in error["message"]
        assert host.last_state() == state  # nothing was passed
    finally:
        for c in clients:
            c.close()
