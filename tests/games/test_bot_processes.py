"""Bots thinking in worker processes: the same choices as in the server's own interpreter, games
played to the end through a real server's worker, a dead worker replaced, and no worker outliving its server."""

from __future__ import annotations

import io
import json
import os
import random
import signal
import subprocess
import sys
from pathlib import Path

from wire import JsonClient, eventually, play_until_game_end, running_server

from mudwiz.botworker import Policies, serve
from mudwiz.games import game_class
from mudwiz.table.botseat import BotSession


def views_of_a_game(game: str, seed: int) -> list[tuple[int, dict]]:
    """Every view a seat was asked to move from, in a random game of ``game``."""
    cls = game_class(game)
    g = cls(cls.min_players + 1, None, seed)
    player = BotSession("driver", level="random", game=game, seed=seed)
    views = []
    while not g.finished:
        if g.phase == "roundend":
            g.advance()
            continue
        seat = g.waiting()[0]
        views.append((seat, g.view(seat)))
        g.apply(seat, player.choose(views[-1][1]) or "")
    return views


def test_a_worker_chooses_as_the_bot_in_the_server_would() -> None:
    for game in ("wizard", "witches", "tiltowait"):
        views = views_of_a_game(game, 3)[:60]
        bots = {seat: BotSession(f"b{seat}", level="good", game=game, seed=seat) for seat, _ in views}
        here = [bots[seat].choose(view) for seat, view in views]
        policies = Policies()
        questions = [{"id": i, "token": bots[seat].token, "level": "good", "game": game, "seed": seat,
                      "view": json.loads(json.dumps(view))} for i, (seat, view) in enumerate(views)]
        source = io.BytesIO(b"".join(json.dumps(q).encode() + b"\n" for q in questions))
        sink = io.BytesIO()
        serve(source, sink)
        answers = [json.loads(line) for line in sink.getvalue().splitlines()]
        assert [a["id"] for a in answers] == list(range(len(views)))
        assert [a["action"] for a in answers] == here, game
        assert len(policies.policies) == 0  # serve has its own


def test_a_worker_forgets_the_least_recently_asked_past_its_limit() -> None:
    policies = Policies(kept=2)
    (seat, view), *_ = views_of_a_game("wizard", 1)
    for token in (1, 2, 1, 3):
        assert "action" in policies.answer({"id": 0, "token": token, "level": "random", "game": "wizard",
                                            "seed": 0, "view": view})
    assert list(policies.policies) == [1, 3]


def test_a_bots_bug_costs_its_answer_not_the_worker() -> None:
    answer = Policies().answer({"id": 7, "token": 1, "level": "good", "game": "wizard", "seed": 0, "view": {}})
    assert answer["id"] == 7 and answer["error"].startswith("KeyError")


def children(pid: int) -> set[int]:
    found: set[int] = set()
    for task in Path(f"/proc/{pid}/task").iterdir():
        found |= {int(c) for c in (task / "children").read_text().split()}
    return found


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    stat = Path(f"/proc/{pid}/stat").read_text()
    return stat.split(")")[1].split()[0] != "Z"


def test_good_bots_play_through_the_servers_worker_which_is_replaced_when_it_dies() -> None:
    with running_server(MUDWIZ_BOT_PROCESSES="1") as server:
        host = JsonClient(server, "hosty")
        host.request("/new wizard")
        host.request("/option rounds 2")
        for _ in range(3):
            host.request("/bot add good")
        eventually(lambda: len(children(server.proc.pid)) == 1, "one worker process")
        (worker,) = children(server.proc.pid)
        host.request("/start")
        rng = random.Random(1)
        while not [m for m in host.of_type("bid_made") if m["player"] != "hosty"]:  # until a bot has moved
            state = host.last_state()
            if state is not None and state["legal"] and not host.of_type("bid_made"):
                host.request(state["legal"][0])
            host.read(0.05)
        os.kill(worker, signal.SIGKILL)
        eventually(lambda: children(server.proc.pid) - {worker}, "a new worker")
        play_until_game_end([host], rng)
        assert host.of_type("game_end"), "the bots played the game to its end"
        assert server.alive()


def test_no_worker_outlives_its_server() -> None:
    with running_server(MUDWIZ_BOT_PROCESSES="2") as server:
        eventually(lambda: len(children(server.proc.pid)) == 2, "two worker processes")
        workers = children(server.proc.pid)
        server.proc.kill()  # kill -9: no clean stop
        server.proc.wait()
    eventually(lambda: not any(alive(w) for w in workers), "the workers see their stdin end and exit")


def test_a_worker_whose_server_stopped_reading_ends_quietly() -> None:
    """The server stopped (or died) while a bot was thinking: the answer has nobody to go to. The worker used to
    end with a BrokenPipeError's traceback, which the server's log showed (seen by bench/fuzz.py at its end)."""
    question = {"token": 1, "level": "random", "game": "wizard", "seed": 1, "id": 1,
                "view": {"legal": ["bid 0", "bid 1"], "phase": "bidding"}}
    read, write = os.pipe()
    os.close(read)  # nobody reads the answers
    try:
        done = subprocess.run([sys.executable, "-m", "mudwiz.botworker"], input=json.dumps(question).encode() + b"\n",
                              stdout=write, stderr=subprocess.PIPE, timeout=60, check=False)
    finally:
        os.close(write)
    assert (done.returncode, done.stderr.decode()) == (0, "")
