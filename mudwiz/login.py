"""The login as a state machine, sans-I/O: typed states, what may happen in each, and one table of where that
leads (after h11's ``_state.py``). The connection tells it what happened and asks it where the user stands; it
knows no lines, lobby or timers. What may not happen in a state is a bug, raised as ``LoginError``, never a turn
taken silently.

A connection starts ``NAMING`` (the name prompt). A name that needs its proof (an account's password, a held
guest name's resume code) is ``PROVING`` until the last answer is in, ``VERIFYING`` while it is checked, then
``IN``, or ``NAMING`` again when it is refused. Once in, ``/register``, ``/password`` and ``/unregister`` ask for
passwords the same way (``SETTING``, then ``SAVING`` while they are hashed). Gone, it is ``CLOSED`` or, when it had
logged in, ``LEFT``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

from mudwiz.texts import N_

NAME_PROMPT = N_("What is your name? ")  # sent in the user's language (``Replies.prompt``)


class State(Enum):
    NAMING = "naming"  # the name prompt: a line is a name, or one of the commands allowed before one
    PROVING = "proving"  # a name's password or resume code is asked for: the next lines are its answers
    VERIFYING = "verifying"  # that proof is being checked (a password is hashed in a worker thread)
    IN = "in"  # logged in: each line a command or chat
    SETTING = "setting"  # logged in, a password asked for (/register, /password, /unregister): the next lines too
    SAVING = "saving"  # ... and being hashed and kept
    CLOSED = "closed"  # gone before logging in
    LEFT = "left"  # gone after logging in (the connection lost, or taken over by another)


class Input(Enum):
    ASK = "ask"  # a password dialogue begins: a name's proof, or /register, /password or /unregister
    ANSWER = "answer"  # its last answer is in, handed over to be checked
    DONE = "done"  # the check is over and nobody came in: refused, failed, or the change made
    ENTER = "enter"  # a name is let in
    LOSE = "lose"  # the connection is gone, or taken over


TRANSITIONS: dict[State, dict[Input, State]] = {
    State.NAMING: {Input.ASK: State.PROVING, Input.ENTER: State.IN, Input.LOSE: State.CLOSED},
    State.PROVING: {Input.ANSWER: State.VERIFYING, Input.LOSE: State.CLOSED},
    # a proof accepted is DONE and then ENTER: what logs the name in may still refuse it (banned meanwhile)
    State.VERIFYING: {Input.DONE: State.NAMING, Input.LOSE: State.CLOSED},
    State.IN: {Input.ASK: State.SETTING, Input.LOSE: State.LEFT},
    State.SETTING: {Input.ANSWER: State.SAVING, Input.LOSE: State.LEFT},
    State.SAVING: {Input.DONE: State.IN, Input.LOSE: State.LEFT},
    # the framing says it is lost after a takeover closed it: nothing more happens
    State.CLOSED: {Input.LOSE: State.CLOSED},
    State.LEFT: {Input.LOSE: State.LEFT},
}
LOGGED_IN = frozenset({State.IN, State.SETTING, State.SAVING, State.LEFT})
ASKING = frozenset({State.PROVING, State.SETTING})  # the next line is a password, never a command or chat
CHECKING = frozenset({State.VERIFYING, State.SAVING})  # lines are refused until the answer comes
GONE = frozenset({State.CLOSED, State.LEFT})  # what the connection still sent is for nobody


class LoginError(Exception):
    """Something happened that the login's state does not allow: a bug in what drives it."""


class Purpose(Enum):
    """What a password dialogue is for."""

    LOGIN = "login"  # an account's password, to log in with its name
    RESUME = "resume"  # a guest's name held for them while away: the code from their welcome
    # the name is online on a connection of this process (one not yet noticed dead): proven, it is taken over
    TAKEOVER_LOGIN = "takeover login"  # i18n: not text (a purpose's name)
    TAKEOVER_RESUME = "takeover resume"  # i18n: not text
    REGISTER = "register"  # a new account's password, twice
    PASSWORD = "password"  # the account's password, then its new one twice
    UNREGISTER = "unregister"  # the account's password, to delete the account

    @property
    def prompts(self) -> tuple[str, ...]:
        """What it asks, in order."""
        return PROMPTS[self]

    @property
    def proof(self) -> bool:
        """Its answer proves a name, to log in with."""
        return self in (Purpose.LOGIN, Purpose.RESUME, Purpose.TAKEOVER_LOGIN, Purpose.TAKEOVER_RESUME)

    @property
    def account(self) -> bool:
        """The proof is the account's password (else a guest's resume code)."""
        return self in (Purpose.LOGIN, Purpose.TAKEOVER_LOGIN)

    @property
    def takeover(self) -> bool:
        return self in (Purpose.TAKEOVER_LOGIN, Purpose.TAKEOVER_RESUME)


# marked here, sent in the user's language (passwords.py); a JSON client's ``prompt`` field stays English: a key
PROMPTS = {
    Purpose.LOGIN: (N_("Password: "),),
    Purpose.RESUME: (N_("Resume code: "),),
    Purpose.TAKEOVER_LOGIN: (N_("Password: "),),
    Purpose.TAKEOVER_RESUME: (N_("Resume code: "),),
    Purpose.REGISTER: (N_("Password: "), N_("Again: ")),
    Purpose.PASSWORD: (N_("Old password: "), N_("New password: "), N_("Again: ")),
    Purpose.UNREGISTER: (N_("Password: "),),
}


@dataclass
class Asking:
    """A password dialogue under way: what for, for which name, the answers so far. Kept only until the last
    answer is handed over to be checked."""

    purpose: Purpose
    name: str
    answers: list[str] = field(default_factory=list)

    @property
    def prompt(self) -> str:
        return self.purpose.prompts[len(self.answers)]

    @property
    def complete(self) -> bool:
        return len(self.answers) == len(self.purpose.prompts)


class Login:
    """Where one connection's login stands, and the password dialogue it is in (``ASKING`` states only)."""

    def __init__(self) -> None:
        self.state = State.NAMING
        self.asking: Asking | None = None

    def fire(self, happened: Input) -> State:
        """Move on by the table; what the state does not allow raises ``LoginError`` and changes nothing."""
        allowed = TRANSITIONS[self.state]
        if happened not in allowed:
            raise LoginError(f"the login cannot {happened.value} when {self.state.value}")
        self.state = allowed[happened]
        if self.state not in ASKING:
            self.asking = None
        return self.state

    def ask(self, asking: Asking) -> None:
        """A dialogue begins: its answers are the next lines."""
        self.fire(Input.ASK)
        self.asking = asking

    def answered(self) -> Asking:
        """The dialogue's last answer is in: the dialogue, handed over to be checked."""
        asking = self.asking
        self.fire(Input.ANSWER)
        assert asking is not None  # every ASKING state has its dialogue
        return asking

    @property
    def logged_in(self) -> bool:
        return self.state in LOGGED_IN

    @property
    def gone(self) -> bool:
        return self.state in GONE
