"""Every module's log lines carry its own name as their namespace, compiled or not: operators filter the log by it
(``[mudwiz.lobby#info] login Ann``). ``Logger()`` finds its module from the frame that made it, and a module
compiled with mypyc (mudwiz/compiled.py) has no frame of its own: its lines said ``importlib._bootstrap``."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

from recorder import Recorder
from test_journal import journaled_lobby
from twisted.logger import globalLogPublisher

from mudwiz.commands import dispatch
from mudwiz.compiled import HOT, source
from mudwiz.store import SQLiteStore

PACKAGE = Path(source("lobby")).parent


def test_the_lines_of_a_login_and_a_game_are_in_their_modules_namespaces(tmp_path: Path) -> None:
    lines: list[dict[str, Any]] = []
    globalLogPublisher.addObserver(lines.append)
    try:
        store = SQLiteStore(tmp_path / "m.db")
        _, lobby = journaled_lobby(store)
        alice = Recorder()
        lobby.login(alice, "Alice")
        for command in ("/new wizard", "/bot add random", "/bot add random", "/start"):
            dispatch(lobby, alice, command)
    finally:
        globalLogPublisher.removeObserver(lines.append)
    by_format = {e.get("log_format", "").split(" ")[0]: e["log_namespace"] for e in lines}
    assert by_format["login"] == "mudwiz.lobby"
    assert by_format["table"] == "mudwiz.table.core"  # "table {table} starts {game} ..."


def test_every_logger_of_a_compiled_module_is_named_for_it() -> None:
    """Not left to ``Logger()``'s guess from its caller's frame, which a compiled module does not have (the others
    may leave it: their frame names them)."""
    unnamed = []
    for hot in HOT:
        path = source(hot)
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "Logger" \
                    and not any(k.arg == "namespace" for k in node.keywords) and not node.args:
                unnamed.append(f"{path.relative_to(PACKAGE.parent)}:{node.lineno}")
    assert unnamed == []
