"""Property tests of the Wizard engine: random legal games for every player count and option set.

A ``Referee`` keeps its own account of each game from the events alone (trump, bids, tricks, played cards,
totals) and recomputes what ``shared/rules/wizard.md`` says without calling the engine's helpers, so a bug
cannot hide behind the code that caused it. At every step it checks card conservation, the legal moves,
what each seat's view reveals (also by perturbing hidden information and asserting the view does not
change), and it throws illegal moves at the engine to see them refused without side effects.
"""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mudwiz.errors import BadOption, IllegalAction, NotYourTurn
from mudwiz.games.base import Event
from mudwiz.games.wizard import Wizard

SUITS = "BGRY"
SUIT_WORDS = {"B": "blue", "G": "green", "R": "red", "Y": "yellow"}
FULL_DECK = Counter([f"{s}{r}" for s in SUITS for r in range(1, 14)] + ["Z"] * 4 + ["N"] * 4)
CARD_TOKEN = re.compile(r"[BGRY]\d+")  # may over-match inside a longer word: that can only fail a test
DECK_SORTED = sorted(FULL_DECK.elements())
SUITED = sorted(c for c in FULL_DECK if c not in ("Z", "N"))
# The rules page's tournament table, typed in again here rather than read from the engine.
TOURNAMENT = {
    3: [2, 4, 6, 8, 10, 12, 14, 16, 18, 20],
    4: [1, 3, 5, 7, 9, 11, 12, 13, 14, 15],
    5: [2, 4, 5, 6, 7, 8, 9, 10, 11, 12],
}


# ---------------------------------------------------------------- the rules, recomputed


def is_special(card: str) -> bool:
    return card in ("Z", "N")


def rules_lead(cards: Sequence[str]) -> str | None:
    """The suit of the first suit card, unless a Wizard came first (then nothing is to be followed)."""
    for card in cards:
        if card == "Z":
            return None
        if card != "N":
            return card[0]
    return None


def rules_winner(cards: Sequence[str], trump: str | None) -> int:
    """First Wizard; else highest trump; else highest of the lead suit; else (all Jesters) the first card."""
    if "Z" in cards:
        return cards.index("Z")
    for suit in (trump, rules_lead(cards)):
        best = -1
        for i, card in enumerate(cards):
            if suit is not None and not is_special(card) and card[0] == suit:
                if best < 0 or int(card[1:]) > int(cards[best][1:]):
                    best = i
        if best >= 0:
            return best
    assert set(cards) == {"N"}, cards
    return 0


def rules_playable(hand: Sequence[str], trick: Sequence[str]) -> set[str]:
    lead = rules_lead(trick)
    follow = {c for c in hand if not is_special(c) and c[0] == lead}
    if follow:
        return follow | {c for c in hand if is_special(c)}
    return set(hand)


def rules_score(bid: int, tricks: int) -> int:
    return 20 + 10 * bid if bid == tricks else -10 * abs(bid - tricks)


def rules_places(scores: Sequence[int]) -> list[int]:
    return [1 + sum(other > mine for other in scores) for mine in scores]


def rules_sizes(n: int, options: dict[str, Any]) -> list[int]:
    if options.get("tournament"):
        return TOURNAMENT[n]
    return list(range(1, (options.get("rounds") or 60 // n) + 1))


def option_cases() -> list[tuple[int, str, bool, str]]:
    """Every (players, bidding mode, clairvoyance, length) the rules allow; rounds=N is drawn per example."""
    cases = []
    for n in range(3, 7):
        for mode in ("plain", "notequal", "hiddentip", "secretbid"):
            for clair in (False, True):
                for length in ("full", "rounds", "tournament"):
                    if length == "tournament" and (n not in TOURNAMENT or (clair and TOURNAMENT[n][0] != 1)):
                        continue
                    cases.append((n, mode, clair, length))
    return cases


def build_options(mode: str, clair: bool, length: str, rounds: int) -> dict[str, Any]:
    options: dict[str, Any] = {} if mode == "plain" else {mode: True}
    if clair:
        options["clairvoyance"] = True
    if length == "rounds":
        options["rounds"] = rounds
    elif length == "tournament":
        options["tournament"] = True
    return options


# ---------------------------------------------------------------- the referee


class Referee:
    """Follows one game through its events and checks the engine against the rules at every step."""

    def __init__(
        self, game: Wizard, options: dict[str, Any], aux: random.Random, *, views: bool = True, perturb: float = 0.15
    ) -> None:
        self.game = game
        self.aux = aux
        self.views = views
        self.perturb = perturb
        self.names = list(game.players)
        self.n = len(self.names)
        self.opts = {k: v for k, v in options.items() if v}  # what the test asked for, not what the engine kept
        assert {k: v for k, v in game.options.items() if v} == self.opts
        self.hidden = bool(self.opts.get("hiddentip") or self.opts.get("secretbid"))
        self.sizes = rules_sizes(self.n, self.opts)
        self.round = 0
        self.dealer: int | None = None
        self.totals = [0] * self.n
        self.sheet: list[dict[str, Any]] = []
        self.ended = False
        self.refusals: Counter[str] = Counter()

    def seat(self, name: str) -> int:
        return self.names.index(name)

    # -- following the events

    def feed(self, events: Sequence[Event], hands_before: list[list[str]] | None = None) -> None:
        for event in events:
            kind = event.type
            self.check_visibility(event, kind)
            getattr(self, "on_" + kind)(event, hands_before)

    def check_visibility(self, event: Event, kind: str) -> None:
        """Only a hidden bid's maker may see its number; every other event is the same for everyone."""
        hidden_bid = self.hidden and kind == "bid_made"
        for viewer in [*self.names, None]:
            seen = event.visible_to(viewer)
            if hidden_bid and viewer != event.player:
                assert seen is not None and seen.type == kind and seen.player == event.player, (viewer, event)
                assert seen.bid is None, (viewer, event)
            else:
                assert seen == event, (viewer, event)

    def on_round_start(self, ev: Any, _: Any) -> None:
        assert not self.ended
        self.round += 1
        assert ev.round == self.round <= len(self.sizes)
        self.size = self.sizes[self.round - 1]
        assert ev.cards == self.size
        if self.dealer is None:
            self.dealer = self.seat(ev.dealer)
        else:
            self.dealer = (self.dealer + 1) % self.n  # the deal passes to the left each round
        assert ev.dealer == self.names[self.dealer]
        self.leader = (self.dealer + 1) % self.n
        assert ev.leader == self.names[self.leader]
        self.bids: list[int | None] = [None] * self.n
        self.tricks = [0] * self.n
        self.trick: list[tuple[int, str]] = []
        self.played: list[str] = []  # the cards of this round's finished tricks
        self.trump: str | None = None
        self.trump_pending = False
        self.revealed = False
        self.scored = False
        assert all(len(h) == self.size for h in self.game.hands)
        assert len(self.game.stock) == 60 - self.n * self.size

    def on_trump_turned(self, ev: Any, _: Any) -> None:
        stock = self.game.stock
        if self.n * self.size == 60:  # the last round deals every card: no stock, no trump
            assert stock == [] and ev.card is None and ev.suit is None
        else:
            assert ev.card == stock[0]
            if ev.card == "Z":
                assert ev.suit is None and ev.chooser == self.names[self.dealer]
                self.trump_pending = True
            elif ev.card == "N":
                assert ev.suit is None and ev.chooser is None
            else:
                assert ev.suit == ev.card[0] and ev.chooser is None
        self.trump = ev.suit

    def on_trump_chosen(self, ev: Any, _: Any) -> None:
        assert self.trump_pending and ev.player == self.names[self.dealer] and ev.suit in SUITS
        self.trump_pending = False
        self.trump = ev.suit

    def on_bid_made(self, ev: Any, _: Any) -> None:
        assert not self.trump_pending
        seat = self.seat(ev.player)
        assert self.bids[seat] is None and 0 <= ev.bid <= self.size and ev.hidden == self.hidden
        if not self.hidden:
            order = [(self.dealer + 1 + i) % self.n for i in range(self.n)]
            assert seat == next(s for s in order if self.bids[s] is None)
        if self.opts.get("notequal") and seat == self.dealer:
            assert sum(b for b in self.bids if b is not None) + ev.bid != self.size
        self.bids[seat] = ev.bid

    def on_bids_revealed(self, ev: Any, _: Any) -> None:
        assert self.opts.get("hiddentip") and not self.revealed
        assert ev.bids == {self.names[s]: self.bids[s] for s in range(self.n)}
        self.revealed = True

    def on_card_played(self, ev: Any, hands_before: list[list[str]] | None) -> None:
        seat = self.seat(ev.player)
        assert None not in self.bids and seat == (self.leader + len(self.trick)) % self.n
        assert hands_before is not None
        assert ev.card in rules_playable(hands_before[seat], [c for _, c in self.trick])
        self.trick.append((seat, ev.card))

    def on_trick(self, ev: Any, _: Any) -> None:
        assert [(self.seat(d["player"]), d["card"]) for d in ev.cards] == self.trick
        assert len(self.trick) == self.n
        winner = self.trick[rules_winner([c for _, c in self.trick], self.trump)][0]
        assert ev.winner == self.names[winner], (self.trick, self.trump, ev.winner)
        self.tricks[winner] += 1
        self.played.extend(c for _, c in self.trick)
        self.trick = []
        self.leader = winner

    def on_round_end(self, ev: Any, _: Any) -> None:
        assert sum(self.tricks) == self.size and ev.round == self.round
        assert not self.opts.get("hiddentip") or self.revealed
        order = [(self.dealer + 1 + i) % self.n for i in range(self.n)]
        assert [r["player"] for r in ev.results] == [self.names[s] for s in order]
        for s, result in zip(order, ev.results, strict=True):
            bid = self.bids[s]
            assert bid is not None
            delta = rules_score(bid, self.tricks[s])
            self.totals[s] += delta
            assert (result["bid"], result["tricks"], result["delta"], result["score"]) == (
                bid, self.tricks[s], delta, self.totals[s]
            )
        assert self.game.scores == self.totals
        self.sheet.append({"round": self.round, "cards": self.size, "results": ev.results})
        self.scored = True

    def on_game_end(self, ev: Any, _: Any) -> None:
        assert self.scored and self.round == len(self.sizes)
        places = rules_places(self.totals)
        got = {d["player"]: (d["score"], d["place"]) for d in ev.standings}
        assert got == {self.names[s]: (self.totals[s], places[s]) for s in range(self.n)}
        assert [d["score"] for d in ev.standings] == sorted(self.totals, reverse=True)
        self.ended = True

    # -- the state between steps

    def expected_phase(self) -> str:
        if self.ended:
            return "gameover"
        if self.scored:
            return "roundend"
        if self.trump_pending:
            return "trump"
        return "bidding" if None in self.bids else "playing"

    def expected_waiting(self) -> list[int]:
        phase = self.expected_phase()
        if phase == "trump":
            return [self.dealer]
        if phase == "bidding":
            pending = [s for s in ((self.dealer + 1 + i) % self.n for i in range(self.n)) if self.bids[s] is None]
            return pending if self.hidden else pending[:1]
        if phase == "playing":
            return [(self.leader + len(self.trick)) % self.n]
        return []

    def clairvoyant(self) -> bool:
        return bool(self.opts.get("clairvoyance")) and self.round == 1

    def expected_legal(self, seat: int, waiting: list[int], phase: str) -> set[str]:
        if seat not in waiting:
            return set()
        if phase == "trump":
            return {f"trump {s}" for s in SUITS}
        if phase == "bidding":
            bids = set(range(self.size + 1))
            if self.opts.get("notequal") and seat == self.dealer:
                bids.discard(self.size - sum(b for b in self.bids if b is not None))
            return {f"bid {b}" for b in bids}
        if self.clairvoyant():
            return {"play ?"}
        return {f"play {c}" for c in rules_playable(self.game.hands[seat], [c for _, c in self.trick])}

    def check(self) -> None:
        game = self.game
        phase, waiting = self.expected_phase(), self.expected_waiting()
        assert game.phase == phase
        assert sorted(game.waiting()) == sorted(waiting)
        # Conservation: hands + stock (turned card included) + current trick + finished tricks = the deck.
        assert game.trick == self.trick
        cards = [c for hand in game.hands for c in hand] + game.stock + [c for _, c in game.trick] + self.played
        assert sorted(cards) == DECK_SORTED
        assert game.turned == (game.stock[0] if game.stock else None)
        done = sum(self.tricks)
        in_trick = {s for s, _ in self.trick}
        assert [len(h) for h in game.hands] == [self.size - done - (s in in_trick) for s in range(self.n)]
        self.legal_now = [self.expected_legal(seat, waiting, phase) for seat in range(self.n)]
        for seat in range(self.n):
            legal = game.legal_actions(seat)
            assert {str(a) for a in legal} == self.legal_now[seat] and len(legal) == len(set(legal))
        if self.views:
            for seat in [*range(self.n), None]:
                self.check_view(seat, phase)
            if self.aux.random() < self.perturb:
                self.check_perturbed(self.aux.choice([*range(self.n), None]))

    def bid_shown(self, owner: int, viewer: int | None, phase: str) -> int | None:
        bid = self.bids[owner]
        if owner == viewer or not self.hidden or bid is None:
            return bid
        if self.opts.get("hiddentip"):
            return None if phase in ("trump", "bidding") else bid
        return bid if phase in ("roundend", "gameover") else None  # secretbid: only once scored

    def check_view(self, seat: int | None, phase: str) -> None:
        """One seat's view: exactly what it may know, agreeing with the referee's own account."""
        game = self.game
        view = game.view(seat)
        clair = self.clairvoyant() and seat is not None
        if seat is None:
            assert view["hand"] == [] and view["legal"] == [] and view["you"] is None
        elif clair:
            assert view["hand"] == ["?"] * len(game.hands[seat])
        else:
            assert sorted(view["hand"]) == sorted(game.hands[seat])
        if seat is not None:
            assert {*view["legal"]} == self.legal_now[seat] and view["you"] == self.names[seat]
        assert view["phase"] == phase and view["round"] == self.round
        assert view["rounds"] == len(self.sizes) and view["cards"] == self.size
        assert view["dealer"] == self.names[self.dealer]
        assert view["first_leader"] == self.names[(self.dealer + 1) % self.n]
        assert view["trump"] == {"suit": self.trump, "card": game.turned}
        assert view["lead"] == rules_lead([c for _, c in self.trick])
        assert [(d["player"], d["card"]) for d in view["trick"]] == [(self.names[s], c) for s, c in self.trick]
        for owner, entry in enumerate(view["players"]):
            shown = self.bid_shown(owner, seat, phase)
            assert entry["bid"] == shown, (owner, seat, entry, self.bids, view["phase"])
            # the score if the round ended now, while it is played; once it is scored, nothing (no double count)
            if shown is None or phase in ("roundend", "gameover"):
                assert entry["projected"] is None
            else:
                assert entry["projected"] == self.totals[owner] + rules_score(shown, self.tricks[owner])
            assert entry["has_bid"] == (self.bids[owner] is not None)
            assert entry["held"] == len(game.hands[owner]) and entry["tricks"] == self.tricks[owner]
            if clair and owner != seat:
                assert sorted(entry["cards"]) == sorted(game.hands[owner])
            else:
                assert "cards" not in entry
        # No card the viewer may not know appears under any key (the score sheet is numbers and names only).
        assert view["sheet"] == self.sheet
        hidden = set(game.stock[1:])
        for owner, hand in enumerate(game.hands):
            if seat is None or (owner == seat) == clair:
                hidden.update(hand)
        hidden -= {"Z", "N"}  # look-alikes: a played Wizard is public; check_perturbed covers these
        # Own cards and, under clairvoyance, others' cards are not in ``hidden``: the whole view can be scanned.
        scanned = json.dumps({k: v for k, v in view.items() if k != "sheet"})
        leaked = hidden & set(CARD_TOKEN.findall(scanned))
        assert not leaked, (seat, leaked)

    def check_perturbed(self, seat: int | None) -> None:
        """Reshuffle what ``seat`` may not know (others' cards, the stock under the turned card, hidden bids):
        its view must not change. This catches leaks of Wizards and Jesters too, which look alike."""
        game = self.game
        before = game.view(seat)
        clair = self.clairvoyant() and seat is not None
        saved_hands = [h[:] for h in game.hands]
        saved_stock = game.stock[:]
        saved_bids = game.bids[:]
        slots: list[tuple[list[str], int]] = [(game.stock, i) for i in range(1, len(game.stock))]
        for owner, hand in enumerate(game.hands):
            if seat is None or (owner == seat) == clair:
                slots.extend((hand, i) for i in range(len(hand)))
        pool = [lst[i] for lst, i in slots]
        self.aux.shuffle(pool)
        for (lst, i), card in zip(slots, pool, strict=True):
            lst[i] = card
        for owner in range(self.n):
            if self.bids[owner] is not None and self.bid_shown(owner, seat, self.expected_phase()) is None:
                game.bids[owner] = self.aux.randrange(self.size + 1)
        try:
            assert game.view(seat) == before, seat
        finally:
            for hand, saved in zip(game.hands, saved_hands, strict=True):
                hand[:] = saved
            game.stock[:] = saved_stock
            game.bids[:] = saved_bids

    # -- refusals

    def snapshot(self) -> tuple[Any, ...]:
        g = self.game
        views = [g.view(s) for s in [*range(self.n), None]]
        return (views, list(g.log), [h[:] for h in g.hands], g.stock[:], g.bids[:], g.trick[:], g.tricks[:],
                g.scores[:], g.phase, g.trump, g.leader, g.dealer, g.round)

    def illegal_moves(self) -> list[tuple[str, int, str, type[Exception], str]]:
        """Candidate refusals now: (kind, seat, text, error type, a word the message must contain)."""
        g, size = self.game, self.size
        phase = self.expected_phase()
        waiting = self.expected_waiting()
        idle = [s for s in range(self.n) if s not in waiting]
        moves: list[tuple[str, int, str, type[Exception], str]] = [
            ("no seat", self.n, "bid 0", IllegalAction, "seat"),
            ("garbage", self.aux.randrange(self.n), self.aux.choice(["dance", "bid", "play", "bid 1 2"]),
             IllegalAction, ""),
        ]
        for s in idle:
            text = self.aux.choice(["bid 0", "trump B", f"play {self.aux.choice(SUITED)}", "play ?"])
            word = "over" if phase in ("roundend", "gameover") else "waiting"
            moves.append(("out of turn", s, text, NotYourTurn, word))
        if not waiting:
            return moves
        s = self.aux.choice(waiting)
        moves.append(("bad word", s, self.aux.choice(["bid -1", "bid two", "play X9", "play B14", "trump purple"]),
                      IllegalAction, ""))
        if phase == "trump":
            moves.append(("wrong verb", s, "bid 0", IllegalAction, "trump"))
            moves.append(("no trump", s, self.aux.choice(["trump N", "trump Z", "trump none"]), IllegalAction, ""))
        elif phase == "bidding":
            moves.append(("too high", s, f"bid {size + 1 + self.aux.randrange(5)}", IllegalAction, f"0 to {size}"))
            moves.append(("wrong verb", s, f"play {self.aux.choice(SUITED)}", IllegalAction, "bid"))
            rest = size - sum(b for b in self.bids if b is not None)
            if self.opts.get("notequal") and s == self.dealer and 0 <= rest <= size:
                moves.append(("notequal", s, f"bid {rest}", IllegalAction, "notequal"))
        else:
            hand = g.hands[s]
            moves.append(("wrong verb", s, "bid 0", IllegalAction, "play"))
            if self.clairvoyant():
                moves.append(("named unseen", s, f"play {hand[0]}", IllegalAction, "play ?"))
                return moves
            moves.append(("hidden card", s, "play ?", IllegalAction, "own cards"))
            absent = [c for c in FULL_DECK if c not in hand]
            card = self.aux.choice(absent)
            moves.append(("not held", s, f"play {card.lower()}", IllegalAction, card))
            lead = rules_lead([c for _, c in self.trick])
            if lead and any(not is_special(c) and c[0] == lead for c in hand):
                off = [c for c in hand if not is_special(c) and c[0] != lead]
                if off:
                    moves.append(("revoke", s, f"play {self.aux.choice(off)}", IllegalAction, SUIT_WORDS[lead]))
        return moves

    def try_illegal(self, count: int = 1) -> None:
        """Throw refusable moves at the engine: each must raise and leave every view, the log and the state alone."""
        moves = self.illegal_moves()
        before = self.snapshot()
        for kind, seat, text, error, word in self.aux.sample(moves, min(count, len(moves))):
            with pytest.raises(error) as info:
                self.game.apply(seat, text)
            message = str(info.value)
            assert message and word in message, (kind, text, message)
            self.refusals[kind] += 1
        if self.expected_phase() != "roundend":
            with pytest.raises(IllegalAction, match="not over"):
                self.game.advance()
        assert self.snapshot() == before


# ---------------------------------------------------------------- driving a game


def play_game(
    game: Wizard,
    options: dict[str, Any],
    choose: Callable[[Sequence[Any]], Any],
    aux: random.Random,
    *,
    views: bool = True,
    illegal: float = 0.1,
    perturb: float = 0.15,
) -> Referee:
    """Play ``game`` to its end, choosing seats and moves with ``choose``, checking everything on the way."""
    ref = Referee(game, options, aux, views=views, perturb=perturb)
    ref.feed(game.start_events)
    assert ref.round == 1
    while not game.finished:
        ref.check()
        if aux.random() < illegal:
            ref.try_illegal(1 + aux.randrange(2))
        if game.phase == "roundend":
            events = game.advance()
            ref.feed(events)
            continue
        seat = choose(game.waiting())
        action = choose(game.legal_actions(seat))
        text = str(action)
        if aux.random() < 0.3:  # the engine takes what a user types, in any case, with a slash
            text = "/" + text.lower() if aux.random() < 0.5 else text.title()
        hands_before = [h[:] for h in game.hands]
        log_before = len(game.log)
        events = game.apply(seat, text)
        assert game.log[log_before:] == [(seat, str(action))]
        ref.feed(events, hands_before)
    ref.check()
    assert ref.ended and ref.round == len(ref.sizes)
    assert len(game.sheet) == len(ref.sizes)
    assert game.legal_actions(0) == [] and game.waiting() == []
    with pytest.raises(NotYourTurn, match="over"):
        game.apply(0, "bid 0")
    return ref


def picker(rng: random.Random) -> Callable[[Sequence[Any]], Any]:
    """Choose with ``rng``, but spend no randomness on a forced choice (keeps hypothesis' buffer small)."""
    return lambda seq: seq[0] if len(seq) == 1 else rng.choice(seq)


# ---------------------------------------------------------------- the tests

CASES = option_cases()


def test_every_option_case_is_accepted() -> None:
    """The cases the property test covers are exactly the valid ones: each builds, and every n is present."""
    assert {n for n, *_ in CASES} == {3, 4, 5, 6}
    assert len(CASES) == 20 + 24 + 20 + 16  # 4 bidding modes x clairvoyance x 3 lengths, less the refused ones
    for n, mode, clair, length in CASES:
        Wizard(n, build_options(mode, clair, length, 60 // n), seed=0)
    with pytest.raises(BadOption):
        Wizard(6, {"tournament": True}, seed=0)


def random_game(n: int, mode: str, clair: bool, length: str, data: st.DataObject) -> None:
    """Hypothesis plays the moves (and, under hidden bidding, picks who bids next among all the waiting seats)."""
    rounds = data.draw(st.integers(1, 60 // n), label="rounds")
    options = build_options(mode, clair, length, rounds)
    seed = data.draw(st.integers(0, 2**32 - 1), label="seed")
    choices = data.draw(st.randoms(use_true_random=False), label="choices")
    aux = random.Random(data.draw(st.integers(0, 2**32 - 1), label="aux"))
    ref = play_game(Wizard(n, options, seed), options, picker(choices), aux)
    assert ref.round == len(rules_sizes(n, options))


HYPOTHESIS = {"deadline": None, "suppress_health_check": [HealthCheck.too_slow, HealthCheck.data_too_large]}


@pytest.mark.parametrize(("n", "mode", "clair", "length"), [c for c in CASES if c[3] != "rounds"], ids=str)
@settings(max_examples=1, **HYPOTHESIS)
@given(data=st.data())
def test_whole_games_follow_the_rules(n: int, mode: str, clair: bool, length: str, data: st.DataObject) -> None:
    """Every valid option set of full or tournament length, played to the end (the long, costly cases)."""
    random_game(n, mode, clair, length, data)


@pytest.mark.parametrize(("n", "mode", "clair", "length"), [c for c in CASES if c[3] == "rounds"], ids=str)
@settings(max_examples=3, **HYPOTHESIS)
@given(data=st.data())
def test_shortened_games_follow_the_rules(n: int, mode: str, clair: bool, length: str, data: st.DataObject) -> None:
    """Every valid option set with ``rounds=N``, N drawn by hypothesis from 1 to the most rounds."""
    random_game(n, mode, clair, length, data)


@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_many_seeded_games(n: int) -> None:
    """Hundreds more games per player count in a plain seeded loop: mostly short ones (``rounds`` drawn small),
    some full and tournament games, every option set; every step checked, the views of every 20th game."""
    rng = random.Random(n)
    refused: Counter[str] = Counter()
    seen_options: set[tuple[str, bool, str]] = set()
    games = 450
    for game_no in range(games):
        mode = rng.choice(["plain", "notequal", "hiddentip", "secretbid"])
        clair = rng.random() < 0.3
        length = rng.choices(["full", "tournament", "rounds"], [1, 1 if n in TOURNAMENT else 0, 40])[0]
        if length == "tournament" and clair and TOURNAMENT[n][0] != 1:
            clair = False
        rounds = min(60 // n, 1 + int(rng.expovariate(1 / 2.5)))
        options = build_options(mode, clair, length, rounds)
        seen_options.add((mode, clair, length))
        game = Wizard(n, options, seed=game_no)
        ref = play_game(game, options, picker(rng), rng, views=game_no % 20 == 0, illegal=0.03)
        assert ref.round == len(rules_sizes(n, options))
        refused += ref.refusals
    # The loop really met the option sets and the refusals that matter (else it would prove little).
    assert len({(mode, clair) for mode, clair, _ in seen_options}) == 8, seen_options
    assert {length for *_, length in seen_options} == ({"full", "rounds", "tournament"} if n in TOURNAMENT else
                                                       {"full", "rounds"})
    assert {"out of turn", "not held", "too high", "revoke"} <= set(refused), refused
