"""The client's key bindings: what each key does (the Left/Right/Home/End/Enter/Space ones only while the input
line is empty, a replay's while one is shown). A mixin of ``ClientApp``."""

from __future__ import annotations

from typing import TYPE_CHECKING

from prompt_toolkit.filters import Condition, Filter
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent

if TYPE_CHECKING:
    from prompt_toolkit.application import Application
    from prompt_toolkit.buffer import Buffer

    from mudwiz.client.connection import Connection
    from mudwiz.client.model import Model

PAGE = 10


class Bindings:
    """The keys, bound to ``ClientApp``'s actions."""

    if TYPE_CHECKING:  # given by ClientApp
        model: Model
        connection: Connection
        app: Application[int]
        buffer: Buffer

        async def connect(self) -> None: ...

        def toggle_help(self) -> None: ...

        def toggle_sheet(self) -> None: ...

        def scroll(self, step: int) -> None: ...

    # ------------------------------------------------------------ key bindings

    def _bindings(self) -> KeyBindings:
        kb = KeyBindings()
        replaying = Condition(lambda: self.model.replay is not None and not self.buffer.text)
        empty = Condition(lambda: not self.buffer.text) & ~replaying
        self._replay_keys(kb, replaying)
        self._choice_keys(kb, empty)

        @kb.add("f1")
        def _keys(event: KeyPressEvent) -> None:
            self.toggle_help()

        @kb.add("f2")
        def _sheet(event: KeyPressEvent) -> None:
            self.toggle_sheet()

        @kb.add("f5")
        def _reconnect(event: KeyPressEvent) -> None:
            if self.model.connection == "disconnected":
                self.app.create_background_task(self.connect())

        @kb.add("pageup")
        def _back(event: KeyPressEvent) -> None:
            self.scroll(-PAGE)

        @kb.add("pagedown")
        def _forward(event: KeyPressEvent) -> None:
            self.scroll(PAGE)

        @kb.add("c-d", filter=Condition(lambda: not self.buffer.text))
        @kb.add("f10")
        @kb.add("c-c")
        def _quit(event: KeyPressEvent) -> None:
            event.app.exit(result=0)

        return kb

    def _choice_keys(self, kb: KeyBindings, empty: Filter) -> None:
        """The keys that choose your move, while the input line is empty: Left/Right/Home/End the cursor, Up/Down
        the selected move's form (a spell's colour), Space a card for a move of several."""
        picking = Condition(lambda: self.model.picking is not None)
        forms = Condition(lambda: len(self.model.choice_forms()) > 1)

        @kb.add("left", filter=empty)
        def _left(event: KeyPressEvent) -> None:
            self.model.move(-1)

        @kb.add("right", filter=empty)
        def _right(event: KeyPressEvent) -> None:
            self.model.move(1)

        @kb.add("up", filter=empty & forms)  # otherwise Up/Down stay the input history
        def _form_up(event: KeyPressEvent) -> None:
            self.model.cycle_form(-1)

        @kb.add("down", filter=empty & forms)
        def _form_down(event: KeyPressEvent) -> None:
            self.model.cycle_form(1)

        @kb.add("home", filter=empty)
        def _home(event: KeyPressEvent) -> None:
            self.model.home()

        @kb.add("end", filter=empty)
        def _end(event: KeyPressEvent) -> None:
            self.model.home(last=True)

        @kb.add("space", filter=empty & picking)
        def _mark(event: KeyPressEvent) -> None:
            self.model.toggle_mark()

    def _replay_keys(self, kb: KeyBindings, replaying: Condition) -> None:
        """A replay's keys, while one is shown and the input line is empty: Left/Right a step, Home/End the
        deal and the last step, Esc or q back to the table or the lobby."""

        def moved(backwards: bool) -> None:
            replay = self.model.replay
            wanted = replay.wanted(backwards) if replay is not None else None
            if replay is not None and wanted is not None and self.connection.connected:
                self.model.sent(self.connection.request(f"/replay {replay.id} {wanted}"), "/replay")

        @kb.add("left", filter=replaying)
        def _back(event: KeyPressEvent) -> None:
            if self.model.replay is not None:
                self.model.replay.step(-1)
                moved(backwards=True)

        @kb.add("right", filter=replaying)
        def _on(event: KeyPressEvent) -> None:
            if self.model.replay is not None:
                self.model.replay.step(1)
                moved(backwards=False)

        @kb.add("home", filter=replaying)
        def _deal(event: KeyPressEvent) -> None:
            if self.model.replay is not None:
                self.model.replay.jump(last=False)
                moved(backwards=False)

        @kb.add("end", filter=replaying)
        def _last(event: KeyPressEvent) -> None:
            if self.model.replay is not None:
                self.model.replay.jump(last=True)
                moved(backwards=True)

        @kb.add("escape", filter=replaying, eager=True)
        @kb.add("q", filter=replaying)
        def _leave(event: KeyPressEvent) -> None:
            self.model.leave_replay()
