"""Property tests: thousands of random legal Tiltowait matches for 3, 4, 7 and 10 players.

Every step checks that the 120 cards are all still there (reshuffles included) and that the game waits on
exactly one seat; a sample of steps also tries random illegal moves (they must raise and change nothing),
re-deals every card the viewer cannot see to prove no view depends on them, and renders the screen. Every hand's
scores are recomputed here from the hands left, and every match must end exactly as its options say.

Most matches are one or two hands long to keep the whole file near a minute; hypothesis picks the seeds.
"""

from __future__ import annotations

import copy
import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mudwiz.cards import Action
from mudwiz.errors import MudwizError
from mudwiz.games.base import Event, GameEnd
from mudwiz.games.tiltowait import render as screen
from mudwiz.games.tiltowait.engine import Tiltowait
from mudwiz.games.tiltowait.events import Caught, Drew, Karuki, MilwaReveal, RoundEnd
from mudwiz.render.style import Style, strip_ansi, visible_len

DECK = Counter(
    [f"{c}{n}" for c in "KRGB" for n in range(1, 11)] * 2
    + [f"{s}-{c}" for s, k in (("HALITO", 2), ("DALTO", 1), ("KATINO", 2)) for c in "KRGB" for _ in range(k)]
    + ["MAHALITO"] * 4 + ["MADALTO"] * 2 + ["TILTOWAIT"] * 2 + ["MILWA"] * 2 + ["MONTINO"] * 4 + ["HAMAN"] * 6
)
SPELL_POINTS = {"HALITO": 20, "DALTO": 20, "MAHALITO": 40, "MADALTO": 40, "TILTOWAIT": 40, "KATINO": 20,
                "MILWA": 40, "MONTINO": 30, "HAMAN": 30}
SORTED_DECK = sorted(DECK.elements())
STYLES = {"ansi": Style.for_mode("ansi"), "ascii": Style.for_mode("ascii")}
JUNK_WORDS = ["R0", "R11", "Z", "HALITO", "HALITO-Y", "purple", "", "K", "r", "b", "Nobody", "-1", "2"]
MOVES = ("play", "draw", "keep")


def reference_score(cards: list[str]) -> int:
    """The rules page, written again: minus the sum (monster number, spell points), doubled with a TILTOWAIT."""
    total = sum(int(c[1:]) if c[1:].isdigit() else SPELL_POINTS[c.split("-")[0]] for c in cards)
    return -2 * total if "TILTOWAIT" in cards else -total


def freeze(value: Any) -> Any:
    """A hashable copy of plain state (lists, sets, dicts of strings and numbers)."""
    if isinstance(value, list | tuple):
        return tuple(freeze(v) for v in value)
    if isinstance(value, set):
        return frozenset(value)
    if isinstance(value, dict):
        return tuple(sorted((k, freeze(v)) for k, v in value.items()))
    return value


def snapshot(game: Tiltowait) -> tuple[Any, ...]:
    """Everything a refused move could have changed (the log and sheet only grow, so their lengths do)."""
    state = {k: freeze(v) for k, v in vars(game).items() if k not in ("rng", "log", "sheet", "start_events")}
    return state, len(game.log), len(game.sheet), game.rng.getstate()


def random_text(game: Tiltowait, rng: random.Random) -> str:
    """A move typed at random: real and fake cards, colours and names, with any verb."""
    words = [rng.choice(("play", "draw", "keep", "karuki", "catch", "bid", "PLAY"))]
    pool = [*DECK, *JUNK_WORDS, *game.players, *"KRGB"]
    words += [rng.choice(pool) for _ in range(rng.choice((0, 1, 1, 2, 3)))]
    return " ".join(words)


class Checker:
    """Drives one match with random legal moves and checks the properties as it goes."""

    def __init__(self, players: int, options: dict[str, Any], seed: int) -> None:
        names = [f"Player{i}" if seed % 2 else f"Longest_name_{i:03d}" for i in range(players)]  # 16: the most
        self.game = Tiltowait(names, options, seed)
        self.rng = random.Random(seed)
        self.totals = [0] * players
        self.hands_seen = 0
        self.steps = 0

    def run(self) -> None:
        game = self.game
        self.check_events(game.start_events)
        while not game.finished:
            if game.phase == "roundend":
                assert game.waiting() == [] and all(not game.legal_actions(s) for s in range(len(game.players)))
                self.check_events(game.advance())
                continue
            self.step()
        self.check_end()

    def step(self) -> None:
        game, rng = self.game, self.rng
        self.steps += 1
        assert self.steps < 50_000, "the match does not end"
        waiting = game.waiting()
        assert len(waiting) == 1 and game.phase == "playing"
        (asked,) = waiting
        legal = game.legal_actions(asked)
        moves = [a for a in legal if a.verb in MOVES]
        assert moves, "the asked seat always has a move (draw, keep or a play)"
        if rng.random() < 0.04:
            self.try_illegal()
        if rng.random() < 0.02:
            self.check_views_hide_unseen_cards()
        if rng.random() < 0.005:
            self.check_screens()
        side: list[tuple[int, Action]] = []
        if rng.random() < 0.02:  # only the asked seat has moves; the others may only call karuki or catch
            for seat in range(len(game.players)):
                assert seat == asked or all(a.verb in ("karuki", "catch") for a in game.legal_actions(seat))
        if rng.random() < 0.08:
            # karuki needs one card in hand, catch a player who has one: no other seat need be asked
            one_card = any(len(h) == 1 for h in game.hands)
            for seat in range(len(game.players)):
                if one_card and (len(game.hands[seat]) == 1 or game.exposed is not None):
                    side += [(seat, a) for a in game.legal_actions(seat) if a.verb in ("karuki", "catch")]
        if side:
            seat, action = rng.choice(side)
        else:  # mostly a play, of a card chosen first (MILWA has many forms and would crowd the rest out)
            plays = [a for a in moves if a.verb == "play"]
            if plays and rng.random() < 0.9:
                card = rng.choice(sorted({a.args[0] for a in plays}))
                seat, action = asked, rng.choice([a for a in plays if a.args[0] == card])
            else:
                seat, action = asked, rng.choice(moves)
        before = [len(h) for h in game.hands]
        events = game.apply(seat, action)
        assert game.log[-1] == (seat, str(action))
        self.check_cards()
        self.check_events(events)
        if action.verb == "catch":
            self.check_catch(seat, action.args[0], before, events)
        if action.verb == "karuki":
            assert before[seat] == 1 and game.view(seat)["players"][seat]["karuki"] is True
            assert events == [Karuki(game.players[seat])]
        elif action.args[-1:] == ("karuki",):  # a discard carrying the call leaves one card, called
            assert before[seat] == 2 and len(game.hands[seat]) == 1 and events[-1] == Karuki(game.players[seat])
            assert game.view(None)["players"][seat]["karuki"] is True and game.exposed is None

    # -- properties

    def check_cards(self) -> None:
        game = self.game
        assert sorted([c for h in game.hands for c in h] + game.stock + game.discard) == SORTED_DECK
        assert game.discard, "the top discard is never taken"

    def try_illegal(self) -> None:
        """A random typed move that is not legal for a random seat raises and leaves everything as it was."""
        game, rng = self.game, self.rng
        seat = rng.randrange(len(game.players))
        text = random_text(game, rng)
        try:
            action = game.normalize(Action.parse(text))
            if action in game.legal_actions(seat):
                return
        except MudwizError:
            pass
        before = snapshot(game)
        with pytest.raises(MudwizError):
            game.apply(seat, text)
        assert snapshot(game) == before

    def check_catch(self, seat: int, name: str, before: list[int], events: list[Event]) -> None:
        """Only another player's uncalled last card is caught, and its holder (not the catcher) draws 2."""
        game = self.game
        target = game.players.index(name)
        assert target != seat and before[target] == 1
        assert events[0] == Caught(name, game.players[seat])
        (drew,) = [e for e in events if isinstance(e, Drew)]
        assert drew.player == name and drew.reason == "karuki" and drew.count <= 2
        assert len(game.hands[target]) == 1 + drew.count and len(game.hands[seat]) == before[seat]
        assert drew.count == 2 or not game.stock

    def check_views_hide_unseen_cards(self) -> None:
        """Re-deal every card a seat cannot see (the others' hands, the stock): its view must not change."""
        game, rng = self.game, self.rng
        seat = rng.randrange(len(game.players))
        before = game.view(seat), game.view(None)
        other = copy.copy(game)  # views only read: fresh hands and stock are all the clone needs
        other.hands = [list(h) for h in game.hands]
        others = [s for s in range(len(game.players)) if s != seat]
        pool = [c for s in others for c in other.hands[s]] + other.stock
        rng.shuffle(pool)
        for s in others:
            size = len(other.hands[s])
            other.hands[s], pool = pool[:size], pool[size:]
        other.stock = pool
        if other.drawn is not None and other.turn != seat:  # the card just drawn is as secret as the rest
            other.drawn = other.hands[other.turn][-1]
        assert (other.view(seat), other.view(None)) == before
        assert before[1]["hand"] == [] and before[1]["legal"] == []
        assert sorted(before[0]["hand"]) == sorted(game.hands[seat])

    def check_events(self, events: list[Event]) -> None:
        if self.rng.random() < 0.01:
            self.check_event_lines(events)
        for event in events:
            for viewer in [*self.game.players, None] if isinstance(event, Drew | MilwaReveal) else [None]:
                seen = event.visible_to(viewer)
                if isinstance(event, MilwaReveal):  # open to the table, or (milwa=caster) to the caster alone
                    sees = self.game.options["milwa"] == "table" or viewer == event.caster
                    assert (seen is event) == sees and (seen is None) == (not sees)
                    assert event.seconds == 5 and event.audience == self.game.options["milwa"]
                elif isinstance(event, Drew):
                    assert isinstance(seen, Drew) and seen.count == event.count
                    assert seen.cards == (event.cards if viewer == event.player else None)
                else:  # every other event is public
                    assert seen is event and event.visible_to(self.rng.choice(self.game.players)) is event
            if isinstance(event, RoundEnd):
                self.check_round(event)
            if isinstance(event, GameEnd):
                self.check_standings(event)

    def check_round(self, end: RoundEnd) -> None:
        game = self.game
        self.hands_seen += 1
        assert end.round == self.hands_seen == game.round
        winner = game.players.index(end.winner)
        assert game.hands[winner] == []
        assert sum(1 for h in game.hands if not h) == 1, "exactly one player went out"
        for s, row in enumerate(end.results):
            expected = 0 if s == winner else reference_score(game.hands[s])
            self.totals[s] += expected
            assert row["player"] == game.players[s] and sorted(row["cards"]) == sorted(game.hands[s])
            assert row["delta"] == expected and row["score"] == self.totals[s] == game.scores[s]
        assert game.sheet[-1]["results"] == end.results

    def check_standings(self, end: GameEnd) -> None:
        names = self.game.players
        assert {r["player"]: r["score"] for r in end.standings} == dict(zip(names, self.totals, strict=True))
        for r in end.standings:
            assert r["place"] == 1 + sum(1 for t in self.totals if t > r["score"])
        assert [r["score"] for r in end.standings] == sorted(self.totals, reverse=True)

    def check_end(self) -> None:
        game = self.game
        hands, limit = game.options["hands"], game.options["limit"]
        totals = [[r["score"] for r in entry["results"]] for entry in game.sheet]
        if limit is None:
            assert len(game.sheet) == (hands or 5)
        else:
            assert min(totals[-1]) <= limit and all(min(t) > limit for t in totals[:-1])
        assert game.phase == "gameover" and game.waiting() == []
        if self.rng.random() < 0.2:
            self.check_screens()

    def check_event_lines(self, events: list[Event]) -> None:
        """Each viewer's lines for what just happened fit 80 columns, and are plain in ASCII mode."""
        for viewer in [*self.game.players, None]:
            for event in events:
                seen = event.visible_to(viewer)
                if seen is None:
                    continue
                for mode, style in STYLES.items():
                    for line in screen.event_lines(seen, style):
                        assert visible_len(line) <= 80, line
                        assert mode == "ansi" or (line == strip_ansi(line) and line.isascii()), line

    def check_screens(self) -> None:
        """Every screen fits 80 columns; ASCII mode sends no escape code and no non-ASCII character."""
        game = self.game
        seat = self.rng.randrange(len(game.players))
        for mode, style in STYLES.items():
            lines: list[str] = []
            for viewer in (seat, None):
                view = game.view(viewer)
                lines += screen.table_view(view, style) + [screen.prompt(view, style)]
                lines += screen.score_sheet(view, style)
            for start in game.start_events:
                lines += screen.event_lines(start, style)
            for line in lines:
                assert visible_len(line) <= 80, line
                if mode == "ascii":
                    assert line == strip_ansi(line) and line.isascii(), line
        # the seat's hand marks exactly the cards it may play: [R7] in ASCII
        view = game.view(seat)
        table = screen.table_view(view, STYLES["ascii"])
        if view["hand"]:
            below = table.index(" Your hand:") + 1
            shown = " ".join(table[below:-1])
            marked = {w.strip("[]") for w in shown.replace("]", "] ").split() if w.startswith("[")}
            assert marked == {a.split()[1] for a in view["legal"] if a.startswith("play ")}
            assert sorted(shown.replace("[", " ").replace("]", " ").split()) == sorted(view["hand"])


def run_matches(players: int, examples: int) -> None:
    @settings(max_examples=examples, deadline=None, suppress_health_check=[HealthCheck.too_slow], database=None)
    @given(seed=st.integers(0, 2**32 - 1), kind=st.integers(0, 9), floor=st.integers(-80, -20))
    def match(seed: int, kind: int, floor: int) -> None:
        # six in ten matches are one hand, two are two hands, two run until a total reaches the floor
        length = {"hands": 1} if kind < 6 else {"hands": 2} if kind < 8 else {"limit": floor}
        Checker(players, {**length, "milwa": "caster" if kind % 3 == 0 else "table"}, seed).run()

    match()


@pytest.mark.parametrize(("players", "examples"), [(3, 950), (4, 700), (7, 290), (10, 60)])  # 2000 matches
def test_random_legal_matches_keep_every_rule(players: int, examples: int) -> None:
    run_matches(players, examples)


def test_a_default_match_plays_five_hands() -> None:
    for seed in range(6):
        checker = Checker(3 + seed % 2, {}, seed)
        checker.run()
        assert checker.hands_seen == 5
