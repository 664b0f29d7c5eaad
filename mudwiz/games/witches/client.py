"""Witches in the client's table pane: score, fire points, tricks, cards held, who has passed, the card; in the
language the client speaks (a column is as wide as its heading: a Japanese one takes two cells a character)."""

from __future__ import annotations

from typing import Any

from mudwiz.client.events import STYLE
from mudwiz.client.panes import Column, card_cell, suit
from mudwiz.games.witches.names import direction_now
from mudwiz.games.witches.texts import _, _n
from mudwiz.render.style import cell_width


def _column(title: str, width: int, value: Any, **how: bool) -> Column:
    return Column(title, max(width, cell_width(title)), value, **how)


def columns(state: dict[str, Any]) -> list[Column]:
    cols = [
        _column(_("score"), 6, lambda p: str(p["score"])),
        _column(_("fire"), 5, lambda p: str(p.get("points", ""))),
        _column(_("tricks"), 6, lambda p: str(p.get("tricks", ""))),
        _column(_("held"), 5, lambda p: str(p.get("held", "")), optional=True),
    ]
    if state.get("phase") == "passing":
        yes = _("yes")
        cols.append(_column(_("passed"), 6, lambda p: yes if p.get("has_passed") else "", optional=True))
    return [*cols, _column(_("card"), 4, lambda p: card_cell(p.get("played")), left=True)]


def info_segments(state: dict[str, Any]) -> list[str]:
    segs = []
    if state.get("limit"):
        segs.append(_("Game to {limit}", limit=state["limit"]))
    passing = state.get("pass")
    if passing:
        to = STYLE.text(passing["to"]) if passing.get("to") else "?"
        direction = direction_now(passing.get("direction", ""))
        segs.append(STYLE.bold(_n("Pass {n} card to {to}", "Pass {n} cards to {to}", passing["count"], to=to))
                    + f" ({direction})")
    spell = state.get("spell")
    if spell:
        who = STYLE.text(spell["player"])
        if spell.get("choosing"):
            segs.append(_("Spell: {player} ({points} points) is choosing give/take", player=who,
                          points=spell["points"]))
        else:
            segs.append(_("Spell: {player} ({points} points)", player=who, points=spell["points"]))
    if state.get("lead"):
        segs.append(_("Follow: {colour}", colour=suit(state["lead"])))
    return segs
