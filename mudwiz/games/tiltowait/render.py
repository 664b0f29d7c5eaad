"""Tiltowait's screen: the table view of the rules page, event lines and the score sheet, within 80 columns.

Cards are drawn here rather than with ``Style.card``: Tiltowait's G is gold (yellow on a terminal, not green),
and the colourless spells (MAHALITO, MILWA, ...) get a colour of their own instead of passing for black monsters.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from mudwiz.games.base import Event, Phase
from mudwiz.render.common import (
    confirmations,
    event_message,
    rating_first,
    rating_heading,
    round_over,
    standings,
    your_hand,
)
from mudwiz.render.style import Style, cell_width, counted, pad, truncate, visible_len, wrap_cards

ROUND = "hand"  # what this game calls one deal played out: said in the prompts after it
COLOUR_NAMES = {"K": "black", "R": "red", "G": "gold", "B": "blue"}
_PAINT = {"K": "white", "R": "red", "G": "yellow", "B": "blue"}
_SPELL_PAINT = "magenta"
_REASONS = {"attack": "", "tiltowait": " (TILTOWAIT)", "karuki": " (no karuki call)", "draw": ""}


def _colour_of(code: str) -> str | None:
    if "-" in code:
        return code.rsplit("-", 1)[1]
    return code[0] if code[1:].isdigit() else None


def _paint(code: str) -> str:
    return _PAINT.get(_colour_of(code) or "", _SPELL_PAINT)


def card(style: Style, code: str, marked: bool = False) -> str:
    """A card in a hand, in its colour (gold is yellow; colourless spells magenta); ``marked`` (playable) stands
    out: bold reversed, or bracketed in ASCII."""
    if not style.colour:
        return f"[{code}]" if marked else f" {code} "
    if marked:
        return style.paint(f" {code} ", _paint(code), "bold", "reverse")
    return style.paint(f" {code} ", _paint(code))


def _card(style: Style, code: str) -> str:
    """A card named in a sentence: its colour, no padding."""
    return style.paint(code, _paint(code), "bold")


def _colour(style: Style, colour: str | None) -> str:
    if colour is None:
        return style.paint("none named", "grey")
    return style.paint(COLOUR_NAMES[colour], _PAINT[colour], "bold")


def _name(style: Style, name: str | None) -> str:
    return "-" if name is None else style.text(name)


def _direction(direction: str) -> str:
    return "clockwise" if direction == "cw" else "counter-clockwise"


def situation_line(view: dict[str, Any], style: Style) -> str | None:
    """What the table is answering now (a draw, TILTOWAIT, MILWA), or why any card may be played."""
    a = view.get("answer")
    if a is None:
        if view.get("free") and view["phase"] == Phase.PLAYING:
            return " No colour named yet: any card may be played, naming the colour."
        return None
    by = f" by {_name(style, a['by'])}" if a["by"] else ""
    to = _name(style, a["to"])
    if a["spell"] == "MILWA":
        return f" MILWA{by} on {to}: {to} may cancel it."
    if a["spell"] == "TILTOWAIT":
        head = f" TILTOWAIT{by}: each draws 2 or cancels: "
        return head + _fit([_name(style, n) for n in a["left"]], 79 - cell_width(head)) + "."
    return f" {_card(style, a['spell'])}{by}: {to} must draw {a['draw']}, stack or cancel."


def _fit(names: list[str], room: int) -> str:
    """As many of ``names`` as fit in ``room`` columns, comma-separated; ``...`` for the rest."""
    text = ""
    for i, n in enumerate(names):
        more = (", " if text else "") + n
        if cell_width(text + more) > (room if i == len(names) - 1 else room - 5):
            return text + ", ..."
        text += more
    return text


def play_order(view: dict[str, Any]) -> list[dict[str, Any]]:
    """The players from the one to play, in the direction play goes: read down, the rows say who comes next
    (in seat order, counter-clockwise play ran up from the top row to the bottom one, and whom a HALITO hits was
    a puzzle). Before and after the play, seat order; the score sheet keeps it always."""
    players = view["players"]
    names = [p["name"] for p in players]
    if view.get("next") not in names:
        return players
    start, step = names.index(view["next"]), 1 if view.get("direction") == "cw" else -1
    return [players[(start + i * step) % len(players)] for i in range(len(players))]


def table_view(view: dict[str, Any], style: Style) -> list[str]:
    """The seated player's (or an observer's) picture of the table."""
    t = view
    rounds = f"/{t['rounds']}" if t.get("rounds") else ""
    lines = [style.rule(f"Tiltowait - hand {t['round']}{rounds}")]
    lines.append(f" Top: {_card(style, t['top'])}   Colour: {_colour(style, t['colour'])}   "
                 f"Play goes {_direction(t['direction'])}")
    pending = f"draw {t['pending']} pending" if t["pending"] else "no draw pending"
    lines.append(f" Stock: {t['stock']}   Discards: {t['discard']}   {pending}   Next: {_name(style, t['next'])}")
    extra = situation_line(t, style)
    if extra:
        lines.append(extra)
    heading = f"   {'player':<16} {'cards':>5} {'score':>7}"
    lines.append(style.paint(rating_heading(heading, 35, t["players"]), "grey"))  # 35: where a row's tags begin
    for p in play_order(t):
        marker = ">" if p["name"] in t["waiting"] else " "
        name = style.text(p["name"])
        if p["name"] == t["you"]:
            name = style.bold(name)
        tags = []
        if p.get("asleep"):
            tags.append(style.paint("asleep", "cyan"))
        if p.get("karuki"):
            tags.append(style.paint("karuki!", "yellow", "bold"))
        tags = rating_first(tags, p, style)
        lines.append(f" {marker} {pad(name, 16)} {p['held']:>5} {p['score']:>7}  {' '.join(tags)}".rstrip())
    lines.extend(confirmations(t, style))
    lines.extend(your_hand(view, style, card))
    lines.append(prompt(view, style))
    return lines


def prompt(view: dict[str, Any], style: Style) -> str:
    """One line that says what this viewer is asked to do, or whom the table waits for."""
    over = round_over(view, style, ROUND)
    if over is not None:
        return over
    t = view
    legal = t["legal"]
    side = ""
    if "karuki" in legal:
        side = " /karuki: call your last card!"
    catch = next((a for a in legal if a.startswith("catch ")), None)
    if catch:
        side = f" /{catch}: no karuki call!"
    asked = bool(t["you"]) and t["you"] in t["waiting"]
    if not asked:
        who = ", ".join(_name(style, n) for n in t["waiting"]) or "nobody"
        a = t.get("answer")
        doing = "play" if a is None else "answer " + a["spell"].split("-")[0]
        text = f" Waiting for {who} to {doing}."
        return text + style.bold(side) if side and cell_width(text + side) <= 80 else text
    a = t.get("answer")
    # the cancels this player can play now: a HAMAN named to one who holds none was refused
    cancels = " or ".join(f"/play {spell}{' COLOUR' if spell == 'HAMAN' else ''}" for spell in ("MONTINO", "HAMAN")
                          if any(x.startswith(f"play {spell}") for x in legal))
    if a is not None and a["spell"] == "MILWA":
        text = f" MILWA: /keep shows your hand{f'; {cancels} cancels' if cancels else ''}."
    elif a is not None and a["spell"] == "TILTOWAIT":  # /draw takes no number: "/draw 2" was refused
        text = f" TILTOWAIT: /draw ({a['draw']} cards){f', or cancel: {cancels}' if cancels else ''}."
    elif a is not None:
        text = f" Draw {a['draw']}: /draw{_answers(legal, cancels)}."
    elif t.get("drawn"):
        forms = [x.split()[2:] for x in legal if x.split()[:2] == ["play", t["drawn"]]]
        colour = " COLOUR" if any(f and f[0] != "karuki" for f in forms) else ""  # not "play R9 karuki"
        text = f" You drew {t['drawn']}: /play {t['drawn']}{colour} or /keep."
    elif t.get("free"):
        text = " Your turn: /play CARD COLOUR (any card; you name the colour), or /draw."
    else:
        text = " Your turn: /play CARD (playable cards marked), or /draw."
    return style.bold(text + side if cell_width(text + side) <= 80 else text)


def _answers(legal: list[str], cancels: str) -> str:
    """What besides /draw answers a draw: stacking and cancelling named only when this hand can (with nothing
    marked, 'stack or cancel: /play CARD (marked)' sent a player looking for a move there was none of)."""
    stacks = any(x.startswith("play ") and x.split()[1] not in ("MONTINO", "HAMAN") for x in legal)
    if stacks and cancels:
        return ", or stack or cancel: /play CARD (marked)"
    if stacks:
        return ", or stack: /play CARD (marked)"
    if cancels:
        return f", or cancel: {cancels}"
    return " (nothing to stack or cancel with)"


def score_sheet(view: dict[str, Any], style: Style) -> list[str]:
    """Totals after every hand; the hand's winner is starred."""
    names = [p["name"] for p in view["players"]]
    col = max(7, min(12, 72 // max(1, len(names))))
    lines = [style.rule("Score sheet"), " hand  " + "".join(pad(truncate(style.text(n), col - 1), col) for n in names)]
    for entry in view["sheet"]:
        by_name = {r["player"]: r for r in entry["results"]}
        cells = []
        for n in names:
            r = by_name[n]
            won = n == entry["winner"]
            cell = style.paint(f"{r['score']}{'*' if won else ''}", "green" if won else "red")
            cells.append(pad(cell, col))
        lines.append(f" {entry['round']:>4}  " + "".join(cells))
    if not view["sheet"]:
        lines.append("  (no hand scored yet)")
    else:
        lines.append(style.paint("  * went out", "grey"))
    return lines


def results(round_no: int, winner: str, rows: list[dict[str, Any]], style: Style) -> list[str]:
    lines = [style.rule(f"Hand {round_no} result"), style.bold(f" {style.text(winner)} goes out!")]
    for r in rows:
        held = f"{len(r['cards']):>2} card{'s' if len(r['cards']) != 1 else ' '}"
        double = style.paint("  doubled: TILTOWAIT", "magenta") if r.get("doubled") else ""
        lines.append(f"   {pad(style.text(r['player']), 16)} {held}  {r['delta']:>+6}  = {r['score']:>6}{double}")
    return lines




def event_lines(message: Mapping[str, Any] | Event, style: Style) -> list[str]:
    """The short lines a player reads as things happen, from the event's message (see ``event_message``)."""
    e = event_message(message)
    kind = e["type"]
    who = _name(style, e.get("player"))
    if kind == "hand_start":
        return [style.bold(f"Hand {e['round']}: {e['cards']} cards each; turned {_card(style, e['top'])}; "
                           f"{_name(style, e['starter'])} starts.")]
    if kind == "card_played":
        on = f" on {_name(style, e['target'])}" if e["target"] else ""
        return [f"{who} plays {_card(style, e['card'])}{on}."]
    if kind == "colour_named":
        return [f"{who} names {_colour(style, e['colour'])}."]
    if kind == "reversed":
        return [f"Play now goes {_direction(e['direction'])}."]
    if kind == "draw_pending":
        return [f"{who} must draw {e['count']} (or stack, or cancel)."]
    if kind == "asleep":
        return [f"{who} falls asleep: their turn is skipped."]
    if kind == "cancelled":
        return [f"{who} cancels {_card(style, e['spell'])} with {_card(style, e['card'])}."]
    if kind == "drew":
        why = _REASONS.get(e["reason"], "")
        if e["count"] == 0:
            return [f"{who} has nothing to draw: stock and discards are empty."]
        n = counted(e['count'], 'card')
        if e["cards"]:
            cards = [card(style, c) for c in e["cards"]]
            line = f"{who} draws {n}{why}:" + "".join(cards)
            return [line] if visible_len(line) <= 80 else [f"{who} draws {n}{why}:", *wrap_cards(cards, indent=2)]
        return [f"{who} draws {n}{why}."]
    if kind == "kept":
        return [f"{who} keeps the drawn card."]
    if kind == "milwa_cast":
        return [f"{_name(style, e['caster'])} casts MILWA on {_name(style, e['target'])}, who may cancel it."]
    if kind == "hand_shown":
        if e.get("audience") == "table":
            return [f"{who} lets {_name(style, e['to'])}'s MILWA open their hand to the table."]
        return [f"{who} shows their hand to {_name(style, e['to'])}."]
    if kind == "milwa_reveal":
        if e.get("audience") == "table":  # everyone sees it, the target too: say whose, not "your look"
            head = f"{_name(style, e['target'])}'s hand is open for {e['seconds']} s:"
        else:
            head = f"MILWA: {_name(style, e['target'])}'s hand, for {e['seconds']} seconds:"
        return [style.bold(head), *wrap_cards([card(style, c) for c in e["cards"]], indent=2)]
    if kind == "karuki":
        return [style.bold(f"{who}: Karuki!")]
    if kind == "caught":
        return [f"{_name(style, e['by'])} catches {who} without karuki: +2 cards."]
    if kind == "reshuffled":
        return [f"The discards are shuffled into a new stock of {e['cards']} cards."]
    if kind == "round_end":
        return results(e["round"], e["winner"], e["results"], style)
    if kind == "game_end":
        return standings(e["standings"], style)
    return []  # tiltowait_turn: the asked player's own view says it
