"""What each viewer of a table is sent: the engine's events as that viewer may see them (``visible_to``), a
fresh ``state`` whenever their view may have changed, the table's notices and its chat."""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from mudwiz.games.base import Event, Game, TimedReveal
from mudwiz.ratings import RatingBoard
from mudwiz.render import jsonl
from mudwiz.session import Session
from mudwiz.table.players import Players
from mudwiz.table.sheets import sheet_from, sheet_once
from mudwiz.table.state import TableState
from mudwiz.texts import Later


def _fields(event: Event) -> dict[str, Any]:
    data = event.to_dict()
    data.pop("type")
    return data


def _fresh(shared: dict[str, Any]) -> dict[str, Any]:
    """A copy of the shared part of a state's views, with copies of its players' entries (``FanOut._split``)."""
    copied = dict(shared)
    players = copied.get("players")
    if isinstance(players, list):
        copied["players"] = [dict(p) for p in players]
    return copied


def _timed(event: object) -> Any:
    """``event`` if it opens cards for a while (a ``TimedReveal``), else None. Asked of its class's bases, not with
    ``isinstance``: mypyc (mudwiz/compiled.py) decides ``isinstance(x, TimedReveal)`` is False at compile time,
    and ``Any`` is returned for the same reason (a ``TimedReveal`` in the types would be checked again that way)."""
    if TimedReveal in type(event).__mro__ and getattr(event, "reveal_seconds") > 0:  # noqa: B009
        return event
    return None


class FanOut:
    """Turns the table's news into protocol messages, one viewer at a time; it decides nothing about the game."""

    def __init__(self, table: TableState, board: RatingBoard | None) -> None:
        """``board``: the ratings shown with each player (None: a server that keeps no records)."""
        self.table = table
        self.players = Players(table, board)
        # the game's seats by lower-cased player name, for the game they were worked out for: a game's players
        # never change, and every viewer's seat is looked up in them on every move
        self._seats_of: tuple[Game | None, dict[str, int]] = (None, {})
        # the states of JSON readers, encoded from the split views (``_send_texts``)
        self._texts = jsonl.SplitStates()
        # the views of a round's end as ``_split`` keeps them: the game, its move count and options then, the part
        # all views share and each seat's own part (by seat, None an observer's), as the engine split them
        self._round_end: tuple[Game, int, dict[str, Any], dict[str, Any], dict[int | None, dict[str, Any]]] | None \
            = None
        # the alike fields of those views encoded (``_body``): the kept views, the ``who_is_who`` and table options
        # they were encoded with, and the text
        self._round_end_body: tuple[object, object, dict[str, Any], str] | None = None

    def events(self, events: list[Event]) -> None:
        """Each event to each viewer as they may see it (observers as None); a timed reveal is ended for those
        who saw it, after its seconds."""
        table = self.table
        # id of an event as seen -> the event (held, so that its id is not reused by another one's as seen while
        # this loop runs), its message, built once for all, and itself again if it opens cards for a while
        messages: dict[int, tuple[Event, dict[str, Any], Any]] = {}  # the last: ``_timed``'s
        seats = table.roster.seats
        for viewer in table.roster.viewers():
            if viewer.is_bot:  # a bot reads its view when it is to move, never its messages
                continue
            for event in events:
                seen = event.visible_to(viewer.name if viewer in seats else None)
                if seen is None:
                    continue
                built = messages.get(id(seen))
                if built is None:
                    built = messages[id(seen)] = (
                        seen, jsonl.Shared({"type": seen.type, "table": table.id, "game": table.name, **_fields(seen)}),
                        _timed(seen))
                viewer.deliver(built[1], seen)
                if built[2] is not None:
                    self._time_reveal(viewer, built[2])

    def _time_reveal(self, viewer: Session, seen: Any) -> None:
        """``seen``: a ``TimedReveal`` (typed ``Any``: see ``_timed``)."""
        table = self.table
        ended = {"type": "reveal_end", "table": table.id, "game": table.name, "player": seen.revealed_player}
        table.timers.reveal_ends(seen.reveal_seconds, self._end_reveal, viewer, ended)

    def _end_reveal(self, viewer: Session, message: dict[str, Any]) -> None:
        """The glimpse is over: say so, and draw the table again, so a line terminal's last screen no longer
        shows the opened hand."""
        viewer.deliver(message)
        if viewer.table is self.table and viewer.connected and not viewer.is_bot:
            self.send_state(viewer, look=True)

    def announce(self, text: str | Later, exclude: Session | None = None) -> None:
        for s in self.table.roster.viewers():
            if not s.is_bot and s is not exclude:
                s.notice(text)

    def chat(self, session: Session, text: str) -> None:
        message = {"type": "chat", "from": session.name, "channel": f"table {self.table.id}", "text": text}
        for s in self.table.roster.viewers():
            s.deliver(message)

    # ------------------------------------------------------------ states

    def state_for(self, session: Session, people: dict[str, dict[str, Any]] | None = None) -> dict[str, Any]:
        """``session``'s state; ``people`` (``who_is_who``) when the caller sends many states of one update."""
        table = self.table
        seated = table.roster.own_seat(session) is not None
        if table.game is None:
            return {**self._alike()["heads"][seated], **self._before_the_game(session, seated=seated)}
        seat, alike = self._game_seat(session, seated), self._alike()
        return self._in_the_game(session, seat, table.game.views([seat], [alike["heads"][seated]])[0],
                                 people or self.players.who_is_who(), alike)

    def _alike(self) -> dict[str, Any]:
        """What every viewer's state of one update has alike, besides the engine's shared view: worked out once."""
        table = self.table
        game = table.game
        status = table.status
        # a state's first fields, the table's: the same for every viewer but ``observer``, so made for each value
        head = {"type": "state", "table": table.id, "host": table.roster.host, "status": status, "observer": True,
                "observers": [o.name for o in table.roster.observers]}
        return {"heads": (head, {**head, "observer": False}), "in_game": status == "playing",
                "confirmed": sorted(table.confirmed),
                "roundend": game is not None and game.phase == "roundend", "moves": len(game.log) if game else 0,
                "table_options": table.table_options, "merged": {}}

    def _before_the_game(self, session: Session, seated: bool) -> dict[str, Any]:
        """A waiting table's state: the seats so far, the options, and ``/start`` for a host who may."""
        table = self.table
        can_start = table.roster.is_host(session) and table.can_start()
        return {
            "game": table.name,
            "phase": "waiting",
            "round": 0,
            "rounds": None,
            "dealer": None,
            "turn": None,
            "waiting": [],
            "you": session.name if seated else None,
            "players": [{"name": s.name, "score": 0, "bot": s.is_bot, "rating": self.rating(s.name, s)}
                        for s in table.seats],
            "hand": [],
            "trick": [],
            **table.game_class.waiting_view(),
            "options": table.current_options(),
            "table_options": table.table_options,
            "min_players": table.game_class.min_players,
            "max_players": table.game_class.max_players,
            "legal": ["/start"] if can_start else [],
        }

    def _in_the_game(self, session: Session, seat: int | None, view: dict[str, Any],
                     people: dict[str, dict[str, Any]], alike: dict[str, Any]) -> dict[str, Any]:
        """The engine's ``view`` from ``session``'s seat, made with the state's head first (``Game.views``'
        ``first``), completed with what only the table knows: who is a bot, who is away and for how long, who
        has confirmed, and the table's own moves (``/ok``, ``/start``)."""
        view["legal"] = self._legal(session, seat, view["legal"], alike)
        self._table_fields(view, people, alike)
        return view

    def _legal(self, session: Session, seat: int | None, moves: list[str], alike: dict[str, Any]) -> list[str]:
        """A state's ``legal``: the engine's moves as commands, and the table's own (``/ok``, ``/start``)."""
        table = self.table
        in_game = alike["in_game"]
        legal = [f"/{a}" for a in moves] if in_game else []
        if seat is not None and in_game and alike["roundend"] and session.name not in table.confirmed:
            legal.append("/ok")
        if seat is not None and not table.in_game and table.roster.is_host(session) and table.can_start():
            legal.append("/start")
        return legal

    @staticmethod
    def _table_fields(fields: dict[str, Any], people: dict[str, dict[str, Any]], alike: dict[str, Any],
                      confirmed: bool = True) -> None:
        """What only the table knows, the same for every viewer, put into a view (or the part all views share):
        each player's ``who_is_who`` entry (once a list of players: the engine may share one list among the views
        of an update), the table's options, who has confirmed (unless ``confirmed`` is False: the caller adds
        it), its moves."""
        # typed, so that a compiled build (mudwiz/compiled.py) updates the dicts and lower-cases the names in C
        # rather than by Python method calls: this ran on every update
        players: list[dict[str, Any]] = fields["players"]
        merged: dict[int, list[dict[str, Any]]] = alike["merged"]
        if id(players) not in merged:
            # the list is held with its id: an id is another's once its object is gone (a state sent and freed),
            # and a later list of the update that took it would go without the table's fields
            merged[id(players)] = players
            for p in players:
                name: str = p["name"]
                p.update(people[name.lower()])
        fields["table_options"] = alike["table_options"]
        if confirmed:
            fields["confirmed"] = alike["confirmed"]
        fields["moves"] = alike["moves"]

    def rating(self, name: str, holder: Session | None) -> int | None:
        return self.players.rating(name, holder)

    def game_seat(self, session: Session) -> int | None:
        """The engine's seat of ``session``, or None if it holds none. Found by name in the game's players: after
        a game ends, people leave and the table's seats shift, while the finished game's seats stay as dealt."""
        return self._game_seat(session, self.table.roster.own_seat(session) is not None)

    def _game_seat(self, session: Session, seated: bool) -> int | None:
        game = self.table.game
        if game is None or not seated:
            return None
        known, seats = self._seats_of
        if known is not game:
            seats = {}
            for i, p in enumerate(game.players):
                seats.setdefault(p.lower(), i)
            self._seats_of = (game, seats)
        return seats.get(session.name.lower())

    def send_state(self, session: Session, look: bool = False,
                   people: dict[str, dict[str, Any]] | None = None) -> None:
        """``session``'s state (``state_for``); encoded here from the split views (``_send_texts``) for a viewer
        that reads JSON text, as a round's end sends each ``/ok``'s confirmer theirs from the views it keeps."""
        if self.table.game is not None and session.wants_text():
            people = people or self.players.who_is_who()
            if self._send_texts([session], session if look else None, people, self._alike()):
                return
        self._deliver_state(session, self.state_for(session, people), look)

    def _deliver_state(self, session: Session, message: dict[str, Any], look: bool) -> None:
        if look:
            message["look"] = True
        table = self.table
        if table.game is not None:
            sheet_once(session, message, look, table.id, table.games_played)
        session.deliver(message)

    def send_states(self, look: Session | None = None, skip: Collection[str] = ()) -> None:
        """A fresh state to every connected person watching or seated but those named in ``skip`` (sent theirs
        already); ``look`` is the one who gets it as a full redraw. Bots get none: they are handed their view when
        it is their move. In a game, the engine builds every viewer's view at once, sharing what they see alike
        (``Game.views``)."""
        table = self.table
        viewers = [s for s in table.roster.viewers() if s.connected and not s.is_bot and s.name not in skip]
        if not viewers:
            return
        if table.game is None:
            for s in viewers:
                self.send_state(s, look=s is look)
            return
        people, alike = self.players.who_is_who(), self._alike()
        texts: list[Session] = []
        others: list[Session] = []
        for s in viewers:
            (texts if s.wants_text() else others).append(s)
        if texts and self._send_texts(texts, look, people, alike):
            viewers = others
        if not viewers:
            return
        seated, in_game = self._viewer_seats(viewers)
        heads = [alike["heads"][at] for at in seated]
        for s, seat, view in zip(viewers, in_game, table.game.views(in_game, heads), strict=True):
            self._deliver_state(s, self._in_the_game(s, seat, view, people, alike), look=s is look)

    def _viewer_seats(self, viewers: list[Session]) -> tuple[list[bool], list[int | None]]:
        """Whether each viewer holds a seat, by identity (``own_seat``: not a seat kept under their name for
        another session), and their seat in the game (``_game_seat``)."""
        seats = self.table.roster.seats
        seated = [s in seats for s in viewers]
        # by index, not ``zip(..., strict=True)``: a compiled build calls the builtin with a keyword, a sixth of this
        return seated, [self._game_seat(viewers[i], seated[i]) for i in range(len(viewers))]

    def _split(self, game: Game, seats: list[int | None]) -> tuple[dict[str, Any], list[dict[str, Any]]] | None:
        """``game.split_views(seats)``, kept through a round's end: between its ``/ok``s nothing in the game
        changes (the table's move count, bumped by every change, says so; an option set meanwhile is looked at
        too), yet each ``/ok`` sends states, its confirmer's at once and the others' at the batch's end, and
        building the views again for each was most of a round end's cost. Hands out copies of the
        parts kept, which the caller changes (their lists and the players' entries are shared, as within one
        update). The players' entries are copied too: the table's fields are put into them (``_table_fields``),
        and one put in for a player away then (``away_for``) must not stay once they are back."""
        if game.phase != "roundend":
            self._round_end = None
            return game.split_views(seats)
        kept, moves = self._round_end, self.table.moves
        same = kept is not None and kept[0] is game and kept[1] == moves and kept[2] == game.options
        if kept is not None and same and all(seat in kept[4] for seat in seats):
            by_seat = kept[4]
            return _fresh(kept[3]), [dict(by_seat[seat]) for seat in seats]
        split = game.split_views(seats)
        if split is None:
            return None
        common, owns = split
        by_seat = kept[4] if kept is not None and same else {}  # a viewer's seat not kept yet: added to the rest
        for seat, own in zip(seats, owns, strict=True):
            by_seat[seat] = dict(own)
        self._round_end = (game, moves, dict(game.options), _fresh(common), by_seat)
        return split

    def _send_texts(self, viewers: list[Session], look: Session | None, people: dict[str, dict[str, Any]],
                    alike: dict[str, Any]) -> bool:
        """The states of viewers that read JSON lines and nothing else (``Session.wants_text``), made from the
        views as the engine's ``split_views`` splits them and encoded by the renderer (``jsonl.SplitStates``):
        the table's fields put into the part all views share, each viewer's own moves into their own part, the
        score sheet (or its new rows) only to those who have not had it (:mod:`.sheets`). The same fields as each
        one's whole state (``_in_the_game``). False, with nothing sent, for a game whose views cannot be split."""
        table = self.table
        game = table.game
        assert game is not None
        seated, in_game = self._viewer_seats(viewers)
        split = self._split(game, in_game)
        if split is None:
            return False
        common, owns = split
        sheet = common.pop("sheet")
        texts = self._texts
        texts.begin(alike["heads"], alike["confirmed"], sheet, self._body(game, common, people, alike))
        assert len(owns) == len(viewers)
        for i in range(len(viewers)):  # by index: see ``_viewer_seats``
            s, at, seat, own = viewers[i], seated[i], in_game[i], owns[i]
            own["legal"] = self._legal(s, seat, own["legal"], alike)
            s.deliver_text(texts.text(at, own, sheet_from(s, sheet, s is look, table.id, table.games_played)))
        return True

    def _body(self, game: Game, common: dict[str, Any], people: dict[str, dict[str, Any]],
              alike: dict[str, Any]) -> str:
        """The fields all of an update's states share but ``confirmed``, encoded, with the closing brace. At a
        round's end, as long as the views are kept (``_split``), the same players' fields (``who_is_who``'s
        very dict: it is made anew when anyone's changes) and the same table options, the text made for the
        round's last move: each ``/ok`` sends states, and only ``confirmed`` tells them apart."""
        kept, known = self._round_end, self._round_end_body
        at_round_end = game.phase == "roundend" and kept is not None
        if at_round_end and known is not None and known[0] is kept and known[1] is people \
                and known[2] == alike["table_options"]:
            return known[3]
        self._table_fields(common, people, alike, confirmed=False)
        text = jsonl.alike_text(common)
        self._round_end_body = (kept, people, alike["table_options"], text) if at_round_end else None
        return text
