"""The selection cursor of the client's model: what may be chosen now (exactly the ``legal`` list of the latest
state, by cursor stop, each in the form chosen with Up/Down), and where the cursor is. A mixin of ``Model``."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from mudwiz.client.games import client_part
from mudwiz.games import plugin
from mudwiz.games.base import Phase

CONFIRMS = ("/ok", "/start")


def card_of(command: str) -> str | None:
    """The card a ``/play CARD …`` command plays, upper-cased as hands are; None for other commands."""
    words = command.split()
    return words[1].upper() if len(words) > 1 and words[0] == "/play" else None


def stop_of(command: str, calls: tuple[str, ...] = ()) -> str:
    """Where a move stops the Left/Right cursor: a play without the colour it names and the call it makes
    (``calls``, the game's: ``/play R3 karuki``), so a card's colours are one stop (Up/Down choose among them)
    while the players a spell may aim at stay stops of their own."""
    words = command.split()
    if words and words[-1] in calls:
        words.pop()
    if len(words) >= 3 and words[0] == "/play" and len(words[-1]) == 1 and words[-1].isalpha():
        words.pop()  # a colour letter; names are two characters or more
    return " ".join(words)


class Choosing:
    """The cursor over the moves the latest state allows."""

    if TYPE_CHECKING:  # fields of Model
        state: dict[str, Any] | None
        cursor: int
        forms: dict[str, str]
        marked: list[int]

    # ------------------------------------------------------------ what may be chosen

    @property
    def legal(self) -> list[str]:
        return list(self.state.get("legal", [])) if self.state else []

    @property
    def hand(self) -> list[str]:
        return list(self.state.get("hand", [])) if self.state else []

    def _round_start(self, message: dict[str, Any]) -> str | None:
        """The type of the event that opens a round of the message's game (its plugin's ``round_start``)."""
        found = plugin(message.get("game") or (self.state or {}).get("game"))
        return found.round_start if found is not None else None

    def calls(self) -> tuple[str, ...]:
        """The words a move of this table's game may end with to make a call along with it (its plugin's)."""
        found = plugin((self.state or {}).get("game"))
        return found.calls if found is not None else ()

    @property
    def picking(self) -> str | None:
        """The verb of a move of several cards chosen one by one with the cursor (the game's ``card_choice``,
        which stands for any ``count`` cards of the hand) when it is legal now, else None."""
        found = plugin((self.state or {}).get("game"))
        verb = found.card_choice if found is not None else None
        return verb if verb is not None and f"/{verb}" in self.legal and bool(self.hand) else None

    def pick_count(self) -> int:
        """How many cards the ``picking`` move takes: its view field's ``count``."""
        info = (self.state or {}).get(self.picking or "") or {}
        return int(info.get("count") or 0)

    def stops(self) -> dict[str, list[str]]:
        """The moves (not /ok, /start) by cursor stop, each with its forms in the server's order. A play the
        server offers with the karuki call too is offered only so: nobody wants to be caught for forgetting it."""
        legal, calls = set(self.legal), self.calls()
        stops: dict[str, list[str]] = {}
        for command in self.legal:
            if command not in CONFIRMS and not any(f"{command} {call}" in legal for call in calls):
                stops.setdefault(stop_of(command, calls), []).append(command)
        return stops

    def choices(self) -> list[str]:
        """The commands the cursor moves through: one per stop (cards in hand order, each in its chosen form),
        else ``/ok`` / ``/start``."""
        if self.picking:
            return [f"/{self.picking} {c}" for c in self.hand]
        stops = self.stops()
        if not stops:
            return [c for c in self.legal if c in CONFIRMS]
        moves = [self.forms[stop] if self.forms.get(stop) in forms else forms[0] for stop, forms in stops.items()]
        hand = [c.upper() for c in self.hand]

        def order(command: str) -> int:
            card = card_of(command)
            return hand.index(card) if card in hand else len(hand)

        return sorted(moves, key=order)  # stable: a card's several stops (MILWA's targets) stay in order

    def choice_forms(self) -> list[str]:
        """The forms of the selected move (a spell's colours); Up/Down go through them."""
        chosen = self.selected()
        return [] if chosen is None or self.picking else self.stops().get(stop_of(chosen, self.calls()), [])

    def cycle_form(self, step: int) -> None:
        """Up/Down: the selected move's next (or previous) form, e.g. the colour a MAHALITO names."""
        forms, chosen = self.choice_forms(), self.selected()
        if len(forms) > 1 and chosen in forms:
            self.forms[stop_of(chosen, self.calls())] = forms[(forms.index(chosen) + step) % len(forms)]

    def selected(self) -> str | None:
        options = self.choices()
        return options[min(self.cursor, len(options) - 1)] if options else None

    def selected_position(self) -> int | None:
        """The hand position the cursor points at (the card of the selected move), or None."""
        chosen = self.selected()
        if chosen is None:
            return None
        if self.picking:
            return min(self.cursor, len(self.hand) - 1)
        card = card_of(chosen)
        hand = [c.upper() for c in self.hand]
        return hand.index(card) if card in hand else None

    def move(self, step: int) -> None:
        options = self.choices()
        if options:
            self.cursor = (min(self.cursor, len(options) - 1) + step) % len(options)

    def home(self, last: bool = False) -> None:
        self.cursor = max(0, len(self.choices()) - 1) if last else 0

    def _keep_cursor(self, before: str | None) -> None:
        """After a new state, stay on the same move if it is still there, else go back to the first."""
        options, calls = self.choices(), self.calls()
        stops = [stop_of(c, calls) for c in options]
        if before is not None and stop_of(before, calls) in stops and not self.picking:
            self.cursor = stops.index(stop_of(before, calls))
        elif self.cursor >= len(options):
            self.cursor = 0

    def _first_choice(self, previous: dict[str, Any] | None) -> None:
        """Put the cursor where the game says a new question's safe answer is (Tiltowait: ``/draw`` or ``/keep``
        when an answer is asked of you, never a spell), so a habitual Enter spends nothing."""
        pick = client_part((self.state or {}).get("game"), "first_choice")
        chosen = pick(self.state, previous) if pick is not None and self.state is not None else None
        options = self.choices()
        if chosen in options:
            self.cursor = options.index(chosen)

    def toggle_mark(self) -> None:
        """Choose or unchoose the card under the cursor for a move of several cards (``picking``)."""
        position = self.selected_position()
        if not self.picking or position is None:
            return
        if position in self.marked:
            self.marked.remove(position)
        elif len(self.marked) < self.pick_count():
            self.marked.append(position)

    def game_over(self) -> bool:
        """The table's game has ended (its last state says so)."""
        state = self.state or {}
        return state.get("phase") == Phase.GAMEOVER or state.get("status") == "over"

    def enter_command(self) -> str | None:
        """What Enter on an empty input line sends: the selected move, or a move of several cards (``picking``)
        once enough cards are chosen. Nothing once the game is over: the habitual Enter that confirmed the last
        round started a new game; a new one is typed, ``/start``."""
        if self.game_over():
            return None
        verb = self.picking
        if verb:
            if len(self.marked) != self.pick_count():
                return None
            return " ".join([f"/{verb}", *(self.hand[i] for i in sorted(self.marked))])
        return self.selected()
