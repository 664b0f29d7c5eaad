"""Ratings end to end over loopback: two registered players and a bot play a short game to its end on a running
server; the table says how the ratings moved and shows them, ``/rating``, ``/top`` and ``/who`` show the new
ones, a guest and the bot are not rated, and after the server stops the kept ratings equal a recomputation from
the kept games."""

from __future__ import annotations

import random
from pathlib import Path

from wire import JsonClient, play_until_game_end, register, running_server

from mudwiz.ratings import bot_rating, recompute
from mudwiz.store import open_store

SECRET = "correct horse battery"


def test_a_rated_game_over_the_wire_moves_the_ratings_shown_and_kept(tmp_path: Path) -> None:
    data = str(tmp_path / "data")
    with running_server(MUDWIZ_DATA=data) as address:
        ann, bob, guest = JsonClient(address, "Ann_R"), JsonClient(address, "Bob_R"), JsonClient(address, "Gus")
        register(ann, SECRET)
        register(bob, SECRET)
        assert ann.request("/rating")["type"] == "ok"
        assert ann.of_type("rating")[-1] == {"type": "rating", "name": "Ann_R", "bot": False, "ratings": []}
        for cmd in ("/new wizard", "/option rounds 2", "/bot add good"):
            assert ann.request(cmd)["type"] == "ok", cmd
        assert bob.request("/join 1")["type"] == "ok"
        assert guest.request("/join 1")["type"] == "ok"
        waiting = ann.wait_for(lambda m: m["type"] == "state" and len(m["players"]) == 4, since=0)
        assert [p["rating"] for p in waiting["players"]] == [None, bot_rating("wizard", "good").shown, None, None]
        assert ann.request("/start")["type"] == "ok"
        play_until_game_end([ann, bob, guest], random.Random(7))
        moved = ann.wait_for(lambda m: m["type"] == "notice" and m["text"].startswith("Ratings (wizard)"), since=0)
        assert "Ann_R new -> " in moved["text"] and "Bob_R new -> " in moved["text"] and "Gus" not in moved["text"]

        assert ann.request("/rating")["type"] == "ok"
        [mine] = ann.of_type("rating")[-1]["ratings"]
        assert (mine["game"], mine["games"]) == ("wizard", 1) and mine["rank"] in (1, 2)
        assert bob.request("/rating ann_r")["type"] == "ok"
        assert bob.of_type("rating")[-1]["ratings"] == [mine]
        assert bob.request("/rating Gus")["type"] == "ok" and bob.of_type("rating")[-1]["ratings"] == []
        assert bob.request("/rating bot:good")["type"] == "ok"
        fixed = {r["game"]: r for r in bob.of_type("rating")[-1]["ratings"]}
        assert fixed["wizard"]["rating"] == bot_rating("wizard", "good").shown and fixed["wizard"]["rank"] is None
        assert bob.request("/rating bot:nosuch")["type"] == "error"

        assert guest.request("/top")["type"] == "ok"  # at the table: its game
        [top] = guest.of_type("top")[-1]["games"]
        assert top["game"] == "wizard" and {r["name"] for r in top["players"]} == {"Ann_R", "Bob_R"}
        assert [r["rank"] for r in top["players"]] in ([1, 2], [1, 1])
        assert {b["name"] for b in top["bots"]} >= {"bot:easy", "bot:normal", "bot:hard", "bot:random"}
        assert guest.request("/top chess")["type"] == "error"

        assert guest.request("/who")["type"] == "ok"
        who = {u["name"]: u for u in guest.of_type("who")[-1]["users"]}
        assert (who["Ann_R"]["rating"], who["Ann_R"]["rating_game"]) == (mine["rating"], "wizard")
        assert who["Gus"]["rating"] is None
        state = ann.last_state()
        assert state is not None
        shown = {p["name"]: p["rating"] for p in state["players"]}
        assert shown["Ann_R"] == mine["rating"] and shown["Gus"] is None
        assert shown["Bob_R"] == next(r["rating"] for r in top["players"] if r["name"] == "Bob_R")
        for client in (ann, bob, guest):
            client.close()

    store = open_store(data)
    records = [store.game(g.id) for g in store.games_of("Ann_R")]
    again = recompute([r for r in records if r is not None], {"ann_r", "bob_r"})
    kept = {(r.name.lower(), r.game): r for name in ("Ann_R", "Bob_R", "Gus") for r in store.ratings_of(name)}
    store.close()
    assert kept == again and set(kept) == {("ann_r", "wizard"), ("bob_r", "wizard")}
    assert round(kept[("ann_r", "wizard")].mu, 2) == mine["mu"]
