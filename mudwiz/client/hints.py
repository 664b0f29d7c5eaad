"""What the client tells you to do: the Enter hint under your hand (what Enter on an empty line sends) and the
status line (connection, who and where, whose turn, what you are asked), each fitted to the width it gets."""

from __future__ import annotations

from typing import Any

from mudwiz.client.events import STYLE
from mudwiz.client.model import Model
from mudwiz.client.paint import cut_ansi, suit
from mudwiz.client.texts import _
from mudwiz.games import plugin
from mudwiz.games.base import Phase
from mudwiz.render.style import visible_len, wrap_words
from mudwiz.texts import N_


def awaited(state: dict[str, Any]) -> list[str] | None:
    """At a round's end, the people the next round waits for (``/ok`` not yet typed; bots and dropped players are
    never waited for); None outside a round's end or from a server that does not say who confirmed."""
    if state.get("phase") != Phase.ROUNDEND or state.get("confirmed") is None:
        return None
    done = set(state["confirmed"])
    return [p["name"] for p in state.get("players", []) if not p.get("bot") and not p.get("away")
            and p["name"] not in done]


def enter_hint(model: Model, width: int) -> str:
    """What Enter on an empty line would do, so a player never has to guess; a colour a spell names is spelled
    out (Tiltowait's G is gold), and the keys that change the choice are named. Where that is too long the keys,
    then the colour's name go; the command itself is never cut (``hint_lines`` breaks it if it must)."""
    command = model.enter_command()
    if model.picking:
        need = model.pick_count() - len(model.marked)
        if need > 0:
            return STYLE.paint(_(" Space chooses a card to {verb} ({need} more)", verb=model.picking, need=need),
                               "yellow")
    if command is None:
        return ""
    game = (model.state or {}).get("game", "")
    words = [w for w in command.split() if w not in model.calls()]
    move, colour = len(model.choices()) > 1, len(model.choice_forms()) > 1
    named = f" ({suit(words[-1].upper(), game)})" if colour and len(words[-1]) == 1 else ""
    keys = (_("  (Left/Right: card, Up/Down: colour)") if move and colour else _("  (Up/Down: colour)") if colour
            else _("  (Left/Right to change)") if move else "")
    hint = STYLE.paint(_(" Enter sends "), "grey") + STYLE.bold(command)
    for more in (named + STYLE.paint(keys, "grey"), named, ""):
        if visible_len(hint + more) <= width:
            return hint + more
    return hint


def hint_lines(model: Model, width: int) -> list[str]:
    """The Enter line, broken between words only on a pane too narrow for the move itself."""
    hint = enter_hint(model, width)
    return wrap_words(hint, width) if hint else []


def asked(model: Model) -> str:
    """What the player is asked to do now, in a few words (the status line's last part)."""
    state = model.state
    if model.question:  # a password asked at login, or for /register or /password once logged in
        return _("type your {what}", what=model.question.lower())
    if not model.logged_in:
        return _("type your name")
    if model.replay is not None:
        return _("replay: Left/Right step, Esc leaves")
    if state is None:
        return _("lobby: /new GAME or /join N")
    legal = model.legal
    phase = state.get("phase")
    if phase == Phase.WAITING:
        return _("Enter starts the game") if "/start" in legal else _("waiting for the host to /start")
    if model.game_over():
        return _("game over; type /start for a new game") if "/start" in legal else _("game over")
    if "/ok" in legal and len(legal) == 1:
        return _("round over: Enter (/ok) for the next round")
    if awaited(state):
        return _("waiting for /ok from {names}", names=", ".join(STYLE.text(n) for n in awaited(state) or []))
    moves = [c for c in legal if c not in ("/ok", "/start")]
    if moves:
        verb = moves[0].split()[0].removeprefix("/")
        found = plugin(state.get("game"))
        prompts = {"play": _("play a card"), **(found.prompts if found is not None else {})}
        return _("YOUR TURN: {what}", what=str(prompts.get(verb, verb)).format(count=model.pick_count()))
    waiting = state.get("waiting") or []
    if waiting:
        return _("waiting for {names}", names=", ".join(STYLE.text(n) for n in waiting))
    return phase or ""


def connection_words(model: Model) -> list[str]:
    """The status line's connection part, longest first: a narrow line takes shorter words rather than losing
    what it asks of you. After a takeover (the name logged in on another connection) F5 is not offered: it
    would take the name back from that connection."""
    if model.connection == "connected":
        return [STYLE.paint(connection_state(model), "green")]
    if model.connection == "connecting":
        return [STYLE.paint(connection_state(model), "yellow")]
    if model.taken_over:
        words = [_("DISCONNECTED: your name logged in on another connection"), _("DISCONNECTED: logged in elsewhere"),
                 _("DISCONNECTED")]
    else:
        words = [_("DISCONNECTED ({reason}) - F5 reconnects", reason=model.reason), _("DISCONNECTED - F5 reconnects"),
                 _("OFFLINE: F5")]
    return [STYLE.paint(w, "red", "bold") for w in words]


STATUSES = {"waiting": N_("waiting"), "playing": N_("playing"), "over": N_("over")}  # a table's (docs/protocol.md)


CONNECTIONS = {"connecting": N_("connecting"), "connected": N_("connected"), "disconnected": N_("disconnected")}


def connection_state(model: Model) -> str:
    """The connection's state (``Model.connection``) in the client's words."""
    return _(CONNECTIONS[model.connection]) if model.connection in CONNECTIONS else model.connection


def status_words(status: Any) -> str:
    """A table's status (a protocol code) in the client's words; a code it does not know, as it came."""
    return _(STATUSES[status]) if status in STATUSES else str(status)


def status_line(model: Model, width: int = 200) -> str:
    """Connection, who and where, whose turn, what you are asked; when narrow, the least needed parts go first,
    then the connection is said in fewer words."""
    conns = connection_words(model)
    who = f"{STYLE.text(model.name)}@{model.address}" if model.name else model.address
    state = model.state or {}
    where = _("table {table} {game} {status}", table=state.get("table"), game=state.get("game"),
              status=status_words(state.get("status"))) if state else ""
    turn = _("turn: {name}", name=STYLE.text(state["turn"])) if state.get("turn") else ""
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
