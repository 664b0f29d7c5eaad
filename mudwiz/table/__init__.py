"""The table layer: a ``Table`` composed of parts with one job each (seating, options, timers, the bot driver,
the fan-out to viewers) and the session of a seated bot. Importers need only this package's names."""

from mudwiz.table.botdriver import REACTION_DELAY
from mudwiz.table.core import Table, TableServices
from mudwiz.table.journal import Journal
from mudwiz.table.options import TABLE_OPTIONS
from mudwiz.table.recording import Records
from mudwiz.table.timers import IDLE_CLOSE

__all__ = ["IDLE_CLOSE", "REACTION_DELAY", "Journal", "TABLE_OPTIONS", "Records", "Table", "TableServices"]
