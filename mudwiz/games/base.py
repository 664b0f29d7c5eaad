"""The game interface every rules engine implements, and the machinery they share.

A game is a pure state machine (no I/O, no clocks, no printing), modelled on OpenSpiel and sans-I/O libraries:

- ``Game(players, options, seed)``: all randomness comes from one ``random.Random(seed)``;
- ``legal_actions(seat)``: what that seat may do now (empty when nothing is theirs to do);
- ``apply(seat, action) -> [Event]``: raises a typed error and leaves the state untouched when refused;
- ``view(seat)``: a JSON-ready dict of what that seat may know, nothing more (``None``: an observer); the fields
  every game shares are built here, a game's own added by its ``_view`` hook;
- ``advance()``: the table's call to leave a ``roundend`` pause (round confirmation is the table's business);
- ``log``: every accepted step, so ``replay(seed, options, log)`` rebuilds the game event for event.

The parts it is made of live beside it, one concern each: the events (events.py), the options (options.py), the
phase and the seat (phase.py), and the views with the state they read (views.py: ``GameViews``, ``Game``'s base,
where ``view``, ``legal_actions`` and ``waiting`` are declared). Engines, the table and the renderers import them
from here as well.
"""

from __future__ import annotations

import random
from abc import abstractmethod
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, ClassVar

from mypy_extensions import mypyc_attr

from mudwiz.cards import Action, as_action, remove_card
from mudwiz.errors import BadOption, IllegalAction, NotYourTurn
from mudwiz.games.events import CardPlayed, Event, GameEnd, Trick
from mudwiz.games.events import RoundEnd as RoundEnd  # re-exported, as the other names ``as`` themselves below
from mudwiz.games.events import TimedReveal as TimedReveal
from mudwiz.games.events import standings as standings
from mudwiz.games.options import Option
from mudwiz.games.phase import Phase, Seat
from mudwiz.games.views import GameViews, action_text
from mudwiz.games.views import plain_copy as plain_copy
from mudwiz.texts import Later, later

ADVANCE = "next"  # the log's word for the table ending a round-end pause


# ---------------------------------------------------------------- the game


@mypyc_attr(allow_interpreted_subclasses=True, serializable=True)
class Game(GameViews):
    """Base of every rules engine: options, the action log, refusal without side effects, replay."""

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

    @classmethod
    def usage(cls, verb: str) -> str:
        """How ``verb`` is typed, the part of its ``VERBS`` line before the colon (``pass C1 C2 ...``); "" for a
        verb this game does not have."""
        return cls.VERBS.get(verb, "").split(":")[0]

    @classmethod
    def usage_error(cls, verb: str) -> IllegalAction:
        """A malformed ``verb``: its usage as a person types it, slash and all (``usage: /bid N``), in the one
        style every refusal quotes a command in."""
        return IllegalAction(later("usage: /{usage}", usage=cls.usage(verb)))

    @classmethod
    def not_a_move(cls, verb: str) -> IllegalAction:
        """A verb this game does not have, with the ones it has."""
        moves = ", ".join(f"/{v}" for v in cls.VERBS)
        return IllegalAction(later("{verb} is not a {game} move: use {moves}", verb=repr(verb), game=cls.title,
                                   moves=moves))

    def __init__(
        self,
        players: Sequence[str] | int,
        options: Mapping[str, Any] | None = None,
        seed: int | None = 0,
    ) -> None:
        names = [f"P{i + 1}" for i in range(players)] if isinstance(players, int) else list(players)
        if not self.min_players <= len(names) <= self.max_players:
            raise BadOption(later("{game} is for {low} to {high} players, not {n}", game=self.title,
                                  low=self.min_players, high=self.max_players, n=len(names)))
        if len(set(names)) != len(names):
            raise BadOption(later("player names must differ"))
        self.players = names
        self.options = self.check_options(options or {}, len(names))
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
        names = ", ".join(o.name for o in cls.OPTIONS)
        if not names:
            raise BadOption(later("{game} has no option {name} (options: none)", game=cls.title, name=repr(name)))
        raise BadOption(later("{game} has no option {name} (options: {names})", game=cls.title, name=repr(name),
                              names=names))

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

    @abstractmethod
    def _apply(self, seat: Seat, action: Action) -> list[Event]:
        """Carry out an action already known to be legal."""

    def _advance(self) -> list[Event]:
        raise IllegalAction(later("there is no pause to end"))

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

    def explain(self, seat: Seat, action: Action) -> str | Later:
        """Why ``action`` is refused for ``seat`` (override for helpful, rule-specific reasons). A reason only:
        the moves the player may make instead are added where the reply is sent, in one typable style; a ``Later``
        (mudwiz.texts) is put into each reader's language."""
        return later("you cannot /{move} now", move=str(action))

    def is_legal(self, seat: Seat, action: Action) -> bool:
        return action in self.legal_actions(seat)

    def apply(self, seat: Seat, action: Action | str) -> list[Event]:
        """Validate first, then mutate: a refused action raises and changes nothing."""
        if not 0 <= seat < len(self.players):
            raise IllegalAction(later("there is no seat {seat}", seat=seat))
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
            raise IllegalAction(later("the round is not over"))
        events = self._advance()
        self.log.append((None, ADVANCE))
        return events

    def verbs_now(self, seat: Seat) -> list[str]:
        """The verbs of the moves ``seat`` may make now, in the order ``legal_actions`` offers them."""
        return list(dict.fromkeys(a.verb for a in self.legal_actions(seat)))

    @staticmethod
    def wrong_time(verb: str, verbs: Sequence[str]) -> Later:
        """A move of another phase (``/play`` while bids are asked): the verbs that are wanted now."""
        if len(verbs) == 1:
            return later("now is the time to /{move}, not /{verb}", move=verbs[0], verb=verb)
        return later("now is the time to {moves} or /{last}, not /{verb}", moves=", ".join(f"/{v}" for v in verbs[:-1]),
                     last=verbs[-1], verb=verb)

    def out_of_turn(self, seat: Seat, action: Action) -> str | Later:
        """Why ``action`` is refused when ``seat`` may do nothing; games with out-of-turn moves say more."""
        return self.not_your_turn(seat)

    def not_your_turn(self, seat: Seat) -> str | Later:
        if self.finished:
            return later("the game is over")
        if self.phase == Phase.ROUNDEND:
            return later("the round is over; waiting for the next one (/ok)")
        names = [self.players[s] for s in self.waiting()]
        if not names:
            return later("it is not your turn; waiting for nobody")
        return later("it is not your turn; waiting for {names}", names=", ".join(names))

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
