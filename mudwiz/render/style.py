"""How text is dressed for a terminal: ANSI colour, or plain ASCII for a BBS-style host.

One ``Style`` object travels with a connection's mode, so each game's renderer writes its screen once and
never asks which terminal it is talking to. ``ascii`` output holds no escape codes and no non-ASCII character.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

from mudwiz.usertext import clean

WIDTH = 80

_CSI = "\x1b["
_COLOURS = {
    "red": "31", "green": "32", "yellow": "33", "blue": "34", "magenta": "35", "cyan": "36", "white": "37",
    "grey": "90", "bold": "1", "dim": "2", "reverse": "7", "underline": "4",
}
SUIT_COLOUR = {"R": "red", "G": "green", "Y": "yellow", "B": "blue", "K": "white"}
SPECIAL_COLOUR = {"Z": "magenta", "N": "cyan", "W": "white", "?": "grey"}
_ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")


def strip_ansi(text: str) -> str:
    return _ANSI.sub("", text)


# Format characters a terminal draws in no cell (zero-width space, joiners, direction marks, word joiner, BOM).
_ZERO_WIDTH = frozenset("\u200b\u200c\u200d\u200e\u200f\u2060\ufeff")


# How many cells East Asian "ambiguous" characters (box drawing, ○, ×, Greek, Cyrillic, many Latin-1 signs) take
# in the terminal being drawn for: 1 in Western terminals, 2 in Japanese ones (``ambiguous_cells``). Set around
# what is drawn for one user (``ConnectionSession.deliver``, the line editor's echo), so every measure below
# (padding, truncating, wrapping, ``fit``) counts as that user's terminal draws.
_AMBIGUOUS: ContextVar[int] = ContextVar("mudwiz_ambiguous_cells", default=1)


@contextmanager
def ambiguous_cells(cells: int) -> Iterator[None]:
    """Measure ambiguous-width characters as ``cells`` (1 or 2) wide inside the block."""
    token = _AMBIGUOUS.set(cells)
    try:
        yield
    finally:
        _AMBIGUOUS.reset(token)


def char_width(ch: str) -> int:
    """Terminal cells one character takes: 2 for East-Asian wide and fullwidth ones (CJK, kana, fullwidth
    forms), and for ambiguous ones where the terminal draws them so (``ambiguous_cells``); 0 for combining marks
    and zero-width format characters; else 1."""
    if ch < "\u00a1":  # ASCII and Latin-1's controls: one cell, and the lookups below are the slow part
        return 1
    if ch < "\u0300" and _AMBIGUOUS.get() == 1:  # the rest of Latin-1 and Latin Extended: one cell, unless wide
        return 1
    east = unicodedata.east_asian_width(ch)
    if east in ("W", "F"):
        return 2
    if ch in _ZERO_WIDTH or unicodedata.category(ch) in ("Mn", "Me"):
        return 0
    return 2 if east == "A" and _AMBIGUOUS.get() == 2 else 1


def cell_width(text: str) -> int:
    """Terminal cells plain ``text`` takes (no ANSI codes in it): what padding and wrapping must count."""
    return len(text) if text.isascii() else sum(map(char_width, text))


def visible_len(text: str) -> int:
    """Terminal cells ``text`` takes on screen: ANSI codes none, wide characters two, combining marks none."""
    return cell_width(strip_ansi(text))


def truncate(text: str, width: int) -> str:
    """The longest start of plain ``text`` that fits ``width`` cells; a wide character is never cut in half,
    and combining marks stay with the character they belong to."""
    if text.isascii():
        return text[: max(0, width)]
    used = 0
    for i, ch in enumerate(text):
        used += char_width(ch)
        if used > width:
            return text[:i]
    return text


# What has a plain-ASCII look-alike but no decomposition to one: dashes and minus signs, curly and low quotes,
# primes, guillemets, bullets, a few symbols, and letters that carry no separable accent (Ø, ß, Æ, Ł ...).
# NFKD already folds the rest: accents, ``…``, ligatures, fullwidth forms, no-break and thin spaces.
_ASCII_LOOK_ALIKES = str.maketrans({
    **dict.fromkeys("\u2010\u2011\u2012\u2013\u2014\u2015\u2212\u2043", "-"),
    **dict.fromkeys("\u2018\u2019\u201a\u201b\u2032\u00b4\u02bc", "'"),
    **dict.fromkeys("\u201c\u201d\u201e\u201f\u2033", '"'),
    **dict.fromkeys("\u2022\u2023\u00b7\u2219\u25cf\u25e6", "*"),
    "\u00ab": "<<", "\u00bb": ">>", "\u2039": "<", "\u203a": ">", "\u00d7": "x", "\u2192": "->",
    "\u2190": "<-", "\u2264": "<=", "\u2265": ">=", "\u2260": "!=", "\u00a9": "(c)",
    "\u00d8": "O", "\u00f8": "o", "\u00df": "ss", "\u00c6": "AE", "\u00e6": "ae", "\u0152": "OE", "\u0153": "oe",
    "\u0141": "L", "\u0142": "l", "\u0110": "D", "\u0111": "d", "\u00de": "Th", "\u00fe": "th", "\u0131": "i",
})


def to_ascii(text: str) -> str:
    """Fold text to 7-bit ASCII for a plain terminal: accents dropped, typographic dashes, quotes, ellipses and
    bullets as their ASCII look-alikes (a ``?`` would hide what a sentence says), anything else ``?``."""
    if text.isascii():
        return text
    folded = []
    for ch in unicodedata.normalize("NFKD", text.translate(_ASCII_LOOK_ALIKES)):
        if ch < "\x80":
            folded.append(ch)
        elif not unicodedata.combining(ch):
            folded.append("?")
    return "".join(folded)


@dataclass(frozen=True)
class Style:
    """``colour``: use ANSI escape codes. ``unicode``: non-ASCII glyphs allowed (off in ascii mode)."""

    colour: bool = True
    unicode: bool = True
    width: int = WIDTH  # terminal cells a line may take: 80 by design, a telnet client's window (NAWS) else
    ambiguous: int = 1  # cells an ambiguous-width character takes in the user's terminal (``ambiguous_cells``)

    @classmethod
    def for_mode(cls, mode: str, width: int = WIDTH, ambiguous: int = 1, charset: str = "utf-8") -> Style:
        """``charset`` ``ascii``: no rules' lines either (CP437 and Shift_JIS have them)."""
        if mode == "ascii" or charset == "ascii":
            return cls(colour=mode != "ascii", unicode=False, width=width, ambiguous=ambiguous)
        return cls(width=width, ambiguous=ambiguous)

    def paint(self, text: str, *names: str) -> str:
        if not self.colour or not names:
            return text
        codes = ";".join(_COLOURS[n] for n in names)
        return f"{_CSI}{codes}m{text}{_CSI}0m"

    def bold(self, text: str) -> str:
        return self.paint(text, "bold")

    def card(self, code: str, marked: bool = False, bare: bool = False) -> str:
        """A card code in its suit's colour; ``marked`` (playable) is bold, or bracketed in ASCII.

        Cards in a row are padded to one width; ``bare`` leaves the padding off, for a card inside a sentence.
        """
        colour = SPECIAL_COLOUR.get(code) or SUIT_COLOUR.get(code[-1] if "-" in code else code[0], "white")
        if bare:
            return self.paint(code, colour, "bold") if marked else self.paint(code, colour)
        if not self.colour:
            return f"[{code}]" if marked else f" {code} "
        return self.paint(f" {code} ", colour, "bold", "reverse") if marked else self.paint(f" {code} ", colour)

    def text(self, text: str) -> str:
        """Make text safe for this style: control characters removed, ASCII-folded when asked."""
        text = clean(text)
        return text if self.unicode else to_ascii(text)

    def rule(self, title: str = "", width: int | None = None) -> str:
        """A rule line across the style's width (or ``width``), with ``title`` in it."""
        width = self.width if width is None else width
        bar = "-" if not self.unicode else "\u2500"
        head = f"{bar * 2} {title} " if title else ""
        return self.paint(head + bar * max(0, (width - cell_width(head)) // char_width(bar)), "grey")


def wrap_cards(cards: list[str], width: int = WIDTH, indent: int = 0) -> list[str]:
    """Lay rendered card strings out in lines that fit ``width`` terminal cells (see ``visible_len``)."""
    lines: list[str] = []
    line, used = " " * indent, indent
    for c in cards:
        w = visible_len(c)
        if used + w > width and used > indent:
            lines.append(line)
            line, used = " " * indent, indent
        line += c
        used += w
    if used > indent or not lines:
        lines.append(line)
    return lines


def pad(text: str, width: int) -> str:
    """Pad (never cut) to ``width`` terminal cells, ANSI codes not counted, wide characters counted twice."""
    return text + " " * max(0, width - visible_len(text))


def right(text: str, width: int) -> str:
    """Right-align (never cut) to ``width`` terminal cells: a column's heading in Japanese takes two a character."""
    return " " * max(0, width - visible_len(text)) + text


def counted(n: int, noun: str) -> str:
    """``1 card``, ``2 cards``: people read "2 card(s)" as a program that did not care."""
    return f"{n} {noun}{'' if n == 1 else 's'}"


NO_BREAK = "\u00a0"  # joins words that must stay on one line (a command's words); shown as a space
_LEAD = re.compile("(?:\x1b\\[[0-9;]*m| )*")  # a line's indentation, paint codes within it


def wrap_words(text: str, width: int, indent: int = 2) -> list[str]:
    """``text`` (ANSI codes allowed) in lines of at most ``width`` cells, broken between words, the later lines
    indented: a terminal's own wrapping would cut words in half. Words joined by ``NO_BREAK`` (``/bid 1`` in an
    error's list of moves) are never broken apart, and the joint is shown as a plain space. A word wider than a
    line is cut where the rows end (``chop_painted``), and the words after it go on after its last piece (they
    once began a row of their own); leading spaces are kept."""
    if visible_len(text) <= width:
        return [text.replace(NO_BREAK, " ")]
    # the indentation, and the paint codes among it: a row of a painted line drawn for a wider window starts
    # with its colour, then spaces, and the code taken for a word left a blank row inside a red error
    lead = _LEAD.match(text).group()  # type: ignore[union-attr]  # matches at least ""
    body = text[len(lead):]
    lines: list[str] = []
    line, used = lead, visible_len(lead)
    start = True  # nothing but indentation on the line yet
    for word in body.split(" "):
        w = visible_len(word)
        if not start and used + 1 + w > width:
            lines.append(line)
            line, used, start = " " * indent, indent, True
        if not word and start and lines:  # the spaces of a column's padding where a row was broken: not a blank row
            continue
        if used + w > width:  # wider than a row: cut where rows end, and the words after it go on after its tail
            *full, line = chop_painted(line + word if start else f"{line} {word}", width, indent)
            lines += full
            used, start = visible_len(line), False
        elif start:
            line, used, start = line + word, used + w, False
        else:
            line, used = f"{line} {word}", used + 1 + w
    lines.append(line)
    return [line.replace(NO_BREAK, " ") for line in lines]


def chop_painted(line: str, width: int, indent: int = 0) -> list[str]:
    """``line`` (ANSI codes allowed) in pieces of at most ``width`` cells, broken wherever the width ends: for a
    word wider than the window (a long address in chat), whose tail a cut would lose. Its codes stay where they
    were; a wide character is never halved. The pieces after the first are indented by ``indent``, as wrapped
    lines are: one that started at the left edge could pass for a line of its own (a chat line padded out to
    the edge, then ``** Announcement from the sysop``)."""
    if visible_len(line) <= width:
        return [line]
    pieces: list[str] = []
    out: list[str] = []
    used = 0
    for piece, is_code in _painted(line):
        if not is_code:
            w = char_width(piece)
            if used + w > width and used > (indent if pieces else 0):
                pieces.append("".join(out))
                out, used = [" " * indent], indent
            used += w
        out.append(piece)
    pieces.append("".join(out))
    return pieces


def _painted(line: str) -> Iterator[tuple[str, bool]]:
    """``line``'s visible characters one by one and its ANSI codes whole, in order; True for a code."""
    at = 0
    for code in _ANSI.finditer(line):
        for ch in line[at:code.start()]:
            yield ch, False
        yield code.group(), True
        at = code.end()
    for ch in line[at:]:
        yield ch, False


_COLUMN_GAP = re.compile(r"(?<=\S) {3,}")  # padding between a table row's columns


def _squeeze(line: str) -> str:
    """``line`` with the padding between its columns made two spaces; its indentation (even after a colour
    code) kept."""
    def gap(run: re.Match[str]) -> str:
        return "  " if strip_ansi(line[: run.start()]).strip() else run.group()

    return _COLUMN_GAP.sub(gap, line)


def _squeeze_table(rows: list[str], width: int) -> list[str]:
    """A table's rows (a header and the lines under it) with the padding between their columns made two spaces
    where it is padding in every row: the columns shrink together and stay under their header. Squeezed one by
    one, each row lost different amounts and the columns no longer lined up (found by a probe). Rows with wide
    characters are squeezed one by one, as before (their cells and characters are not one to one)."""
    plain = [strip_ansi(row) for row in rows]
    if len(rows) < 2 or not all(text.isascii() for text in plain):
        return [_squeeze(row) for row in rows]
    for keep in (2, 1):  # two spaces between columns, or one if a row is too wide even so
        rows = _squeeze_columns(rows, plain, keep)
        if all(visible_len(row) <= width for row in rows):
            break
        plain = [strip_ansi(row) for row in rows]
    return rows


def _squeeze_columns(rows: list[str], plain: list[str], keep: int) -> list[str]:
    """``rows`` (``plain``: their text) without the columns past the first ``keep`` of each run longer than
    ``keep`` that is blank in every row and comes after each row's indentation."""
    widest = max(map(len, plain))
    blank = [all(col >= len(text) or text[col] == " " for text in plain) for col in range(widest)]
    starts = [len(text) - len(text.lstrip(" ")) for text in plain]
    drop: set[int] = set()
    col = 0
    while col < widest:
        if not blank[col]:
            col += 1
            continue
        end = col
        while end < widest and blank[end]:
            end += 1
        if end - col > keep and end < widest and all(col > start for start in starts):
            drop.update(range(col + keep, end))  # padding, not indentation
        col = end
    return [_drop_columns(row, drop) for row in rows] if drop else rows


def _drop_columns(line: str, drop: set[int]) -> str:
    """``line`` (ANSI codes allowed, its text ASCII) without the characters at the columns in ``drop``."""
    out: list[str] = []
    col = 0
    for piece, is_code in _painted(line):
        if is_code or col not in drop:
            out.append(piece)
        col += not is_code
    return "".join(out)


def _table_of(run: list[str], width: int) -> list[str]:
    """A run of padded lines squeezed as one table, from its first line, or else from a later one: a padded line
    above the table (Wizard's ``Dealer: ...   Leads: ...``) is no row of it, and its gaps, elsewhere, left the
    table no padding common to every row. Lines above the table are left to ``fit``."""
    for start in range(len(run) - 1):
        squeezed = _squeeze_table(run[start:], width)
        if all(visible_len(row) <= width for row in squeezed):
            return run[:start] + squeezed
    return _squeeze_table(run, width)


def _tables(lines: list[str], width: int) -> list[str]:
    """``lines`` with each run of table rows (lines with padding between columns) that holds a row too wide for
    ``width`` squeezed as one table (``_squeeze_table``)."""
    out: list[str] = []
    run: list[str] = []
    for line in [*lines, None]:
        if line is not None and _COLUMN_GAP.search(strip_ansi(line).lstrip(" ")):
            run.append(line)
            continue
        if run:
            out += _table_of(run, width) if any(visible_len(row) > width for row in run) else run
            run = []
        if line is not None:
            out.append(line)
    return out


def fit(lines: list[str], width: int) -> list[str]:
    """Lines no wider than ``width`` cells, for a window narrower than a renderer drew for (the compact view):
    a table too wide first loses the padding between its columns (runs of spaces become two, in every row
    alike), so a table row stays one row and under its header; still too wide, a line is broken between words
    (the later pieces indented), and a word wider than the window where the window ends: nothing anyone wrote
    is lost (it once was cut)."""
    if all(visible_len(line) <= width for line in lines):
        return lines
    fitted: list[str] = []
    for line in _tables(lines, width):
        if visible_len(line) > width:
            line = _squeeze(line)
        if visible_len(line) <= width:
            fitted.append(line)
            continue
        pieces = [chop for piece in wrap_words(line, width) for chop in chop_painted(piece, width, 2)]
        fitted += [_closed(piece) for piece in _carry_paint(pieces)]
    return fitted


_RESETS = (f"{_CSI}0m", f"{_CSI}m")


def _carry_paint(pieces: list[str]) -> list[str]:
    """The pieces of one painted line, each opened with the paint in force where it starts: every piece is cut
    on its own, so the later ones lost their colour, and a cut that dropped the line's closing reset left the
    colour running into whatever came next (the prompt)."""
    out, painting = [], ""
    for piece in pieces:
        out.append(painting + piece)
        for code in _ANSI.finditer(piece):
            if code.group().endswith("m"):  # colours and attributes, not cursor moves
                painting = "" if code.group() in _RESETS else painting + code.group()
    return out


def _closed(piece: str) -> str:
    """``piece`` ending with its paint reset, if it paints at all."""
    return piece + _RESETS[0] if _CSI in piece and not piece.endswith(_RESETS) else piece
