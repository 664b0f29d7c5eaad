"""Finger, notify and messages end to end over loopback, on one process and across two processes of a cluster (a
real Redis and PostgreSQL): /finger shows ratings and when a player was last seen; /notify fires as a friend logs
in and out, wherever each is; a message left for a player who is offline is shown at their next login, after a
restart of the server too, and one left for a player online on another process is announced there at once."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from pgserver import Databases
from test_cluster_presence import cluster, who_names
from wire import JsonClient, RestartableServer, eventually, play_until_game_end, register

SECRET = "friends secret pw"


def ask(client: JsonClient, cmd: str, kind: str) -> dict[str, Any]:
    """The message of ``kind`` that ``cmd`` shows (its reply must be ok)."""
    reply = client.request(cmd)
    assert reply["type"] == "ok", (cmd, reply)
    return client.wait_for(lambda m: m["type"] == kind, since=client.mark)


def notified(client: JsonClient, name: str, event: str) -> dict[str, Any]:
    return client.wait_for(lambda m: m == {"type": "notify", "name": name, "event": event}, since=0, timeout=15)


def test_finger_notify_and_a_message_kept_through_a_restart(tmp_path: Path) -> None:
    server = RestartableServer(tmp_path / "data", tmp_path / "server.log")
    server.start()
    try:
        ann, bob, cat = (JsonClient(server.address, name) for name in ("Ann_F", "Bob_F", "Cat_F"))
        for client in (ann, bob, cat):
            register(client, SECRET)
        for cmd in ("/new wizard", "/option rounds 1", "/bot add random"):
            assert ann.request(cmd)["type"] == "ok", cmd
        assert bob.request("/join 1")["type"] == "ok"
        assert ann.request("/start")["type"] == "ok"
        play_until_game_end([ann, bob], random.Random(3))
        ann.wait_for(lambda m: m["type"] == "notice" and m["text"].startswith("Ratings (wizard)"), since=0)
        assert ann.request("/plan add Wizard in the evenings")["type"] == "ok"

        assert cat.request("/notify ann_f")["type"] == "ok"  # as registered, whatever the case typed
        ann.close()
        notified(cat, "Ann_F", "left")
        finger = ask(bob, "/finger ANN_F", "finger")
        assert (finger["name"], finger["registered"], finger["online"]) == ("Ann_F", True, False)
        assert finger["seen"] is not None and finger["seen"].endswith("Z")
        [rating] = finger["ratings"]
        assert (rating["game"], rating["games"]) == ("wizard", 1)
        assert finger["games"][0]["game"] == "wizard" and finger["games"][0]["place"] in (1, 2, 3)
        assert finger["plan"] == ["Wizard in the evenings"]

        ann = JsonClient(server.address, "ann_f", password=SECRET)
        notified(cat, "Ann_F", "arrived")
        assert ann.request("/away at dinner")["type"] == "ok"
        finger = ask(cat, "/finger ann_f", "finger")
        assert (finger["online"], finger["where"], finger["away"]) == (True, "lobby", "at dinner")

        cat.close()
        assert ann.request("/message cat_f see you tonight at 8")["type"] == "ok"
        guest = JsonClient(server.address, "Gus_F")
        refused = guest.request("/message cat_f hello")
        assert refused["type"] == "error" and "you are a guest" in refused["message"]
        refused = ann.request("/message gus_f hello")
        assert refused["type"] == "error" and "Gus_F is a guest" in refused["message"]
        for client in (ann, guest):
            client.close()
        assert server.stop() == 0  # Bob online as it stops: when is kept as his last seen all the same
        server.start()

        cat = JsonClient(server.address, "Cat_F", password=SECRET)
        told = cat.wait_for(lambda m: m["type"] == "new_messages", since=0)
        assert (told["unread"], told["from"]) == (1, None)
        listed = cat.wait_for(lambda m: m["type"] == "notify_list", since=0)
        assert (listed["names"], listed["online"], listed["login"]) == (["Ann_F"], [], True)
        box = ask(cat, "/messages", "messages")["messages"]
        assert [(m["from"], m["text"], m["unread"]) for m in box] == [("Ann_F", "see you tonight at 8", True)]
        assert ask(cat, "/messages", "messages")["messages"][0]["unread"] is False
        assert cat.request("/messages clear")["text"] == "1 message deleted"
        finger = ask(cat, "/finger bob_f", "finger")
        assert finger["online"] is False and finger["seen"] is not None
        cat.close()
    finally:
        if server.proc is not None and server.proc.poll() is None:
            server.stop()


def test_notify_and_messages_across_two_processes(tmp_path: Path, redis_url: str,
                                                  postgres: Databases | str) -> None:
    with cluster(tmp_path, redis_url, postgres, 2) as (n1, n2):
        ann, bob = JsonClient(n1.address, "Ann_C"), JsonClient(n2.address, "Bob_C")
        register(ann, SECRET)
        register(bob, SECRET)
        assert ann.request("/notify bob_c")["type"] == "ok"
        bob.close()
        notified(ann, "Bob_C", "left")  # a logout on n2, told on n1
        bob = JsonClient(n2.address, "bob_c", password=SECRET)
        notified(ann, "Bob_C", "arrived")  # a login on n2, told on n1
        assert ann.request("/message bob_c rematch?")["type"] == "ok"  # online on n2: told there at once
        told = bob.wait_for(lambda m: m["type"] == "new_messages", since=0)
        assert (told["unread"], told["from"]) == (1, "Ann_C")
        finger = ask(ann, "/finger bob_c", "finger")
        assert (finger["online"], finger["where"]) == (True, "lobby")
        bob.close()
        eventually(lambda: ann.read(0.1) is not None and len([m for m in ann.of_type("notify")
                                                               if m["event"] == "left"]) == 2,
                   what="bob's second logout told")
        eventually(lambda: "Bob_C" not in who_names(ann), what="bob's logout on n2 reaches n1's /who")
        ann.close()
        later = JsonClient(n1.address, "Bob_C", password=SECRET)  # the message kept for them on the other process
        told = later.wait_for(lambda m: m["type"] == "new_messages", since=0)
        assert (told["unread"], told["from"]) == (1, None)
        later.close()
