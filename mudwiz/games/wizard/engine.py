"""Wizard (Amigo, Ken Fisher), to the letter of ``shared/rules/wizard.md``.

Bid the exact number of tricks you will take. 60 cards: four suits 1..13, four Wizards (``Z``) above
everything, four Jesters (``N``) below everything. Decisions the rules page leaves to us are in docs/wizard.md.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from mudwiz.cards import SUIT_NAMES, Action, Deck, rank_of, sort_hand, suit_of
from mudwiz.errors import BadOption, IllegalAction
from mudwiz.games.base import Event, Option, Phase, RoundEnd, Seat, TrickTakingGame, shuffle
from mudwiz.games.wizard.rules import RULES_TEXT
from mudwiz.numbers import whole_number

DECK = Deck(suits="BGRY", low=1, high=13, specials={"Z": 4, "N": 4})
WIZARD, JESTER, HIDDEN = "Z", "N", "?"
TOURNAMENT = {
    3: (2, 4, 6, 8, 10, 12, 14, 16, 18, 20),
    4: (1, 3, 5, 7, 9, 11, 12, 13, 14, 15),
    5: (2, 4, 5, 6, 7, 8, 9, 10, 11, 12),
}

# Hot-path tables (a random game asks these questions thousands of times): the suit and rank of every code,
# the display order of ``sort_hand``, and one shared immutable Action per possible move.
_CODES = sorted(set(DECK.cards()))
_SUIT: dict[str, str | None] = {c: suit_of(c) for c in _CODES}
_RANK: dict[str, int] = {c: rank_of(c) for c in _CODES}
_ORDER: dict[str, int] = {c: i for i, c in enumerate(sort_hand(_CODES, DECK.suits, JESTER, WIZARD))}
_PLAY: dict[str, Action] = {c: Action("play", (c,)) for c in (*_CODES, HIDDEN)}
_BID: tuple[Action, ...] = tuple(Action("bid", (str(b),)) for b in range(60 // 3 + 1))
_TRUMP: tuple[Action, ...] = tuple(Action("trump", (s,)) for s in DECK.suits)


def round_score(bid: int, tricks: int) -> int:
    """+20 + 10 per trick for an exact bid, else -10 per trick off."""
    return 20 + 10 * bid if bid == tricks else -10 * abs(bid - tricks)


def lead_suit(trick: list[str]) -> str | None:
    """The suit to follow: that of the first suit card, unless a Wizard came before any suit card."""
    for card in trick:
        if card == WIZARD:
            return None
        if card != JESTER:
            return _SUIT[card]
    return None


def trick_winner(trick: list[str], trump: str | None) -> int:
    """Index in ``trick`` of the winning card: first Wizard; highest trump; highest of the lead suit; first Jester."""
    if WIZARD in trick:
        return trick.index(WIZARD)
    for suit in (trump, lead_suit(trick)):
        if suit is not None:
            ranked = [(_RANK[c], i) for i, c in enumerate(trick) if _SUIT[c] == suit]
            if ranked:
                return max(ranked)[1]
    return 0  # every card a Jester: the first one wins


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


class Wizard(TrickTakingGame):
    name = "wizard"
    title = "Wizard"
    min_players = 3
    max_players = 6
    OPTIONS = (
        Option("notequal", "the dealer may not bid so that the bids add up to the cards dealt (a.k.a. +-1)"),
        Option("hiddentip", "everyone bids at once, unseen; the bids are shown together when all are in"),
        Option("secretbid", "as hiddentip, but bids stay secret until the round is scored"),
        Option("clairvoyance", "round 1: you see everyone's card but your own"),
        Option("rounds", "play only the first N rounds", default=None, lo=1, hi=20),
        Option("tournament", "Amigo tournament: 10 rounds of fixed hand sizes (3 to 5 players)"),
    )
    VERBS = {
        "bid": "bid N: bid the number of tricks you will take",
        "play": "play CARD: play a card, e.g. play R12, play Z (Wizard), play N (Jester)",
        "trump": "trump SUIT: the dealer names trump after a turned Wizard (B, G, R or Y)",
    }
    RULES = RULES_TEXT

    # -- options

    @classmethod
    def _check_combination(cls, options: dict[str, Any], nplayers: int | None) -> None:
        hidden = options["hiddentip"] or options["secretbid"]
        if options["notequal"] and hidden:
            raise BadOption("notequal needs a last bidder, and hidden or secret bids have none")
        if options["hiddentip"] and options["secretbid"]:
            raise BadOption("choose one of hiddentip and secretbid: secret bids are already hidden")
        if options["rounds"] is not None and options["tournament"]:
            raise BadOption("rounds and tournament each set the game's length: choose one")
        if nplayers is None:
            return
        if options["tournament"] and nplayers not in TOURNAMENT:
            raise BadOption(f"tournament is for 3 to 5 players, not {nplayers}")
        most = 60 // nplayers
        if options["rounds"] is not None and options["rounds"] > most:
            raise BadOption(f"rounds={options['rounds']}, but {nplayers} players have only {most} rounds")
        if options["clairvoyance"] and options["tournament"] and TOURNAMENT[nplayers][0] != 1:
            raise BadOption("clairvoyance needs a one-card first round; this tournament starts with two")

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
        self._phase = Phase.TRUMP if self.turned == WIZARD else Phase.BIDDING
        events: list[Event] = [
            RoundStart(self.round, size, self.players[self.dealer], self.players[self.leader]),
            TrumpTurned(
                self.turned, self.trump, self.players[self.dealer] if self.turned == WIZARD else None
            ),
        ]
        return events

    # -- state queries

    @property
    def size(self) -> int:
        return self.sizes[self.round - 1]

    @property
    def hidden_bids(self) -> bool:
        return bool(self.options["hiddentip"] or self.options["secretbid"])

    @property
    def clairvoyant(self) -> bool:
        return bool(self.options["clairvoyance"]) and self.round == 1

    def bid_order(self) -> list[Seat]:
        n = len(self.players)
        return [(self.dealer + 1 + i) % n for i in range(n)]

    def waiting(self) -> list[Seat]:
        if self._phase == Phase.TRUMP:
            return [self.dealer]
        if self._phase == Phase.BIDDING:
            pending = [s for s in self.bid_order() if self.bids[s] is None]
            return pending if self.hidden_bids else pending[:1]
        if self._phase == Phase.PLAYING:
            return [self.to_play()]
        return []

    def forbidden_bid(self, seat: Seat) -> int | None:
        """Under notequal, the one bid the dealer may not make (None if every bid is allowed)."""
        if not self.options["notequal"] or seat != self.dealer:
            return None
        rest = self.size - sum(b for b in self.bids if b is not None)
        return rest if 0 <= rest <= self.size else None

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
        if self._phase == Phase.TRUMP:
            return list(_TRUMP)
        if self._phase == Phase.BIDDING:
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
                raise IllegalAction(f"a bid is a whole number of tricks, not {arg[:20]!r}")
            return Action("bid", (str(bid),))
        if action.verb == "trump":
            return Action("trump", (DECK.parse_suit(arg),))
        return Action("play", (HIDDEN if arg == HIDDEN else DECK.parse(arg),))

    def explain(self, seat: Seat, action: Action) -> str:
        verbs: dict[str, str] = {Phase.TRUMP: "trump", Phase.BIDDING: "bid", Phase.PLAYING: "play"}
        phase_verb = verbs[self._phase]
        if action.verb != phase_verb:
            return self.wrong_time(action.verb, [phase_verb])
        (arg,) = action.args
        if action.verb == "bid":
            bid = int(arg)
            if bid > self.size:
                return f"you may bid 0 to {self.size} this round, not {bid}"
            return (
                f"notequal: you may not bid {bid}, the bids would add up to the {self.size} cards dealt"
            )
        if arg == HIDDEN:
            return "you can see your own cards this round: play one by name"
        if self.clairvoyant:
            return "clairvoyance: you cannot see your own card, so play it as /play ?"
        if arg not in self.hands[seat]:
            return f"you have no {arg}"
        suit = self.lead()
        return f"you must follow {SUIT_NAMES[suit or 'B']}"

    # -- moves

    def _apply(self, seat: Seat, action: Action) -> list[Event]:
        return {"trump": self._choose_trump, "bid": self._bid, "play": self._play}[action.verb](
            seat, action.args[0]
        )

    def _choose_trump(self, seat: Seat, suit: str) -> list[Event]:
        self.trump = suit
        self._phase = Phase.BIDDING
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

    # -- what a seat may know

    def bid_visible(self, of: Seat, viewer: Seat | None) -> bool:
        if self.bids[of] is None:
            return False
        if of == viewer or not self.hidden_bids or self._phase in (Phase.ROUNDEND, Phase.GAMEOVER):
            return True
        return bool(self.options["hiddentip"]) and self._phase == Phase.PLAYING

    def lead(self) -> str | None:
        return lead_suit([c for _, c in self.trick])

    def _rounds(self) -> int:
        return len(self.sizes)

    def _hand(self, seat: Seat) -> list[str]:
        if self.clairvoyant:
            return [HIDDEN] * len(self.hands[seat])
        return self._shown_hand(seat, self.hands[seat], _ORDER)

    def _players_seen_by(self, viewer: Seat | None) -> list[dict[str, Any]]:
        """The players' entries, each built as one dict (what ``Game._players_seen_by`` merges from the common
        fields and ``_player``'s, which for Wizard it would build in two more): four of them every update, and
        those merges were a tenth of it (issue #18)."""
        played: list[str | None] = [None] * len(self.players)
        for s, card in self.trick:
            played[s] = card
        scores, tricks, hands, bids = self.scores, self.tricks, self.hands, self.bids
        open_cards = viewer is not None and self.clairvoyant
        live = self._round_live()
        entries = []
        for seat, name in enumerate(self.players):
            made = bids[seat]
            bid = made if made is not None and self.bid_visible(seat, viewer) else None
            entry = {"name": name, "score": scores[seat], "tricks": tricks[seat], "held": len(hands[seat]),
                     "played": played[seat],
                     "projected": None if bid is None or not live else scores[seat] + round_score(bid, tricks[seat]),
                     "bid": bid, "has_bid": made is not None}
            if open_cards and seat != viewer:
                entry["cards"] = self._shown_hand(seat, hands[seat], _ORDER)
            entries.append(entry)
        return entries

    def _players_alike(self) -> bool:
        """Hidden bids show a viewer their own; clairvoyance, everyone's cards but their own."""
        return not (self.hidden_bids or self.clairvoyant)

    def _open_hand(self, seat: Seat) -> list[str]:
        return self._shown_hand(seat, self.hands[seat], _ORDER)  # clairvoyance hides it from its holder only

    def _round_live(self) -> bool:
        """Whether a round is being played: once it has ended its result is in ``scores``, and a projection from
        its bids and tricks would count it twice."""
        return self._phase not in (Phase.ROUNDEND, Phase.GAMEOVER)

    def _reveal(self, view: dict[str, Any]) -> dict[str, Any]:
        """Every bid made, hidden or secret bidding or not."""
        live = self._round_live()
        for seat, p in enumerate(view["players"]):
            bid = self.bids[seat]
            p["bid"] = bid
            if bid is not None and live:
                p["projected"] = self.scores[seat] + round_score(bid, self.tricks[seat])
        return view

    def _view(self, seat: Seat | None) -> dict[str, Any]:
        return {
            **super()._view(seat),
            "first_leader": self.players[self.first_leader],
            "trump": {"suit": self.trump, "card": self.turned},
            "forbidden_bid": None if seat is None else self.forbidden_bid(seat),
        }

    def _view_own(self, seat: Seat | None) -> dict[str, Any]:
        return {"forbidden_bid": None if seat is None else self.forbidden_bid(seat)}
