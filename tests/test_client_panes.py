"""The client's log words and panes, fed real messages: tables played in this process (``client_tables``) send
what a server would, and the client's model, log lines and panes are checked as a person would read them.
"""

from __future__ import annotations

from client_tables import Run

from mudwiz.client.events import message_lines
from mudwiz.render.style import strip_ansi


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
