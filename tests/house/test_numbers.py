"""Numbers a user types are ASCII digits and nothing else (``/join ²`` was an internal error, and
``/watch ٣`` or ``/play R１２`` were read as 3 and R12).

Every parser of a typed number is tried with a superscript (``²``: ``isdigit()`` says yes, ``int()`` raises),
Arabic-Indic digits (``٣``: ``int()`` reads 3) and fullwidth digits (``１``: ``int()`` reads 1): each must be
refused with a short, clear error, never read as a number and never crash.
"""

from __future__ import annotations

import random
import string
import time
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from recorder import Recorder
from twisted.internet.task import Clock
from wire import JsonClient

from mudwiz.commands import dispatch
from mudwiz.errors import BadCommand, BadOption, IllegalAction
from mudwiz.games import game_class
from mudwiz.games.base import Game
from mudwiz.games.wizard import Wizard
from mudwiz.lobby import Lobby
from mudwiz.numbers import whole_number


def arabic(digits: str) -> str:
    """``12`` as Arabic-Indic digits, ``١٢``: int() reads them, a person typing a number here did not mean to."""
    return "".join(chr(0x660 + int(d)) for d in digits)


def fullwidth(digits: str) -> str:
    """``12`` as fullwidth digits, ``１２`` (what a Japanese input method types)."""
    return "".join(chr(0xFF10 + int(d)) for d in digits)


ODD = ["²", "٣", "１", "1²", "١٢", "１２", "", "-", "+3", " 3", "3 ", "1_0", "1.0", "0x1", "9" * 10, "9" * 5000]


# ---------------------------------------------------------------- the helper


@pytest.mark.parametrize(("text", "number"), [("0", 0), ("7", 7), ("007", 7), ("123456789", 123456789)])
def test_ascii_digits_are_a_number(text: str, number: int) -> None:
    assert whole_number(text) == number
    assert whole_number("-" + text, signed=True) == -number


@pytest.mark.parametrize("text", ODD)
def test_anything_else_is_none(text: str) -> None:
    assert whole_number(text) is None
    assert whole_number(text, signed=True) is None
    assert whole_number("-" + text, signed=True) is None


def test_a_minus_only_when_signed() -> None:
    assert whole_number("-3") is None
    assert whole_number("-3", signed=True) == -3
    assert whole_number("--3", signed=True) is None


@given(st.text())
def test_any_text_is_ascii_digits_or_none(text: str) -> None:
    """Never an exception, and a number only from what ``[0-9]{1,9}`` (with an optional minus) matches."""
    number = whole_number(text, signed=True)
    body = text.removeprefix("-")
    if number is None:
        assert not (body and set(body) <= set(string.digits) and len(body) <= 9)
    else:
        assert set(body) <= set(string.digits) and number == int(text)


# ---------------------------------------------------------------- every place a number is typed


def lobby_with_a_table() -> tuple[Lobby, Recorder, Recorder]:
    """Table 1 exists: so ``١`` or ``１`` read by int() would find it."""
    lobby = Lobby(Clock(), seed=1)
    host, guest = Recorder(), Recorder()
    lobby.login(host, "host")
    lobby.login(guest, "guest")
    dispatch(lobby, host, "/new wizard")
    assert 1 in lobby.tables
    return lobby, host, guest


@pytest.mark.parametrize("verb", ["join", "watch"])
@pytest.mark.parametrize("number", ["²", arabic("1"), fullwidth("1"), "#" + fullwidth("1"), "1²", "9" * 4000])
def test_join_and_watch_take_only_ascii_table_numbers(verb: str, number: str) -> None:
    lobby, _, guest = lobby_with_a_table()
    with pytest.raises(BadCommand, match="there is no table"):
        dispatch(lobby, guest, f"/{verb} {number}")
    assert guest.table is None
    dispatch(lobby, guest, f"/{verb} 1")  # the same table by its ASCII number
    assert guest.table is lobby.tables[1]


@pytest.mark.parametrize("value", ["²", arabic("3"), fullwidth("3"), "+3", "3_0", "-" + arabic("3")])
def test_a_number_option_takes_only_ascii_digits(value: str) -> None:
    lobby, host, _ = lobby_with_a_table()
    with pytest.raises(BadOption, match="needs a whole number"):
        dispatch(lobby, host, f"/option rounds {value}")
    assert lobby.tables[1].options.get("rounds") is None
    with pytest.raises(BadOption, match="needs a whole number"):
        dispatch(lobby, host, f"/option confirm={value}")  # a table option reads numbers the same way
    assert dispatch(lobby, host, "/option rounds 3") == "rounds = 3"


def test_a_negative_option_still_reads() -> None:
    """Tiltowait's ``limit`` is a negative number: the minus is the one thing besides digits an option takes."""
    option = game_class("tiltowait").option("limit")
    assert option.parse("-300") == -300
    assert option.parse(-300) == -300  # a value set in code, not typed
    for value in ("-" + arabic("300"), "−300", "-" + fullwidth("300")):  # the second is U+2212 MINUS SIGN
        with pytest.raises(BadOption, match="needs a whole number"):
            option.parse(value)


@pytest.mark.parametrize("bid", ["²", arabic("1"), fullwidth("1"), fullwidth("0")])
def test_a_bid_takes_only_ascii_digits(bid: str) -> None:
    game = Wizard(3, {}, 1)
    seat = game.waiting()[0]
    if game.phase == "trump":
        game.apply(seat, "trump B")
        seat = game.waiting()[0]
    with pytest.raises(IllegalAction, match="whole number"):
        game.apply(seat, f"bid {bid}")
    assert game.bids[seat] is None


def playing(name: str, seed: int) -> tuple[Game, int, str, str]:
    """A game of ``name`` at the first point where its player to move may play a numbered card: the game, the
    seat, that card's code (e.g. ``R12``) and what the move takes after it (Tiltowait's colour, or "")."""
    game = game_class(name)(4, {}, seed)
    rng = random.Random(seed)
    for _ in range(500):
        for seat in game.waiting():
            legal = [str(a) for a in game.legal_actions(seat)]
            numbered = [a.split(" ", 2)[1:] for a in legal if a.startswith("play ") and a.split()[1][1:].isdigit()]
            if numbered:
                card, *rest = numbered[0]
                return game, seat, card, " ".join(rest)
        if game.phase == "roundend":
            game.advance()
            continue
        seat = game.waiting()[0]
        legal = [str(a) for a in game.legal_actions(seat)]
        if "pass" in legal:  # Witches: pass the first cards of the hand
            game.apply(seat, " ".join(["pass", *game.hands[seat][: game.pass_count]]))
        else:
            game.apply(seat, rng.choice(legal))
    raise AssertionError("no numbered card was ever playable")


@pytest.mark.parametrize("name", ["wizard", "witches", "tiltowait"])
@pytest.mark.parametrize("digits", [arabic, fullwidth])
def test_a_card_code_takes_only_ascii_digits(name: str, digits: Callable[[str], str]) -> None:
    """``/play R１２`` is not ``/play R12``: ``\\d`` in the card pattern matched every Unicode digit."""
    game, seat, card, rest = playing(name, 3)
    log = list(game.log)
    with pytest.raises(IllegalAction, match="is not a"):
        game.apply(seat, f"play {card[0]}{digits(card[1:])} {rest}")
    assert game.log == log
    game.apply(seat, f"play {card.lower()} {rest}")  # the same card typed in ASCII is played


def test_a_superscript_card_number_is_refused() -> None:
    game, seat, card, _ = playing("wizard", 3)
    with pytest.raises(IllegalAction, match="is not a card"):
        game.apply(seat, f"play {card[0]}²")


# ---------------------------------------------------------------- over the wire: one clear line each


def refused(client: JsonClient, cmd: str, wanted: str) -> str:
    """Send ``cmd``; it must come back as an error of one line that says ``wanted`` (no crash, no hint of one)."""
    reply = client.request(cmd)
    assert reply["type"] == "error", (cmd, reply)
    message = reply["message"]
    assert wanted in message and "internal error" not in message and "\n" not in message, (cmd, message)
    return message


def my_turn(client: JsonClient, verb: str, timeout: float = 30.0) -> dict[str, Any]:
    """The state once ``verb`` is ours to make (naming trump on the way, if a turned Wizard asks us). The table
    sends its states before the reply to a move, so the last state read is the table as it stands."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        state = client.last_state()
        legal = state["legal"] if state else []
        if legal and legal[0].startswith("/trump"):
            assert client.request(legal[0])["type"] == "ok"
        elif any(a.startswith(verb) for a in legal):
            return state  # type: ignore[return-value]
        client.read(0.2)
    raise TimeoutError(f"{client.name}: never offered {verb}")


def test_odd_digits_over_the_wire_get_a_clear_error(server: tuple[str, int]) -> None:
    host = JsonClient(server, "num_host")
    guest = JsonClient(server, "num_guest")
    try:
        assert host.request("/new wizard")["type"] == "ok"
        table = str(host.of_type("state")[-1]["table"])
        for number in ("²", arabic(table), fullwidth(table)):
            refused(guest, f"/join {number}", "there is no table")
            refused(guest, f"/watch {number}", "there is no table")
        for value in ("²", arabic("1"), fullwidth("1")):
            refused(host, f"/option rounds {value}", "needs a whole number")
        assert host.request("/option rounds 1")["type"] == "ok"
        for _ in range(2):
            assert host.request("/bot add random")["type"] == "ok"
        assert host.request("/start")["type"] == "ok"

        my_turn(host, "/bid")
        for bid in ("²", arabic("1"), fullwidth("1")):
            refused(host, f"/bid {bid}", "whole number")
        assert host.request(my_turn(host, "/bid")["legal"][0])["type"] == "ok"
        state = my_turn(host, "/play")
        card = state["hand"][0]
        typed = card[0] + fullwidth(card[1:]) if card[1:].isdigit() else "R" + fullwidth("12")
        refused(host, f"/play {typed}", "is not a card")
        refused(host, "/play R²", "is not a card")
        assert host.request(state["legal"][0])["type"] == "ok"  # the same card typed in ASCII is played
    finally:
        host.close()
        guest.close()
