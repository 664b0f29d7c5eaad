"""When a person's screen shows the table (whenever it becomes their turn, even straight after their own move),
and that all they are shown fits 80 columns: the table during play, at a round's end and once the game is over.

Whole games are played at a table (fake clock, no sockets) by people who always type their first legal move;
each person's messages go through the terminal renderer exactly as a telnet connection's would.
"""

from __future__ import annotations

from typing import Any

import pytest
from recorder import Recorder
from twisted.internet.task import Clock

from mudwiz.commands import dispatch
from mudwiz.games.base import Event
from mudwiz.lobby import Lobby
from mudwiz.render.ansi import Presenter
from mudwiz.render.style import WIDTH, Style, visible_len


class Screen(Recorder):
    """A person whose messages are also rendered as their terminal would show them."""

    def __init__(self) -> None:
        super().__init__()
        self.presenter = Presenter(Style.for_mode("ascii"))
        self.drawn = False  # has the table been drawn for this person since their last move?
        self.lines: list[str] = []
        self.tallest = 0  # rows of the tallest table view drawn

    def deliver(self, message: dict[str, Any], event: Event | None = None) -> None:
        super().deliver(message, event)
        lines = self.presenter.lines(message, event)
        self.lines += lines
        if message["type"] == "state" and lines:
            self.tallest = max(self.tallest, len(lines))
            self.drawn = self.drawn or message["phase"] not in ("roundend", "gameover")


# Three players with short names play whole games; every other player count each game seats, up to the most,
# with 16-character names, plays the first few hundred moves (ten at Tiltowait would take minutes to finish).
TABLES = [(game, 3, "p{}", True) for game in ("wizard", "witches", "tiltowait")] + [
    (game, n, "Longname{:02d}xxxxxx", False)
    for game, most in (("wizard", 6), ("witches", 6), ("tiltowait", 10)) for n in range(3, most + 1)]


@pytest.mark.parametrize(("game", "players", "names", "whole"), TABLES)
def test_the_table_is_drawn_each_time_it_becomes_your_turn(game: str, players: int, names: str, whole: bool) -> None:
    clock = Clock()
    lobby = Lobby(clock, grace=30, bot_delay=0.5, seed=3)
    people = [Screen() for _ in range(players)]
    for i, p in enumerate(people):
        lobby.login(p, names.format(i))
    dispatch(lobby, people[0], f"/new {game}")
    for p in people[1:]:
        dispatch(lobby, p, "/join 1")
    short = {"wizard": "/option rounds 4", "tiltowait": "/option hands 2"}
    if game in short:
        dispatch(lobby, people[0], short[game])
    dispatch(lobby, people[0], "/start")
    table = lobby.tables[1]
    moves = 0
    while table.game is not None and not table.game.finished and moves < (5000 if whole else 400):
        for p in people:
            state = p.last_state()
            legal = [a for a in state["legal"] if a != "/start"]
            if not legal or (legal[0] != "/ok" and p.name not in state.get("waiting", ())):
                continue  # nothing to do, or only an optional move (a karuki call, say): not their turn
            if legal[0] == "/ok":
                dispatch(lobby, p, "/look")  # the table at the round's end, with who has confirmed: it fits too
            else:
                # The person is about to move: the table in front of them must be this turn's, not an old one.
                assert p.drawn, f"{p.name} must move ({legal[0]}) but the table was not drawn since their last move"
                p.drawn = False
                move = table.bots.any_move(table.seat_of(p.name))  # concrete (a Witches pass names its cards)
                assert move is not None
                legal = ["/" + move]
            dispatch(lobby, p, legal[0])
            moves += 1
            break
        else:
            clock.advance(60)
    assert table.game is not None and (table.game.finished or not whole)
    for p in people if whole else ():  # the finished table: its final standings
        dispatch(lobby, p, "/look")
        ranked = [f"{r['place']:>2}. {r['player']}" for r in p.last_state()["standings"]]
        assert [line.split(maxsplit=2)[:2] for line in p.lines[-len(ranked) - 2:-2]] == [r.split() for r in ranked]
    for p in people:  # and everything a person was shown fits an 80-column terminal, a table view 24 rows
        assert [line for line in p.lines if visible_len(line) > WIDTH] == []
        assert 0 < p.tallest < 24
    if game == "wizard" and whole:  # counted in words, not "1 card(s)"
        assert any(line.startswith("Round 1: 1 card each;") for line in people[0].lines)
        assert any(line.startswith("Round 2: 2 cards each;") for line in people[0].lines)


def test_witches_last_trick_is_still_shown_when_your_turn_comes_after_the_lead() -> None:
    """The last trick (who played what, who took it) was gone from the table view by the time it was your turn:
    its taker had led the next one. It stays until you play into the next trick."""
    clock = Clock()
    lobby = Lobby(clock, grace=30, bot_delay=0.5, seed=3)
    me = Screen()
    lobby.login(me, "me")
    for line in ("/new witches", "/bot add", "/bot add", "/bot add", "/start"):
        dispatch(lobby, me, line)
    table = lobby.tables[1]
    seen = 0
    while seen < 3 and clock.seconds() < 3000:
        state = me.last_state()
        if "me" not in state.get("waiting", ()) or not state["legal"]:
            clock.advance(1)
            continue
        if state["phase"] == "playing" and state["trick"] and state["last_trick"]:
            top = max(i for i, line in enumerate(me.lines) if line.startswith("-- Witches"))
            view = me.lines[top:]  # the table drawn as your turn came, not the one drawn as the trick was taken
            last = [line for line in view if line.startswith(" Last trick, taken by")]
            taker = state["leader"]  # who took the last trick leads this one
            assert last and last[-1].startswith(f" Last trick, taken by {taker}: "), "\n".join(view)
            assert all(f"{c['player']} {c['card']}" in last[-1] for c in state["last_trick"])
            seen += 1
        move = table.bots.any_move(table.seat_of("me"))
        assert move is not None
        dispatch(lobby, me, "/" + move)
    assert seen == 3
