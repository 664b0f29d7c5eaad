"""Tiltowait in the client's table pane: cards held, score, asleep or karuki; the top card, colour and direction."""

from __future__ import annotations

from typing import Any

from mudwiz.client.events import STYLE
from mudwiz.client.panes import Column, card, suit


def columns(state: dict[str, Any]) -> list[Column]:
    return [
        Column("cards", 5, lambda p: str(p.get("held", ""))),
        Column("score", 6, lambda p: str(p["score"])),
        Column("", 9, lambda p: STYLE.paint("asleep", "grey") if p.get("asleep") else
               STYLE.paint("karuki!", "yellow", "bold") if p.get("karuki") else "", optional=True, left=True),
    ]


def info_segments(state: dict[str, Any]) -> list[str]:
    game = state.get("game", "tiltowait")
    segs = []
    if state.get("top"):
        segs.append(f"Top: {card(state['top'], game=game)}")
    segs.append(f"Colour: {suit(state.get('colour'), game)}")
    arrow = {"cw": "clockwise", "ccw": "counter-clockwise"}.get(state.get("direction", ""), state.get("direction"))
    segs.append(f"Direction: {arrow}")
    if state.get("pending"):
        segs.append(STYLE.paint(f"Draw pending: {state['pending']}", "red", "bold"))
    segs.append(f"Stock {state.get('stock', '?')} / discard {state.get('discard', '?')}")
    if state.get("next"):
        segs.append(f"Next: {STYLE.text(state['next'])}")
    return segs
