"""The game interface every rules engine implements, and the machinery they share.

A game is a pure state machine (no I/O, no clocks, no printing), modelled on OpenSpiel and sans-I/O libraries:

- ``Game(players, options, seed)``: all randomness comes from one ``random.Random(seed)``;
- ``legal_actions(seat)``: what that seat may do now (empty when nothing is theirs to do);
- ``apply(seat, action) -> [Event]``: raises a typed error and leaves the state untouched when refused;
- ``view(seat)``: a JSON-ready dict of what that seat may know, nothing more (``None``: an observer); the fields
  every game shares are built here, a game's own added by its ``_view`` hook;
- ``advance()``: the table's call to leave a ``roundend`` pause (round confirmation is the table's business);
- ``log``: every accepted step, so ``replay(seed, options, log)`` rebuilds the game event for event.
"""

from __future__ import annotations

import dataclasses
import random
import re
from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, ClassVar

from mypy_extensions import mypyc_attr

from mudwiz.cards import Action, as_action, remove_card
from mudwiz.errors import BadOption, IllegalAction, NotYourTurn
from mudwiz.numbers import whole_number

Seat = int
ADVANCE = "next"  # the log's word for the table ending a round-end pause
_NOTHING: Mapping[str, Any] = {}  # no fields (never changed)


class Phase(StrEnum):
    """Where a table's game stands, one vocabulary for engines, renderers, bots and the client. A member equals
    its word (``Phase.PLAYING == "playing"``), so views and JSON carry the words the protocol documents."""

    # every game
    WAITING = "waiting"  # the table's, before the start: no game yet
    PLAYING = "playing"
    ROUNDEND = "roundend"  # a round is scored; the table's ``advance()`` ends the pause
    GAMEOVER = "gameover"
    # A game's own phases (bidding, passing...) are its plugin's (``GamePlugin.phases``), not members here.


# ---------------------------------------------------------------- events


def _snake(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


# an event class -> its JSON type and its fields' names: asked for every event of every move, so worked out once
# per class (a regular expression and ``dataclasses.fields`` each time were a few per cent of a move)
_SHAPES: dict[type, tuple[str, tuple[str, ...]]] = {}


def _shape(cls: type) -> tuple[str, tuple[str, ...]]:
    shape = _SHAPES.get(cls)
    if shape is None:
        shape = _SHAPES[cls] = (_snake(cls.__name__), tuple(f.name for f in dataclasses.fields(cls)))
    return shape


@mypyc_attr(allow_interpreted_subclasses=True)
@dataclass(frozen=True)
class Event:
    """Something that happened. Engines return these; renderers choose the words and colours.

    Players are named, not numbered, so an event means the same in a log, a JSON line or a screen.
    ``visible_to`` lets an event hide from some viewers what only one player may know.
    """

    @property
    def type(self) -> str:
        return _shape(type(self))[0]

    def visible_to(self, viewer: str | None) -> Event | None:
        """The event as ``viewer`` (a player name, or None for an observer) may see it; None: not at all."""
        return self

    def to_dict(self) -> dict[str, Any]:
        """The event's fields, as its message carries them. Flat: events hold plain JSON values, built fresh by
        each move and never changed, so they are shared rather than deep-copied (``asdict``) for every viewer."""
        kind, names = _shape(type(self))
        return {"type": kind, **{name: getattr(self, name) for name in names}}


@mypyc_attr(native_class=False)
class TimedReveal(ABC):
    """Declared by an event that opens cards to its viewers for a while (Tiltowait's MILWA: ``class
    MilwaReveal(Event, TimedReveal)``). Engines keep no clock, so the event says for how long and whose cards; the
    table times it and tells each viewer who saw it when it is over. A mixin rather than an ``Event``: it is no
    event of its own, only something an event is."""

    @property
    @abstractmethod
    def reveal_seconds(self) -> float:
        """How long the cards stay open; for 0 (not timed) the table sends no ``reveal_end``."""

    @property
    @abstractmethod
    def revealed_player(self) -> str:
        """Whose cards are open: the ``player`` of the ``reveal_end`` message that closes them."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """Refuse, when it is defined, a class that does not say how long and whose: Python would refuse to make
        one of its events, but not once ``Event`` is compiled (mudwiz/compiled.py), whose events are made by
        mypyc's code, which does not look for abstract methods."""
        super().__init_subclass__(**kwargs)
        missing = [name for name in ("reveal_seconds", "revealed_player")
                   if getattr(cls, name) is getattr(TimedReveal, name)]
        if missing:
            raise TypeError(f"{cls.__name__} declares a TimedReveal but leaves abstract: {', '.join(missing)}")


# ---------------------------------------------------------------- options


@dataclass(frozen=True)
class Option:
    """One option a table host may set before the start: a flag, or a whole number in ``lo..hi``."""

    name: str
    help: str
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


# ---------------------------------------------------------------- the game


@mypyc_attr(allow_interpreted_subclasses=True, serializable=True)
class Game(ABC):
    """Base of every rules engine: options, the action log, refusal without side effects, replay."""

    name: ClassVar[str]
    title: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    OPTIONS: ClassVar[Sequence[Option]] = ()
    VERBS: ClassVar[Mapping[str, str]] = {}  # verb -> "usage: what it does", for /help at a table
    # Verbs that race a person's reaction (Tiltowait's catch): the table lets a bot play them only after a delay a
    # person could have answered in, however fast its bots otherwise move.
    REACTION_VERBS: ClassVar[frozenset[str]] = frozenset()
    # section -> the rules in brief for a first-time player (/rules GAME): ``goal``, ``play``, ``scoring`` and any
    # of the game's own (Tiltowait's ``spells``); lines of at most 78 columns, shown indented by two. The game
    # owns its text, so a game added as a plugin brings its rules along; ``options`` is written from OPTIONS.
    RULES: ClassVar[Mapping[str, str]] = {}
    LOW_WINS: ClassVar[bool] = False  # the lowest total wins (Witches' fire points), for the standings
    # a Phase, set by ``_start`` and the moves; ``ROUNDEND`` and ``GAMEOVER`` mean the same in every game (typed
    # ``str``: a plugin's game may set the word itself, which a compiled Game would refuse as no Phase)
    _phase: str
    # set by ``_start`` in every game, and read by ``view``:
    round: int  # the round (hand) being played, from 1
    scores: list[int]  # running totals, by seat
    sheet: list[dict[str, Any]]  # one entry a scored round, as the view and /score show it
    _sheet_copy: list[dict[str, Any]] | None = None  # the views' shared copy of ``sheet`` (``sheet_snapshot``)
    # each seat's hand as its views show it, with the cards it was sorted from (``_shown_hand``)
    _hands_shown: dict[Seat, tuple[tuple[str, ...], list[str]]] | None = None

    # the game's own fields of the state a table sends before its start (no game yet, so no ``view``)
    WAITING_VIEW: ClassVar[Mapping[str, Any]] = {}

    @classmethod
    def waiting_view(cls) -> dict[str, Any]:
        """``WAITING_VIEW``, beside the fields every game has: a fresh copy each time, as a state is sent as made."""
        return plain_copy(dict(cls.WAITING_VIEW))

    @classmethod
    def usage(cls, verb: str) -> str:
        """How ``verb`` is typed, the part of its ``VERBS`` line before the colon (``pass C1 C2 ...``); "" for a
        verb this game does not have."""
        return cls.VERBS.get(verb, "").split(":")[0]

    @classmethod
    def usage_error(cls, verb: str) -> IllegalAction:
        """A malformed ``verb``: its usage as a person types it, slash and all (``usage: /bid N``), in the one
        style every refusal quotes a command in."""
        return IllegalAction(f"usage: /{cls.usage(verb)}")

    @classmethod
    def not_a_move(cls, verb: str) -> IllegalAction:
        """A verb this game does not have, with the ones it has."""
        moves = ", ".join(f"/{v}" for v in cls.VERBS)
        return IllegalAction(f"{verb!r} is not a {cls.title} move: use {moves}")

    def __init__(
        self,
        players: Sequence[str] | int,
        options: Mapping[str, Any] | None = None,
        seed: int | None = 0,
    ) -> None:
        names = [f"P{i + 1}" for i in range(players)] if isinstance(players, int) else list(players)
        if not self.min_players <= len(names) <= self.max_players:
            raise BadOption(
                f"{self.title} is for {self.min_players} to {self.max_players} players, not {len(names)}"
            )
        if len(set(names)) != len(names):
            raise BadOption("player names must differ")
        self.players: list[str] = names
        self.options: dict[str, Any] = self.check_options(options or {}, len(names))
        self.seed = seed
        self.rng = random.Random(seed)
        self.log: list[tuple[Seat | None, str]] = []
        self.start_events: list[Event] = self._start()

    # -- options

    @classmethod
    def option(cls, name: str) -> Option:
        for opt in cls.OPTIONS:
            if opt.name == name.lower():
                return opt
        names = ", ".join(o.name for o in cls.OPTIONS) or "none"
        raise BadOption(f"{cls.title} has no option {name!r} (options: {names})")

    @classmethod
    def check_options(cls, options: Mapping[str, Any], nplayers: int | None = None) -> dict[str, Any]:
        """Validate values and their combination; returns every option with defaults filled in.

        ``nplayers`` is None while a table is still filling: checks that need the count wait for the start.
        """
        values = {opt.name: opt.default for opt in cls.OPTIONS}
        for name, value in options.items():
            opt = cls.option(name)
            values[opt.name] = opt.parse(value)
        cls._check_combination(values, nplayers)
        return values

    @classmethod
    def _check_combination(cls, options: dict[str, Any], nplayers: int | None) -> None:
        """Refuse combinations the rules exclude (subclasses raise ``BadOption`` saying why)."""

    # -- the interface

    @abstractmethod
    def _start(self) -> list[Event]:
        """Set up the first round (shuffle, deal) and return what happened."""

    @property
    def phase(self) -> str:
        """Where the game stands: e.g. ``BIDDING``, ``PLAYING``, ``ROUNDEND``, ``GAMEOVER`` (each equal to its word;
        a plain ``str`` as far as the types go, so that a plugin's game may set ``_phase`` to the word itself)."""
        return self._phase

    @property
    def finished(self) -> bool:
        return self.phase == Phase.GAMEOVER

    @abstractmethod
    def legal_actions(self, seat: Seat) -> list[Action]:
        """Every action ``seat`` may take now; patterns such as ``pass`` stand for many (see ``VERBS``)."""

    @abstractmethod
    def waiting(self) -> list[Seat]:
        """The seats the game is waiting on (whose action it needs before it can go on)."""

    def _legal_while(self, seat: Seat, waiting: list[Seat]) -> list[Action]:
        """``legal_actions(seat)`` when ``waiting()`` is already known to be ``waiting``: ``views`` works it out
        once for all the seats it builds. A game whose ``legal_actions`` starts from ``waiting()`` overrides
        this to take it as given, and answers ``legal_actions`` with it."""
        return self.legal_actions(seat)

    def view(self, seat: Seat | None) -> dict[str, Any]:
        """What ``seat`` may know, as plain JSON-ready data; ``None`` is an observer and sees no hand.

        The fields every game has (docs/protocol.md's ``state``) are built here, once, so they mean the same in
        every game; the hooks give their game-specific values (``_rounds``, ``_dealer``, ``_hand``, ``_player``)
        and ``_view`` the game's own fields.
        """
        return self.views([seat])[0]

    def views(self, seats: Sequence[Seat | None],
              first: Sequence[Mapping[str, Any]] | None = None) -> list[dict[str, Any]]:
        """``view`` of each of ``seats``, at once: what every viewer sees alike (the phase, who is waited on, the
        options, the sheet, and the players' entries when ``_players_alike``) is built once and shared by all of
        the views, each seat's own part (its hand, its legal moves, the game's ``_view``) added to it. A table
        sends every viewer a state after every move, and building each whole was most of a move.
        Readers must not change the parts the views share. ``first``, one for each seat: fields put before the
        game's in that seat's view, so that a caller that sends the view with its own fields ahead (the table's
        ``state``) gets them in the one dict made for the view, not in a second dict the view is copied into."""
        waiting = self.waiting()
        names = self.players
        alike = self._players_alike()
        # The fields before the game's own, as an observer has them: each view is this with its seat's own values
        # put over it, in place (a dict merge keeps the first place of a key), so that the views cost dict merges
        # and the seats' own fields rather than every field built again for every seat.
        pre = self._common(waiting, alike)
        post = self._closing()
        observers = self._view(None) if len(seats) > 1 else None
        views = []
        for i, seat in enumerate(seats):
            mine: dict[str, Any] = {}
            if seat is not None:
                mine["you"] = names[seat]
                mine["hand"] = self._hand(seat)
                mine["legal"] = [action_text(a) for a in self._legal_while(seat, waiting)]
            if not alike:
                mine["players"] = self._players_seen_by(seat)
            own = self._view_own(seat) if observers is not None else None
            head = _NOTHING if first is None else first[i]
            if own is None or observers is None:  # the game's fields built whole for the seat
                views.append({**head, **pre, **mine, **self._view(seat), **post})
            else:
                views.append({**head, **pre, **mine, **observers, **own, **post})
        return views

    def split_views(self, seats: Sequence[Seat | None]) -> tuple[dict[str, Any], list[dict[str, Any]]] | None:
        """``views(seats)`` as one dict of what they all have alike and, for each seat, a dict of its own fields
        (``you``, ``hand``, ``legal`` and the game's ``_view_own``): each view has the fields of
        ``{**alike, **own}``, and the two share no key. A table encodes the alike part once for all its JSON
        viewers and each seat's part on its own, instead of every viewer's whole state. None for a
        game whose views cannot be split so (players seen differently by each seat, or no ``_view_own``)."""
        if not self._players_alike():
            return None
        observer_own = self._view_own(None)
        if observer_own is None:
            return None
        waiting = self.waiting()
        names = self.players
        alike = self._shared(waiting)
        alike.update(self._view(None))
        for key in observer_own:
            alike.pop(key, None)
        alike.update(self._closing())
        owns = []
        for seat in seats:
            if seat is None:
                owns.append({"you": None, "hand": [], "legal": [], **observer_own})
            else:
                own = self._view_own(seat)
                assert own is not None  # a game that splits its views splits them for every seat
                owns.append({"you": names[seat], "hand": self._hand(seat),
                             "legal": [action_text(a) for a in self._legal_while(seat, waiting)], **own})
        return alike, owns

    def _shared(self, waiting: list[Seat], alike: bool = True) -> dict[str, Any]:
        """A view's first fields but the seat's own (``you``, ``hand``, ``legal``): the start of the part of an
        update's views that ``split_views`` shares; ``players`` when ``alike`` (``_players_alike``)."""
        names = self.players
        return {
            "game": self.name,
            "phase": self.phase,
            "round": self.round,
            "rounds": self._rounds(),
            "dealer": names[self._dealer()],
            "turn": names[waiting[0]] if len(waiting) == 1 else None,
            "waiting": [names[s] for s in waiting],
            "players": self._players_seen_by(None) if alike else None,
        }

    def _common(self, waiting: list[Seat], alike: bool) -> dict[str, Any]:
        """A view's first fields, as an observer has them (``you``, ``hand`` and ``legal`` empty)."""
        common = self._shared(waiting, alike)
        common["you"], common["hand"], common["legal"] = None, [], []
        return common

    def _closing(self) -> dict[str, Any]:
        """A view's last fields, the same for every viewer: the options set, the score sheet, the standings."""
        # the options set to something: an unset number, a flag off and an "off" choice go unsaid (``is``, not
        # ``in``: a number option set to 0 is set, though 0 == False)
        return {
            "options": {k: v for k, v in self.options.items() if v is not None and v is not False and v != "off"},
            "sheet": self.sheet_snapshot(),
            "standings": standings(self.players, self.scores, self.LOW_WINS) if self.finished else None,
        }

    def _players_seen_by(self, viewer: Seat | None) -> list[dict[str, Any]]:
        scores = self.scores
        return [{"name": name, "score": scores[s], **self._player(s, viewer)} for s, name in enumerate(self.players)]

    def __copy__(self) -> Game:
        """A shallow copy, as ``copy.copy`` makes of any object: the same attributes, the containers shared.
        Written out because a compiled ``Game`` (mudwiz/compiled.py) would hand a copy of an interpreted subclass
        (a plugin's game, Tiltowait) the original's very ``__dict__``, so that setting an attribute on the copy
        set it on the original too."""
        cls = type(self)
        new = cls.__new__(cls)
        state: dict[str, Any] = dict(self.__getstate__())  # type: ignore[call-overload]  # object: a dict here
        if isinstance(state.get("__dict__"), dict):
            state["__dict__"] = dict(state["__dict__"])
        setstate = getattr(new, "__setstate__", None)
        if setstate is not None:
            setstate(state)
        else:
            new.__dict__.update(state)
        return new

    def sheet_snapshot(self) -> list[dict[str, Any]]:
        """The score sheet as views carry it: a copy made once per scored round and shared by every view until
        the next (copying it for every view of every move was most of a move's cost). Entries are only
        ever appended, so its length says when it changed, and only the new ones are copied. Views never hold
        the engine's own objects; readers of the shared copy must not change it."""
        cached = self._sheet_copy
        if cached is None or len(cached) > len(self.sheet):
            cached = self._sheet_copy = plain_copy(self.sheet)
        elif len(cached) < len(self.sheet):  # a new list, as views already sent may hold the old one
            cached = self._sheet_copy = [*cached, *plain_copy(self.sheet[len(cached):])]
        return cached

    def _shown_hand(self, seat: Seat, hand: list[str], order: Mapping[str, int]) -> list[str]:
        """``hand`` sorted by ``order``, as ``seat``'s views show it: sorted again only once its cards changed (a
        deal, a card played or passed). Every viewer's state carries its hand on every update, and sorting each
        with a key function was a twentieth of a move. The views share the list; readers must not
        change it."""
        cards = tuple(hand)
        shown = self._hands_shown
        if shown is None:
            shown = self._hands_shown = {}
        cached = shown.get(seat)
        if cached is not None and cached[0] == cards:
            return cached[1]
        result = sorted(cards, key=order.__getitem__)
        shown[seat] = (cards, result)
        return result

    def revealed_view(self) -> dict[str, Any]:
        """The table with nothing hidden, for replaying a game's record (``/replay``), never for a live table: an
        observer's view plus ``hands``, every seat's cards by name, and whatever else the game keeps from
        observers (``_reveal``). A game that overrides nothing shows the hands its ``_hand`` gives."""
        view = self.view(None)
        view["hands"] = {name: self._open_hand(seat) for seat, name in enumerate(self.players)}
        return self._reveal(view)

    def _open_hand(self, seat: Seat) -> list[str]:
        """``seat``'s cards as they are, even where the player may not see them (Wizard's clairvoyance)."""
        return self._hand(seat)

    def _reveal(self, view: dict[str, Any]) -> dict[str, Any]:
        """An observer's ``view`` with the game's other secrets (hidden bids) filled in."""
        return view

    @abstractmethod
    def _rounds(self) -> int | None:
        """How many rounds the game is played for; None when only a score ends it."""

    @abstractmethod
    def _dealer(self) -> Seat:
        """The seat that deals (or starts) this round."""

    @abstractmethod
    def _hand(self, seat: Seat) -> list[str]:
        """``seat``'s hand as its player sees it, in the game's order."""

    def _player(self, seat: Seat, viewer: Seat | None) -> dict[str, Any]:
        """What ``viewer`` may know of ``seat`` besides its name and score (``viewer`` None: an observer)."""
        return {}

    def _players_alike(self) -> bool:
        """Whether ``_player`` is now the same for every viewer, so ``views`` builds the players' entries once
        and shares them. False unless a game says so: a game's own ``_player`` may show a viewer more."""
        return False

    def _view(self, seat: Seat | None) -> dict[str, Any]:
        """The game's own fields of ``seat``'s view, beside the common ones."""
        return {}

    def _view_own(self, seat: Seat | None) -> dict[str, Any] | None:
        """The fields of ``_view(seat)`` that may differ from an observer's (``_view(None)``), for ``views`` to put
        over the observer's, built once for all seats; None (the default): no such split, ``_view`` is built
        whole for each seat. A game that splits must name every field its ``_view`` builds from the seat."""
        return None

    @abstractmethod
    def _apply(self, seat: Seat, action: Action) -> list[Event]:
        """Carry out an action already known to be legal."""

    def _advance(self) -> list[Event]:
        raise IllegalAction("there is no pause to end")

    def _close_round(self, over: bool) -> list[Event]:
        """After a round is scored: the game ends with its standings, or pauses in ``roundend`` until the table
        calls ``advance()`` (the pause every game's round confirmation relies on)."""
        if over:
            self._phase = Phase.GAMEOVER
            return [GameEnd(standings(self.players, self.scores, self.LOW_WINS))]
        self._phase = Phase.ROUNDEND
        return []

    def normalize(self, action: Action) -> Action:
        """Canonical form of a typed action (card codes upper-cased, ``z`` -> ``Z``); may raise IllegalAction."""
        return action

    def explain(self, seat: Seat, action: Action) -> str:
        """Why ``action`` is refused for ``seat`` (override for helpful, rule-specific reasons). A reason only:
        the moves the player may make instead are added where the reply is sent, in one typable style."""
        return f"you cannot /{action} now"

    def is_legal(self, seat: Seat, action: Action) -> bool:
        return action in self.legal_actions(seat)

    def apply(self, seat: Seat, action: Action | str) -> list[Event]:
        """Validate first, then mutate: a refused action raises and changes nothing."""
        if not 0 <= seat < len(self.players):
            raise IllegalAction(f"there is no seat {seat}")
        typed = as_action(action)
        try:
            act = self.normalize(typed)
        except IllegalAction:  # a move of another phase is told so before its words are read
            verb = typed.verb
            if verb in self.VERBS and verb not in self.REACTION_VERBS and verb not in (verbs := self.verbs_now(seat)) \
                    and verbs:
                raise IllegalAction(self.wrong_time(verb, verbs)) from None
            raise
        legal = self.legal_actions(seat)
        if not legal:
            raise NotYourTurn(self.out_of_turn(seat, act))
        # the list just made answers ``is_legal`` unless the game has its own (patterns such as Witches' ``pass``)
        if not (act in legal if type(self).is_legal is Game.is_legal else self.is_legal(seat, act)):
            raise IllegalAction(self.explain(seat, act))
        events = self._apply(seat, act)
        self.log.append((seat, action_text(act)))
        return events

    def advance(self) -> list[Event]:
        """End a ``roundend`` pause: the table calls this once the round's result has been confirmed."""
        if self.phase != Phase.ROUNDEND:
            raise IllegalAction("the round is not over")
        events = self._advance()
        self.log.append((None, ADVANCE))
        return events

    def verbs_now(self, seat: Seat) -> list[str]:
        """The verbs of the moves ``seat`` may make now, in the order ``legal_actions`` offers them."""
        return list(dict.fromkeys(a.verb for a in self.legal_actions(seat)))

    @staticmethod
    def wrong_time(verb: str, verbs: Sequence[str]) -> str:
        """A move of another phase (``/play`` while bids are asked): the verbs that are wanted now."""
        return f"now is the time to {' or '.join(f'/{v}' for v in verbs)}, not /{verb}"

    def out_of_turn(self, seat: Seat, action: Action) -> str:
        """Why ``action`` is refused when ``seat`` may do nothing; games with out-of-turn moves say more."""
        return self.not_your_turn(seat)

    def not_your_turn(self, seat: Seat) -> str:
        if self.finished:
            return "the game is over"
        if self.phase == Phase.ROUNDEND:
            return "the round is over; waiting for the next one (/ok)"
        names = [self.players[s] for s in self.waiting()]
        return f"it is not your turn; waiting for {', '.join(names) or 'nobody'}"

    @classmethod
    def replay(
        cls,
        players: Sequence[str] | int,
        options: Mapping[str, Any] | None,
        seed: int | None,
        log: Iterable[tuple[Seat | None, str]],
    ) -> tuple[Game, list[Event]]:
        """Rebuild a game from its seed, options and log; returns it and every event, start included."""
        game = cls(players, options, seed)
        events = list(game.start_events)
        for seat, text in log:
            events.extend(game.step(seat, text))
        return game, events

    def step(self, seat: Seat | None, text: str) -> list[Event]:
        """Apply one entry of a log: a seat's move, or (seat None) the table ending a round-end pause."""
        return self.advance() if seat is None else self.apply(seat, text)


def plain_copy(value: Any) -> Any:
    """A deep copy of a JSON-ready value (dicts, lists, tuples, and the scalars they hold, shared): what
    ``copy.deepcopy`` makes of a score sheet's entry, compiled at a twelfth of its cost (0.9 µs against 11.7), as
    it keeps no memo and asks no object how to copy itself. Every round's end copies its entry, and under load the
    tables of a server end their rounds together."""
    if isinstance(value, dict):
        return {key: plain_copy(item) for key, item in value.items()}
    if isinstance(value, list):
        return [plain_copy(item) for item in value]
    if isinstance(value, tuple):
        return tuple([plain_copy(item) for item in value])
    return value


def shuffle(rng: random.Random, items: list[Any]) -> None:
    """``rng.shuffle(items)``, step for step: the same draws from ``rng`` and the same swaps, so a game's seed deals
    what it always dealt (a replay, a restored table). Written out so that a compiled build (mudwiz/compiled.py)
    runs its loop as machine code: ``random.shuffle`` is Python, 16 µs for Wizard's deck against 2.4 here, a tenth
    of the ``/ok`` that deals, and under load the tables of a server deal together."""
    getrandbits = rng.getrandbits
    for i in range(len(items) - 1, 0, -1):
        n = i + 1  # random.Random._randbelow_with_getrandbits(n): k bits, drawn again until below n
        k = n.bit_length()
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        items[i], items[j] = items[j], items[i]


def action_text(action: Action) -> str:
    """``str(action)``, worked out here rather than by ``Action.__str__``: compiled (mudwiz/compiled.py), it makes no
    Python call, and every state's legal moves are turned into text."""
    args = action.args
    return action.verb + " " + " ".join(args) if args else action.verb


def standings(names: Sequence[str], scores: Sequence[int], low_wins: bool = False,
              behind: Sequence[bool] = ()) -> list[dict[str, Any]]:
    """Final places with ties sharing a place (1, 1, 3): the player, their score and their place. ``behind``: the
    seats placed below every other whatever their scores (a game its people left: docs/accounts.md), ordered among
    themselves by score."""
    sign = -1 if low_wins else 1
    rank = [(bool(behind) and behind[s], -sign * scores[s]) for s in range(len(names))]
    order = sorted(range(len(names)), key=lambda s: (rank[s], s))
    return [
        {
            "player": names[s],
            "score": scores[s],
            "place": 1 + sum(1 for t in range(len(names)) if rank[t] < rank[s]),
        }
        for s in order
    ]


@dataclass(frozen=True)
class CardPlayed(Event):
    """A card played to a trick (the trick-taking games share it; a shedding game may add fields)."""

    player: str
    card: str


@dataclass(frozen=True)
class Trick(Event):
    """A finished trick: ``cards`` [{player, card}] in play order, and who took it. JSON type ``trick``."""

    cards: list[dict[str, str]]
    winner: str


@dataclass(frozen=True)
class RoundEnd(Event):
    """A round (hand) is scored: ``results`` in seat or bid order, each with ``player``, ``delta``, ``score``."""

    round: int
    results: list[dict[str, Any]]


@dataclass(frozen=True)
class GameEnd(Event):
    """The game has ended; ``standings`` as from :func:`standings` (best first)."""

    standings: list[dict[str, Any]] = field(default_factory=list)


# ---------------------------------------------------------------- trick-taking


@mypyc_attr(allow_interpreted_subclasses=True)
class TrickTakingGame(Game):
    """What Wizard and Witches share: cards go to the trick in turn, a full trick goes to its winner, the
    winner leads the next, and the hand ends when the cards run out. Games differ only in the hooks."""

    hands: list[list[str]]
    trick: list[tuple[Seat, str]]  # (seat, card) in play order
    last_trick: list[tuple[Seat, str]]
    tricks: list[int]  # tricks taken this hand, per seat
    leader: Seat
    dealer: Seat
    @property
    def size(self) -> int:
        """Cards dealt to each this round."""
        raise NotImplementedError

    @abstractmethod
    def lead(self) -> str | None:
        """The suit the current trick must follow; None until a card sets it."""

    def _dealer(self) -> Seat:
        return self.dealer

    def _player(self, seat: Seat, viewer: Seat | None) -> dict[str, Any]:
        played = None
        for s, card in self.trick:  # at most a card a seat: a loop, not a dict made for every seat of every view
            if s == seat:
                played = card
                break
        return {"tricks": self.tricks[seat], "held": len(self.hands[seat]), "played": played}

    def _view(self, seat: Seat | None) -> dict[str, Any]:
        """What every trick-taking game shows: the cards dealt, who leads, the trick and the one taken before."""
        return {
            "cards": self.size,
            "leader": self.players[self.leader],
            "trick": self._named(self.trick),
            "last_trick": self._named(self.last_trick),
            "lead": self.lead(),
        }

    def _named(self, cards: list[tuple[Seat, str]]) -> list[dict[str, str]]:
        """A trick's (seat, card) pairs as views and events show them: ``[{player, card}]`` in play order."""
        return [{"player": self.players[s], "card": c} for s, c in cards]

    def to_play(self) -> Seat:
        """The seat whose card the current trick needs next."""
        return (self.leader + len(self.trick)) % len(self.players)

    @abstractmethod
    def _trick_winner(self, cards: list[str]) -> int:
        """Index in ``cards`` (a full trick, in play order) of the card that takes it."""

    def _take_trick(self, winner: Seat, cards: list[str]) -> None:
        """Hook for what else taking a trick means (e.g. keeping its cards for scoring)."""

    @abstractmethod
    def _end_hand(self) -> list[Event]:
        """The last trick is taken: score the hand (or ask what the rules need first)."""

    def _play_card(self, seat: Seat, card: str) -> list[Event]:
        """Play a legal card; a full trick goes to its winner, who leads next, and the last trick ends the hand."""
        remove_card(self.hands[seat], card)
        self.trick.append((seat, card))
        events: list[Event] = [CardPlayed(self.players[seat], card)]
        if len(self.trick) < len(self.players):
            return events
        cards = [c for _, c in self.trick]
        won = self.trick[self._trick_winner(cards)][0]
        self.tricks[won] += 1
        self._take_trick(won, cards)
        events.append(Trick(self._named(self.trick), self.players[won]))
        self.last_trick, self.trick, self.leader = self.trick, [], won
        if not self.hands[won]:
            events.extend(self._end_hand())
        return events
