"""What the cluster needs of the layers above it, named here so that it imports none of them: the lobby it
serves (``Home``, which ``mudwiz.lobby.Lobby`` is as it stands) and what the commands, the connection and the
restore do for it (``Upper``), handed in at startup (mudwiz/directories.py). The lobby stands on the cluster's
work through its ``Directory``; the cluster stands on nothing above it."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from mudwiz.routes import Route

if TYPE_CHECKING:
    from twisted.internet.interfaces import IDelayedCall

    from mudwiz.cluster.seeks import Books, Seekers
    from mudwiz.session import Session
    from mudwiz.store import GameRecord, JournaledTable, Store
    from mudwiz.table import Journal, Records, Table


class Bans(Protocol):
    """The sysops' bans, as another node's ban reaches this one."""

    def drop_banned(self, kind: str, target: str, text: str, by: str, until: float | None) -> Any: ...


class Talker(Protocol):
    """The lobby's talk (channels, shouts, away marks), as another node's reaches this one (talk.py)."""

    def heard(self, message: dict[str, Any]) -> None: ...

    def snapshot(self) -> dict[str, Any]: ...

    def forget(self, names: list[str]) -> None: ...


class Home(Protocol):
    """This process's lobby, as the cluster's parts read and change it."""

    @property
    def users(self) -> dict[str, Session]: ...

    @property
    def tables(self) -> dict[int, Table]: ...

    @property
    def away(self) -> dict[str, tuple[Table, IDelayedCall]]: ...

    @property
    def resume_codes(self) -> dict[str, str]: ...

    @property
    def journal(self) -> Journal | None: ...

    @property
    def records(self) -> Records | None: ...

    @property
    def sysops(self) -> Bans | None: ...

    @property
    def talk(self) -> Talker: ...

    def in_lobby(self) -> list[Session]: ...

    def where(self, session: Session) -> str: ...

    def shown_rating(self, session: Session) -> dict[str, Any]: ...

    def resume_code(self, session: Session) -> str | None: ...

    def drop_from_table(self, session: Session) -> None: ...

    def watch_again(self, session: Session) -> bool: ...

    @property
    def seeking(self) -> Seekers: ...

    @property
    def tournaments(self) -> Books: ...


@dataclass(frozen=True)
class Upper:
    """What the layers above do for the cluster, handed in at startup: a visitor's line run as a local user's
    (``dispatch``, ``commands.dispatch`` on this lobby) and the hint added to its error (``hint``), where a
    verb is carried out for a visitor (``route``: the registry's, None for a game's verb), and journaled tables
    rebuilt in the lobby (``restore``, from the records ``read_held`` reads)."""

    dispatch: Callable[[Session, str], Any]
    hint: Callable[[Session, str], str]
    route: Callable[[str], Route | None]
    restore: Callable[[list[JournaledTable], list[GameRecord]], list[Table]]
    read_held: Callable[[Store, str], list[GameRecord]]
