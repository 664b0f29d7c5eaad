"""``/analyze``: the coach after a game. A recorded game of the asker's, judged move by move from their own seat by
their game's analysis (its plugin's ``analysis`` hook: mudwiz/games/plugin.py), which says what the game's best
bot would have done with only what the seat could see then. The core knows nothing of any game's moves: it finds
the record and the asker's seats, refuses what it must in one line (with a ``code`` for programs), runs the
game's hook off the reactor (in a thread: ``lobby.analyses``) and hands its result on as the ``analysis`` message,
which the game's renderer draws (``analysis_lines``)."""

from __future__ import annotations

from collections.abc import Generator, Iterable
from typing import Any

from twisted.logger import Logger
from twisted.python.failure import Failure

from mudwiz.commands.records import _record, _store
from mudwiz.commands.registry import Kind, Reply, Route, Scope, command
from mudwiz.errors import BadCommand, MudwizError
from mudwiz.games import plugin
from mudwiz.games.base import Phase
from mudwiz.games.plugin import load
from mudwiz.lobby import Lobby
from mudwiz.numbers import whole_number
from mudwiz.ratings import PEOPLE
from mudwiz.session import Session
from mudwiz.slices import unless
from mudwiz.store import GameRecord, iso_time
from mudwiz.texts import later

log = Logger()

AT_ONCE = 1  # analyses a server process runs at the same time: each is seconds of a bot's thinking
_running: set[str] = set()  # the names whose analysis is under way here

USAGE = later("usage: /analyze [ID [ROUND]]; /history lists your games")

Hook = Generator[None, None, Any]


def seats_of(record: GameRecord, name: str) -> list[int]:
    """The seats ``name`` played in the game themselves (a stand-in may have finished one for them); a bot's
    seat is nobody's."""
    return [i for i, seat in enumerate(record.seats) if seat["name"].lower() == name.lower() and seat["kind"] in PEOPLE]


def hook(game: str) -> Any:
    """The game's analysis function (its plugin's ``analysis``); a game without one is refused in one line."""
    found = plugin(game)
    if found is None or found.analysis is None:
        raise BadCommand(later("no analysis for {game} yet", game=game)).coded("no-analysis")
    return load(found.analysis)


def analysing(record: GameRecord, seats: Iterable[int], round_no: int | None) -> Generator[None, None, list[Any]]:
    """The game's analysis of each of ``seats`` in turn, as work in pieces: [{``player``, ...its result}]."""
    analyse = hook(record.game)
    found = []
    for seat in seats:
        result: Hook = analyse(record.players, record.options, record.seed, record.log, seat, round_no)
        found.append({"player": record.players[seat], **(yield from result)})
    return found


def message(record: GameRecord, analyses: list[dict[str, Any]], round_no: int | None) -> dict[str, Any]:
    """The ``analysis`` message (docs/protocol.md)."""
    return {"type": "analysis", "id": record.id, "game": record.game, "date": iso_time(record.ended),
            "outcome": record.outcome, "round": round_no, "seats": analyses}


def _arguments(lobby: Lobby, session: Session, words: list[str]) -> tuple[int, int | None]:
    """The game and round asked for; with no game, the asker's last recorded one, unless they are playing a game
    now at their table (``in-progress``: its record does not exist until it is over)."""
    if len(words) > 2:
        raise BadCommand(USAGE).coded("usage")
    numbers = [whole_number(w.lstrip("#")) for w in words]
    if None in numbers or 0 in numbers[1:]:
        raise BadCommand(USAGE).coded("usage")
    if words:
        return numbers[0] or 0, numbers[1] if len(numbers) == 2 else None
    table = session.table
    game = table.game if table is not None else None
    if game is not None and table is not None and game.phase not in (Phase.WAITING, Phase.GAMEOVER) \
            and table.seat_of(session.name) is not None:
        raise BadCommand(later("your game at table {id} is still being played: /analyze it once it is over "
                               "(/history then gives its ID)", id=table.id)).coded("in-progress")
    last = _store(lobby).games_of(session.name, 1)
    if not last:
        raise BadCommand(later("you have no recorded game to analyse yet; /history lists your games")).coded(
            "no-game")
    return last[0].id, None


@command("analyze", "/analyze [ID [ROUND]]",
         later("a recorded game of yours (default: your last) judged from your seat with only what you could see: "
               "its best bot's moves beside yours, and where yours cost you over sampled deals of the unseen cards "
               "(ROUND: that round alone)"),
         scope=Scope.LOBBY, kind=Kind.GAMES, place=11, route=Route.HOME)
def _analyze(lobby: Lobby, session: Session, arg: str) -> Reply:
    _store(lobby)  # a server without records says so before the arguments are read
    game_id, round_no = _arguments(lobby, session, arg.split())
    try:
        record = _record(lobby, game_id)
    except BadCommand as refused:
        raise refused.coded("no-game") from None
    seats = seats_of(record, session.name)
    if not seats:
        raise BadCommand(later("you did not play in game {id}: /analyze judges your own seats only",
                               id=game_id)).coded("not-your-seat")
    hook(record.game)  # a game without an analysis is refused before any work
    key = session.name.lower()
    if key in _running or len(_running) >= AT_ONCE:
        raise BadCommand(later("the coach is busy with another game; try again in a minute")).coded("busy")
    _running.add(key)

    def show(analyses: list[dict[str, Any]] | None) -> None:
        if analyses is not None:  # None: they left before it was done
            session.deliver_answer(message(record, analyses, round_no))

    def failed(failure: Failure) -> None:
        """A refusal found in the work (a round the game did not have) is one line as ever, with its code; a bug
        costs the analysis, logged, never the connection."""
        if failure.check(MudwizError):
            error: MudwizError = failure.value
        else:
            log.failure("/analyze {id} for {name} failed", failure, id=game_id, name=session.name)
            error = MudwizError(later("the analysis of game {id} failed; the server's log says why",
                                      id=game_id)).coded("failed")
        session.deliver({"type": "error", "message": error.args[0] if error.args else str(error),
                         **({"code": error.code} if error.code else {})})

    def done(result: Any) -> Any:
        _running.discard(key)
        return result

    # seconds of a bot's thinking, some pieces a second or more: in a thread on a server (``lobby.analyses``), the
    # asker's lines read meanwhile (a move at their table), the analysis sent when it is ready
    work = analysing(record, seats, round_no)
    lobby.analyses(unless(lambda: not session.connected, work)).addBoth(done).addCallbacks(show, failed)
    return later("analysing game {id} from your seat; the analysis follows when it is ready", id=game_id)
