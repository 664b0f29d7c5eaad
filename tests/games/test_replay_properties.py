"""The record's exactness, as a property: random games of all three engines, played to the end by a person and
bots at a real table on a fake clock, recorded into a real SQLite file the way the table records every game.
Read back, ``Game.replay`` of the record's seed and actions must rebuild the very game: its log, scores, score
sheet and every seat's view, the observer's and the all-revealed one; the events an observer was sent at the
table must be the replayed events as an observer sees them; and ``replay.frames`` must be that replay step by
step, its last view the live game's."""

from __future__ import annotations

import random
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from recorder import Recorder
from twisted.internet.task import Clock
from wire import pick_command

from mudwiz.commands import dispatch
from mudwiz.games import game_class
from mudwiz.games.base import Game
from mudwiz.lobby import Lobby
from mudwiz.replay import frames
from mudwiz.store import GameRecord, open_store
from mudwiz.table import Records

HYPOTHESIS: dict[str, Any] = {"deadline": None, "max_examples": 8,
                              "suppress_health_check": [HealthCheck.too_slow, HealthCheck.data_too_large]}
NOT_EVENTS = ("state", "reveal_end", "notice", "chat", "left", "ok", "error", "options", "score")


def options(game: str) -> st.SearchStrategy[dict[str, Any]]:
    """Short games with the options that hide something from an observer switched on at random."""
    if game == "wizard":
        return st.fixed_dictionaries({"rounds": st.integers(1, 3),
                                      "bidding": st.sampled_from(["open", "hiddentip", "secretbid", "notequal"]),
                                      "clairvoyance": st.booleans()})
    if game == "witches":
        return st.fixed_dictionaries({"hands": st.integers(1, 2)})
    return st.fixed_dictionaries({"hands": st.just(1), "milwa": st.sampled_from(["table", "caster"])})


def option_commands(chosen: dict[str, Any]) -> list[str]:
    commands = [f"/option {name} {value}" for name, value in chosen.items() if name not in ("bidding",)]
    if chosen.get("bidding", "open") != "open":
        commands.append(f"/option {chosen['bidding']}")
    return commands


def play_recorded(game: str, players: int, chosen: dict[str, Any], seed: int, data: Path
                  ) -> tuple[GameRecord, Game, Recorder]:
    """One game at a table: Alice and random bots, Olga watching; its record as the store gives it back."""
    clock = Clock()
    clock.advance(1_700_000_000)
    store = open_store(data)
    lobby = Lobby(clock, grace=30, bot_delay=0.5, seed=seed, records=Records.inline(store))
    alice, olga = Recorder(), Recorder()
    lobby.login(alice, "Alice")
    lobby.login(olga, "Olga")
    for command in (f"/new {game}", *option_commands(chosen), *["/bot add random"] * (players - 1)):
        dispatch(lobby, alice, command)
    dispatch(lobby, olga, "/watch 1")
    dispatch(lobby, alice, "/start")
    rng = random.Random(seed)
    for _ in range(20_000):
        if alice.of_type("game_end"):
            break
        state = alice.last_state()
        legal = [c for c in state["legal"] if c != "/start"]
        if legal:
            command = pick_command(legal, rng)
            if command == "/pass":
                command = " ".join(["/pass", *rng.sample(state["hand"], state["pass"]["count"])])
            dispatch(lobby, alice, command)
        clock.advance(1)
    else:
        raise AssertionError("the game did not end")
    [summary] = store.games_of("alice")
    record = store.game(summary.id)
    store.close()
    live = lobby.tables[1].game
    assert record is not None and live is not None
    return record, live, olga


def same_game(replayed: Game, live: Game) -> None:
    assert replayed.log == live.log and replayed.phase == live.phase == "gameover"
    assert replayed.scores == live.scores and replayed.sheet == live.sheet
    for seat in (None, *range(len(live.players))):
        assert replayed.view(seat) == live.view(seat), seat
    assert replayed.revealed_view() == live.revealed_view()


@pytest.mark.parametrize("game", ["wizard", "witches", "tiltowait"])
@settings(**HYPOTHESIS)
@given(data=st.data())
def test_a_recorded_game_replays_exactly_and_its_frames_are_that_replay(game: str, data: st.DataObject) -> None:
    cls = game_class(game)
    players = data.draw(st.integers(cls.min_players, min(cls.max_players, 5)), "players")
    chosen = data.draw(options(game), "options")
    seed = data.draw(st.integers(0, 2**31), "seed")
    with tempfile.TemporaryDirectory() as tmp:
        record, live, olga = play_recorded(game, players, chosen, seed, Path(tmp))

    replayed, events = cls.replay(record.players, record.options, record.seed, record.log)
    same_game(replayed, live)
    assert record.standings == replayed.view(None)["standings"] and record.outcome == "finished"

    # what an observer was sent at the table is the replay's events as an observer sees them
    sent = [{k: v for k, v in m.items() if k != "table"} for m in olga.messages
            if m["type"] not in NOT_EVENTS and "game" in m]
    seen = [e.visible_to(None) for e in events]
    assert len(sent) > len(record.players)  # the deal and the play at least
    assert sent == [{**e.to_dict(), "game": game} for e in seen if e is not None]

    # the frames: the deal, then one a recorded step, with every event whole and the live game's last table
    shown = list(frames(record))
    assert [f.step for f in shown] == list(range(len(record.actions) + 1))
    assert [(f.player, f.action, f.t) for f in shown[1:]] == [
        (None if a["seat"] is None else record.players[a["seat"]], a["action"], a["t"]) for a in record.actions]
    assert [e for f in shown for e in f.events] == [e.to_dict() for e in events]
    assert shown[-1].view == live.revealed_view()
    k = data.draw(st.integers(0, len(record.actions)), "step")
    partial, _ = cls.replay(record.players, record.options, record.seed, record.log[:k])
    assert shown[k].view == partial.revealed_view()
    hands = shown[k].view["hands"]
    assert hands == {name: partial._open_hand(seat) for seat, name in enumerate(partial.players)}
    assert sorted(c for cards in hands.values() for c in cards) == sorted(
        c for cards in partial.hands for c in cards)  # every card held, none hidden
