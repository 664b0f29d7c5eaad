"""What the lobby and a connection ask of the cluster's tables part (mudwiz/cluster/tables.py), in a module of its
own that imports nothing above the session: the lobby names it without tying itself to the commands and the
connection, which the tables part runs for its visitors."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from mudwiz.errors import MudwizError
    from mudwiz.session import Session
    from mudwiz.table import Table


@dataclass(frozen=True)
class Held:
    """A seat another process keeps for a name: who, how a guest proves it (None: an account's password), where."""

    spelling: str
    code_hash: str | None
    node: str
    table: int


class RemoteTables(Protocol):
    """The other processes' tables and the seats they keep, as this process's lobby and connections see them."""

    def held(self, name: str) -> Held | None:
        """The seat another process keeps for ``name``, if any."""

    def code_matches(self, name: str, code: str) -> bool:
        """Whether ``code`` is the resume code of the guest whose seat another process keeps."""

    def reattach(self, session: Session) -> None:
        """At login: the seat another process keeps for this (proven) name is asked for."""

    def dropped(self, session: Session) -> None:
        """A user at another process's table lost their connection."""

    def publish_table(self, table: Table) -> None:
        """Tell the other processes of this process's ``table`` now, if it changed."""

    def new_table_id(self) -> int:
        """A table number no other process gives."""

    def summaries(self) -> list[dict[str, Any]]:
        """Every table of the server, as ``/tables`` lists them."""

    def forward(self, session: Session, text: str, ok: Callable[[Any], None],
                error: Callable[[MudwizError], None]) -> bool:
        """Send a line for a table another process hosts there; False when it is for this process."""
