"""How the messages of finding a game read at a terminal: ``seeks`` (the open seeks), ``matched`` (a seek became a
table), ``again`` (who has agreed to a rematch) and ``adjourned`` (the games that wait for someone). The presenter
(ansi.py) looks a message's type up in ``RENDERERS`` before it falls back to a game's event lines."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from mudwiz.render.style import Style, pad, wrap_words
from mudwiz.render.tournaments import RENDERERS as tournament_renderers


def _range(seek: dict[str, Any]) -> str:
    low, high = seek.get("min"), seek.get("max")
    if low is None and high is None:
        return ""
    return f"{low if low is not None else 0}-{high if high is not None else ''}"


def _options(options: dict[str, Any]) -> str:
    return " ".join(name if value is None else f"{name}={value}" for name, value in options.items())


def seeks(m: dict[str, Any], s: Style) -> list[str]:
    rows = [s.rule(f"Seeks ({len(m['seeks'])})")]
    for seek in m["seeks"]:
        kind = "rated" if seek["rated"] else "casual"
        bots = f" bots in {seek['bots_after']:g} s" if seek.get("bots_after") else ""
        line = (f"  {pad(s.text(seek['who']), 16)} {seek['rating']:>5} {seek['game']:<10} {seek['players']}p "
                f"{kind:<6} {_range(seek):<10} {s.text(_options(seek['options']))}{bots}")
        rows.append(line.rstrip())
    if not m["seeks"]:
        rows.append("  No open seeks: /seek GAME asks for a game, /quick GAME finds one.")
    return rows


def matched(m: dict[str, Any], s: Style) -> list[str]:
    bots = f" and {m['bots']} bot{'s' if m['bots'] != 1 else ''}" if m["bots"] else ""
    text = (f"* Your seek is matched: {m['game']} at table {m['table']} with {', '.join(m['players'])}{bots}; "
            f"it starts in {m['countdown']:g} s (/leave backs out).")
    return [s.paint(line, "cyan", "bold") for line in wrap_words(s.text(text), s.width)]


def again(m: dict[str, Any], s: Style) -> list[str]:
    if m.get("called_off_by"):
        text = f"* The rematch at table {m['table']} is called off ({m['called_off_by']} left)."
    else:
        waiting = f"; waiting for {', '.join(m['waiting'])} (/again)" if m["waiting"] else ""
        text = f"* Rematch at table {m['table']}: agreed {', '.join(m['agreed'])}{waiting}."
    return [s.paint(line, "cyan") for line in wrap_words(s.text(text), s.width)]


def adjourned(m: dict[str, Any], s: Style) -> list[str]:
    rows = [s.rule(f"Adjourned games of {s.text(m['name'])} ({len(m['games'])})")]
    for game in m["games"]:
        rows.append(f"  table {game['id']:<5} {game['game']:<10} {s.text(', '.join(game['players']))}")
        rows.append(f"    since {game['since'][:16].replace('T', ' ')} UTC, kept until "
                    f"{game['until'][:10]}: /resume {game['id']}")
    if not m["games"]:
        rows.append("  None: a game whose players all drop waits here for them.")
    return rows


RENDERERS: dict[str, Callable[[dict[str, Any], Style], list[str]]] = {
    "seeks": seeks, "matched": matched, "again": again, "adjourned": adjourned, **tournament_renderers,
}
