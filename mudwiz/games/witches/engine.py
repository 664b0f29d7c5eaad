"""Witches (Amigo, 2014), to the letter of ``shared/rules/witches.md``: Hearts with witches and Wizards.

Avoid fire points; whoever takes every fire card with the water witch and/or the pygmy queen casts a spell
on everyone else. 60 cards: four colours 1..14 and four Wizards (``W``, value 0, always playable). Each hand
opens with a simultaneous pass. Choices the rules page leaves open are listed in docs/witches.md.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Any

from mudwiz.cards import Action, remove_card
from mudwiz.errors import IllegalAction
from mudwiz.games.base import CardPlayed as CardPlayed  # re-exported: the tests read Witches' events from here
from mudwiz.games.base import Event, Option, Phase, RoundEnd, Seat, shuffle
from mudwiz.games.base import Trick as Trick
from mudwiz.games.witches.cards import (
    _ORDER,
    _SUIT,
    DECK,
    DEFAULT_LIMIT,
    FIRE,
    SPELL_CHOICES,
    WIZARD,
    earth_leftover,
    fire_points,
    spell_of,
    trick_winner,
)
from mudwiz.games.witches.names import colour_name
from mudwiz.games.witches.phases import PASSING, SPELL
from mudwiz.games.witches.rules import RULES_TEXT
from mudwiz.games.witches.texts import N_, later
from mudwiz.games.witches.views import WitchesViews
from mudwiz.texts import Later

# ---------------------------------------------------------------- events


@dataclass(frozen=True)
class HandStart(Event):
    """A hand is dealt: ``cards`` each; everyone passes ``pass_count`` cards ``direction``."""

    round: int
    cards: int
    dealer: str
    leader: str
    pass_count: int
    direction: str


@dataclass(frozen=True)
class CardsPassed(Event):
    """One player has passed; only they see which cards (``cards`` is None for everyone else)."""

    player: str
    to: str
    count: int
    cards: list[str] | None = None

    def visible_to(self, viewer: str | None) -> Event | None:
        return self if viewer == self.player else replace(self, cards=None)


@dataclass(frozen=True)
class PassDone(Event):
    """Everyone has passed: ``received`` [{player, from, cards}], each entry seen only by its receiver."""

    received: list[dict[str, Any]]

    def visible_to(self, viewer: str | None) -> Event | None:
        return PassDone([r for r in self.received if r["player"] == viewer])


@dataclass(frozen=True)
class SpellCast(Event):
    """``player`` took every fire card and a water witch and/or pygmy queen; ``choosing``: give or take is theirs."""

    player: str
    points: int
    choosing: bool = False


@dataclass(frozen=True)
class SpellChosen(Event):
    player: str
    choice: str
    points: int


# ---------------------------------------------------------------- the engine


class Witches(WitchesViews):
    name = "witches"
    title = "Witches"
    min_players = 3
    max_players = 6
    LOW_WINS = True  # fire points count against you
    OPTIONS = (
        # help texts marked for the game's catalog (N_), kept as str: the core shows them (/options, /rules, /help)
        # and reads them in English until it looks them up in the plugin's ``texts``; 70 is DEFAULT_LIMIT
        Option("limit", N_("the game ends after the hand in which a total reaches N (default 70; "
                           "none under hands=N unless set)"), default=None, lo=1, hi=999),
        Option("hands", N_("play exactly N hands (ends earlier only if limit is also set and reached)"),
               default=None, lo=1, hi=99),
        Option("earth", N_("carry: the earth witch's unused reduction comes off your total (never below 0)"),
               default="off", choices=("off", "carry")),
    )
    VERBS = {
        "pass": N_("pass C1 C2 ...: pass 4 (3 players), 3 (4-5) or 2 (6) cards"),
        "play": N_("play CARD: play a card, e.g. play R12, play W (Wizard)"),
        "spell": N_("spell give|take: the others score your spell, or it comes off yours"),
    }
    RULES = RULES_TEXT
    WAITING_VIEW = {"trump": {"suit": None, "card": None}}  # Wizard's, which every waiting state has always carried


    # -- set-up

    def _start(self) -> list[Event]:
        n = len(self.players)
        self.hands_total: int | None = self.options["hands"]
        limit = self.options["limit"]
        self.limit: int | None = limit if limit is not None else (None if self.hands_total else DEFAULT_LIMIT)
        self.scores = [0] * n
        self.sheet: list[dict[str, Any]] = []
        self.round = 0
        self.dealer = self.rng.randrange(n)
        return self._deal()

    def _deal(self) -> list[Event]:
        n = len(self.players)
        self.round += 1
        deck = DECK.cards()
        self._size = size = len(deck) // n
        shuffle(self.rng, deck)
        self.hands = [sorted(deck[i * size : (i + 1) * size]) for i in range(n)]
        self.passed: list[list[str] | None] = [None] * n
        self.received: list[list[str]] | None = None
        self.won: list[list[str]] = [[] for _ in range(n)]
        self.tricks = [0] * n
        self.trick: list[tuple[Seat, str]] = []
        self.last_trick: list[tuple[Seat, str]] = []
        self.leader = (self.dealer + 1) % n
        self.caster: Seat | None = None
        self.spell_points = 0
        self._phase = PASSING
        return [HandStart(self.round, size, self.players[self.dealer], self.players[self.leader],
                          self.pass_count, self.direction)]

    # -- state queries

    def waiting(self) -> list[Seat]:
        if self._phase == PASSING:
            return [s for s in range(len(self.players)) if self.passed[s] is None]
        if self._phase == Phase.PLAYING:
            return [self.to_play()]
        if self._phase == SPELL:
            assert self.caster is not None
            return [self.caster]
        return []

    def playable(self, seat: Seat) -> list[str]:
        """The distinct cards ``seat`` may play now: with the lead colour in hand, only it or a Wizard."""
        hand = self.hands[seat]
        colour = self.lead()
        if colour is not None and any(_SUIT[c] == colour for c in hand):
            allowed = {c for c in hand if _SUIT[c] == colour or c == WIZARD}
        else:
            allowed = set(hand)
        return self._sorted(allowed)

    @staticmethod
    def _sorted(cards: Iterable[str]) -> list[str]:
        """Display order (Wizards, then R, G, Y, B by rank): ``sort_hand``'s order, looked up."""
        return sorted(cards, key=_ORDER.__getitem__)

    def legal_actions(self, seat: Seat) -> list[Action]:
        return self._legal_while(seat, self.waiting())

    def _legal_while(self, seat: Seat, waiting: list[Seat]) -> list[Action]:
        if seat not in waiting:
            return []
        if self._phase == PASSING:
            return [Action("pass")]  # a pattern: any pass_count cards of the hand (see is_legal)
        if self._phase == SPELL:
            return [Action("spell", (c,)) for c in SPELL_CHOICES]
        return [Action("play", (c,)) for c in self.playable(seat)]

    def normalize(self, action: Action) -> Action:
        if action.verb not in self.VERBS:
            raise self.not_a_move(action.verb)
        if action.verb == "pass":  # "pass R1,R2 W" is accepted too
            words = [w for arg in action.args for w in arg.split(",") if w]
            return Action("pass", tuple(self._sorted(DECK.parse(w) for w in words)))
        if len(action.args) != 1:
            raise self.usage_error(action.verb)
        (arg,) = action.args
        if action.verb == "spell":
            if arg.lower() not in SPELL_CHOICES:
                raise IllegalAction(later("say /spell give or /spell take, not /spell {arg}", arg=arg))
            return Action("spell", (arg.lower(),))
        return Action("play", (DECK.parse(arg),))

    def pass_problem(self, seat: Seat, cards: tuple[str, ...]) -> Later | None:
        """Why these cards cannot be ``seat``'s pass (None: they can). Identical Wizards count by copies."""
        if len(cards) != self.pass_count:
            example = " ".join(f"C{i + 1}" for i in range(self.pass_count))
            return later("pass exactly {count} cards, not {given}: /pass {example}", count=self.pass_count,
                         given=len(cards), example=example)
        held = Counter(self.hands[seat])
        for card, wanted in Counter(cards).items():
            if held[card] == 0:
                return later("you have no {card}", card=card)
            if wanted > held[card]:
                return later("you have only {held} {card}, not {wanted}", held=held[card], card=card, wanted=wanted)
        return None

    def is_legal(self, seat: Seat, action: Action) -> bool:
        """A concrete pass is checked card by card: ``legal_actions`` can only offer the ``pass`` pattern."""
        if action.verb == "pass":
            return self._phase == PASSING and seat in self.waiting() and not self.pass_problem(seat, action.args)
        if action.verb == "play":  # the same answer as the base class, without building every Action
            return self._phase == Phase.PLAYING and seat in self.waiting() and action.args[0] in self.playable(seat)
        return super().is_legal(seat, action)

    def explain(self, seat: Seat, action: Action) -> str | Later:
        verbs: dict[str, str] = {PASSING: "pass", Phase.PLAYING: "play", SPELL: "spell"}
        phase_verb = verbs.get(self._phase)
        if action.verb != phase_verb:
            return self.wrong_time(action.verb, [phase_verb] if phase_verb else [])
        if action.verb == "pass":
            return self.pass_problem(seat, action.args) or later("that pass is not allowed")
        (arg,) = action.args
        if action.verb == "spell":
            return later("say /spell give or /spell take")
        if arg not in self.hands[seat]:
            return later("you have no {card}", card=arg)
        colour = self.lead()
        return later("you must follow {colour} (or play a Wizard)", colour=colour_name(colour or FIRE))

    def not_your_turn(self, seat: Seat) -> str | Later:
        names = ", ".join(self.players[s] for s in self.waiting())
        if self._phase == PASSING:
            return later("you have passed; waiting for {names} to pass", names=names)
        if self._phase == SPELL:
            return later("waiting for {names} to choose what the spell does", names=names)
        return super().not_your_turn(seat)

    # -- moves

    def _apply(self, seat: Seat, action: Action) -> list[Event]:
        if action.verb == "pass":
            return self._pass(seat, list(action.args))
        if action.verb == "spell":
            return self._choose_spell(seat, action.args[0])
        return self._play_card(seat, action.args[0])

    def _pass(self, seat: Seat, cards: list[str]) -> list[Event]:
        for card in cards:
            remove_card(self.hands[seat], card)
        self.passed[seat] = cards
        events: list[Event] = [CardsPassed(self.players[seat], self.players[self.pass_target(seat)], len(cards),
                                           list(cards))]
        if self.waiting():
            return events
        n = len(self.players)
        self.received = [[] for _ in range(n)]
        received = []
        for giver in range(n):
            taker = self.pass_target(giver)
            given = self.passed[giver]
            assert given is not None
            self.received[taker] = list(given)
            self.hands[taker].extend(given)
        for taker in range(n):
            giver = next(g for g in range(n) if self.pass_target(g) == taker)
            received.append({"player": self.players[taker], "from": self.players[giver],
                             "cards": list(self.received[taker])})
        self._phase = Phase.PLAYING
        events.append(PassDone(received))
        return events

    def _trick_winner(self, cards: list[str]) -> int:
        return trick_winner(cards)

    def _take_trick(self, winner: Seat, cards: list[str]) -> None:
        self.won[winner].extend(cards)  # fire points and spells are counted from the cards taken

    def _end_hand(self) -> list[Event]:
        """Score the hand, unless a spell's caster must first choose between give and take."""
        for s, cards in enumerate(self.won):
            points = spell_of(cards)
            if points is not None:
                self.caster, self.spell_points = s, points
                choosing = self._giving_ends_game()
                cast = SpellCast(self.players[s], points, choosing)
                if choosing:
                    self._phase = SPELL
                    return [cast]
                return [cast, *self._score("give")]
        return self._score(None)

    def _giving_ends_game(self) -> bool:
        """Would the hand end the game if the spell's points went to the others? Then the caster may choose."""
        if self.hands_total is not None and self.round >= self.hands_total:
            return True
        if self.limit is None:
            return False
        return any(self.scores[s] + self.spell_points >= self.limit for s in range(len(self.players))
                   if s != self.caster)

    def _choose_spell(self, seat: Seat, choice: str) -> list[Event]:
        return [SpellChosen(self.players[seat], choice, self.spell_points), *self._score(choice)]

    def _hand_points(self, spell: str | None) -> list[tuple[int, int]]:
        """(points, delta) per seat: the hand's fire points and the change to the running total."""
        if spell is not None:
            caster = self.caster
            if spell == "take":
                return [(0, -self.spell_points if s == caster else 0) for s in range(len(self.players))]
            return [(0, 0) if s == caster else (self.spell_points, self.spell_points)
                    for s in range(len(self.players))]
        rows = []
        for s, cards in enumerate(self.won):
            points = fire_points(cards)
            carry = earth_leftover(cards) if self.options["earth"] == "carry" else 0
            rows.append((points, points - min(carry, max(self.scores[s], 0))))  # never below 0
        return rows

    def _score(self, spell: str | None) -> list[Event]:
        results = []
        for s, (points, delta) in enumerate(self._hand_points(spell)):
            self.scores[s] += delta
            results.append({"player": self.players[s], "tricks": self.tricks[s], "points": points, "delta": delta,
                            "score": self.scores[s]})
        cast = None
        if spell is not None:
            assert self.caster is not None
            cast = {"player": self.players[self.caster], "points": self.spell_points, "choice": spell}
        self.sheet.append({"round": self.round, "dealer": self.players[self.dealer], "results": results,
                           "spell": cast})
        return [RoundEnd(self.round, results), *self._close_round(self._game_over())]

    def _game_over(self) -> bool:
        if self.hands_total is not None and self.round >= self.hands_total:
            return True
        return self.limit is not None and max(self.scores) >= self.limit

    def _advance(self) -> list[Event]:
        self.dealer = (self.dealer + 1) % len(self.players)
        return self._deal()
