"""End to end over loopback TCP: JSON clients play whole Wizard games from ``state.legal`` alone.

The scores they are shown must equal the rules' formula, hidden bids must never reach another player early,
and an observer must never receive a hand.
"""

from __future__ import annotations

import random
import time
from typing import Any

import pytest
from wire import JsonClient, play_until_game_end

from mudwiz.commands import help_kinds


def round_formula(bid: int, tricks: int) -> int:
    return 20 + 10 * bid if bid == tricks else -10 * abs(bid - tricks)


def check_scores(client: JsonClient, names: list[str], rounds: int) -> None:
    """Every round_end delta follows the formula from the tricks the client saw won; totals add up."""
    ends = client.of_type("round_end")
    assert len(ends) == rounds
    totals = dict.fromkeys(names, 0)
    won = dict.fromkeys(names, 0)
    for m in client.messages:
        if m["type"] == "trick":
            won[m["winner"]] += 1
        if m["type"] == "round_end":
            for r in m["results"]:
                assert r["tricks"] == won[r["player"]]
                assert r["delta"] == round_formula(r["bid"], r["tricks"])
                totals[r["player"]] += r["delta"]
                assert r["score"] == totals[r["player"]]
            won = dict.fromkeys(names, 0)
    standings = client.of_type("game_end")[-1]["standings"]
    assert {s["player"]: s["score"] for s in standings} == totals
    best = max(totals.values())
    assert {s["player"] for s in standings if s["place"] == 1} == {n for n, v in totals.items() if v == best}


def hidden_bid_leaks(client: JsonClient, mode: str) -> list[Any]:
    """Messages that show ``client`` another player's bid before the rules allow."""
    leaks: list[Any] = []
    revealed = False
    for m in client.messages:
        kind = m["type"]
        if kind == "round_start":
            revealed = False
        elif kind == "bids_revealed":
            assert mode == "hiddentip", "secret bids must never be revealed early"
            revealed = True
        elif kind == "round_end":
            revealed = True
        elif kind == "bid_made" and m["player"] != client.name and m["bid"] is not None:
            leaks.append(m)
        elif kind == "state" and not revealed and m["phase"] != "waiting":
            leaks += [p for p in m["players"] if p["name"] != client.name and p["bid"] is not None]
    return leaks


@pytest.mark.parametrize(
    "options",
    [["notequal", "rounds=3"], ["hiddentip", "rounds=3"], ["secretbid", "rounds=3"], ["rounds=2", "clairvoyance"]],
)
def test_json_clients_play_a_whole_game(server: tuple[str, int], options: list[str]) -> None:
    tag = "".join(o[:2] for o in options)
    names = [f"{tag}{i}" for i in range(4)]
    clients = [JsonClient(server, n) for n in names]
    host, *others = clients
    assert host.request("/new wizard")["type"] == "ok"
    table = host.wait_for(lambda m: m["type"] == "state", since=host.mark)["table"]
    assert host.last_state()["phase"] == "waiting"
    for c in others:
        assert c.request(f"/join {table}")["type"] == "ok"
        assert c.wait_for(lambda m: m["type"] == "state" and m["phase"] == "waiting", since=c.mark)["table"] == table
    for opt in options:
        assert host.request(f"/option {opt}") == {"type": "ok", "id": f"{host.name}-{host._next_id}",
                                                   "text": opt.replace("=", " = ") if "=" in opt else f"{opt} = on"}
    observer = JsonClient(server, f"{tag}obs")
    assert observer.request(f"/watch {table}")["type"] == "ok"
    assert host.request("/start")["type"] == "ok"

    play_until_game_end(clients, random.Random(tag))
    observer.wait_for(lambda m: m["type"] == "game_end")

    rounds = int(next(o for o in options if o.startswith("rounds=")).split("=")[1])
    for c in clients:
        check_scores(c, names, rounds)
        states = [m for m in c.of_type("state") if m["phase"] != "waiting"]
        assert states and all(s["table"] == table for s in states)
        for key in ("game", "phase", "round", "rounds", "dealer", "turn", "players", "hand", "trump", "trick", "legal"):
            assert key in states[-1]
        assert all(set(p) >= {"name", "score", "bid", "tricks"} for p in states[-1]["players"])
        if "hiddentip" in options or "secretbid" in options:
            mode = "hiddentip" if "hiddentip" in options else "secretbid"
            assert hidden_bid_leaks(c, mode) == []
    if "clairvoyance" in options:
        first = next(m for m in clients[0].of_type("state") if m["phase"] == "bidding")
        assert first["hand"] == ["?"] and all(len(p["cards"]) == 1 for p in first["players"] if p["name"] != names[0])
        assert any("/play ?" in m["legal"] for m in clients[0].of_type("state") if m["round"] == 1)
    obs_states = observer.of_type("state")
    assert obs_states and all(s["hand"] == [] and s["legal"] == [] for s in obs_states)
    assert all("cards" not in p for s in obs_states for p in s["players"])
    assert not any(m["type"] == "bid_made" and m["bid"] is not None for m in observer.messages) or not (
        "secretbid" in options or "hiddentip" in options)
    for c in [*clients, observer]:
        c.close()


def test_every_command_is_answered_with_its_id(server: tuple[str, int]) -> None:
    c = JsonClient(server, "idcheck")
    assert c.request("/who idcheck")["type"] == "ok"  # a page from idcheck on: the shared server has many online
    assert c.of_type("who")[-1]["users"][0]["name"] == "idcheck"
    err = c.request("/play R12")
    assert err["type"] == "error" and "sit at a table first" in err["message"]
    assert c.request("/frobnicate")["message"].startswith("unknown command")
    assert c.request("/join 999")["type"] == "error"
    c.send('{"cmd": 5}')
    assert "bad JSON request" in c.wait_for(lambda m: m["type"] == "error")["message"]
    c.send("/tables")
    reply = c.wait_for(lambda m: m["type"] == "ok")
    assert "id" not in reply
    c.close()


def test_bots_fill_a_table_and_a_person_plays_to_the_end(server: tuple[str, int]) -> None:
    c = JsonClient(server, "solo")
    assert c.request("/new wizard")["type"] == "ok"
    for _ in range(3):
        assert c.request("/bot add random")["type"] == "ok"
    assert c.request("/option rounds 2")["type"] == "ok"
    assert c.request("/option confirm 1")["type"] == "ok"
    assert c.request("/start")["type"] == "ok"
    play_until_game_end([c], random.Random(7))
    assert len(c.of_type("game_end")[-1]["standings"]) == 4
    c.close()


def test_json_mode_before_the_name_gives_json_on_lines_of_their_own(server: tuple[str, int]) -> None:
    """The name prompt ends without a newline; what follows it must not be glued to it."""
    import socket

    sock = socket.create_connection(server, timeout=30)
    sock.sendall(b"/mode json\r\nearlybird\r\n/new wizard\r\n/leave\r\n")
    data = b""
    while data.count(b'"type":"left"') < 1:
        chunk = sock.recv(65536)
        assert chunk
        data += chunk
    after_prompt = data.split(b"What is your name? ", 1)[1]
    lines = [line for line in after_prompt.split(b"\r\n") if line]
    assert lines and all(line.startswith(b"{") for line in lines), lines[:3]
    sock.close()


def test_welcome_and_help_carry_what_the_server_offers(server: tuple[str, int]) -> None:
    """The command list, the games and the bot levels come as data, so clients need not keep copies."""
    client = JsonClient(server, "catalogue1")
    try:
        welcome = client.of_type("welcome")[-1]
        commands = {c["command"]: c for c in welcome["commands"]}
        assert {"/help", "/new", "/join", "/bot", "/start", "/ok", "/say", "/tell", "/quit"} <= set(commands)
        assert commands["/bot"]["usage"] == "/bot add [LEVEL] | /bot remove NAME" and commands["/bot"]["help"]
        assert welcome["games"] == ["wizard", "witches", "tiltowait"]
        assert welcome["bot_levels"] == ["random", "easy", "normal", "hard"]
        client.request("/help")
        helps = client.of_type("help")
        assert helps[-1]["commands"] == welcome["commands"] and "/bot add" in helps[-1]["text"]
        client.request("/help bot")
        assert "commands" not in client.of_type("help")[-1]  # one command's help is just its text
        sysops = {f"/{name}" for name in help_kinds()["Sysop"]}
        for c in welcome["commands"]:  # the same registry writes the text people read; a sysop's only to sysops
            assert (c["usage"] in helps[-1]["text"].replace("\n", " ")) == (c["command"] not in sysops), c
    finally:
        client.close()


def test_a_dropped_player_logs_in_again_to_the_welcome_then_their_seat(server: tuple[str, int]) -> None:
    first = JsonClient(server, "recon1")
    for cmd in ("/new wizard", "/bot add random", "/bot add random", "/option botdelay 10000", "/start"):
        assert first.request(cmd)["type"] == "ok", cmd
    hand = first.wait_for(lambda m: m["type"] == "state" and m["phase"] != "waiting", since=0)["hand"]
    code = first.of_type("welcome")[0]["resume"]
    first.close()
    deadline = time.monotonic() + 10
    while True:  # until the server has noticed the drop, the name is still taken
        try:
            again = JsonClient(server, "recon1", password=code)  # a guest comes back with their resume code
            break
        except RuntimeError:
            assert time.monotonic() < deadline, "the name stayed taken after the drop"
            time.sleep(0.05)
    try:
        state = again.wait_for(lambda m: m["type"] == "state", since=0)
        kinds = [m["type"] for m in again.messages]
        assert kinds.index("welcome") < kinds.index("state"), kinds
        assert state["you"] == "recon1" and state["hand"] == hand
    finally:
        again.close()
