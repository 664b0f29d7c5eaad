"""The information-set tree search behind ``hard``'s Wizard cards: its deals respect what the view shows (hand sizes,
shown voids), its positions follow the engine's rules, it answers only legal cards, and the same seed gives the
same card."""

from __future__ import annotations

import json
import random
from typing import Any

from mudwiz.games.wizard.engine import Wizard
from mudwiz.games.wizard.ismcts import Position, Search, legal_cards
from mudwiz.games.wizard.playouts import SUIT, RoundMemory, Simulations


def positions(seed: int, players: int = 4) -> list[tuple[Wizard, dict[str, Any], RoundMemory]]:
    """Every card decision with a choice of the seat to move in a game of random legal moves, as that seat's
    plain view and the round's memory of it (every view of the round handed in order, as a bot is)."""
    game = Wizard(players, {"rounds": 6}, seed)
    rng = random.Random(seed)
    memories = [RoundMemory() for _ in range(players)]
    found = []
    while not game.finished:
        if game.phase == "roundend":
            game.advance()
            continue
        seat = next(s for s in range(players) if game.legal_actions(s))
        view = json.loads(json.dumps(game.view(seat)))
        if view["phase"] == "playing":
            memories[seat].update(view)
            if len(view["legal"]) > 1:
                memory = RoundMemory()
                memory.key, memory.tricks = memories[seat].key, dict(memories[seat].tricks)
                found.append((game, view, memory))
        game.apply(seat, rng.choice(sorted(game.legal_actions(seat))))
    return found


def test_the_deals_keep_hand_sizes_and_shown_voids() -> None:
    voids_seen = 0
    for _, view, memory in positions(4)[::3]:
        sims = Simulations(view, memory, first_leader=False)
        voids_seen += sum(len(s) for s in sims.voids.values())
        for i in range(20):
            hands, _, _ = sims.sample(random.Random(i))
            for seat, player in enumerate(view["players"]):
                assert len(hands[seat]) == player["held"]
                assert not any(SUIT[c] in sims.voids.get(seat, ()) for c in hands[seat])
            assert hands[sims.me] == view["hand"]
            dealt = [c for s, h in enumerate(hands) if s != sims.me for c in h]
            assert all(dealt.count(c) <= sims.pool.count(c) for c in dealt)  # only unseen cards
    assert voids_seen > 5  # the game showed voids, so the check above meant something


def test_positions_follow_the_engines_rules() -> None:
    """Played from the true hands, a search position offers what the engine offers and gives each trick to whom
    the engine does."""
    for seed in (1, 2):
        game = Wizard(4, {"rounds": 8}, seed)
        rng = random.Random(seed)
        position: Position | None = None
        while not game.finished:
            if game.phase == "roundend":
                game.advance()
                position = None
                continue
            seat = next(s for s in range(4) if game.legal_actions(s))
            if game.phase != "playing":
                game.apply(seat, rng.choice(sorted(game.legal_actions(seat))))
                continue
            if position is None:
                position = Position([h[:] for h in game.hands], [], seat, [0] * 4, game.trump)
            assert position.to_move() == seat
            offered = sorted(f"play {c}" for c in legal_cards(position.hands[seat], position.trick))
            assert offered == sorted(game.view(seat)["legal"])
            action = rng.choice(offered)
            game.apply(seat, next(a for a in game.legal_actions(seat) if a.args[0] == action.split()[1]))
            position.play(action.split()[1])
            assert position.tricks == [p["tricks"] for p in game.view(None)["players"]] or game.phase != "playing"


def test_the_search_plays_a_legal_card_and_the_same_one_for_the_same_seed() -> None:
    for _, view, memory in positions(7)[::4]:
        sims = Simulations(view, memory, first_leader=False)
        options = sims.distinct([a.split()[1] for a in view["legal"]])
        first = Search(sims, options, random.Random(3)).run(3_000, 400)
        assert f"play {first}" in view["legal"]
        assert Search(sims, options, random.Random(3)).run(3_000, 400) == first


def test_the_search_finds_the_duck_a_zero_bid_needs() -> None:
    """Bid 0, last to a trick led G10 with G12 and G3 in hand: the tree plays G3."""
    from test_bots import one_card_view

    view = {**one_card_view("Z"), "phase": "playing", "hand": ["G12", "G3"], "cards": 2, "leader": "p2",
            "trick": [{"player": "p2", "card": "G10"}, {"player": "p3", "card": "G5"}, {"player": "p4", "card": "R4"}],
            "legal": ["play G12", "play G3"]}
    for p, held in zip(view["players"], (2, 1, 1, 1), strict=True):
        p.update(held=held, bid=0, has_bid=True)
    memory = RoundMemory()
    memory.update(view)
    sims = Simulations(view, memory, first_leader=False)
    search = Search(sims, ["G12", "G3"], random.Random(1))
    assert search.run(4_000, 500) == "G3"
    assert search.iterations > 50
