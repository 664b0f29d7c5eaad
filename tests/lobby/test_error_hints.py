"""A refused move is answered in one style: the engine's reason, then ``; you may:`` and the moves as they are
typed (slash and all), cards in the order of the hand, and on an 80-column terminal never a move broken over
two lines (``/bid`` at the end of one row, ``1`` at the start of the next).

Real lobby, table and engines, fed through ``dispatch``; what a person sees is the server's own terminal
renderer drawn on an 80-column pyte screen.
"""

from __future__ import annotations

import re

import pyte
import pytest
from recorder import Recorder
from twisted.internet.task import Clock

from mudwiz.commands import dispatch
from mudwiz.connection import hint
from mudwiz.errors import MudwizError
from mudwiz.lobby import Lobby
from mudwiz.render.ansi import Presenter
from mudwiz.render.style import Style, wrap_words
from mudwiz.table import Table


def seated(game: str, mode: str = "ascii") -> tuple[Lobby, list[Recorder], Table]:
    """Three people at a started table of ``game``; the first is in ``mode``."""
    lobby = Lobby(Clock(), grace=30.0, bot_delay=0.5, seed=1)
    people = [Recorder(mode=mode if i == 0 else "json") for i in range(3)]
    for i, p in enumerate(people):
        lobby.login(p, f"p{i}")
    dispatch(lobby, people[0], f"/new {game}")
    for p in people[1:]:
        dispatch(lobby, p, "/join 1")
    dispatch(lobby, people[0], "/start")
    table = lobby.tables[1]
    return lobby, people, table


def wizard_round(table: Table, hand: list[str], phase: str) -> int:
    """Round 4 of the table's Wizard game, with ``hand`` for the seat about to act; returns that seat."""
    game = table.game
    assert game is not None
    seat = game.waiting()[0] if game.phase != "trump" else game.dealer
    rest = [c for c in ("Y1", "Y2", "Y3", "Y4", "Y5", "Y6", "Y7", "Y8") if c not in hand]
    game.round = 4
    game.hands = [list(hand) if s == seat else rest[4 * (k := (s - seat) % 3 - 1): 4 * k + 4] for s in range(3)]
    game.leader = game.first_leader = seat
    game.dealer = (seat - 1) % 3
    game.trick, game.tricks = [], [0, 0, 0]
    game.bids = [1, 1, 1] if phase == "playing" else [None] * 3
    game._phase = phase
    return seat


def refusal(lobby: Lobby, session: Recorder, line: str) -> str:
    """The error text the network edge sends for ``line``: the refusal with its hint."""
    with pytest.raises(MudwizError) as info:
        dispatch(lobby, session, line)
    return hint(session, str(info.value))


def on_screen(message: str, mode: str = "ascii") -> list[str]:
    """The error as an 80-column terminal shows it, row by row."""
    lines = Presenter(Style.for_mode(mode)).lines({"type": "error", "message": message})
    term = pyte.Screen(80, 24)
    pyte.Stream(term).feed("".join(f"{line}\r\n" for line in lines))
    return [row.rstrip() for row in term.display if row.strip()]


def person(lobby: Lobby, people: list[Recorder], seat: int) -> Recorder:
    name = lobby.tables[1].seats[seat].name
    return next(p for p in people if p.name == name)


def test_a_wrong_card_lists_the_playable_cards_typable_and_in_hand_order() -> None:
    lobby, people, table = seated("wizard")
    seat = wizard_round(table, ["Z", "B12", "B3", "B10"], "playing")
    text = refusal(lobby, person(lobby, people, seat), "/play G7")
    assert text == "you have no G7; you may: /play B3, /play B10, /play B12, /play Z"


def test_usage_and_notequal_refusals_end_in_the_same_list() -> None:
    lobby, people, table = seated("wizard")
    seat = wizard_round(table, ["B12", "B3", "B10", "Z"], "bidding")
    who = person(lobby, people, seat)
    assert refusal(lobby, who, "/bid") == "usage: /bid N; you may: /bid 0, /bid 1, /bid 2, /bid 3, /bid 4"
    assert refusal(lobby, who, "/play B3") == ("now is the time to /bid, not /play; you may: /bid 0, /bid 1, "
                                               "/bid 2, /bid 3, /bid 4")


def test_a_notequal_refusal_still_lists_the_bids_left() -> None:
    """'notequal: you may not bid 1' says "you may" itself; the list must not be left off for that."""
    lobby, people, table = seated("wizard")
    table.game.options["notequal"] = True
    seat = wizard_round(table, ["B12", "B3", "B10", "Z"], "bidding")
    game = table.game
    for other in ((seat + 1) % 3, (seat + 2) % 3):
        game.bids[other] = 1
    game.dealer = seat
    text = refusal(lobby, person(lobby, people, seat), "/bid 2")
    assert text.endswith("add up to the 4 cards dealt; you may: /bid 0, /bid 1, /bid 3, /bid 4")


def test_tiltowait_moves_with_the_karuki_call_are_listed_as_typed() -> None:
    lobby, people, table = seated("tiltowait")
    game = table.game
    seat = game.waiting()[0]
    game.hands[seat] = ["MAHALITO", "R3"]
    game.discard[-1], game.colour, game.pending, game.responders, game.drawn = "R5", "R", 0, [], None
    text = refusal(lobby, person(lobby, people, seat), "/play R9")
    assert text == ("you have no R9; you may: /play R3, /play R3 karuki, /play MAHALITO ..., /draw")


@pytest.mark.parametrize("mode", ["ascii", "ansi"])
def test_no_move_is_ever_split_across_two_rows(mode: str) -> None:
    """Errors of every length up to two rows: each move listed stays whole on one row of the screen."""
    lobby, people, table = seated("wizard", mode)
    seat = wizard_round(table, ["B12", "B3", "B10", "Z"], "bidding")
    who = person(lobby, people, seat)
    who.mode = mode
    moves = [f"/bid {n}" for n in range(5)]
    for pad in range(1, 90):
        text = refusal(lobby, who, "/" + "x" * pad)
        rows = on_screen(text, mode)
        assert all(len(row) <= 80 for row in rows)
        for move in moves:
            assert any(move + "," in row or row.endswith(move) for row in rows), (move, rows)
        for row in rows:
            assert not re.search(r"/bid$", row), rows
        if mode == "ascii":
            assert all(line.isascii() for line in Presenter(Style.for_mode(mode)).lines(
                {"type": "error", "message": text}))


def test_the_json_reply_has_plain_spaces() -> None:
    lobby, people, table = seated("wizard", "json")
    seat = wizard_round(table, ["B12", "B3", "B10", "Z"], "bidding")
    text = refusal(lobby, person(lobby, people, seat), "/bid 9")
    assert text == "you may bid 0 to 4 this round, not 9; you may: /bid 0, /bid 1, /bid 2, /bid 3, /bid 4"
    assert text.isascii()


def test_the_wrapper_keeps_no_break_words_together_and_shows_spaces() -> None:
    words = " ".join(["word"] * 15) + " /bid\u00a03, /bid\u00a04"  # 74 columns, then a move that would end at 82
    assert wrap_words(words, 80) == [" ".join(["word"] * 15), "  /bid 3, /bid 4"]
    assert wrap_words("short /bid\u00a01", 80) == ["short /bid 1"]
