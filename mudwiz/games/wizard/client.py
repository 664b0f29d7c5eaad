"""Wizard in the client's table pane: score, the projected score while a round is played, tricks/bid, the card;
under clairvoyance (round 1) the card each other player holds."""

from __future__ import annotations

from typing import Any

from mudwiz.client.events import STYLE
from mudwiz.client.panes import Column, card_cell
from mudwiz.games.base import Phase
from mudwiz.games.wizard.names import suit_name
from mudwiz.games.wizard.phases import BIDDING, TRUMP
from mudwiz.games.wizard.texts import _
from mudwiz.render.style import SUIT_COLOUR, visible_len


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
    """The pane's columns, titled in the reader's language (a Japanese title counts two cells a character)."""
    score, now, tricks, card = _("score"), _("(now)"), _("tricks/bid"), _("card")
    cols = [
        Column(score, max(6, visible_len(score)), lambda p: str(p["score"])),
        Column(now, max(7, visible_len(now)), lambda p: projected(state, p), optional=True),
        Column(tricks, max(10, visible_len(tricks)), lambda p: f"{p.get('tricks', 0)}/{bid_cell(p)}"),
        Column(card, max(4, visible_len(card)), lambda p: card_cell(p.get("played")), left=True),
    ]
    held = [holds(p) for p in state.get("players", [])]
    if any(held):  # clairvoyance: what you bid on, so never an optional column
        title = _("holds")
        cols.append(Column(title, max(5, visible_len(title), *(visible_len(h) for h in held)), holds, left=True))
    return cols


def holds(player: dict[str, Any]) -> str:
    """The cards clairvoyance shows of another player's hand (``players[].cards``, round 1), as the terminal's
    ``holds R5``; blank for your own row and once the card is played."""
    return " ".join(STYLE.card(str(c), bare=True) for c in player.get("cards") or [])


def _suit_word(letter: str | None) -> str:
    """A suit painted in its colour, named in the reader's language (赤 in Japanese)."""
    if letter is None:
        return _("none")
    return STYLE.paint(str(suit_name(letter)), SUIT_COLOUR.get(letter, "white"), "bold")


def info_segments(state: dict[str, Any]) -> list[str]:
    segs = []
    trump = state.get("trump") or {}
    if trump.get("card") is None:
        segs.append(_("Trump: none (every card dealt)"))
    elif trump.get("suit") is None and trump.get("card") == "Z":
        segs.append(_("Trump: {card} turned, the dealer names it", card=STYLE.card("Z")))
    else:
        segs.append(_("Trump: {suit} (turned {card})", suit=_suit_word(trump.get("suit")),
                      card=STYLE.card(trump["card"])))
    follow = _suit_word(state["lead"]) if state.get("lead") else (_("anything") if state.get("trick") else "-")
    segs.append(_("Follow: {suit}", suit=follow))
    if any(holds(p) for p in state.get("players", [])):
        segs.append(_("Clairvoyance: you see the others' cards, never your own"))
    return segs
