"""The client's log words and panes, fed real messages: tables played in this process (``client_tables``) send
what a server would, and the client's model, log lines and panes are checked as a person would read them.
"""

from __future__ import annotations

import re
from dataclasses import fields
from typing import Any, get_type_hints

import pytest
from client_tables import Run

from mudwiz.client import panes
from mudwiz.client.events import message_lines, unknown_line
from mudwiz.client.model import Model
from mudwiz.games import available, game_class
from mudwiz.games.base import Event
from mudwiz.render.style import strip_ansi, visible_len


def test_drawn_cards_are_spaced_in_the_log() -> None:
    """``draws 4 cards:B6TILTOWAITDALTO-RK10`` was one word: each drawn card must read as a word of its own."""
    run = Run("tiltowait", 3, names="p{}", seed=5)
    mine = run.people[0].messages

    def drawn() -> list[dict]:
        return [m for m in mine if m["type"] == "drew" and m["player"] == "p0" and len(m.get("cards") or []) >= 2]

    run.play(until=lambda: len(drawn()) >= 2)
    for m in drawn():
        text = " ".join(strip_ansi(line) for line in message_lines({**m, "table": 1, "game": "tiltowait"}))
        head, _, cards = text.partition(":")
        assert head.startswith("p0 draws") and cards.split() == m["cards"], text
    played = next(m for m in mine if m["type"] == "card_played")
    assert strip_ansi(message_lines({**played, "table": 1, "game": "tiltowait"})[0]).endswith(f" {played['card']}.")


# ---------------------------------------------------------------- every event in words

SAMPLES: dict[str, Any] = {  # a value for each field an engine event has, by field name
    **dict.fromkeys(("player", "caster", "target", "to", "by", "winner", "dealer", "leader", "starter", "chooser"),
                    "bo"),
    "card": "R3", "top": "R3", "spell": "HALITO-R", "colour": "R", "suit": "R", "direction": "cw", "count": 2,
    "round": 1, "points": 13, "pass_count": 3, "seconds": 5, "bid": 1, "choice": "give", "reason": "draw",
    "hidden": False, "choosing": False, "bids": {"bo": 1, "cy": 0}, "audience": "table",
    "results": [{"player": "bo", "delta": 10, "score": 30, "bid": 1, "tricks": 1, "points": 0, "held": 0,
                 "cards": [], "doubled": False},
                {"player": "cy", "delta": -10, "score": -10, "bid": 0, "tricks": 1, "points": 3, "held": 2,
                 "cards": ["R3", "HAMAN"], "doubled": True}],
    "standings": [{"player": "bo", "score": 30, "place": 1}, {"player": "cy", "score": -10, "place": 2}],
    "received": [{"player": "bo", "from": "cy", "cards": ["R3", "G7"]}],
}
GAME_SAMPLES = {"witches": {"direction": "left"}}


def engine_events() -> list[tuple[str, type[Event]]]:
    """Every event class the engines have, with the game that sends it (the shared ones with every game)."""
    modules = {name: game_class(name).__module__.rpartition(".")[0] for name in available()}  # the game's package
    found: list[tuple[str, type[Event]]] = []
    todo = list(Event.__subclasses__())
    while todo:
        cls = todo.pop()
        todo += cls.__subclasses__()
        games = [g for g, package in modules.items() if cls.__module__.startswith(package + ".")] or list(modules)
        found += [(g, cls) for g in games]
    return found


def sample(cls: type[Event], game: str) -> Event:
    """An instance with a plausible value in every field (``cards`` is a count, card codes or plays)."""
    samples = {**SAMPLES, **GAME_SAMPLES.get(game, {})}
    hints = get_type_hints(cls)
    values = {}
    for f in fields(cls):
        if f.name == "cards":
            hint = str(hints["cards"])
            values["cards"] = 7 if hint == "<class 'int'>" else (
                [{"player": "bo", "card": "R3"}, {"player": "cy", "card": "G7"}] if "dict" in hint else ["R3", "G7"])
        else:
            assert f.name in samples, f"{cls.__name__}.{f.name}: give the test a sample value for it"
            values[f.name] = samples[f.name]
    return cls(**values)


@pytest.mark.parametrize(("game", "cls"), engine_events(), ids=lambda v: getattr(v, "__name__", v))
def test_every_engine_event_reads_as_words(game: str, cls: type[Event]) -> None:
    """``bot1: tiltowait turn`` was the event's name printed raw: each event (as each viewer sees it) gets a
    sentence, never the generic line kept for events this client does not know."""
    event = sample(cls, game)
    views = [event.visible_to("bo"), event.visible_to("cy"), event.visible_to(None)]
    for seen in [v for i, v in enumerate(views) if v is not None and v not in views[:i]]:
        message = {"type": seen.type, "table": 1, "game": game, **seen.to_dict()}
        lines = [strip_ansi(line) for line in message_lines(message)]
        assert lines and lines != [strip_ansi(unknown_line(message))], (message, lines)
        assert all("_" not in line for line in lines), lines


def test_events_of_whole_games_and_unknown_messages_read_as_words() -> None:
    for game in available():
        short = {"wizard": ("rounds 3",), "tiltowait": ("hands 1",)}
        run = Run(game, 3, names="p{}", options=short.get(game, ()))
        run.play(until=lambda run=run: run.over, limit=20000)
        for message in run.messages(0):
            if "game" in message and message["type"] not in ("state", "score"):
                lines = [strip_ansi(line) for line in message_lines(message)]
                assert lines and lines != [strip_ansi(unknown_line(message))], message
    left = " ".join(strip_ansi(line) for line in message_lines({"type": "left", "table": 3}))
    assert left == "You are no longer at table 3."
    rules = [strip_ansi(line) for line in message_lines({"type": "rules", "game": "wizard", "text": "# Wizard\nBid."})]
    assert rules == ["# Wizard", "Bid."]  # /rules typed by hand
    odd = {"type": "frog_jumped", "table": 1, "game": "tiltowait", "player": "bo", "height": 3, "pond": ["a", "b"]}
    text = " ".join(strip_ansi(line) for line in message_lines(odd))
    assert text == "bo: frog jumped (height 3, pond a b).", text


# ---------------------------------------------------------------- the table pane


def model_of(state: dict[str, Any], you: str) -> Model:
    model = Model(address="test:4000")
    model.apply({"type": "welcome", "name": you})
    model.apply(state)
    return model


def pane_text(model: Model, width: int = 79) -> str:
    lines = [strip_ansi(line) for line in panes.table_lines(model, width)]
    assert all(len(line) <= width for line in lines), "\n".join(lines)
    return "\n".join(lines)


def test_round_end_shows_who_confirmed_and_who_is_awaited() -> None:
    """At a round's end the state says who has typed /ok (``confirmed``); the pane names them and the people
    the next round still waits for (bots and dropped players are not waited for)."""
    run = Run("wizard", 3, names="p{}", options=("rounds 3",))
    run.play(until=lambda: run.state(0)["phase"] == "roundend" and "p0" in run.state(0)["confirmed"],
             confirm=lambda who: who == 0)
    text = pane_text(model_of(run.state(0), "p0"))
    assert "Confirmed (/ok): p0" in text and "Waiting for /ok: p1, p2" in text, text
    model = model_of(run.state(1), "p1")
    assert "Waiting for /ok: p1, p2" in pane_text(model)
    assert "Enter (/ok)" in strip_ansi(panes.status_line(model))
    run.step(confirm=lambda who: who == 1)
    model = model_of(run.state(0), "p0")
    assert "Confirmed (/ok): p0, p1" in pane_text(model) and "Waiting for /ok: p2" in pane_text(model)
    assert "waiting for /ok from p2" in strip_ansi(panes.status_line(model))
    marked = [line.split()[1] for line in pane_text(model).splitlines() if line.startswith(" > ")]
    assert marked == ["p2"]  # the awaited are marked in the players' rows too


# ---------------------------------------------------------------- F1: the keys and the game's rules

RULES = "# Wizard\n\nBid the tricks you will take.\nA Wizard wins the trick; a Jester never does."


@pytest.mark.parametrize("reply", [
    [{"type": "rules", "game": "wizard", "text": RULES}, {"type": "ok"}],  # a message of its own
    [{"type": "help", "topic": "rules wizard", "text": RULES}, {"type": "ok"}],  # worded as help
    [{"type": "ok", "text": RULES}],  # in the reply itself
], ids=["rules", "help", "ok"])
def test_f1s_rules_request_fills_the_help_pane_not_the_log(reply: list[dict[str, Any]]) -> None:
    """F1 asks ``/rules GAME`` (the server's command lands in parallel, so its reply is taken in any of the
    shapes it may have); the rules go to the help pane under the keys, and not into the log."""
    model = model_of(Run("wizard", 3, names="p{}").state(0), "p0")
    logged = len(model.log)
    model.ask_rules(7, "wizard")
    assert "asking" in " ".join(strip_ansi(line) for line in panes.help_lines(model, 70))
    for message in reply:
        model.apply({**message, "id": 7} if message["type"] == "ok" else message)
    assert len(model.log) == logged and model.rules_asked is None
    text = [strip_ansi(line).strip() for line in panes.help_lines(model, 70)]
    assert all(visible_len(line) <= 70 for line in panes.help_lines(model, 70))
    assert text[0].startswith("Left / Right")  # the keys stay first
    assert "Bid the tricks you will take." in text and "A Wizard wins the trick; a Jester never does." in text
    model.apply({"type": "help", "topic": "play", "text": "/play CARD"})  # later help is not the rules
    assert "/play CARD" in strip_ansi(model.log[-1]) and "/play CARD" not in " ".join(panes.help_lines(model, 70))


def test_a_refused_rules_request_leaves_the_keys_only() -> None:
    model = model_of(Run("wizard", 3, names="p{}").state(0), "p0")
    model.ask_rules(3, "wizard")
    model.apply({"type": "error", "id": 3, "message": "unknown command /rules; /help lists the commands"})
    text = " ".join(strip_ansi(line) for line in panes.help_lines(model, 70))
    assert model.rules == {"wizard": []} and "Left / Right" in text and "no rules" in text
    assert not any("unknown command" in strip_ansi(line) for line in model.log)


def test_help_asked_before_f1_stays_in_the_log() -> None:
    """A /help typed just before F1 is answered first: its text is not taken for the rules."""
    model = model_of(Run("wizard", 3, names="p{}").state(0), "p0")
    model.sent(4, "/help play")
    model.ask_rules(5, "wizard")
    model.apply({"type": "help", "topic": "play", "text": "/play CARD: play a card"})
    model.apply({"type": "ok", "id": 4})
    model.apply({"type": "rules", "game": "wizard", "text": RULES})
    model.apply({"type": "ok", "id": 5})
    assert any("/play CARD: play a card" in strip_ansi(line) for line in model.log)
    assert model.rules["wizard"] == RULES.splitlines() and not model.pending


def test_rows_run_from_the_tricks_leader_and_mark_stand_ins_and_the_away() -> None:
    from mudwiz.client.panes import player_rows

    def row(name: str, **marks: Any) -> dict[str, Any]:
        return {"name": name, "score": 0, "bot": False, "away": False, "bid": 1, "tricks": 0, "played": None,
                **marks}

    state = {"game": "wizard", "phase": "playing", "leader": "cy", "you": "bo", "waiting": ["cy"],
             "players": [row("bo"), row("cy", bot=True, stand_in=True), row("di", away=True)]}
    rows = [strip_ansi(r) for r in player_rows(state, 80)[1:]]
    assert [r.split()[1] if r.startswith(" >") else r.split()[0] for r in rows] == ["cy", "di", "bo"]
    assert "cy (stand-in)" in rows[0] and "(bot)" not in rows[0]
    assert "di (away)" in rows[1]


# ---------------------------------------------------------------- MILWA: a hand opened to the table for a while


def milwa_run(players: int) -> tuple[Run, int]:
    """A Tiltowait table played until p0 is shown another player's hand by MILWA; the index of that message
    in what p0 was sent (the state after it was sent too, the ``reveal_end`` not yet: the clock has not run)."""
    run = Run("tiltowait", players, names="p{}", seed=6)
    mine = run.people[0].messages

    def opened() -> int | None:
        return next((i for i, m in enumerate(mine) if m["type"] == "milwa_reveal" and m["target"] != "p0"), None)

    run.play(until=lambda: opened() is not None)
    index = opened()
    assert index is not None and mine[-1]["type"] == "state"
    return run, index


def logged_since(model: Model, count: int) -> list[str]:
    return [strip_ansi(line) for line in list(model.log)[count:]]


def test_a_hand_opened_by_milwa_is_shown_in_the_table_pane_until_its_reveal_end() -> None:
    """Issue #20: the opened hand was logged card by card and stayed in the log for ever. While it is open the
    table pane shows it (the log says only who opened whose hand, for how long); after ``reveal_end`` neither
    does, as the telnet view takes it away."""
    run, index = milwa_run(3)
    messages = run.messages(0)
    reveal = messages[index]
    model = Model(address="test:4000")
    model.apply({"type": "welcome", "name": "p0"})
    for message in messages[:index]:
        model.apply(message)
    count = len(model.log)
    for message in messages[index:]:
        model.apply(message)
    cards, target, caster = reveal["cards"], reveal["target"], reveal["caster"]
    said = logged_since(model, count)
    line = next(line for line in said if f"{target}'s hand" in line)
    assert caster in line and "MILWA" in line and "5 s" in line, said
    unsaid = set(cards) - {"MILWA"}  # the line names the spell, which may be in the hand too
    assert not unsaid & {word.strip(".,:()") for text in said for word in text.split()}, said
    pane = pane_text(model).splitlines()
    at = next(i for i, text in enumerate(pane) if f"{target}'s hand is open (5 s):" in text)
    shown = " ".join(pane[at:]).split(":", 1)[1].split()
    assert shown[:len(cards)] == cards, "\n".join(pane)  # all of them, in the order they were sent
    assert all(len(text) <= 30 for text in pane_text(model, 30).splitlines())  # broken to the pane's width

    run.clock.advance(reveal["seconds"])
    after = run.messages(0)[len(messages):]
    assert [m["type"] for m in after] == ["reveal_end", "state"] and after[0]["player"] == target
    count = len(model.log)
    for message in after:
        model.apply(message)
    assert "is open" not in pane_text(model) and " ".join(cards) not in pane_text(model)
    assert not unsaid & {word.strip(".,:()") for text in logged_since(model, count) for word in text.split()}
    assert not any(" ".join(cards) in strip_ansi(text) for text in model.log)


def test_an_open_hand_goes_with_a_new_hand_or_the_table() -> None:
    """A ``reveal_end`` may never come (a dropped connection, a round over before it): a new hand, another table
    or leaving one takes the open hand away too."""
    run, index = milwa_run(3)
    messages = run.messages(0)

    before = [m for m in messages[:index] if m["type"] == "state"][-1]

    def opened() -> Model:
        model = model_of(before, "p0")
        for message in messages[index:]:
            model.apply(message)
        assert "is open" in pane_text(model)
        return model

    model = opened()
    model.apply({"type": "hand_start", "table": 1, "game": "tiltowait", "round": 2, "starter": "p1", "top": "R3"})
    assert not model.reveals and "is open" not in pane_text(model)
    model = opened()
    model.apply({**messages[-1], "round": messages[-1]["round"] + 1})
    assert not model.reveals
    model = opened()
    model.apply({"type": "left", "table": 1})
    assert not model.reveals
    model = opened()
    model.sent(9, "/leave")
    model.apply({"type": "ok", "id": 9})
    assert not model.reveals and model.state is None


def test_an_open_hand_at_ten_players_leaves_the_hand_and_enter_line_on_80x24() -> None:
    """The most players, 80x24 (the table pane gets 79 columns and 17 rows under it): the open hand is shown
    and broken to the width, and what you hold and the move Enter sends stay on the screen whole."""
    run, index = milwa_run(10)
    run.play(until=lambda: "p0" in run.state(0)["waiting"])  # your turn, the hand still open
    assert not any(m["type"] == "reveal_end" for m in run.messages(0))
    model = Model(address="test:4000")
    model.apply({"type": "welcome", "name": "p0"})
    for message in run.messages(0):
        model.apply(message)
    lines = [strip_ansi(line) for line in panes.table_lines(model, 79, 17)]
    text = "\n".join(lines)
    assert len(lines) <= 17 and all(len(line) <= 79 for line in lines), text
    assert "is open (5 s):" in text, text
    command = model.enter_command()
    assert command is None or f"Enter sends {command}" in text, text
    words = re.findall(r"[\w?-]+", text[text.find("Hand"):] if "Your hand" not in text else
                       text[text.find("Your hand"):])
    assert all(card in words for card in model.hand), text


def test_channel_lines_shouts_emotes_and_recent_lines_read_in_the_log() -> None:
    def shown(message: dict[str, Any]) -> list[str]:
        return [strip_ansi(line) for line in message_lines(message)]

    assert shown({"type": "chat", "from": "ann", "channel": "#wizard", "text": "hi"}) == ["[#wizard] ann: hi"]
    assert shown({"type": "chat", "from": "ann", "channel": "#wizard", "text": "waves", "emote": True}) == [
        "[#wizard] * ann waves"]
    assert shown({"type": "chat", "from": "ann", "channel": "shout", "text": "game?"}) == ["ann shouts: game?"]
    assert shown({"type": "recent", "channel": "#wizard", "lines": [
        {"at": "2026-12-06T10:02:03Z", "from": "ann", "text": "hi", "emote": False},
        {"at": "2026-12-06T10:03:00Z", "from": "bob", "text": "waves", "emote": True}]})[1:] == [
        "10:02 ann: hi", "10:03 * bob waves"]
    listed = shown({"type": "channels", "channels": [{"name": "wizard", "builtin": True, "members": ["ann", "Bob"]}]})
    assert any("#wizard" in line and "ann, Bob" in line for line in listed)
