"""The coach after a Wizard game (``/analyze ID [ROUND]``, ``mudwiz export ID --analysis``): a player's bids beside
the ``hard`` bot's from the same seat, and the cards that cost them, judged from what that seat could see then.

Pure: no Twisted, no clock, no store. Its input is what one seat saw, nothing more (``Decision``: the seat's
``view`` just before each of its moves, and the move; the ``view`` at the end for the score sheet);
``decisions`` makes them by replaying a record's seed and log, the engine's ``view(seat)`` at each move. So a
hand the seat could not see never reaches the analysis, and the test gives it seat views only.

How it judges (docs/wizard.md, "The coach"):

- **Bids.** The ``hard`` bot (``levels.WizardHard``) is handed the seat's views of the round in order, as a table
  hands them to a bot at its turns, and asked for the bid; what it "expects to take" is the mean tricks the
  seat takes aiming at that bid over ``SAMPLES`` deals of the unseen cards (``playouts.Simulations``, weighed as
  ``hard`` weighs them), the round played out with the playout policy; the player's own bid over the same deals.
- **Cards.** At each of the seat's plays with more than one card that differs, every such card is played out over
  the same ``SAMPLES`` deals of the unseen cards (from the seat's view then), giving each card's expected round
  score for the seat's bid. Only where some card beats the card played by ``COST`` points or more (a trick's
  worth: a trick off costs 10) is ``hard`` asked for its card; the play is listed when hard's card itself scores
  ``COST`` points more than the one played over those deals ("cost a trick"). The recorded deal is not used:
  the judgement is of the decision with what the player knew, not of the luck that followed.

Repeatable: every round's deals and its bot are seeded from the game's seed, the seat and the round, so a round
analysed alone or in the whole game reads the same, and so does every run. Bounded: ``SAMPLES`` deals a decision,
the bot asked once per bid and per suspect card. Of the bots' modules it uses ``levels.WizardHard`` (``choose``:
a view with no ``legal`` moves only shows it the table, as a table shows it others' moves) and of
``playouts``: ``RoundMemory`` (``update``), ``Simulations`` (``sample``, ``distinct``, ``same``, ``me``, ``n``,
``leader``, ``trump``, ``trick``, ``tricks``, ``bids``, ``hand``) and ``playout``.
"""

from __future__ import annotations

import random
from collections.abc import Generator, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from mudwiz.errors import BadCommand
from mudwiz.games.base import Phase
from mudwiz.games.wizard.cards import HIDDEN, round_score
from mudwiz.games.wizard.engine import Wizard
from mudwiz.games.wizard.levels import WizardHard
from mudwiz.games.wizard.phases import BIDDING
from mudwiz.games.wizard.playouts import RoundMemory, Simulations, playout
from mudwiz.games.wizard.texts import later

LEVEL = "hard"  # the bot the player is compared with
SAMPLES = 100  # deals of the unseen cards a decision is judged over
COST = 10.0  # points of expected round score a card must lose by to be listed: a trick's worth
BATCH = 10  # deals dealt between the pauses of the work (where an asker who has left stops it)

Work = Generator[None, None, Any]


@dataclass(frozen=True)
class Decision:
    """One move of the seat: ``view`` is ``game.view(seat)`` just before it (what the seat could see), ``action``
    the move made."""

    view: dict[str, Any]
    action: str


def decisions(players: Sequence[str], options: dict[str, Any], seed: int,
              log: Iterable[tuple[int | None, str]], seat: int) -> tuple[list[Decision], dict[str, Any]]:
    """The game replayed from its seed and log: ``seat``'s decisions, and its view at the end (the score sheet)."""
    game = Wizard(list(players), options, seed)
    made: list[Decision] = []
    for who, action in log:
        if who == seat:
            made.append(Decision(game.view(seat), action))
        game.step(who, action)
    return made, game.view(seat)


def analyse(players: Sequence[str], options: dict[str, Any], seed: int, log: Iterable[tuple[int | None, str]],
            seat: int, round_no: int | None = None, samples: int = SAMPLES) -> Work:
    """The plugin's hook (``GamePlugin.analysis``): a recorded game's analysis for ``seat``, as work in pieces
    (a generator yielding None where it may pause, returning the JSON-ready result). ``round_no`` None: every
    round. Refuses a round the game did not have (``BadCommand``)."""
    made, end = decisions(players, options, seed, log, seat)
    return analyse_views(made, end, seed=seed, round_no=round_no, samples=samples)


def analyse_views(made: Sequence[Decision], end: dict[str, Any], *, seed: int, round_no: int | None = None,
                  samples: int = SAMPLES) -> Work:
    """The analysis from one seat's views alone (``decisions``' output): see the module's docstring."""
    rounds = sorted({d.view["round"] for d in made})
    if round_no is not None and round_no not in rounds:
        raise BadCommand(later("that game has rounds 1 to {last}, not {round}", last=max(rounds, default=0),
                               round=round_no)).coded("no-round")
    you = end["you"]
    results = {row["round"]: next((r for r in row["results"] if r["player"] == you), None) for row in end["sheet"]}
    shown = []
    for number in rounds if round_no is None else [round_no]:
        shown.append((yield from _round(number, [d for d in made if d.view["round"] == number],
                                        results.get(number), random.Random(f"{seed}/{you}/{number}"), samples)))
    return {"level": LEVEL, "samples": samples, "cost": COST, "rounds": shown}


def _round(number: int, made: list[Decision], result: dict[str, Any] | None, rng: random.Random,
           samples: int) -> Work:
    """One round of the seat's: its bid beside hard's, and its costly cards."""
    bot = WizardHard("wizard", random.Random(rng.random()))
    memory = RoundMemory()
    first = made[0].view
    entry: dict[str, Any] = {"round": number, "cards": first["cards"], "trump": None, "bid": None,
                             "taken": None if result is None else result["tricks"],
                             "score": None if result is None else result["delta"], "choices": 0, "plays": []}
    for decision in made:
        view = decision.view
        memory.update(view)
        if view["phase"] == BIDDING:
            entry["trump"] = view["trump"]["suit"]
            entry["bid"] = yield from _bid(bot, view, decision.action, memory, rng, samples)
        elif view["phase"] == Phase.PLAYING:
            play = yield from _play(bot, view, decision.action, memory, rng, samples)
            if play is not None:
                entry["choices"] += 1
            if play:
                entry["plays"].append({"trick": sum(p["tricks"] for p in view["players"]) + 1, **play})
        else:  # naming trump: shown to the bot, not judged
            bot.choose({**view, "legal": []})
    return entry


def _expected(sims: Simulations, deals: list[tuple[list[list[str]], list[int], float]], bid: int,
              first: str | None, opening: bool) -> tuple[float, float]:
    """Mean tricks the seat ends the round with, and its mean round score for ``bid``, over ``deals`` (weighed):
    from the round's start aiming at ``bid`` (``opening``), else from the trick under way with ``first`` played."""
    tricks = score = weights = 0.0
    for hands, bids, weight in deals:
        aims = bids[:]
        aims[sims.me] = bid
        if opening:
            won = playout([h[:] for h in hands], [], sims.leader, sims.trump, aims, [0] * sims.n,
                          model=sims.model)[sims.me]
        else:
            won = playout([h[:] for h in hands], sims.trick, sims.leader, sims.trump, aims, sims.tricks[:], first,
                          model=sims.model)[sims.me]
        tricks += weight * won
        score += weight * round_score(bid, won)
        weights += weight
    if not weights:
        return 0.0, 0.0
    return tricks / weights, score / weights


def _deals(sims: Simulations, rng: random.Random, samples: int) -> Generator[None, None, list[Any]]:
    deals = []
    for i in range(samples):
        deals.append(sims.sample(rng))
        if i % BATCH == BATCH - 1:
            yield
    return deals


def _bid(bot: WizardHard, view: dict[str, Any], action: str, memory: RoundMemory, rng: random.Random,
         samples: int) -> Work:
    """The seat's bid and hard's, with what each expects to take and score over the same deals."""
    yours = int(action.split()[1])
    choice = bot.choose(view) or action
    hard = int(choice.split()[1])
    yield
    sims = Simulations(view, memory, first_leader=True, model=bot.MODEL)
    deals = yield from _deals(sims, rng, samples)
    tricks_y, score_y = _expected(sims, deals, yours, None, True)
    tricks_h, score_h = _expected(sims, deals, hard, None, True)
    yield
    return {"yours": yours, "hard": hard, "expected": {"yours": _r(tricks_y), "hard": _r(tricks_h)},
            "points": {"yours": _r(score_y), "hard": _r(score_h)}}


def _play(bot: WizardHard, view: dict[str, Any], action: str, memory: RoundMemory, rng: random.Random,
          samples: int) -> Work:
    """None: no choice worth judging (one card, or cards alike); {}: judged, no trick lost; else the costly play
    with hard's card and what each was expected to take and score over the same deals."""
    played = action.split()[1]
    legal = [a.split()[1] for a in view["legal"]]
    if HIDDEN in legal or HIDDEN in view["hand"]:  # clairvoyance: the one card, unseen
        bot.choose({**view, "legal": []})
        return None
    # weighed and played out as hard weighs and plays them
    sims = Simulations(view, memory, first_leader=False, misplay=WizardHard.MISPLAY, model=bot.MODEL)
    cards = sims.distinct(legal)
    if len(cards) < 2:
        bot.choose({**view, "legal": []})
        return None
    mine = next((c for c in cards if sims.same(c, played)), played)
    bid = sims.bids[sims.me]
    deals = yield from _deals(sims, rng, samples)
    judged: dict[str, tuple[float, float]] = {}
    for card in cards:
        judged[card] = _expected(sims, deals, bid, card, False)
        yield
    if max(score for _, score in judged.values()) - judged[mine][1] < COST:
        bot.choose({**view, "legal": []})  # nothing a trick better: hard is not asked (it only sees the table)
        return {}
    choice = (bot.choose(view) or action).split()[1]
    theirs = next((c for c in cards if sims.same(c, choice)), choice)
    if theirs == mine or theirs not in judged or judged[theirs][1] - judged[mine][1] < COST:
        return {}
    return {"yours": played, "hard": choice,
            "expected": {"yours": _r(judged[mine][0]), "hard": _r(judged[theirs][0])},
            "points": {"yours": _r(judged[mine][1]), "hard": _r(judged[theirs][1])},
            "cost": _r(judged[theirs][1] - judged[mine][1])}


def _r(value: float) -> float:
    return round(value, 2)
