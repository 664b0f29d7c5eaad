"""The bot levels over the wire: each level seated by ``/bot add`` plays each game to its end on a real server,
names are accepted or refused in one line, and ``/bot add`` with no level picks one meant for people."""

from __future__ import annotations

import random

import pytest

from tests.support.wire import JsonClient, play_until_game_end, running_server

SHORT = {"wizard": "rounds 2", "witches": "hands 1", "tiltowait": "hands 1"}


@pytest.mark.parametrize("game", ["wizard", "witches", "tiltowait"])
def test_every_level_plays_the_game_to_its_end(game: str) -> None:
    with running_server() as server:
        ann = JsonClient(server, "ann")
        for cmd in (f"/new {game}", f"/option {SHORT[game]}"):
            assert ann.request(cmd)["type"] == "ok", cmd
        seated = []
        for level in ("random", "easy", "normal", "hard"):
            reply = ann.request(f"/bot add {level}")
            assert reply["type"] == "ok" and f"({level})" in reply["text"], reply
            seated.append(reply["text"].split()[0])
        assert ann.request("/start")["type"] == "ok"
        # a hand of Tiltowait among five may run long (draws, four bots' attacks): more rounds of reading than a game
        # between people takes, counted in reads, not seconds
        play_until_game_end([ann], random.Random(11), limit=20000)
        standings = ann.of_type("game_end")[-1]["standings"]
        assert {s["player"] for s in standings} == {"ann", *seated}
        ann.close()
        log = server.log()
    # a bot that fails or answers something illegal is replaced by a random move: none may have been
    assert "failed to choose" not in log and " tried " not in log, log[-3000:]


def test_bot_add_takes_known_levels_and_the_old_name_and_refuses_others_in_one_line() -> None:
    with running_server() as server:
        ann = JsonClient(server, "ann")
        assert ann.request("/new wizard")["type"] == "ok"
        refused = ann.request("/bot add expert")
        assert refused["type"] == "error"
        assert refused["message"] == "no bot level 'expert'; levels: random, easy, normal, hard"
        assert "usage" in ann.request("/bot add hard now")["message"]
        assert ann.request("/bot add HARD")["text"] == "bot1 (hard) sits down at table 1"
        assert ann.request("/bot add good")["text"] == "bot2 (normal) sits down at table 1"  # normal's old name
        offered = ann.request("/bot add")  # a new player (rating 1000): the level nearest, never random
        assert offered["type"] == "ok" and offered["text"].split()[1] in ("(easy)", "(normal)", "(hard)"), offered
        players = {p["name"]: p for p in ann.last_state()["players"]}
        assert set(players) == {"ann", "bot1", "bot2", "bot3"}
        ann.close()
