"""Everyone must agree: the small state behind ``/again`` (a rematch of the same seats) and ``/adjourn``.

One agreement asks a fixed set of people (a table's seated people when it is proposed); each may agree or take
it back while it is open, it is done when all have agreed, and it is cancelled when one of them leaves. Each change
is an event carrying who has agreed and who is still awaited, so a table can show its people where it stands.
It knows nothing of tables or time, so the same state serves any "all of us" question a table asks.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum

from mudwiz.meeting.refused import Refused
from mudwiz.texts import N_, Later, later


class State(Enum):
    OPEN = "open"
    DONE = "done"
    CANCELLED = "called off"  # i18n: not text (a state's code: state_word says it; not "cancelled", a game's word)


@dataclass(frozen=True)
class Agreed:
    name: str
    agreed: tuple[str, ...]  # in the order asked, as spelled
    waiting: tuple[str, ...]


@dataclass(frozen=True)
class Withdrew:
    name: str
    agreed: tuple[str, ...]
    waiting: tuple[str, ...]


@dataclass(frozen=True)
class AllAgreed:
    agreed: tuple[str, ...]


@dataclass(frozen=True)
class Cancelled:
    by: str  # the one who left


AgreementEvent = Agreed | Withdrew | AllAgreed | Cancelled


class AgreementRefusal(Enum):
    NOBODY = N_("nobody to ask")
    NOT_ASKED = N_("{name} is not among those asked")
    ALREADY_AGREED = N_("{name} has already agreed")
    NOT_AGREED = N_("{name} has not agreed")
    CLOSED = N_("that is no longer open: it is {state}")


def state_word(state: State) -> Later:
    """A state as ``CLOSED`` says it."""
    if state is State.OPEN:
        return later("open")
    return later("done") if state is State.DONE else later("called off")


class AgreementRefused(Refused):
    reason: AgreementRefusal


class Agreement:
    """Whether everyone in ``asked`` (names in any case; the first spelling kept, in order) has agreed."""

    def __init__(self, asked: Iterable[str]) -> None:
        self._asked: dict[str, str] = {}
        for name in asked:
            self._asked.setdefault(name.lower(), name)
        if not self._asked:
            raise AgreementRefused(AgreementRefusal.NOBODY)
        self._agreed: set[str] = set()
        self.state = State.OPEN

    @classmethod
    def propose(cls, asked: Iterable[str], by: str) -> tuple[Agreement, list[AgreementEvent]]:
        """An agreement ``by`` (one of ``asked``) proposes, and so has agreed to already."""
        agreement = cls(asked)
        return agreement, agreement.agree(by)

    @property
    def asked(self) -> tuple[str, ...]:
        return tuple(self._asked.values())

    @property
    def agreed(self) -> tuple[str, ...]:
        return tuple(name for key, name in self._asked.items() if key in self._agreed)

    @property
    def waiting(self) -> tuple[str, ...]:
        return tuple(name for key, name in self._asked.items() if key not in self._agreed)

    def agree(self, name: str) -> list[AgreementEvent]:
        """``name`` agrees: ``Agreed``, then ``AllAgreed`` if they were the last awaited."""
        key = self._open_to(name)
        if key in self._agreed:
            raise AgreementRefused(AgreementRefusal.ALREADY_AGREED, name=self._asked[key])
        self._agreed.add(key)
        events: list[AgreementEvent] = [Agreed(self._asked[key], self.agreed, self.waiting)]
        if not self.waiting:
            self.state = State.DONE
            events.append(AllAgreed(self.agreed))
        return events

    def withdraw(self, name: str) -> Withdrew:
        """``name`` takes their agreement back; it stays open for the others."""
        key = self._open_to(name)
        if key not in self._agreed:
            raise AgreementRefused(AgreementRefusal.NOT_AGREED, name=self._asked[key])
        self._agreed.discard(key)
        return Withdrew(self._asked[key], self.agreed, self.waiting)

    def leave(self, name: str) -> list[AgreementEvent]:
        """``name`` left the table: if they were asked and it is open, it is cancelled; else nothing happens."""
        key = name.lower()
        if self.state is not State.OPEN or key not in self._asked:
            return []
        self.state = State.CANCELLED
        return [Cancelled(self._asked[key])]

    def _open_to(self, name: str) -> str:
        if self.state is not State.OPEN:
            raise AgreementRefused(AgreementRefusal.CLOSED, state=state_word(self.state))
        key = name.lower()
        if key not in self._asked:
            raise AgreementRefused(AgreementRefusal.NOT_ASKED, name=name)
        return key
