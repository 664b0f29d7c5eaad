"""The table layer: a ``Table`` composed of parts with one job each (seating, options, timers, the bot driver,
the fan-out to viewers) and the session of a seated bot. Importers need only this package's names."""

from typing import cast

from mudwiz.session import Session
from mudwiz.table.botdriver import REACTION_DELAY
from mudwiz.table.core import Table, TableServices
from mudwiz.table.journal import Journal
from mudwiz.table.options import TABLE_OPTIONS
from mudwiz.table.recording import Records
from mudwiz.table.timers import IDLE_CLOSE

__all__ = ["IDLE_CLOSE", "REACTION_DELAY", "Journal", "TABLE_OPTIONS", "Records", "Table", "TableServices", "table_of"]


def table_of(session: Session) -> Table | None:
    """The table ``session`` is at, typed as the table it is: ``Session.table`` is typed by the little the session's
    layer declares of it (``Place``), since the session may not import the table layer that stands on it."""
    return cast("Table | None", session.table)
