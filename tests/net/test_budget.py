"""Each connection's shares of each second (net/budget.py), counted on a test clock: who waits, how long, who is
told and who is dropped. What the reactor and a real flood make of them: tests/wire/test_wire_flood.py."""

from __future__ import annotations

import pytest
from twisted.internet.task import Clock

from mudwiz.net.budget import LEAST_BURST, SHARE_LINES, Budget, Share
from mudwiz.settings import from_environ


class Watched:
    """A ``Share`` on a test clock, with what it told and whom it dropped."""

    def __init__(self, budget: Budget, clock: Clock | None = None) -> None:
        self.clock = clock or Clock()
        self.told: list[str] = []
        self.dropped: list[str] = []
        self.share = Share(self.clock, budget, self.told.append, lambda: self.dropped.append(self.told[-1]))
        self.turn = 0

    def line(self, cpu: float = 0.0001, made: int = 100, more: bool = False) -> float | None:
        """One line in a turn of its own, costing ``cpu``: the rest ``spent`` says."""
        self.turn += 1
        self.share.begin(self.turn, 0.0)
        return self.share.spent(0.0, 0.0, cpu, made, more)


def test_a_person_at_five_lines_a_second_never_waits_is_never_told_and_never_dropped() -> None:
    user = Watched(Budget(flood_drop=2.0))
    for _ in range(600):  # two minutes
        assert user.line(more=True) is None
        user.clock.advance(0.2)
    assert user.told == [] and user.dropped == []


def test_lines_sent_ahead_of_their_answers_wait_past_the_burst_told_once_then_dropped_past_the_limit() -> None:
    budget = Budget(lines_per_second=20.0, lines_burst=10, flood_drop=3.0, fair_cpu=0)
    flooder = Watched(budget)
    rests = [flooder.line(more=True) for _ in range(10)]
    assert rests[:9] == [None] * 9
    assert rests[9] == pytest.approx(1 / 20)
    assert flooder.told == [budget.warning()] and "20 lines a second" in flooder.told[0]
    for _ in range(59):  # 3 s at the rate it is held to, its lines still waiting
        flooder.clock.advance(1 / 20)
        assert flooder.line(more=True) == pytest.approx(1 / 20)
    assert flooder.told == [budget.warning()] and flooder.dropped == []
    flooder.clock.advance(0.06)
    flooder.line(more=True)
    assert flooder.dropped == [budget.farewell()]


def test_a_flood_that_stops_starts_afresh() -> None:
    budget = Budget(lines_per_second=20.0, lines_burst=10, flood_drop=3.0, fair_cpu=0)
    flooder = Watched(budget)
    for _ in range(11):
        flooder.line(more=True)
    flooder.clock.advance(2.5)
    flooder.line(more=False)  # every line answered: it slowed down
    flooder.clock.advance(2.5)
    for _ in range(11):
        flooder.line(more=True)
    flooder.clock.advance(2.5)
    flooder.line(more=True)
    assert flooder.dropped == []
    flooder.clock.advance(0.6)
    flooder.line(more=True)
    assert len(flooder.dropped) == 1


def test_a_program_that_waits_for_each_answer_is_never_held_to_the_line_rate() -> None:
    """However fast it plays, its answers pace it; nor does its count pile up for a later paste to pay."""
    budget = Budget(lines_per_second=20.0, lines_burst=10, fair_cpu=0)
    player = Watched(budget)
    for _ in range(1000):
        assert player.line(more=False) is None or player.share.lines >= SHARE_LINES
        player.clock.advance(0.001)
    assert player.told == []
    assert player.line(more=True) is not None  # a paste now waits only for what the rate says, from empty
    assert player.share.line_bucket is not None and player.share.line_bucket.tokens >= -1


def test_the_servers_time_is_shared_among_the_busy_connections_and_a_quiet_cheap_line_is_free() -> None:
    budget = Budget(fair_cpu=0.5, lines_per_second=0, output_per_second=0)
    clock = Clock()
    clock.advance(10)
    busy = [Watched(budget, clock) for _ in range(10)]
    quiet = Watched(budget, clock)
    for _ in range(6):  # the first five cheap lines are a person's; the sixth this second makes each busy
        rests = [b.line(cpu=0.001) for b in busy]
    assert all(r is not None and r > 0 for r in rests)
    # the last one's part is 0.5 s / 10 a second, nothing saved yet: a line of 1 ms costs it 20 ms of rest
    assert rests[-1] == pytest.approx(0.001 / (0.5 / 10))
    assert quiet.line(cpu=LEAST_BURST / 2) is None
    assert quiet.line(cpu=0.050) == pytest.approx(0.050 / (0.5 / 10), rel=0.2)  # a costly line is counted


def test_busy_connections_alike_share_what_the_lines_take_and_none_rests_for_taking_as_much_as_the_others() -> None:
    budget = Budget(fair_cpu=0.01, lines_per_second=0, output_per_second=0)
    clock = Clock()
    clock.advance(10)
    alike = [Watched(budget, clock) for _ in range(10)]
    for _ in range(2):  # two seconds of 6 lines of 1 ms each: 60 ms a second between them, 6 ms each
        rests = [[b.line(cpu=0.001) for b in alike] for _ in range(6)]
        clock.advance(1)
    # their part is twice what the lines took (0.12 s over 10, 12 ms each), not 0.01 s over 10 (1 ms: a rest each)
    assert all(r is None for turn in rests for r in turn)
    heavy = Watched(budget, clock)
    heavy_rests = [heavy.line(cpu=0.004) for _ in range(8)]  # 32 ms: more than its part (under 5 ms a line: no pace)
    rests = [b.line(cpu=0.001) for b in alike]
    assert heavy_rests[-1] is not None and heavy_rests[-1] > 0
    assert all(r is None for r in rests)


def test_no_one_rests_for_the_servers_time_while_its_reactor_waits_for_sockets() -> None:
    def heavy_among_ten(spare: bool) -> list[float | None]:
        """A connection taking 4 ms a line beside ten taking 1 ms: its rests."""
        budget = Budget(fair_cpu=0.01, lines_per_second=0, output_per_second=0)
        if spare:  # a reactor's turn that waited 0.2 s for sockets (net/polling.py reports it)
            budget.crowd.begin_turn()
            budget.crowd.first([], waited=0.2)
        clock = Clock()
        clock.advance(10)
        light, heavy = [Watched(budget, clock) for _ in range(10)], Watched(budget, clock)
        rests = []
        for _ in range(8):
            for b in light:
                b.line(cpu=0.001)
            rests.append(heavy.line(cpu=0.004))
        return rests

    assert any(r is not None and r > 0 for r in heavy_among_ten(spare=False))
    assert heavy_among_ten(spare=True) == [None] * 8


def test_output_past_its_budget_waits_until_paid_for() -> None:
    budget = Budget(output_per_second=1000, output_burst=5000, fair_cpu=0, lines_per_second=0)
    talker = Watched(budget)
    assert talker.line(made=4000) is None
    assert talker.line(made=3000) == pytest.approx(2.0 / 1, rel=0.01)  # 2,000 owed at 1,000 a second


def test_the_budgets_are_read_from_the_environment() -> None:
    budget = from_environ(Budget, {"MUDWIZ_LINES_PER_SECOND": "7.5", "MUDWIZ_FLOOD_DROP": "0",
                                   "MUDWIZ_FAIR_CPU": "0.25", "MUDWIZ_OUTPUT_PER_SECOND": "0"})
    assert (budget.lines_per_second, budget.flood_drop, budget.fair_cpu, budget.output_per_second) == (
        7.5, 0.0, 0.25, 0)
    assert "disconnected" not in budget.warning()
    assert Share(Clock(), budget, print, lambda: None).output_bucket is None
