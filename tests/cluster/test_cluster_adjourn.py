"""An adjourned game across a cluster's processes, on real servers (two ``mudwiz serve`` nodes on one Redis and one
PostgreSQL database): Ann hosts a Wizard table on n1 and Bob plays at it from n2; both drop, and once the grace
is over the game is adjourned on n1. Every node lists it (``/adjourned``); Ann, logging in on n2, is told to
/resume it and not seated; Bob, who left last, is seated at his login on n1; Ann's ``/resume N`` on n2 reaches
the table on n1, the game goes on where it stopped, and is played to its end."""

from __future__ import annotations

import random
from pathlib import Path

from pgserver import Databases
from test_cluster_tables import cluster, visiting
from wire import JsonClient, eventually, play_until_game_end


def adjourned_of(client: JsonClient, name: str) -> list[dict[str, object]]:
    assert client.request(f"/adjourned {name}")["type"] == "ok"
    return list(client.of_type("adjourned")[-1]["games"])


def test_an_adjourned_game_is_listed_on_every_node_and_resumed_from_another(
        tmp_path: Path, redis_url: str, postgres: Databases | str) -> None:
    with cluster(tmp_path, redis_url, postgres, MUDWIZ_GRACE="1") as (n1, n2):
        ann = JsonClient(n1.address, "Ann")
        bob = JsonClient(n2.address, "Bob")
        codes = {c.name: c.of_type("welcome")[0]["resume"] for c in (ann, bob)}
        table = visiting(ann, bob, "/bot add random", "/option turn 0")
        bob.wait_for(lambda m: m["type"] == "state" and m.get("phase") not in (None, "waiting"), since=0)
        ann.close()
        bob.close()

        carl = JsonClient(n2.address, "Carl")
        games = eventually(lambda: adjourned_of(carl, "bob"), "n2 lists Bob's adjourned game", timeout=20)
        assert [(g["id"], g["game"]) for g in games] == [(table, "wizard")]
        last = games[0]["last"]
        first, first_code = ("Ann", codes["Ann"]) if last == "Bob" else ("Bob", codes["Bob"])
        other_node = n2 if first == "Ann" else n1  # the one who left first logs in away from where they played
        back_first = JsonClient(other_node.address, first.lower(), password=first_code)
        told = back_first.wait_for(lambda m: m["type"] == "notice" and "adjourned" in m["text"], since=0)
        assert f"/resume {table} takes your seat back" in told["text"]
        assert not back_first.of_type("state")

        last_node = n1 if other_node is n2 else n2
        back_last = JsonClient(last_node.address, str(last).lower(), password=codes[str(last)])
        state = back_last.wait_for(lambda m: m["type"] == "state", since=0)
        assert state["table"] == table and state["status"] == "adjourned" and state["legal"] == []

        assert back_first.request(f"/resume {table}")["type"] == "ok"
        back_last.wait_for(lambda m: m["type"] == "notice" and "Everyone is back" in m["text"], since=0)
        play_until_game_end([back_first, back_last], random.Random(5))
