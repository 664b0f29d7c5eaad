"""The card legend: what each letter of a card code means, game by game (each plugin's ``letters``), and where
games read a letter otherwise. Shown by ``/rules GAME`` (its ``cards`` section) and ``/help cards``.

The codes themselves never change (the protocol, the bots and recorded games depend on them), so a letter that
means one thing in one game and another elsewhere (``G``: green or gold), or one card with two letters (a
Wizard: ``Z`` or ``W``), is said plainly instead, computed from the plugins so that a new game's letters are
compared too.
"""

from __future__ import annotations

import textwrap

from mudwiz.games import available, game_class, plugin


def _letters() -> dict[str, tuple[tuple[str, str], ...]]:
    """Each game's title -> its letters, in the order the games are listed; games that declare none left out."""
    found = {}
    for name in available():
        p = plugin(name)
        if p is not None and p.letters:
            found[game_class(name).title] = p.letters
    return found


def _joined(words: list[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def _spread(readings: dict[str, list[str]]) -> str:
    """``{"green": ["Wizard", "Witches"], "gold": ["Tiltowait"]}`` -> ``green in Wizard and Witches, gold in
    Tiltowait``."""
    return ", ".join(f"{what} in {_joined(titles)}" for what, titles in readings.items())


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
    return [f"{said} is {_spread(r)}" for said, r in _parts()
            if title is None or any(title in titles for titles in r.values())]


def legend(letters: tuple[tuple[str, str], ...]) -> str:
    return ", ".join(f"{letter} {meaning}" for letter, meaning in letters)


def rules_lines(name: str, cols: int = 80) -> list[str]:
    """``/rules GAME``'s ``cards`` section: this game's letters, and where another game reads one otherwise."""
    p = plugin(name)
    if p is None or not p.letters:
        return []
    lines = [f"Letters, as typed in moves (/play R12) and shown in hands: {legend(p.letters)}."]
    elsewhere = differences(game_class(name).title)
    if elsewhere:
        lines.append(f"Not the same in every game: {'; '.join(elsewhere)}.")
    return [row for line in lines for row in textwrap.wrap(line, cols, initial_indent="  ", subsequent_indent="  ")]


def help_lines(cols: int = 80) -> list[str]:
    """``/help cards``: every game's letters, then where the games part."""
    lines = textwrap.wrap("Card letters, as typed in moves (/play R12) and shown in hands:", cols)
    for title, letters in _letters().items():
        lines += textwrap.wrap(f"{title}: {legend(letters)}.", cols, initial_indent="  ", subsequent_indent="    ")
    said = differences()
    if said:
        lines += textwrap.wrap(f"Not the same in every game: {'; '.join(said)}.", cols)
    return lines
