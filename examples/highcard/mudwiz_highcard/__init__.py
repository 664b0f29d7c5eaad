"""High Card, the smallest game worth playing at a mudwiz table: an example of a game plugin (docs/games.md).

Each round deals every player three cards (four suits of 1 to 13). Then comes a phase of the game's own,
``swapping``: from the leader, each player in turn may swap one card for the top of the stock (``/swap CARD``)
or keep the hand (``/stand``). Three tricks follow: the leader plays any card, each other player any card in
turn, and the highest number takes the trick (the first played wins a tie), its taker leading the next. Each
trick taken is a point; after the last round the most points win.

No renderer and no bots: mudwiz draws it with its generic renderer, and ``random`` bots play it. The plugin
declares its own phase and the words the terminal client asks for a swap with; ``mudwiz_highcard.client``
holds the client's hints (the table's facts during the swaps, and ``/stand`` as the cursor's first choice).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from mudwiz.cards import Action, rank_of
from mudwiz.games.base import CardPlayed, Event, Game, Option, RoundEnd, Seat, Trick
from mudwiz.games.plugin import GamePlugin

HAND = 3
SWAPPING = "swapping"  # the game's own phase, declared by its plugin: before each round's tricks


@dataclass(frozen=True)
class RoundStart(Event):
    """A round is dealt and ``leader`` leads its first trick: everyone sees this."""

    round: int
    leader: str


@dataclass(frozen=True)
class Dealt(Event):
    """The cards dealt to ``player``: only they see them (``visible_to``), as the engine must never tell."""

    player: str
    cards: list[str]

    def visible_to(self, viewer: str | None) -> Event | None:
        return self if viewer == self.player else None


@dataclass(frozen=True)
class Swapped(Event):
    """``player`` swapped a card (``swapped``) or stood: everyone sees that, nobody which card."""

    player: str
    swapped: bool


class HighCard(Game):
    name = "highcard"
    title = "High Card"
    min_players = 2
    max_players = 4
    OPTIONS = (Option("rounds", "how many rounds are dealt (1 to 10)", 3, 1, 10),)
    VERBS = {
        "play": "play CARD: put a card of your hand on the trick",
        "swap": "swap CARD: before the tricks, give a card for the top of the stock",
        "stand": "stand: before the tricks, keep your hand",
    }
    RULES = {
        "goal": "Take the most tricks over all the rounds.",
        "play": "Each round deals three cards each. From the leader, each player may swap one\n"
                "card for the top of the stock (/swap B7) or keep the hand (/stand). Then the\n"
                "leader plays any card, then each other player in turn; the highest number\n"
                "takes the trick (the first played wins a tie) and leads the next.",
        "scoring": "A point for each trick taken. After the last round the most points win.",
    }

    def _start(self) -> list[Event]:
        self.round = 0
        self.scores = [0] * len(self.players)
        self.sheet: list[dict[str, Any]] = []
        return self._deal()

    def _deal(self) -> list[Event]:
        """Shuffle (the game's own seeded rng), deal, and let the next seat in turn lead."""
        self.round += 1
        deck = [f"{suit}{rank}" for suit in "BGRY" for rank in range(1, 14)]
        self.rng.shuffle(deck)
        n = len(self.players)
        self.hands = [sorted(deck[i * HAND:(i + 1) * HAND], key=lambda c: (rank_of(c), c)) for i in range(n)]
        self.stock = deck[n * HAND:]
        self.leader = (self.round - 1) % n
        self.swapped = 0  # players who swapped or stood this round
        self.trick: list[tuple[Seat, str]] = []
        self.last_trick: list[tuple[Seat, str]] = []
        self.tricks = [0] * n
        self._phase = SWAPPING
        dealt: list[Event] = [Dealt(name, list(hand)) for name, hand in zip(self.players, self.hands, strict=True)]
        return [RoundStart(self.round, self.players[self.leader]), *dealt]

    def to_play(self) -> Seat:
        return (self.leader + len(self.trick)) % len(self.players)

    def to_swap(self) -> Seat:
        return (self.leader + self.swapped) % len(self.players)

    def waiting(self) -> list[Seat]:
        if self._phase == SWAPPING:
            return [self.to_swap()]
        return [self.to_play()] if self._phase == "playing" else []

    def legal_actions(self, seat: Seat) -> list[Action]:
        if seat not in self.waiting():
            return []
        if self._phase == SWAPPING:
            return [*(Action("swap", (card,)) for card in self.hands[seat]), Action("stand")]
        return [Action("play", (card,)) for card in self.hands[seat]]

    def normalize(self, action: Action) -> Action:
        if action.verb not in self.VERBS:
            raise self.not_a_move(action.verb)
        if action.verb == "stand":
            if action.args:
                raise self.usage_error("stand")
            return action
        if len(action.args) != 1:
            raise self.usage_error(action.verb)
        return Action(action.verb, (action.args[0].upper(),))

    def explain(self, seat: Seat, action: Action) -> str:
        if action.verb == "play" and self._phase == SWAPPING:
            return "first swap a card or stand"
        if action.verb != "play" and self._phase != SWAPPING:
            return "the swaps are over: play a card"
        return f"you have no {action.args[0]}"

    def _apply(self, seat: Seat, action: Action) -> list[Event]:
        if action.verb in ("swap", "stand"):
            return self._swap(seat, action)
        card = action.args[0]
        self.hands[seat].remove(card)
        self.trick.append((seat, card))
        events: list[Event] = [CardPlayed(self.players[seat], card)]
        if len(self.trick) < len(self.players):
            return events
        best = max(rank_of(c) for _, c in self.trick)
        won = next(s for s, c in self.trick if rank_of(c) == best)
        self.tricks[won] += 1
        self.scores[won] += 1
        events.append(Trick([{"player": self.players[s], "card": c} for s, c in self.trick], self.players[won]))
        self.last_trick, self.trick, self.leader = self.trick, [], won
        if self.hands[won]:
            return events
        results = [{"player": p, "tricks": self.tricks[s], "delta": self.tricks[s], "score": self.scores[s]}
                   for s, p in enumerate(self.players)]
        self.sheet.append({"round": self.round, "results": results})
        events.append(RoundEnd(self.round, results))
        return events + self._close_round(self.round >= self.options["rounds"])

    def _swap(self, seat: Seat, action: Action) -> list[Event]:
        """A card given for the top of the stock, or the hand kept; after the last player, the tricks."""
        if action.verb == "swap":
            hand = self.hands[seat]
            hand.remove(action.args[0])
            hand.append(self.stock.pop())
            hand.sort(key=lambda c: (rank_of(c), c))
        self.swapped += 1
        if self.swapped == len(self.players):
            self._phase = "playing"
        return [Swapped(self.players[seat], action.verb == "swap")]

    def _advance(self) -> list[Event]:
        return self._deal()

    # The view: Game.view() builds the fields every game shares (players, scores, hand, legal, options, sheet,
    # standings, ...) and asks these hooks for what only this game knows.

    def _rounds(self) -> int:
        return self.options["rounds"]

    def _dealer(self) -> Seat:
        return (self.round - 1) % len(self.players)

    def _hand(self, seat: Seat) -> list[str]:
        return list(self.hands[seat])

    def _player(self, seat: Seat, viewer: Seat | None) -> dict[str, Any]:
        return {"tricks": self.tricks[seat], "held": len(self.hands[seat])}

    def _view(self, seat: Seat | None) -> dict[str, Any]:
        return {
            "leader": self.players[self.leader],
            "trick": [{"player": self.players[s], "card": c} for s, c in self.trick],
            "last_trick": [{"player": self.players[s], "card": c} for s, c in self.last_trick],
            "to_swap": self.players[self.to_swap()] if self._phase == SWAPPING else None,
        }


# What mudwiz's shared layers learn of the game from its plugin: its own phase, the words the terminal client's
# status line asks for a swap with, the event that opens a round, and the client's hints module.
PLUGIN = GamePlugin(
    engine=HighCard,
    client="mudwiz_highcard.client",
    phases=(SWAPPING,),
    prompts={"swap": "swap a card or stand"},
    round_start="round_start",
)
