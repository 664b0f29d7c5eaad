"""The options a table's host sets before the start, as a game declares them (``Game.OPTIONS``)."""

from __future__ import annotations

from dataclasses import dataclass

from mudwiz.errors import BadOption
from mudwiz.numbers import whole_number
from mudwiz.texts import Later, later


@dataclass(frozen=True)
class Option:
    """One option a table host may set before the start: a flag, or a whole number in ``lo..hi``."""

    name: str
    help: str | Later  # a game's own help, a Later of its own catalog (the reader's language where shown)
    default: bool | int | str | None = False
    lo: int | None = None  # for whole-number options
    hi: int | None = None
    choices: tuple[str, ...] = ()  # for word options

    @property
    def kind(self) -> str:
        if self.choices:
            return "choice"
        return "flag" if isinstance(self.default, bool) else "int"

    def parse(self, value: str | int | bool | None) -> bool | int | str | None:
        """Turn what a user typed into the option's value; ``None`` for a flag means "on"."""
        if self.kind == "flag":
            if value is None or value is True or str(value).lower() in ("on", "yes", "true", "1"):
                return True
            if value is False or str(value).lower() in ("off", "no", "false", "0"):
                return False
            raise BadOption(later("{name} is on or off, not {value}", name=self.name, value=repr(value)))
        if self.kind == "choice":
            if value is None:
                raise BadOption(later("{name} needs a value: one of {choices}", name=self.name,
                                      choices=", ".join(self.choices)))
            if str(value).lower() not in self.choices:
                raise BadOption(later("{name} is one of {choices}, not {value}", name=self.name,
                                      choices=", ".join(self.choices), value=repr(value)))
            return str(value).lower()
        if self.default is None and (value is None or str(value).lower() in ("off", "none")):
            return None  # an optional number left unset (parsing is idempotent: None stays None)
        if value is None:
            raise BadOption(later("{name} needs a number ({lo}..{hi})", name=self.name, lo=self.lo, hi=self.hi))
        number = value if type(value) is int else whole_number(str(value).strip(), signed=True)  # bool: no
        if number is None:
            raise BadOption(later("{name} needs a whole number, not {value}", name=self.name, value=repr(value)))
        if (self.lo is not None and number < self.lo) or (self.hi is not None and number > self.hi):
            raise BadOption(later("{name} must be from {lo} to {hi}, not {n}", name=self.name, lo=self.lo, hi=self.hi,
                                  n=number))
        return number
