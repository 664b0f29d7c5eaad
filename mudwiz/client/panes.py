"""The text of the client's panes, as ANSI lines (``Style`` from the server's renderers, shown via
prompt_toolkit's ``ANSI``): the table, the status line, the score sheet and the key help.

Every function takes the width it may use, because the layout reflows with the terminal: a pane never
relies on 80 columns, it drops optional columns and wraps segments and cards instead.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any

from mudwiz.cards import SUIT_NAMES
from mudwiz.client.events import STYLE, message_lines, renderer, revealed, seconds_of, tighten
from mudwiz.client.games import client_part
from mudwiz.client.model import Model, card_of
from mudwiz.client.replaying import Replay
from mudwiz.games import available, plugin, plugins
from mudwiz.games.base import Phase
from mudwiz.render.ansi import Presenter, draw, replay_move
from mudwiz.render.common import flow, trick_order
from mudwiz.render.reflow import reflow
from mudwiz.render.style import (
    SUIT_COLOUR,
    cell_width,
    pad,
    strip_ansi,
    truncate,
    visible_len,
    wrap_cards,
    wrap_words,
)

NARROWEST = 50  # the table pane beside the log is never narrower: hints and the hand need the room
REPLAY_WIDTH = 81  # a replay's step is the server's 80-column table view
KEYS = [  # the Left/Right/Home/End/Enter/Space bindings act only while the input line is empty
    ("Left / Right", "move through your playable cards or legal bids"),
    ("Up / Down", "the colour a spell names (MAHALITO, ...); else input history"),
    ("Home / End", "first / last choice"),
    ("Enter", "send the selected move (or /ok, /start)"),
    ("Tab", "complete commands, legal moves, cards, names"),
    ("PageUp / PageDown", "scroll the log (this pane while it is open)"),
    ("F1", "this help: the keys and your game's rules"),
    ("F2", "the score sheet"),
    ("F5", "reconnect after a drop (logs in again as you)"),
    ("Ctrl-D / F10", "quit"),
    ("In a replay", "Left/Right step, Home/End first/last step, Esc or q leaves"),
]


def keys() -> list[tuple[str, str]]:
    """The keys and what they do: ``KEYS``, with the keys the games here bring (their plugins' ``keys``) after
    Enter."""
    at = next(i for i, (key, _) in enumerate(KEYS) if key == "Enter") + 1
    own = [pair for found in plugins().values() for pair in found.keys]
    return [*KEYS[:at], *own, *KEYS[at:]]


def suit(letter: str | None, game: str = "") -> str:
    """A suit or colour letter as its painted name, in the game's own words (Tiltowait's G is gold)."""
    if letter is None:
        return "none"
    name = getattr(renderer(game), "COLOUR_NAMES", SUIT_NAMES).get(letter, letter)
    return STYLE.paint(name, "yellow" if name == "gold" else SUIT_COLOUR.get(letter, "white"), "bold")


def card(code: str, marked: bool = False, game: str | None = None) -> str:
    """A card as the game's renderer paints it (its own ``card`` when it has one), else ``Style.card``."""
    painter = getattr(renderer(game), "card", None)
    return painter(STYLE, code, marked) if callable(painter) else STYLE.card(code, marked)


def rule(title: str, width: int) -> str:
    """A pane's title bar; the title is shortened rather than run past the pane's edge."""
    return STYLE.rule(cut(title, max(1, width - 4)), width)


def rjust(text: str, width: int) -> str:
    return " " * max(0, width - visible_len(text)) + text


def cut(text: str, width: int) -> str:
    """Shorten plain text to ``width`` terminal cells, marking the cut."""
    return text if cell_width(text) <= width else pad(truncate(text, width - 1), width - 1) + "~"


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


def awaited(state: dict[str, Any]) -> list[str] | None:
    """At a round's end, the people the next round waits for (``/ok`` not yet typed; bots and dropped players are
    never waited for); None outside a round's end or from a server that does not say who confirmed."""
    if state.get("phase") != Phase.ROUNDEND or state.get("confirmed") is None:
        return None
    done = set(state["confirmed"])
    return [p["name"] for p in state.get("players", []) if not p.get("bot") and not p.get("away")
            and p["name"] not in done]


def confirm_lines(state: dict[str, Any], width: int) -> list[str]:
    """Who has confirmed the round with /ok, and whom it still waits for (broken between names to fit)."""
    waiting = awaited(state)
    if waiting is None:
        return []
    done = f" Confirmed (/ok): {', '.join(STYLE.text(n) for n in state['confirmed']) or 'nobody yet'}"
    if not waiting:
        return wrap_words(done + "   " + STYLE.bold("the next round starts"), width)
    seconds = (state.get("table_options") or {}).get("confirm")
    limit = f" (at most {seconds} s)" if seconds else ""
    names = ", ".join(STYLE.text(n) for n in waiting)
    return wrap_words(done + "   " + STYLE.bold(f"Waiting for /ok: {names}") + limit, width)


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
        tag = " (stand-in)" if p.get("stand_in") else " (bot)" if p.get("bot") else ""
        tag += " (away)" if p.get("away") else ""
        return STYLE.text(p["name"]) + tag

    cols = columns(state)
    name_w = max(6, min(16, max(cell_width(label(p)) for p in players)))
    while (3 + min(name_w, shortest_name) + sum(c.width + 1 for c in cols) > width
           and any(c.optional for c in cols)):
        cols.pop(max(i for i, c in enumerate(cols) if c.optional))  # the last optional column goes first
    name_w = max(4, min(name_w, width - 3 - sum(c.width + 1 for c in cols)))  # then names are shortened

    def cell(c: Column, text: str) -> str:
        return pad(text, c.width) if c.left else rjust(text, c.width)

    head = "   " + pad("player", name_w) + "".join(" " + cell(c, c.title) for c in cols)
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
        segs.append(f"Dealer: {STYLE.text(state['dealer'])}")
    if state.get("leader"):
        segs.append(f"Leads: {STYLE.text(state['leader'])}")
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
        return [tighten(line) for line in flow(["Trick:", *plays], width, gap="  ")]
    won = [f"-> {STYLE.text(model.last_winner)}"] if model.last_winner else []
    return [tighten(line) for line in flow([STYLE.paint("Last trick:", "grey"), *plays, *won], width, gap="  ")]


def header(state: dict[str, Any]) -> str:
    parts = [str(state.get("game", "?")).capitalize(), f"table {state.get('table')}"]
    if state.get("round"):
        parts.append(f"round {state['round']}" + (f"/{state['rounds']}" if state.get("rounds") else ""))
    if isinstance(state.get("cards"), int) and state["cards"]:
        parts.append(f"{state['cards']} card{'s' * (state['cards'] != 1)}")
    if state.get("observer"):
        parts.append("watching")
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
            lines += wrap_words(" " + STYLE.bold(f"Your hand is open to the table ({seconds_of(shown)})."), width)
            continue
        to = "is open" if shown.get("audience", "table") == "table" else "is shown to you"
        head = wrap_words(" " + STYLE.bold(f"{STYLE.text(whose)}'s hand {to} ({seconds_of(shown)}):"), width)
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
        return [STYLE.paint(" (watching: observers see no hands)", "grey")] if state.get("observer") else []
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
        return [] if state.get("phase") in (Phase.ROUNDEND, Phase.GAMEOVER) else [" Your hand: empty"]
    if not title:
        lines = wrap_cards(cards, width=max(14, width), indent=7)
        return [" Hand: " + lines[0][7:], *lines[1:]]
    return [f" Your hand ({len(hand)}):", *wrap_cards(cards, width=max(8, width), indent=2)]


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


def enter_hint(model: Model, width: int) -> str:
    """What Enter on an empty line would do, so a player never has to guess; a colour a spell names is spelled
    out (Tiltowait's G is gold), and the keys that change the choice are named. Where that is too long the keys,
    then the colour's name go; the command itself is never cut (``hint_lines`` breaks it if it must)."""
    command = model.enter_command()
    if model.picking:
        need = model.pick_count() - len(model.marked)
        if need > 0:
            return STYLE.paint(f" Space chooses a card to {model.picking} ({need} more)", "yellow")
    if command is None:
        return ""
    game = (model.state or {}).get("game", "")
    words = [w for w in command.split() if w not in model.calls()]
    move, colour = len(model.choices()) > 1, len(model.choice_forms()) > 1
    named = f" ({suit(words[-1].upper(), game)})" if colour and len(words[-1]) == 1 else ""
    keys = ("  (Left/Right: card, Up/Down: colour)" if move and colour else "  (Up/Down: colour)" if colour else
            "  (Left/Right to change)" if move else "")
    hint = STYLE.paint(" Enter sends ", "grey") + STYLE.bold(command)
    for more in (named + STYLE.paint(keys, "grey"), named, ""):
        if visible_len(hint + more) <= width:
            return hint + more
    return hint


def hint_lines(model: Model, width: int) -> list[str]:
    """The Enter line, broken between words only on a pane too narrow for the move itself."""
    hint = enter_hint(model, width)
    return wrap_words(hint, width) if hint else []


# ---------------------------------------------------------------- the panes


def lobby_lines(model: Model, width: int) -> list[str]:
    lines = [rule("Lobby", width)]
    if model.who:
        lines += flow([f"{STYLE.text(u['name'])} ({u['where']})" for u in model.who], width)
    if model.tables:
        for t in model.tables:
            players = ", ".join(STYLE.text(p) for p in t["players"]) or "-"
            lines.append(cut(f" #{t['id']:<3} {t['game']:<10} {t['status']:<8} {t['seats']:>5}  {players}", width))
    else:
        lines.append(" No tables yet.")
    first = (model.games or available() or ["GAME"])[0]  # the server's games, else this install's
    hint = f"/new {first} opens a table, /join N sits down, /watch N watches, /tables, /who."
    return lines + [STYLE.paint(line, "grey") for line in wrap_words(" " + hint, width)]


def table_lines(model: Model, width: int, height: int | None = None) -> list[str]:
    """The table pane: the latest state drawn whole (or the lobby, or the login screen) in at most ``height``
    rows. A table that does not fit is drawn more compactly step by step (``game_lines``); what you hold and the
    move Enter sends are the last things given up."""
    width = max(20, width)
    if model.replay is not None:
        return replay_lines(model.replay, width, height)
    if not model.logged_in and model.state is None and not model.who:
        return fit([rule("mudwiz", width), f" Server: {model.address}",
                    STYLE.bold(" Type your name and press Enter.") if model.connection == "connected" else
                    f" {model.connection}..."], height, keep=1)
    state = model.state
    if state is None:
        return fit(lobby_lines(model, width), height, keep=1)
    if state.get("phase") == Phase.WAITING:
        room = [cut_ansi(line, width) for line in Presenter(STYLE).waiting_room(state)[1:]]
        hint = hint_lines(model, width) if model.legal else []
        return fit([rule(f"Table {state['table']}: {state['game']}, waiting", width), *room, *hint], height,
                   keep=len(hint))
    for level in range(COMPACT + 1):
        top, bottom = game_lines(model, state, width, level)
        if height is None or len(top) + len(bottom) <= height:
            break
    return fit(top + bottom, height, keep=len(bottom))


def replay_lines(replay: Replay, width: int, height: int | None = None) -> list[str]:
    """A replay's step: the move and what it did, then the table after it with every hand, drawn by the game's
    own table view as a terminal user sees it (``/replay ID N``); the keys stay on the last line."""
    keys = STYLE.paint(" Left/Right: step  Home/End: first/last  Esc or q: leave", "grey")
    head = rule(f"Replay #{replay.id} {replay.game}: step {replay.at} of {replay.steps}", width)
    frame = replay.frame
    if frame is None:
        return fit([head, STYLE.paint(" (asking the server for this step...)", "grey"), keys], height, keep=1)
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
        bottom += flow([STYLE.bold("Final:"), *ranked], width, gap="  ")
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
    more = STYLE.paint(f" ... {len(head) - room + 1} more lines: a taller window shows them", "grey")
    return [*head[:room - 1], more, *tail]


def cut_ansi(line: str, width: int) -> str:
    """A painted line no wider than ``width`` (its paint dropped only if it had to be cut)."""
    return line if visible_len(line) <= width else cut(strip_ansi(line), width)


def asked(model: Model) -> str:
    """What the player is asked to do now, in a few words (the status line's last part)."""
    state = model.state
    if model.question:  # a password asked at login, or for /register or /password once logged in
        return f"type your {model.question.lower()}"
    if not model.logged_in:
        return "type your name"
    if model.replay is not None:
        return "replay: Left/Right step, Esc leaves"
    if state is None:
        return "lobby: /new GAME or /join N"
    legal = model.legal
    phase = state.get("phase")
    if phase == Phase.WAITING:
        return "Enter starts the game" if "/start" in legal else "waiting for the host to /start"
    if model.game_over():
        return "game over" + ("; type /start for a new game" if "/start" in legal else "")
    if "/ok" in legal and len(legal) == 1:
        return "round over: Enter (/ok) for the next round"
    if awaited(state):
        return "waiting for /ok from " + ", ".join(STYLE.text(n) for n in awaited(state) or [])
    moves = [c for c in legal if c not in ("/ok", "/start")]
    if moves:
        verb = moves[0].split()[0].removeprefix("/")
        found = plugin(state.get("game"))
        prompts = {"play": "play a card", **(found.prompts if found is not None else {})}
        return f"YOUR TURN: {prompts.get(verb, verb).format(count=model.pick_count())}"
    waiting = state.get("waiting") or []
    if waiting:
        return "waiting for " + ", ".join(STYLE.text(n) for n in waiting)
    return phase or ""


def connection_words(model: Model) -> list[str]:
    """The status line's connection part, longest first: a narrow line takes shorter words rather than losing
    what it asks of you. After a takeover (the name logged in on another connection) F5 is not offered: it
    would take the name back from that connection."""
    if model.connection == "connected":
        return [STYLE.paint("connected", "green")]
    if model.connection == "connecting":
        return [STYLE.paint("connecting", "yellow")]
    if model.taken_over:
        words = ["DISCONNECTED: your name logged in on another connection", "DISCONNECTED: logged in elsewhere",
                 "DISCONNECTED"]
    else:
        words = [f"DISCONNECTED ({model.reason}) - F5 reconnects", "DISCONNECTED - F5 reconnects", "OFFLINE: F5"]
    return [STYLE.paint(w, "red", "bold") for w in words]


def status_line(model: Model, width: int = 200) -> str:
    """Connection, who and where, whose turn, what you are asked; when narrow, the least needed parts go first,
    then the connection is said in fewer words."""
    conns = connection_words(model)
    who = f"{STYLE.text(model.name)}@{model.address}" if model.name else model.address
    state = model.state or {}
    where = f"table {state.get('table')} {state.get('game')} {state.get('status')}" if state else ""
    turn = f"turn: {STYLE.text(state['turn'])}" if state.get("turn") else ""
    parts = {"conn": conns[0], "who": who, "where": where, "turn": turn, "asked": STYLE.bold(asked(model))}

    def line() -> str:
        return " " + " | ".join(p for p in parts.values() if p)

    for drop in ("who", "turn", "where"):
        if visible_len(line()) <= width:
            break
        parts[drop] = ""
    for conn in conns[1:]:
        if visible_len(line()) <= width:
            break
        parts["conn"] = conn
    return cut_ansi(line(), width)


def sheet_lines(model: Model) -> list[str]:
    """The score sheet pop-up: the game's own renderer's sheet when there is one, else a generic one."""
    message = model.sheet_message()
    if message is None:
        return [" No score sheet yet: sit at a table (F2 again closes this)."]
    module = renderer(message.get("game"))
    if module is not None and hasattr(module, "score_sheet"):
        try:
            return list(module.score_sheet(message, STYLE))
        except Exception:  # a renderer for another version of the message: use the generic sheet
            pass
    return generic_sheet(message)


def generic_sheet(message: dict[str, Any]) -> list[str]:
    names = [p["name"] for p in message.get("players", [])]
    lines = [STYLE.rule("Score sheet", 12 + 12 * len(names)),
             "  rnd  " + "".join(pad(cut(STYLE.text(n), 11), 12) for n in names)]
    for entry in message.get("sheet", []):
        by_name = {r["player"]: r for r in entry.get("results", [])}
        cells = []
        for n in names:
            r = by_name.get(n, {})
            text = f"{r.get('score', '')}({r.get('delta', 0):+d})" if r else "-"
            cells.append(pad(STYLE.paint(text, "green" if r.get("delta", 0) > 0 else "red"), 12))
        lines.append(f"  {entry.get('round', '?'):>3}  " + "".join(cells))
    if not message.get("sheet"):
        lines.append("  (no round scored yet)")
    return lines


def key_lines(width: int = 200) -> list[str]:
    """The keys and what they do, broken between words under the description (cut, they lost their ends)."""
    lines = [part for k, v in keys() for part in wrap_words(f" {pad(STYLE.bold(k), 18)} {v}", width, indent=20)]
    note = " Left/Right/Home/End/Enter/Space act when the input line is empty."
    return lines + [STYLE.paint(part, "grey") for part in wrap_words(note, width, indent=1)]




def help_lines(model: Model, width: int) -> list[str]:
    """F1's pane: the keys, then the rules of your table's game as the server words them (``/rules``)."""
    lines = key_lines(width)
    game = (model.state or {}).get("game")
    if game is None:
        return [*lines, "", STYLE.paint(" At a table F1 shows its game's rules here too (/rules GAME asks).", "grey")]
    if model.rules_asked == game:
        return [*lines, "", STYLE.paint(f" (asking the server for the rules of {game}...)", "grey")]
    if not model.rules.get(game):
        return [*lines, "", STYLE.paint(f" (this server sends no rules of {game}: the keys only)", "grey")]
    lines += ["", rule(f"The rules of {game.capitalize()}", width)]
    return lines + reflow(model.rules[game], width, STYLE.text, margin=1)  # a column in from the pane's edge
