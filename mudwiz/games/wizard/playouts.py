"""What Wizard's ``good`` bot (:mod:`mudwiz.games.wizard.bots`) computes with: the trick rule in a form that makes
a playout cheap (a few dictionary look-ups per card; :func:`power` is checked against
:func:`mudwiz.games.wizard.cards.trick_winner` by the tests), the fast playout policy (:func:`pick`), the round
played out (:func:`playout`), the deals of the unseen cards and what one view tells the simulations."""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

from mypy_extensions import mypyc_attr

from mudwiz.cards import rank_of, suit_of
from mudwiz.games.base import Phase, shuffle
from mudwiz.games.wizard.cards import DECK, HIDDEN, JESTER, WIZARD, lead_suit

SUIT: dict[str, str | None] = {c: suit_of(c) for c in set(DECK.cards())}
RANK: dict[str, int] = {c: rank_of(c) for c in set(DECK.cards())}
NO_LEAD = "-"  # a Wizard came before any suit card: nobody has to follow anything this trick
WIZARD_POWER, TRUMP_BASE, LEAD_BASE = 100, 50, 20


def power(card: str, lead: str | None, trump: str | None) -> int:
    """How strongly ``card`` holds a trick whose lead suit is ``lead`` (set by this card if still None).

    A later card wins only with strictly more power, which is exactly :func:`mudwiz.games.wizard.cards.trick_winner`
    (first Wizard, highest trump, highest of the lead suit, first Jester); tests check the two agree.
    """
    if card == WIZARD:
        return WIZARD_POWER
    suit = SUIT[card]
    if suit is None:
        return 0
    if suit == trump:
        return TRUMP_BASE + RANK[card]
    if suit == lead or lead is None:
        return LEAD_BASE + RANK[card]
    return 0


def strength(card: str, trump: str | None) -> int:
    """A card's worth regardless of the trick: the order in which to keep (high) or shed (low) cards."""
    if card == WIZARD:
        return WIZARD_POWER
    suit = SUIT[card]
    if suit is None:
        return -1
    return TRUMP_BASE + RANK[card] if suit == trump else RANK[card]


def quick_estimate(hand: Sequence[str], trump: str | None, players: int) -> float:
    """A rough count of the tricks a hand takes: stands in for bids nobody has made yet in the simulations."""
    total = 0.0
    crowd = 1.0 if players <= 4 else 0.75
    for c in hand:
        suit, rank = SUIT[c], RANK[c]
        if c == WIZARD:
            total += 0.95
        elif suit is None:
            continue
        elif suit == trump:
            total += 0.9 if rank >= 11 else 0.6 if rank >= 8 else 0.35
        elif rank >= 11:
            total += (0.15, 0.35, 0.6)[rank - 11] * crowd
    return total


def trick_tables(trump: str | None) -> tuple[dict[str | None, dict[str, int]], dict[str, int]]:
    """``power`` for every (lead, card) and ``strength`` for every card under one trump, looked up once."""
    if trump not in _TRICK_TABLES:
        leads = [None, NO_LEAD, *DECK.suits]
        _TRICK_TABLES[trump] = ({lead: {c: power(c, lead, trump) for c in SUIT} for lead in leads},
                          {c: strength(c, trump) for c in SUIT})
    return _TRICK_TABLES[trump]


_TRICK_TABLES: dict[str | None, tuple[dict[str | None, dict[str, int]], dict[str, int]]] = {}


_SUITED = {suit: frozenset(c for c in SUIT if SUIT[c] == suit) for suit in DECK.suits}  # a suit's cards
_FOLLOWING = {suit: _SUITED[suit] | {WIZARD, JESTER} for suit in DECK.suits}  # what may be played to its lead


def playable(hand: list[str], lead: str | None) -> list[str]:
    """The cards of ``hand`` that may go to a trick led in ``lead`` (in the hand's order): its suit, a Wizard or a
    Jester while the hand holds the suit, any card otherwise (or when nothing is led yet)."""
    if lead is None or lead == NO_LEAD or _SUITED[lead].isdisjoint(hand):
        return hand
    may = _FOLLOWING[lead]
    return [c for c in hand if c in may]


def wizards_only(hand: list[str], legal: list[str], need: int) -> bool:
    """Whether :func:`pick` takes the tricks still wanted with the Wizards alone (no more wanted than it holds, and
    some card besides them in hand), ducking with everything else."""
    return 0 < need < len(hand) and legal[0] == WIZARD and hand.count(WIZARD) >= need


def pick(hand: list[str], lead: str | None, best: int, now: dict[str, int], need: int, played: int,
         players: int, model: PlayModel | None = None) -> str:
    """The playout policy: a quick choice for any player in a simulation, aiming at ``need`` more tricks.

    Wanting tricks: lead the strongest card, or take the trick with the cheapest card that beats it.
    Not wanting: lead the weakest card, or shed the strongest card that still loses.
    Needing no more tricks than the Wizards in hand: win with the Wizards only, ducking with everything else.
    ``model``, if given, chooses every other lead instead, and when to let a trick go that the rule would take
    (``hard``'s playouts: :class:`PlayModel`).
    ``hand`` is sorted strongest first (by ``strength``), and ``now`` is the power table for ``lead``: among
    cards that beat the trick, power and strength rank alike, so scanning the hand replaces sorting it.
    """
    legal = playable(hand, lead)
    if len(legal) == 1:
        return legal[0]
    if wizards_only(hand, legal, need):
        others = [c for c in legal if c != WIZARD]
        if played == 0 or not others:
            return WIZARD
        for card in others:
            if now[card] <= best:
                return card
        return WIZARD if best < WIZARD_POWER else others[0]
    if played == 0:
        if model is not None:
            return model.lead(hand, now, need, players)
        return legal[0] if need > 0 else legal[-1]
    if need > 0:
        for card in reversed(legal):
            if now[card] > best:
                if model is not None and now[legal[-1]] <= best and model.duck(
                        hand, legal, card, best, now, need, played == players - 1, players):
                    return legal[-1]  # the weakest card, which loses
                return card
        return legal[-1]
    for card in legal:
        if now[card] <= best:
            return card
    return legal[0] if played == players - 1 else legal[-1]


# What :class:`PlayModel` weighs, for each card a hand could lead: a Wizard, a Jester, a trump, its rank ((rank - 7)
# / 6, from -1 to 1) as a side card or a trump, the highest or lowest of its suit in hand, alone in its suit, its
# suit's cards over the hand's, a side suit's 13, holding a Wizard; "wants" is the tricks still wanted over the hand.
# bench/play_model.py fits the weights from ``hard``'s own leads.
LEAD_FEATURES = ("wizard", "wizard_x_wants", "jester", "jester_x_wants", "trump", "side_rank", "trump_rank",
                 "top_of_suit", "bottom_of_suit", "alone", "suit_share", "rank_x_wants", "trump_x_wants", "side_13",
                 "alone_x_rank", "rank_with_wizard")


def lead_features(hand: Sequence[str], table: dict[str, int], need: int) -> dict[str, list[float]]:
    """Each card of ``hand`` (any order) and its :data:`LEAD_FEATURES`; ``table`` is the power table of a trick not yet
    led (a trump's power is ``TRUMP_BASE`` and more). The plain form: :class:`PlayModel` computes the same faster."""
    suits: dict[str, list[int]] = {}
    for c in hand:
        if (suit := SUIT[c]) is not None:
            suits.setdefault(suit, []).append(RANK[c])
    wants = need / len(hand)
    wizard = WIZARD in hand
    found: dict[str, list[float]] = {}
    for c in hand:
        f = [0.0] * len(LEAD_FEATURES)
        suit = SUIT[c]
        if c == WIZARD:
            f[0], f[1] = 1.0, wants
        elif suit is None:
            f[2], f[3] = 1.0, wants
        else:
            rank, ranks = RANK[c], suits[suit]
            scaled, trump = (rank - 7) / 6, table[c] >= TRUMP_BASE
            f[4] = float(trump)
            f[6 if trump else 5] = scaled
            f[7], f[8], f[9] = float(rank == max(ranks)), float(rank == min(ranks)), float(len(ranks) == 1)
            f[10] = len(ranks) / len(hand)
            f[11], f[12] = scaled * wants, trump * wants
            f[13] = float(rank == 13 and not trump)
            f[14] = scaled * (len(ranks) == 1)
            f[15] = scaled * wizard
        found[c] = f
    return found


# What :class:`PlayModel` weighs when a player following wants tricks and could take this one or let it go: the
# cheapest card that takes it (a Wizard, a trump, its rank as above, the highest of its suit in hand), the tricks
# still wanted over the hand (and just one), playing last, the Wizards and trumps of 11 and up over the tricks
# wanted, the share of the cards it may play that take the trick, the hand's size, a Jester at hand.
DUCK_FEATURES = ("bias", "wizard", "trump", "rank", "wants", "need_1", "last", "strong_over_need", "top_of_suit",
                 "winners_share", "hand_10", "rank_x_wants", "last_x_wants", "trump_x_wants", "wizard_x_wants",
                 "jester_at_hand")


def duck_features(hand: list[str], legal: list[str], card: str, best: int, table: dict[str, int], need: int,
                  last: bool) -> list[float]:
    """The :data:`DUCK_FEATURES` of a choice between taking the trick with ``card`` (the cheapest of ``legal`` that
    takes it; ``table``: the trick's power table, ``best``: the power to beat) and letting it go; ``last``: the
    player plays the trick's last card."""
    size = len(hand)
    wants = need / size
    wizard = 1.0 if card == WIZARD else 0.0
    suit = SUIT[card]
    trump = 1.0 if wizard == 0.0 and table[card] >= TRUMP_BASE else 0.0
    rank = (RANK[card] - 7) / 6 if suit is not None else 0.0
    strong = 0
    top = 1.0
    jester = 0.0
    for c in hand:
        if c == WIZARD:
            strong += 1
        elif c == JESTER:
            jester = 1.0
        else:
            if table[c] >= TRUMP_BASE and RANK[c] >= 11:
                strong += 1
            if SUIT[c] == suit and RANK[c] > RANK[card]:
                top = 0.0
    winners = 0
    for c in legal:
        if table[c] > best:
            winners += 1
    after = 1.0 if last else 0.0
    return [1.0, wizard, trump, rank, wants, 1.0 if need == 1 else 0.0, after, min(strong / need, 2.0),
            top if suit is not None else 0.0, winners / len(legal), size / 10, rank * wants, after * wants,
            trump * wants, wizard * wants, jester]


class PlayModel:
    """How ``hard``'s playouts lead, and when they let a trick go, as ``hard`` itself does: weights fitted to its own
    leads and follows (bench/play_model.py) where the rule of thumb of :func:`pick` guesses it worst.

    A lead: the card whose :func:`lead_features` score highest (a set of weights for three players and one for four
    and more, each wanting no more tricks or some; without a set, the rule of thumb: the strongest card when wanting
    tricks, the weakest when not). ``hard``, like people, keeps its Wizards for later tricks and leads low from its
    short side suits, towards a void. The per-card parts of the score are looked up (per trump and weights), the
    parts that depend on the hand are summed over it in two passes: a lead costs a few microseconds.

    A duck: following, wanting tricks, with a card that takes the trick and one that does not, the rule takes it
    with its cheapest winner; ``hard`` lets more than half such tricks go, keeping its Wizards and high trumps for
    later when few tricks are wanted from a long hand. Ducked when the :func:`duck_features` score under the
    weights for the table's size is below 0 (a logistic model of taking; no weights: always taken).
    Both take the hand sorted strongest first, as :func:`pick` does."""

    def __init__(self, leads: Mapping[tuple[int, bool], Sequence[float]],
                 ducks: Mapping[int, Sequence[float]] | None = None) -> None:
        self.leads = {key: tuple(w) for key, w in leads.items()}
        self.ducks = {key: tuple(w) for key, w in (ducks or {}).items()}
        for w in self.leads.values():
            if len(w) != len(LEAD_FEATURES):
                raise ValueError(f"lead weights need {len(LEAD_FEATURES)} numbers, not {len(w)}")
        for w in self.ducks.values():
            if len(w) != len(DUCK_FEATURES):
                raise ValueError(f"duck weights need {len(DUCK_FEATURES)} numbers, not {len(w)}")
        # keyed by the power table's id: :func:`trick_tables` keeps each one for the life of the process
        self._parts: dict[tuple[int, int, bool], tuple[dict[str, float], ...]] = {}

    def parts(self, table: dict[str, int], key: tuple[int, bool]) -> tuple[dict[str, float], ...]:
        """The score's parts that depend on the card alone: fixed, × wants, holding a Wizard, alone in its suit."""
        found = self._parts.get((id(table), *key))
        if found is None:
            w = self.leads[key]
            fixed, wants, wizard, alone = {}, {}, {}, {}
            for c in table:
                f = lead_features([c], table, 0)[c]
                fixed[c] = w[0] * f[0] + w[2] * f[2] + w[4] * f[4] + w[5] * f[5] + w[6] * f[6] + w[13] * f[13]
                scaled = f[5] + f[6]
                wants[c] = w[1] * f[0] + w[3] * f[2] + (w[11] * scaled + w[12] * f[4] if SUIT[c] is not None else 0.0)
                wizard[c] = w[15] * scaled
                alone[c] = w[9] + w[14] * scaled + w[7] + w[8]
            found = self._parts[(id(table), *key)] = (fixed, wants, wizard, alone)
        return found

    @staticmethod
    def lead_key(players: int, need: int) -> tuple[int, bool]:
        """Which set of lead weights a lead uses: 3 for three players, 4 for four and more; wanting tricks or not."""
        return (3 if players <= 3 else 4, need > 0)

    @staticmethod
    def duck_key(players: int) -> int:
        """Which set of duck weights a follow uses: 3 for three players, 4 for four and more."""
        return 3 if players <= 3 else 4

    def duck(self, hand: list[str], legal: list[str], card: str, best: int, table: dict[str, int], need: int,
             last: bool, players: int) -> bool:
        """Whether to let the trick go though ``card`` would take it and tricks are still wanted."""
        w = self.ducks.get(self.duck_key(players))
        if w is None:
            return False
        f = duck_features(hand, legal, card, best, table, need, last)
        score = 0.0
        for i in range(len(f)):
            score += w[i] * f[i]
        return score < 0.0

    def lead(self, hand: list[str], table: dict[str, int], need: int, players: int) -> str:
        key = self.lead_key(players, need)
        if key not in self.leads:
            return hand[0] if need > 0 else hand[-1]
        fixed, wants, wizard, alone = self.parts(table, key)
        w = self.leads[key]
        top, bottom, share = w[7], w[8], w[10] / len(hand)
        ratio = need / len(hand)
        counts: dict[str, int] = {}
        first: dict[str, str] = {}
        last: dict[str, str] = {}
        holds_wizard = False
        for c in hand:
            suit = SUIT[c]
            if suit is None:
                holds_wizard = holds_wizard or c == WIZARD
            elif suit in counts:
                counts[suit] += 1
                last[suit] = c
            else:
                counts[suit] = 1
                first[suit] = last[suit] = c
        best, high = hand[0], -math.inf
        for c in hand:
            score = fixed[c] + ratio * wants[c]
            if holds_wizard:
                score += wizard[c]
            suit = SUIT[c]
            if suit is not None:
                length = counts[suit]
                if length == 1:
                    score += alone[c] + share
                else:
                    score += length * share
                    if first[suit] == c:
                        score += top
                    elif last[suit] == c:
                        score += bottom
            if score > high:
                best, high = c, score
        return best


def playout(hands: list[list[str]], trick: list[tuple[int, str]], leader: int, trump: str | None,
            bids: list[int], tricks: list[int], first: str | None = None, ordered: bool = False,
            model: PlayModel | None = None) -> list[int]:
    """Play the round out from a partly played ``trick`` (``first``: the card the next player plays).

    ``hands`` and ``tricks`` are consumed (pass copies); returns the tricks each seat ends the round with.
    ``ordered``: each hand is already sorted strongest first (by ``strength``), as :func:`order` leaves it.
    ``model``: how every player leads and when it ducks (:func:`pick`'s rule of thumb if None).
    """
    n = len(hands)
    powers, worth = trick_tables(trump)
    if not ordered:
        for hand in hands:
            hand.sort(key=worth.__getitem__, reverse=True)
    lead: str | None = None
    best, winner = -1, leader
    for seat, card in trick:
        if lead is None and card != JESTER:
            lead = NO_LEAD if card == WIZARD else SUIT[card]
        p = powers[lead][card]
        if p > best:
            best, winner = p, seat
    played = len(trick)
    power_now = powers[lead]  # (not ``now``: the catalogs' extractor reads that name as a marking function)
    while True:
        while played < n:
            seat = (leader + played) % n
            hand = hands[seat]
            if first is not None:
                card, first = first, None
            else:
                card = pick(hand, lead, best, power_now, bids[seat] - tricks[seat], played, n, model)
            hand.remove(card)
            if lead is None and card != JESTER:
                lead = NO_LEAD if card == WIZARD else SUIT[card]
                power_now = powers[lead]  # (not ``now``: the catalogs' extractor reads that name as a marking function)
            p = power_now[card]
            if p > best:
                best, winner = p, seat
            played += 1
        tricks[winner] += 1
        leader = winner
        if not hands[leader]:
            return tricks
        lead, best, played, power_now = None, -1, 0, powers[None]


def order(hands: list[list[str]], trump: str | None) -> list[list[str]]:
    """Sort each hand strongest first, once per deal, for playouts told ``ordered``."""
    worth = trick_tables(trump)[1]
    for hand in hands:
        hand.sort(key=worth.__getitem__, reverse=True)
    return hands


def deal(pool: list[str], needs: dict[int, int], voids: dict[int, set[str]],
         rng: random.Random) -> dict[int, list[str]]:
    """Share the unseen ``pool`` among seats needing cards (the rest is the stock), never giving a known void.

    Seats with voids draw first from the cards they may hold; the others share what is left. (Not exactly the
    conditional distribution, but close, and cheap enough to do hundreds of times a decision.)
    """
    cards = pool[:]
    shuffle(rng, cards)  # rng.shuffle's draws, compiled
    hands: dict[int, list[str]] = {}
    for s in sorted(needs, key=lambda s: -len(voids.get(s, ()))):
        void = voids.get(s)
        if void:
            hands[s] = [c for c in cards if SUIT[c] not in void][: needs[s]]
            if len(hands[s]) < needs[s]:  # the voids we inferred cannot all hold (e.g. a stand-in's memory gap)
                return deal(pool, needs, {}, rng)
            taken = Counter(hands[s])
            rest = []
            for c in cards:
                if taken[c]:
                    taken[c] -= 1
                else:
                    rest.append(c)
            cards = rest
        else:
            hands[s], cards = cards[: needs[s]], cards[needs[s] :]
    return hands


@mypyc_attr(allow_interpreted_subclasses=True)  # ``easy``'s memory, which forgets voids, is one
class RoundMemory:
    """What a player at the table has seen this round: the cards of every trick, and who showed a void."""

    def __init__(self) -> None:
        self.key: tuple[Any, ...] | None = None
        self.tricks: dict[int, list[tuple[str, str]]] = {}

    def update(self, view: dict[str, Any]) -> None:
        key = (view["round"], view["rounds"], view["dealer"], view["trump"]["card"], view["cards"])
        if key != self.key or view["phase"] != Phase.PLAYING:
            self.key, self.tricks = key, {}
        done = sum(p["tricks"] for p in view["players"])
        if done and view["last_trick"]:
            self.tricks[done - 1] = [(t["player"], t["card"]) for t in view["last_trick"]]
        self.tricks[done] = [(t["player"], t["card"]) for t in view["trick"]]

    def played(self) -> list[str]:
        return [c for trick in self.tricks.values() for _, c in trick]

    def voids(self) -> dict[str, set[str]]:
        """Players who did not follow a lead suit with a suit card hold none of it."""
        found: dict[str, set[str]] = {}
        for trick in self.tricks.values():
            cards = [c for _, c in trick]
            for i, (player, card) in enumerate(trick):
                lead = lead_suit(cards[:i])
                if lead is not None and SUIT[card] not in (lead, None):
                    found.setdefault(player, set()).add(lead)
        return found


def trick_lead(trick: list[str]) -> str | None:
    for card in trick:
        if card != JESTER:
            return NO_LEAD if card == WIZARD else SUIT[card]
    return None


def trick_best(trick: list[str], trump: str | None) -> int:
    lead = trick_lead(trick)
    return max((power(c, lead, trump) for c in trick), default=-1)


@mypyc_attr(allow_interpreted_subclasses=True)  # bench/wizard_oracle.py's, which deals the real hands, is one
class Simulations:
    """Everything the simulations need from one view: seats, known cards, the unseen pool, bids to aim for."""

    def __init__(self, view: dict[str, Any], memory: RoundMemory, first_leader: bool, misplay: float = 1.0,
                 model: PlayModel | None = None) -> None:
        players = view["players"]
        names = [p["name"] for p in players]
        self.n = len(players)
        self.me = names.index(view["you"])
        self.trump: str | None = view["trump"]["suit"]
        self.leader = names.index(view["first_leader" if first_leader else "leader"])
        self.trick = [(names.index(t["player"]), t["card"]) for t in view["trick"]]
        self.tricks = [p["tricks"] for p in players]
        self.hand: list[str] = [c for c in view["hand"] if c != HIDDEN]
        self.known: dict[int, list[str]] = {i: list(p["cards"]) for i, p in enumerate(players) if "cards" in p}
        unseen = Counter(DECK.cards())
        unseen.subtract(self.hand)
        unseen.subtract(memory.played() if view["phase"] == Phase.PLAYING else [])
        if view["trump"]["card"]:
            unseen.subtract([view["trump"]["card"]])
        for cards in self.known.values():
            unseen.subtract(cards)
        self.needs = {i: p["held"] for i, p in enumerate(players) if i != self.me and i not in self.known}
        if len(self.hand) < players[self.me]["held"]:  # clairvoyance: our own card is the unknown one
            self.needs[self.me] = players[self.me]["held"]
        if any(k < 0 for k in unseen.values()) or unseen.total() < sum(self.needs.values()):
            memory.tricks = {}  # what we remembered cannot be this round's: forget it rather than deal nonsense
            unseen = Counter(DECK.cards())
            unseen.subtract([*self.hand, *(c for _, c in self.trick), *(c for cs in self.known.values() for c in cs)])
            if view["trump"]["card"]:
                unseen.subtract([view["trump"]["card"]])
        self.pool = list(unseen.elements())
        self.played_by: dict[int, list[str]] = {}
        if view["phase"] == Phase.PLAYING:
            for trick in memory.tricks.values():
                for player, card in trick:
                    if player in names:
                        self.played_by.setdefault(names.index(player), []).append(card)
        self.spread = 1.0 + 0.1 * view["cards"]
        voids = memory.voids()
        self.voids = {names.index(p): s for p, s in voids.items() if p in names}
        self.given = [p["bid"] for p in players]
        self.bids = [b if b is not None else 0 for b in self.given]
        self.misplay, self.model = misplay, model  # how the players lead and duck, in playouts and in the reading
        self.observed: list[Observed] = []  # the dealt seats' cards this round, as the policy saw each (``explained``)
        if view["phase"] == Phase.PLAYING and misplay < 1.0:
            self.observed = self.observe([[(names.index(p), c) for p, c in memory.tricks[k] if p in names]
                                          for k in sorted(memory.tricks)])

    def same(self, a: str, b: str) -> bool:
        """Whether two of our cards are as good as each other: same suit, and no card anyone may still play
        (unseen, or in the current trick) ranks between them — B7 and B9 after B8 has gone, say."""
        if a == b:
            return True
        suit = SUIT[a]
        if suit is None or suit != SUIT[b]:
            return False
        low, high = sorted((RANK[a], RANK[b]))
        live = self.pool + [c for _, c in self.trick]
        return not any(SUIT[c] == suit and low < RANK[c] < high for c in live)

    def distinct(self, cards: list[str]) -> list[str]:
        """``cards`` with only the lowest of each run of equally good cards (each is simulated once)."""
        kept: list[str] = []
        for card in sorted(cards, key=lambda c: (SUIT[c] or "", RANK[c])):
            if not any(self.same(card, k) for k in kept):
                kept.append(card)
        return kept

    def sample(self, rng: random.Random) -> tuple[list[list[str]], list[int], float]:
        """One deal of the unseen cards consistent with the view, the bids every seat plays towards, and how
        plausible the deal is given the bids already made (a player who bid 3 rarely holds rubbish)."""
        dealt = deal(self.pool, self.needs, self.voids, rng)
        hands: list[list[str]] = []
        for s in range(self.n):
            hands.append(dealt[s] if s in dealt else self.known.get(s, self.hand if s == self.me else []))
        bids = self.bids[:]
        weight = 1.0
        for s, given in enumerate(self.given):
            if given is None:  # not bid yet, or bid in secret: aim for what its cards look like
                bids[s] = self.tricks[s] + round(quick_estimate(hands[s], self.trump, self.n))
            elif s in dealt:
                dealt_hand = hands[s] + self.played_by.get(s, [])
                miss = (quick_estimate(dealt_hand, self.trump, self.n) - given) / self.spread
                weight *= math.exp(-0.5 * miss * miss)
        if self.observed:
            weight *= self.explained(hands)
        return [h[:] for h in hands], bids, weight

    def observe(self, tricks: list[list[tuple[int, str]]]) -> list[Observed]:
        """Each card a seat the deals give cards to (with a bid to aim at) played this round, with what the playout
        policy would have seen there: the same in every deal, so worked out once, not once a deal."""
        powers = trick_tables(self.trump)[0]
        taken = [0] * self.n
        observed: list[Observed] = []
        for trick in tricks:
            lead: str | None = None
            best, winner, table = -1, -1, powers[None]
            for i, (seat, card) in enumerate(trick):
                if seat != self.me and seat in self.needs and self.given[seat] is not None:
                    observed.append(Observed(seat, card, lead, table, best, self.bids[seat] - taken[seat], i))
                if lead is None and card != JESTER:
                    lead = NO_LEAD if card == WIZARD else SUIT[card]
                    table = powers[lead]
                if table[card] > best:
                    best, winner = table[card], seat
            if len(trick) == self.n:
                taken[winner] += 1
        return observed

    def explained(self, hands: list[list[str]]) -> float:
        """How well the playout policy explains the cards the others have played this round, were ``hands``
        theirs: ``misplay`` for each card :func:`pick` would not have played in their place, given what they bid
        and had taken by then. A card of the suit it picks that wins or loses the trick alike counts as its
        choice: players search rather than follow the policy, so a mismatch only makes the deal less likely."""
        worth = trick_tables(self.trump)[1]
        held = {s: sorted(hands[s] + self.played_by.get(s, []), key=worth.__getitem__, reverse=True)
                for s in {o.seat for o in self.observed}}
        weight = 1.0
        for seat, card, lead, table, best, need, place in self.observed:
            hand = held[seat]
            if card in hand:
                choice = pick(hand, lead, best, table, need, place, self.n, self.model)
                if choice != card and (SUIT[choice] is None or SUIT[choice] != SUIT[card]
                                       or (table[choice] > best) != (table[card] > best)):
                    weight *= self.misplay
                hand.remove(card)
        return weight


class Observed(NamedTuple):
    """A card another player played, and what the playout policy would have seen in its place: the lead suit and
    its power table, the best power in the trick so far, the tricks it still needed, its place in the trick."""

    seat: int
    card: str
    lead: str | None
    table: dict[str, int]
    best: int
    need: int
    place: int
