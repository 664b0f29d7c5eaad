"""Text the client's panes share: cards and suits painted as the game's renderer paints them, title bars, and
text cut to a pane's width (marking the cut)."""

from __future__ import annotations

from mudwiz.cards import SUIT_NAMES
from mudwiz.client.events import STYLE, renderer
from mudwiz.render.style import SUIT_COLOUR, cell_width, pad, strip_ansi, truncate, visible_len


def suit(letter: str | None, game: str = "") -> str:
    """A suit or colour letter as its painted name, in the game's own words (Tiltowait's G is gold)."""
    if letter is None:
        return "none"
    name = getattr(renderer(game), "COLOUR_NAMES", SUIT_NAMES).get(letter, letter)
    return STYLE.paint(name, "yellow" if name == "gold" else SUIT_COLOUR.get(letter, "white"), "bold")


def card(code: str, marked: bool = False, game: str | None = None) -> str:
    """A card as the game's renderer paints it (its own ``card`` when it has one), else ``Style.card``."""
    painter = getattr(renderer(game), "card", None)
    return painter(STYLE, code, marked) if callable(painter) else STYLE.card(code, marked)


def rule(title: str, width: int) -> str:
    """A pane's title bar; the title is shortened rather than run past the pane's edge."""
    return STYLE.rule(cut(title, max(1, width - 4)), width)


def rjust(text: str, width: int) -> str:
    return " " * max(0, width - visible_len(text)) + text


def cut(text: str, width: int) -> str:
    """Shorten plain text to ``width`` terminal cells, marking the cut."""
    return text if cell_width(text) <= width else pad(truncate(text, width - 1), width - 1) + "~"


def cut_ansi(line: str, width: int) -> str:
    """A painted line no wider than ``width`` (its paint dropped only if it had to be cut)."""
    return line if visible_len(line) <= width else cut(strip_ansi(line), width)
