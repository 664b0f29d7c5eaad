"""The move's path compiled with mypyc (setup.py, mudwiz/compiled.py): that an install which can compile does, so
that this suite tests what a server runs; that an edit a stale build would hide is caught; and what compiling
changed in the engines' behaviour (docs/performance.md, "Settings that matter for speed")."""

from __future__ import annotations

import copy
import os
from pathlib import Path

import pytest

from mudwiz import compiled
from mudwiz.games.tiltowait import Tiltowait
from mudwiz.games.wizard import Wizard


@pytest.mark.skipif(compiled.why_not() is not None, reason=f"not compiled here: {compiled.why_not()}")
def test_an_install_that_can_compile_runs_every_hot_module_compiled() -> None:
    assert compiled.compiled() == list(compiled.HOT), compiled.describe()
    assert compiled.stale() == []


def test_a_compiled_module_older_than_its_source_is_named_stale(tmp_path: Path) -> None:
    games = tmp_path / "games" / "wizard"
    games.mkdir(parents=True)
    source, built = games / "engine.py", games / "engine.cpython-311-x86_64-linux-gnu.so"
    built.write_bytes(b"")
    source.write_text("# edited after the build\n")
    os.utime(built, (1_000_000, 1_000_000))
    assert compiled.stale(tmp_path) == ["games.wizard.engine"]
    os.utime(built, None)
    os.utime(source, (1_000_000, 1_000_000))
    assert compiled.stale(tmp_path) == []


@pytest.mark.parametrize("game_class", [Tiltowait, Wizard])
def test_a_copied_game_shares_no_attribute_with_the_original(game_class: type) -> None:
    """A compiled Game's copy of an interpreted subclass (Tiltowait) got the original's own ``__dict__``."""
    game = game_class(["ann", "bob", "cy"], seed=3)
    hands = [list(h) for h in game.hands]
    other = copy.copy(game)
    other.hands = [[] for _ in hands]
    other.round = 99
    assert game.hands == hands and game.round == 1
    assert other.players == game.players and other.phase == game.phase and type(other) is game_class
