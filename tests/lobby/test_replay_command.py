"""``/replay``: a game recorded by a real table on a fake clock into a real SQLite file, asked for by a JSON
user (the compact ``replay`` message, its bound, frames that are the replay) and by a person at a terminal (one
step drawn by the game's own table view with every hand, in 80 columns; ``next``/``prev``); the one-line
refusals; and the all-revealed view of each engine, the plugin example's default included."""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

import pytest
from recorder import Recorder
from test_records import lobby_on, play_out, seat_person_and_bots
from twisted.internet.defer import Deferred
from twisted.internet.task import Clock
from wire import ROOT

from mudwiz import replay
from mudwiz.commands import dispatch
from mudwiz.errors import BadCommand
from mudwiz.games import game_class
from mudwiz.lobby import Lobby
from mudwiz.render.ansi import Presenter
from mudwiz.render.common import frame_view
from mudwiz.render.style import WIDTH, Style, strip_ansi, visible_len
from mudwiz.replay import REPLAY_BYTES, REPLAY_FRAMES, compact, frames, replay_message
from mudwiz.store import GameRecord, SQLiteStore


def recorded(tmp_path: Path, game: str = "wizard") -> tuple[Lobby, SQLiteStore, GameRecord]:
    clock, lobby, store = lobby_on(tmp_path)
    alice = seat_person_and_bots(lobby, game)
    play_out(clock, lobby, alice)
    [summary] = store.games_of("alice")
    record = store.game(summary.id)
    assert record is not None
    return lobby, store, record


def text(message: dict[str, object], mode: str = "ansi") -> list[str]:
    lines = Presenter(Style.for_mode(mode)).lines(message)  # type: ignore[arg-type]
    assert all(visible_len(line) <= WIDTH for line in lines), lines
    return [strip_ansi(line) for line in lines]


@pytest.mark.parametrize("game", ["wizard", "witches", "tiltowait"])
def test_a_json_user_gets_the_frames_compact_and_bounded(tmp_path: Path, game: str,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    lobby, _, record = recorded(tmp_path, game)
    bob = Recorder(mode="json")
    lobby.login(bob, "bob")
    whole = [f.to_dict() for f in frames(record)]
    monkeypatch.setattr(replay, "REPLAY_FRAMES", 7)  # a short game, in several messages all the same
    assert len(whole) == len(record.actions) + 1 > 7
    got: list[dict[str, object]] = []
    first = 0
    while first < len(whole):
        reply = dispatch(lobby, bob, f"/replay {record.id} {first}" if first else f"/replay {record.id}")
        answered: list[object] = []
        assert isinstance(reply, Deferred) and reply.addBoth(answered.append) and answered == [None], answered
        message = bob.of_type("replay")[-1]
        assert (message["id"], message["game"], message["steps"], message["first"]) == (
            record.id, game, len(record.actions), first)
        assert message["seats"] == record.seats and message["standings"] == record.standings
        assert 1 <= len(message["frames"]) <= 7
        assert {"game", "options"} <= set(message["common"])  # sent once, not in each frame
        assert all(isinstance(f["view"].get("sheet", 0), int) for f in message["frames"])
        got += [{**f, "view": frame_view(message, f)} for f in message["frames"]]
        assert [m["step"] for m in message["moves"]] == list(range(max(1, first - 5),
                                                                   min(len(whole) - 1, got[-1]["step"] + 5) + 1))
        first += len(message["frames"])
    assert got == whole


def random_record(game: str, players: int, seed: int) -> GameRecord:
    """A whole game of ``game`` at its full length, random moves straight on the engine: as long as they come."""
    engine = game_class(game)(players, {}, seed)
    rng = random.Random(seed)
    while not engine.finished:
        if engine.phase == "roundend":
            engine.advance()
            continue
        seat = engine.waiting()[0]
        legal = [str(a) for a in engine.legal_actions(seat)]
        move = rng.choice([a for a in legal if not a.startswith("draw")] or legal)
        if move == "pass":
            move = " ".join(["pass", *rng.sample(engine.view(seat)["hand"], engine.view(seat)["pass"]["count"])])
        engine.apply(seat, move)
    actions = [{"seat": seat, "action": action, "t": float(n)} for n, (seat, action) in enumerate(engine.log)]
    return GameRecord(game=game, options=engine.options, table_options={}, seed=seed,
                      seats=[{"name": p, "kind": "person"} for p in engine.players], actions=actions,
                      standings=None, outcome="finished", started=0.0, ended=0.0, id=1)


@pytest.mark.parametrize(("game", "players"), [("wizard", 3), ("wizard", 6), ("witches", 6), ("tiltowait", 6)])
def test_a_long_games_messages_stay_small(game: str, players: int) -> None:
    """A full game runs to hundreds of steps; each message holds what fits a 64 KiB line (REPLAY_BYTES), a
    client's usual line limit, and together they are the whole replay."""
    record = random_record(game, players, 2)
    assert len(record.actions) > 2 * REPLAY_FRAMES
    got: list[dict[str, object]] = []
    while len(got) <= len(record.actions):
        message = replay_message(record, len(got))
        assert len(json.dumps(message, separators=(",", ":")).encode()) <= REPLAY_BYTES
        assert 10 <= len(message["frames"]) <= REPLAY_FRAMES or message["frames"][-1]["step"] == message["steps"]
        got += [{**f, "view": frame_view(message, f)} for f in message["frames"]]
    assert got == [f.to_dict() for f in frames(record)]


def test_compact_keeps_a_sheet_that_is_not_a_prefix_whole() -> None:
    views = [{"game": "x", "sheet": [{"round": 1, "v": 1}]}, {"game": "x", "sheet": [{"round": 1, "v": 2}]}]
    common, sheet, rest = compact(views)
    assert (common, sheet, rest) == ({"game": "x"}, [{"round": 1, "v": 2}], [{"sheet": [{"round": 1, "v": 1}]},
                                                                             {"sheet": 1}])
    message = {"common": common, "sheet": sheet}
    assert [frame_view(message, {"view": v}) for v in rest] == views


@pytest.mark.parametrize("game", ["wizard", "witches", "tiltowait"])
def test_a_person_reads_one_step_at_a_time_with_every_hand(tmp_path: Path, game: str) -> None:
    lobby, _, record = recorded(tmp_path, game)
    bob = Recorder(mode="ansi")
    lobby.login(bob, "bob")
    dispatch(lobby, bob, f"/replay {record.id}")
    deal = bob.of_type("replay")[-1]
    assert [f["step"] for f in deal["frames"]] == [0]
    shown = "\n".join(text(deal))
    assert f"Replay of game #{record.id}: {game}" in shown and "step 0 of" in shown and "The deal." in shown
    assert f"/replay next (or /replay {record.id} 1)" in shown
    hands = frame_view(deal, deal["frames"][0])["hands"]
    for name, cards in hands.items():  # each player's row lists their cards
        row = next(line for line in shown.splitlines() if line.startswith(f" {name} ") and "  " in line[17:])
        assert cards[0] in row, (name, row)
    for step in (1, 2):
        dispatch(lobby, bob, "/replay next")
        message = bob.of_type("replay")[-1]
        assert message["frames"][0]["step"] == step
        lines = text(message, "ascii")
        move = record.actions[step - 1]
        who = "the next round" if move["seat"] is None else f"{record.players[move['seat']]} /{move['action']}"
        assert lines[1].startswith(f" Move {step} at 0:") and lines[1].endswith(who)
        assert any(line.startswith(" Moves: ") and f"> {step}. " in line for line in lines)
    dispatch(lobby, bob, "/replay prev")
    assert bob.of_type("replay")[-1]["frames"][0]["step"] == 1
    last = len(record.actions)
    dispatch(lobby, bob, f"/replay #{record.id} {last}")
    end = text(bob.of_type("replay")[-1])
    assert "The end; /replay prev: the one before." in end[-1]
    assert any("Game over." in line for line in end)
    with pytest.raises(BadCommand, match=f"that was the last move of game {record.id}"):
        dispatch(lobby, bob, "/replay next")


def test_the_refusals_are_one_line(tmp_path: Path) -> None:
    lobby, _, record = recorded(tmp_path)
    bob = Recorder(mode="ansi")
    lobby.login(bob, "bob")
    last = len(record.actions)
    refusals = {
        "/replay": "usage: /replay ID [STEP]",
        "/replay x": "usage: /replay ID [STEP]",
        f"/replay {record.id} -1": "usage: /replay ID [STEP]",
        f"/replay {record.id} 1 2": "usage: /replay ID [STEP]",
        "/replay next": "you are reading no replay; /replay ID starts one",
        "/replay 999": "there is no game 999; /history lists your games",
        f"/replay {record.id} {last + 1}": f"game {record.id} has no move {last + 1}: its steps are 0 (the deal) "
                                           f"to {last}",
    }
    for line, reason in refusals.items():
        with pytest.raises(BadCommand) as refused:
            dispatch(lobby, bob, line)
        assert str(refused.value).startswith(reason) and "\n" not in str(refused.value), line
    dispatch(lobby, bob, f"/replay {record.id}")
    with pytest.raises(BadCommand, match=f"that was the deal, the first step of game {record.id}"):
        dispatch(lobby, bob, "/replay prev")
    assert not bob.of_type("error")  # the connection answers these; the lobby only raises

    nostore = Lobby(Clock(), seed=1)
    carol = Recorder()
    nostore.login(carol, "carol")
    with pytest.raises(BadCommand, match="this server keeps no game records"):
        dispatch(nostore, carol, "/replay 1")


def test_the_revealed_view_shows_what_each_game_hides() -> None:
    wizard = game_class("wizard")(["a", "b", "c"], {"clairvoyance": True, "secretbid": True}, seed=3)
    wizard.apply(wizard.waiting()[0], "bid 1")
    observer, revealed = wizard.view(None), wizard.revealed_view()
    bidder = next(p for p in revealed["players"] if p["has_bid"])
    assert bidder["bid"] == 1 and all(p["bid"] is None for p in observer["players"])
    assert all(cards != ["?"] and len(cards) == 1 for cards in revealed["hands"].values())  # clairvoyance: none
    assert wizard.view(0)["hand"] == ["?"] and revealed["hands"]["a"] == wizard.hands[0]
    assert {k: v for k, v in revealed.items() if k not in ("hands", "players")} == {
        k: v for k, v in observer.items() if k != "players"}
    for game in ("witches", "tiltowait"):
        engine = game_class(game)(4, {}, seed=5)
        shown = engine.revealed_view()
        assert shown["hands"] == {p: engine.view(s)["hand"] for s, p in enumerate(engine.players)}
        assert {k: v for k, v in shown.items() if k != "hands"} == engine.view(None)


def test_the_plugin_example_gets_the_default_revealed_view(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(ROOT / "examples" / "highcard"))
    sys.modules.pop("mudwiz_highcard", None)
    from mudwiz_highcard import HighCard

    game = HighCard(["a", "b"], {}, seed=random.Random(1).randrange(100))
    shown = game.revealed_view()
    assert shown["hands"] == {"a": game.view(0)["hand"], "b": game.view(1)["hand"]} and shown["hands"]["a"]
    lines = [strip_ansi(line) for line in Presenter(Style()).lines({
        "type": "replay", "id": 1, "game": "highcard", "date": "2026-01-01T00:00:00Z", "steps": 0, "moves": [],
        "common": {}, "sheet": [], "frames": [{"step": 0, "player": None, "action": None, "t": 0.0,
                                              "events": [e.to_dict() for e in game.start_events], "view": shown}]})]
    assert any(line.startswith(" a ") and shown["hands"]["a"][0] in line for line in lines)
