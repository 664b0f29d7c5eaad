"""The text of the client's panes, as ANSI lines (``Style`` from the server's renderers, shown via
prompt_toolkit's ``ANSI``): the table here; the status line and the Enter hint in ``hints``, the score sheet and
the key help in ``overlays`` (both still importable from here).

Every function takes the width it may use, because the layout reflows with the terminal: a pane never
relies on 80 columns, it drops optional columns and wraps segments and cards instead.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any

from mudwiz.client.events import STYLE, message_lines, revealed, seconds_of, tighten
from mudwiz.client.games import client_part
from mudwiz.client.hints import asked as asked
from mudwiz.client.hints import awaited, connection_state, hint_lines, status_words
from mudwiz.client.hints import connection_words as connection_words
from mudwiz.client.hints import enter_hint as enter_hint
from mudwiz.client.hints import status_line as status_line
from mudwiz.client.model import Model, card_of
from mudwiz.client.overlays import KEYS as KEYS
from mudwiz.client.overlays import generic_sheet as generic_sheet
from mudwiz.client.overlays import help_lines as help_lines
from mudwiz.client.overlays import key_lines as key_lines
from mudwiz.client.overlays import keys as keys
from mudwiz.client.overlays import sheet_lines as sheet_lines
from mudwiz.client.paint import card, cut, cut_ansi, rule
from mudwiz.client.paint import rjust as rjust
from mudwiz.client.paint import suit as suit
from mudwiz.client.replaying import Replay
from mudwiz.client.texts import _, _n
from mudwiz.games import available
from mudwiz.games.base import Phase
from mudwiz.render.ansi import Presenter, draw, replay_move
from mudwiz.render.common import flow, trick_order
from mudwiz.render.style import (
    cell_width,
    pad,
    visible_len,
    wrap_cards,
    wrap_words,
)

NARROWEST = 50  # the table pane beside the log is never narrower: hints and the hand need the room
REPLAY_WIDTH = 81  # a replay's step is the server's 80-column table view


# ---------------------------------------------------------------- the players' table


@dataclass(frozen=True)
class Column:
    title: str
    width: int
    value: Callable[[dict[str, Any]], str]
    optional: bool = False  # dropped first when the pane is narrow
    left: bool = False


def card_cell(code: str | None) -> str:
    """The card a player has in the current trick, or ``--``."""
    return STYLE.card(code) if code else STYLE.paint(" -- ", "grey")


def columns(state: dict[str, Any]) -> list[Column]:
    """The per-player figures the game's plugin shows; any other game gets its scalar fields as they come."""
    own = client_part(state.get("game"), "columns")
    if own is not None:
        return own(state)
    skip = ("name", "score", "bot", "away")
    extra = sorted({k for p in state.get("players", []) for k, v in p.items()
                    if k not in skip and (v is None or isinstance(v, int | str))})
    return [Column("score", 6, lambda p: str(p.get("score", ""))),
            *(Column(k, max(5, len(k)), partial(_field, k), optional=True) for k in extra)]


def _field(key: str, player: dict[str, Any]) -> str:
    """A player's plain field as a column shows it: blank for None."""
    value = player.get(key)
    return "" if value is None else str(value)


def confirm_lines(state: dict[str, Any], width: int) -> list[str]:
    """Who has confirmed the round with /ok, and whom it still waits for (broken between names to fit)."""
    waiting = awaited(state)
    if waiting is None:
        return []
    done = _(" Confirmed (/ok): {names}", names=", ".join(STYLE.text(n) for n in state["confirmed"]) or _("nobody yet"))
    if not waiting:
        return wrap_words(done + "   " + STYLE.bold(_("the next round starts")), width)
    seconds = (state.get("table_options") or {}).get("confirm")
    limit = _(" (at most {seconds} s)", seconds=seconds) if seconds else ""
    names = ", ".join(STYLE.text(n) for n in waiting)
    return wrap_words(done + "   " + STYLE.bold(_("Waiting for /ok: {names}", names=names)) + limit, width)


def player_rows(state: dict[str, Any], width: int, two_columns: bool = False, titles: bool = True) -> list[str]:
    """The players' figures, one row each; ``two_columns`` (for a pane short of rows) sets the seats side by side,
    shortening names before dropping a column; ``titles`` False leaves out the column titles."""
    players = state.get("players", [])
    if two_columns and len(players) > 3:
        half = (width - 2) // 2
        rows = _rows(state, half, shortest_name=10)
        if max(visible_len(r) for r in rows) <= half:
            body = rows[1:]
            n = (len(body) + 1) // 2
            left, right = body[:n], [*body[n:], ""]
            head = [pad(rows[0], half) + "  " + rows[0]] if titles else []
            return head + [(pad(a, half) + "  " + b).rstrip() for a, b in zip(left, right, strict=False)]
    rows = _rows(state, width)
    return rows if titles else rows[1:]


def _rows(state: dict[str, Any], width: int, shortest_name: int = 16) -> list[str]:
    """The column titles and a row a player in ``width`` columns: optional columns go while names are longer than
    ``shortest_name``, then names are shortened."""
    players = state.get("players", [])
    if not players:
        return []
    waiting = set(state.get("waiting") or []) | set(awaited(state) or [])

    def label(p: dict[str, Any]) -> str:
        tag = _(" (stand-in)") if p.get("stand_in") else _(" (bot)") if p.get("bot") else ""
        tag += _(" (away)") if p.get("away") else ""
        return STYLE.text(p["name"]) + tag

    cols = columns(state)
    name_w = max(6, min(16, max(cell_width(label(p)) for p in players)))
    while (3 + min(name_w, shortest_name) + sum(c.width + 1 for c in cols) > width
           and any(c.optional for c in cols)):
        cols.pop(max(i for i, c in enumerate(cols) if c.optional))  # the last optional column goes first
    name_w = max(4, min(name_w, width - 3 - sum(c.width + 1 for c in cols)))  # then names are shortened

    def cell(c: Column, text: str) -> str:
        return pad(text, c.width) if c.left else rjust(text, c.width)

    head = "   " + pad(_("player"), name_w) + "".join(" " + cell(c, str(c.title)) for c in cols)
    rows = [STYLE.paint(head.rstrip(), "grey")]
    for p in row_order(state):
        marker = STYLE.paint(">", "yellow", "bold") if p["name"] in waiting else " "
        name = cut(label(p), name_w)
        if p["name"] == state.get("you"):
            name = STYLE.bold(name)
        elif p.get("away"):
            name = STYLE.paint(name, "red")
        elif p.get("bot"):
            name = STYLE.paint(name, "grey")
        row = f" {marker} {pad(name, name_w)}" + "".join(" " + cell(c, c.value(p)) for c in cols)
        rows.append(row)
    return rows


def row_order(state: dict[str, Any]) -> list[dict[str, Any]]:
    """The players in the order the terminal view lists them: the game's own (Tiltowait: from the player to
    play, in the direction of play), else a trick game's from the trick's leader (``render.common.trick_order``),
    else seat order."""
    own = client_part(state.get("game"), "order")
    if own is not None:
        return list(own(state))
    return trick_order(state) if state.get("leader") else list(state.get("players", []))


def wanted_width(model: Model) -> int:
    """How wide the table pane would be beside the log: its players' rows whole, every column shown."""
    if model.replay is not None:
        return REPLAY_WIDTH
    state = model.state
    if not state or state.get("phase") == Phase.WAITING:
        return NARROWEST
    return max([NARROWEST, *(visible_len(row) + 2 for row in _rows(state, 200))])


# ---------------------------------------------------------------- game facts


def info_segments(state: dict[str, Any]) -> list[str]:
    """The table's facts in force (trump, colour, direction, passing), as segments ``flow`` lays out."""
    own = client_part(state.get("game"), "info_segments")
    segs: list[str] = list(own(state)) if own is not None else []
    if state.get("dealer"):
        segs.append(_("Dealer: {name}", name=STYLE.text(state["dealer"])))
    if state.get("leader"):
        segs.append(_("Leads: {name}", name=STYLE.text(state["leader"])))
    return segs


def trick_lines(state: dict[str, Any], model: Model, width: int) -> list[str]:
    """The trick on the table (or the last one, and who took it), broken between plays to fit ``width``."""
    if "trick" not in state:
        return []
    game = state.get("game")
    trick = state["trick"] or state.get("last_trick") or []
    if not trick:
        return []
    plays = [f"{STYLE.text(t['player'])} {card(t['card'], game=game)}" for t in trick]
    if state["trick"]:
        return [tighten(line) for line in flow([_("Trick:"), *plays], width, gap="  ")]
    won = [f"-> {STYLE.text(model.last_winner)}"] if model.last_winner else []
    return [tighten(line) for line in flow([STYLE.paint(_("Last trick:"), "grey"), *plays, *won], width, gap="  ")]


def header(state: dict[str, Any]) -> str:
    parts = [str(state.get("game", "?")).capitalize(), _("table {table}", table=state.get("table"))]
    if state.get("round"):
        parts.append(_("round {round}/{rounds}", round=state["round"], rounds=state["rounds"]) if state.get("rounds")
                     else _("round {round}", round=state["round"]))
    if isinstance(state.get("cards"), int) and state["cards"]:
        parts.append(_n("{n} card", "{n} cards", state["cards"]))
    if state.get("observer"):
        parts.append(_("watching"))
    return " - ".join(parts)


# ---------------------------------------------------------------- hands opened for a while


def reveal_lines(model: Model, width: int) -> list[str]:
    """Each hand open now (Tiltowait's MILWA, until its ``reveal_end``): whose, for how long and the cards,
    painted as the pane paints cards and broken to ``width``; your own opened hand is named, its cards not drawn
    twice."""
    game = (model.state or {}).get("game")
    lines: list[str] = []
    for shown in model.reveals:
        whose = revealed(shown) or "?"
        if whose == model.name:
            lines += wrap_words(" " + STYLE.bold(_("Your hand is open to the table ({seconds}).",
                                                   seconds=seconds_of(shown))), width)
            continue
        said = (_("{name}'s hand is open ({seconds}):", name=STYLE.text(whose), seconds=seconds_of(shown))
                if shown.get("audience", "table") == "table" else
                _("{name}'s hand is shown to you ({seconds}):", name=STYLE.text(whose), seconds=seconds_of(shown)))
        head = wrap_words(" " + STYLE.bold(said), width)
        lines += head[:-1]
        line, used = head[-1], visible_len(head[-1])
        for code in shown["cards"]:
            painted = card(str(code), game=game)
            if used + visible_len(painted) > width and used > 2:
                lines.append(line)
                line, used = "  ", 2
            line, used = line + painted, used + visible_len(painted)
        lines.append(line)
    return lines


# ---------------------------------------------------------------- your hand and your choices


def hand_lines(model: Model, width: int, title: bool = True) -> list[str]:
    """Your cards, the playable ones marked and the cursor's in brackets; without ``title`` (a pane short of rows)
    the first line of cards carries the label instead of a line of its own."""
    state = model.state or {}
    if state.get("you") is None:
        return [STYLE.paint(_(" (watching: observers see no hands)"), "grey")] if state.get("observer") else []
    hand = model.hand
    playable = {card_of(c) for c in model.legal}
    cursor = model.selected_position()
    cards = []
    for i, code in enumerate(hand):
        can = bool(model.picking) or code.upper() in playable
        text = card(code, can, state.get("game"))
        if i in model.marked:
            text = STYLE.paint(text.replace(f" {code} ", f"+{code}+"), "underline")
        if i == cursor:
            text = STYLE.paint(text.replace(f" {code} ", f"[{code}]").replace(f"+{code}+", f"[{code}]"), "underline")
        cards.append(text)
    if not hand:
        return [] if state.get("phase") in (Phase.ROUNDEND, Phase.GAMEOVER) else [_(" Your hand: empty")]
    if not title:
        label = pad(_(" Hand: "), 7)
        lines = wrap_cards(cards, width=max(14, width), indent=visible_len(label))
        return [label + lines[0][visible_len(label):], *lines[1:]]
    return [_(" Your hand ({n}):", n=len(hand)), *wrap_cards(cards, width=max(8, width), indent=2)]


def choice_lines(model: Model, width: int) -> list[str]:
    """Moves that are not a card of the hand (bids, trump, /ok, draw, …) as a row the cursor walks."""
    options = model.choices()
    if model.picking or not options:
        return []
    hand = {c.upper() for c in model.hand}
    if all(card_of(c) in hand for c in options):
        return []
    selected = model.selected()
    items = []
    for c in options:
        if card_of(c) in hand:
            continue
        word = c.removeprefix("/")
        items.append(STYLE.paint(f"[{word}]", "bold", "reverse") if c == selected else f" {word} ")
    return wrap_cards(items, width=max(8, width), indent=1)


# ---------------------------------------------------------------- the panes


def lobby_lines(model: Model, width: int) -> list[str]:
    lines = [rule(_("Lobby"), width)]
    if model.who:
        lines += flow([f"{STYLE.text(u['name'])} ({u['where']})" for u in model.who], width)
    if model.tables:
        for t in model.tables:
            players = ", ".join(STYLE.text(p) for p in t["players"]) or "-"
            status = pad(status_words(t["status"]), 8)
            lines.append(cut(f" #{t['id']:<3} {t['game']:<10} {status} {t['seats']:>5}  {players}", width))
    else:
        lines.append(_(" No tables yet."))
    first = (model.games or available() or ["GAME"])[0]  # the server's games, else this install's
    hint = _("/new {game} opens a table, /join N sits down, /watch N watches, /tables, /who.", game=first)
    return lines + [STYLE.paint(line, "grey") for line in wrap_words(" " + hint, width)]


def table_lines(model: Model, width: int, height: int | None = None) -> list[str]:
    """The table pane: the latest state drawn whole (or the lobby, or the login screen) in at most ``height``
    rows. A table that does not fit is drawn more compactly step by step (``game_lines``); what you hold and the
    move Enter sends are the last things given up."""
    width = max(20, width)
    if model.replay is not None:
        return replay_lines(model.replay, width, height)
    if not model.logged_in and model.state is None and not model.who:
        return fit([rule("mudwiz", width), _(" Server: {address}", address=model.address),
                    STYLE.bold(_(" Type your name and press Enter.")) if model.connection == "connected" else
                    f" {connection_state(model)}..."], height, keep=1)
    state = model.state
    if state is None:
        return fit(lobby_lines(model, width), height, keep=1)
    if state.get("phase") == Phase.WAITING:
        room = [cut_ansi(line, width) for line in Presenter(STYLE).waiting_room(state)[1:]]
        hint = hint_lines(model, width) if model.legal else []
        return fit([rule(_("Table {table}: {game}, waiting", table=state["table"], game=state["game"]), width), *room,
                    *hint], height,
                   keep=len(hint))
    for level in range(COMPACT + 1):
        top, bottom = game_lines(model, state, width, level)
        if height is None or len(top) + len(bottom) <= height:
            break
    return fit(top + bottom, height, keep=len(bottom))


def replay_lines(replay: Replay, width: int, height: int | None = None) -> list[str]:
    """A replay's step: the move and what it did, then the table after it with every hand, drawn by the game's
    own table view as a terminal user sees it (``/replay ID N``); the keys stay on the last line."""
    keys = STYLE.paint(_(" Left/Right: step  Home/End: first/last  Esc or q: leave"), "grey")
    head = rule(_("Replay #{id} {game}: step {at} of {steps}", id=replay.id, game=replay.game, at=replay.at,
                  steps=replay.steps), width)
    frame = replay.frame
    if frame is None:
        return fit([head, STYLE.paint(_(" (asking the server for this step...)"), "grey"), keys], height, keep=1)
    lines = [head, STYLE.bold(" " + replay_move(frame, STYLE))]
    lines += [line for event in frame["events"] for line in message_lines({**event, "game": replay.game})]
    lines += draw(replay.game, "table_view")(frame["view"], STYLE)
    return fit([cut_ansi(line, width) for line in [*lines, keys]], height, keep=1)


COMPACT = 3  # the most compact level of game_lines


def game_lines(model: Model, state: dict[str, Any], width: int, level: int = 0) -> tuple[list[str], list[str]]:
    """A table in play as (the table, what you hold and choose), at a compactness ``level``: 0 everything;
    1 the players in two columns; 2 no trick line and the hand's label on its first line; 3 no column titles and
    the table's facts on one line. A hand opened for a while (MILWA) is drawn above yours at every level."""
    info = flow([tighten(seg) for seg in info_segments(state)], width)
    top = [rule(header(state), width), *(info if level < COMPACT else info[:1])]
    top += player_rows(state, width, two_columns=level >= 1, titles=level < COMPACT)
    if level < 2:
        top += trick_lines(state, model, width)
    bottom = reveal_lines(model, width)  # just above your hand: kept whole, unless your choice needs the rows
    bottom += confirm_lines(state, width)
    bottom += hand_lines(model, width, title=level < 2)
    bottom += choice_lines(model, width)
    bottom += hint_lines(model, width)
    if state.get("standings"):
        ranked = [f"{r['place']}. {STYLE.text(r['player'])} {r['score']}" for r in state["standings"]]
        bottom += flow([STYLE.bold(_("Final:")), *ranked], width, gap="  ")
    return top, bottom


def fit(lines: list[str], height: int | None, keep: int = 0) -> list[str]:
    """At most ``height`` lines: the last ``keep`` whole (what you choose), the others cut short, saying so."""
    if height is None or len(lines) <= height:
        return lines
    height = max(1, height)
    tail = lines[len(lines) - keep:] if keep else []
    if len(tail) >= height:
        return tail[-height:]
    head = lines[:len(lines) - len(tail)]
    room = height - len(tail)
    more = STYLE.paint(_n(" ... {n} more line: a taller window shows it",
                          " ... {n} more lines: a taller window shows them", len(head) - room + 1), "grey")
    return [*head[:room - 1], more, *tail]

