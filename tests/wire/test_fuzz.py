"""Fuzzing over loopback: a few seconds of junk from many raw connections, in every output mode and
every place a user can be, while JSON clients play Wizard with bots and a monitor times ``/who``.

The server must come out alive, with no traceback in its log, no ``internal error`` sent to anyone, every
well-behaved request answered and their games finished, and no table left standing still. The junk is seeded:
the seed is printed (and in the failure message); ``FUZZ_SEED=N`` replays it, ``FUZZ_SECONDS`` runs longer.
``tests/support/fuzzing.py`` has the clients; ``bench/fuzz.py`` runs the same for as long as you like.
"""

from __future__ import annotations

import os
import random

import fuzzing
import pytest
from wire import running_server

GRACE = 0.5  # seconds a dropped player's seat is kept: short, so the tables they leave are checked here too


def test_fuzzing_clients_harm_nobody() -> None:
    seed = int(os.environ.get("FUZZ_SEED") or random.randrange(2**32))
    seconds = float(os.environ.get("FUZZ_SECONDS", 6))  # junk is read at a flooder's line rate: games end later
    print(f"FUZZ_SEED={seed}")
    with running_server(MUDWIZ_GRACE=str(GRACE)) as server:
        report = fuzzing.run(server, seed=seed, lines=10**9, clients=24, workers=1, seconds=seconds, grace=GRACE,
                             period=0.1, window=2.0, log=server.log)
        alive = server.alive()
    log = server.log()
    print("\n".join(report.figures(log)))
    problems = report.problems(log, alive)
    if problems:
        pytest.fail("\n".join([f"FUZZ_SEED={seed} (set it to replay this junk)", "", *report.figures(log), "",
                               *(f"- {p}" for p in problems)]), pytrace=False)
