"""Character mode for a telnet client that is a terminal: the line edited on the server, as SSH and rlogin do.

The stock ``telnet``, PuTTY and SyncTERM have no input line of their own: in their default line mode whatever the
server sends is printed into the middle of what the user is typing. So once the terminal type (TTYPE) shows a
terminal (``TerminalTypes.terminal``: its first answer names a terminal type, and it sends no MTTS), the server
offers ``IAC WILL ECHO`` and ``IAC WILL SGA``, which puts such a client into character mode (each key sent as it
is pressed, nothing echoed by it), and when both are agreed its keys go to the same line editor SSH and rlogin use
(lineedit.py): output is written above the half-typed line, which is drawn again after it, with history.

A MUD client (Mudlet, tintin++, MUSHclient: named in TTYPE, or sending MTTS) keeps its own input line and is
never offered either (Mudlet takes ``WILL ECHO`` for a password prompt); nor is a client that refused TTYPE, nor
``nc`` (never taken for telnet). A client that refuses either (``DONT ECHO``, ``DONT SGA``), or withdraws one
later, stays in (or goes back to) line mode, the other withdrawn too if it was ours.

A password typed while character mode is asked for is kept from the screen either way: its ``WILL ECHO`` waits
for the answer (the editor hides it once agreed), and one being typed when the terminal type comes delays the
offer until it is in (its ``WILL ECHO`` is then kept and only SGA asked for).
"""

from __future__ import annotations

from typing import Any, Protocol

from twisted.conch.telnet import ECHO, IAC, SGA, WONT
from twisted.internet.defer import Deferred

from mudwiz.net.lineedit import Keyboard
from mudwiz.net.terminal import TerminalTypes


class Lines(Protocol):
    """What character mode needs of its connection (telnet.py's ``TelnetLines``)."""

    telnet: bool
    hiding: bool
    ttypes: TerminalTypes
    keyboard: Keyboard | None
    transport: Any

    def offer(self, option: bytes, local: bool) -> Deferred[Any]: ...

    def raw(self, data: bytes) -> None: ...


class CharacterMode:
    """One telnet connection's character mode: ``state`` is ``line`` (not asked: not a terminal, or not known
    yet), ``asking`` (WILL ECHO and WILL SGA sent, an answer awaited), ``keys`` (agreed: its keys are edited
    here) or ``refused`` (line mode for good)."""

    def __init__(self, lines: Lines) -> None:
        self.lines = lines
        self.state = "line"
        self.ours_sga = False  # SGA was agreed because we offered it (else the client asked for it: it stays)

    @property
    def echoing(self) -> bool:
        """The server's echo is settled by character mode: a password's ``WILL ECHO``/``WONT ECHO`` is not sent."""
        return self.state in ("asking", "keys")

    def consider(self) -> bool:
        """Ask for character mode if this is a terminal whose type is known and no password is being typed;
        whether it is asked for (or on) now."""
        lines = self.lines
        if self.state != "line" or not lines.telnet or not lines.ttypes.terminal:
            return self.echoing
        if lines.hiding:
            return False  # asked once the password is in (``TelnetLines.secret``)
        self.state = "asking"
        telnet: Any = lines.transport
        self.ours_sga = telnet.getOptionState(SGA).us.state != "yes"
        offers = [lines.offer(option, local=True) for option in (ECHO, SGA)]  # both sent before either is taken
        for offer in offers:
            offer.addBoth(self.answered)
        return True

    def answered(self, result: Any = None) -> Any:
        """An answer to one of the offers: once neither is awaited, character mode is on if both are agreed."""
        telnet: Any = self.lines.transport
        if self.state != "asking" or telnet is None:
            return result
        echo, sga = telnet.getOptionState(ECHO).us, telnet.getOptionState(SGA).us
        if echo.negotiating or sga.negotiating:
            return result
        if echo.state == sga.state == "yes":
            self.state = "keys"
            keyboard = Keyboard()
            keyboard.editor.secret = self.lines.hiding
            self.lines.keyboard = keyboard
        else:
            self.back_to_lines()
        return result

    def withdrawn(self, option: bytes) -> None:
        """The client turned ECHO or SGA off (``DONT``): back to line mode, for good."""
        if option in (ECHO, SGA) and self.state in ("asking", "keys"):
            self.back_to_lines()

    def back_to_lines(self) -> None:
        """Line mode for good: the editor gone (a half-typed line with it), our ECHO withdrawn unless a password
        is being typed (then it is the password's, and ``secret`` takes it back after), our SGA withdrawn."""
        lines = self.lines
        self.state = "refused"
        lines.keyboard = None
        telnet: Any = lines.transport
        if telnet is None:
            return
        withdraw = []
        echo, sga = telnet.getOptionState(ECHO).us, telnet.getOptionState(SGA).us
        if echo.state == "yes" and not lines.hiding:
            withdraw.append(ECHO)
        if sga.state == "yes" and self.ours_sga:
            withdraw.append(SGA)
        for option in withdraw:  # written as ``secret`` writes, with the state set: the client's answer is quiet
            state = telnet.getOptionState(option).us
            state.state, state.negotiating = "no", False
            lines.raw(IAC + WONT + option)
