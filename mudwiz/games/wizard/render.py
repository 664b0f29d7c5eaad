"""Wizard's screen: the table view of the rules page, event lines and the score sheet, within 80 columns."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from mudwiz.cards import SUIT_NAMES
from mudwiz.games.base import Event, Phase
from mudwiz.games.wizard.phases import BIDDING, TRUMP
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
from mudwiz.render.style import Style, counted, pad, truncate, wrap_words

ROUND = "round"  # what this game calls one deal played out: said in the prompts after it


def _suit(style: Style, suit: str | None) -> str:
    if suit is None:
        return "none"
    colour = {"B": "blue", "G": "green", "R": "red", "Y": "yellow"}[suit]
    return style.paint(SUIT_NAMES[suit], colour, "bold")


def _signed(n: int) -> str:
    return f"{n:+d}"


def table_view(view: dict[str, Any], style: Style) -> list[str]:
    """The seated player's (or an observer's) picture of the table."""
    t = view
    lines = [style.rule(f"Wizard - round {t['round']}/{t['rounds']}, {t['cards']} card{'s' * (t['cards'] > 1)}")]
    trump = t["trump"]
    if trump["card"] is None:
        trump_text = "none (no stock: every card dealt)"
    elif trump["suit"] is None and trump["card"] == "Z":
        trump_text = "Wizard turned: the dealer names trump"
    else:
        turned = style.card(trump["card"], bare=True)
        trump_text = f"{_suit(style, trump['suit'])} (turned {turned})"
    lines.append(f" Trump: {trump_text}")
    follow = _suit(style, t["lead"]) if t["lead"] else ("anything" if t["trick"] else "-")
    lines += flow([f"Dealer: {style.text(t['dealer'])}", f"Leads: {style.text(t['leader'])}", f"Follow: {follow}"],
                    style.width)
    rows, seen = _player_rows(t, style)
    lines += rows
    if seen:
        lines.append(" Clairvoyance: you see the card each other player holds, never your own.")
    lines.extend(last_trick(t, style, lambda c: style.card(c, bare=True)))
    lines.extend(confirmations(t, style))
    lines.extend(your_hand(view, style))
    lines.append(prompt(view, style))
    return lines


NOW = " (now): the score if the round ended with the tricks taken so far."


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
    nw = name_column(t["players"], style, 28, (tags for _, _, tags in cells))
    if compact:
        heading = f"   {'player':<{nw}} {'score':>5} {'(now)':>6} {'t/bid':>5}  card"
    else:
        heading = f"   {'player':<16} {'score':>6} {'(now)':>7} {'tricks/bid':>10}  card"
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
    if any(p["projected"] is not None for p, _, _ in cells):  # the column was never explained
        rows += [style.paint(line, "grey") for line in wrap_words(NOW, style.width, indent=3)]
    return rows, seen


def prompt(view: dict[str, Any], style: Style) -> str:
    """One line that says what this viewer is asked to do, or whom the table waits for."""
    over = round_over(view, style, ROUND)
    if over is not None:
        return over
    t = view
    legal = t["legal"]
    if not legal:
        who = ", ".join(style.text(n) for n in t["waiting"]) or "nobody"
        doing = {TRUMP: "name trump", BIDDING: "bid", Phase.PLAYING: "play"}.get(t["phase"], "act")
        return f" Waiting for {who} to {doing}."
    verb = legal[0].split()[0]
    if verb == "trump":
        return style.bold(" Your turn: name trump with /trump B|G|R|Y.")
    if verb == "bid":
        bids = [a.split()[1] for a in legal]
        banned = t.get("forbidden_bid")
        extra = f" (not {banned}: notequal)" if banned is not None else ""
        return style.bold(f" Your turn: /bid {bids[0]}..{bids[-1]}{extra}.")
    if legal == ["play ?"]:
        return style.bold(" Your turn: you cannot see your card: /play ?")
    lead = t["leader"] == t["you"] and not t["trick"]
    return style.bold(f" Your turn to {'lead' if lead else 'play'}: /play CARD (playable cards marked).")


def score_sheet(view: dict[str, Any], style: Style) -> list[str]:
    """Bids, tricks and totals of every round so far."""
    names = [p["name"] for p in view["players"]]
    col = max(9, min(12, (78 - 8) // max(1, len(names))))
    lines = [style.rule("Score sheet"), "  rnd  " + "".join(pad(truncate(style.text(n), col - 1), col) for n in names)]
    for entry in view["sheet"]:
        by_name = {r["player"]: r for r in entry["results"]}
        cells = []
        for n in names:
            r = by_name[n]
            cell = f"{r['score']}({r['tricks']}/{r['bid']})"
            cells.append(pad(style.paint(cell, "green" if r["delta"] > 0 else "red"), col))
        lines.append(f"  {entry['round']:>3}  " + "".join(cells))
    if not view["sheet"]:
        lines.append("  (no round scored yet)")
    return lines


def results(round_no: int, rows: list[dict[str, Any]], style: Style) -> list[str]:
    lines = [style.rule(f"Round {round_no} result")]
    for r in rows:
        mark = style.paint("made it", "green") if r["delta"] > 0 else style.paint("missed", "red")
        lines.append(
            f"   {pad(style.text(r['player']), 16)} bid {r['bid']:>2}  took {r['tricks']:>2}  "
            f"{_signed(r['delta']):>5}  = {r['score']:>5}  {mark}"
        )
    return lines




def event_lines(message: Mapping[str, Any] | Event, style: Style) -> list[str]:
    """The short lines a player reads as things happen, from the event's message (see ``event_message``)."""
    e = event_message(message)
    kind = e["type"]
    if kind == "round_start":
        return [style.bold(f"Round {e['round']}: {counted(e['cards'], 'card')} each; {style.text(e['dealer'])} deals, "
                           f"{style.text(e['leader'])} leads.")]
    if kind == "trump_turned":
        if e["card"] is None:
            return ["Every card is dealt: no trump this round."]
        if e["card"] == "N":
            return [f"Turned {style.card('N', bare=True)}: a Jester, no trump this round."]
        if e["card"] == "Z":
            return [f"Turned {style.card('Z', bare=True)}: a Wizard! {style.text(e['chooser'])} names trump."]
        return [f"Turned {style.card(e['card'], bare=True)}: trump is {_suit(style, e['suit'])}."]
    if kind == "trump_chosen":
        return [f"{style.text(e['player'])} names trump: {_suit(style, e['suit'])}."]
    if kind == "bid_made":
        if e["bid"] is None:
            return [f"{style.text(e['player'])} has bid."]
        return [f"{style.text(e['player'])} bids {e['bid']}."]
    if kind == "bids_revealed":
        return ["Bids revealed: " + ", ".join(f"{style.text(n)} {b}" for n, b in e["bids"].items()) + "."]
    if kind == "card_played":
        return [f"{style.text(e['player'])} plays {style.card(e['card'], bare=True)}."]
    if kind == "trick":
        return [trick_taken(e, style, lambda c: style.card(c, bare=True))]
    if kind == "round_end":
        return results(e["round"], e["results"], style)
    if kind == "game_end":
        return standings(e["standings"], style)
    return []
