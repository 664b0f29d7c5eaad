"""Tiltowait in the client's table pane: cards held, score, asleep or karuki, the rows from the player to play in
the direction of play; the top card, colour and direction, and what the table is answering (a draw, TILTOWAIT,
MILWA)."""

from __future__ import annotations

from typing import Any

from mudwiz.client.events import STYLE, reveal_line, revealed
from mudwiz.client.panes import Column, card, suit
from mudwiz.games.tiltowait.render import play_order, situation_line, spell_name
from mudwiz.games.tiltowait.texts import _


def columns(state: dict[str, Any]) -> list[Column]:
    return [
        Column("cards", 5, lambda p: str(p.get("held", ""))),
        Column("score", 6, lambda p: str(p["score"])),
        Column("", 9, lambda p: STYLE.paint(_("asleep"), "grey") if p.get("asleep") else
               STYLE.paint(_("karuki!"), "yellow", "bold") if p.get("karuki") else "", optional=True, left=True),
    ]


def info_segments(state: dict[str, Any]) -> list[str]:
    game = state.get("game", "tiltowait")
    segs = []
    if state.get("top"):
        segs.append(_("Top: {card}", card=card(state["top"], game=game)))
    segs.append(_("Colour: {colour}", colour=suit(state.get("colour"), game)))
    arrow = {"cw": _("clockwise"), "ccw": _("counter-clockwise")}.get(state.get("direction", ""),
                                                                    state.get("direction"))
    segs.append(_("Direction: {direction}", direction=arrow))
    situation = situation_line(state, STYLE)  # the terminal view's words for a pending answer
    if situation:
        segs.append(STYLE.bold(situation.strip()))
    if state.get("pending"):
        segs.append(STYLE.paint(_("Draw pending: {n}", n=state["pending"]), "red", "bold"))
    segs.append(_("Stock {stock} / discard {discard}", stock=state.get("stock", "?"),
                  discard=state.get("discard", "?")))
    if state.get("next"):
        segs.append(_("Next: {name}", name=STYLE.text(state["next"])))
    return segs


def order(state: dict[str, Any]) -> list[dict[str, Any]]:
    """The rows from the player to play, in the direction play goes (read down: who comes next), as the
    terminal view lists them; seat order before and after the play."""
    return play_order(state)


def first_choice(state: dict[str, Any], before: dict[str, Any] | None) -> str | None:
    """When an answer is newly asked of you, the move that spends nothing: ``/keep`` for a MILWA, else ``/draw``.
    The cursor was on the first spell in hand, so a habitual Enter cancelled with a HAMAN."""
    answer, you = state.get("answer"), state.get("you")
    if not answer or you is None or you not in (state.get("waiting") or []):
        return None
    old = before or {}
    if old.get("answer") == answer and you in (old.get("waiting") or []):
        return None  # asked before: the cursor stays where the player put it
    return "/keep" if answer.get("spell") == "MILWA" else "/draw"


def own_lines(message: dict[str, Any]) -> list[str]:
    """The client's words for an event the renderers leave to the table view (who must answer a TILTOWAIT), or
    that the client words its own way (a MILWA's timed reveal: its cards go to the table pane)."""
    if message["type"] == "tiltowait_turn" and "player" in message:
        return [_("{name} must draw 2 or cancel the {spell}.", name=STYLE.text(message["player"]),
                  spell=spell_name("TILTOWAIT"))]
    if message["type"] == "milwa_reveal" and revealed(message) is not None:
        return [reveal_line(message, _("{name}'s {spell}", name=STYLE.text(str(message.get("caster"))),
                                       spell=spell_name("MILWA")))]
    return []
