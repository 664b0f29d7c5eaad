"""What the server keeps between runs, as one narrow interface, so that SQL lives in one package and a server
database for multi-process deployments is another implementation of the same ``Store``: ``sqlite.py`` (the
default, one file) and ``postgres.py`` (``MUDWIZ_DATABASE_URL``).

It keeps game records, accounts with their roles (sysop), bans, ratings and the table journal (every open table
and its game's moves, so a restart rebuilds them: mudwiz/table/journal.py). The store reads and writes ratings
but does none of their maths: ``record_game`` is handed the update (mudwiz/ratings.py's ``rate_game``) and
applies it to the rows it reads, inside the transaction that stores the game.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping, Sequence, Set
from dataclasses import dataclass, field, fields
from datetime import UTC, datetime
from typing import Any, Protocol

OUTCOMES = ("finished", "abandoned")


class AccountExists(Exception):
    """``create_account`` of a name some account has already, in any case (two people registering it at once)."""


class LooksRegistered(Exception):
    """``create_account`` of a name that looks like another account's (``usertext.skeleton``: ``CaroI`` while
    ``Carol`` is registered), registered since the name was last looked at; ``account`` is that one, as spelled."""

    def __init__(self, name: str, account: str) -> None:
        super().__init__(f"{name} looks like {account}")
        self.name = name
        self.account = account


class ListFull(Exception):
    """A list of the meeting place (a message box, a notify list, the channels kept) already holds ``limit``
    entries: the caller says so in one line, and nothing is added."""

    def __init__(self, limit: int) -> None:
        super().__init__(f"full at {limit}")
        self.limit = limit


@dataclass(frozen=True)
class Message:
    """A message left for a registered player (``/message``): ``sent`` in seconds since the epoch, ``unread``
    until they have been shown it by ``/messages``."""

    id: int
    sender: str
    recipient: str
    text: str
    sent: float
    unread: bool


@dataclass(frozen=True)
class Profile:
    """What ``/finger`` shows of a player beyond their ratings and games: the lines of their ``/plan`` and when
    they were last seen online (None: not since the meeting place's schema, version 10)."""

    name: str
    plan: tuple[str, ...]
    seen: float | None


@dataclass(frozen=True)
class Account:
    """A registered name: ``name`` as registered (the spelling it logs in with, whatever case is typed), the
    argon2id ``hash`` of its password (the password itself is never stored), ``created`` in seconds since the
    epoch; ``lang`` the language its owner chose to read (``/lang``; None: never chose, the server's)."""

    name: str
    hash: str
    created: float
    lang: str | None = None


@dataclass(frozen=True)
class Ban:
    """Who may not log in: ``kind`` ``name`` (any case, registered or not) or ``address`` (as the network edge
    sees it); ``until`` seconds since the epoch, None until a sysop lifts it; ``by`` the sysop (or ``admin``, the
    command line); ``created`` when."""

    kind: str
    target: str
    until: float | None
    by: str
    created: float


class StoreError(Exception):
    """The store cannot be used: the message names the file or database and the reason, in one line, meant to be
    read by whoever runs the server (a corrupt, locked, foreign or newer file or database; a directory that cannot
    be created or written; a server that cannot be reached; a full disk)."""


@dataclass(frozen=True)
class GameRecord:
    """One game as played, enough for ``Game.replay`` to rebuild it move for move.

    ``seats``: [{``name``, ``kind``}] in seat order, kind ``person``, ``bot:LEVEL`` or ``stand-in``;
    ``actions``: [{``seat`` (None: the table ended a round-end pause, action ``next``), ``action``, ``t``}], ``t``
    in seconds from the start; ``standings`` None for an abandoned game; ``started``/``ended`` the table's clock
    (seconds since the epoch on a real server); ``id`` is given by the store. ``table_id``, not part of the
    record, names the journaled table it was played at: storing the record ends that game's journal in the same
    transaction, so a crash can neither lose the game nor record it twice.
    """

    game: str
    options: dict[str, Any]
    table_options: dict[str, Any]
    seed: int
    seats: list[dict[str, str]]
    actions: list[dict[str, Any]]
    standings: list[dict[str, Any]] | None
    outcome: str
    started: float
    ended: float
    id: int | None = field(default=None)
    table_id: int | None = field(default=None, compare=False)

    def to_dict(self) -> dict[str, Any]:
        """The record as ``mudwiz export`` prints it (docs/protocol.md), for encoding: its lists are the record's
        own, not copies (``asdict``'s deep copy of a whole game's actions took 8 ms, and the reactor thread journals
        every record as its game ends: ``Store.hold_record``)."""
        return {"id": self.id, **{f.name: getattr(self, f.name) for f in fields(self)
                                  if f.name not in ("id", "table_id")}}

    @property
    def players(self) -> list[str]:
        return [s["name"] for s in self.seats]

    @property
    def log(self) -> list[tuple[int | None, str]]:
        """The actions as ``Game.replay`` takes them."""
        return [(a["seat"], a["action"]) for a in self.actions]


@dataclass(frozen=True)
class GameSummary:
    """A line of a player's history: a record without its moves and options."""

    id: int
    game: str
    seats: list[dict[str, str]]
    standings: list[dict[str, Any]] | None
    outcome: str
    ended: float


@dataclass(frozen=True)
class Rating:
    """A player's rating in one game (openskill's Plackett-Luce ``mu`` and ``sigma``), ``shown`` the conservative
    figure people read and are ranked by (mudwiz/ratings.py works it out; the store only orders by it), ``games``
    rated games played, ``updated`` the end of the last one (the table's clock). ``rank``: 1 + how many in that
    game are shown higher, where a read works it out (None where it does not)."""

    name: str
    game: str
    mu: float
    sigma: float
    shown: int
    games: int
    updated: float
    rank: int | None = field(default=None, compare=False)


# How a game changes ratings, computed outside the store (mudwiz/ratings.py) and applied inside its transaction:
# the record, the current ratings in the record's game of its seats' names (lower-cased name -> Rating; a name with
# none is missing) and which of those names are registered (lower-cased) -> the ratings to write, registered people's
# only: a game with no registered player changes none, and the store does not ask.
RateGame = Callable[[GameRecord, Mapping[str, Rating], Set[str]], list[Rating]]


# One entry of a table's journaled game log: (table_id, n, seat, action, t), as ``Store.add_table_move`` takes it.
TableMove = tuple[int, int, int | None, str, float]


@dataclass(frozen=True)
class JournaledTable:
    """An open table as the journal holds it: its ``header`` (JSON: game, host, options, seats, ...), its current
    or last game's ``seed`` and ``game`` (JSON: players, options, started, abandoned; both None before the
    first), that game's ``moves`` in order ([{``seat``, ``action``, ``t``}], as in a ``GameRecord``), whether
    its record is ``recorded`` (stored by ``record_game``), and the ``node`` (process, ``MUDWIZ_NODE``) that hosts
    it ('' for a single-process server)."""

    id: int
    header: dict[str, Any]
    seed: int | None
    game: dict[str, Any] | None
    moves: list[dict[str, Any]]
    recorded: bool = False
    node: str = ""


@dataclass(frozen=True)
class Claim:
    """What ``claim_tables`` moved to the claiming process: the open ``tables`` (ids, in order) and the ``held``
    records (their keys, ``held_key``), those of tables since closed too."""

    tables: list[int]
    held: list[str]


# Reading rows back, the same on every implementation: each selects these columns in this order, and JSON is
# kept as text everywhere (a bad entry costs its own table or game, never the whole read).

def summaries(rows: Sequence[Sequence[Any]], seats: Mapping[int, list[dict[str, str]]]) -> list[GameSummary]:
    """``games_of``'s rows (id, game, standings, outcome, ended) with each game's seats. A row whose standings do
    not read is listed without them, as ``damaged``: one bad row hid a player's whole history."""
    listed = []
    for game_id, game, standings, outcome, ended in rows:
        try:
            places = None if standings is None else json.loads(standings)
        except ValueError:
            places, outcome = None, "damaged"
        listed.append(GameSummary(id=game_id, game=game, seats=seats[game_id], standings=places, outcome=outcome,
                                  ended=ended))
    return listed


def game_record(game_id: int, row: Sequence[Any], seats: list[dict[str, str]]) -> GameRecord:
    """``game``'s row (game, options, table_options, seed, actions, standings, outcome, started, ended);
    ``StoreError`` naming the game for a row whose JSON does not read (it was a traceback and 'internal
    error')."""
    game, options, table_options, seed, actions, standings, outcome, started, ended = row
    try:
        return GameRecord(game=game, options=json.loads(options), table_options=json.loads(table_options),
                          seed=seed, seats=seats, actions=json.loads(actions),
                          standings=None if standings is None else json.loads(standings), outcome=outcome,
                          started=started, ended=ended, id=game_id)
    except (ValueError, TypeError) as exc:
        raise StoreError(f"game {game_id} is damaged in the database ({exc}); restore a backup") from None


def held_key(record: GameRecord) -> str:
    """The key a record is held under (``Store.hold_record``) and found by when it is stored: its table, seed and
    start. The seed alone is not enough: a server given ``MUDWIZ_SEED`` deals the same seeds again after a restart."""
    return game_key(record.table_id, record.seed, record.started)


def game_key(table_id: int | None, seed: int | None, started: float) -> str:
    """``held_key`` of the game at ``table_id`` dealt from ``seed`` at ``started``, record or not."""
    return f"{table_id}:{seed}:{started!r}"


def held_record(table_id: int, text: str, actions: list[dict[str, Any]]) -> GameRecord:
    """A held record's row (table_id, record: JSON as ``GameRecord.to_dict`` gives it, but ``actions`` their
    count) as the record again, with ``actions`` (the journal's rows it was held with); ``StoreError`` for one that
    does not read as a record, or whose actions the journal no longer has all of."""
    data = json_object(text)
    data.pop("id", None)
    count = data.pop("actions", None)
    if count != len(actions):
        raise StoreError(f"a held record of table {table_id} has {len(actions)} of its {count} actions in the journal")
    try:
        return GameRecord(**data, actions=actions, table_id=table_id)
    except TypeError as exc:
        raise StoreError(f"a held record of table {table_id} does not read as a record: {data.get('error', exc)}") \
            from None


def journaled_tables(rows: Sequence[Sequence[Any]], moves: Iterable[Sequence[Any]]) -> list[JournaledTable]:
    """``open_tables``'s rows (id, header, seed, game, recorded, node) and move rows (table_id, n, seat, action, t,
    in the order written), read in one transaction. A move written twice (again after a group commit that
    failed) is its latest row."""
    by_table: dict[int, dict[int, dict[str, Any]]] = {row[0]: {} for row in rows}
    for table_id, n, seat, action, t in moves:
        by_table.setdefault(table_id, {})[n] = {"seat": seat, "action": action, "t": t}
    return [JournaledTable(id=table_id, header=json_object(header), seed=seed,
                           game=None if game is None else json_object(game),
                           moves=[entry for _, entry in sorted(by_table[table_id].items())],
                           recorded=bool(recorded), node=node)
            for table_id, header, seed, game, recorded, node in rows]


def json_object(text: str) -> dict[str, Any]:
    """A journaled header or game read back: a text that is not a JSON object becomes ``{"error": ...}``, for the
    restore to report and skip that table rather than fail them all."""
    try:
        value = json.loads(text)
    except ValueError as exc:
        return {"error": f"not JSON ({exc})"}
    return value if isinstance(value, dict) else {"error": "not a JSON object"}


def iso_time(seconds: float) -> str:
    """A record's time as the protocol gives it: UTC, to the second (``2024-05-01T18:04:11Z``)."""
    return datetime.fromtimestamp(seconds, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


class Store(Protocol):
    """Where the server keeps what outlives a run; callers hold a ``Store``, never the implementation."""

    where: str  # the file or the database (its URL without a password), as messages and the log name it

    def record_game(self, record: GameRecord, rate: RateGame | None = None) -> int:
        """Keep a finished or abandoned game; returns its id. Raises ``StoreError`` when it cannot. With ``rate``,
        the ratings it returns are written in the same transaction: the game and its rating changes are both
        kept or neither is, whatever fails (``rate`` raising too)."""
        ...

    def rating(self, name: str, game: str) -> Rating | None:
        """``name``'s (any case) rating in ``game``, with its rank; None when it has none."""
        ...

    def ratings_of(self, name: str) -> list[Rating]:
        """``name``'s (any case) ratings in every game it has one in, with their ranks, by game."""
        ...

    def ratings_of_all(self, names: Sequence[str]) -> dict[str, list[Rating]]:
        """``ratings_of`` each of ``names``, in one read: lower-cased name -> its ratings (none: ``[]``)."""
        ...

    def top(self, game: str, limit: int = 10) -> list[Rating]:
        """The ``limit`` highest shown ratings of ``game``, best first, with their ranks (ties share one)."""
        ...

    def games_of(self, name: str, limit: int = 10) -> list[GameSummary]:
        """The last ``limit`` games ``name`` (any case) sat in, newest first."""
        ...

    def game(self, game_id: int) -> GameRecord | None:
        """One game's whole record; None when there is no such game."""
        ...

    def account(self, name: str) -> Account | None:
        """The account of ``name`` in any case; None for a name nobody registered."""
        ...

    def look_alike(self, name: str) -> str | None:
        """The account, as registered, whose name looks like ``name`` (the same ``usertext.skeleton``) and is not
        ``name`` in any case; None when there is none. The oldest, when (made before schema version 9) several do."""
        ...

    def create_account(self, name: str, password_hash: str) -> None:
        """Register ``name`` with its password's hash; ``AccountExists`` when it is taken in any case,
        ``LooksRegistered`` when it looks like another account's name (``look_alike``): checked and inserted as
        one step, so that two processes on one database never both make a pair of look-alikes."""
        ...

    def set_password(self, name: str, password_hash: str) -> None:
        """Replace the password hash of ``name``'s account (any case)."""
        ...

    def set_account_lang(self, name: str, lang: str) -> None:
        """Keep ``lang`` as the language of ``name``'s account (any case); KeyError when there is none."""
        ...

    def delete_account(self, name: str) -> str | None:
        """Unregister ``name``'s account (any case), in one transaction, with its roles, ratings, profile (plan, last
        seen), notify and ignore lists and its name on others', message box and kept channels; its game records, bans
        of the name and the messages it left others are kept. The name as registered; None when there is no
        account."""
        ...

    def grant_role(self, name: str, role: str) -> None:
        """Give ``name``'s account (any case) ``role`` (``sysop``); ``KeyError`` when there is no such account."""
        ...

    def revoke_role(self, name: str, role: str) -> bool:
        """Take ``role`` from ``name``; False when they did not have it."""
        ...

    def roles(self, name: str) -> set[str]:
        """The roles of ``name`` (any case): empty for a guest's name or an account without any."""
        ...

    def holders(self, role: str) -> list[str]:
        """The accounts with ``role``, as registered, in name order."""
        ...

    def add_ban(self, ban: Ban) -> None:
        """Keep ``ban``, replacing any ban of the same kind and target (any case)."""
        ...

    def lift_ban(self, kind: str, target: str) -> bool:
        """Remove the ban of ``target`` (any case), expired or not; False when there was none."""
        ...

    def bans(self, now: float) -> list[Ban]:
        """The bans in force at ``now`` (not expired), oldest first."""
        ...

    def ban_on(self, kind: str, target: str, now: float) -> Ban | None:
        """The ban of ``target`` (a name in any case, or an address) in force at ``now``; None when it may log in."""
        ...

    # -- the table journal: small writes on the reactor thread, each committed before its effects are sent

    def save_table(self, table_id: int, header: dict[str, Any], node: str = "") -> None:
        """Journal a table's header (made or replaced): who sits where, the host, the options; and the ``node``
        hosting it now ('' a single-process server)."""
        ...

    def start_table_game(self, table_id: int, seed: int, game: dict[str, Any]) -> None:
        """Journal the start of a table's game (its seed and how it is set up), forgetting the last game."""
        ...

    def mark_table_game(self, table_id: int, game: dict[str, Any]) -> None:
        """Replace the journaled description of a table's current game (e.g. it is abandoned)."""
        ...

    def hold_record(self, record: GameRecord, node: str = "") -> None:
        """Journal a game's record as the game ends (``record.table_id`` its table, journaled; ``node`` the process
        hosting it), before it is handed to ``record_game``, which deletes it in its own transaction: a record not
        yet stored when the process dies is still held, for the restart to store (``held_records``), once. Its
        actions must all be journaled already (``add_table_moves``): they are read back from there."""
        ...

    def held_records(self, node: str | None = None) -> list[GameRecord | StoreError]:
        """The records held (``hold_record``) and not stored since, or only ``node``'s, each with its
        ``table_id``. A row that does not read as a record is its ``StoreError``, in its place, for the caller to
        report: one bad row must not keep every other record from the store, at this start and every later one."""
        ...

    def add_table_move(self, table_id: int, n: int, seat: int | None, action: str, t: float) -> None:
        """Journal the ``n``-th (from 0) entry of the game's log."""
        ...

    def add_table_moves(self, moves: Sequence[TableMove]) -> None:
        """Journal several tables' log entries, each ``(table_id, n, seat, action, t)`` as ``add_table_move``
        takes them, in one transaction: all of them or none."""
        ...

    def drop_table(self, table_id: int) -> None:
        """Forget a closed table."""
        ...

    def open_tables(self, node: str | None = None) -> list[JournaledTable]:
        """Every journaled table (or only ``node``'s), by id, with its current game's moves in order."""
        ...

    def claim_tables(self, from_node: str, to_node: str) -> Claim:
        """Make ``to_node`` the host of every open table of ``from_node`` (a process that died), and of every record
        it held (``hold_record``: its tables', and those of tables that closed before their record was stored), in
        one atomic step: of two processes claiming the same node at once, each gets a disjoint set (normally one
        gets them all, the other none)."""
        ...

    def reserve_table_ids(self, count: int) -> range:
        """A block of ``count`` fresh table numbers that no other caller, in this process or another, is ever
        given: above every id ever handed out and every table in the journal. ``ValueError`` for a count below 1."""
        ...

    def prune_journal(self) -> int:
        """Delete the journal's rows that no open table's current game reads (earlier games', closed tables');
        how many. Slow on a large journal: not on the reactor thread."""
        ...

    def checkpoint(self) -> None:
        """Move the write-ahead log into the database file (slow: fsyncs; not on the reactor thread)."""
        ...

    # ------------------------------------------------------------ the meeting place (meeting.py)

    def leave_message(self, sender: str, recipient: str, text: str, sent: float, limit: int) -> Message:
        """Leave ``text`` for the account ``recipient`` (KeyError: none); ``ListFull`` at ``limit`` messages."""
        ...

    def messages(self, name: str) -> list[Message]:
        """``name``'s messages, oldest first."""
        ...

    def unread_messages(self, name: str) -> int:
        ...

    def mark_read(self, name: str, ids: Sequence[int]) -> None:
        ...

    def clear_messages(self, name: str) -> int:
        """Delete ``name``'s messages; how many there were."""
        ...

    def profile(self, name: str) -> Profile | None:
        ...

    def set_plan(self, name: str, lines: Sequence[str]) -> None:
        ...

    def mark_seen(self, name: str, seen: float) -> None:
        ...

    def notify_list(self, owner: str) -> list[str]:
        ...

    def add_notify(self, owner: str, target: str, limit: int) -> bool:
        """False: already on the list; ``ListFull`` at ``limit`` names."""
        ...

    def remove_notify(self, owner: str, target: str) -> bool:
        ...

    def notifying(self, target: str) -> list[str]:
        """Whose notify lists hold ``target`` (lower-case names)."""
        ...

    def ignore_list(self, owner: str) -> list[str]:
        """The lower-case names ``owner`` ignores, in order."""
        ...

    def add_ignore(self, owner: str, target: str, limit: int) -> bool:
        """False: already on the list; ``ListFull`` at ``limit`` names."""
        ...

    def remove_ignore(self, owner: str, target: str) -> bool:
        ...

    def channels_of(self, name: str) -> list[str]:
        ...

    def join_channel(self, name: str, channel: str, limit: int) -> bool:
        """False: already kept; ``ListFull`` at ``limit`` channels."""
        ...

    def leave_channel(self, name: str, channel: str) -> bool:
        ...

    # ------------------------------------------------------------ tournaments (competition.py)

    def new_tournament(self, game: str, status: str, state: dict[str, Any], now: float) -> int:
        """A new tournament's number, its state kept."""

    def save_tournament(self, tid: int, status: str, state: dict[str, Any], now: float) -> None:
        """Tournament ``tid``'s state as it is now (written whole)."""

    def tournaments(self, statuses: tuple[str, ...], limit: int = 50) -> list[tuple[int, str, dict[str, Any]]]:
        """The tournaments in one of ``statuses``, newest first: (number, status, state)."""

    def tournament(self, tid: int) -> tuple[str, dict[str, Any]] | None:
        """Tournament ``tid``'s status and state; None when there is none."""

    # ------------------------------------------------------------ seasons (seasons_sql.py)

    def add_season_points(self, season: str, game: str, rows: Sequence[tuple[str, float]]) -> None:
        """Add each (name, points) of ``rows`` and one game to that name's ``season`` in ``game``."""

    def season_table(self, season: str, game: str, limit: int = 10) -> list[tuple[str, float, int]]:
        """``season``'s table in ``game``: (name, points, games), points down, then fewer games, then the name."""
        ...

    def season_winners(self, game: str | None = None, before: str | None = None) -> list[tuple[str, str, str, float]]:
        """Each season's top of each game (or of ``game``), seasons before ``before`` only when it is given,
        newest first: (season, game, name, points)."""
        ...

    def fame_games(self, game: str | None, limit: int) -> tuple[list[tuple[int, str, list[dict[str, Any]]]], set[str]]:
        """The last ``limit`` games with standings (of ``game`` when given), oldest first: (id, game, standings),
        and the lower-cased registered names among their players."""
        ...

    def close(self) -> None:
        """Let go of the file (the service's stop)."""
        ...
