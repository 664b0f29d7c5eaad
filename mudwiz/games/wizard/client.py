"""Wizard in the client's table pane: score, the projected score while a round is played, tricks/bid, the card;
under clairvoyance (round 1) the card each other player holds."""

from __future__ import annotations

from typing import Any

from mudwiz.client.events import STYLE
from mudwiz.client.panes import Column, card_cell, suit
from mudwiz.games.base import Phase
from mudwiz.games.wizard.phases import BIDDING, TRUMP
from mudwiz.render.style import visible_len


def bid_cell(p: dict[str, Any]) -> str:
    """A bid as the pane shows it: ``?`` not yet made, ``*`` made but hidden from you."""
    if p.get("bid") is None:
        return "*" if p.get("has_bid") else "?"
    return str(p["bid"])


def projected(state: dict[str, Any], p: dict[str, Any]) -> str:
    """A player's projected score, only while a round is being played: after it, the score is final."""
    live = state.get("phase") in (TRUMP, BIDDING, Phase.PLAYING)
    return f"({p['projected']})" if live and p.get("projected") is not None else ""


def columns(state: dict[str, Any]) -> list[Column]:
    cols = [
        Column("score", 6, lambda p: str(p["score"])),
        Column("(now)", 7, lambda p: projected(state, p), optional=True),
        Column("tricks/bid", 10, lambda p: f"{p.get('tricks', 0)}/{bid_cell(p)}"),
        Column("card", 4, lambda p: card_cell(p.get("played")), left=True),
    ]
    held = [holds(p) for p in state.get("players", [])]
    if any(held):  # clairvoyance: what you bid on, so never an optional column
        cols.append(Column("holds", max(5, *(visible_len(h) for h in held)), holds, left=True))
    return cols


def holds(player: dict[str, Any]) -> str:
    """The cards clairvoyance shows of another player's hand (``players[].cards``, round 1), as the terminal's
    ``holds R5``; blank for your own row and once the card is played."""
    return " ".join(STYLE.card(str(c), bare=True) for c in player.get("cards") or [])


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
    if any(holds(p) for p in state.get("players", [])):
        segs.append("Clairvoyance: you see the others' cards, never your own")
    return segs
