"""The terminal client and finding a game: seeks, matches and rematches readable in its log; ``/seek`` and
``/quick GAME`` completed by Tab."""

from __future__ import annotations

from prompt_toolkit.completion import CompleteEvent
from prompt_toolkit.document import Document

from mudwiz.client.completion import CommandCompleter
from mudwiz.client.events import message_lines
from mudwiz.client.model import Model
from mudwiz.render.style import strip_ansi


def texts(completer: CommandCompleter, line: str) -> list[str]:
    return [c.text for c in completer.get_completions(Document(line), CompleteEvent(completion_requested=True))]


def completer() -> CommandCompleter:
    model = Model()
    model.apply({"type": "welcome", "name": "ann"})
    return CommandCompleter(model)


def test_seek_and_quick_are_completed_by_tab() -> None:
    c = completer()
    assert texts(c, "/se") == ["/seek", "/seeks"] and sorted(texts(c, "/qu")) == ["/quick", "/quit"]
    assert texts(c, "/quick w") == ["wizard", "witches"] == texts(c, "/seek w")
    assert texts(c, "/seek wizard ra") == ["rated"] and texts(c, "/seek wizard 4 m") == ["min=", "max="]
    assert "rounds" in texts(c, "/seek wizard r") and texts(c, "/seek nosuchgame r") == []


def plain(message: dict) -> list[str]:
    return [strip_ansi(line) for line in message_lines(message)]


def test_seeks_matches_and_rematches_read_in_the_log() -> None:
    listed = plain({"type": "seeks", "seeks": [
        {"id": 1, "who": "ann", "game": "wizard", "players": 4, "rated": False, "options": {"rounds": "3"},
         "min": 1400, "max": 1800, "rating": 1000, "bots_after": None},
        {"id": 2, "who": "bob", "game": "witches", "players": 4, "rated": True, "options": {}, "min": None,
         "max": None, "rating": 1200, "bots_after": 30}]})
    assert "Seeks (2)" in listed[0]
    assert "ann" in listed[1] and "wizard" in listed[1] and "1400-1800" in listed[1] and "rounds=3" in listed[1]
    assert "bob" in listed[2] and "rated" in listed[2] and "bots in 30 s" in listed[2]
    assert "No open seeks" in plain({"type": "seeks", "seeks": []})[1]
    matched = plain({"type": "matched", "table": 3, "game": "wizard", "rated": False, "players": ["ann", "bob"],
                     "bots": 2, "countdown": 5})
    assert matched == ["* Your seek is matched: wizard at table 3 with ann, bob and 2 bots; it starts in 5 s "
                       "(/leave backs out)."]
    again = plain({"type": "again", "table": 3, "agreed": ["ann"], "waiting": ["bob"]})
    assert again == ["* Rematch at table 3: agreed ann; waiting for bob (/again)."]
