"""Tiltowait (ASCII's Wizardry card game), to the letter of ``shared/rules/tiltowait.md``.

A shedding game of the Crazy Eights / UNO family: match the colour or number of the top discard, attack and
defend with nine spells, be the first to empty your hand. Every choice the rules page leaves open is written
down under "Decisions" in ``docs/tiltowait.md``; the code below says which one it implements where it matters.

The package splits the game by concern: ``cards`` and ``events`` its vocabulary, ``state`` what a hand holds,
``views`` what a seat may see, ``legality`` which moves are allowed, and here the moves themselves.
"""

from __future__ import annotations

from typing import Any

from mudwiz.cards import Action, remove_card, sort_hand
from mudwiz.errors import BadOption
from mudwiz.games.base import Event, Option, Phase, Seat, shuffle
from mudwiz.games.tiltowait.cards import (
    CANCELS,
    COLOURS,
    DEFAULT_HANDS,
    DRAWS,
    HAND_SIZE,
    KARUKI,
    KARUKI_PENALTY,
    KATINO,
    MILWA,
    MILWA_AUDIENCES,
    MILWA_SECONDS,
    REVERSES,
    TILTOWAIT,
    TILTOWAIT_DRAW,
    colour_of,
    full_deck,
    hand_score,
    spell_of,
)
from mudwiz.games.tiltowait.events import (
    Asleep,
    Cancelled,
    CardPlayed,
    Caught,
    ColourNamed,
    DrawPending,
    Drew,
    HandShown,
    HandStart,
    Karuki,
    Kept,
    MilwaCast,
    MilwaReveal,
    Reshuffled,
    Reversed,
    RoundEnd,
    TiltowaitTurn,
)
from mudwiz.games.tiltowait.legality import TiltowaitLegality
from mudwiz.games.tiltowait.rules import RULES_TEXT
from mudwiz.games.tiltowait.texts import later
from mudwiz.texts import N_


class Tiltowait(TiltowaitLegality):
    name = "tiltowait"
    title = "Tiltowait"
    min_players = 3
    max_players = 10
    OPTIONS = (
        Option("hands", later("play N hands (default {n} when no limit is set)", n=DEFAULT_HANDS), default=None,
               lo=1, hi=100),
        Option("limit", later("play until a total reaches this floor or below, e.g. limit=-300"), default=None,
               lo=-100000, hi=-1),
        Option("milwa", later("who sees the hand MILWA opens: table (everyone) or caster"), default="table",
               choices=MILWA_AUDIENCES),
    )
    REACTION_VERBS = frozenset({"catch"})
    # "usage: what it does", marked for the catalog (N_): the core reads the usage before the colon as typed, so
    # each is a str here, its translation keeping that part as it is
    VERBS = {
        "play": N_("play CARD [COLOUR] [karuki]: discard, e.g. play R7, play MAHALITO G, play MILWA NAME B; "
                   "end with karuki when it leaves you one card"),
        "draw": N_("draw: draw one card (or take the draw a spell gives you)"),
        "keep": N_("keep: keep the card you drew, or let a MILWA show your hand"),
        "karuki": N_("karuki: call your last card"),
        "catch": N_("catch NAME: NAME has one card and did not call karuki: they draw 2"),
    }
    RULES = RULES_TEXT
    WAITING_VIEW = {"trump": {"suit": None, "card": None}}  # Wizard's, which every waiting state has always carried


    # -- options

    @classmethod
    def _check_combination(cls, options: dict[str, Any], nplayers: int | None) -> None:
        if options["hands"] is not None and options["limit"] is not None:
            raise BadOption(later("hands and limit each set the match's length: choose one (hands=off or "
                                  "limit=off)"))

    # -- set-up

    def _start(self) -> list[Event]:
        n = len(self.players)
        self.scores = [0] * n
        self.sheet: list[dict[str, Any]] = []
        self.round = 0
        self.starter = self.rng.randrange(n)  # the sheet: rock-paper-scissors
        return self._deal()

    def _deal(self) -> list[Event]:
        n = len(self.players)
        self.round += 1
        deck = full_deck()
        shuffle(self.rng, deck)
        self.hands = [deck[i * HAND_SIZE : (i + 1) * HAND_SIZE] for i in range(n)]
        self.stock = deck[n * HAND_SIZE :]  # the top of the stock is the end of the list
        self.discard = [self.stock.pop()]
        self._phase = Phase.PLAYING
        self.direction = -1  # counter-clockwise: seat - 1 moves next
        self.turn = self.starter
        self.colour = colour_of(self.top)
        self.pending = 0  # the draw total aimed at the turn player
        self.attacker = None
        self.drawn = None  # a playable card the turn player just drew
        self.responders = []  # TILTOWAIT: who still draws 2 or cancels, the first is asked now
        self.caster = None  # of the TILTOWAIT or MILWA being answered
        self.milwa_target = None
        self.asleep = None
        self.exposed = None  # down to one card without a karuki call, and nobody has moved since
        self.called = set()
        events: list[Event] = [HandStart(self.round, self.players[self.starter], self.top)]
        return events + self._turned_spell()

    def _turned_spell(self) -> list[Event]:
        """A spell turned as the first discard takes effect on the first player (docs: Decisions)."""
        spell = spell_of(self.top)
        first = self.starter
        events: list[Event] = []
        if spell in REVERSES:
            self.direction = -self.direction
            events.append(Reversed(None, self.direction_name))
        if spell in DRAWS:
            self.pending = DRAWS[spell]
            events.append(DrawPending(self.players[first], self.pending, self.top))
        elif spell == KATINO:
            self.asleep, self.turn = first, self._next(first)
            events.append(Asleep(self.players[first]))
        elif spell == TILTOWAIT:  # everyone, the first player first, draws 2; then the next player plays
            self.responders = [(first + i * self.direction) % len(self.players) for i in range(len(self.players))]
            self.turn = self._next(first)  # the sheet: the spell's effect is the first player's turn
            events.append(TiltowaitTurn(self.players[first]))
        return events  # MILWA, MONTINO, HAMAN: nothing to do but name the colour

    # -- moves

    def _apply(self, seat: Seat, action: Action) -> list[Event]:
        if action.verb == "karuki":
            return self._karuki(seat)
        if action.verb == "catch":
            target = self.seat_named(action.args[0])
            assert target is not None
            return self._catch(seat, target)
        sit = self.situation
        self.exposed = None  # a move closes the karuki window and ends the sleeper's skipped turn
        self.asleep = None
        if action.verb == "draw":
            events = {"tiltowait": self._tiltowait_draw, "attack": self._take_attack}.get(sit, self._draw_one)(seat)
        elif action.verb == "keep":
            events = self._show_hand(seat) if sit == "milwa" else self._keep(seat)
        else:
            calls = action.args[-1] == KARUKI
            card, extra = action.args[0], action.args[1 : len(action.args) - calls]
            if sit in ("milwa", "tiltowait") or (sit == "attack" and spell_of(card) in CANCELS):
                events = self._cancel(seat, card, extra[0] if extra else None)
            else:
                events = self._play(seat, card, extra)
            if calls:  # legal only when the discard leaves one card, so the hand goes on
                events += self._karuki(seat)
        self.called = {s for s in self.called if len(self.hands[s]) == 1}
        return events

    def _play(self, seat: Seat, card: str, extra: tuple[str, ...]) -> list[Event]:
        """A discard in turn (a stack included); a spell's effect; going out applies an attack first."""
        hand, spell, name = self.hands[seat], spell_of(card), self.players[seat]
        remove_card(hand, card)
        self.discard.append(card)
        self.drawn = None
        target = self.seat_named(extra[0]) if spell == MILWA else None
        events: list[Event] = [CardPlayed(name, card, None if target is None else self.players[target])]
        if extra:
            self.colour = extra[-1]
            events.append(ColourNamed(name, self.colour))
        elif colour_of(card):
            self.colour = colour_of(card)
        out = not hand
        if spell in REVERSES:
            self.direction = -self.direction
            events.append(Reversed(name, self.direction_name))
        self.turn = self._next(seat)
        if spell in DRAWS:
            self.pending += DRAWS[spell]
            self.attacker = seat
            if out:  # the effect is applied first, with no answer: the hand is over
                events += self._draw(self.turn, self.pending, "attack")
                self.pending = 0
            else:
                events.append(DrawPending(self.players[self.turn], self.pending, card))
        elif spell == KATINO and not out:
            self.asleep, self.turn = self.turn, self._next(self.turn)
            events.append(Asleep(self.players[self.asleep]))
        elif spell == TILTOWAIT:
            self.caster = seat
            if out:
                for other in self._others(seat):
                    events += self._draw(other, TILTOWAIT_DRAW, "tiltowait")
            else:
                self.responders = self._others(seat)
                events.append(TiltowaitTurn(self.players[self.responders[0]]))
        elif spell == MILWA:
            assert target is not None
            self.caster, self.milwa_target = seat, target
            events.append(MilwaCast(name, self.players[target]))
        return events + self._after_discard(seat)

    def _cancel(self, seat: Seat, card: str, colour: str | None) -> list[Event]:
        """MONTINO/HAMAN answering a spell aimed at ``seat``: the spell is void, a reversal already made stands."""
        sit, name = self.situation, self.players[seat]
        cancelled = {"milwa": MILWA, "tiltowait": TILTOWAIT}.get(sit, self.top)
        remove_card(self.hands[seat], card)
        self.discard.append(card)
        events: list[Event] = [CardPlayed(name, card), Cancelled(name, card, cancelled)]
        if colour is not None:
            self.colour = colour
            events.append(ColourNamed(name, colour))
        if sit == "attack":
            self.pending, self.attacker = 0, None
            self.turn = self._next(seat)
        elif sit == "tiltowait":
            events += self._next_responder()
        else:
            self.milwa_target = self.caster = None
        return events + self._after_discard(seat)

    def _after_discard(self, seat: Seat) -> list[Event]:
        if not self.hands[seat]:
            return self._end_hand(seat)
        if len(self.hands[seat]) == 1:
            self.exposed = seat
        return []

    def _next_responder(self) -> list[Event]:
        self.responders.pop(0)
        if self.responders:
            return [TiltowaitTurn(self.players[self.responders[0]])]
        self.caster = None
        return []

    def _take_attack(self, seat: Seat) -> list[Event]:
        events = self._draw(seat, self.pending, "attack")
        self.pending, self.attacker = 0, None
        self.turn = self._next(seat)
        return events

    def _tiltowait_draw(self, seat: Seat) -> list[Event]:
        return self._draw(seat, TILTOWAIT_DRAW, "tiltowait") + self._next_responder()

    def _draw_one(self, seat: Seat) -> list[Event]:
        """Draw one: a playable card may be played at once (or kept); otherwise the turn passes."""
        held = len(self.hands[seat])
        events = self._draw(seat, 1, "draw")
        got = self.hands[seat][-1] if len(self.hands[seat]) > held else None
        if got is not None and (self.colour is None or self.fits(got)):
            self.drawn = got
        else:
            self.turn = self._next(seat)
        return events

    def _keep(self, seat: Seat) -> list[Event]:
        self.drawn = None
        self.turn = self._next(seat)
        return [Kept(self.players[seat])]

    def _show_hand(self, seat: Seat) -> list[Event]:
        caster = self.caster
        assert caster is not None
        self.milwa_target = self.caster = None
        cards = sort_hand(self.hands[seat], COLOURS)
        audience = self.options["milwa"]
        return [HandShown(self.players[seat], self.players[caster], audience),
                MilwaReveal(self.players[caster], self.players[seat], cards, MILWA_SECONDS, audience)]

    def _karuki(self, seat: Seat) -> list[Event]:
        self.called.add(seat)
        if self.exposed == seat:
            self.exposed = None
        return [Karuki(self.players[seat])]

    def _catch(self, seat: Seat, target: Seat) -> list[Event]:
        self.exposed = None
        events: list[Event] = [Caught(self.players[target], self.players[seat])]
        return events + self._draw(target, KARUKI_PENALTY, "karuki")

    def _draw(self, seat: Seat, count: int, reason: str) -> list[Event]:
        """Draw ``count``, reshuffling the discard pile but its top when the stock runs out; if both are
        empty, draw what there is."""
        events: list[Event] = []
        got: list[str] = []
        for _ in range(count):
            if not self.stock and len(self.discard) > 1:
                rest, self.discard = self.discard[:-1], self.discard[-1:]
                shuffle(self.rng, rest)
                self.stock = rest
                events.append(Reshuffled(len(rest)))
            if not self.stock:
                break
            got.append(self.stock.pop())
        self.hands[seat].extend(got)
        events.append(Drew(self.players[seat], len(got), got, reason))
        return events

    def _end_hand(self, winner: Seat) -> list[Event]:
        results = []
        for s, name in enumerate(self.players):
            cards = sort_hand(self.hands[s], COLOURS)
            delta = 0 if s == winner else hand_score(cards)
            self.scores[s] += delta
            results.append({"player": name, "cards": cards, "doubled": TILTOWAIT in cards, "delta": delta,
                            "score": self.scores[s]})
        self.sheet.append({"round": self.round, "winner": self.players[winner], "results": results})
        self.pending, self.responders, self.drawn, self.exposed, self.asleep = 0, [], None, None, None
        self.milwa_target = self.caster = self.attacker = None
        limit, hands = self.options["limit"], self.hands_to_play
        over = (limit is not None and min(self.scores) <= limit) or (hands is not None and self.round >= hands)
        return [RoundEnd(self.round, self.players[winner], results), *self._close_round(over)]

    def _advance(self) -> list[Event]:
        self.starter = self.players.index(self.sheet[-1]["winner"])  # the last hand's winner starts
        return self._deal()
