"""Wizard (Amigo, Ken Fisher), to the letter of ``shared/rules/wizard.md``.

Bid the exact number of tricks you will take. 60 cards: four suits 1..13, four Wizards (``Z``) above
everything, four Jesters (``N``) below everything. Decisions the rules page leaves to us are in docs/wizard.md.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from mudwiz.cards import Action, suit_of
from mudwiz.errors import BadOption, IllegalAction
from mudwiz.games.base import Event, Option, Phase, RoundEnd, Seat, shuffle
from mudwiz.games.wizard.cards import (
    _BID,
    _PLAY,
    _SUIT,
    _TRUMP,
    DECK,
    HIDDEN,
    TOURNAMENT,
    WIZARD,
    round_score,
    trick_winner,
)
from mudwiz.games.wizard.names import suit_name
from mudwiz.games.wizard.phases import BIDDING, TRUMP
from mudwiz.games.wizard.rules import RULES_TEXT
from mudwiz.games.wizard.texts import later
from mudwiz.games.wizard.views import WizardViews
from mudwiz.numbers import whole_number
from mudwiz.texts import N_, Later

# ---------------------------------------------------------------- events


@dataclass(frozen=True)
class RoundStart(Event):
    round: int
    cards: int
    dealer: str
    leader: str


@dataclass(frozen=True)
class TrumpTurned(Event):
    """The stock's top card is turned: ``card`` None in a round with no stock; ``chooser`` names trump on a Wizard."""

    card: str | None
    suit: str | None
    chooser: str | None = None


@dataclass(frozen=True)
class TrumpChosen(Event):
    player: str
    suit: str


@dataclass(frozen=True)
class BidMade(Event):
    """A bid; under hidden or secret bidding only its maker sees the number."""

    player: str
    bid: int | None
    hidden: bool = False

    def visible_to(self, viewer: str | None) -> Event | None:
        if self.hidden and viewer != self.player:
            return BidMade(self.player, None, True)
        return self


@dataclass(frozen=True)
class BidsRevealed(Event):
    bids: dict[str, int] = field(default_factory=dict)


# ---------------------------------------------------------------- the engine


class Wizard(WizardViews):
    name = "wizard"
    title = "Wizard"
    min_players = 3
    max_players = 6
    OPTIONS = (
        Option("notequal", later("the dealer may not bid so that the bids add up to the cards dealt (a.k.a. +-1)")),
        Option("hiddentip", later("everyone bids at once, unseen; the bids are shown together when all are in")),
        Option("secretbid", later("as hiddentip, but bids stay secret until the round is scored")),
        Option("clairvoyance", later("round 1: you see everyone's card but your own")),
        Option("rounds", later("play only the first N rounds"), default=None, lo=1, hi=20),
        Option("tournament", later("Amigo tournament: 10 rounds of fixed hand sizes (3 to 5 players)")),
    )
    # "usage: what it does", split at the colon where shown: plain strs, marked for the catalog (N_) for /help to
    # put into the reader's language, the usage before the colon kept as typed
    VERBS = {
        "bid": N_("bid N: bid the number of tricks you will take"),
        "play": N_("play CARD: play a card, e.g. R12, Z (Wizard), N (Jester)"),
        "trump": N_("trump SUIT: the dealer names trump after a turned Wizard (B, G, R or Y)"),
    }
    RULES = RULES_TEXT
    WAITING_VIEW = {"trump": {"suit": None, "card": None}}  # no trump turned yet


    # -- options

    @classmethod
    def _check_combination(cls, options: dict[str, Any], nplayers: int | None) -> None:
        hidden = options["hiddentip"] or options["secretbid"]
        if options["notequal"] and hidden:
            raise BadOption(later("notequal needs a last bidder, and hidden or secret bids have none"))
        if options["hiddentip"] and options["secretbid"]:
            raise BadOption(later("choose one of hiddentip and secretbid: secret bids are already hidden"))
        if options["rounds"] is not None and options["tournament"]:
            raise BadOption(later("rounds and tournament each set the game's length: choose one"))
        if nplayers is None:
            return
        if options["tournament"] and nplayers not in TOURNAMENT:
            raise BadOption(later("tournament is for 3 to 5 players, not {n}", n=nplayers))
        most = 60 // nplayers
        if options["rounds"] is not None and options["rounds"] > most:
            raise BadOption(later("rounds={rounds}, but {n} players have only {most} rounds", rounds=options["rounds"],
                                 n=nplayers, most=most))
        if options["clairvoyance"] and options["tournament"] and TOURNAMENT[nplayers][0] != 1:
            raise BadOption(later("clairvoyance needs a one-card first round; this tournament starts with two"))

    # -- set-up

    def _start(self) -> list[Event]:
        n = len(self.players)
        if self.options["tournament"]:
            self.sizes: tuple[int, ...] = TOURNAMENT[n]
        else:
            self.sizes = tuple(range(1, (self.options["rounds"] or 60 // n) + 1))
        self.scores = [0] * n
        self.sheet: list[dict[str, Any]] = []
        self.round = 0  # 1-based once dealt
        self.dealer = self.rng.randrange(n)
        return self._deal()

    def _deal(self) -> list[Event]:
        n = len(self.players)
        self.round += 1
        size = self.sizes[self.round - 1]
        deck = DECK.cards()
        shuffle(self.rng, deck)
        self.hands = [sorted(deck[i * size : (i + 1) * size]) for i in range(n)]
        self.stock = deck[n * size :]
        self.turned = self.stock[0] if self.stock else None
        self.trump = suit_of(self.turned) if self.turned else None
        self.bids: list[int | None] = [None] * n
        self.tricks = [0] * n
        self.trick: list[tuple[Seat, str]] = []
        self.leader = (self.dealer + 1) % n
        self.first_leader = self.leader
        self.last_trick: list[tuple[Seat, str]] = []
        self.revealed_play: set[Seat] = set()
        self._phase = TRUMP if self.turned == WIZARD else BIDDING
        events: list[Event] = [
            RoundStart(self.round, size, self.players[self.dealer], self.players[self.leader]),
            TrumpTurned(
                self.turned, self.trump, self.players[self.dealer] if self.turned == WIZARD else None
            ),
        ]
        return events

    # -- state queries

    def bid_order(self) -> list[Seat]:
        n = len(self.players)
        return [(self.dealer + 1 + i) % n for i in range(n)]

    def waiting(self) -> list[Seat]:
        if self._phase == TRUMP:
            return [self.dealer]
        if self._phase == BIDDING:
            pending = [s for s in self.bid_order() if self.bids[s] is None]
            return pending if self.hidden_bids else pending[:1]
        if self._phase == Phase.PLAYING:
            return [self.to_play()]
        return []

    def playable(self, seat: Seat) -> list[str]:
        """The distinct cards of ``seat``'s hand that may be played to the current trick."""
        hand = self.hands[seat]
        suit = self.lead()
        if suit is not None and any(_SUIT[c] == suit for c in hand):
            return sorted({c for c in hand if _SUIT[c] in (suit, None)})
        return sorted(set(hand))

    def legal_actions(self, seat: Seat) -> list[Action]:
        return self._legal_while(seat, self.waiting())

    def _legal_while(self, seat: Seat, waiting: list[Seat]) -> list[Action]:
        if seat not in waiting:
            return []
        if self._phase == TRUMP:
            return list(_TRUMP)
        if self._phase == BIDDING:
            banned = self.forbidden_bid(seat)
            return [a for b, a in enumerate(_BID[: self.size + 1]) if b != banned]
        if self.clairvoyant:
            return [_PLAY[HIDDEN]]
        return [_PLAY[c] for c in self.playable(seat)]

    def normalize(self, action: Action) -> Action:
        if action.verb not in self.VERBS:
            raise self.not_a_move(action.verb)
        if len(action.args) != 1:
            raise self.usage_error(action.verb)
        (arg,) = action.args
        if action.verb == "bid":
            bid = whole_number(arg)
            if bid is None:
                raise IllegalAction(later("a bid is a whole number of tricks, not {typed!r}", typed=arg[:20]))
            return Action("bid", (str(bid),))
        if action.verb == "trump":
            return Action("trump", (DECK.parse_suit(arg),))
        return Action("play", (HIDDEN if arg == HIDDEN else DECK.parse(arg),))

    def explain(self, seat: Seat, action: Action) -> str | Later:
        verbs: dict[str, str] = {TRUMP: "trump", BIDDING: "bid", Phase.PLAYING: "play"}
        phase_verb = verbs[self._phase]
        if action.verb != phase_verb:
            return self.wrong_time(action.verb, [phase_verb])
        (arg,) = action.args
        if action.verb == "bid":
            bid = int(arg)
            if bid > self.size:
                return later("you may bid 0 to {most} this round, not {bid}", most=self.size, bid=bid)
            return later("notequal: you may not bid {bid}, the bids would add up to the {n} cards dealt",
                         bid=bid, n=self.size)
        if arg == HIDDEN:
            return later("you can see your own cards this round: play one by name")
        if self.clairvoyant:
            return later("clairvoyance: you cannot see your own card, so play it as /play ?")
        if arg not in self.hands[seat]:
            return later("you have no {card}", card=arg)
        suit = self.lead()
        return later("you must follow {suit}", suit=suit_name(suit or "B"))

    # -- moves

    def _apply(self, seat: Seat, action: Action) -> list[Event]:
        return {"trump": self._choose_trump, "bid": self._bid, "play": self._play}[action.verb](
            seat, action.args[0]
        )

    def _choose_trump(self, seat: Seat, suit: str) -> list[Event]:
        self.trump = suit
        self._phase = BIDDING
        return [TrumpChosen(self.players[seat], suit)]

    def _bid(self, seat: Seat, arg: str) -> list[Event]:
        self.bids[seat] = int(arg)
        events: list[Event] = [BidMade(self.players[seat], int(arg), self.hidden_bids)]
        if all(b is not None for b in self.bids):
            self._phase = Phase.PLAYING
            if self.options["hiddentip"]:
                bids = {self.players[s]: b for s in self.bid_order() if (b := self.bids[s]) is not None}
                events.append(BidsRevealed(bids))
        return events

    def _play(self, seat: Seat, arg: str) -> list[Event]:
        return self._play_card(seat, self.hands[seat][0] if arg == HIDDEN else arg)  # ``?``: the one card held

    def _trick_winner(self, cards: list[str]) -> int:
        return trick_winner(cards, self.trump)

    def _end_hand(self) -> list[Event]:
        """Score the round: every bid against the tricks taken, in bid order."""
        results = []
        for s in self.bid_order():
            bid = self.bids[s]
            assert bid is not None
            delta = round_score(bid, self.tricks[s])
            self.scores[s] += delta
            results.append(
                {"player": self.players[s], "bid": bid, "tricks": self.tricks[s], "delta": delta,
                 "score": self.scores[s]}
            )
        self.sheet.append({"round": self.round, "cards": self.size, "results": results})
        return [RoundEnd(self.round, results), *self._close_round(self.round == len(self.sizes))]

    def _advance(self) -> list[Event]:
        self.dealer = (self.dealer + 1) % len(self.players)
        return self._deal()
