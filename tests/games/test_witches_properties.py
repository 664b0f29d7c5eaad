"""Property tests: thousands of random legal Witches games (3 to 6 players) keep every rule and hide every secret.

The checks are written from the rules page, not from the engine: a ``Referee`` follows the public events alone
and recomputes pass targets, trick winners, fire points, spells, totals and the end; an oracle built on a
player's own view decides which random actions are legal; a view must not change when everything its viewer
may not know is shuffled.
"""

from __future__ import annotations

import copy
import random
import re
from collections import Counter
from dataclasses import dataclass, field
from itertools import chain
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from witches_helpers import random_hand, spell_hand

from mudwiz.cards import Action
from mudwiz.errors import IllegalAction
from mudwiz.games.base import Event, GameEnd
from mudwiz.games.witches import render
from mudwiz.games.witches.cards import DECK
from mudwiz.games.witches.engine import (
    CardPlayed,
    CardsPassed,
    HandStart,
    PassDone,
    RoundEnd,
    SpellCast,
    SpellChosen,
    Trick,
    Witches,
)
from mudwiz.render.style import Style, visible_len

FULL_DECK = sorted(DECK.cards())
PASSES = {3: 4, 4: 3, 5: 3, 6: 2}
CYCLES = {3: ("left", "right"), 5: ("left", "right"), 4: ("left", "right", "opposite"),
          6: ("left", "right", "opposite")}
PLAYER_KEYS = {"name", "score", "points", "tricks", "held", "has_passed", "played"}


# ---------------------------------------------------------------- the rules, written again for the tests


def seats_to(n: int, direction: str) -> int:
    return {"left": 1, "right": -1, "opposite": n // 2}[direction]


def colour(card: str) -> str | None:
    return None if card == "W" else card[0]


def winner_of(cards: list[str]) -> int:
    lead = next((colour(c) for c in cards if c != "W"), None)
    if lead is None:
        return 0
    best = max(int(c[1:]) for c in cards if colour(c) == lead)
    return cards.index(f"{lead}{best}")


def hand_points(cards: list[str]) -> tuple[int, int]:
    """(fire points, the earth witch's unused reduction), per steps 1-4 of the rules page."""
    have = Counter(cards)
    fire = sum(have[f"R{r}"] for r in range(1, 15) if r != 11)
    if have["R11"]:
        fire = min(fire * 2, 15)
    witches = 0 if have["B11"] else 5 * have["G11"] + 10 * have["G12"]
    raw = fire + witches
    if have["Y11"]:
        return max(raw - 5, 0), max(5 - raw, 0)
    return raw, 0


def spell(cards: list[str]) -> int | None:
    have = set(cards)
    if not all(f"R{r}" in have for r in range(1, 15)):
        return None
    return {(True, False): 20, (False, True): 25, (True, True): 30}.get(("G11" in have, "G12" in have))


@dataclass
class Referee:
    """Follows the public events of one game and checks each against the rules page."""

    game: Witches
    options: dict[str, Any]
    n: int = 0
    names: list[str] = field(default_factory=list)
    totals: list[int] = field(default_factory=list)
    hand: int = 0
    first_dealer: int = 0
    direction: str = ""
    won: list[list[str]] = field(default_factory=list)
    passes: dict[int, list[str]] = field(default_factory=dict)
    trick: list[str] = field(default_factory=list)
    cast: tuple[int, int, bool] | None = None
    choice: str | None = None
    over: bool = False

    def __post_init__(self) -> None:
        self.names = list(self.game.players)
        self.n = len(self.names)
        self.totals = [0] * self.n
        self.first_dealer = self.game.dealer
        hands = self.options.get("hands")
        self.hands = None if hands is None else int(hands)
        limit = self.options.get("limit")
        self.limit = int(limit) if limit is not None else (None if hands is not None else 70)

    def seat(self, name: str) -> int:
        return self.names.index(name)

    def cards_everywhere(self) -> list[str]:
        """Hands, cards passed but not yet received (the pass is simultaneous), tricks won, the current trick."""
        flight = self.passes.values() if self.game.phase == "passing" else ()
        return sorted(chain(*self.game.hands, *flight, *self.won, self.trick))

    def see(self, events: list[Event]) -> None:
        for e in events:
            getattr(self, f"_{e.type}")(e)
            self.check_visibility(e)

    def check_visibility(self, e: Event) -> None:
        if not isinstance(e, CardsPassed | PassDone):
            assert e.visible_to(None) == e, "only the pass has secrets"
            return
        for viewer in [*self.names, None]:
            seen = e.visible_to(viewer)
            assert seen is not None
            if isinstance(e, CardsPassed):
                assert (seen.cards is not None) == (viewer == e.player), "only the passer sees the passed cards"
            if isinstance(e, PassDone):
                assert [r["player"] for r in seen.received] == ([viewer] if viewer else [])

    def _hand_start(self, e: HandStart) -> None:
        assert not self.over
        self.hand += 1
        dealer = (self.first_dealer + self.hand - 1) % self.n
        self.direction = CYCLES[self.n][(self.hand - 1) % len(CYCLES[self.n])]
        assert (e.round, e.cards, e.pass_count, e.direction) == (self.hand, 60 // self.n, PASSES[self.n],
                                                                 self.direction)
        assert (e.dealer, e.leader) == (self.names[dealer], self.names[(dealer + 1) % self.n])
        self.won = [[] for _ in range(self.n)]
        self.passes, self.trick, self.cast, self.choice = {}, [], None, None
        assert all(len(h) == 60 // self.n for h in self.game.hands)

    def _cards_passed(self, e: CardsPassed) -> None:
        s = self.seat(e.player)
        assert s not in self.passes and e.count == PASSES[self.n] == len(e.cards or [])
        assert e.to == self.names[(s + seats_to(self.n, self.direction)) % self.n]
        self.passes[s] = list(e.cards or [])

    def _pass_done(self, e: PassDone) -> None:
        assert sorted(self.passes) == list(range(self.n))
        step = seats_to(self.n, self.direction)
        for r in e.received:
            giver = (self.seat(r["player"]) - step) % self.n
            assert r["from"] == self.names[giver] and Counter(r["cards"]) == Counter(self.passes[giver])
        assert sorted(r["player"] for r in e.received) == sorted(self.names)

    def _card_played(self, e: CardPlayed) -> None:
        self.trick.append(e.card)

    def _trick(self, e: Trick) -> None:
        assert [c["card"] for c in e.cards] == self.trick and len(self.trick) == self.n
        assert e.winner == e.cards[winner_of(self.trick)]["player"]
        self.won[self.seat(e.winner)].extend(self.trick)
        self.trick = []

    def _spell_cast(self, e: SpellCast) -> None:
        s = self.seat(e.player)
        assert spell(self.won[s]) == e.points and not self.game.hands[s]
        last = self.hands is not None and self.hand >= self.hands
        reach = self.limit is not None and any(self.totals[t] + e.points >= self.limit for t in range(self.n) if t != s)
        assert e.choosing == (last or reach)
        self.cast = (s, e.points, e.choosing)

    def _spell_chosen(self, e: SpellChosen) -> None:
        assert self.cast is not None and self.cast[2] and e.player == self.names[self.cast[0]]
        self.choice = e.choice

    def _round_end(self, e: RoundEnd) -> None:
        spells = [(s, spell(w)) for s, w in enumerate(self.won) if spell(w)]
        assert [(s, p) for s, p, _ in [self.cast]] == spells if self.cast else not spells
        expected = []
        for s in range(self.n):
            if self.cast is not None:
                caster, points, _ = self.cast
                take = self.choice == "take"
                scored = 0 if s == caster or take else points
                delta = -points if take and s == caster else scored
            else:
                scored, unused = hand_points(self.won[s])
                carry = min(unused, max(self.totals[s], 0)) if self.options.get("earth") == "carry" else 0
                delta = scored - carry
            self.totals[s] += delta
            expected.append({"player": self.names[s], "tricks": len(self.won[s]) // self.n, "points": scored,
                             "delta": delta, "score": self.totals[s]})
        assert e.round == self.hand and e.results == expected
        ends = (self.hands is not None and self.hand >= self.hands) or (
            self.limit is not None and max(self.totals) >= self.limit)
        assert self.game.finished == ends and self.game.phase in ("roundend", "gameover")
        self.over = ends

    def _game_end(self, e: GameEnd) -> None:
        assert self.over
        rows = sorted(e.standings, key=lambda r: r["score"])
        assert rows == e.standings and sorted(r["score"] for r in rows) == sorted(self.totals)
        for r in rows:
            assert r["place"] == 1 + sum(t < r["score"] for t in self.totals)


# ---------------------------------------------------------------- legality oracle, from a player's own view


def oracle_legal(view: dict[str, Any], action: str) -> bool:
    """Whether the rules page allows ``action`` for the player whose view this is."""
    verb, *args = action.split()
    me = view["you"]
    if me not in view["waiting"]:
        return False
    if verb == "pass":
        return (view["phase"] == "passing" and len(args) == view["pass"]["count"]
                and all(a in DECK.cards() for a in args) and not Counter(args) - Counter(view["hand"]))
    if verb == "spell":
        return view["phase"] == "spell" and args in (["give"], ["take"])
    if verb != "play" or view["phase"] != "playing" or len(args) != 1 or args[0] not in view["hand"]:
        return False
    lead = next((colour(t["card"]) for t in view["trick"] if t["card"] != "W"), None)
    card = args[0]
    return lead is None or card == "W" or colour(card) == lead or all(colour(c) != lead for c in view["hand"])


def random_attempt(game: Witches, seat: int, rng: random.Random) -> str:
    """A random, usually wrong, action: any verb, cards held or not, any count."""
    hand = game.hands[seat]
    verb = rng.choice(["pass", "play", "play", "spell", "bid"])
    if verb == "pass":
        count = game.pass_count + rng.choice([-1, 0, 0, 1])
        pool = hand if hand and rng.random() < 0.7 else DECK.cards()
        return " ".join(["pass", *(rng.choice(pool) for _ in range(max(count, 0)))])
    if verb == "play":
        return f"play {rng.choice(hand if hand and rng.random() < 0.6 else DECK.cards())}"
    return f"{verb} {rng.choice(['give', 'take', '2', 'R3'])}"


def public_state(game: Witches) -> tuple[list[dict[str, Any]], int, int]:
    """Everything every seat and an observer can see (views are built afresh on each call), and the log."""
    return [game.view(s) for s in [*range(len(game.players)), None]], len(game.log), len(game.sheet)


# ---------------------------------------------------------------- no leaks: a view must not see what is hidden


def shuffled_secrets(game: Witches, viewer: int | None, rng: random.Random) -> Witches:
    """A copy where every card ``viewer`` may not know (others' hands, passes, receipts) is dealt afresh."""
    other = copy.copy(game)
    other.hands = [list(h) for h in game.hands]
    other.passed = [None if p is None else list(p) for p in game.passed]
    other.received = None if game.received is None else [list(r) for r in game.received]
    others = [s for s in range(len(game.players)) if s != viewer]
    slots: list[tuple[list[str], int]] = []
    for s in others:
        for cards in (other.hands[s], other.passed[s], other.received[s] if other.received else None):
            if cards:
                slots.append((cards, len(cards)))
    pool = [c for cards, _ in slots for c in cards]
    source = DECK.cards() if len(pool) <= 60 and rng.random() < 0.5 else pool  # any cards, or theirs reshuffled
    pool = rng.sample(source, len(pool))
    for cards, size in slots:
        cards[:] = [pool.pop() for _ in range(size)]
    return other


def check_view(game: Witches, seat: int | None, rng: random.Random, dealt: list[list[str]]) -> None:
    view = game.view(seat)
    assert view == shuffled_secrets(game, seat, rng).view(seat), "a view depends on cards its viewer may not see"
    assert all(set(p) == PLAYER_KEYS for p in view["players"])
    if seat is None:
        assert view["hand"] == [] and view["passed"] is None and view["received"] is None and view["legal"] == []
        return
    mine = Counter(view["hand"])
    assert mine == Counter(game.hands[seat]) and view["hand"] == game._sorted(view["hand"])
    if game.phase == "passing":
        assert view["received"] is None, "received cards are invisible until everyone has passed"
        assert mine == Counter(dealt[seat]) - Counter(view["passed"])
        assert view["pass"]["to"] == game.players[(seat + seats_to(len(dealt), view["pass"]["direction"]))
                                                  % len(dealt)]
    else:
        assert view["pass"] is None


# ---------------------------------------------------------------- the driver


def play(n: int, seed: int, options: dict[str, Any], probe: float, leak: float) -> Referee:
    """Play one game with random legal moves, checking the referee, conservation, refusals and views."""
    game = Witches(n, options, seed)
    rng = random.Random(seed)
    ref = Referee(game, options)
    ref.see(game.start_events)
    dealt = [list(h) for h in game.hands]
    while not game.finished:
        assert ref.cards_everywhere() == FULL_DECK, "60 cards: hands, passes in flight, tricks won, the trick"
        if game.phase == "roundend":
            ref.see(game.advance())
            dealt = [list(h) for h in game.hands]
            continue
        waiting = game.waiting()
        if rng.random() < probe:
            assert waiting and all(game.legal_actions(s) for s in waiting)
            assert not any(game.legal_actions(s) for s in range(n) if s not in waiting)
            seat = rng.randrange(n)
            attempt = random_attempt(game, seat, rng)
            if oracle_legal(game.view(seat), attempt):
                assert game.is_legal(seat, game.normalize(Action.parse(attempt)))
            else:
                before = public_state(game)
                try:
                    game.apply(seat, attempt)
                except IllegalAction:
                    pass
                else:
                    raise AssertionError(f"{attempt!r} by seat {seat} was accepted")
                assert public_state(game) == before, "a refused action changed the game"
        if rng.random() < leak:
            check_view(game, rng.choice([None, *range(n)]), rng, dealt)
        seat = rng.choice(waiting)
        if game.phase == "passing":
            action = " ".join(["pass", *rng.sample(game.hands[seat], game.pass_count)])
        elif game.phase == "playing":
            legal = [str(a) for a in game.legal_actions(seat)]
            view = game.view(seat) if rng.random() < leak else None
            if view is not None:
                assert view["legal"] == legal
                assert sorted(legal) == sorted({f"play {c}" for c in view["hand"] if oracle_legal(view, f"play {c}")})
            action = rng.choice(legal)
        else:
            action = f"spell {rng.choice(['give', 'take'])}"
        ref.see(game.apply(seat, action))
    assert ref.over and ref.hand == game.round and [r["score"] for r in game.sheet[-1]["results"]] == ref.totals
    return ref


EARTH = st.sampled_from(["off", "carry"])
short_options = st.one_of(  # games of one to a few hands: many games, every table size and option
    st.fixed_dictionaries({"hands": st.sampled_from(["1", "2"])},
                          optional={"limit": st.sampled_from(["5", "20"]), "earth": EARTH}),
    st.fixed_dictionaries({"limit": st.sampled_from(["1", "10"])}, optional={"earth": EARTH}),
)
QUICK = settings(max_examples=1300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@QUICK
@given(n=st.integers(3, 6), seed=st.integers(0, 2**32 - 1), options=short_options)
def test_short_random_games_keep_every_rule(n: int, seed: int, options: dict[str, Any]) -> None:
    play(n, seed, options, probe=0.03, leak=0.01)


@settings(max_examples=40, deadline=None)
@given(n=st.integers(3, 6), seed=st.integers(0, 2**32 - 1), earth=st.sampled_from(["off", "carry"]))
def test_whole_games_to_70_keep_every_rule(n: int, seed: int, earth: str) -> None:
    ref = play(n, seed, {"earth": earth}, probe=0.02, leak=0.005)
    assert max(ref.totals) >= 70


@settings(max_examples=150, deadline=None)
@given(n=st.integers(3, 6), seed=st.integers(0, 2**32 - 1))
def test_refusals_and_views_in_one_hand(n: int, seed: int) -> None:
    """Many illegal attempts and view checks in a single hand (more per step than the whole-game tests)."""
    play(n, seed, {"hands": "1"}, probe=0.5, leak=0.3)


@settings(max_examples=100, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), before=st.integers(0, 3), points=st.sampled_from([20, 25, 30]),
       limit=st.sampled_from([None, "20", "40", "70"]), hands=st.sampled_from([None, "1", "2", "4"]),
       take=st.booleans())
def test_spell_hands_score_by_the_rules(seed: int, before: int, points: int, limit: str | None, hands: str | None,
                                        take: bool) -> None:
    """Random earlier hands, then a rigged spell: the choice is offered exactly when giving ends the game."""
    options = {k: v for k, v in {"limit": limit, "hands": hands}.items() if v is not None}
    game = Witches(3, options, seed)
    rng = random.Random(seed)
    ref = Referee(game, options)
    ref.see(game.start_events)
    for _ in range(before):
        ref.see(random_hand(game, rng))
        if game.phase == "spell":
            ref.see(game.apply(game.waiting()[0], "spell give"))
        if game.finished:
            return
        ref.see(game.advance())
    seats, events = spell_hand(game, points)
    ref.see(events)
    if game.phase == "spell":
        ref.see(game.apply(seats[0], f"spell {'take' if take else 'give'}"))
    assert ref.cast is not None and ref.cast[:2] == (seats[0], points)
    assert ref.totals == game.scores


# ---------------------------------------------------------------- the screen


NAMES = ["Jürgen", "Zoë", "averyverylongname", "x" * 16, "Ab", "Ça-va_42", "Øyvind"]


def check_lines(lines: list[str]) -> None:
    for line in lines:
        assert visible_len(line) <= 80, line


def check_screen(view: dict[str, Any] | None, events: list[Event], viewer: str | None) -> None:
    """Every line fits 80 columns; in ascii mode there is no escape code and no non-ASCII character."""
    for style in (Style.for_mode("ansi"), Style.for_mode("ascii")):
        lines = []
        if view is not None:
            lines += [*render.table_view(view, style), render.prompt(view, style), *render.score_sheet(view, style)]
        for e in events:
            seen = e.visible_to(viewer)
            assert seen is not None
            lines += render.event_lines(seen, style)
        check_lines(lines)
        if not style.colour:
            assert all(line.isascii() and "\x1b" not in line for line in lines)
            if view is not None:
                check_table_words(view, render.table_view(view, style))


def check_table_words(view: dict[str, Any], lines: list[str]) -> None:
    """What the rules page asks the table view to show, read back from the ascii screen."""
    text = "\n".join(lines)
    if view["phase"] == "passing":
        p = view["pass"]
        done = sum(q["has_passed"] for q in view["players"])
        assert f"Pass {p['count']} cards" in text and f"({p['direction']}); {done} of {len(view['players'])}" in text
        if view["you"] is not None:
            assert f"to {Style.for_mode('ascii').text(p['to'])} " in text
    if view["you"] is not None and not view["hand"]:
        assert " Your hand: no cards." in lines
    elif view["you"] is not None:
        hand_lines = lines[lines.index(" Your hand:") + 1 : -1]
        marked = re.findall(r"\[(\w+)\]", "".join(hand_lines))
        playable = {a.split()[1] for a in view["legal"] if a.startswith("play ")}
        assert marked == [c for c in view["hand"] if c in playable], marked
        assert sorted(re.findall(r"\w+", "".join(hand_lines))) == sorted(view["hand"])
    rows = [line for line in lines if line[:3] in ("   ", " > ") and not line.startswith("   player")]
    lead = [p["name"] for p in view["players"]].index(view["leader"])  # rows in trick order, the leader first
    for p, row in zip(view["players"][lead:] + view["players"][:lead], rows, strict=False):
        name = Style.for_mode("ascii").text(p["name"])
        assert row[3:].startswith(name + " ") and (row[1] == ">") == (p["name"] in view["waiting"])
        assert row[3 + len(name):].split()[:3] == [str(p["score"]), str(p["points"]), str(p["tricks"])], row


@settings(max_examples=60, deadline=None)
@given(n=st.integers(3, 6), seed=st.integers(0, 2**32 - 1), spell_first=st.booleans())
def test_screens_fit_80_columns_and_ascii_mode_is_plain(n: int, seed: int, spell_first: bool) -> None:
    rng = random.Random(seed)
    names = rng.sample(NAMES, n)
    game = Witches(names, {"hands": "2", "limit": "30"}, seed)
    events: list[Event] = list(game.start_events)
    if spell_first and n == 3:
        events += spell_hand(game, rng.choice([20, 25, 30]))[1]
    while not game.finished:
        viewer = rng.choice([None, *range(n)])
        view = game.view(viewer) if rng.random() < 0.2 or game.phase != "playing" else None
        check_screen(view, events, None if viewer is None else names[viewer])
        events = []
        if game.phase == "roundend":
            events += game.advance()
            continue
        seat = rng.choice(game.waiting())
        if game.phase == "passing":
            events += game.apply(seat, " ".join(["pass", *rng.sample(game.hands[seat], game.pass_count)]))
        else:
            events += game.apply(seat, rng.choice(game.legal_actions(seat)))
    for viewer in [None, *range(n)]:
        check_screen(game.view(viewer), events, None if viewer is None else names[viewer])
