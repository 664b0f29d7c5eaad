"""``/help``: the commands a kind a row, one command or one game explained, and the catalogue (the same, as
data) a client completes from."""

from __future__ import annotations

import re
import textwrap
from collections.abc import Callable
from typing import Any

from mudwiz.commands.registry import COMMANDS, Command, Kind, Reply, Route, Scope, command, help_kinds
from mudwiz.errors import BadCommand
from mudwiz.games import available, game_class, plugin
from mudwiz.games.legend import help_lines
from mudwiz.games.plugin import load
from mudwiz.lobby import Lobby
from mudwiz.render.style import cell_width
from mudwiz.session import Session
from mudwiz.table import TABLE_OPTIONS
from mudwiz.texts import N_, Later, later, now


@command("help", "/help [COMMAND|GAME|all]",
         later('list the commands by kind, or explain one command or one game (all: every command, explained; cards: '
               "each game's card letters)"),
         scope=Scope.PRE_LOGIN, kind=Kind.LOBBY, place=9, route=Route.ABOUT_TABLE)
def _help(lobby: Lobby, session: Session, arg: str) -> Reply:
    topic = arg.strip().lstrip("/").lower()
    sysop = is_sysop(lobby, session)
    message = {"type": "help", "topic": topic or None, "text": help_text(topic, session, sysop=sysop)}
    if not topic:
        message |= catalogue(sysop)
    session.deliver(message)
    return None


def catalogue(sysop: bool = False) -> dict[str, Any]:
    """What this server offers, as data (sent with ``welcome`` and ``/help``): clients complete and list
    commands, games and bot levels from it instead of keeping copies that drift from the server's. The sysops'
    own commands are in a sysop's only, as in ``/help``: a client completed ``/kick`` for anyone."""
    from mudwiz.bots import levels  # bots stand on tables and commands, not the other way round

    return {
        "commands": [{"command": f"/{c.name}", "usage": c.usage, "help": c.help} for c in offered(sysop)],
        "games": available(),
        "bot_levels": levels(),
    }


def is_sysop(lobby: Lobby, session: Session) -> bool:
    """Whether ``session`` is a sysop now (a server with no sysops has none)."""
    return lobby.sysops is not None and lobby.sysops.is_sysop(session)


def offered(sysop: bool) -> list[Command]:
    """The commands listed to a user: the sysops' own to a sysop only (to anyone else they are noise)."""
    return [c for c in COMMANDS.values() if sysop or c.kind is not Kind.SYSOP]


def help_row(usage: str, text: str | Later, width: int = 28, cols: int = 80) -> list[str]:
    """One help entry, wrapped to ``cols`` columns with its text aligned after the usage column (``width``;
    narrower when the window is, so that the text keeps some room); a ``Later`` text in the reader's language."""
    text = str(text)
    width = min(width, cols // 3)
    indent = " " * (width + 3)
    head = f"  {usage:<{width}} "
    if len(head) > width + 3:  # a long usage gets a line of its own
        return [f"  {usage}", *_wrap(indent, text, cols, width + 3)]
    return _wrap(head, text, cols, width + 3) or [head]


def _wrap(head: str, text: str, cols: int, indent: int = 0) -> list[str]:
    """``head`` then ``text`` in rows of ``cols`` cells, later rows ``indent`` in: English between words as
    ever; a text with wide characters (Japanese: two cells each, and no spaces between its words) between any
    two of them, counted in cells (``textwrap`` counts characters: a Japanese row of 80 of them took 160
    columns), an ASCII word (``play R12``) kept whole, and no row begun with a closing mark (、。）)."""
    if text.isascii():
        return textwrap.wrap(text, cols, initial_indent=head, subsequent_indent=" " * indent)
    rows: list[list[str]] = [[head]]
    used, space = cell_width(head), False
    for token in _TOKENS.findall(text):
        if token == " ":
            space = used > (cell_width(head) if len(rows) == 1 else indent)
            continue
        width = cell_width(token)
        if used + space + width > cols:
            carried = [rows[-1].pop().lstrip(" ")] if token in _NO_ROW_START and len(rows[-1]) > 1 else []
            rows.append([" " * indent, *carried])
            used, space = indent + sum(map(cell_width, carried)), False
        rows[-1].append(" " + token if space else token)
        used, space = used + space + width, False
    return ["".join(row).rstrip() for row in rows if "".join(row).strip()]


_TOKENS = re.compile(r" |[!-~]+|[^ !-~]")  # a space, an ASCII word, or one other character: where rows may break
_NO_ROW_START = set("、。，．）」』】〕・：；！？ー")


def in_own_words(game: str, text: str | Later) -> str:
    """A game's text in the reader's language: a ``Later``, or a text marked in the game's catalog (``N_``)."""
    if isinstance(text, Later):
        return str(text)
    found = plugin(game)
    return load(found.texts).now(text) if found is not None and found.texts else text


def own_words(game: str, usage: str) -> tuple[str, str]:
    """A move's ``usage: what it does`` (a game's ``VERBS`` entry, marked in its own catalog) as what is typed,
    the same in every language, and what it does in the reader's."""
    typed, _, english = usage.partition(":")
    said = in_own_words(game, usage)
    explained = said[len(typed) + 1:] if said.startswith(typed + ":") else said.partition(":")[2] or english
    return typed, explained.strip()


def _verb_rows(game: str, verbs: dict[str, str] | Any, cols: int = 80) -> list[str]:
    return [line for usage in verbs.values() for line in help_row("/" + own_words(game, usage)[0],
                                                                  own_words(game, usage)[1], cols=cols)]


def help_width(session: Session) -> int:
    """The columns help is wrapped to: the user's window, 40 to 80 (wrapped at 80 and then again by a narrower
    window, a line's last word was left alone on a row of its own)."""
    return max(40, min(80, int(getattr(session, "width", 80) or 80)))


KIND_WORDS = {Kind.LOBBY.value: N_("Lobby"), Kind.PEOPLE.value: N_("People"), Kind.TABLES.value: N_("Tables"),
              Kind.GAMES.value: N_("Games"), Kind.ACCOUNT.value: N_("Account"), Kind.SYSOP.value: N_("Sysop"),
              Kind.OTHER.value: N_("Other")}  # /help's labels, in the reader's words (at most 8 cells)


def _kind_rows(label: str, usages: list[str], width: int = 80) -> list[str]:
    """One kind's usages after its label, wrapped between usages only: a usage cut in two (``/option [NAME`` at
    a line's end) reads as two commands. Below 60 columns the usages wrap under the label (``Lobby:``) four
    columns in, the label alone on its row when the first does not fit after it (after an 11-column label,
    ``/bot add [LEVEL] | /bot remove NAME`` was cut at 40)."""
    narrow = width < 60
    indent = " " * (4 if narrow else 11)
    rows: list[str] = []
    row = f"  {label}: " if narrow else f"  {label}" + " " * max(1, 9 - cell_width(label))
    for usage in usages:
        if cell_width(row) + len(usage) > width and row.strip() not in (label, ""):
            rows.append(row.rstrip())
            row = indent
        row += usage + "  "
    return [*rows, row.rstrip()]


SCREEN_ROWS = 24  # /help alone fits a screen of them, with the prompt's row and a row of room


def _summary(session: Session, sysop: bool, cols: int = 80) -> list[str]:
    """``/help`` alone: every command's usage, a kind a line or two, so that it fits a 24-row screen with the
    moves of the table the user sits at (the whole explanation of each was some sixty rows)."""
    lines = _command_rows(sysop, cols, lambda name: COMMANDS[name].usage)
    tail = _wrap("", now("Games: {join}; /help GAME shows one's moves and options.",
                         join=', '.join(available())), cols)
    table = session.table
    if table is None:
        return lines + tail if len(lines) + len(tail) < SCREEN_ROWS - 1 else _command_rows(sysop, cols) + tail
    game = table.game_class
    explained = [now('{title} moves at this table:', title=game.title), *_verb_rows(table.name, game.VERBS, cols)]
    room = SCREEN_ROWS - 2
    if len(lines) + len(explained) + len(tail) > room:  # the table's game is known: the list of games goes first
        tail = []
    if len(lines) + len(explained) > room:  # their usages only, as the commands': in a narrow window the
        # explanations ran past the screen
        explained = _wrap("", now('At this table (/help MOVE explains one):'), cols)
        explained += _kind_rows(game.title, [f"/{usage.split(':')[0]}" for usage in game.VERBS.values()], cols)
    if len(lines) + len(explained) > room:
        lines = _command_rows(sysop, cols)
    return lines + explained + tail


def _command_rows(sysop: bool, cols: int, shown: Callable[[str], str] = lambda name: f"/{name}") -> list[str]:
    """The commands a kind a row or two, each as ``shown`` (its usage; by default its name alone, for a window
    too narrow for every usage on one screen: ``/help COMMAND`` gives it)."""
    lines = _wrap("", now('Commands (plain text is chat to your room; /help COMMAND explains one):'), cols)
    for label, names in help_kinds().items():
        if sysop or label != Kind.SYSOP.value:
            lines += _kind_rows(now(KIND_WORDS.get(label, label)), [shown(name) for name in names], cols)
    return lines


def help_text(topic: str, session: Session, *, sysop: bool = False) -> str:
    """The help on ``topic`` ("" for the summary); ``sysop``: the sysops' own commands are listed too (to
    anyone else they are noise, and ``/help kick`` still explains one)."""
    cols = help_width(session)
    if not topic:
        return "\n".join(_summary(session, sysop, cols))
    if topic == "all":
        lines = _wrap("", now('Commands (plain text is chat to the room you are in):'), cols)
        lines += [line for c in offered(sysop) for line in help_row(c.usage, c.help, cols=cols)]
        return "\n".join(lines)
    if topic == "cards":
        return "\n".join(help_lines(cols))
    if topic in COMMANDS:
        c = COMMANDS[topic]
        return "\n".join(_wrap("", f"{c.usage}: {c.help}", cols, 4))
    if topic in available():
        cls = game_class(topic)
        lines = [now('{title}: {min_players} to {max_players} players. Moves:',
                     title=cls.title, min_players=cls.min_players, max_players=cls.max_players)]
        lines += _verb_rows(topic, cls.VERBS, cols)
        lines += _wrap("", now('Options (/option NAME [VALUE], host, before /start):'), cols)
        lines += [line for o in (*cls.OPTIONS, *TABLE_OPTIONS)
                  for line in help_row(o.name, in_own_words(topic, o.help), 14, cols)]
        return "\n".join(lines)
    here = [session.table.name] if session.table is not None else []  # the table's own game's move first
    for g in dict.fromkeys([*here, *available()]):
        usage = game_class(g).VERBS.get(topic)
        if usage:
            typed, explained = own_words(g, usage)
            return "\n".join(_wrap("", f"/{typed} ({g}): {explained}", cols, 4))
    raise BadCommand(later('no help on {topic!r}; /help lists the commands', topic=topic))
