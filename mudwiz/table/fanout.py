"""What each viewer of a table is sent: the engine's events as that viewer may see them (``visible_to``), a
fresh ``state`` whenever their view may have changed, the table's notices and its chat."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from mudwiz.games.base import Event, TimedReveal
from mudwiz.session import Session
from mudwiz.table.botseat import is_stand_in

if TYPE_CHECKING:
    from mudwiz.table.core import Table


def _fields(event: Event) -> dict[str, Any]:
    data = event.to_dict()
    data.pop("type")
    return data


class FanOut:
    """Turns the table's news into protocol messages, one viewer at a time; it decides nothing about the game."""

    def __init__(self, table: Table) -> None:
        self.table = table

    def events(self, events: list[Event]) -> None:
        """Each event to each viewer as they may see it (observers as None); a timed reveal is ended for those
        who saw it, after its seconds."""
        table = self.table
        for viewer in table.roster.viewers():
            for event in events:
                seen = event.visible_to(viewer.name if viewer in table.seats else None)
                if seen is None:
                    continue
                viewer.deliver({"type": seen.type, "table": table.id, "game": table.name, **_fields(seen)}, seen)
                if isinstance(seen, TimedReveal) and seen.reveal_seconds > 0:
                    ended = {"type": "reveal_end", "table": table.id, "game": table.name,
                             "player": seen.revealed_player}
                    table.timers.reveal_ends(seen.reveal_seconds, self._end_reveal, viewer, ended)

    def _end_reveal(self, viewer: Session, message: dict[str, Any]) -> None:
        """The glimpse is over: say so, and draw the table again, so a line terminal's last screen no longer
        shows the opened hand."""
        viewer.deliver(message)
        if viewer.table is self.table and viewer.connected and not viewer.is_bot:
            self.send_state(viewer, look=True)

    def announce(self, text: str, exclude: Session | None = None) -> None:
        for s in self.table.roster.viewers():
            if not s.is_bot and s is not exclude:
                s.notice(text)

    def chat(self, session: Session, text: str) -> None:
        message = {"type": "chat", "from": session.name, "channel": f"table {self.table.id}", "text": text}
        for s in self.table.roster.viewers():
            s.deliver(message)

    # ------------------------------------------------------------ states

    def state_for(self, session: Session) -> dict[str, Any]:
        table = self.table
        seat = table.roster.own_seat(session)
        base: dict[str, Any] = {
            "type": "state",
            "table": table.id,
            "host": table.host,
            "status": table.status,
            "observer": seat is None,
            "observers": [o.name for o in table.observers],
        }
        if table.game is None:
            return {**base, **self._before_the_game(session, seated=seat is not None)}
        return {**base, **self._in_the_game(session)}

    def _before_the_game(self, session: Session, seated: bool) -> dict[str, Any]:
        """A waiting table's state: the seats so far, the options, and ``/start`` for a host who may."""
        table = self.table
        can_start = table.is_host(session) and len(table.seats) >= table.game_class.min_players
        return {
            "game": table.name,
            "phase": "waiting",
            "round": 0,
            "rounds": None,
            "dealer": None,
            "turn": None,
            "waiting": [],
            "you": session.name if seated else None,
            "players": [{"name": s.name, "score": 0, "bot": s.is_bot} for s in table.seats],
            "hand": [],
            "trick": [],
            "trump": {"suit": None, "card": None},
            "options": table.current_options(),
            "table_options": table.table_options,
            "min_players": table.game_class.min_players,
            "max_players": table.game_class.max_players,
            "legal": ["/start"] if can_start else [],
        }

    def _in_the_game(self, session: Session) -> dict[str, Any]:
        """The engine's view from ``session``'s seat, with what only the table knows: who is a bot, who is away
        and for how long, who has confirmed, and the table's own moves (``/ok``, ``/start``)."""
        table = self.table
        assert table.game is not None
        seat = self.game_seat(session)
        view = table.game.view(seat)
        legal = [f"/{a}" for a in view["legal"]] if table.in_game else []
        confirmed = table.rounds.confirmed
        confirming = table.in_game and table.game.phase == "roundend" and session.name not in confirmed
        if seat is not None and confirming:
            legal.append("/ok")
        if seat is not None and not table.in_game and table.is_host(session):
            legal.append("/start")
        for p in view["players"]:
            holder = table.seated(p["name"])  # None once they left a finished game
            p["bot"] = holder is not None and holder.is_bot
            p["away"] = holder is None or not holder.connected
            p["stand_in"] = is_stand_in(holder)
            until = table.away_until.get(p["name"].lower())
            if p["away"] and until is not None:
                p["away_for"] = max(0, round(until - table.clock.seconds()))
        return {**view, "legal": legal, "table_options": table.table_options, "confirmed": sorted(confirmed),
                "moves": len(table.game.log)}

    def game_seat(self, session: Session) -> int | None:
        """The engine's seat of ``session``, or None if it holds none. Found by name in the game's players: after
        a game ends, people leave and the table's seats shift, while the finished game's seats stay as dealt."""
        if self.table.game is None or self.table.roster.own_seat(session) is None:
            return None
        name = session.name.lower()
        return next((i for i, p in enumerate(self.table.game.players) if p.lower() == name), None)

    def send_state(self, session: Session, look: bool = False) -> None:
        message = self.state_for(session)
        if look:
            message["look"] = True
        session.deliver(message)

    def send_states(self, look: Session | None = None) -> None:
        """A fresh state to every connected viewer; ``look`` is the one who gets it as a full redraw."""
        for s in self.table.roster.viewers():
            if s.connected:
                self.send_state(s, look=s is look)
