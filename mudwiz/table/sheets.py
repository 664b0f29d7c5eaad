"""The score sheet sent once: a state leaves out the sheet a viewer was last sent, and a JSON reader is sent only
the rows it lacks. The sheet changes once a round, was most of every state's bytes and encoding time, and the whole
of it at every round's end made round ends grow dearer with every round. It is sent whole with the game's first
state, a redraw (``look``: ``/look``, sitting down, watching) and to a new viewer; a state without ``sheet`` means
"as before", ``sheet_add`` "as before and these rows" (docs/protocol.md). What a viewer has is
``Session.sheet_sent``."""

from __future__ import annotations

from typing import Any

from mudwiz.session import Session


def sheet_once(session: Session, message: dict[str, Any], look: bool, table_id: int, games_played: int) -> None:
    """Take out of a state ``message`` for ``session`` the sheet, or the rows of it, they have already."""
    if "sheet" not in message:
        return
    sheet: list[dict[str, Any]] = message["sheet"]
    start = sheet_from(session, sheet, look, table_id, games_played)
    if start >= 0:
        del message["sheet"]
        if start < len(sheet):
            message["sheet_add"] = sheet[start:]


def sheet_from(session: Session, sheet: list[dict[str, Any]], look: bool, table_id: int, games_played: int) -> int:
    """From which row ``session`` is to be sent ``sheet`` of the table's game (``games_played``): -1 the whole sheet,
    its length none of it, else the rows from there on (to a JSON reader only: a terminal's renderer draws the
    sheet a state carries, whole); taken as sent."""
    had = session.sheet_sent
    rows, json = len(sheet), session.mode == "json"
    if look or had is None or had[0] != table_id or had[1] != games_played or had[2] > rows \
            or (had[2] < rows and not (json and had[3])):  # rows are added only to a sheet sent as JSON
        session.sheet_sent = (table_id, games_played, rows, json)
        return -1
    # held as JSON still only if it was and no /mode since
    session.sheet_sent = (table_id, games_played, rows, json and had[3])
    return had[2]
