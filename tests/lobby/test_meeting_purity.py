"""The meeting place's rules stay sans-I/O: read with ``ast``, its modules import no Twisted, no sockets, no
clock, nothing of mudwiz above the leaves (errors, numbers, usertext, and texts: a refusal's line is a ``Later``,
put into words for its reader), and print nothing."""

from __future__ import annotations

import ast
from pathlib import Path

import mudwiz.meeting

PACKAGE = Path(mudwiz.meeting.__file__).resolve().parent
ALLOWED_MUDWIZ = ("mudwiz.errors", "mudwiz.numbers", "mudwiz.usertext", "mudwiz.meeting", "mudwiz.texts",
                  "mudwiz.seasons")  # its points by place: arithmetic, as pure as the meeting's own
FORBIDDEN = ("twisted", "socket", "time", "datetime", "asyncio", "threading", "random")


def imported(tree: ast.AST) -> list[str]:
    names = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            assert node.level == 0, "absolute imports, as the rest of mudwiz"
            names.append(node.module or "")
    return names


def test_every_module_is_pure() -> None:
    modules = sorted(PACKAGE.glob("*.py"))
    assert {m.stem for m in modules} >= {"seeks", "channels", "agreement", "presence", "recent", "refused"}
    for path in modules:
        tree = ast.parse(path.read_text(), str(path))
        for name in imported(tree):
            top = name.split(".")[0]
            assert top not in FORBIDDEN, f"{path.name} imports {name}"
            if top == "mudwiz":
                assert name.startswith(ALLOWED_MUDWIZ), f"{path.name} imports {name}"
        calls = [n.func.id for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)]
        assert "print" not in calls and "open" not in calls, path.name


def test_each_module_is_small_and_says_why() -> None:
    for path in PACKAGE.glob("*.py"):
        assert len(path.read_text().splitlines()) <= 300, path.name
        assert ast.get_docstring(ast.parse(path.read_text())), path.name
