"""Typed errors whose message is meant for the player who caused them.

Every layer raises one of these instead of a bare exception, so the network edge can answer any mistake
with one clear line and carry on: nothing a user types should ever tear a connection or a table down.
"""

from __future__ import annotations

from mudwiz.texts import later


class MudwizError(Exception):
    """Base class: ``str(error)`` is a one-line message fit to show the user; ``code``, where set, a short name for
    the refusal that a program reads (JSON mode's ``error`` carries it), whatever the language of the message."""

    code: str | None = None

    def coded(self, code: str) -> MudwizError:
        """This error with ``code``: ``raise BadCommand(...).coded("not-over")``."""
        self.code = code
        return self


class BadCommand(MudwizError):
    """The line could not be understood as a command (unknown verb, wrong arguments)."""


class BadOption(MudwizError):
    """A game or table option, or a combination of them, is not allowed."""


class IllegalAction(MudwizError):
    """A well-formed action that the rules do not allow now (a card not held, a revoke, a bid out of range)."""


class NotYourTurn(IllegalAction):
    """The seat has nothing to do at this moment."""


# The answer to a command that needs the store while it does not answer (a PostgreSQL restart): one line, and
# the log one line too (the store's reason), not a traceback
STORE_AWAY = later("the game database is not answering now; try again in a minute")
