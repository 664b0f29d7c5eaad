"""What the client knows, built only from the messages it received: no rules, no guessing.

The server sends a complete ``state`` whenever the table may have changed, so the model keeps the latest one
and redraws from it; the log is the events and talk in arrival order. The card cursor lives here too, because
what it may point at is exactly the ``legal`` list of that state.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import Any

from mudwiz.client.choosing import CONFIRMS as CONFIRMS
from mudwiz.client.choosing import Choosing
from mudwiz.client.choosing import card_of as card_of
from mudwiz.client.choosing import stop_of as stop_of
from mudwiz.client.events import STYLE, message_lines, revealed, text_lines
from mudwiz.client.replaying import Replay
from mudwiz.client.texts import _
from mudwiz.games.base import Phase

LOG_LINES = 2000
# the server's words to the connection it closes for a new one
TAKEN_OVER = "logged in again on another connection"  # i18n: not text (the server's, matched)


@dataclass
class Model(Choosing):
    """The client's picture: connection, login, latest table state, lists, log and the selection cursor."""

    address: str = ""
    lang: str = "en"  # the language the client speaks (``texts.client_lang``), and asks the server to speak
    name: str | None = None
    logged_in: bool = False
    resume: str | None = None  # a guest's resume code from the last welcome: F5 gives it when the server asks
    question: str | None = None  # what the server asked (``Password``, ``Again``: login, /register): the next line
    connection: str = "connecting"  # connecting, connected, disconnected
    reason: str = ""
    taken_over: bool = False  # the name logged in on another connection, which closed this one: F5 would take it back
    logged: int = 0  # lines ever added to the log (it keeps the last LOG_LINES): a scrolled-back view follows them
    state: dict[str, Any] | None = None
    who: list[dict[str, Any]] = field(default_factory=list)
    tables: list[dict[str, Any]] = field(default_factory=list)
    score: dict[str, Any] | None = None
    last_winner: str | None = None
    log: deque[str] = field(default_factory=lambda: deque(maxlen=LOG_LINES))
    pending: dict[int, str] = field(default_factory=dict)  # request id -> command, until its reply
    cursor: int = 0
    forms: dict[str, str] = field(default_factory=dict)  # stop -> the form (colour) chosen with Up/Down
    marked: list[int] = field(default_factory=list)  # hand positions chosen for a move of several cards
    # Hands open for a while (Tiltowait's MILWA): the reveal messages, oldest first, until their ``reveal_end``.
    reveals: list[dict[str, Any]] = field(default_factory=list)
    show_sheet: bool = False
    # What the server offers (``welcome`` and ``/help`` carry it): commands with their help, games, bot levels.
    commands: dict[str, str] = field(default_factory=dict)
    games: list[str] = field(default_factory=list)
    bot_levels: list[str] = field(default_factory=list)
    # The games' rules as the server words them (``/rules GAME``; [] when it refused), for F1's help pane.
    rules: dict[str, list[str]] = field(default_factory=dict)
    rules_asked: str | None = None  # the game F1 asked the rules of, until the reply
    rules_heard: list[str] = field(default_factory=list)  # what came for that request before its reply
    left_said: bool = False  # a ``left`` came for the /leave under way: its reply need not say it again
    replay: Replay | None = None  # a recorded game being stepped through (``/replay ID``), shown instead of the table

    # ------------------------------------------------------------ input

    def apply(self, message: dict[str, Any]) -> None:
        """Take one message from the server into the picture."""
        kind = message["type"]
        before, previous = self.selected(), self.state
        if self._rules_answer(message):
            return
        if "commands" in message:  # the server's catalogue (docs/protocol.md): welcome, /help
            self.commands = {c["command"]: c["help"] for c in message["commands"]}
            self.games = list(message.get("games", self.games))
            self.bot_levels = list(message.get("bot_levels", self.bot_levels))
        if kind in ("welcome", "password"):
            self._login(message)
            if kind == "password":
                return
        elif kind == "state":
            self._new_state(message)
        elif kind == "who":
            self.who = message["users"]
        elif kind == "tables":
            self.tables = message["tables"]
        elif kind == "score":
            self.score, self.show_sheet = message, True
        elif kind == "replay":
            self._replaying(message)
        elif kind in ("trick", "reveal_end", "left") or kind == self._round_start(message):
            self._follow_play(message)
        elif kind in ("ok", "error") and not self._replied(message):
            return
        if revealed(message) is not None:
            self.reveals.append(message)
        if kind == "ok" and not self.logged_in:
            return  # the reply to the client's own /mode json: plumbing, not news
        for line in message_lines(message):
            self.note(line)
        self._keep_cursor(before)
        if kind == "state":
            self._first_choice(previous)

    def _replied(self, message: dict[str, Any]) -> bool:
        """An ``ok`` or ``error``: its request answered; False when it says nothing new (the reply to a /leave
        whose ``left`` was logged: "You are no longer at table N." and "you leave table N" were both shown)."""
        if message["type"] == "error":
            if not self.logged_in:
                self.question = None  # refused: the name prompt again
            if TAKEN_OVER in str(message.get("message", "")):
                self.taken_over = True
        command = self.pending.pop(message.get("id"), "")  # type: ignore[arg-type]
        if message["type"] == "ok" and command.lower().split()[:1] == ["/leave"]:
            self.leave_table()  # nothing else tells a client it left its table
            said, self.left_said = self.left_said, False
            return not said or ":" in str(message.get("text", ""))  # what leaving a game meant is news
        return True

    def _new_state(self, message: dict[str, Any]) -> None:
        same_table = self.state is not None and self.state.get("table") == message.get("table")
        if not same_table or self._new_hand(message):
            self.marked, self.reveals = [], []
        if "sheet" not in message and same_table and self.state is not None:
            # left out: the one we have is current, but for the rows a round's end adds (``sheet_add``)
            had, added = self.state.get("sheet"), message.get("sheet_add")
            message = {k: v for k, v in message.items() if k != "sheet_add"}
            message["sheet"] = [*(had or []), *added] if added else had
        self.state = message
        legal = set(self.legal)
        self.forms = {stop: form for stop, form in self.forms.items() if form in legal}

    def _login(self, message: dict[str, Any]) -> None:
        """The welcome (and a guest's resume code in it), or the server asking a password or the code first."""
        if message["type"] == "password":
            self.question = message.get("prompt") or "Password"
            self.note(STYLE.bold(_("{question} for {name}: type it and press Enter.", question=self.question,
                                   name=message.get("name"))))
            return
        self.logged_in, self.name, self.question = True, message["name"], None
        self.resume = message.get("resume")
        self.note(STYLE.bold(_("Welcome, {name}. /help lists the commands; F1 the keys.", name=message["name"])))
        if self.resume:
            self.note(_("Your resume code is {code}: F5 gives it by itself after a drop.", code=self.resume))

    def _follow_play(self, message: dict[str, Any]) -> None:
        """What the panes keep of the play between states: who took the last trick, the hands open now, and
        whether your /leave was answered by a ``left`` already."""
        kind = message["type"]
        if kind == "trick" and "winner" in message:
            self.last_winner = message["winner"]
        elif kind == self._round_start(message):
            self.last_winner, self.reveals = None, []
        elif kind == "reveal_end":
            self._close_reveal(message.get("player"))
        elif kind == "left":
            self.reveals = []
            self.left_said = any(c.lower().split()[:1] == ["/leave"] for c in self.pending.values())

    def _replaying(self, message: dict[str, Any]) -> None:
        """A ``replay`` message: more frames of the game being stepped through, or a new one to step through."""
        if self.replay is not None and self.replay.id == message["id"]:
            self.replay.take(message)
            return
        self.replay = Replay.of(message)
        self.note(STYLE.bold(_("Replay of game #{id} ({game}, {steps} moves): Left/Right step through it, "
                               "Home/End jump, Esc or q leaves.", id=message["id"], game=message["game"],
                               steps=message["steps"])))

    def leave_replay(self) -> None:
        self.replay = None

    def leave_table(self) -> None:
        """No table any more (``/leave``, a new connection): its state and the hands open at it are gone."""
        self.state, self.reveals = None, []

    def _close_reveal(self, player: str | None) -> None:
        """``reveal_end``: the oldest open look at ``player``'s hand is over (a second MILWA on the same hand
        within the seconds has a ``reveal_end`` of its own, later)."""
        for i, shown in enumerate(self.reveals):
            if revealed(shown) == player:
                del self.reveals[i]
                return

    def ask_rules(self, request_id: int, game: str) -> None:
        """F1 sent ``/rules GAME``: what answers it goes to the help pane, not to the log."""
        self.pending[request_id] = f"/rules {game}"
        self.rules_asked, self.rules_heard = game, []

    def _rules_answer(self, message: dict[str, Any]) -> bool:
        """Take in what answers F1's ``/rules`` (the server's command is new: its text may come as a ``rules``
        or a ``help`` message before the reply, or in the reply); True when the message was that."""
        game, kind = self.rules_asked, message["type"]
        if game is None:
            if kind == "rules" and message.get("game"):  # a /rules typed by hand: logged, and kept for F1
                self.rules[message["game"]] = text_lines(message)
            return False
        ours = [i for i, command in self.pending.items() if command == f"/rules {game}"]
        if kind in ("rules", "help") and ours and min(self.pending) == ours[0]:
            self.rules_heard += text_lines(message)  # what a command causes comes before its reply, in order
            return True
        if kind not in ("ok", "error") or message.get("id") not in ours:
            return False
        self.pending.pop(message["id"])
        self.rules[game] = (self.rules_heard or text_lines(message)) if kind == "ok" else []
        self.rules_asked, self.rules_heard = None, []
        return True

    def _new_hand(self, message: dict[str, Any]) -> bool:
        old = self.state or {}
        return (old.get("round"), old.get("phase")) != (message.get("round"), message.get("phase"))

    def note(self, line: str) -> None:
        self.log.append(line)
        self.logged += 1

    def sent(self, request_id: int, command: str) -> None:
        self.pending[request_id] = command

    # ------------------------------------------------------------ who's who

    def player_names(self) -> list[str]:
        """Everyone the client knows of (table players first), for completion of names."""
        names: list[str] = [p["name"] for p in (self.state or {}).get("players", [])]
        names += [u["name"] for u in self.who]
        return list(dict.fromkeys(n for n in names if n != self.name))

    def sheet_message(self) -> dict[str, Any] | None:
        """The freshest score sheet: the state's own (it is sent with every change), else the last ``/score``."""
        if self.state and self.state.get("sheet") is not None and self.state.get("phase") != Phase.WAITING:
            return {"game": self.state["game"], "players": self.state["players"], "sheet": self.state["sheet"],
                    "table": self.state["table"]}
        return self.score
