"""Keeping a game moving when people do not: the round end waits for everyone's ``/ok`` (at most ``confirm``
seconds), and a person the game waits on has ``turn`` seconds before a random legal move is made for them.
Bots are never waited for; the clocks themselves are :mod:`.timers`."""

from __future__ import annotations

from collections.abc import Callable

from mudwiz import outflow
from mudwiz.errors import BadCommand, IllegalAction
from mudwiz.games.base import Event
from mudwiz.session import Session
from mudwiz.table.fanout import FanOut
from mudwiz.table.state import TableState
from mudwiz.texts import Later, later

Played = Callable[[list[Event]], None]  # the table's: the game changed by these events (``Table.played``)


class RoundConfirmation:
    """Who has confirmed the round's result, and going on to the next round when nobody else is waited for."""

    def __init__(self, table: TableState, fanout: FanOut, played: Played, stopping: Callable[[], bool]) -> None:
        """``stopping()``: whether the server is on its way down (the round is then dealt after its restart)."""
        self.table = table
        self.fanout = fanout
        self.played = played
        self.stopping = stopping
        # the last to /ok (sent their state at once) and the move count then: the rest get theirs at the batch's end
        self._current = ""
        self._current_at = -1

    def pending(self) -> list[str]:
        """Connected people who have not confirmed: people who left or dropped are not waited for."""
        confirmed = self.table.confirmed
        return [s.name for s in self.table.roster.seats if not s.is_bot and s.connected and s.name not in confirmed]

    def confirm(self, session: Session) -> Later | None:
        """``/ok``: the reply names whom the round still waits for, or is None when this was the last one."""
        table = self.table
        if table.game is None or table.game.phase != "roundend":
            raise IllegalAction(later("there is no round result to confirm"))
        if table.roster.seat_of(session.name) is None:
            raise BadCommand(later("only seated players confirm the round"))
        table.confirmed.add(session.name)
        pending = self.pending()
        if pending and table.in_game:
            self._shown(session)
        elif table.in_game:  # nobody left to wait for (``maybe_advance``'s finding, without asking again)
            self.advance()
        # The last /ok deals the next round at once: its reply must not read as if it came after that deal.
        return later("confirmed; waiting for {names}", names=", ".join(pending)) if pending else None

    def _shown(self, session: Session) -> None:
        """Who has confirmed, shown: at once to the one who just did (whose reply must follow their state, and
        who may not ``/ok`` again), to everyone else once the batch of output ends. People confirm together (a
        round's result reaches them all at once), and a state for everyone on each ``/ok`` was four times a
        move's fan-out at every round's end; the last ``/ok`` deals, and that sends everyone a state anyway."""
        table = self.table
        self.fanout.send_state(session)
        self._current, self._current_at = session.name, table.moves
        outflow.at_batch_end(("confirmed", id(self)), self._show_the_rest)

    def _show_the_rest(self) -> None:
        """Everyone's state but the last confirmer's (each ``/ok`` made the others' out of date)."""
        table = self.table
        if self._current_at != table.moves or table.game is None or table.game.phase != "roundend" \
                or not table.in_game:
            return  # the round was dealt meanwhile (everyone has a newer state) or the game is over
        self.fanout.send_states(skip=(self._current,))

    def round_ended(self) -> None:
        """A round just ended: nobody has confirmed it yet; go on after ``confirm`` seconds, or after a bot's
        pace when there is nobody to wait for (so the result can be read)."""
        table = self.table
        table.confirmed = set()
        delay = table.config.settings.confirm
        if delay and self.pending():
            table.timers.confirm_in(delay, self.advance)
        elif not self.pending():
            table.timers.confirm_in(table.pace, self.advance)

    def restored(self) -> None:
        """The server restarted at a round end: its people are away, their seats kept. The round waits for them
        to come back and confirm (``maybe_advance`` when one does), at most ``confirm`` seconds: not a bot's pace
        for nobody, which dealt the next round before anyone saw this one's result."""
        self.table.confirmed = set()
        delay = self.table.config.settings.confirm
        if delay:
            self.table.timers.confirm_in(delay, self.advance)

    def maybe_advance(self) -> None:
        """Go on if the round end waits for nobody any more; else show everyone whom it still waits for."""
        table = self.table
        if table.game is None or table.game.phase != "roundend" or not table.live:
            return
        if self.pending():
            self.fanout.send_states()
            return
        self.advance()

    def advance(self) -> None:
        table = self.table
        table.timers.stop_confirm()
        assert table.game is not None
        # stopping: the round is dealt after the restart; adjourned: when its people are back
        if table.game.phase != "roundend" or not table.live or self.stopping():
            return
        self.played(table.game.advance())


class TurnClock:
    """A person the game waits on has ``turn`` seconds, counted afresh after every change of the game."""

    def __init__(self, table: TableState, fanout: FanOut, any_move: Callable[[int], str | None],
                 played: Played) -> None:
        """``any_move(seat)``: a random legal move for ``seat`` (the bot driver's)."""
        self.table = table
        self.fanout = fanout
        self.any_move = any_move
        self.played = played
        self.moves = -1  # the table's move count when the clock was last set: a call for an earlier one is stale
        # the clock's calls, made once: ``Timers.turn_clock`` moves a running clock on when they are the same ones
        self._calls = (self._warn, self._time_up)

    def restart(self) -> None:
        table = self.table
        limit = table.config.settings.turn
        if (not limit or table.game is None or not table.live
                or all(table.roster.seats[s].is_bot for s in table.game.waiting())):
            table.timers.stop_turn()
            return
        self.moves = table.moves
        table.timers.turn_clock(limit, *self._calls)

    def _warn(self, left: float) -> None:
        """Tell whoever the game waits on that their clock is running out, before a move is made for them."""
        table = self.table
        if table.game is None or self.moves != table.moves:
            return
        for seat in table.game.waiting():
            person = table.roster.seats[seat]
            if not person.is_bot and person.connected:
                person.notice(later("{seconds} s left for your move; then a random legal move is made for you.",
                                    seconds=f"{left:g}"))

    def _time_up(self) -> None:
        """A person took too long: play a random legal move for the first person the game still waits on."""
        table = self.table
        if table.game is None or self.moves != table.moves:
            return
        for seat in table.game.waiting():
            person = table.roster.seats[seat]
            if person.is_bot or table.game.finished:
                continue
            action = self.any_move(seat)
            if action is not None and seat in table.game.waiting():
                # The move is named to its player alone: a secret bid or the cards of a pass named to the table
                # gave away what its events keep hidden. The others learn of it as of any move, by its events.
                self.fanout.announce(later("Time is up for {name}: a random move is made for them.", name=person.name),
                                     exclude=person)
                if person.connected:
                    person.notice(later("Time is up: /{move} is made for you.", move=action))
                self.played(table.game.apply(seat, action))
                return
