"""The card legend: what each letter of a card code means, game by game (each plugin's ``letters``), and where
games read a letter otherwise. Shown by ``/rules GAME`` (its ``cards`` section) and ``/help cards``.

The codes themselves never change (the protocol, the bots and recorded games depend on them), so a letter that
means one thing in one game and another elsewhere (``G``: green or gold), or one card with two letters (a
Wizard: ``Z`` or ``W``), is said plainly instead, computed from the plugins so that a new game's letters are
compared too.
"""

from __future__ import annotations

import textwrap
import unicodedata

from mudwiz.games import available, game_class, its_text, plugin
from mudwiz.texts import now


def _letters() -> dict[str, tuple[tuple[str, str], ...]]:
    """Each game's title -> its letters, in the order the games are listed; games that declare none left out."""
    found = {}
    for name in available():
        p = plugin(name)
        if p is not None and p.letters:
            found[game_class(name).title] = tuple((letter, str(its_text(p, meaning))) for letter, meaning in p.letters)
    return found


def _joined(words: list[str]) -> str:
    return words[0] if len(words) == 1 else now("{first} and {last}", first=", ".join(words[:-1]), last=words[-1])


def _spread(readings: dict[str, list[str]]) -> str:
    """``{"green": ["Wizard", "Witches"], "gold": ["Tiltowait"]}`` -> ``green in Wizard and Witches, gold in
    Tiltowait``."""
    return ", ".join(now("{what} in {games}", what=what, games=_joined(titles)) for what, titles in readings.items())


def _parts() -> list[tuple[str, dict[str, list[str]]]]:
    """Where the games part: a letter with several meanings, a meaning with several letters; each with what it
    is in which games."""
    by_letter: dict[str, dict[str, list[str]]] = {}
    by_meaning: dict[str, dict[str, list[str]]] = {}
    for title, letters in _letters().items():
        for letter, meaning in letters:
            by_letter.setdefault(letter, {}).setdefault(meaning, []).append(title)
            by_meaning.setdefault(meaning, {}).setdefault(letter, []).append(title)
    return [(said, r) for said, r in (*by_letter.items(), *by_meaning.items()) if len(r) > 1]


def differences(title: str | None = None) -> list[str]:
    """``G is green in Wizard and Witches, gold in Tiltowait``: every such part, or those ``title`` is in."""
    return [now("{said} is {readings}", said=said, readings=_spread(r)) for said, r in _parts()
            if title is None or any(title in titles for titles in r.values())]


def legend(letters: tuple[tuple[str, str], ...]) -> str:
    return ", ".join(f"{letter} {meaning}" for letter, meaning in letters)


def rules_lines(name: str, cols: int = 80) -> list[str]:
    """``/rules GAME``'s ``cards`` section: this game's letters, and where another game reads one otherwise."""
    p = plugin(name)
    if p is None or not p.letters:
        return []
    letters = _letters().get(game_class(name).title, p.letters)
    lines = [now("Letters, as typed in moves (/play R12) and shown in hands: {legend}.", legend=legend(letters))]
    elsewhere = differences(game_class(name).title)
    if elsewhere:
        lines.append(now("Not the same in every game: {differences}.", differences="; ".join(elsewhere)))
    return [row for line in lines for row in _wrap(line, cols, "  ", "  ")]


def _wrap(text: str, cols: int, first: str = "", rest: str = "") -> list[str]:
    """``text`` in rows of ``cols`` terminal cells, broken between words, or anywhere in a run of Japanese
    (``textwrap`` counts a wide character as one cell and never breaks such a run)."""
    if text.isascii():
        return textwrap.wrap(text, cols, initial_indent=first, subsequent_indent=rest)
    rows, row, used = [], first, len(first)
    for ch in text:
        width = 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1
        if used + width > cols:
            cut = row.rfind(" ")
            whole = ch != " " and cut > len(rest) and row[cut + 1:].isascii()  # an English word: not broken
            rows.append(row[:cut] if whole else row)
            row = rest + (row[cut + 1:] if whole else "")
            used = len(row) + sum(1 for c in row if unicodedata.east_asian_width(c) in ("W", "F"))
        if ch == " " and row == rest:
            continue
        row += ch
        used += width
    return [*rows, row]


def help_lines(cols: int = 80) -> list[str]:
    """``/help cards``: every game's letters, then where the games part."""
    lines = _wrap(now("Card letters, as typed in moves (/play R12) and shown in hands:"), cols)
    for title, letters in _letters().items():
        lines += _wrap(now("{game}: {legend}.", game=title, legend=legend(letters)), cols, "  ", "    ")
    said = differences()
    if said:
        lines += _wrap(now("Not the same in every game: {differences}.", differences="; ".join(said)), cols)
    return lines
