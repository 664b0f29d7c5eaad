"""Game records and ratings: /history, /game, /rating, /top and /replay."""

from __future__ import annotations

from typing import Any, TypeVar

from twisted.internet import defer

from mudwiz import replay
from mudwiz.commands.registry import Kind, Reply, Route, Scope, command
from mudwiz.errors import BadCommand, MudwizError
from mudwiz.games import available, game_class
from mudwiz.lobby import Lobby
from mudwiz.numbers import whole_number
from mudwiz.ratings import BOT_PREFIX, bot_rating
from mudwiz.seasons import fame_records, season_of, season_period
from mudwiz.session import Session
from mudwiz.slices import Work, unless
from mudwiz.store import GameRecord, GameSummary, Rating, Store, StoreError, iso_time
from mudwiz.texts import later

T = TypeVar("T")

# ------------------------------------------------------------------ game records

HISTORY = 10  # games /history lists


def _store(lobby: Lobby) -> Store:
    if lobby.records is None:
        raise BadCommand(later('this server keeps no game records'))
    return lobby.records.store


def _record(lobby: Lobby, game_id: int) -> GameRecord:
    """Game ``game_id``'s record; a missing or damaged one refused in one line (a damaged row's ``StoreError``
    was an internal error with a critical traceback)."""
    try:
        record = _store(lobby).game(game_id)
    except StoreError as exc:
        raise BadCommand(str(exc)) from None
    if record is None:
        raise BadCommand(later('there is no game {game_id}; /history lists your games', game_id=game_id))
    return record


def _places(standings: list[dict[str, Any]] | None) -> dict[str, dict[str, Any]]:
    return {r["player"].lower(): r for r in standings or []}


def history_row(summary: GameSummary, name: str) -> dict[str, Any]:
    """One game of ``/history``: who sat where with their score and place (null for an abandoned game), and
    ``place`` the place of the player asked about."""
    places = _places(summary.standings)
    players = [{**seat, "score": places.get(seat["name"].lower(), {}).get("score"),
                "place": places.get(seat["name"].lower(), {}).get("place")} for seat in summary.seats]
    return {"id": summary.id, "game": summary.game, "date": iso_time(summary.ended), "outcome": summary.outcome,
            "players": players, "place": places.get(name.lower(), {}).get("place")}


@command("history", "/history [NAME]", later("your last {history} games, or NAME's (/game ID shows one)",
                                             history=HISTORY),
         scope=Scope.LOBBY, kind=Kind.GAMES, place=3, route=Route.HOME)
def _history(lobby: Lobby, session: Session, arg: str) -> Reply:
    name = arg.strip() or session.name
    games = _store(lobby).games_of(name, HISTORY)
    session.deliver({"type": "history", "name": name, "games": [history_row(g, name) for g in games]})
    return None


def in_slices(lobby: Lobby, session: Session, work: Work[T]) -> defer.Deferred[T | None]:
    """``work`` for ``session`` run as the lobby runs long work (mudwiz/slices.py), given up (None) once they
    have gone: nobody would read its answer."""
    return lobby.slices(unless(lambda: not session.connected, work))


def replay_sheet(record: GameRecord) -> Work[tuple[list[dict[str, Any]], list[int]] | None]:
    """The score sheet and scores of a recorded game, rebuilt by replaying it (the record keeps the moves, not
    what follows from them), as work in slices (a step of the game a piece); None when it cannot be, as when its
    game is no longer installed."""
    try:
        game = game_class(record.game)(record.players, record.options, record.seed)
        for seat, action in record.log:
            game.step(seat, action)
            yield
    except MudwizError:
        return None
    return game.sheet, game.scores


@command("game", "/game ID", later("a recorded game's score sheet and standings (/history lists the IDs)"),
         scope=Scope.LOBBY, kind=Kind.GAMES, place=4, route=Route.HOME)
def _game(lobby: Lobby, session: Session, arg: str) -> Reply:
    number = whole_number(arg.strip().lstrip("#"))
    if number is None:
        raise BadCommand(later('usage: /game ID; /history lists your games'))
    record = _record(lobby, number)

    def show(replayed: tuple[list[dict[str, Any]], list[int]] | None) -> None:
        sheet: list[dict[str, Any]] = replayed[0] if replayed else []
        scores: list[int | None] = list(replayed[1]) if replayed else [None] * len(record.seats)
        session.deliver({
            "type": "game", "id": record.id, "game": record.game, "date": iso_time(record.ended),
            "outcome": record.outcome, "options": record.options,
            "players": [{**seat, "score": score} for seat, score in zip(record.seats, scores, strict=True)],
            "sheet": sheet, "standings": record.standings,
        })

    return in_slices(lobby, session, replay_sheet(record)).addCallback(show)


# ------------------------------------------------------------------ ratings

TOP = 10  # players /top lists a game


def rating_row(rating: Rating) -> dict[str, Any]:
    """A rating as the protocol gives it: ``rating`` the shown figure, ``mu`` and ``sigma`` to two places,
    ``games`` rated games played, ``rank`` among the game's rated players (null for a bot's fixed entry)."""
    return {"game": rating.game, "name": rating.name, "rating": rating.shown, "mu": round(rating.mu, 2),
            "sigma": round(rating.sigma, 2), "games": rating.games, "rank": rating.rank}


def _bot_level(name: str) -> str | None:
    """The level ``bot:LEVEL`` names, None for a player's name; a level that does not exist is refused."""
    from mudwiz.bots import known_level  # bots stand on tables and commands, not the other way round

    if not name.lower().startswith(BOT_PREFIX):
        return None
    return known_level(name[len(BOT_PREFIX):])


@command("rating", "/rating [NAME]", later("your rating in each game, or NAME's (bot:hard: that bot level's fixed "
                                           "one); shown: 1000 + 40 x (mu - 3 sigma), a new player's 1000"),
         scope=Scope.LOBBY, kind=Kind.GAMES, place=6, route=Route.HOME)
def _rating(lobby: Lobby, session: Session, arg: str) -> Reply:
    name = arg.strip() or session.name
    if len(name.split()) > 1:
        raise BadCommand(later("usage: /rating [NAME]; /rating bot:hard shows a bot level's"))
    level = _bot_level(name)
    if level is not None:
        ratings = [bot_rating(game, level) for game in available()]
        name = f"{BOT_PREFIX}{level}"
    else:
        ratings = _store(lobby).ratings_of(name)
        name = ratings[0].name if ratings else name
    session.deliver({"type": "rating", "name": name, "bot": level is not None,
                     "ratings": [rating_row(r) for r in ratings]})
    return None


def season_top(store: Store, game: str, now: float, limit: int = TOP) -> dict[str, Any]:
    """The ``season`` message: the current season's table of ``game`` (``MUDWIZ_SEASON``), its first ``limit``."""
    season = season_of(now, season_period())
    return {"type": "season", "game": game, "season": season,
            "players": [{"rank": i, "name": name, "points": points, "games": games}
                        for i, (name, points, games) in enumerate(store.season_table(season, game, limit), 1)]}


@command("top", "/top [GAME] [season]", later('the {top} best rated players of GAME (at a table: its game; else '
                                              "every game); season: this season's points table of GAME", top=TOP),
         scope=Scope.LOBBY, kind=Kind.GAMES, place=7, route=Route.HOME)
def _top(lobby: Lobby, session: Session, arg: str) -> Reply:
    from mudwiz.bots import levels

    words = arg.strip().lower().split()
    if words and words[-1] == "season":
        if len(words) > 2:
            raise BadCommand(later('usage: /top [GAME] season'))
        game = words[0] if len(words) == 2 else session.table.name if session.table is not None else ""
        if game not in available():
            raise BadCommand(later('usage: /top GAME season; games: {join}', join=', '.join(available())))
        session.deliver(season_top(_store(lobby), game, lobby.clock.seconds()))
        return None
    if len(words) > 1:
        raise BadCommand(later('usage: /top [GAME] [season]'))
    game = words[0] if words else ""
    if game and game not in available():
        raise BadCommand(later('no game {game!r}; games: {join}', game=game, join=', '.join(available())))
    games = [game] if game else [session.table.name] if session.table is not None else available()
    store = _store(lobby)
    session.deliver({"type": "top", "games": [
        {"game": g, "players": [rating_row(r) for r in store.top(g, TOP)],
         "bots": [rating_row(bot_rating(g, level)) for level in levels()]} for g in games]})
    return None


FAME_GAMES = 5000  # the last games /fame and the bulletin read the records from
FAME_TOURNAMENTS = 5  # last tournament winners shown a game


def fame(store: Store, game: str | None, now: float) -> dict[str, Any]:
    """The ``fame`` message: for each game (or ``game``), its last tournaments' winners, each past season's
    winner, and its records over the last ``FAME_GAMES`` games (``seasons.fame_records``). Cost: three bounded
    reads (the last 50 finished tournaments, the season winners, ``FAME_GAMES`` game rows)."""
    games = [game] if game else available()
    finished = [state for _, _, state in store.tournaments(("finished",), 50)]
    winners = store.season_winners(game, before=season_of(now, season_period()))
    played, registered = store.fame_games(game, FAME_GAMES)
    records = fame_records(played, registered)
    empty = {"best_score": None, "streak": None, "most_games": None}
    return {"type": "fame", "games": [{
        "game": g,
        "tournaments": [{"id": t.get("id"), "winner": t.get("winner"), "finished": iso_time(t["finished_at"])
                         if isinstance(t.get("finished_at"), int | float) else None}
                        for t in finished if t.get("game") == g][:FAME_TOURNAMENTS],
        "seasons": [{"season": season, "name": name, "points": points}
                    for season, wg, name, points in winners if wg == g],
        **records.get(g, empty)} for g in games]}


@command("fame", "/fame [GAME]", later('the hall of fame: tournament and season winners, best score, longest winning '
                                       'streak, most games (every game, or GAME)'),
         scope=Scope.LOBBY, kind=Kind.GAMES, place=8, route=Route.HOME)
def _fame(lobby: Lobby, session: Session, arg: str) -> Reply:
    game = arg.strip().lower()
    if len(game.split()) > 1 or (game and game not in available()):
        raise BadCommand(later('usage: /fame [GAME]; games: {join}', join=', '.join(available())))
    session.deliver(fame(_store(lobby), game or None, lobby.clock.seconds()))
    return None


FAREWELL_TOP = 3  # a game's first places the door caller's goodbye shows
FAREWELL_READ = 500  # season rows read a game to find the caller's own place


def farewell(lobby: Lobby, session: Session) -> None:
    """A BBS caller's one-screen goodbye (``session.bbs``: they came through the door or an rlogin BBS): each
    game's season top and the caller's own place in it, when the server keeps records; nothing else, and nothing
    when the store cannot be read (the goodbye must not fail). Cost: one bounded read a game."""
    if session.bbs is None or lobby.records is None:
        return
    season = season_of(lobby.clock.seconds(), season_period())
    games = []
    try:
        for g in available():
            rows = lobby.records.store.season_table(season, g, FAREWELL_READ)
            ranked: list[dict[str, Any]] = [{"rank": i, "name": n, "points": p, "games": c}
                                            for i, (n, p, c) in enumerate(rows, 1)]
            you = next((r for r in ranked if str(r["name"]).lower() == session.name.lower()), None)
            if ranked:
                games.append({"game": g, "top": ranked[:FAREWELL_TOP], "you": you})
    except StoreError:
        return
    session.deliver({"type": "farewell", "name": session.name, "season": season, "games": games})


REPLAY_USAGE = later('usage: /replay ID [STEP], /replay next or /replay prev; /history lists your games')


def _replay_step(session: Session, words: list[str]) -> tuple[int, int, int]:
    """The game and step ``/replay`` is asked for, and which way ``next``/``prev`` went (0 for neither)."""
    if words in (["next"], ["prev"]):
        if session.replaying is None:
            raise BadCommand(later('you are reading no replay; /replay ID starts one (/history lists your games)'))
        game_id, step = session.replaying
        way = 1 if words[0] == "next" else -1
        return game_id, step + way, way
    if not 1 <= len(words) <= 2:
        raise BadCommand(REPLAY_USAGE)
    number, at = whole_number(words[0].lstrip("#")), whole_number(words[1]) if len(words) == 2 else 0
    if number is None or at is None:
        raise BadCommand(REPLAY_USAGE)
    return number, at, 0


@command("replay", "/replay ID [STEP] | next | prev",
         later('a recorded game move by move, every hand shown: STEP 0 is the deal, /replay next the move after'),
         scope=Scope.LOBBY, kind=Kind.GAMES, place=5, route=Route.HOME)
def _replay(lobby: Lobby, session: Session, arg: str) -> Reply:
    _store(lobby)  # a server without records says so before the arguments are read
    game_id, step, way = _replay_step(session, arg.lower().split())
    record = _record(lobby, game_id)
    if way > 0 and step > replay.steps(record):
        raise BadCommand(later('that was the last move of game {game_id}; /replay {game_id} 0 starts again',
                               game_id=game_id))
    if way < 0 and step < 0:
        raise BadCommand(later('that was the deal, the first step of game {game_id}; /replay next goes on',
                               game_id=game_id))
    if step > replay.steps(record):
        raise BadCommand(replay.bad_step(record, step))
    count = replay.REPLAY_FRAMES if session.mode == "json" else 1  # a person reads one step at a time

    def show(message: dict[str, Any] | None) -> None:
        if message is not None:  # None: they left before it was made
            session.deliver(message)
            session.replaying = (game_id, step)

    # replayed from the deal to the step: a long game's hundreds of milliseconds, in slices
    return in_slices(lobby, session, replay.building(record, step, count)).addCallback(show)
