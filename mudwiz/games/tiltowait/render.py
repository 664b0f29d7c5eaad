"""Tiltowait's screen: the table view of the rules page, event lines and the score sheet, within 80 columns, in
the reader's language (rendering runs for each reader: ``_`` is theirs). Card codes are what a person types, so
they stay as they are in every language; a spell named in a sentence is given its name in the reader's language
before its code (the Japanese rules page's ``NAMES_JA``: ハリト(HALITO-R)), and a colour is named in words.

Cards are drawn here rather than with ``Style.card``: Tiltowait's G is gold (yellow on a terminal, not green),
and the colourless spells (MAHALITO, MILWA, ...) get a colour of their own instead of passing for black monsters.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from mudwiz.games.base import Event, Phase
from mudwiz.games.tiltowait.cards import colour_text
from mudwiz.games.tiltowait.rules_ja import NAMES_JA
from mudwiz.games.tiltowait.texts import _, _n
from mudwiz.render.common import (
    confirmations,
    event_message,
    rating_first,
    rating_heading,
    round_over,
    standings,
    your_hand,
)
from mudwiz.render.style import Style, cell_width, pad, truncate, visible_len, wrap_cards
from mudwiz.texts import current

ROUND = "hand"  # what this game calls one deal played out: said in the prompts after it
COLOUR_NAMES = {"K": "black", "R": "red", "G": "gold", "B": "blue"}
_PAINT = {"K": "white", "R": "red", "G": "yellow", "B": "blue"}
_SPELL_PAINT = "magenta"
NAMES_IN = {"ja": NAMES_JA}  # language -> spell code -> its name there (English names a spell by its code)


def _colour_of(code: str) -> str | None:
    if "-" in code:
        return code.rsplit("-", 1)[1]
    return code[0] if code[1:].isdigit() else None


def _paint(code: str) -> str:
    return _PAINT.get(_colour_of(code) or "", _SPELL_PAINT)


def spell_name(spell: str) -> str:
    """A spell (``HALITO``) as the reader calls it: its Japanese name for a Japanese reader, else its code."""
    return NAMES_IN.get(current(), {}).get(spell, spell)


def card_name(code: str) -> str:
    """A card named in a sentence: its code as typed, a spell's name in the reader's language before it where
    that is not the code itself (``ハリト(HALITO-R)``)."""
    if code[1:].isdigit():
        return code
    name = spell_name(code.split("-")[0])
    return code if name == code.split("-")[0] else f"{name}({code})"


def card(style: Style, code: str, marked: bool = False) -> str:
    """A card in a hand, in its colour (gold is yellow; colourless spells magenta); ``marked`` (playable) stands
    out: bold reversed, or bracketed in ASCII."""
    if not style.colour:
        return f"[{code}]" if marked else f" {code} "
    if marked:
        return style.paint(f" {code} ", _paint(code), "bold", "reverse")
    return style.paint(f" {code} ", _paint(code))


def _card(style: Style, code: str) -> str:
    """A card named in a sentence: its colour, no padding; a spell with its name in the reader's language."""
    return style.paint(card_name(code), _paint(code), "bold")


def _colour(style: Style, colour: str | None) -> str:
    if colour is None:
        return style.paint(_("none named"), "grey")
    return style.paint(str(colour_text(colour)), _PAINT[colour], "bold")


def _name(style: Style, name: str | None) -> str:
    return "-" if name is None else style.text(name)


def _direction(direction: str) -> str:
    return _("clockwise") if direction == "cw" else _("counter-clockwise")


def _right(text: str, width: int) -> str:
    """``text`` right-aligned in ``width`` terminal cells (a Japanese character takes two)."""
    return " " * max(0, width - cell_width(text)) + text


def situation_line(view: dict[str, Any], style: Style) -> str | None:
    """What the table is answering now (a draw, TILTOWAIT, MILWA), or why any card may be played."""
    a = view.get("answer")
    if a is None:
        if view.get("free") and view["phase"] == Phase.PLAYING:
            return _(" No colour named yet: any card may be played, naming the colour.")
        return None
    by = _name(style, a["by"]) if a["by"] else None
    to = _name(style, a["to"])
    if a["spell"] == "MILWA":
        if by:
            return _(" {spell} by {by} on {to}: {to} may cancel it.", spell=spell_name("MILWA"), by=by, to=to)
        return _(" {spell} on {to}: {to} may cancel it.", spell=spell_name("MILWA"), to=to)
    if a["spell"] == "TILTOWAIT":
        spell = spell_name("TILTOWAIT")
        head = _(" {spell} by {by}: each draws 2 or cancels: ", spell=spell, by=by) if by else \
            _(" {spell}: each draws 2 or cancels: ", spell=spell)
        names = _fit([_name(style, n) for n in a["left"]], 79 - visible_len(head))
        return head + names + _(".")
    if by:
        return _(" {spell} by {by}: {to} must draw {n}, stack or cancel.", spell=_card(style, a["spell"]), by=by,
                 to=to, n=a["draw"])
    return _(" {spell}: {to} must draw {n}, stack or cancel.", spell=_card(style, a["spell"]), to=to, n=a["draw"])


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
    lines = [style.rule(_("Tiltowait - hand {round}{rounds}", round=t["round"], rounds=rounds))]
    lines.append(_(" Top: {top}   Colour: {colour}   Play goes {direction}", top=_card(style, t["top"]),
                   colour=_colour(style, t["colour"]), direction=_direction(t["direction"])))
    pending = _("draw {n} pending", n=t["pending"]) if t["pending"] else _("no draw pending")
    lines.append(_(" Stock: {stock}   Discards: {discard}   {pending}   Next: {next}", stock=t["stock"],
                   discard=t["discard"], pending=pending, next=_name(style, t["next"])))
    extra = situation_line(t, style)
    if extra:
        lines.append(extra)
    player, cards, score = _("player"), _("cards"), _("score")  # (no ``_`` inside an f-string: Babel misses it)
    heading = f"   {pad(player, 16)} {_right(cards, 5)} {_right(score, 7)}"
    lines.append(style.paint(rating_heading(heading, 35, t["players"]), "grey"))  # 35: where a row's tags begin
    for p in play_order(t):
        marker = ">" if p["name"] in t["waiting"] else " "
        name = style.text(p["name"])
        if p["name"] == t["you"]:
            name = style.bold(name)
        tags = []
        if p.get("asleep"):
            tags.append(style.paint(_("asleep"), "cyan"))
        if p.get("karuki"):
            tags.append(style.paint(_("karuki!"), "yellow", "bold"))
        tags = rating_first(tags, p, style)
        lines.append(f" {marker} {pad(name, 16)} {p['held']:>5} {p['score']:>7}  {' '.join(tags)}".rstrip())
    lines.extend(confirmations(t, style))
    lines.extend(your_hand(view, style, card))
    lines.append(prompt(view, style))
    return lines


def _or(moves: list[str]) -> str:
    """Two moves as alternatives (``/play MONTINO or /play HAMAN COLOUR``), one as itself."""
    return _("{first} or {second}", first=moves[0], second=moves[1]) if len(moves) == 2 else "".join(moves)


def _aside(legal: list[str]) -> str:
    """What the prompt adds for a call anyone may make now: one's own karuki, or catching another's missing one."""
    catch = next((a for a in legal if a.startswith("catch ")), None)
    if catch:
        return _(" /{move}: no karuki call!", move=catch)
    return _(" /karuki: call your last card!") if "karuki" in legal else ""


def prompt(view: dict[str, Any], style: Style) -> str:
    """One line that says what this viewer is asked to do, or whom the table waits for."""
    over = round_over(view, style, ROUND)
    if over is not None:
        return over
    t = view
    legal = t["legal"]
    side = _aside(legal)
    asked = bool(t["you"]) and t["you"] in t["waiting"]
    if not asked:
        who = ", ".join(_name(style, n) for n in t["waiting"]) or _("nobody")
        a = t.get("answer")
        if a is None:
            text = _(" Waiting for {who} to play.", who=who)
        else:
            text = _(" Waiting for {who} to answer {spell}.", who=who, spell=spell_name(a["spell"].split("-")[0]))
        return text + style.bold(side) if side and cell_width(text + side) <= 80 else text
    a = t.get("answer")
    # the cancels this player can play now: a HAMAN named to one who holds none was refused
    typed = {"MONTINO": "/play MONTINO", "HAMAN": "/play HAMAN COLOUR"}  # i18n: not text (moves as typed)
    cancels = _or([typed[spell] for spell in ("MONTINO", "HAMAN") if any(x.startswith(f"play {spell}") for x in legal)])
    if a is not None and a["spell"] == "MILWA":
        spell = spell_name("MILWA")
        text = _(" {spell}: /keep shows your hand; {cancels} cancels.", spell=spell, cancels=cancels) if cancels \
            else _(" {spell}: /keep shows your hand.", spell=spell)
    elif a is not None and a["spell"] == "TILTOWAIT":  # /draw takes no number: "/draw 2" was refused
        spell = spell_name("TILTOWAIT")
        text = _(" {spell}: /draw ({n} cards), or cancel: {cancels}.", spell=spell, n=a["draw"], cancels=cancels) \
            if cancels else _(" {spell}: /draw ({n} cards).", spell=spell, n=a["draw"])
    elif a is not None:
        text = _answers(legal, cancels, a["draw"])
    elif t.get("drawn"):
        forms = [x.split()[2:] for x in legal if x.split()[:2] == ["play", t["drawn"]]]
        if any(f and f[0] != "karuki" for f in forms):  # not "play R9 karuki"
            text = _(" You drew {card}: /play {card} COLOUR or /keep.", card=t["drawn"])
        else:
            text = _(" You drew {card}: /play {card} or /keep.", card=t["drawn"])
    elif t.get("free"):
        text = _(" Your turn: /play CARD COLOUR (any card; you name the colour), or /draw.")
    else:
        text = _(" Your turn: /play CARD (playable cards marked), or /draw.")
    return style.bold(text + side if cell_width(text + side) <= 80 else text)


def _answers(legal: list[str], cancels: str, n: int) -> str:
    """The line for a draw to answer: besides /draw, stacking and cancelling named only when this hand can (with
    nothing marked, 'stack or cancel: /play CARD (marked)' sent a player looking for a move there was none of)."""
    stacks = any(x.startswith("play ") and x.split()[1] not in ("MONTINO", "HAMAN") for x in legal)
    if stacks and cancels:
        return _(" Draw {n}: /draw, or stack or cancel: /play CARD (marked).", n=n)
    if stacks:
        return _(" Draw {n}: /draw, or stack: /play CARD (marked).", n=n)
    if cancels:
        return _(" Draw {n}: /draw, or cancel: {cancels}.", n=n, cancels=cancels)
    return _(" Draw {n}: /draw (nothing to stack or cancel with).", n=n)


def score_sheet(view: dict[str, Any], style: Style) -> list[str]:
    """Totals after every hand; the hand's winner is starred."""
    names = [p["name"] for p in view["players"]]
    label = _("hand")
    width = max(4, cell_width(label))  # the hand column: "hand", or the reader's word for it
    col = max(7, min(12, (76 - width) // max(1, len(names))))
    lines = [style.rule(_("Score sheet")),
             f" {_right(label, width)}  " + "".join(pad(truncate(style.text(n), col - 1), col) for n in names)]
    for entry in view["sheet"]:
        by_name = {r["player"]: r for r in entry["results"]}
        cells = []
        for n in names:
            r = by_name[n]
            won = n == entry["winner"]
            cell = style.paint(f"{r['score']}{'*' if won else ''}", "green" if won else "red")
            cells.append(pad(cell, col))
        lines.append(f" {entry['round']:>{width}}  " + "".join(cells))
    if not view["sheet"]:
        lines.append(_("  (no hand scored yet)"))
    else:
        lines.append(style.paint(_("  * went out"), "grey"))
    return lines


def results(round_no: int, winner: str, rows: list[dict[str, Any]], style: Style) -> list[str]:
    lines = [style.rule(_("Hand {round} result", round=round_no)),
             style.bold(_(" {winner} goes out!", winner=style.text(winner)))]
    for r in rows:
        held = _n("{n:>2} card ", "{n:>2} cards", len(r["cards"]))
        double = style.paint(_("  doubled: {spell}", spell=spell_name("TILTOWAIT")), "magenta") if r.get("doubled") \
            else ""
        lines.append(f"   {pad(style.text(r['player']), 16)} {held}  {r['delta']:>+6}  = {r['score']:>6}{double}")
    return lines


def _drew(style: Style, e: Mapping[str, Any], who: str) -> list[str]:
    """A draw: everyone reads how many, the drawer which (on a line of their own when the row is full)."""
    if e["count"] == 0:
        return [_("{who} has nothing to draw: stock and discards are empty.", who=who)]
    n = _n("{n} card", "{n} cards", e["count"])
    why = {"tiltowait": spell_name("TILTOWAIT"), "karuki": _("no karuki call")}.get(e["reason"])
    if not e["cards"]:
        return [_("{who} draws {count} ({why}).", who=who, count=n, why=why) if why else
                _("{who} draws {count}.", who=who, count=n)]
    head = _("{who} draws {count} ({why}):", who=who, count=n, why=why) if why else \
        _("{who} draws {count}:", who=who, count=n)
    cards = [card(style, c) for c in e["cards"]]
    line = head + "".join(cards)
    return [line] if visible_len(line) <= 80 else [head, *wrap_cards(cards, indent=2)]


def event_lines(message: Mapping[str, Any] | Event, style: Style) -> list[str]:
    """The short lines a player reads as things happen, from the event's message (see ``event_message``)."""
    e = event_message(message)
    kind = e["type"]
    who = _name(style, e.get("player"))
    if kind == "hand_start":
        return [style.bold(_("Hand {round}: {cards} cards each; turned {top}; {starter} starts.", round=e["round"],
                             cards=e["cards"], top=_card(style, e["top"]), starter=_name(style, e["starter"])))]
    if kind == "card_played":
        if e["target"]:
            return [_("{who} plays {card} on {target}.", who=who, card=_card(style, e["card"]),
                      target=_name(style, e["target"]))]
        return [_("{who} plays {card}.", who=who, card=_card(style, e["card"]))]
    if kind == "colour_named":
        return [_("{who} names {colour}.", who=who, colour=_colour(style, e["colour"]))]
    if kind == "reversed":
        return [_("Play now goes {direction}.", direction=_direction(e["direction"]))]
    if kind == "draw_pending":
        return [_("{who} must draw {n} (or stack, or cancel).", who=who, n=e["count"])]
    if kind == "asleep":
        return [_("{who} falls asleep: their turn is skipped.", who=who)]
    if kind == "cancelled":
        return [_("{who} cancels {spell} with {card}.", who=who, spell=_card(style, e["spell"]),
                  card=_card(style, e["card"]))]
    if kind == "drew":
        return _drew(style, e, who)
    if kind == "kept":
        return [_("{who} keeps the drawn card.", who=who)]
    if kind == "milwa_cast":
        return [_("{caster} casts {spell} on {target}, who may cancel it.", caster=_name(style, e["caster"]),
                  spell=spell_name("MILWA"), target=_name(style, e["target"]))]
    if kind == "hand_shown":
        if e.get("audience") == "table":
            return [_("{who} lets {to}'s {spell} open their hand to the table.", who=who, to=_name(style, e["to"]),
                      spell=spell_name("MILWA"))]
        return [_("{who} shows their hand to {to}.", who=who, to=_name(style, e["to"]))]
    if kind == "milwa_reveal":
        if e.get("audience") == "table":  # everyone sees it, the target too: say whose, not "your look"
            head = _("{target}'s hand is open for {seconds} s:", target=_name(style, e["target"]),
                     seconds=e["seconds"])
        else:
            head = _("{spell}: {target}'s hand, for {seconds} seconds:", spell=spell_name("MILWA"),
                     target=_name(style, e["target"]), seconds=e["seconds"])
        return [style.bold(head), *wrap_cards([card(style, c) for c in e["cards"]], indent=2)]
    if kind == "karuki":
        return [style.bold(_("{who}: Karuki!", who=who))]
    if kind == "caught":
        return [_("{by} catches {who} without karuki: +2 cards.", by=_name(style, e["by"]), who=who)]
    if kind == "reshuffled":
        return [_("The discards are shuffled into a new stock of {n} cards.", n=e["cards"])]
    if kind == "round_end":
        return results(e["round"], e["winner"], e["results"], style)
    if kind == "game_end":
        return standings(e["standings"], style)
    return []  # tiltowait_turn: the asked player's own view says it
