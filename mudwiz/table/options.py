"""The options a host sets before the start: the game's own, which its class checks and its engine reads, and the
table's (``confirm``, ``turn``, ``botdelay``), typed, which the engine never sees."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from mudwiz.errors import BadOption
from mudwiz.games.base import Game, Option
from mudwiz.texts import later

TABLE_OPTIONS = (
    Option("confirm", later("seconds to wait for everyone's /ok after a round before going on anyway (0 or off: no "
                            "limit)"),
           default=120, lo=0, hi=3600),
    Option("turn", later("seconds a person has for a move before a random legal one is made (0 or off: no limit)"),
           default=300, lo=0, hi=3600),
    Option("botdelay", later("milliseconds a bot waits before it moves (off: the server's setting)"),
           default=None, lo=0, hi=10000),
)


def table_option(name: str) -> Option | None:
    return next((o for o in TABLE_OPTIONS if o.name == name), None)


@dataclass(frozen=True)
class Settings:
    """The table's own options, one field per ``TABLE_OPTIONS`` entry in its order (the ``table_options`` of a
    ``state``): timers read a number, not a dict entry that could be misspelt."""

    confirm: int  # seconds; 0: wait for every /ok however long
    turn: int  # seconds; 0: no turn clock
    botdelay: int | None  # milliseconds; None: the server's MUDWIZ_BOT_DELAY

    @classmethod
    def defaults(cls) -> Settings:
        defaults: dict[str, Any] = {o.name: o.default for o in TABLE_OPTIONS}  # each Option's kind fits its field
        return cls(**defaults)


_SETTING_NAMES = tuple(f.name for f in dataclasses.fields(Settings))  # in order; every state carries them


def show(opt: Option, value: Any) -> str:
    """An option's value as /option prints it: flags and unset numbers read on or off, and so does 0 for the
    table's clocks (``turn``, ``confirm``: 0 is no limit). Not ``value in (False, None)``: 0 == False, and a
    ``botdelay`` of 0 ms (bots move at once) is no "off" (the server's pace)."""
    if value is True:
        return "on"
    if value is False or value is None or (value == 0 and table_option(opt.name) is opt and opt.default is not None):
        return "off"
    return str(value)


class TableOptions:
    """What the host chose, parsed and checked as it is set, so that ``/start`` cannot fail on a typo."""

    def __init__(self, game_class: type[Game]) -> None:
        self.game_class = game_class
        self.chosen: dict[str, Any] = {}  # as the host set them: game options and table options
        self.settings = Settings.defaults()

    def settings_dict(self) -> dict[str, Any]:
        """The settings as a ``state`` carries them (a flat copy: ``asdict`` deep-copies every value, per state)."""
        return {name: getattr(self.settings, name) for name in _SETTING_NAMES}

    def game_options(self) -> dict[str, Any]:
        """The host's choices the engine is built with: the table's own are not the game's business."""
        return {k: v for k, v in self.chosen.items() if table_option(k) is None}

    def current(self) -> dict[str, Any]:
        """Every option's value in force, defaults filled in."""
        return {**self.game_class.check_options(self.game_options(), None), **self.settings_dict()}

    def rows(self) -> list[dict[str, Any]]:
        """Every option with its current value and help, for /option and the protocol's ``options`` message."""
        current = self.current()
        return [{"name": opt.name, "value": current[opt.name], "shown": show(opt, current[opt.name]), "help": opt.help,
                 "kind": opt.kind} for opt in (*self.game_class.OPTIONS, *TABLE_OPTIONS)]

    def set(self, name: str, value: str | None) -> str:
        """Set one option as typed (``None``: no value given); returns ``name = value`` as it now reads.

        Raises ``BadOption`` for an unknown name, a bad value, or a combination the game refuses."""
        name = name.lower()
        own = table_option(name)
        opt = own or self.game_class.option(name)
        if value is None and opt.kind != "flag":
            if opt.kind == "int" and opt.default is None:
                raise BadOption(later("{name} needs a value: a number from {lo} to {hi}, or off", name=name,
                                      lo=opt.lo, hi=opt.hi))
            if opt.kind == "int":
                raise BadOption(later("{name} needs a value: a number from {lo} to {hi}", name=name, lo=opt.lo,
                                      hi=opt.hi))
            hint = ", ".join(opt.choices)
            if opt.default is None:
                raise BadOption(later("{name} needs a value: one of {choices}, or off", name=name, choices=hint))
            raise BadOption(later("{name} needs a value: one of {choices}", name=name, choices=hint))
        if own is not None:
            if own.default is not None and str(value).lower() == "off":
                value = "0"  # the table's own numbers (turn, confirm) read 0 as off, and /option shows it so
            parsed = own.parse(value)
            changed: dict[str, Any] = {name: parsed}  # a table option parses to its field's type
            self.settings = dataclasses.replace(self.settings, **changed)
        else:
            parsed = opt.parse(value)
            self.game_class.check_options({**self.game_options(), name: parsed}, None)
        self.chosen[name] = parsed
        return f"{name} = {show(opt, self.current()[name])}"

    def pace(self, server_delay: float) -> float:
        """Seconds a bot waits before moving, so people can follow the play: the host's choice or the server's."""
        chosen = self.settings.botdelay
        return server_delay if chosen is None else chosen / 1000
