"""The options a table's host sets before the start, as a game declares them (``Game.OPTIONS``)."""

from __future__ import annotations

from dataclasses import dataclass

from mudwiz.errors import BadOption
from mudwiz.numbers import whole_number
from mudwiz.texts import Later


@dataclass(frozen=True)
class Option:
    """One option a table host may set before the start: a flag, or a whole number in ``lo..hi``."""

    name: str
    help: str | Later  # a game's ``later`` text: read in each reader's language (its own catalog's)
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
            raise BadOption(f"{self.name} is on or off, not {value!r}")
        if self.kind == "choice":
            if value is None:
                raise BadOption(f"{self.name} needs a value: one of {', '.join(self.choices)}")
            if str(value).lower() not in self.choices:
                raise BadOption(f"{self.name} is one of {', '.join(self.choices)}, not {value!r}")
            return str(value).lower()
        if self.default is None and (value is None or str(value).lower() in ("off", "none")):
            return None  # an optional number left unset (parsing is idempotent: None stays None)
        if value is None:
            raise BadOption(f"{self.name} needs a number ({self.lo}..{self.hi})")
        number = value if type(value) is int else whole_number(str(value).strip(), signed=True)  # bool: no
        if number is None:
            raise BadOption(f"{self.name} needs a whole number, not {value!r}")
        if (self.lo is not None and number < self.lo) or (self.hi is not None and number > self.hi):
            raise BadOption(f"{self.name} must be from {self.lo} to {self.hi}, not {number}")
        return number
