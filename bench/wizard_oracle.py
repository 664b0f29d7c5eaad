"""What knowing the others' hands is worth to a Wizard bot: seeded self-play in which the deals its simulations
draw are the real ones (an oracle, for this bench only: no bot ever sees hidden cards at a table).

``--oracle all``: every deal a decision draws holds the other players' real hands (the stock stays unseen);
``--oracle play``: only once the cards are played (the bids as usual); ``--oracle none``: the level as it is, the
same seeds, for the comparison. The gap between ``play`` and ``none`` bounds what reading the others' cards can
gain (docs/bots.md, "Tried for `hard` and not kept"). Per game it prints the exact-bid rate and the mean score,
and then their mean over the games; figures are printed, never asserted::

    python bench/wizard_oracle.py --oracle play --seed 97008 --games 4
    python bench/wizard_oracle.py --oracle none --seed 97008 --games 4
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import bots  # noqa: E402

from mudwiz.games.base import Phase  # noqa: E402
from mudwiz.games.wizard import bots as wizard_bots  # noqa: E402
from mudwiz.games.wizard import levels, playouts  # noqa: E402

_game_class = bots.game_class


def with_oracle(mode: str) -> None:
    """Make every deal the simulations draw hold the others' real hands (``all``, or ``play``: once cards are
    played); the engine is the one the bench's current game was built with."""
    current: dict[str, Any] = {}

    def game_class(name: str) -> Any:
        made = _game_class(name)

        def build(*args: Any, **kwargs: Any) -> Any:
            current["game"] = made(*args, **kwargs)
            return current["game"]

        return build

    class Oracle(playouts.Simulations):
        def __init__(self, view: dict[str, Any], *args: Any, **kwargs: Any) -> None:
            super().__init__(view, *args, **kwargs)
            self.oracle_playing = view["phase"] == Phase.PLAYING

        def sample(self, rng: random.Random) -> tuple[list[list[str]], list[int], float]:
            hands, bids, weight = super().sample(rng)
            if mode == "all" or self.oracle_playing:
                for seat in self.needs:
                    if seat != self.me:
                        hands[seat] = list(current["game"].hands[seat])
                weight = 1.0
            return hands, bids, weight

    bots.game_class = game_class
    for module in (wizard_bots, levels):  # where the levels build their simulations
        setattr(module, "Simulations", Oracle)  # noqa: B010


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--oracle", choices=("all", "play", "none"), default="play")
    parser.add_argument("--level", default="hard")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=97008)
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--option", action="append", default=[], help="game option NAME=VALUE (repeat)")
    args = parser.parse_args(argv)
    options = {k: v for k, _, v in (o.partition("=") for o in args.option)}
    if args.oracle != "none":
        with_oracle(args.oracle)
    exact, means = [], []
    for seed in range(args.seed, args.seed + args.games):
        result = bots.play("wizard", [args.level] * args.players, seed, options)
        exact.append(100 * sum(bid == tricks for _, bid, tricks, _ in result.bids) / len(result.bids))
        means.append(statistics.mean(result.scores))
        print(f"seed {seed}: exact bids {exact[-1]:.1f} %, mean score {means[-1]:.1f}", flush=True)
    print(f"{args.level} self-play, {args.players} players, oracle {args.oracle}, seeds {args.seed}-"
          f"{args.seed + args.games - 1}: exact bids {statistics.mean(exact):.1f} %, mean score "
          f"{statistics.mean(means):.1f}")


if __name__ == "__main__":
    main()
