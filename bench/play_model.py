"""Learn how Wizard's ``hard`` leads and when it lets a trick go, for its playouts: seeded self-play of ``hard``,
every lead and every follow wanting tricks recorded, and the two models fitted (conditional logits: each card the
hand could lead scored by weights on its ``lead_features``, the chance of a card its score's share; taking the
trick against letting it go scored by weights on the choice's ``duck_features``, the chance of taking it the
logistic of the score).

``hard``'s playouts have every player lead and duck by :class:`mudwiz.games.wizard.playouts.PlayModel` with the
weights in mudwiz/games/wizard/play_weights.py (``WizardHard.LEAD_SETS``, ``DUCK_SETS``); this is how they were
made (the lead sets for four and more are fitted too, for measuring: with four they made no more bids). It prints,
per set of weights (leads: three players, four and more, each wanting no more tricks and wanting some; ducks:
three players, four and more), the choices fitted, how often the model's choice is ``hard``'s (for a lead, its
suit, for a suit card) on the choices fitted and on a quarter held out of a second fit, how often the rule of thumb's
is (:func:`pick` without a model: for a duck, always taking), and the weights. Figures are printed, never
asserted::

    python bench/play_model.py --players 4 --seed 120000 --games 20 --thumb --save play4.jsonl
    python bench/play_model.py --players 3 --seed 121000 --games 20 --thumb --save play3.jsonl
    python bench/play_model.py --load play4.jsonl --load play3.jsonl --write     # rewrites play_weights.py

The games play the ``hard`` that is checked out; ``--thumb`` has its playouts play by the rule of thumb, as they
did before the model: the weights in play_weights.py were fitted from such games. Without it the games' ``hard``
plays by the weights it has, and a fit learns from the choices it makes with them. A saved line without a
``kind`` is a lead (the files of the lead model alone).
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
from mudwiz.games.wizard.levels import WizardHard  # noqa: E402
from mudwiz.games.wizard.playouts import (  # noqa: E402
    DUCK_FEATURES,
    LEAD_FEATURES,
    SUIT,
    PlayModel,
    duck_features,
    lead_features,
    pick,
    playable,
    trick_best,
    trick_lead,
    trick_tables,
    wizards_only,
)

OUT = ROOT / "mudwiz" / "games" / "wizard" / "play_weights.py"
RIDGE = 1e-3  # the weights' squared size, so weighted, is added to the mean loss: keeps unused features at 0


def play(args: tuple[int, int, bool, int | None]) -> list[dict[str, Any]]:
    """One seeded game of ``hard`` in every seat; each lead with more than one card to choose from, and each card
    played following while wanting tricks. ``thumb``: the bots' playouts lead and follow by the rule of thumb, as
    ``hard``'s did before it had a model."""
    players, seed, thumb, rounds = args
    rng = random.Random(seed)
    engine = Wizard([f"p{i}" for i in range(players)], {"rounds": rounds} if rounds else {}, seed)
    bots = [make_policy("hard", "wizard", random.Random(rng.randrange(2**32))) for _ in range(players)]
    for bot in bots if thumb else ():
        assert isinstance(bot, WizardHard)
        bot.MODEL = PlayModel({})
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
            if view["phase"] == Phase.PLAYING and action is not None:
                me = view["players"][seat]
                need = me["bid"] - me["tricks"]
                seen = {"players": players, "trump": view["trump"]["suit"], "hand": view["hand"], "need": need,
                        "card": action.split()[1]}
                if not view["trick"] and len(set(view["hand"])) > 1:
                    found.append({"kind": "lead", **seen})
                elif view["trick"] and need > 0 and len(view["legal"]) > 1:
                    found.append({"kind": "follow", **seen, "trick": [t["card"] for t in view["trick"]]})
            if action is not None:
                engine.apply(seat, action)
                break
        else:
            raise RuntimeError(f"seed {seed}: no bot would move")
    return found


def lead_key(lead: dict[str, Any]) -> tuple[int, bool]:
    return PlayModel.lead_key(lead["players"], lead["need"])


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


def duck_choice(follow: dict[str, Any]) -> tuple[list[float], bool] | None:
    """A follow where the rule of thumb takes the trick with its cheapest winner and a losing card was at hand (the
    choice the duck weights make): its features and whether ``hard`` took the trick; None for any other follow
    (nothing takes it, nothing loses it, or the rule's own Wizards-only case)."""
    powers, worth = trick_tables(follow["trump"])
    trick = follow["trick"]
    lead = trick_lead(trick)
    table = powers[lead]
    best = trick_best(trick, follow["trump"])
    hand = sorted(follow["hand"], key=worth.__getitem__, reverse=True)
    need = follow["need"]
    legal = playable(hand, lead)
    if table[legal[-1]] > best or wizards_only(hand, legal, need):
        return None
    card = next((c for c in reversed(legal) if table[c] > best), None)
    if card is None:
        return None
    last = len(trick) == follow["players"] - 1
    return duck_features(hand, legal, card, best, table, need, last), table[follow["card"]] > best


def duck_rows(choices: Sequence[tuple[list[float], bool]]) -> list[tuple[list[list[float]], int]]:
    """Each choice as two alternatives, taking (its features) and letting go (all 0), and the one made."""
    return [([f, [0.0] * len(f)], 0 if took else 1) for f, took in choices]


def fit(data: Sequence[tuple[list[list[float]], int]], steps: int = 25) -> list[float]:
    """The weights that make the choices most likely (Newton's method on the mean log-loss plus ``RIDGE``)."""
    k = len(data[0][0][0])
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


def module_text(leads: dict[tuple[int, bool], list[float]], ducks: dict[int, list[float]],
                sources: Sequence[str]) -> str:
    def numbers(w: Sequence[float]) -> str:
        rows = [", ".join(f"{x:.4f}" for x in w[i:i + 8]) for i in range(0, len(w), 8)]
        return "(" + ",\n        ".join(rows) + ")"
    lead_body = "".join(f"    {key!r}: {numbers(w)},\n" for key, w in sorted(leads.items()))
    duck_body = "".join(f"    {key!r}: {numbers(w)},\n" for key, w in sorted(ducks.items()))
    loads = " ".join(f"--load {Path(s).name}" for s in sources)
    return ('"""How Wizard\'s ``hard`` plays in its playouts (:class:`mudwiz.games.wizard.playouts.PlayModel`):\nlead '
            "weights on ``LEAD_FEATURES``, keyed by (players, wanting more tricks), and duck weights on\n"
            "``DUCK_FEATURES``, keyed by players: 3 for three players, 4 for four and more.\n\n"
            f"Fitted by ``python bench/play_model.py {loads} --write``\nfrom ``hard``'s own play in "
            'self-play (bench/play_model.py says how the games were played and saved).\n"""'
            "\n\nLEAD_WEIGHTS: dict[tuple[int, bool], tuple[float, ...]] = {\n" + lead_body + "}\n"
            "\nDUCK_WEIGHTS: dict[int, tuple[float, ...]] = {\n" + duck_body + "}\n")


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=4, help="players a game (default 4)")
    parser.add_argument("--seed", type=int, default=120000, help="seed of the first game (default 120000)")
    parser.add_argument("--games", type=int, default=0, help="games to play and record (default: none)")
    parser.add_argument("--rounds", type=int, help="play only the first N rounds of each game (default: all)")
    parser.add_argument("--workers", type=int, default=1, help="processes")
    parser.add_argument("--thumb", action="store_true", help="the games' hard plays by the rule of thumb in its "
                        "playouts (the games the weights in play_weights.py were fitted from)")
    parser.add_argument("--save", help="write the games' choices here, a JSON object a line")
    parser.add_argument("--load", action="append", default=[], help="choices saved before (repeat)")
    parser.add_argument("--write", action="store_true", help=f"rewrite {OUT.relative_to(ROOT)} with the fit")
    args = parser.parse_args(argv)
    seen: list[dict[str, Any]] = []
    for path in args.load:
        seen += [json.loads(line) for line in Path(path).read_text().splitlines() if line.strip()]
    if args.games:
        jobs = [(args.players, args.seed + i, args.thumb, args.rounds) for i in range(args.games)]
        with Pool(args.workers) as pool:
            played = [choice for game in pool.imap(play, jobs) for choice in game]
        if args.save:
            Path(args.save).write_text("".join(json.dumps(choice) + "\n" for choice in played))
        seen += played
    leads = [c for c in seen if c.get("kind", "lead") == "lead"]
    lead_weights: dict[tuple[int, bool], list[float]] = {}
    for key in sorted({lead_key(lead) for lead in leads}):
        mine = [lead for lead in leads if lead_key(lead) == key]
        cut = len(mine) * 3 // 4
        held, lead_weights[key] = fit(rows(mine[:cut])), fit(rows(mine))
        model = agreement(mine, partial(ranked, w=lead_weights[key]))
        apart = agreement(mine[cut:], partial(ranked, w=held))
        print(f"leads, {key[0]}{'+' if key[0] == 4 else ''} players, {'wanting tricks' if key[1] else 'wanting none'}: "
              f"{len(mine)} leads; the model picks hard's lead {100 * model:.1f} % (held out: {100 * apart:.1f} %), "
              f"the rule of thumb {100 * agreement(mine, thumb):.1f} %")
        named = ", ".join(f"{name} {x:+.2f}" for name, x in zip(LEAD_FEATURES, lead_weights[key], strict=True))
        print(f"  weights: {named}")
    duck_weights: dict[int, list[float]] = {}
    follows = [c for c in seen if c.get("kind") == "follow"]
    for size in sorted({PlayModel.duck_key(f["players"]) for f in follows}):
        choices = [d for f in follows if PlayModel.duck_key(f["players"]) == size and (d := duck_choice(f))]
        if not choices:
            continue
        cut = len(choices) * 3 // 4
        held, duck_weights[size] = fit(duck_rows(choices[:cut])), fit(duck_rows(choices))
        print(f"ducks, {size}{'+' if size == 4 else ''} players: {len(choices)} follows that could take the trick or "
              f"not; the model's call is hard's {100 * calls(choices, duck_weights[size]):.1f} % (held out: "
              f"{100 * calls(choices[cut:], held):.1f} %), always taking "
              f"{100 * sum(took for _, took in choices) / len(choices):.1f} %")
        named = ", ".join(f"{name} {x:+.2f}" for name, x in zip(DUCK_FEATURES, duck_weights[size], strict=True))
        print(f"  weights: {named}")
    if args.write and lead_weights:
        OUT.write_text(module_text(lead_weights, duck_weights, args.load))
        print(f"wrote {OUT.relative_to(ROOT)}")


def calls(choices: Sequence[tuple[list[float], bool]], w: Sequence[float]) -> float:
    """How often taking the trick when the score is 0 or more, else letting it go, is what ``hard`` did."""
    return sum((sum(a * b for a, b in zip(w, f, strict=True)) >= 0) == took for f, took in choices) / len(choices)


if __name__ == "__main__":
    main()
