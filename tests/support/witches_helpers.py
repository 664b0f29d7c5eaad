"""Rigged and random Witches hands, for the rules tests and the property tests alike.

Hands are rigged through the public interface: ``rig`` chooses the dealt hands so that, after the real pass,
every player holds exactly the hand the test wants; ``play_out`` then plays by a per-seat policy.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence

from mudwiz.games.witches.cards import DECK
from mudwiz.games.witches.engine import Witches

REDS = [f"R{n}" for n in range(1, 15)]
Policy = Callable[[Witches, int], str]


# ---------------------------------------------------------------- rigging helpers


def fill(n: int, fixed: Sequence[Sequence[str]]) -> list[list[str]]:
    """Hands in play order from the leader: the ``fixed`` cards, then the rest of the deck in order where room is."""
    size = 60 // n
    hands = [list(h) for h in fixed] + [[] for _ in range(n - len(fixed))]
    rest = Counter(DECK.cards()) - Counter(c for h in hands for c in h)
    assert all(len(h) <= size for h in hands) and sum(Counter(c for h in hands for c in h).values()) <= 60
    for card in sorted(rest.elements()):
        next(h for h in hands if len(h) < size).append(card)
    return hands


def rig(game: Witches, by_role: Sequence[Sequence[str]], events: list | None = None) -> list[int]:
    """Deal so that after the pass seat ``leader + i`` holds ``by_role[i]``; play the pass; return seats by role.

    Each seat passes the first cards of its receiver's wanted hand, and is dealt its wanted hand less what it
    will receive plus what it will give: the pass is played through ``apply`` like any other (its events are
    added to ``events``).
    """
    n, k = len(game.players), game.pass_count
    assert game.phase == "passing"
    seats = [(game.leader + i) % n for i in range(n)]
    wanted = {seats[i]: list(by_role[i]) for i in range(n)}
    assert Counter(c for h in wanted.values() for c in h) == Counter(DECK.cards())
    gives = {s: wanted[game.pass_target(s)][:k] for s in range(n)}
    giver = {game.pass_target(s): s for s in range(n)}
    for s in range(n):
        game.hands[s] = list((Counter(wanted[s]) - Counter(gives[giver[s]]) + Counter(gives[s])).elements())
    for s in range(n):
        passed = game.apply(s, " ".join(["pass", *gives[s]]))
        if events is not None:
            events.extend(passed)
    assert all(Counter(game.hands[s]) == Counter(wanted[s]) for s in range(n))
    return seats


def first_legal(game: Witches, seat: int) -> str:
    return str(game.legal_actions(seat)[0])


def prefer(dump: Sequence[str] = (), keep: Sequence[str] = ()) -> Policy:
    """Play a ``dump`` card when allowed, never a ``keep`` card unless forced, otherwise the first playable."""

    def choose(game: Witches, seat: int) -> str:
        cards = [a.args[0] for a in game.legal_actions(seat)]
        for card in dump:
            if card in cards:
                return f"play {card}"
        safe = [c for c in cards if c not in keep]
        return f"play {(safe or cards)[0]}"

    return choose


def in_order(cards: Sequence[str]) -> Policy:
    """Play ``cards`` in this order (each must be legal when its turn comes)."""
    queue = list(cards)

    def choose(game: Witches, seat: int) -> str:
        return f"play {queue.pop(0)}"

    return choose


def play_out(game: Witches, policies: dict[int, Policy], default: Policy = first_legal) -> list:
    """Play until the hand stops for a decision (spell choice, round end or game over); return the events."""
    events = []
    while game.phase == "playing":
        seat = game.waiting()[0]
        events.extend(game.apply(seat, policies.get(seat, default)(game, seat)))
    return events


def random_hand(game: Witches, rng: random.Random) -> list:
    """Pass and play the current hand with random legal moves."""
    events = []
    for s in range(len(game.players)):
        events.extend(game.apply(s, " ".join(["pass", *rng.sample(game.hands[s], game.pass_count)])))
    while game.phase == "playing":
        seat = game.waiting()[0]
        events.extend(game.apply(seat, rng.choice(game.legal_actions(seat))))
    return events


def spell_hand(game: Witches, points: int) -> tuple[list[int], list]:
    """Three players; the leader takes every fire card and the spell's witch/queen, and loses only the last trick.

    Returns the seats by role (the caster first) and every event of the hand, the pass included.
    """
    caster = [*REDS, "Y14", "Y13", "Y12", "B14", "B13", "W"]
    dump = {20: ["G11"], 25: ["G12"], 30: ["G11", "G12"]}[points]
    keep = [c for c in ("G11", "G12") if c not in dump]
    others = fill(3, [caster, ["G11", "G12", "G1", "G2", "G3", "G4", "G5", "G6", "G7", "G8"]])
    events: list = []
    seats = rig(game, others, events)
    events += play_out(game, {seats[0]: in_order([*REDS[::-1], "Y14", "Y13", "Y12", "B14", "B13", "W"])},
                       prefer(dump, keep))
    return seats, events
