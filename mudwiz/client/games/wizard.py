"""Wizard in the client's table pane: score, the projected score while a round is played, tricks/bid, the card."""

from __future__ import annotations

from typing import Any

from mudwiz.client.events import STYLE
from mudwiz.client.panes import Column, bid_cell, card_cell, projected, suit


def columns(state: dict[str, Any]) -> list[Column]:
    return [
        Column("score", 6, lambda p: str(p["score"])),
        Column("(now)", 7, lambda p: projected(state, p), optional=True),
        Column("tricks/bid", 10, lambda p: f"{p.get('tricks', 0)}/{bid_cell(p)}"),
        Column("card", 4, lambda p: card_cell(p.get("played")), left=True),
    ]


def info_segments(state: dict[str, Any]) -> list[str]:
    segs = []
    trump = state.get("trump") or {}
    if trump.get("card") is None:
        segs.append("Trump: none (every card dealt)")
    elif trump.get("suit") is None and trump.get("card") == "Z":
        segs.append(f"Trump: {STYLE.card('Z')} turned, the dealer names it")
    else:
        segs.append(f"Trump: {suit(trump.get('suit'))} (turned {STYLE.card(trump['card'])})")
    follow = suit(state["lead"]) if state.get("lead") else ("anything" if state.get("trick") else "-")
    segs.append(f"Follow: {follow}")
    return segs
