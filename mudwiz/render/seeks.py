"""How the messages of finding a game read at a terminal: ``seeks`` (the open seeks), ``matched`` (a seek became a
table), ``again`` (who has agreed to a rematch) and ``adjourned`` (the games that wait for someone). The presenter
(ansi.py) looks a message's type up in ``RENDERERS`` before it falls back to a game's event lines."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from mudwiz.render.style import Style, pad, wrap_words
from mudwiz.render.tournaments import RENDERERS as tournament_renderers
from mudwiz.texts import now, now_n


def _range(seek: dict[str, Any]) -> str:
    low, high = seek.get("min"), seek.get("max")
    if low is None and high is None:
        return ""
    return f"{low if low is not None else 0}-{high if high is not None else ''}"


def _options(options: dict[str, Any]) -> str:
    return " ".join(name if value is None else f"{name}={value}" for name, value in options.items())


def seeks(m: dict[str, Any], s: Style) -> list[str]:
    rows = [s.rule(now("Seeks ({n})", n=len(m["seeks"])))]
    for seek in m["seeks"]:
        kind = now("rated") if seek["rated"] else now("casual")
        after = f"{seek['bots_after']:g}" if seek.get("bots_after") else ""
        bots = now(" bots in {seconds} s", seconds=after) if after else ""
        line = (f"  {pad(s.text(seek['who']), 16)} {seek['rating']:>5} {seek['game']:<10} {seek['players']}p "
                f"{pad(kind, 6)} {_range(seek):<10} {s.text(_options(seek['options']))}{bots}")
        rows.append(line.rstrip())
    if not m["seeks"]:
        rows += wrap_words(now("  No open seeks: /seek GAME asks for a game, /quick GAME finds one."), s.width,
                           indent=4)
    return rows


def matched(m: dict[str, Any], s: Style) -> list[str]:
    players, seconds = ", ".join(m["players"]), f"{m['countdown']:g}"
    if m["bots"]:
        text = now_n("* Your seek is matched: {game} at table {table} with {players} and {n} bot; it starts in "
                     "{seconds} s (/leave backs out).",
                     "* Your seek is matched: {game} at table {table} with {players} and {n} bots; it starts in "
                     "{seconds} s (/leave backs out).", m["bots"], game=m["game"], table=m["table"], players=players,
                     seconds=seconds)
    else:
        text = now("* Your seek is matched: {game} at table {table} with {players}; it starts in {seconds} s "
                   "(/leave backs out).", game=m["game"], table=m["table"], players=players, seconds=seconds)
    return [s.paint(line, "cyan", "bold") for line in wrap_words(s.text(text), s.width)]


def again(m: dict[str, Any], s: Style) -> list[str]:
    if m.get("called_off_by"):
        text = now("* The rematch at table {table} is called off ({name} left).", table=m["table"],
                   name=m["called_off_by"])
    elif m["waiting"]:
        text = now("* Rematch at table {table}: agreed {agreed}; waiting for {waiting} (/again).", table=m["table"],
                   agreed=", ".join(m["agreed"]), waiting=", ".join(m["waiting"]))
    else:
        text = now("* Rematch at table {table}: agreed {agreed}.", table=m["table"], agreed=", ".join(m["agreed"]))
    return [s.paint(line, "cyan") for line in wrap_words(s.text(text), s.width)]


def adjourned(m: dict[str, Any], s: Style) -> list[str]:
    rows = [s.rule(now("Adjourned games of {name} ({n})", name=s.text(m["name"]), n=len(m["games"])))]
    for game in m["games"]:
        table = now("table {id:<5}", id=game["id"])
        rows.append(f"  {table} {game['game']:<10} {s.text(', '.join(game['players']))}")
        since = game["since"][:16].replace("T", " ")
        rows.append(now("    since {since} UTC, kept until {until}: /resume {id}", since=since,
                        until=game["until"][:10], id=game["id"]))
    if not m["games"]:
        rows.append(now("  None: a game whose players all drop waits here for them."))
    return rows


RENDERERS: dict[str, Callable[[dict[str, Any], Style], list[str]]] = {
    "seeks": seeks, "matched": matched, "again": again, "adjourned": adjourned, **tournament_renderers,
}
