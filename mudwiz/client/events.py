"""Protocol messages -> the short ANSI lines of the client's log pane.

A game's renderer (its plugin's, ``event_lines``, pure functions the server also uses) words its
events, so the client says exactly what a telnet user reads. Round and game results become one compact line
each here, because the table pane and the score sheet already show them in full; a game the client has no
renderer for (or an event its renderer does not know) still gets a generic ``type: field=value`` line.
"""

from __future__ import annotations

import re
from types import ModuleType
from typing import Any

from mudwiz.client.games import client_part
from mudwiz.client.texts import _
from mudwiz.games import plugin
from mudwiz.render.ansi import Presenter, game_renderer
from mudwiz.render.seeks import RENDERERS as SEEK_RENDERERS
from mudwiz.render.style import Style, strip_ansi

STYLE = Style()
# A painted card keeps its padding spaces inside the colour codes, where the renderers' ``.strip()`` cannot reach.
_PADDED_CARD = re.compile(r"(\x1b\[[0-9;]*m) (\S+) (\x1b\[0m)")
_PRESENTER = Presenter(STYLE)  # its state-tracking is never used: states are not logged
_SKIP = ("type", "table", "game", "id")


def renderer(game: str | None) -> ModuleType | None:
    """The game's renderer module (the generic one for a game installed here without its own), or None for a game
    this install does not have (a newer server's)."""
    return game_renderer(game) if game and plugin(game) is not None else None


def low_wins(game: str | None) -> bool:
    """The game's lowest score wins (Witches' fire points count against you): a rise is bad news."""
    found = plugin(game)
    return found is not None and found.low_wins


def generic_line(message: dict[str, Any]) -> str:
    """Any event of any game, in words good enough to follow it: the shapes every game shares by name."""
    kind = message["type"]
    if kind == "card_played" and {"player", "card"} <= message.keys():
        return tighten(_("{player} plays {card}.", player=STYLE.text(message["player"]),
                         card=STYLE.card(message["card"])))
    if kind == "trick" and "winner" in message:
        return STYLE.bold(_("{player} wins the trick.", player=STYLE.text(message["winner"])))
    return unknown_line(message)


def unknown_line(message: dict[str, Any]) -> str:
    """A message this client has no words for (a newer server's): still a sentence, its name as words and its
    fields spelled out, never the bare identifier (``bot1: tiltowait turn`` read like a bug)."""
    words = message["type"].replace("_", " ").strip().capitalize() or _("Something happened")
    fields = ", ".join(f"{k.replace('_', ' ')} {_short(v)}" for k, v in message.items()
                       if k not in (*_SKIP, "player") and v is not None)
    who = f"{STYLE.text(str(message['player']))}: " if "player" in message else ""
    return f"{who}{words[0].lower() if who else words[0]}{words[1:]}" + (f" ({fields})" if fields else "") + "."


def _short(value: Any) -> str:
    if isinstance(value, list):
        return " ".join(_short(v) for v in value) or "-"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k} {_short(v)}" for k, v in value.items()) + "}"
    return STYLE.text(str(value))


def result_line(message: dict[str, Any]) -> str:
    """``round_end`` in one line: everyone's change and new total (same shape in every game)."""
    parts = []
    for r in message["results"]:
        good = -r["delta"] if low_wins(message.get("game")) else r["delta"]
        colour = "green" if good > 0 else "red" if good < 0 else "grey"
        delta = STYLE.paint(f"{r['delta']:+d}", colour)
        parts.append(f"{STYLE.text(r['player'])} {delta}={r['score']}")
    return STYLE.bold(_("Round {round} over: ", round=message["round"])) + ", ".join(parts) + _("  (F2: score sheet)")


def standings_line(message: dict[str, Any]) -> str:
    ranked = ", ".join(f"{r['place']}. {STYLE.text(r['player'])} {r['score']}" for r in message["standings"])
    return STYLE.paint(_("Game over: "), "bold", "yellow") + ranked


def text_lines(message: dict[str, Any]) -> list[str]:
    """A message's text as lines (``text``, or a list of ``lines``)."""
    text = message.get("text")
    return str(text).splitlines() if text else [str(line) for line in message.get("lines") or []]


def revealed(message: dict[str, Any]) -> str | None:
    """Whose hand a timed reveal opens (Tiltowait's ``milwa_reveal``: a game event with ``cards`` and ``seconds``,
    closed by a ``reveal_end`` naming that ``player``), or None for any other message."""
    seconds = message.get("seconds")
    if ("game" not in message or message["type"] == "reveal_end" or not isinstance(message.get("cards"), list)
            or not isinstance(seconds, int | float) or isinstance(seconds, bool) or seconds <= 0):
        return None
    whose = message.get("target", message.get("player"))
    return str(whose) if whose is not None else None


def seconds_of(message: dict[str, Any]) -> str:
    """A reveal's time as people write it: ``5 s``, ``2.5 s``."""
    return _("{seconds} s", seconds=format(message["seconds"], "g"))


def reveal_line(message: dict[str, Any], by: str | None = None) -> str:
    """A timed reveal in the log: who opened whose hand (``by``, the game's words: its caster unless it says
    more), to whom and for how long - never the cards, which the table pane shows while they are open and takes
    away after (as the telnet view does)."""
    whose = STYLE.text(revealed(message) or "?")
    caster = message.get("caster")
    if by is None:
        by = STYLE.text(str(caster)) if caster is not None else ""
    seconds = seconds_of(message)
    if message.get("audience", "table") == "table":
        if by:
            return STYLE.bold(_("{by} opens {whose}'s hand to the table for {seconds} (shown at the table).",
                                by=by, whose=whose, seconds=seconds))
        return STYLE.bold(_("{whose}'s hand is open to the table for {seconds} (shown at the table).", whose=whose,
                            seconds=seconds))
    if by:
        return STYLE.bold(_("{by} opens {whose}'s hand to you for {seconds} (shown at the table).", by=by,
                            whose=whose, seconds=seconds))
    return STYLE.bold(_("{whose}'s hand is open to you for {seconds} (shown at the table).", whose=whose,
                        seconds=seconds))


def own_lines(message: dict[str, Any]) -> list[str]:
    """Messages the server's renderers leave unsaid (a telnet player's table view says it instead: the game's
    client module words those, ``own_lines``), or that the client words its own way (a timed reveal: its cards go
    to the table pane), in words."""
    kind = message["type"]
    if "game" in message:
        game_own = client_part(message["game"], "own_lines")  # the game's events its renderer leaves unsaid
        lines: list[str] = game_own(message) if game_own is not None else []
        if lines:
            return lines
    if revealed(message) is not None:
        return [reveal_line(message)]
    if kind == "rules":  # /rules GAME typed by hand (F1's own request goes to its pane instead)
        return [STYLE.text(line) for line in text_lines(message)]
    if kind == "left" and "table" in message:
        return [STYLE.paint(_("You are no longer at table {table}.", table=message["table"]), "cyan")]
    return []


def event_lines(message: dict[str, Any]) -> list[str]:
    """The log lines for one game event."""
    kind = message["type"]
    if kind == "round_end" and "results" in message:
        return [result_line(message)]
    if kind == "game_end" and "standings" in message:
        return [standings_line(message)]
    module = renderer(message.get("game"))
    if module is not None and hasattr(module, "event_lines"):
        try:
            lines = module.event_lines(message, STYLE)  # the message a telnet player's lines are worded from
        except Exception:  # an event of a newer server, its fields not what this install's renderer reads
            lines = []
        if lines:
            return [tighten(_unrule(line)) for line in lines]
    return [generic_line(message)]


def tighten(line: str) -> str:
    """``plays  G6 .`` -> ``plays G6.``: a card in running text needs no padding. The padding was all that kept
    cards in a row apart (``draws 2 cards: B6  K10``), so a card keeps one space from a card, a word or a colon
    before it and from a word after it."""
    out: list[str] = []
    last = 0
    for match in _PADDED_CARD.finditer(line):
        out.append(line[last:match.start()])
        before = strip_ansi(line[:match.start()])[-1:]
        if (last and match.start() == last) or (before and not before.isspace() and before not in "(["):
            out.append(" ")
        out.append(match.expand(r"\1\2\3"))
        if strip_ansi(line[match.end():])[:1].isalnum():
            out.append(" ")
        last = match.end()
    out.append(line[last:])
    return "".join(out)


def _unrule(line: str) -> str:
    """Renderers draw 80-column rules (``── title ───…``); in a log pane a rule keeps only its title."""
    plain = strip_ansi(line)
    if plain.startswith(("\u2500\u2500", "--")) and plain.rstrip("\u2500- ") != plain.rstrip():
        return STYLE.paint(plain.rstrip("\u2500- "), "grey")
    return line


# broken at 80 columns
_WRAPPED = ("ok", "error", "notice", "chat", "announce", "shutdown", "kicked", "matched", "again")
_CONTINUED = re.compile(r"^((?:\x1b\[[0-9;]*m)*)  ")


def unwrap(lines: list[str]) -> str:
    """Lines the terminal renderer broke for 80 columns, joined again: the log breaks them at its own width, and
    a line broken twice (80, then the log's 67) left a ragged stub every other row."""
    return " ".join([lines[0], *(_CONTINUED.sub(r"\1", line) for line in lines[1:])])


def message_lines(message: dict[str, Any]) -> list[str]:
    """Log lines for any message: game events here, the rest (chat, notices, lists, replies) as the server's
    own terminal renderer words them; states and score sheets have panes of their own."""
    kind = message["type"]
    if kind in ("state", "score", "welcome", "replay"):  # the replay is the table pane's, step by step
        return []
    own = own_lines(message)
    if own:
        return own
    if hasattr(_PRESENTER, f"_{kind}") or kind in SEEK_RENDERERS:
        lines = [_unrule(line) for line in _PRESENTER.lines(message)]
        return [unwrap(lines)] if kind in _WRAPPED and lines else lines
    if "game" in message:
        return event_lines(message)
    return [generic_line(message)]
