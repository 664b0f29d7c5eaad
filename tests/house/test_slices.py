"""Work in slices (mudwiz/slices.py): a ``/replay`` is made a step of the game a reactor turn, others' commands
are answered meanwhile, and its message is the very one made whole; over loopback, the asker's next line is
answered after it (the connection reads on once the replay is out).

Bad input mid-way fails the work, answered as any refused command is."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from recorder import Recorder
from test_replay_command import recorded
from turns import Turns
from wire import JsonClient, running_server

from mudwiz import slices
from mudwiz.commands import dispatch
from mudwiz.errors import BadCommand
from mudwiz.replay import replay_message, steps
from mudwiz.slices import Sliced, finish, inline


def test_a_replay_runs_a_step_a_turn_while_others_are_answered_and_its_message_is_the_whole_ones(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(slices, "SLICE", 0.0)  # one step a turn, on any machine
    lobby, _, record = recorded(tmp_path, "tiltowait")
    turn = Turns()
    lobby.slices = Sliced(turn)  # type: ignore[arg-type]  # callLater is all it uses of a reactor
    bob, carol = Recorder(mode="json"), Recorder(mode="json")
    lobby.login(bob, "bob")
    lobby.login(carol, "carol")
    last = steps(record)
    reply = dispatch(lobby, bob, f"/replay {record.id} {last}")
    turns = 0
    while not reply.called:  # type: ignore[union-attr]
        assert not bob.of_type("replay")
        assert dispatch(lobby, carol, "/who") is None and carol.of_type("who")  # answered at once, meanwhile
        turn.next()
        turns += 1
    assert turns >= last  # a step a turn: the game replayed to its end took as many turns
    [message] = bob.of_type("replay")
    assert message == replay_message(record, last, 100) and bob.replaying == (record.id, last)


def test_inline_work_is_done_when_asked_and_a_refusal_mid_way_fails_it() -> None:
    def work(fail: bool) -> slices.Work[int]:
        yield
        if fail:
            raise BadCommand("no such step")
        yield
        return 7

    done: list[object] = []
    inline(work(False)).addCallback(done.append)
    assert done == [7] and finish(work(False)) == 7
    failed: list[object] = []
    inline(work(True)).addErrback(lambda f: failed.append(f.value))
    assert [str(e) for e in failed] == ["no such step"]


def test_a_replay_then_a_who_in_one_write_are_answered_in_that_order(tmp_path: Path) -> None:
    _, store, record = recorded(tmp_path, "tiltowait")
    store.close()
    with running_server(MUDWIZ_DATA=str(tmp_path)) as server:
        client = JsonClient(server, "reader")
        start = len(client.messages)
        client.sock.sendall(json.dumps({"id": "r", "cmd": f"/replay {record.id} {steps(record)}"}).encode() + b"\n"
                            + json.dumps({"id": "w", "cmd": "/who"}).encode() + b"\n")
        client.wait_for(lambda m: m.get("id") == "w")
        answers = [(m["type"], m.get("id")) for m in client.messages[start:] if m["type"] in ("replay", "who", "ok")]
        assert answers == [("replay", record.id), ("ok", "r"), ("who", None), ("ok", "w")], answers
        client.close()


def test_a_games_sheet_is_replayed_a_step_a_turn_and_shown_as_when_done_at_once(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(slices, "SLICE", 0.0)
    lobby, _, record = recorded(tmp_path, "witches")
    bob = Recorder(mode="json")
    lobby.login(bob, "bob")
    dispatch(lobby, bob, f"/game {record.id}")  # inline: shown at once
    [whole] = bob.of_type("game")
    turn = Turns()
    lobby.slices = Sliced(turn)  # type: ignore[arg-type]
    reply = dispatch(lobby, bob, f"/game {record.id}")
    turns = 0
    while not reply.called:  # type: ignore[union-attr]
        turn.next()
        turns += 1
    assert turns >= steps(record) and bob.of_type("game") == [whole, whole]
    assert whole["sheet"] and all(p["score"] is not None for p in whole["players"])


def test_work_for_someone_who_left_is_given_up_at_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A client asking for a long replay and leaving, again and again, must not pile up work nobody reads."""
    monkeypatch.setattr(slices, "SLICE", 0.0)
    lobby, _, record = recorded(tmp_path, "tiltowait")
    turn = Turns()
    lobby.slices = Sliced(turn)  # type: ignore[arg-type]
    bob = Recorder(mode="json")
    lobby.login(bob, "bob")
    reply = dispatch(lobby, bob, f"/replay {record.id} {steps(record)}")
    for _ in range(3):
        turn.next()
    lobby.disconnect(bob)
    turns = 0
    while not reply.called and turns < 10:  # type: ignore[union-attr]
        turn.next()
        turns += 1
    assert reply.called and turns <= 2 < steps(record) - 3  # type: ignore[union-attr]
    assert not bob.of_type("replay") and bob.replaying is None
