"""Witches' screen: the table view of the rules page, event lines and the score sheet, within 80 columns.

Fire points are bad, so a hand's points are painted red and a clean hand green. Every line is built from the
engine's view or events alone (what this viewer may know), so the renderer cannot leak a hidden card.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from mudwiz.cards import SUIT_NAMES
from mudwiz.games.base import Event, Phase
from mudwiz.games.witches.phases import PASSING, SPELL
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
from mudwiz.render.style import SUIT_COLOUR, WIDTH, Style, pad, truncate, visible_len, wrap_cards

ROUND = "hand"  # what this game calls one deal played out: said in the prompts after it
SPECIAL_NAMES = {"R11": "fire witch", "G11": "water witch", "Y11": "earth witch", "B11": "air witch",
                 "G12": "pygmy queen"}
SPELL_NAMES = {20: "water spell", 25: "pygmy spell", 30: "great fire spell"}
TOWARDS = {"left": "to the left", "right": "to the right", "opposite": "across the table"}


def _colour(style: Style, suit: str | None) -> str:
    if suit is None:
        return "none"
    return style.paint(SUIT_NAMES[suit], SUIT_COLOUR[suit], "bold")


def _card(style: Style, code: str) -> str:
    """A card inside a sentence: coloured, without the padding of a row of cards."""
    return style.card(code, bare=True)


def _spell(points: int) -> str:
    return SPELL_NAMES.get(points, f"{points}-point spell")


def _names(style: Style, names: list[str]) -> str:
    return ", ".join(style.text(n) for n in names) or "nobody"


def table_view(view: dict[str, Any], style: Style) -> list[str]:
    """The seated player's (or an observer's) picture of the table."""
    t = view
    hand_no = f"hand {t['round']}" + (f"/{t['rounds']}" if t["rounds"] else "")
    ends = f", game ends at {t['limit']}" if t["limit"] is not None else ""
    title = f"Witches - {hand_no}, {t['cards']} cards each{ends}"
    if len(title) + 4 > style.width:  # a narrow window: one row still
        title = f"Witches - {hand_no}, {t['cards']} cards" + (f", ends at {t['limit']}" if ends else "")
    lines = [style.rule(title)]
    follow = _colour(style, t["lead"]) if t["lead"] else ("anything" if t["trick"] else "-")
    lines += flow([f"Dealer: {style.text(t['dealer'])}", f"Leads: {style.text(t['leader'])}", f"Follow: {follow}"],
                    style.width)
    passing = t["phase"] == PASSING
    if passing:
        p = t["pass"]
        to = f"to {style.text(p['to'])} " if p["to"] else ""
        done = sum(q["has_passed"] for q in t["players"])
        lines.append(f" Pass {p['count']} cards {to}({p['direction']}); {done} of {len(t['players'])} have passed.")
    lines += _player_rows(t, style, passing)
    lines.extend(last_trick(_last_trick_shown(t), style, lambda c: _card(style, c)))
    lines.extend(confirmations(t, style))
    if t.get("spell"):
        s = t["spell"]
        lines.append(style.bold(f" {style.text(s['player'])} cast the {_spell(s['points'])} ({s['points']})."))
    if t["you"] is not None:
        if t.get("passed"):
            lines.append(" You passed:   " + " ".join(_card(style, c) for c in t["passed"]))
        if t.get("received"):
            lines.append(" You received: " + " ".join(_card(style, c) for c in t["received"]))
    lines.extend(your_hand(view, style))
    lines.append(prompt(view, style))
    return lines


def _last_trick_shown(t: dict[str, Any]) -> dict[str, Any]:
    """The view the last trick is drawn from: to a player who has not played into the trick under way, as if it
    had no card yet, so the last trick (who played what, who took it) is still there when their turn comes; it
    was gone once the taker led, and the player's own table view is drawn only at their turn."""
    mine = t["you"] is not None and any(c["player"] == t["you"] for c in t["trick"])
    return t if mine or t["you"] is None else {**t, "trick": []}


def _player_rows(t: dict[str, Any], style: Style, passing: bool) -> list[str]:
    """The players' heading and a row each, in trick order; compact below ``COMPACT_BELOW`` columns, as Wizard's
    (``render.wizard._player_rows``)."""
    width = 6 if passing else 3  # the last column's: "passed" over yes/--, "card" over a card
    compact = style.width < COMPACT_BELOW
    figures = (5, 4, 6) if compact else (6, 5, 6)  # total, fire, tricks
    tags = {p["name"]: ", ".join(row_tags(t, p, style, after_play=(SPELL,))) for p in t["players"]}
    rest = 3 + sum(f + 1 for f in figures) + 2 + width  # a row's other columns (its heading's alike)
    nw = name_column(t["players"], style, rest, tags.values())
    heading = (f"   {'player':<{nw}} {'total':>{figures[0]}} {'fire':>{figures[1]}} {'tricks':>{figures[2]}}  "
               f"{'passed' if passing else 'card'}")
    tags_at = nw + rest + 2  # where a row's tags begin: 43 + width when wide
    rows = [style.paint(rating_heading(heading, tags_at, t["players"], style.width), "grey")]
    for p in trick_order(t):
        marker = ">" if p["name"] in t["waiting"] else " "
        if passing:
            played = "yes" if p["has_passed"] else style.paint("--", "grey")
        else:
            played = _card(style, p["played"]) if p["played"] else style.paint("--", "grey")
        fire = f"{p['points']:>{figures[1]}}"
        fire = style.paint(fire, "red") if p["points"] else fire
        row = (f" {marker} {name_cell(p, t, style, nw)} {p['score']:>{figures[0]}} {fire} "
               f"{p['tricks']:>{figures[2]}}  {pad(played, width)}")
        rows += tag_rows(row, tags[p["name"]], style.width)
    return rows


def prompt(view: dict[str, Any], style: Style) -> str:
    """One line that says what this viewer is asked to do, or whom the table waits for."""
    over = round_over(view, style, ROUND)
    if over is not None:
        return over
    t = view
    legal = t["legal"]
    if not legal:
        doing = {PASSING: "pass", Phase.PLAYING: "play",
                 SPELL: "choose what the spell does"}.get(t["phase"], "act")
        line = f" Waiting for {_names(style, t['waiting'])} to {doing}."
        short = f" Waiting for {len(t['waiting'])} players to {doing} (marked >)."
        return line if visible_len(line) <= WIDTH else short
    verb = legal[0].split()[0]
    if verb == "pass":
        p = t["pass"]
        cards = " ".join(f"C{i + 1}" for i in range(p["count"]))
        return style.bold(f" Your turn: pass {p['count']} cards to {style.text(p['to'])}: /pass {cards}")
    if verb == "spell":
        points = t["spell"]["points"]
        return style.bold(f" Your spell: /spell give (the others score {points}) or /spell take ({points} off yours)")
    lead = t["leader"] == t["you"] and not t["trick"]
    return style.bold(f" Your turn to {'lead' if lead else 'play'}: /play CARD (playable cards marked).")


def score_sheet(view: dict[str, Any], style: Style) -> list[str]:
    """Running totals after every hand, with each hand's change in brackets; spells noted underneath."""
    names = [p["name"] for p in view["players"]]
    col = max(9, min(12, (78 - 8) // max(1, len(names))))
    lines = [style.rule("Score sheet"), "  hand " + "".join(pad(truncate(style.text(n), col - 1), col) for n in names)]
    notes = []
    for entry in view["sheet"]:
        by_name = {r["player"]: r for r in entry["results"]}
        cells = []
        for n in names:
            r = by_name[n]
            cell = f"{r['score']}({r['delta']:+d})"
            cells.append(pad(style.paint(cell, "red" if r["delta"] > 0 else "green"), col))
        lines.append(f"  {entry['round']:>4} " + "".join(cells))
        spell = entry.get("spell")
        if spell:
            how = "given to the others" if spell["choice"] == "give" else "taken off their total"
            notes.append(f"  hand {entry['round']}: {style.text(spell['player'])}'s {_spell(spell['points'])} "
                         f"({spell['points']}): {how}.")
    if not view["sheet"]:
        lines.append("  (no hand scored yet)")
    return lines + notes


def results(round_no: int, rows: list[dict[str, Any]], style: Style) -> list[str]:
    lines = [style.rule(f"Hand {round_no} result"),
             style.paint(f"   {'player':<16} {'tricks':>6} {'fire':>5} {'change':>7} {'total':>7}", "grey")]
    for r in rows:
        change = f"{r['delta']:+d}"
        lines.append(f"   {pad(style.text(r['player']), 16)} {r['tricks']:>6} {r['points']:>5} "
                     + style.paint(f"{change:>7}", "red" if r["delta"] > 0 else "green") + f" {r['score']:>7}")
    return lines




def _taken(cards: list[str], style: Style) -> list[str]:
    """The cards of a trick that count for fire points, named, laid out within 80 columns."""
    counted = [c for c in cards if c.startswith("R") or c in SPECIAL_NAMES]
    if not counted:
        return []
    pieces = [f"{_card(style, c)}{' (' + SPECIAL_NAMES[c] + ')' if c in SPECIAL_NAMES else ''} " for c in counted]
    lines = wrap_cards(pieces, width=78, indent=9)
    return [line.rstrip() for line in ["  takes: " + lines[0][9:], *lines[1:]]]


def event_lines(message: Mapping[str, Any] | Event, style: Style) -> list[str]:
    """The short lines a player reads as things happen, from the event's message (see ``event_message``)."""
    e = event_message(message)
    kind = e["type"]
    if kind == "hand_start":
        return [style.bold(f"Hand {e['round']}: {e['cards']} cards each; {style.text(e['dealer'])} deals, "
                           f"{style.text(e['leader'])} leads."),
                f"Everyone passes {e['pass_count']} cards {TOWARDS[e['direction']]}."]
    if kind == "cards_passed":
        what = " ".join(_card(style, c) for c in e["cards"]) if e["cards"] else f"{e['count']} cards"
        return [f"{style.text(e['player'])} passes {what} to {style.text(e['to'])}."]
    if kind == "pass_done":
        lines = ["Everyone has passed."]
        for r in e["received"]:
            got = " ".join(_card(style, c) for c in r["cards"])
            lines.append(f"{style.text(r['player'])} receives from {style.text(r['from'])}: {got}")
        return lines
    if kind == "card_played":
        return [f"{style.text(e['player'])} plays {_card(style, e['card'])}."]
    if kind == "trick":
        return [trick_taken(e, style, lambda c: _card(style, c)), *_taken([c["card"] for c in e["cards"]], style)]
    if kind == "spell_cast":
        who = style.text(e["player"])
        lines = [style.paint(f"{who} casts the {_spell(e['points'])}: {e['points']} points!", "magenta", "bold")]
        if e["choosing"]:
            lines.append(f"The hand ends the game: {who} chooses /spell give or /spell take.")
        else:
            lines.append(f"Everyone else scores {e['points']}.")
        return lines
    if kind == "spell_chosen":
        who = style.text(e["player"])
        if e["choice"] == "give":
            return [f"{who} gives the spell: everyone else scores {e['points']}."]
        return [f"{who} takes the spell: {e['points']} off their own total."]
    if kind == "round_end":
        return results(e["round"], e["results"], style)
    if kind == "game_end":
        return standings(e["standings"], style)
    return []
