"""Learn how Wizard's ``hard`` leads, for its playouts: seeded self-play of ``hard``, every lead it makes recorded,
and a model of them fitted (a conditional logit: each card the hand could lead scored by weights on its
``lead_features``, the chance of a card its score's share).

``hard``'s playouts at a table of three have every player lead by :class:`mudwiz.games.wizard.playouts.LeadModel`
with the weights in mudwiz/games/wizard/leads.py (``WizardHard.LEAD_PLAYERS``); this is how they were made (the
sets for four and more are fitted too, for measuring: with four it made no more bids). It prints, per set of
weights (three players; four and more; each wanting no more tricks and wanting some), the leads fitted, how often
the model's highest-scored card is the one ``hard`` led (its suit, for a suit card) on the fitted leads and on a
quarter held out of a second fit, how often the rule of thumb's is (:func:`pick` without a model), and the
weights. Figures are printed, never
asserted::

    python bench/leads.py --players 4 --seed 120000 --games 20 --thumb --save leads4.jsonl
    python bench/leads.py --players 3 --seed 121000 --games 20 --thumb --save leads3.jsonl
    python bench/leads.py --load leads4.jsonl --load leads3.jsonl --write     # rewrites mudwiz/games/wizard/leads.py

The games play the ``hard`` that is checked out; ``--thumb`` has its playouts lead by the rule of thumb, as they
did before the model: the weights in leads.py were fitted from such games. Without it the games' ``hard`` leads by
the weights it has, and a fit learns from the leads it makes with them.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
from collections.abc import Sequence
from functools import partial
from multiprocessing import Pool
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from mudwiz.bots import make_policy  # noqa: E402
from mudwiz.games.base import Phase  # noqa: E402
from mudwiz.games.wizard.engine import Wizard  # noqa: E402
from mudwiz.games.wizard.playouts import (  # noqa: E402
    LEAD_FEATURES,
    SUIT,
    LeadModel,
    lead_features,
    pick,
    trick_tables,
)

OUT = ROOT / "mudwiz" / "games" / "wizard" / "leads.py"
RIDGE = 1e-3  # the weights' squared size, so weighted, is added to the mean loss: keeps unused features at 0


def play(args: tuple[int, int, bool, int | None]) -> list[dict[str, Any]]:
    """One seeded game of ``hard`` in every seat; each lead with more than one card to choose from. ``thumb``: the
    bots' playouts lead by the rule of thumb, as ``hard``'s did before it had a model."""
    players, seed, thumb, rounds = args
    rng = random.Random(seed)
    engine = Wizard([f"p{i}" for i in range(players)], {"rounds": rounds} if rounds else {}, seed)
    bots = [make_policy("hard", "wizard", random.Random(rng.randrange(2**32))) for _ in range(players)]
    for bot in bots if thumb else ():
        bot.LEAD_PLAYERS = frozenset()
    found: list[dict[str, Any]] = []
    while not engine.finished:
        if engine.phase == "roundend":
            engine.advance()
            continue
        for seat in range(players):
            if not engine.legal_actions(seat):
                continue
            view = engine.view(seat)
            action = bots[seat].choose(view)
            if (view["phase"] == Phase.PLAYING and not view["trick"] and action is not None
                    and len(set(view["hand"])) > 1):
                me = view["players"][seat]
                found.append({"players": players, "trump": view["trump"]["suit"], "hand": view["hand"],
                              "need": me["bid"] - me["tricks"], "card": action.split()[1]})
            if action is not None:
                engine.apply(seat, action)
                break
        else:
            raise RuntimeError(f"seed {seed}: no bot would move")
    return found


def key_of(lead: dict[str, Any]) -> tuple[int, bool]:
    return LeadModel.key(lead["players"], lead["need"])


def features(lead: dict[str, Any]) -> dict[str, list[float]]:
    """Each card of the lead's hand and its features, as the model saw it (the power table of a trick not led)."""
    return lead_features(lead["hand"], trick_tables(lead["trump"])[0][None], lead["need"])


def rows(leads: Sequence[dict[str, Any]]) -> list[tuple[list[list[float]], int]]:
    """Each lead as its cards' features and the index of the card led."""
    out = []
    for lead in leads:
        found = features(lead)
        cards = sorted(found)
        out.append(([found[c] for c in cards], cards.index(lead["card"])))
    return out


def fit(data: Sequence[tuple[list[list[float]], int]], steps: int = 25) -> list[float]:
    """The weights that make the leads most likely (Newton's method on the mean log-loss plus ``RIDGE``)."""
    k = len(LEAD_FEATURES)
    w = [0.0] * k
    for _ in range(steps):
        grad = [RIDGE * x for x in w]
        hess = [[RIDGE * (i == j) for j in range(k)] for i in range(k)]
        for feats, chosen in data:
            scores = [sum(a * b for a, b in zip(w, f, strict=True)) for f in feats]
            top = max(scores)
            exps = [math.exp(s - top) for s in scores]
            total = sum(exps)
            p = [e / total for e in exps]
            mean = [sum(p[c] * feats[c][i] for c in range(len(feats))) for i in range(k)]
            for i in range(k):
                grad[i] += (mean[i] - feats[chosen][i]) / len(data)
            for c, f in enumerate(feats):
                if p[c] < 1e-12:
                    continue
                d = [f[i] - mean[i] for i in range(k)]
                for i in range(k):
                    if d[i]:
                        row, scale = hess[i], p[c] * d[i] / len(data)
                        for j in range(k):
                            row[j] += scale * d[j]
        step = solve(hess, grad)
        w = [a - b for a, b in zip(w, step, strict=True)]
        if max(abs(s) for s in step) < 1e-6:
            break
    return w


def solve(a: list[list[float]], b: list[float]) -> list[float]:
    """x with a·x = b (Gaussian elimination with partial pivoting; ``a`` is small and positive definite)."""
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for col in range(n):
        piv = max(range(col, n), key=lambda r: abs(m[r][col]))
        m[col], m[piv] = m[piv], m[col]
        for r in range(col + 1, n):
            factor = m[r][col] / m[col][col]
            if factor:
                for c in range(col, n + 1):
                    m[r][c] -= factor * m[col][c]
    x = [0.0] * n
    for r in range(n - 1, -1, -1):
        x[r] = (m[r][n] - sum(m[r][c] * x[c] for c in range(r + 1, n))) / m[r][r]
    return x


def agreement(leads: Sequence[dict[str, Any]], choose: Any) -> float:
    """How often ``choose(lead)`` is the card led, or one of its suit (a Wizard or Jester: itself)."""
    same = 0
    for lead in leads:
        card = choose(lead)
        same += card == lead["card"] or (SUIT[card] is not None and SUIT[card] == SUIT[lead["card"]])
    return same / len(leads) if leads else 0.0


def ranked(lead: dict[str, Any], w: Sequence[float]) -> str:
    found = features(lead)
    return max(found, key=lambda c: sum(a * b for a, b in zip(w, found[c], strict=True)))


def thumb(lead: dict[str, Any]) -> str:
    powers, worth = trick_tables(lead["trump"])
    hand = sorted(lead["hand"], key=worth.__getitem__, reverse=True)
    return pick(hand, None, -1, powers[None], lead["need"], 0, lead["players"])


def module_text(weights: dict[tuple[int, bool], list[float]], sources: Sequence[str]) -> str:
    def numbers(w: Sequence[float]) -> str:
        rows = [", ".join(f"{x:.4f}" for x in w[i:i + 8]) for i in range(0, len(w), 8)]
        return "(" + ",\n        ".join(rows) + ")"
    body = "".join(f"    {key!r}: {numbers(w)},\n" for key, w in sorted(weights.items()))
    loads = " ".join(f"--load {Path(s).name}" for s in sources)
    return ('"""How Wizard\'s ``hard`` leads in its playouts: weights on ``LEAD_FEATURES`` '
            "(mudwiz/games/wizard/playouts.py),\nkeyed by (players, wanting more tricks): 3 for three players, 4 for "
            f"four and more.\n\nFitted by ``python bench/leads.py {loads} --write``\nfrom ``hard``'s own leads in "
            'self-play (bench/leads.py says how the games were played and saved).\n"""'
            "\n\nLEAD_WEIGHTS: dict[tuple[int, bool], tuple[float, ...]] = {\n" + body + "}\n")


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=4, help="players a game (default 4)")
    parser.add_argument("--seed", type=int, default=120000, help="seed of the first game (default 120000)")
    parser.add_argument("--games", type=int, default=0, help="games to play and record (default: none)")
    parser.add_argument("--rounds", type=int, help="play only the first N rounds of each game (default: all)")
    parser.add_argument("--workers", type=int, default=1, help="processes")
    parser.add_argument("--thumb", action="store_true", help="the games' hard leads by the rule of thumb in its "
                        "playouts (the games the weights in leads.py were fitted from)")
    parser.add_argument("--save", help="write the games' leads here, a JSON object a line")
    parser.add_argument("--load", action="append", default=[], help="leads saved before (repeat)")
    parser.add_argument("--write", action="store_true", help=f"rewrite {OUT.relative_to(ROOT)} with the fit")
    args = parser.parse_args(argv)
    leads: list[dict[str, Any]] = []
    for path in args.load:
        leads += [json.loads(line) for line in Path(path).read_text().splitlines() if line.strip()]
    if args.games:
        jobs = [(args.players, args.seed + i, args.thumb, args.rounds) for i in range(args.games)]
        with Pool(args.workers) as pool:
            played = [lead for game in pool.imap(play, jobs) for lead in game]
        if args.save:
            Path(args.save).write_text("".join(json.dumps(lead) + "\n" for lead in played))
        leads += played
    weights: dict[tuple[int, bool], list[float]] = {}
    for key in sorted({key_of(lead) for lead in leads}):
        mine = [lead for lead in leads if key_of(lead) == key]
        cut = len(mine) * 3 // 4
        held, weights[key] = fit(rows(mine[:cut])), fit(rows(mine))
        model = agreement(mine, partial(ranked, w=weights[key]))
        apart = agreement(mine[cut:], partial(ranked, w=held))
        print(f"{key[0]}{'+' if key[0] == 4 else ''} players, {'wanting tricks' if key[1] else 'wanting none'}: "
              f"{len(mine)} leads; the model picks hard's lead {100 * model:.1f} % (held out: {100 * apart:.1f} %), "
              f"the rule of thumb {100 * agreement(mine, thumb):.1f} %")
        named = ", ".join(f"{name} {x:+.2f}" for name, x in zip(LEAD_FEATURES, weights[key], strict=True))
        print(f"  weights: {named}")
    if args.write and weights:
        OUT.write_text(module_text(weights, args.load))
        print(f"wrote {OUT.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
