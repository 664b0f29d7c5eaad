"""An adjourned game over real TCP with a real server process: two guests and a bot play Wizard, both drop, the
grace runs out and the game is adjourned; the server is killed with ``kill -9`` and started again on the same data
directory; the guest who left first is told to /resume, the one who left last is seated at login, and once both
are back the game is played to its end, recorded once with the moves made before the adjournment at its start."""

from __future__ import annotations

import time
from pathlib import Path

from wire import JsonClient, RestartableServer

from mudwiz.store import open_store


def play_to_the_end(clients: list[JsonClient], limit: float = 90.0) -> None:
    """Each client plays the first legal move of its latest state (``/ok`` too) until both saw the game end."""
    deadline = time.monotonic() + limit
    answered: dict[str, int] = {}
    while not all(c.of_type("game_end") for c in clients):
        assert time.monotonic() < deadline, "the game did not end"
        for c in clients:
            c.read(0.05)
            states = c.of_type("state")
            if not states or answered.get(c.name) == len(states):
                continue
            legal = states[-1]["legal"]
            if legal and legal[0] != "/start":
                answered[c.name] = len(states)
                c.send(legal[0])


def moves_of(client: JsonClient) -> int:
    state = client.last_state()
    assert state is not None
    return int(state["moves"])


def test_a_game_whose_people_dropped_waits_through_kill_9_and_is_played_to_the_end(tmp_path: Path) -> None:
    server = RestartableServer(tmp_path / "data", tmp_path / "server.log", MUDWIZ_GRACE="1", MUDWIZ_SEED="3")
    try:
        server.start()
        ann = JsonClient(server.address, "ann")
        bob = JsonClient(server.address, "bob")
        codes = {c.name: c.of_type("welcome")[0]["resume"] for c in (ann, bob)}
        for cmd in ("/new wizard", "/option rounds 2", "/option turn 0", "/bot add random"):
            assert ann.request(cmd)["type"] == "ok", cmd
        assert bob.request("/join 1")["type"] == "ok"
        ann.request("/start")
        ann.wait_for(lambda m: m["type"] == "state" and m.get("phase") not in (None, "waiting"), since=0)
        for c in (ann, bob):  # one bid each, when asked: the game has moves before it is adjourned
            c.wait_for(lambda m: m["type"] == "state" and any(x.startswith("/bid") for x in m["legal"]), since=0)
            c.send(next(x for x in c.last_state()["legal"] if x.startswith("/bid")))
        bob.wait_for(lambda m: m["type"] == "state" and m.get("moves", 0) >= 3, since=0)
        carl = JsonClient(server.address, "carl")  # watches: sees it adjourned, and nothing played after
        assert carl.request("/watch 1")["type"] == "ok"
        ann.sock.close()
        time.sleep(0.3)
        bob.sock.close()
        carl.wait_for(lambda m: m["type"] == "notice" and "the game is adjourned" in m["text"], since=0)
        state = carl.wait_for(lambda m: m["type"] == "state" and m["status"] == "adjourned", since=0)
        time.sleep(1.0)  # the bot waits with it: nothing is played for nobody
        carl.read(0.2)
        assert carl.last_state()["moves"] == state["moves"]
        server.kill()
        store = open_store(str(tmp_path / "data"))  # the server is dead: the journal as the crash left it
        [saved] = store.open_tables()
        store.close()
        assert saved.header["adjourned"]["last"] == "bob"
        before = [(m["seat"], m["action"]) for m in saved.moves]
        assert len(before) >= 3
        server.start()
        ann = JsonClient(server.address, "ann", password=codes["ann"])
        told = ann.wait_for(lambda m: m["type"] == "notice" and "adjourned" in m["text"], since=0)
        assert "/resume 1 takes your seat back" in told["text"] and not ann.of_type("state")
        listing = ann.request("/adjourned")
        [games] = [m for m in ann.messages[ann.mark:] if m["type"] == "adjourned"]
        assert listing["type"] == "ok" and [(g["id"], g["last"]) for g in games["games"]] == [(1, "bob")]

        bob = JsonClient(server.address, "bob", password=codes["bob"])  # the last to leave: seated at login
        state = bob.wait_for(lambda m: m["type"] == "state", since=0)
        assert state["status"] == "adjourned" and state["legal"] == [] and state["moves"] >= len(before)
        assert ann.request("/resume 1")["type"] == "ok"
        bob.wait_for(lambda m: m["type"] == "notice" and "Everyone is back" in m["text"], since=0)
        play_to_the_end([ann, bob])
        history = ann.request("/history")  # answered once the record is kept (its own thread's commit)
        assert history["type"] == "ok"
        server.stop()  # and the store read with the server stopped: nothing of it holds the file then

        store = open_store(str(tmp_path / "data"))
        try:
            [summary] = store.games_of("ann")
            record = store.game(summary.id)
            assert record is not None and record.outcome == "finished"
            assert [(seat, action) for seat, action in record.log[:len(before)]] == before
        finally:
            store.close()
    except BaseException:
        print(server.log()[-4000:])
        raise
    finally:
        if server.proc is not None and server.proc.poll() is None:
            server.stop()
