"""The panes that float above the others: the score sheet (F2) and the keys with your game's rules (F1)."""

from __future__ import annotations

from typing import Any

from mudwiz.client.events import STYLE, renderer
from mudwiz.client.model import Model
from mudwiz.client.paint import cut, rule
from mudwiz.games import plugins
from mudwiz.render.reflow import reflow
from mudwiz.render.style import pad, wrap_words

KEYS = [  # the Left/Right/Home/End/Enter/Space bindings act only while the input line is empty
    ("Left / Right", "move through your playable cards or legal bids"),
    ("Up / Down", "the colour a spell names (MAHALITO, ...); else input history"),
    ("Home / End", "first / last choice"),
    ("Enter", "send the selected move (or /ok, /start)"),
    ("Tab", "complete commands, legal moves, cards, names"),
    ("PageUp / PageDown", "scroll the log (this pane while it is open)"),
    ("F1", "this help: the keys and your game's rules"),
    ("F2", "the score sheet"),
    ("F5", "reconnect after a drop (logs in again as you)"),
    ("Ctrl-D / F10", "quit"),
    ("In a replay", "Left/Right step, Home/End first/last step, Esc or q leaves"),
]


def keys() -> list[tuple[str, str]]:
    """The keys and what they do: ``KEYS``, with the keys the games here bring (their plugins' ``keys``) after
    Enter."""
    at = next(i for i, (key, _) in enumerate(KEYS) if key == "Enter") + 1
    own = [pair for found in plugins().values() for pair in found.keys]
    return [*KEYS[:at], *own, *KEYS[at:]]


def sheet_lines(model: Model) -> list[str]:
    """The score sheet pop-up: the game's own renderer's sheet when there is one, else a generic one."""
    message = model.sheet_message()
    if message is None:
        return [" No score sheet yet: sit at a table (F2 again closes this)."]
    module = renderer(message.get("game"))
    if module is not None and hasattr(module, "score_sheet"):
        try:
            return list(module.score_sheet(message, STYLE))
        except Exception:  # a renderer for another version of the message: use the generic sheet
            pass
    return generic_sheet(message)


def generic_sheet(message: dict[str, Any]) -> list[str]:
    names = [p["name"] for p in message.get("players", [])]
    lines = [STYLE.rule("Score sheet", 12 + 12 * len(names)),
             "  rnd  " + "".join(pad(cut(STYLE.text(n), 11), 12) for n in names)]
    for entry in message.get("sheet", []):
        by_name = {r["player"]: r for r in entry.get("results", [])}
        cells = []
        for n in names:
            r = by_name.get(n, {})
            text = f"{r.get('score', '')}({r.get('delta', 0):+d})" if r else "-"
            cells.append(pad(STYLE.paint(text, "green" if r.get("delta", 0) > 0 else "red"), 12))
        lines.append(f"  {entry.get('round', '?'):>3}  " + "".join(cells))
    if not message.get("sheet"):
        lines.append("  (no round scored yet)")
    return lines


def key_lines(width: int = 200) -> list[str]:
    """The keys and what they do, broken between words under the description (cut, they lost their ends)."""
    lines = [part for k, v in keys() for part in wrap_words(f" {pad(STYLE.bold(k), 18)} {v}", width, indent=20)]
    note = " Left/Right/Home/End/Enter/Space act when the input line is empty."
    return lines + [STYLE.paint(part, "grey") for part in wrap_words(note, width, indent=1)]


def help_lines(model: Model, width: int) -> list[str]:
    """F1's pane: the keys, then the rules of your table's game as the server words them (``/rules``)."""
    lines = key_lines(width)
    game = (model.state or {}).get("game")
    if game is None:
        return [*lines, "", STYLE.paint(" At a table F1 shows its game's rules here too (/rules GAME asks).", "grey")]
    if model.rules_asked == game:
        return [*lines, "", STYLE.paint(f" (asking the server for the rules of {game}...)", "grey")]
    if not model.rules.get(game):
        return [*lines, "", STYLE.paint(f" (this server sends no rules of {game}: the keys only)", "grey")]
    lines += ["", rule(f"The rules of {game.capitalize()}", width)]
    return lines + reflow(model.rules[game], width, STYLE.text, margin=1)  # a column in from the pane's edge
