"""Witches' screen: the table view of the rules page, event lines and the score sheet, within 80 columns.

Fire points are bad, so a hand's points are painted red and a clean hand green. Every line is built from the
engine's view or events alone (what this viewer may know), so the renderer cannot leak a hidden card.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from mudwiz.games.base import Event, Phase
from mudwiz.games.witches.names import colour_now, direction_now, special_now, spell_now, towards_now
from mudwiz.games.witches.phases import PASSING, SPELL
from mudwiz.games.witches.texts import N_, _
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
from mudwiz.render.style import SUIT_COLOUR, WIDTH, Style, cell_width, pad, truncate, visible_len, wrap_cards

ROUND = "hand"  # what this game calls one deal played out: said in the prompts after it


def _colour(style: Style, suit: str | None) -> str:
    if suit is None:
        return _("none")
    return style.paint(colour_now(suit), SUIT_COLOUR[suit], "bold")


def _card(style: Style, code: str) -> str:
    """A card inside a sentence: coloured, without the padding of a row of cards."""
    return style.card(code, bare=True)


def _names(style: Style, names: list[str]) -> str:
    return ", ".join(style.text(n) for n in names) or _("nobody")


def _right(text: str, width: int) -> str:
    """``text`` right-aligned in ``width`` cells (a wide character counted twice, as ``pad`` counts)."""
    return " " * max(0, width - visible_len(text)) + text


def table_view(view: dict[str, Any], style: Style) -> list[str]:
    """The seated player's (or an observer's) picture of the table."""
    t = view
    hand_no = _("hand {n}/{total}", n=t["round"], total=t["rounds"]) if t["rounds"] else _("hand {n}", n=t["round"])
    if t["limit"] is not None:
        title = _("Witches - {hand}, {cards} cards each, game ends at {limit}", hand=hand_no, cards=t["cards"],
                  limit=t["limit"])
        short = _("Witches - {hand}, {cards} cards, ends at {limit}", hand=hand_no, cards=t["cards"], limit=t["limit"])
    else:
        title = _("Witches - {hand}, {cards} cards each", hand=hand_no, cards=t["cards"])
        short = _("Witches - {hand}, {cards} cards", hand=hand_no, cards=t["cards"])
    if cell_width(title) + 4 > style.width:  # a narrow window: one row still
        title = short
    lines = [style.rule(title)]
    follow = _colour(style, t["lead"]) if t["lead"] else (_("anything") if t["trick"] else "-")
    lines += flow([_("Dealer: {name}", name=style.text(t["dealer"])), _("Leads: {name}", name=style.text(t["leader"])),
                   _("Follow: {colour}", colour=follow)], style.width)
    passing = t["phase"] == PASSING
    if passing:
        p = t["pass"]
        done = sum(q["has_passed"] for q in t["players"])
        fields = {"count": p["count"], "direction": direction_now(p["direction"]), "done": done,
                  "players": len(t["players"])}
        if p["to"]:
            line = _("Pass {count} cards to {to} ({direction}); {done} of {players} have passed.",
                     to=style.text(p["to"]), **fields)
        else:
            line = _("Pass {count} cards ({direction}); {done} of {players} have passed.", **fields)
        lines.append(" " + line)
    lines += _player_rows(t, style, passing)
    lines.extend(last_trick(_last_trick_shown(t), style, lambda c: _card(style, c)))
    lines.extend(confirmations(t, style))
    if t.get("spell"):
        s = t["spell"]
        lines.append(style.bold(" " + _("{player} cast the {spell} ({points}).", player=style.text(s["player"]),
                                         spell=spell_now(s["points"]), points=s["points"])))
    if t["you"] is not None:
        mine = [(_("You passed:"), t.get("passed")), (_("You received:"), t.get("received"))]
        at = max(cell_width(label) for label, _cards in mine) + 1
        lines += [" " + pad(label, at) + " ".join(_card(style, c) for c in cards) for label, cards in mine if cards]
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
    (``render.wizard._player_rows``). A column is as wide as its heading in the reader's language (トリック takes
    eight cells)."""
    last = _("passed") if passing else _("card")
    # the last column's: "passed" over yes/--, "card" over a card (a heading may stand one cell past it, as "card")
    width = max(6 if passing else 3, cell_width(last) - 1)
    compact = style.width < COMPACT_BELOW
    labels = (_("total"), _("fire"), _("tricks"))
    figures = [max(f, cell_width(label)) for f, label in zip((5, 4, 6) if compact else (6, 5, 6), labels,
                                                             strict=True)]
    tags = {p["name"]: ", ".join(row_tags(t, p, style, after_play=(SPELL,))) for p in t["players"]}
    rest = 3 + sum(f + 1 for f in figures) + 2 + width  # a row's other columns (its heading's alike)
    nw = name_column(t["players"], style, rest, tags.values())
    heading = (f"   {pad(truncate(_('player'), nw), nw)} "
               + " ".join(_right(label, f) for label, f in zip(labels, figures, strict=True)) + f"  {last}")
    tags_at = nw + rest + 2  # where a row's tags begin: 43 + width when wide
    wide = cell_width(heading) - len(heading)  # rating_heading counts characters: a wide one takes two cells
    rows = [style.paint(rating_heading(heading, tags_at - wide, t["players"], style.width - wide), "grey")]
    yes = _("yes")
    for p in trick_order(t):
        marker = ">" if p["name"] in t["waiting"] else " "
        if passing:
            played = yes if p["has_passed"] else style.paint("--", "grey")
        else:
            played = _card(style, p["played"]) if p["played"] else style.paint("--", "grey")
        fire = f"{p['points']:>{figures[1]}}"
        fire = style.paint(fire, "red") if p["points"] else fire
        row = (f" {marker} {name_cell(p, t, style, nw)} {p['score']:>{figures[0]}} {fire} "
               f"{p['tricks']:>{figures[2]}}  {pad(played, width)}")
        rows += tag_rows(row, tags[p["name"]], style.width)
    return rows


_WAITING = {
    PASSING: (N_("Waiting for {names} to pass."), N_("Waiting for {n} players to pass (marked >).")),
    Phase.PLAYING: (N_("Waiting for {names} to play."), N_("Waiting for {n} players to play (marked >).")),
    SPELL: (N_("Waiting for {names} to choose what the spell does."),
            N_("Waiting for {n} players to choose what the spell does (marked >).")),
}


def prompt(view: dict[str, Any], style: Style) -> str:
    """One line that says what this viewer is asked to do, or whom the table waits for."""
    over = round_over(view, style, ROUND)
    if over is not None:
        return over
    t = view
    legal = t["legal"]
    if not legal:
        line = " " + _waiting(t["phase"], False, names=_names(style, t["waiting"]))
        short = " " + _waiting(t["phase"], True, n=len(t["waiting"]))
        return line if visible_len(line) <= WIDTH else short
    verb = legal[0].split()[0]
    if verb == "pass":
        p = t["pass"]
        cards = " ".join(f"C{i + 1}" for i in range(p["count"]))
        return style.bold(" " + _("Your turn: pass {count} cards to {to}: /pass {cards}", count=p["count"],
                                   to=style.text(p["to"]), cards=cards))
    if verb == "spell":
        points = t["spell"]["points"]
        return style.bold(" " + _("Your spell: /spell give (the others score {points}) or /spell take ({points} off "
                                   "yours)", points=points))
    if t["leader"] == t["you"] and not t["trick"]:
        return style.bold(" " + _("Your turn to lead: /play CARD (playable cards marked)."))
    return style.bold(" " + _("Your turn to play: /play CARD (playable cards marked)."))


def _waiting(phase: str, short: bool, **params: Any) -> str:
    """Whom the table waits for, and to do what: one sentence a phase (a language puts the verb where it goes)."""
    found = _WAITING.get(phase)
    if found is None:
        return _("Waiting for {n} players to act (marked >).", **params) if short else \
            _("Waiting for {names} to act.", **params)
    return _(found[short], **params)


def score_sheet(view: dict[str, Any], style: Style) -> list[str]:
    """Running totals after every hand, with each hand's change in brackets; spells noted underneath."""
    names = [p["name"] for p in view["players"]]
    label = _("hand")
    lw = max(4, cell_width(label))
    col = max(9, min(12, (style.width - lw - 6) // max(1, len(names))))  # 80 wide: as ever; narrower: within
    lines = [style.rule(_("Score sheet")),
             "  " + pad(label, lw) + " " + "".join(pad(truncate(style.text(n), col - 1), col) for n in names)]
    notes = []
    for entry in view["sheet"]:
        by_name = {r["player"]: r for r in entry["results"]}
        cells = []
        for n in names:
            r = by_name[n]
            cell = f"{r['score']}({r['delta']:+d})"
            cells.append(pad(style.paint(cell, "red" if r["delta"] > 0 else "green"), col))
        lines.append(f"  {entry['round']:>{lw}} " + "".join(cells))
        spell = entry.get("spell")
        if spell:
            said = {"hand": entry["round"], "player": style.text(spell["player"]), "spell": spell_now(spell["points"]),
                    "points": spell["points"]}
            if spell["choice"] == "give":
                notes.append("  " + _("hand {hand}: {player}'s {spell} ({points}): given to the others.", **said))
            else:
                notes.append("  " + _("hand {hand}: {player}'s {spell} ({points}): taken off their total.", **said))
    if not view["sheet"]:
        lines.append("  " + _("(no hand scored yet)"))
    return lines + notes


def results(round_no: int, rows: list[dict[str, Any]], style: Style) -> list[str]:
    labels = (_("tricks"), _("fire"), _("change"), _("total"))
    widths = [max(w, cell_width(label)) for w, label in zip((6, 5, 7, 7), labels, strict=True)]
    heading = "   " + pad(_("player"), 16) + "".join(" " + _right(label, w) for label, w in zip(labels, widths,
                                                                                                   strict=True))
    lines = [style.rule(_("Hand {n} result", n=round_no)), style.paint(heading, "grey")]
    for r in rows:
        change = f"{r['delta']:+d}"
        lines.append(f"   {pad(style.text(r['player']), 16)} {r['tricks']:>{widths[0]}} {r['points']:>{widths[1]}} "
                     + style.paint(f"{change:>{widths[2]}}", "red" if r["delta"] > 0 else "green")
                     + f" {r['score']:>{widths[3]}}")
    return lines


def _taken(cards: list[str], style: Style) -> list[str]:
    """The cards of a trick that count for fire points, named, laid out within 80 columns."""
    pieces = []
    for c in cards:
        name = special_now(c)
        if name is not None:
            pieces.append(f"{_card(style, c)} ({name}) ")
        elif c.startswith("R"):
            pieces.append(f"{_card(style, c)} ")
    if not pieces:
        return []
    label = "  " + _("takes:") + " "
    at = cell_width(label)
    lines = wrap_cards(pieces, width=78, indent=at)
    return [line.rstrip() for line in [label + lines[0][at:], *lines[1:]]]


def event_lines(message: Mapping[str, Any] | Event, style: Style) -> list[str]:
    """The short lines a player reads as things happen, from the event's message (see ``event_message``)."""
    e = event_message(message)
    kind = e["type"]
    if kind == "hand_start":
        return [style.bold(_("Hand {round}: {cards} cards each; {dealer} deals, {leader} leads.", round=e["round"],
                             cards=e["cards"], dealer=style.text(e["dealer"]), leader=style.text(e["leader"]))),
                _("Everyone passes {count} cards {towards}.", count=e["pass_count"],
                  towards=towards_now(e["direction"]))]
    if kind == "cards_passed":
        who, to = style.text(e["player"]), style.text(e["to"])
        if e["cards"]:
            what = " ".join(_card(style, c) for c in e["cards"])
            return [_("{player} passes {cards} to {to}.", player=who, cards=what, to=to)]
        return [_("{player} passes {count} cards to {to}.", player=who, count=e["count"], to=to)]
    if kind == "pass_done":
        lines = [_("Everyone has passed.")]
        for r in e["received"]:
            got = " ".join(_card(style, c) for c in r["cards"])
            lines.append(_("{player} receives from {giver}: {cards}", player=style.text(r["player"]),
                           giver=style.text(r["from"]), cards=got))
        return lines
    if kind == "card_played":
        return [_("{player} plays {card}.", player=style.text(e["player"]), card=_card(style, e["card"]))]
    if kind == "trick":
        return [trick_taken(e, style, lambda c: _card(style, c)), *_taken([c["card"] for c in e["cards"]], style)]
    if kind == "spell_cast":
        who = style.text(e["player"])
        lines = [style.paint(_("{player} casts the {spell}: {points} points!", player=who,
                               spell=spell_now(e["points"]), points=e["points"]), "magenta", "bold")]
        if e["choosing"]:
            lines.append(_("The hand ends the game: {player} chooses /spell give or /spell take.", player=who))
        else:
            lines.append(_("Everyone else scores {points}.", points=e["points"]))
        return lines
    if kind == "spell_chosen":
        who = style.text(e["player"])
        if e["choice"] == "give":
            return [_("{player} gives the spell: everyone else scores {points}.", player=who, points=e["points"])]
        return [_("{player} takes the spell: {points} off their own total.", player=who, points=e["points"])]
    if kind == "round_end":
        return results(e["round"], e["results"], style)
    if kind == "game_end":
        return standings(e["standings"], style)
    return []
