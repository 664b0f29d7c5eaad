"""Whole numbers as users type them: ASCII digits 0-9 only, read in this one place.

Python reads far more than 0-9 as digits: ``"²".isdigit()`` is True yet ``int("²")`` raises, and ``int("٣")``
(Arabic-Indic) or ``int("１")`` (fullwidth) are 3 and 1. A parser built on either answered ``/join ²`` with an
internal error and ``/watch ٣`` by watching table 3. Patterns that read numbers spell ``[0-9]``, never ``\\d``
(which matches every Unicode decimal digit unless ``re.ASCII``).
"""

from __future__ import annotations

MAX_DIGITS = 9  # more than any table number, option or bid; and int() refuses strings of over 4300 digits


def whole_number(text: str, *, signed: bool = False) -> int | None:
    """``text`` as an int when it is ``[0-9]+`` (``-[0-9]+`` too when ``signed``), at most ``MAX_DIGITS``
    digits; None for anything else, so each caller words its own one-line error."""
    digits = text[1:] if signed and text.startswith("-") else text
    if not (digits.isascii() and digits.isdigit()) or len(digits) > MAX_DIGITS:
        return None
    return int(text)
