"""The panes that float above the others: the score sheet (F2) and the keys with your game's rules (F1)."""

from __future__ import annotations

from typing import Any

from mudwiz.client.events import STYLE, renderer
from mudwiz.client.model import Model
from mudwiz.client.paint import cut, rule
from mudwiz.client.texts import _
from mudwiz.games import plugins
from mudwiz.render.reflow import reflow
from mudwiz.render.style import pad, wrap_words
from mudwiz.texts import N_

KEYS = [  # the Left/Right/Home/End/Enter/Space bindings act only while the input line is empty
    ("Left / Right", N_("move through your playable cards or legal bids")),
    ("Up / Down", N_("the colour a spell names (MAHALITO, ...); else input history")),
    ("Home / End", N_("first / last choice")),
    ("Enter", N_("send the selected move (or /ok, /start)")),
    ("Tab", N_("complete commands, legal moves, cards, names")),
    ("PageUp / PageDown", N_("scroll the log (this pane while it is open)")),
    ("F1", N_("this help: the keys and your game's rules")),
    ("F2", N_("the score sheet")),
    ("F5", N_("reconnect after a drop (logs in again as you)")),
    ("Ctrl-D / F10", N_("quit")),
    (N_("In a replay"), N_("Left/Right step, Home/End first/last step, Esc or q leaves")),
]


def keys() -> list[tuple[str, str]]:
    """The keys and what they do: ``KEYS``, with the keys the games here bring (their plugins' ``keys``) after
    Enter; in the client's language (a key's name stays as it is written on the keyboard)."""
    at = next(i for i, (key, _what) in enumerate(KEYS) if key == "Enter") + 1
    own = [(str(key), str(what)) for found in plugins().values() for key, what in found.keys]
    return [*((_(k), _(v)) for k, v in KEYS[:at]), *own, *((_(k), _(v)) for k, v in KEYS[at:])]


def sheet_lines(model: Model) -> list[str]:
    """The score sheet pop-up: the game's own renderer's sheet when there is one, else a generic one."""
    message = model.sheet_message()
    if message is None:
        return [_(" No score sheet yet: sit at a table (F2 again closes this).")]
    module = renderer(message.get("game"))
    if module is not None and hasattr(module, "score_sheet"):
        try:
            return list(module.score_sheet(message, STYLE))
        except Exception:  # a renderer for another version of the message: use the generic sheet
            pass
    return generic_sheet(message)


def generic_sheet(message: dict[str, Any]) -> list[str]:
    names = [p["name"] for p in message.get("players", [])]
    lines = [STYLE.rule(_("Score sheet"), 12 + 12 * len(names)),
             "  " + pad(_("rnd"), 3) + "  " + "".join(pad(cut(STYLE.text(n), 11), 12) for n in names)]
    for entry in message.get("sheet", []):
        by_name = {r["player"]: r for r in entry.get("results", [])}
        cells = []
        for n in names:
            r = by_name.get(n, {})
            text = f"{r.get('score', '')}({r.get('delta', 0):+d})" if r else "-"
            cells.append(pad(STYLE.paint(text, "green" if r.get("delta", 0) > 0 else "red"), 12))
        lines.append(f"  {entry.get('round', '?'):>3}  " + "".join(cells))
    if not message.get("sheet"):
        lines.append(_("  (no round scored yet)"))
    return lines


def key_lines(width: int = 200) -> list[str]:
    """The keys and what they do, broken between words under the description (cut, they lost their ends)."""
    lines = [part for k, v in keys() for part in wrap_words(f" {pad(STYLE.bold(k), 18)} {v}", width, indent=20)]
    note = _(" Left/Right/Home/End/Enter/Space act when the input line is empty.")
    return lines + [STYLE.paint(part, "grey") for part in wrap_words(note, width, indent=1)]


def help_lines(model: Model, width: int) -> list[str]:
    """F1's pane: the keys, then the rules of your table's game as the server words them (``/rules``)."""
    lines = key_lines(width)
    game = (model.state or {}).get("game")
    if game is None:
        note = _(" At a table F1 shows its game's rules here too (/rules GAME asks).")
    elif model.rules_asked == game:
        note = _(" (asking the server for the rules of {game}...)", game=game)
    elif not model.rules.get(game):
        note = _(" (this server sends no rules of {game}: the keys only)", game=game)
    else:
        note = ""
    if note or game is None:  # broken to the pane's width: a Japanese sentence takes two cells a character
        return [*lines, "", *(STYLE.paint(part, "grey") for part in wrap_words(note, width, indent=2))]
    lines += ["", rule(_("The rules of {game}", game=game.capitalize()), width)]
    return lines + reflow(model.rules[game], width, STYLE.text, margin=1)  # a column in from the pane's edge
