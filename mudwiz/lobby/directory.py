"""What the lobby asks of the rest of the server: who is online elsewhere, the tables and kept seats elsewhere,
and what it tells them. One interface (``Directory``) with two implementations, chosen once at startup: this
module's ``Local`` for a server of one process (nobody is elsewhere), and a cluster node's (mudwiz/cluster/
directory.py). The lobby asks the same questions either way, so it has no branch of its own for the cluster.

Twisted's way: the interface lives with its user, below it; the cluster implements it and names nothing above.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from mudwiz.texts import Later

if TYPE_CHECKING:
    from twisted.internet.defer import Deferred

    from mudwiz.errors import MudwizError
    from mudwiz.session import Session
    from mudwiz.table import Table

Row = dict[str, Any]  # a /who row: name, where, rating, rating_game


@dataclass(frozen=True)
class Held:
    """A seat another process keeps for a name: who, how a guest proves it (None: an account's password), where."""

    spelling: str
    code_hash: str | None
    node: str
    table: int


class Directory(Protocol):
    """The rest of the server, as this process's lobby and connections see it."""

    # ------------------------------------------------------------ users elsewhere

    def online(self, name: str) -> bool:
        """Whether ``name`` (any case) is online on another process."""

    def names(self) -> set[str]:
        """The lower-cased names of the users of the other processes."""

    def count(self) -> int:
        """How many are online on the other processes."""

    def user(self, name: str) -> Session | None:
        """The user called ``name`` on another process, as a session whose messages and ``close`` go there."""

    def where(self, name: str) -> str | None:
        """Where ``name`` (online on another process) is, as /who says it (``table 7``); None: not online there."""

    def who(self, here: list[Row], start: str, limit: int | None) -> list[Row]:
        """This process's /who page ``here`` with the other processes' users merged in, in name order."""

    def user_on(self, session: Session) -> None:
        """``session`` logged in here: the others are told, and told again whenever it moves."""

    def user_off(self, session: Session, kept: Table | None) -> None:
        """``session`` left: the others are told, after ``kept`` (this process's table that keeps its seat, if
        any) so the seat reaches them before the news, or the name is anyone's there for a moment."""

    def chat(self, message: dict[str, Any]) -> None:
        """A line of lobby chat said here, for the other processes' lobbies."""

    def notice(self, text: str | Later) -> None:
        """A lobby notice said here, for the other processes' lobbies."""

    def announce(self, message: dict[str, Any]) -> None:
        """A sysop's announcement, for the users of the other processes."""

    def talk(self, message: dict[str, Any]) -> None:
        """A change the talk made here (a channel joined, left, spoken on or moderated; a shout; an away mark;
        ``what`` says which: mudwiz/lobby/talk.py), for the other processes' talk to hear."""

    def ban_address(self, address: str, text: str | Later, by: str, until: float | None) -> bool:
        """A sysop banned ``address`` here: the others close their connections from it. False: there are none."""

    # ------------------------------------------------------------ tables and seats elsewhere

    def held(self, name: str) -> Held | None:
        """The seat another process keeps for ``name``, if any."""

    def code_matches(self, name: str, code: str) -> bool:
        """Whether ``code`` is the resume code of the guest whose seat another process keeps."""

    def reattach(self, session: Session) -> None:
        """At login: the seat another process keeps for this (proven) name is asked for."""

    def dropped(self, session: Session) -> None:
        """``session``'s connection is gone: a table another process hosts keeps their seat as for its own."""

    def new_table_id(self, here: int) -> int:
        """The number of a table opened now; ``here`` is the next this process would give on its own."""

    def summaries(self, here: Iterable[Table]) -> list[dict[str, Any]]:
        """Every table of the server as ``/tables`` lists them, ``here`` this process's own, by number."""

    def forward(self, session: Session, text: str, ok: Callable[[Any], None],
                error: Callable[[MudwizError], None]) -> bool:
        """Send a line for a table another process hosts there; False when it is for this process."""

    # ------------------------------------------------------------ the seek book (mudwiz/lobby/seeking.py)

    def seek_book(self) -> str | None:
        """The process that holds the seek book when it is another one; None: this one."""

    def ask_seeks(self, node: str, session: Session, verb: str, args: dict[str, Any],
                  desk: str = "seeks") -> Deferred[dict[str, Any]]:
        """A seek command of ``session``'s for the book on ``node``: its answer, as the desk there gave it
        (``desk``: ``tournaments`` for a tournament command, run on that process too: tournament_desk.py)."""

    def to_seeker(self, name: str, message: dict[str, Any]) -> bool:
        """A match's word (``op`` ``seek_make`` or ``seek_seat``) for the process ``name`` is on; False: on none
        other."""


class Local:
    """A server of one process: nobody and nothing is elsewhere, and its tables are numbered from 1."""

    def online(self, name: str) -> bool:
        return False

    def names(self) -> set[str]:
        return set()

    def count(self) -> int:
        return 0

    def user(self, name: str) -> Session | None:
        return None

    def where(self, name: str) -> str | None:
        return None

    def who(self, here: list[Row], start: str, limit: int | None) -> list[Row]:
        return here

    def user_on(self, session: Session) -> None:
        pass

    def user_off(self, session: Session, kept: Table | None) -> None:
        pass

    def chat(self, message: dict[str, Any]) -> None:
        pass

    def notice(self, text: str | Later) -> None:
        pass

    def announce(self, message: dict[str, Any]) -> None:
        pass

    def talk(self, message: dict[str, Any]) -> None:
        pass

    def ban_address(self, address: str, text: str | Later, by: str, until: float | None) -> bool:
        return False

    def held(self, name: str) -> Held | None:
        return None

    def code_matches(self, name: str, code: str) -> bool:
        return False

    def reattach(self, session: Session) -> None:
        pass

    def dropped(self, session: Session) -> None:
        pass

    def new_table_id(self, here: int) -> int:
        return here

    def summaries(self, here: Iterable[Table]) -> list[dict[str, Any]]:
        return [t.summary() for t in here]

    def forward(self, session: Session, text: str, ok: Callable[[Any], None],
                error: Callable[[MudwizError], None]) -> bool:
        return False

    def seek_book(self) -> str | None:
        return None

    def ask_seeks(self, node: str, session: Session, verb: str, args: dict[str, Any],
                  desk: str = "seeks") -> Deferred[dict[str, Any]]:
        raise AssertionError("one process holds its own seek book")

    def to_seeker(self, name: str, message: dict[str, Any]) -> bool:
        return False
