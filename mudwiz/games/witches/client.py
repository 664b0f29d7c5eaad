"""Witches in the client's table pane: score, fire points, tricks, cards held, who has passed, the card."""

from __future__ import annotations

from typing import Any

from mudwiz.client.events import STYLE
from mudwiz.client.panes import Column, card_cell, suit
from mudwiz.render.style import counted


def columns(state: dict[str, Any]) -> list[Column]:
    cols = [
        Column("score", 6, lambda p: str(p["score"])),
        Column("fire", 5, lambda p: str(p.get("points", ""))),
        Column("tricks", 6, lambda p: str(p.get("tricks", ""))),
        Column("held", 5, lambda p: str(p.get("held", "")), optional=True),
    ]
    if state.get("phase") == "passing":
        cols.append(Column("passed", 6, lambda p: "yes" if p.get("has_passed") else "", optional=True))
    return [*cols, Column("card", 4, lambda p: card_cell(p.get("played")), left=True)]


def info_segments(state: dict[str, Any]) -> list[str]:
    segs = []
    if state.get("limit"):
        segs.append(f"Game to {state['limit']}")
    passing = state.get("pass")
    if passing:
        to = STYLE.text(passing["to"]) if passing.get("to") else "?"
        cards = counted(passing["count"], "card")
        segs.append(STYLE.bold(f"Pass {cards} to {to}") + f" ({passing.get('direction', '')})")
    spell = state.get("spell")
    if spell:
        doing = " is choosing give/take" if spell.get("choosing") else ""
        segs.append(f"Spell: {STYLE.text(spell['player'])} ({spell['points']} points){doing}")
    if state.get("lead"):
        segs.append(f"Follow: {suit(state['lead'])}")
    return segs
