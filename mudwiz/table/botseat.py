"""A seat held by a computer: the table's session for a bot. It lives in the table layer so that ``mudwiz.bots``
holds pure policies (a view in, an action out) and knows nothing of sessions or tables."""

from __future__ import annotations

import itertools
import random
from typing import Any

from mypy_extensions import mypyc_attr

from mudwiz.bots import make_policy
from mudwiz.session import Session

_tokens = itertools.count(1)


@mypyc_attr(allow_interpreted_subclasses=True)
class BotSession(Session):
    """A seat held by a computer: it receives messages like anyone and ignores them; the table asks it to move.

    ``stand_in`` marks a bot holding the seat of a person who left or dropped: that person may take it back.
    """

    is_bot = True

    def __init__(self, name: str, level: str = "random", game: str = "", seed: int | None = None,
                 stand_in: bool = True) -> None:
        super().__init__(name, mode="json")
        self.level = level
        self.game = game
        self.seed = seed
        self.stand_in = stand_in
        self.token = next(_tokens)  # this bot among all of the server's, for thinking done in another process
        self.rng = random.Random(seed)
        self.policy = make_policy(level, game, self.rng)

    def deliver(self, message: dict[str, Any], event: Any = None) -> None:
        """Bots decide from the view the table hands them when it is their turn; messages need no answer."""

    def choose(self, view: dict[str, Any]) -> str | None:
        return self.policy.choose(view)


def is_stand_in(session: Session | None) -> bool:
    """Whether ``session`` is a bot keeping a person's seat (not one the host added with /bot add)."""
    return isinstance(session, BotSession) and session.stand_in


def seat_kind(session: Session) -> str:
    """``person``, ``stand-in`` (a bot playing a person's seat) or ``bot:LEVEL`` (a bot the host seated)."""
    if is_stand_in(session):
        return "stand-in"
    if isinstance(session, BotSession):
        return f"bot:{session.level}"
    return "person"
