"""What each seat of a game may know, built from the game's state: OpenSpiel's Observer beside its State, here a
base of ``Game`` rather than an object of its own, so that the views a table builds after every move call the
game's hooks (``_hand``, ``_player``, ``_view``...) as its own methods, with nothing in between.

``GameViews`` declares the state every game keeps and the views read (the players, the phase, the scores and
sheet, who is waited on and what they may do); ``Game`` (base.py) adds the rules that change it.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from mypy_extensions import mypyc_attr

from mudwiz.cards import Action
from mudwiz.games.events import standings
from mudwiz.games.phase import Phase, Seat

_NOTHING: Mapping[str, Any] = {}  # no fields (never changed)


@mypyc_attr(allow_interpreted_subclasses=True, serializable=True)
class GameViews(ABC):
    """A game's views: each seat's, all of them at once for a table's update (``views``, ``split_views``), and the
    revealed one of a replay; with the state they are built from, which the game's rules set."""

    name: ClassVar[str]
    LOW_WINS: ClassVar[bool] = False  # the lowest total wins (Witches' fire points), for the standings
    players: list[str]  # the players' names, by seat
    options: dict[str, Any]  # every option, defaults filled in

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


def action_text(action: Action) -> str:
    """``str(action)``, worked out here rather than by ``Action.__str__``: compiled (mudwiz/compiled.py), it makes no
    Python call, and every state's legal moves are turned into text."""
    args = action.args
    return action.verb + " " + " ".join(args) if args else action.verb
