"""The table's clocks: a person's turn clock and its warning, the round-end confirmation, closing an empty table,
and the end of timed reveals. Each runs on the table's injectable clock (``task.Clock`` in tests); what happens
when one fires is the table's business, handed in as a callback."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from twisted.internet.interfaces import IDelayedCall, IReactorTime

IDLE_CLOSE = 60.0  # seconds a table with nobody seated or watching stays open (MUDWIZ_IDLE_TABLE)
TURN_WARNING = 30.0  # seconds before a person's turn clock runs out that they are warned


def _warned_before(limit: float) -> float:
    """Seconds before a turn clock of ``limit`` runs out that its person is warned."""
    return min(TURN_WARNING, limit / 2)


def _cancel(call: IDelayedCall | None) -> None:
    if call is not None and call.active():
        call.cancel()


class Timers:
    """One pending call per clock: setting a clock again replaces its call, so a table never has two of a kind."""

    def __init__(self, clock: IReactorTime) -> None:
        self.clock = clock
        self._confirm: IDelayedCall | None = None
        self._turn: IDelayedCall | None = None  # the turn clock's one pending call (``_turn_check``)
        self._turn_due = 0.0  # when the turn clock runs out
        self._warned = False  # its warning has been given
        self._idle: IDelayedCall | None = None
        self._turn_set: tuple[float, Callable[[float], None], Callable[[], None]] | None = None  # the clock's terms

    # ------------------------------------------------------------ round confirmation

    def confirm_in(self, seconds: float, advance: Callable[[], None]) -> None:
        """Go on to the next round after ``seconds`` even if not everyone confirmed (an away-from-keyboard safety)."""
        _cancel(self._confirm)
        self._confirm = self.clock.callLater(seconds, advance)

    def stop_confirm(self) -> None:
        _cancel(self._confirm)
        self._confirm = None

    # ------------------------------------------------------------ turn clock

    def turn_clock(self, limit: float, warn: Callable[[float], None], time_up: Callable[[], None]) -> None:
        """A person's clock, afresh: ``time_up()`` after ``limit`` seconds, and ``warn(left)`` ``left`` seconds
        before it (``TURN_WARNING``, or half the time for a clock shorter than twice that). The clock restarts on
        every move, so a running one with the same terms only has its end moved: its one pending call, when it
        comes, finds the end later than it was set for and waits again (moving two calls on every
        move was a sixtieth of its CPU)."""
        running = self._turn is not None and self._turn_set == (limit, warn, time_up)
        self._turn_due, self._warned = self.clock.seconds() + limit, False
        if running:
            return
        self.stop_turn()
        self._turn_set = (limit, warn, time_up)
        self._turn = self.clock.callLater(limit - _warned_before(limit), self._turn_check)

    def _turn_check(self) -> None:
        """The turn clock's call: early (the end moved since it was set) it waits again; else it warns, then at
        the end says time is up."""
        assert self._turn_set is not None
        limit, warn, time_up = self._turn_set
        before = _warned_before(limit)
        now, due = self.clock.seconds(), self._turn_due
        comes = due if self._warned else due - before  # the warning's moment, or once given the end's
        if now < comes:
            self._turn = self.clock.callLater(comes - now, self._turn_check)
        elif not self._warned:
            self._warned = True
            self._turn = self.clock.callLater(due - now, self._turn_check)
            warn(before)
        else:
            self._turn = None  # spent: time_up may start the next person's clock
            time_up()

    def stop_turn(self) -> None:
        _cancel(self._turn)
        self._turn = None

    # ------------------------------------------------------------ idle close

    def idle_close(self, seconds: float, close: Callable[[], None]) -> None:
        """Close a table nobody is at once it has been empty ``seconds``, long enough for a dropped one to return."""
        self.stop_idle()
        self._idle = self.clock.callLater(seconds, close)

    def stop_idle(self) -> None:
        _cancel(self._idle)
        self._idle = None

    # ------------------------------------------------------------ reveals

    def reveal_ends(self, seconds: float, end: Callable[..., None], *args: Any) -> None:
        """End a timed reveal. Never cancelled, not even when the table closes: whoever was shown the cards is
        still told that they are closed again."""
        self.clock.callLater(seconds, end, *args)

    def stop_game(self) -> None:
        """The game is over or abandoned: nothing may be played or confirmed for it any more."""
        self.stop_confirm()
        self.stop_turn()
