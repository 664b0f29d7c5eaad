"""A bot worker process (``python -m mudwiz.botworker``): the server's bots think here, off its interpreter
(``mudwiz.thinking.ProcessThinking``). Questions come on stdin and answers go to stdout, one JSON object a line:
``{"id", "token", "level", "game", "seed", "view"}`` in, ``{"id", "action"}`` (or ``{"id", "error"}``) out.

Each bot's policy is made from its seed on its first question and kept, so its memory and random stream go on
from move to move as they would in the server; the least recently asked are let go past ``KEPT``. The worker
ends at the end of its stdin, or when its answers can no longer be written: when the server stops, or dies.
"""

from __future__ import annotations

import json
import os
import random
import sys
from collections import OrderedDict
from typing import Any, BinaryIO

from mudwiz.bots import Policy, make_policy

KEPT = 4096  # bots remembered; one let go starts afresh from its seed if asked again


class Policies:
    """The bots this worker plays, by token."""

    def __init__(self, kept: int = KEPT) -> None:
        self.kept = kept
        self.policies: OrderedDict[int, Policy] = OrderedDict()

    def answer(self, question: dict[str, Any]) -> dict[str, Any]:
        token = question["token"]
        policy = self.policies.pop(token, None)
        if policy is None:
            policy = make_policy(question["level"], question["game"], random.Random(question["seed"]))
        self.policies[token] = policy
        while len(self.policies) > self.kept:
            self.policies.popitem(last=False)
        try:
            return {"id": question["id"], "action": policy.choose(question["view"])}
        except Exception as exc:  # a bot's bug costs its move (the table plays a random one), not the worker
            return {"id": question["id"], "error": f"{type(exc).__name__}: {exc}"}


def serve(source: BinaryIO, sink: BinaryIO) -> bool:
    """Answer until the questions end; False if the server stopped reading first (it stopped, or died, while a
    bot was thinking): there is nobody to answer, which is no error."""
    policies = Policies()
    try:
        for line in source:
            sink.write(json.dumps(policies.answer(json.loads(line)), separators=(",", ":")).encode() + b"\n")
            sink.flush()
    except BrokenPipeError:
        return False
    return True


def main() -> None:
    if not serve(sys.stdin.buffer, sys.stdout.buffer):
        # stdout's last flush at exit would fail again and print "Exception ignored ..." into the server's log
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


if __name__ == "__main__":
    main()
