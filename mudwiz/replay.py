"""A recorded game as the frames an observer would have seen, every hand revealed: the engine replayed from the
record's seed, one frame after the deal and one after each recorded step (``/replay``, ``mudwiz export``).

Pure: a ``GameRecord`` in, frames out; no store, no table, no clock. The engine is replayed move by move with
``Game.step``, the same call ``Game.replay`` makes, so a frame's view is exactly the table the record's game had
after that step. The wire form (``replay_message``) and its inverse (``render.common.frame_view``) keep a long
game's message small: fields every frame of a message shares are sent once, and each score sheet is a prefix
of the message's last one.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from mudwiz.errors import BadCommand, MudwizError
from mudwiz.games import game_class
from mudwiz.games.base import Game
from mudwiz.slices import Work, finish
from mudwiz.store import GameRecord, iso_time
from mudwiz.texts import later, now

REPLAY_FRAMES = 100  # frames one JSON ``replay`` message carries at most
# ... and bytes: as many frames as fit in a line a client reading lines of up to 64 KiB (asyncio's default, the
# terminal client's) can take; always one frame, however big.
REPLAY_BYTES = 60_000
AROUND = 5  # moves listed before and after a message's frames


@dataclass(frozen=True)
class Frame:
    """One step of a replay: ``step`` 0 is the deal (no action); step N the table after the record's N-th action.
    ``player`` is who acted (None for the deal and for ``next``, the table ending a round's pause); ``events``
    every event whole, as the player it concerns saw it (hidden bids, passed and drawn cards shown); ``view``
    the ``Game.revealed_view`` after it: an observer's table with every hand in ``hands``."""

    step: int
    player: str | None
    action: str | None
    t: float
    events: list[dict[str, Any]]
    view: dict[str, Any]

    def to_dict(self) -> dict[str, Any]:
        return {"step": self.step, "player": self.player, "action": self.action, "t": self.t,
                "events": self.events, "view": self.view}


def engine(record: GameRecord) -> type[Game]:
    """The engine the record was played with; a game this server no longer has is refused in one line."""
    try:
        return game_class(record.game)
    except MudwizError:
        raise BadCommand(later('game {id} is {game!r}, which this server does not have',
                               id=record.id, game=record.game)) from None


def steps(record: GameRecord) -> int:
    """The last step of a replay: one per recorded action, the deal being step 0."""
    return len(record.actions)


def frames(record: GameRecord, first: int = 0, last: int | None = None) -> Iterator[Frame]:
    """The frames ``first`` to ``last`` (default: to the end), in order; the steps before ``first`` are applied
    without building views. A record its engine refuses (a damaged file) stops with a ``BadCommand``."""
    return (frame for frame in _walk(record, first, last) if frame is not None)


def _walk(record: GameRecord, first: int, last: int | None) -> Iterator[Frame | None]:
    """``frames``, with a None for each step before ``first``: a place where the work may stop a while."""
    last = steps(record) if last is None else min(last, steps(record))
    game = engine(record)(record.players, record.options, record.seed)
    if first <= 0:
        yield Frame(0, None, None, 0.0, [e.to_dict() for e in game.start_events], game.revealed_view())
    for number, entry in enumerate(record.actions[:last], 1):
        seat, action = entry["seat"], entry["action"]
        try:
            events = game.step(seat, action)
        except MudwizError as why:
            raise BadCommand(later('game {id} cannot be replayed past move {value}: {why}',
                                   id=record.id, value=number - 1, why=why)) from None
        if number >= first:
            player = None if seat is None else record.players[seat]
            yield Frame(number, player, action, entry["t"], [e.to_dict() for e in events], game.revealed_view())
        else:
            yield None


def moves(record: GameRecord, first: int = 1, last: int | None = None) -> list[dict[str, Any]]:
    """The recorded steps ``first`` .. ``last`` as the move list shows them: ``step``, ``player`` (None: the
    table went on), ``action`` and ``t``."""
    last = steps(record) if last is None else last
    return [{"step": n, "player": None if a["seat"] is None else record.players[a["seat"]], "action": a["action"],
             "t": a["t"]} for n, a in enumerate(record.actions, 1) if first <= n <= last]


def header(record: GameRecord) -> dict[str, Any]:
    """What a replay says about the game besides its frames: the record's fields but its actions, and its last
    step."""
    return {"id": record.id, "game": record.game, "date": iso_time(record.ended), "outcome": record.outcome,
            "options": record.options, "table_options": record.table_options, "seats": record.seats,
            "standings": record.standings, "steps": steps(record)}


def compact(views: list[dict[str, Any]]) -> tuple[dict[str, Any], list[dict[str, Any]], list[dict[str, Any]]]:
    """Views as the wire sends them: (``common``, the fields every view shares; ``sheet``, the last view's score
    sheet; each view's other fields, its ``sheet`` a count of that sheet's first entries where it is a prefix)."""
    if not views:
        return {}, [], []
    sheet = views[-1].get("sheet") or []
    common = {k: v for k, v in views[0].items() if k != "sheet" and all(k in w and w[k] == v for w in views)}
    rest = []
    for view in views:
        own = {k: v for k, v in view.items() if k not in common}
        if "sheet" in own and own["sheet"] == sheet[:len(own["sheet"])]:
            own["sheet"] = len(own["sheet"])
        rest.append(own)
    return common, sheet, rest


def replay_message(record: GameRecord, first: int = 0, count: int = REPLAY_FRAMES,
                   budget: int = REPLAY_BYTES) -> dict[str, Any]:
    """The ``replay`` message (docs/protocol.md): the game's header and frames ``first`` .. ``first+count-1``
    (fewer at the end, or as many as fit ``budget`` bytes of JSON), in the compact form that
    ``render.common.frame_view`` undoes."""
    return finish(building(record, first, count, budget))


def building(record: GameRecord, first: int = 0, count: int = REPLAY_FRAMES,
             budget: int = REPLAY_BYTES) -> Work[dict[str, Any]]:
    """``replay_message`` as work in pieces (mudwiz/slices.py), one a step of the game: a long game's replay is
    made without holding the server up."""
    if not 0 <= first <= steps(record):
        raise BadCommand(bad_step(record, first))
    shown = []
    for frame in _walk(record, first, first + count - 1):
        if frame is not None:
            shown.append(frame)
        yield
    while True:
        message = _message(record, shown)
        size = len(json.dumps(message, ensure_ascii=False, separators=(",", ":")).encode())
        if size <= budget or len(shown) == 1:
            return message
        shown = shown[:max(1, min(len(shown) - 1, len(shown) * budget // size))]
        yield


def _message(record: GameRecord, shown: list[Frame]) -> dict[str, Any]:
    common, sheet, views = compact([f.view for f in shown])
    return {"type": "replay", **header(record), "first": shown[0].step, "common": common, "sheet": sheet,
            "frames": [{**f.to_dict(), "view": v} for f, v in zip(shown, views, strict=True)],
            "moves": moves(record, shown[0].step - AROUND, shown[-1].step + AROUND)}


def bad_step(record: GameRecord, step: int) -> str:
    """The one-line refusal of a step the game does not have, with the steps it has."""
    return (now('game {id} has no move {step}: its steps are 0 (the deal) to {steps}; /replay {id} STEP',
                id=record.id, step=step, steps=steps(record)))

