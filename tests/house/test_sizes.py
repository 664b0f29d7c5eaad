"""The edge of the house stays in small parts: no module of the lobby, connection, commands, net, table or cluster
layers over ``MODULE_LINES`` lines and no class there over ``CLASS_LINES``. A part that grows past them is doing two
jobs: split it by concern (docs/architecture.md) rather than raise the ceiling."""

from __future__ import annotations

import ast
from pathlib import Path

import mudwiz

ROOT = Path(mudwiz.__file__).resolve().parent
EDGE = ("lobby", "connection", "commands", "login", "net", "table", "cluster")
MODULE_LINES = 400
CLASS_LINES = 300


def edge_modules(root: Path = ROOT) -> list[Path]:
    found = []
    for name in EDGE:
        if (root / name).is_dir():
            found += sorted((root / name).rglob("*.py"))
        elif (root / f"{name}.py").exists():
            found.append(root / f"{name}.py")
    return found


def oversized(paths: list[Path], root: Path = ROOT) -> list[str]:
    """Each module over ``MODULE_LINES`` and each class over ``CLASS_LINES``, with its size."""
    out = []
    for path in paths:
        text = path.read_text(encoding="utf-8")
        where = path.relative_to(root.parent)
        if (lines := len(text.splitlines())) > MODULE_LINES:
            out.append(f"{where}: {lines} lines")
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.ClassDef) and (size := node.end_lineno - node.lineno + 1) > CLASS_LINES:
                out.append(f"{where}:{node.lineno} class {node.name}: {size} lines")
    return out


def test_no_edge_module_or_class_is_over_its_ceiling() -> None:
    assert edge_modules(), "the edge's modules were not found"
    assert oversized(edge_modules()) == []


def test_the_ceilings_are_seen(tmp_path: Path) -> None:
    package = tmp_path / "mudwiz"
    (package / "net").mkdir(parents=True)
    body = "\n".join(f"    x{i} = {i}" for i in range(CLASS_LINES))
    (package / "net" / "big.py").write_text(f"class Big:\n{body}\n" + "\n" * MODULE_LINES)
    (package / "lobby.py").write_text("x = 1\n")
    found = oversized(edge_modules(package), package)
    assert found == [f"mudwiz/net/big.py: {CLASS_LINES + 1 + MODULE_LINES} lines",
                     f"mudwiz/net/big.py:1 class Big: {CLASS_LINES + 1} lines"]
