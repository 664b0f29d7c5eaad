"""The tournament commands' work: ``/tournament new``, ``join``, ``leave``, ``ID`` and ``/tournaments``, done where
the tournaments run. On a server of one process that is here; in a cluster it is the one process that holds the
seek book (every process works out which from the heartbeats: mudwiz/cluster/seeks.py), so a command typed on any
other process is carried there by the ``Directory`` and its answer brought back (``ask``), as a seek's is.

An answer is what the seek desk's is (mudwiz/lobby/seekdesk.py): ``{"ok": reply}``, ``{"deliver": message}`` or
``{"error": text}``; a game's result from a table on another process arrives as ``result``.
"""

from __future__ import annotations

from dataclasses import asdict
from typing import TYPE_CHECKING, Any, Protocol

from mudwiz.errors import BadCommand, BadOption, MudwizError
from mudwiz.games import available, game_class
from mudwiz.lobby.friends import kept
from mudwiz.lobby.seekdesk import Answer, answered, refusal
from mudwiz.meeting.swiss import standings
from mudwiz.meeting.tournament import Tournament, parse_rest
from mudwiz.numbers import whole_number
from mudwiz.session import Session
from mudwiz.slices import Reply
from mudwiz.table.options import TableOptions
from mudwiz.texts import Later, later, later_n

if TYPE_CHECKING:
    from twisted.internet.interfaces import IReactorTime

    from mudwiz.lobby.people import People
    from mudwiz.store import Store

MAX_ROUNDS = 20
USAGE = later("usage: /tournament new GAME swiss ROUNDS [size N] [OPTION ...] [start in MINUTES | start at HH:MM]")


def tournament_message(tournament: Tournament) -> dict[str, Any]:
    """What ``/tournament ID`` shows: the standings so far and the current round's tables."""
    rows = standings(tournament.entrants, tournament.results())
    current = tournament.tables[-1] if tournament.tables else []
    return {"type": "tournament", **{k: v for k, v in tournament.to_json().items() if k not in ("tables",)},
            "title": game_class(tournament.game).title,
            "table_rows": [{k: t[k] for k in ("table", "seats", "bots", "result")} for t in current],
            "standings": tournament.standings or [asdict(r) for r in rows]}


class Runner(Protocol):
    """What runs the tournaments (mudwiz/lobby/tournaments.py), as its desk uses it."""

    people: People
    clock: IReactorTime
    live: dict[int, Tournament]
    limit: int

    def may_open(self, session: Session) -> bool: ...

    def kept_store(self) -> Store: ...

    def opened(self, tournament: Tournament) -> None: ...

    def save(self, tournament: Tournament) -> None: ...

    def take_result(self, tid: int, table_id: int, result: dict[str, Any]) -> None: ...


class TournamentDesk:
    """The commands of ``runner``'s tournaments: asked here or carried to the process that runs them."""

    def __init__(self, runner: Runner) -> None:
        self.runner = runner

    # ------------------------------------------------------------ on the user's own process

    def ask(self, session: Session, verb: str, args: dict[str, Any]) -> Reply:
        """``session``'s command, done here or where the tournaments run, turned into their reply."""
        directory = self.runner.people.directory
        node = directory.seek_book()
        if node is None:
            return answered(session, self.do(session, verb, args))
        asked = directory.ask_seeks(node, session, verb, args, desk="tournaments")
        return asked.addCallback(lambda answer: answered(session, answer))

    # ------------------------------------------------------------ where the tournaments run

    def do(self, user: Session, verb: str, args: dict[str, Any]) -> Answer:
        """A command of ``user``'s (of this process or another), done: its answer, an error said in it."""
        try:
            if verb == "new":
                return {"ok": self.new(user, [str(w) for w in args["words"]])}
            if verb == "join":
                return {"ok": self.join(user, str(args["id"]))}
            if verb == "leave":
                return {"ok": self.leave(user, str(args["id"]))}
            if verb == "show":
                return {"deliver": tournament_message(self.find(str(args["id"])))}
            if verb == "list":
                return {"deliver": self.listing()}
            if verb == "result":
                self.runner.take_result(int(args["tournament"]), int(args["table"]), dict(args["result"]))
                return {}
            return {"error": later("no tournament command {verb}", verb=verb)}
        except MudwizError as why:
            return {"error": refusal(why)}

    def new(self, session: Session, words: list[str]) -> Later:
        runner = self.runner
        if not runner.may_open(session):
            raise BadCommand(later("only a sysop opens tournaments here (MUDWIZ_TOURNAMENTS=registered lets players)"))
        store = runner.kept_store()
        if len(runner.live) >= runner.limit:
            raise BadCommand(later("there are already {limit} tournaments open or running; one more when one ends",
                                   limit=runner.limit))
        rounds = whole_number(words[2]) if len(words) >= 3 else None
        if rounds is None or words[1].lower() != "swiss":
            raise BadCommand(USAGE)
        game = words[0].lower()
        if game not in available():
            raise BadCommand(later("there is no game {game}; one of: {games}", game=words[0],
                                   games=", ".join(available())))
        cls = game_class(game)
        if not 1 <= rounds <= MAX_ROUNDS:
            raise BadCommand(later("a tournament has 1 to {most} rounds", most=MAX_ROUNDS))
        now = runner.clock.seconds()
        size, start_at, typed = parse_rest(words[3:], cls, now)
        options = TableOptions(cls)
        try:
            for name, value in typed:
                options.set(name, value)
            cls.check_options(options.game_options(), size)
        except BadOption as why:
            raise BadCommand(later("{why}; nothing was made", why=refusal(why))) from None
        tournament = Tournament(0, game, rounds, size, typed, session.name, start_at if start_at is not None
                                else now + 600.0)
        tournament.id = kept(lambda: store.new_tournament(game, "open", tournament.to_json(), now))
        runner.opened(tournament)
        minutes = max(0, round((tournament.start_at - now) / 60))
        runner.people.lobby_notice(later_n(
            "{name} opens tournament {id}: {game}, Swiss, {n} round at tables of {size}; it starts in {minutes} min "
            "(/tournament join {id}).",
            "{name} opens tournament {id}: {game}, Swiss, {n} rounds at tables of {size}; it starts in {minutes} min "
            "(/tournament join {id}).", rounds, name=session.name, id=tournament.id, game=cls.title, size=size,
            minutes=minutes))
        return later("tournament {id} is open: it starts in {minutes} min", id=tournament.id, minutes=minutes)

    def join(self, session: Session, number: str) -> Later:
        tournament = self._open(number)
        if not session.registered:
            raise BadCommand(later("tournaments are for registered players: /register keeps your name first"))
        if tournament.entrant(session.name):
            raise BadCommand(later("you are signed up for tournament {id} already", id=tournament.id))
        tournament.entrants.append(session.name)
        self.runner.save(tournament)
        return later_n("you are signed up for tournament {id} ({n} player so far)",
                       "you are signed up for tournament {id} ({n} players so far)", len(tournament.entrants),
                       id=tournament.id)

    def leave(self, session: Session, number: str) -> Later:
        tournament = self._open(number)
        name = tournament.entrant(session.name)
        if name is None:
            raise BadCommand(later("you are not signed up for tournament {id}", id=tournament.id))
        tournament.entrants.remove(name)
        self.runner.save(tournament)
        return later("you are no longer signed up for tournament {id}", id=tournament.id)

    def _open(self, number: str) -> Tournament:
        tournament = self.find(number)
        if tournament.status != "open":
            raise BadCommand(later("tournament {id} has started; sign-ups are before the start", id=tournament.id)
                             if tournament.status == "running"
                             else later("tournament {id} has ended; sign-ups are before the start", id=tournament.id))
        if tournament.id not in self.runner.live:  # kept as open, but not run here (yet)
            raise BadCommand(later("tournament {id} cannot be changed now; try again in a few seconds",
                                   id=tournament.id))
        return tournament

    def find(self, number: str) -> Tournament:
        tid = whole_number(number.strip().lstrip("#"))
        if tid is None:
            raise BadCommand(later("usage: /tournament ID (/tournaments lists them)"))
        if tid in self.runner.live:
            return self.runner.live[tid]
        store = self.runner.kept_store()
        found = kept(lambda: store.tournament(tid))
        if found is None:
            raise BadCommand(later("there is no tournament {id}; /tournaments lists them", id=tid))
        return Tournament.from_json(found[1])

    def listing(self) -> dict[str, Any]:
        store = self.runner.kept_store()
        rows = kept(lambda: store.tournaments(("open", "running", "finished"), 20))
        return {"type": "tournaments", "tournaments": [
            {"id": tid, "status": status, "game": state["game"], "rounds": state["rounds"], "round": state["round"],
             "players": len(state["entrants"]), "start_at": state["start_at"], "winner": state.get("winner")}
            for tid, status, state in rows]}
