"""Wizard's screen: the table view of the rules page, event lines and the score sheet, within 80 columns."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from mudwiz.games.base import Event, Phase
from mudwiz.games.wizard.analysis_view import analysis_lines as analysis_lines  # the coach's (/analyze)
from mudwiz.games.wizard.names import suit_name
from mudwiz.games.wizard.phases import BIDDING, TRUMP
from mudwiz.games.wizard.texts import _, _n
from mudwiz.render.common import (
    COMPACT_BELOW,
    confirmations,
    event_message,
    flow,
    last_trick,
    name_cell,
    name_column,
    rating_heading,
    round_over,
    row_tags,
    standings,
    tag_rows,
    trick_order,
    trick_taken,
    your_hand,
)
from mudwiz.render.style import Style, pad, truncate, visible_len, wrap_words

ROUND = "round"  # what this game calls one deal played out: said in the prompts after it


def _suit(style: Style, suit: str | None) -> str:
    if suit is None:
        return _("none")
    colour = {"B": "blue", "G": "green", "R": "red", "Y": "yellow"}[suit]  # i18n: not text (colour names)
    return style.paint(str(suit_name(suit)), colour, "bold")


def _signed(n: int) -> str:
    return f"{n:+d}"


def _right(text: str, width: int) -> str:
    """``text`` right-aligned in ``width`` terminal cells: a heading in Japanese counts two a character."""
    return " " * max(0, width - visible_len(text)) + text


def table_view(view: dict[str, Any], style: Style) -> list[str]:
    """The seated player's (or an observer's) picture of the table."""
    t = view
    lines = [style.rule(_n("Wizard - round {round}/{rounds}, {n} card", "Wizard - round {round}/{rounds}, {n} cards",
                           t["cards"], round=t["round"], rounds=t["rounds"]))]
    trump = t["trump"]
    if trump["card"] is None:
        trump_text = _("none (no stock: every card dealt)")
    elif trump["suit"] is None and trump["card"] == "Z":
        trump_text = _("Wizard turned: the dealer names trump")
    else:
        turned = style.card(trump["card"], bare=True)
        trump_text = _("{suit} (turned {card})", suit=_suit(style, trump["suit"]), card=turned)
    lines += wrap_words(" " + _("Trump: {trump}", trump=trump_text), style.width, indent=3)
    follow = _suit(style, t["lead"]) if t["lead"] else (_("anything") if t["trick"] else "-")
    lines += flow([_("Dealer: {name}", name=style.text(t["dealer"])), _("Leads: {name}", name=style.text(t["leader"])),
                   _("Follow: {suit}", suit=follow)], style.width)
    rows, seen = _player_rows(t, style)
    lines += rows
    if seen:
        lines += wrap_words(" " + _("Clairvoyance: you see the card each other player holds, never your own."),
                            style.width, indent=3)
    lines.extend(last_trick(t, style, lambda c: style.card(c, bare=True)))
    lines.extend(confirmations(t, style))
    lines.extend(your_hand(view, style))
    lines.append(prompt(view, style))
    return lines



def _player_rows(t: dict[str, Any], style: Style) -> tuple[list[str], bool]:
    """The players' heading and a row each, in trick order; whether a card another holds was shown (clairvoyance).
    Below ``COMPACT_BELOW`` columns the figures' columns narrow and the names are as wide as they need and the
    row leaves room for (``name_column``), so that the window's wrapping never squeezes a row's columns out from
    under the heading's."""
    compact = style.width < COMPACT_BELOW
    cells: list[tuple[dict[str, Any], str, str]] = []
    seen = False
    for p in trick_order(t):
        bid = "?" if p["bid"] is None else str(p["bid"])
        if p["bid"] is None and p["has_bid"]:
            bid = "*"  # bid made but not visible to you
        words = row_tags(t, p, style)
        if p.get("cards"):
            words.append("holds " + " ".join(style.card(c, bare=True) for c in p["cards"]))
            seen = True
        cells.append((p, bid, ", ".join(words)))
    # 28: a compact heading's other columns (a row's are one fewer)
    nw = name_column(t["players"], style, 28, (tags for *_cells, tags in cells))
    player, score, now, card = _("player"), _("score"), _("(now)"), _("card")
    if compact:
        taken = _("t/bid")
        heading = f"   {pad(player, nw)} {_right(score, 5)} {_right(now, 6)} {_right(taken, 5)}  {card}"
    else:
        taken = _("tricks/bid")
        heading = f"   {pad(player, 16)} {_right(score, 6)} {_right(now, 7)} {_right(taken, 10)}  {card}"
    tags_at = nw + 29 if compact else 52  # where a row's tags begin
    rows = [style.paint(rating_heading(heading, tags_at, t["players"], style.width), "grey")]
    for p, bid, tags in cells:
        marker = ">" if p["name"] in t["waiting"] else " "
        now = "" if p["projected"] is None else f"({p['projected']})"
        played = style.card(p["played"], bare=True) if p["played"] else style.paint("--", "grey")
        name = name_cell(p, t, style, nw)
        if compact:
            row = f" {marker} {name} {p['score']:>5} {now:>6} {p['tricks']:>2}/{bid:<2}  {pad(played, 3)}"
        else:
            row = f" {marker} {name} {p['score']:>6} {now:>7} {p['tricks']:>5}/{bid:<4}  {pad(played, 3)}"
        rows += tag_rows(row, tags, style.width)
    if any(p["projected"] is not None for p, *_cells in cells):  # the column was never explained
        now_line = " " + _("(now): the score if the round ended with the tricks taken so far.")
        rows += [style.paint(line, "grey") for line in wrap_words(now_line, style.width, indent=3)]
    return rows, seen


def prompt(view: dict[str, Any], style: Style) -> str:
    """One line that says what this viewer is asked to do, or whom the table waits for."""
    over = round_over(view, style, ROUND)
    if over is not None:
        return over
    t = view
    legal = t["legal"]
    if not legal:
        who = ", ".join(style.text(n) for n in t["waiting"]) or _("nobody")
        if t["phase"] == TRUMP:
            return " " + _("Waiting for {who} to name trump.", who=who)
        if t["phase"] == BIDDING:
            return " " + _("Waiting for {who} to bid.", who=who)
        if t["phase"] == Phase.PLAYING:
            return " " + _("Waiting for {who} to play.", who=who)
        return " " + _("Waiting for {who} to act.", who=who)
    verb = legal[0].split()[0]
    if verb == "trump":
        return style.bold(" " + _("Your turn: name trump with /trump B|G|R|Y."))
    if verb == "bid":
        bids = [a.split()[1] for a in legal]
        banned = t.get("forbidden_bid")
        if banned is not None:
            return style.bold(" " + _("Your turn: /bid {low}..{high} (not {banned}: notequal).", low=bids[0],
                                      high=bids[-1], banned=banned))
        return style.bold(" " + _("Your turn: /bid {low}..{high}.", low=bids[0], high=bids[-1]))
    if legal == ["play ?"]:
        return style.bold(" " + _("Your turn: you cannot see your card: /play ?"))
    if t["leader"] == t["you"] and not t["trick"]:
        return style.bold(" " + _("Your turn to lead: /play CARD (playable cards marked)."))
    return style.bold(" " + _("Your turn to play: /play CARD (playable cards marked)."))


def score_sheet(view: dict[str, Any], style: Style) -> list[str]:
    """Bids, tricks and totals of every round so far."""
    names = [p["name"] for p in view["players"]]
    col = max(9, min(12, (78 - 8) // max(1, len(names))))
    rnd = _right(_("rnd"), 3)
    heads = "".join(pad(truncate(style.text(n), col - 1), col) for n in names)
    lines = [style.rule(_("Score sheet")), f"  {rnd}  {heads}"]
    for entry in view["sheet"]:
        by_name = {r["player"]: r for r in entry["results"]}
        cells = []
        for n in names:
            r = by_name[n]
            cell = f"{r['score']}({r['tricks']}/{r['bid']})"
            cells.append(pad(style.paint(cell, "green" if r["delta"] > 0 else "red"), col))
        lines.append(f"  {entry['round']:>3}  " + "".join(cells))
    if not view["sheet"]:
        lines.append("  " + _("(no round scored yet)"))
    return lines


def results(round_no: int, rows: list[dict[str, Any]], style: Style) -> list[str]:
    lines = [style.rule(_("Round {round} result", round=round_no))]
    for r in rows:
        mark = style.paint(_("made it"), "green") if r["delta"] > 0 else style.paint(_("missed"), "red")
        lines.append(f"   {pad(style.text(r['player']), 16)} " + _(
            "bid {bid:>2}  took {tricks:>2}  {delta:>5}  = {score:>5}  {mark}", bid=r["bid"], tricks=r["tricks"],
            delta=_signed(r["delta"]), score=r["score"], mark=mark))
    return lines




def event_lines(message: Mapping[str, Any] | Event, style: Style) -> list[str]:
    """The short lines a player reads as things happen, from the event's message (see ``event_message``)."""
    e = event_message(message)
    kind = e["type"]
    if kind == "round_start":
        return [style.bold(_n("Round {round}: {n} card each; {dealer} deals, {leader} leads.",
                              "Round {round}: {n} cards each; {dealer} deals, {leader} leads.", e["cards"],
                              round=e["round"], dealer=style.text(e["dealer"]), leader=style.text(e["leader"])))]
    if kind == "trump_turned":
        if e["card"] is None:
            return [_("Every card is dealt: no trump this round.")]
        if e["card"] == "N":
            return [_("Turned {card}: a Jester, no trump this round.", card=style.card("N", bare=True))]
        if e["card"] == "Z":
            return [_("Turned {card}: a Wizard! {chooser} names trump.", card=style.card("Z", bare=True),
                      chooser=style.text(e["chooser"]))]
        return [_("Turned {card}: trump is {suit}.", card=style.card(e["card"], bare=True),
                  suit=_suit(style, e["suit"]))]
    if kind == "trump_chosen":
        return [_("{player} names trump: {suit}.", player=style.text(e["player"]), suit=_suit(style, e["suit"]))]
    if kind == "bid_made":
        if e["bid"] is None:
            return [_("{player} has bid.", player=style.text(e["player"]))]
        return [_("{player} bids {bid}.", player=style.text(e["player"]), bid=e["bid"])]
    if kind == "bids_revealed":
        bids = ", ".join(f"{style.text(n)} {b}" for n, b in e["bids"].items())
        return [_("Bids revealed: {bids}.", bids=bids)]
    if kind == "card_played":
        return [_("{player} plays {card}.", player=style.text(e["player"]), card=style.card(e["card"], bare=True))]
    if kind == "trick":
        return [trick_taken(e, style, lambda c: style.card(c, bare=True))]
    if kind == "round_end":
        return results(e["round"], e["results"], style)
    if kind == "game_end":
        return standings(e["standings"], style)
    return []
