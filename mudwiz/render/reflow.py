"""Rules text re-wrapped to a window: a game's ``RULES`` are hard-wrapped at 78 columns, and a narrower window
(a terminal's, or the client's help pane) gets them wrapped anew by paragraph, which this module finds.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from mudwiz.render.style import cell_width, wrap_words

# ``Cards:``, ``Your turn:``, ``Told to draw:``, ``HALITO-c (8, 20):``
LABEL = re.compile(r"[A-Z][\w'-]*(?: [\w'-]+){0,2}(?: \([^)]*\))?:(?: |$)")
TABLE_ROW = re.compile(r"\S {2,}(?=\S)")  # ``notequal       the dealer may ...``: a name, then its text in a column


def paragraphs(lines: list[str]) -> list[tuple[str, int, int]]:
    """The server's rules, hard-wrapped at 78 columns, as (text, indentation, hang) paragraphs to wrap anew: an
    indented run of lines is one paragraph, and a new one starts at a line beginning with ``- `` or a ``Word:``
    label, at a table row, and where the indentation changes (but for a ``- `` item's or a table row's hanging
    continuation); an unindented line (a heading) stands alone."""
    found: list[tuple[str, int, int]] = []
    for raw in lines:
        text = raw.rstrip()
        body = text.lstrip()
        indent = len(text) - len(body)
        if found and body and indent and _continues(found[-1], body, indent):
            last, at, hang = found[-1]
            found[-1] = (f"{last} {body}", at, hang)
            continue
        row = TABLE_ROW.search(body)
        # a table row's text column, in cells: a Japanese name column is twice as wide as its characters
        hang = indent + 2 if body.startswith("- ") else indent + cell_width(body[:row.end()]) if row else indent
        found.append((body, indent, hang))
    return found


def _continues(paragraph: tuple[str, int, int], body: str, indent: int) -> bool:
    """Whether a line goes on with the paragraph before it (see ``paragraphs``)."""
    text, at, hang = paragraph
    if not text or not at or body.startswith("- ") or LABEL.match(body) or TABLE_ROW.search(body):
        return False
    return indent == hang


def reflow(lines: list[str], width: int, paint: Callable[[str], str] = str, margin: int = 0) -> list[str]:
    """Rules text (a game's ``RULES``, hard-wrapped at 78 columns) re-wrapped to ``width`` by paragraph, each
    text made safe to show by ``paint`` and ``margin`` columns in: wrapping each line on its own left one word a
    row in a narrower window."""
    out: list[str] = []
    for text, indent, hang in paragraphs(lines):
        out += wrap_words(" " * (indent + margin) + paint(text), width, indent=hang + margin) if text else [""]
    return out
