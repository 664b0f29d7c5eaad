"""The client's replay mode: the frames of a ``replay`` message (``/replay ID``) and the step being shown.

The server sends a long game's frames in messages of at most a hundred (fewer if they would pass 60 kB); the
client keeps what it has been sent and, when Left/Right/Home/End reach a step it lacks, says which step to ask
for next (``wanted``). A frame's view arrives compact and is stored whole (``render.common.frame_view``), ready
for the game's table renderer.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from mudwiz.render.common import frame_view

CHUNK = 30  # frames a message surely holds (up to 100 as fit 60 kB, docs/protocol.md): asking backwards starts
# that far back


@dataclass
class Replay:
    """A recorded game being stepped through: its header, the frames received by step, and where we are."""

    id: int
    game: str
    steps: int  # the last step
    at: int = 0
    frames: dict[int, dict[str, Any]] = field(default_factory=dict)
    asked: int | None = None  # the first step of the chunk asked for, until it comes

    @classmethod
    def of(cls, message: dict[str, Any]) -> Replay:
        replay = cls(int(message["id"]), str(message["game"]), int(message["steps"]), at=int(message["first"]))
        replay.take(message)
        return replay

    def take(self, message: dict[str, Any]) -> None:
        """Keep a message's frames whole; one the client did not ask for (``/replay ID N`` typed) moves to N."""
        for frame in message["frames"]:
            self.frames[frame["step"]] = {**frame, "view": frame_view(message, frame)}
        if message["first"] != self.asked:
            self.at = int(message["first"])
        self.asked = None

    def step(self, by: int) -> None:
        self.at = max(0, min(self.steps, self.at + by))

    def jump(self, last: bool) -> None:
        self.at = self.steps if last else 0

    @property
    def frame(self) -> dict[str, Any] | None:
        return self.frames.get(self.at)

    def wanted(self, backwards: bool = False) -> int | None:
        """The first step of the chunk to ask for so that the step shown comes (None: it is here, or asked):
        going back, the chunk that ends at it."""
        if self.at in self.frames or self.asked is not None:
            return None
        first = self.at
        if backwards:
            first = max(0, self.at - CHUNK + 1)
            while first in self.frames:  # no frame asked for twice
                first += 1
        self.asked = first
        return first
