"""Where a Wizard bot's bids miss: seeded self-play of one level (``hard`` by default), every seat's every bid
recorded with what it was chosen from, and the misses broken down.

Per seat-round it keeps the bid, the simulated mean tricks it bid from (``judge_bid``'s ``tricks``), the simulated
chance of making each bid it weighed, the tricks taken, the cards dealt, the seat's place in the bidding order,
whether it bid last and whether its bid balanced the table (the bids adding up to the cards), and trump or none.
Then, with every hand open, it asks whether the bid could be made at all against the table as it bid: the seat
sees all cards and, at each of its turns, plays a card with which the rest of the round (every player on the
playout policy, aiming at the bids made) makes its bid, if there is one. A miss that this open play makes was
lost in play (or in the others' play); one it cannot make was lost at the bid.

It prints: the exact rate by player count; misses by over- and under-taking, by round size and bidding place;
how the simulated mean predicts the tricks (bias and spread of tricks − mean, by round size and place); how often
the simulations' chance of making the chosen bid comes true; and how many misses the open play would have made.
Figures are printed, never asserted::

    nice -n 10 python bench/bid_misses.py --players 4 --seed 98000 --games 20 --workers 2
    nice -n 10 python bench/bid_misses.py --players 3 --seed 98000 --games 20 --workers 2 --save misses3.json

``--save`` writes every record as JSON (a line a game, as each ends), for a calibration fitted elsewhere.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
from collections import defaultdict
from collections.abc import Callable, Sequence
from contextlib import nullcontext
from dataclasses import asdict, dataclass, field
from multiprocessing import Pool
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from mudwiz.bots import make_policy  # noqa: E402
from mudwiz.games.wizard.engine import Wizard  # noqa: E402
from mudwiz.games.wizard.playouts import order, playout  # noqa: E402


@dataclass
class Bid:
    """One seat's bid in one round, and what came of it."""

    seed: int
    players: int
    cards: int
    place: int  # in the bidding order: 0 first (left of the dealer, who leads), players − 1 the dealer
    trump: bool
    mean: float  # the simulated mean tricks it bid from
    bid: int
    chances: dict[int, float]  # each bid weighed → the share of its simulated deals (weighted) that made it
    balancing: bool = False  # its bid made the table's bids add up to the cards (only the last bidder's can)
    tricks: int = -1
    open_made: bool = False  # with every hand open, the seat could make its bid against the table's policy
    others: list[int] = field(default_factory=list)
    hands: list[list[str]] = field(default_factory=list)  # the round's deal, every seat's
    leader: int = 0
    suit: str | None = None  # trump
    bids: list[int] = field(default_factory=list)  # every seat's, in seat order
    seat: int = 0


def instrument(bot: Any, out: list[dict[str, Any]]) -> None:
    """Record, for each ``judge_bid``, its judgement and each weighed bid's simulated chance of being made
    (the race's deals: a deal whose round score is positive made the bid)."""
    judge, race = bot.judge_bid, bot.race
    hits: dict[int, list[float]] = {}

    def counted(options: list[Any], sample: Callable[[], Any], score: Callable[[Any, Any], float], *rest: Any) -> Any:
        def scored(deal: Any, option: Any) -> float:
            value = score(deal, option)
            row = hits.setdefault(option, [0.0, 0.0])
            row[0] += deal[2] * (value > 0)
            row[1] += deal[2]
            return value
        return race(options, sample, scored, *rest)

    def judged(view: dict[str, Any]) -> Any:
        hits.clear()
        bot.race = counted
        try:
            found = judge(view)
        finally:
            bot.race = race
        out.append({"mean": found.tricks, "bid": found.bid,
                    "chances": {b: (h / w if w else 0.0) for b, (h, w) in hits.items()}})
        return found

    bot.judge_bid = judged


def open_play(hands: list[list[str]], leader: int, trump: str | None, bids: list[int], seat: int) -> bool:
    """Whether ``seat``, seeing every hand, can make its bid when every other player plays the playout policy
    towards its bid: at each of its turns it plays a card with which a playout of the rest makes the bid (the
    first such card in its hand's order), else its policy card."""
    n = len(hands)
    hands = order([h[:] for h in hands], trump)
    tricks = [0] * n
    trick: list[tuple[int, str]] = []
    while any(hands):
        turn = (leader + len(trick)) % n
        if turn == seat:
            card = next((c for c in dict.fromkeys(hands[seat]) if playout(
                [h[:] for h in hands], trick, leader, trump, bids, tricks[:], c, True)[seat] == bids[seat]), None)
            if card is None:
                return False
        else:
            # the policy's card for this seat: a playout from here with no card forced, one card deep
            card = _policy_card(hands, trick, leader, trump, bids, tricks, turn)
        hands[turn].remove(card)
        trick.append((turn, card))
        if len(trick) == n:
            leader = _winner(trick, trump)
            tricks[leader] += 1
            trick = []
    return tricks[seat] == bids[seat]


def _policy_card(hands: list[list[str]], trick: list[tuple[int, str]], leader: int, trump: str | None,
                 bids: list[int], tricks: list[int], turn: int) -> str:
    from mudwiz.games.wizard.playouts import pick, trick_best, trick_lead, trick_tables

    cards = [c for _, c in trick]
    powers, _ = trick_tables(trump)
    lead = trick_lead(cards)
    return pick(hands[turn], lead, trick_best(cards, trump), powers[lead], bids[turn] - tricks[turn], len(cards),
                len(hands))


def _winner(trick: list[tuple[int, str]], trump: str | None) -> int:
    from mudwiz.games.wizard.cards import trick_winner

    return trick[trick_winner([c for _, c in trick], trump)][0]


def play(args: tuple[str, int, int, dict[str, Any]]) -> list[Bid]:
    """One seeded game of ``level`` in every seat (as bench/bots.py plays it), every bid recorded."""
    level, players, seed, options = args
    rng = random.Random(seed)
    engine = Wizard([f"p{i}" for i in range(players)], options, seed)
    judged: list[list[dict[str, Any]]] = [[] for _ in range(players)]
    bots = [make_policy(level, "wizard", random.Random(rng.randrange(2**32))) for _ in range(players)]
    for bot, out in zip(bots, judged, strict=True):
        instrument(bot, out)
    found: list[Bid] = []
    pending: dict[int, Bid] = {}
    dealt: list[list[str]] = []
    while not engine.finished:
        if engine.phase == "roundend":
            taken = {r["player"]: r["tricks"] for r in engine.sheet[-1]["results"]}
            for seat, bid in pending.items():
                bid.tricks = taken[engine.players[seat]]
            found.extend(pending.values())
            pending = {}
            engine.advance()
            continue
        if engine.phase == "bidding" and not any(b is not None for b in engine.bids):
            dealt = [h[:] for h in engine.hands]
        for seat in range(players):
            if not engine.legal_actions(seat):
                continue
            view = engine.view(seat)
            before = len(judged[seat])
            action = bots[seat].choose(view)
            if engine.phase == "bidding" and action is not None:
                made = int(action.split()[1])
                if len(judged[seat]) > before:
                    j = judged[seat][-1]
                    mean, chances = j["mean"], j["chances"]
                else:  # one legal bid: nothing judged
                    mean, chances = float(made), {made: 1.0}
                order_ = engine.bid_order()
                pending[seat] = Bid(seed, players, engine.size, order_.index(seat), engine.trump is not None, mean,
                                    made, chances)
            if action is not None:
                engine.apply(seat, action)
                break
        else:
            raise RuntimeError(f"seed {seed}: no bot would move")
        if engine.finished:
            taken = {r["player"]: r["tricks"] for r in engine.sheet[-1]["results"]}
            for seat, bid in pending.items():
                bid.tricks = taken[engine.players[seat]]
            found.extend(pending.values())
        if engine.phase == "playing" and pending and all(b.others == [] for b in pending.values()):
            bids = [b if b is not None else 0 for b in engine.bids]
            for seat, bid in pending.items():
                bid.others = [b for s, b in enumerate(bids) if s != seat]
                bid.balancing = bid.place == players - 1 and sum(bids) == engine.size
                bid.open_made = open_play(dealt, engine.first_leader, engine.trump, bids, seat)
                bid.hands, bid.leader, bid.suit = dealt, engine.first_leader, engine.trump
                bid.bids, bid.seat = bids, seat
    return found


def share(flags: Sequence[bool]) -> str:
    return f"{sum(flags) / len(flags):5.1%} of {len(flags)}" if flags else "-"


def size_band(cards: int) -> str:
    return "1-3" if cards <= 3 else "4-6" if cards <= 6 else "7-10" if cards <= 10 else "11+"


def report(bids: Sequence[Bid]) -> str:
    lines = []
    exact = [b.bid == b.tricks for b in bids]
    misses = [b for b in bids if b.bid != b.tricks]
    lines.append(f"bids {len(bids)}: exact {share(exact)}; misses {len(misses)}: over-taking "
                 f"{sum(b.tricks > b.bid for b in misses)}, under-taking {sum(b.tricks < b.bid for b in misses)}; "
                 f"lost at the bid (open play cannot make it) {sum(not b.open_made for b in misses)}, "
                 f"lost in play {sum(b.open_made for b in misses)}")
    groups: dict[str, Callable[[Bid], Any]] = {
        "cards": lambda b: size_band(b.cards), "place": lambda b: b.place,
        "last": lambda b: "balancing" if b.balancing else "last, not balancing" if b.place == b.players - 1
        else "not last",
        "trump": lambda b: "trump" if b.trump else "no trump", "bid": lambda b: min(b.bid, 5)}
    for name, key in groups.items():
        by: dict[Any, list[Bid]] = defaultdict(list)
        for b in bids:
            by[key(b)].append(b)
        lines.append(f"by {name}:")
        for k in sorted(by, key=str):
            rows = by[k]
            err = [b.tricks - b.mean for b in rows]
            missed = [b for b in rows if b.bid != b.tricks]
            chance = [b.chances.get(b.bid, 0.0) for b in rows]
            made = share([b.bid == b.tricks for b in rows])
            lines.append(f"  {k!s:20} exact {made}; over {sum(b.tricks > b.bid for b in missed):3}"
                         f" under {sum(b.tricks < b.bid for b in missed):3}; tricks−mean {statistics.mean(err):+5.2f}"
                         f" sd {statistics.pstdev(err):4.2f}; expected {statistics.mean(chance):5.1%}; misses lost at"
                         f" the bid {sum(not b.open_made for b in missed):3}")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--level", default="hard")
    parser.add_argument("--seed", type=int, default=98000)
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--option", action="append", default=[], help="game option NAME=VALUE (repeat)")
    parser.add_argument("--save", type=Path, help="write every record as JSON here")
    parser.add_argument("--load", type=Path, help="print the breakdown of records saved earlier, playing nothing")
    args = parser.parse_args(argv)
    if args.load:
        saved = [Bid(**r) for line in args.load.read_text().splitlines() for r in json.loads(line)]
        for b in saved:  # JSON's keys are strings
            b.chances = {int(k): v for k, v in b.chances.items()}
        print(f"{len(saved)} bids from {args.load}")
        print(report(saved))
        return
    options = {k: v for k, _, v in (o.partition("=") for o in args.option)}
    jobs = [(args.level, args.players, args.seed + i, options) for i in range(args.games)]
    bids: list[Bid] = []
    saved = args.save.open("w") if args.save else None
    with Pool(args.workers) if args.workers > 1 else nullcontext() as pool:
        for game in pool.imap_unordered(play, jobs) if pool else map(play, jobs):
            bids.extend(game)
            if saved:  # a line a game as it ends, so a run cut short still counts
                saved.write(json.dumps([asdict(b) for b in game]) + "\n")
                saved.flush()
    print(f"{args.level} self-play, {args.players} players, seeds {args.seed}-{args.seed + args.games - 1}")
    print(report(bids), flush=True)


if __name__ == "__main__":
    main()
