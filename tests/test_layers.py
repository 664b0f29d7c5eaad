"""The layers of DESIGN.md, checked on the source: imports only ever point down.

Every module of ``mudwiz/`` is read with ``ast`` (nothing is imported, so a cycle cannot hide behind whichever
module happened to load first) and each import of a ``mudwiz`` module becomes an edge. What counts:

- **Runtime imports**, at module level or inside a function (a deferred import still runs, and still ties the
  two modules together), and **``if TYPE_CHECKING:`` imports** alike: they may form no cycle. A type-only import
  never runs, but two modules that name each other are one module to read, test and change, whichever of the
  two names the other in a hint only; a part that needs something of the module above it is handed it (a
  ``Protocol`` declared below, as ``mudwiz.session.Place``). Type-only imports must respect the lower layers'
  rule below too, since a rules engine or a renderer has no business naming a table even in a hint.
- Importing ``a.b.c`` also runs the packages ``a`` and ``a.b``; those implicit edges are not counted, as
  Python resolves a package half-way through its own ``__init__`` importing its submodules without trouble.
- Imports by string (``import_module`` on a ``GAMES`` or ``LEVELS`` entry) are not seen.

The lower layers (``mudwiz.games``, ``mudwiz.bots``, ``mudwiz.render``) import nothing from the table, lobby,
commands, session, connection or network layers: engines, policies and views never know who is connected.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

import mudwiz

ROOT = Path(mudwiz.__file__).resolve().parent
LOWER = ("mudwiz.games", "mudwiz.bots", "mudwiz.render")
UPPER = ("mudwiz.table", "mudwiz.lobby", "mudwiz.commands", "mudwiz.session", "mudwiz.connection", "mudwiz.net")
# The store is a low layer of its own: the lower layers never reach it, and it reaches nothing above it.
STORE = ("mudwiz.store",)


@dataclass(frozen=True)
class Import:
    source: str
    target: str
    line: int
    typing_only: bool  # under ``if TYPE_CHECKING:``

    def __str__(self) -> str:
        return f"{self.source}:{self.line} imports {self.target}" + (" (TYPE_CHECKING)" if self.typing_only else "")


def sources(root: Path = ROOT) -> dict[str, tuple[str, bool]]:
    """Every module under ``root``: its dotted name -> (source text, whether it is a package's ``__init__``)."""
    found = {}
    for path in sorted(root.rglob("*.py")):
        parts = ("mudwiz", *path.relative_to(root).with_suffix("").parts)
        package = parts[-1] == "__init__"
        found[".".join(parts[:-1] if package else parts)] = (path.read_text(encoding="utf-8"), package)
    return found


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _targets(node: ast.Import | ast.ImportFrom, here: str, known: set[str]) -> list[str]:
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    package = here.split(".")
    base = package[: len(package) - node.level + 1] if node.level else []
    module = ".".join([*base, *([node.module] if node.module else [])])
    return [f"{module}.{a.name}" if f"{module}.{a.name}" in known else module for a in node.names]


def imports_of(name: str, source: str, package: bool, known: Iterable[str]) -> list[Import]:
    """The ``mudwiz`` modules that module ``name`` imports, relative imports resolved. ``from m import x`` is an
    import of the submodule ``m.x`` when there is one, else of ``m`` itself."""
    known = set(known)
    here = name if package else name.rpartition(".")[0]
    found: list[Import] = []

    def visit(node: ast.AST, typing_only: bool) -> None:
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            for child in node.body:
                visit(child, True)
            for child in node.orelse:
                visit(child, typing_only)
            return
        if isinstance(node, ast.Import | ast.ImportFrom):
            for t in dict.fromkeys(_targets(node, here, known)):
                if t == "mudwiz" or t.startswith("mudwiz."):
                    found.append(Import(name, t, node.lineno, typing_only))
        for child in ast.iter_child_nodes(node):
            visit(child, typing_only)

    visit(ast.parse(source), False)
    return found


def all_imports(modules: Mapping[str, tuple[str, bool]]) -> list[Import]:
    return [i for name, (text, package) in modules.items() for i in imports_of(name, text, package, modules)]


def cycles(imports: Iterable[Import]) -> list[list[str]]:
    """The import cycles, TYPE_CHECKING imports included: each strongly connected group of modules (Tarjan),
    sorted."""
    graph: dict[str, set[str]] = {}
    for i in imports:
        graph.setdefault(i.source, set()).add(i.target)
        graph.setdefault(i.target, set())
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    groups: list[list[str]] = []

    def connect(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in sorted(graph[v]):
            if w not in index:
                connect(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                group.append(w)
                if w == v:
                    break
            if len(group) > 1 or v in graph[v]:
                groups.append(sorted(group))

    for v in sorted(graph):
        if v not in index:
            connect(v)
    return sorted(groups)


def _within(module: str, layers: tuple[str, ...]) -> bool:
    return any(module == layer or module.startswith(layer + ".") for layer in layers)


def layer_breaches(imports: Iterable[Import]) -> list[Import]:
    """Imports, TYPE_CHECKING ones included, by a lower-layer module of anything in the upper layers or the store,
    and by the store of anything in the upper layers."""
    return [i for i in imports if (_within(i.source, LOWER) and _within(i.target, UPPER + STORE))
            or (_within(i.source, STORE) and _within(i.target, UPPER))]


# ---------------------------------------------------------------- the real tree


def test_mudwiz_has_no_import_cycle() -> None:
    imports = all_imports(sources())
    found = cycles(imports)
    detail = [[str(i) for i in imports if i.source in group and i.target in group] for group in found]
    assert not found, f"import cycles (each with the imports that close it): {detail}"


def test_engines_bots_and_renderers_import_nothing_above_them() -> None:
    assert not [str(i) for i in layer_breaches(all_imports(sources()))]


def test_the_walk_sees_every_layer() -> None:
    """A walk that found nothing would pass the two tests above: it must see the modules and their imports."""
    modules = sources()
    assert {"mudwiz.table", "mudwiz.table.core", "mudwiz.bots", "mudwiz.games.base", "mudwiz.render.ansi",
            "mudwiz.store.sqlite"} <= set(modules)
    targets = {(i.source, i.target) for i in all_imports(modules)}
    assert ("mudwiz.table.core", "mudwiz.table.seating") in targets
    assert ("mudwiz.render.wizard", "mudwiz.games.base") in targets


# ---------------------------------------------------------------- the checks themselves, on made-up modules


def made_up(**modules: str) -> dict[str, tuple[str, bool]]:
    """Modules from source text; a name ending in ``__init__`` (``mudwiz__x__init``) is a package."""
    out = {}
    for key, text in modules.items():
        name = key.replace("__", ".")
        package = name.endswith(".init")
        out[name.removesuffix(".init")] = (text, package)
    return out


def test_a_cycle_is_found_through_relative_and_deferred_imports() -> None:
    modules = made_up(
        mudwiz__bots__init="from mudwiz.session import Session\n",
        mudwiz__session="from .table import Table\n",
        mudwiz__table__init="def f():\n    from ..bots import LEVELS\n",
        mudwiz__cards="import mudwiz.errors\n",
        mudwiz__errors="",
    )
    assert cycles(all_imports(modules)) == [["mudwiz.bots", "mudwiz.session", "mudwiz.table"]]


def test_a_type_checking_import_closes_a_cycle_and_breaches_a_layer() -> None:
    """The session and the table as they were: the table stands on the session, which named the table in a hint."""
    modules = made_up(
        mudwiz__session="from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from mudwiz.table import Table\n",
        mudwiz__table="from mudwiz.session import Session\n",
        mudwiz__render__ansi="import typing\nif typing.TYPE_CHECKING:\n    from mudwiz.table import Table\n",
    )
    imports = all_imports(modules)
    assert [i.typing_only for i in imports if i.source == "mudwiz.session"] == [True]
    assert cycles(imports) == [["mudwiz.session", "mudwiz.table"]]
    assert [(i.source, i.target, i.typing_only) for i in layer_breaches(imports)] == [
        ("mudwiz.render.ansi", "mudwiz.table", True)]


def test_a_cycle_of_type_checking_imports_alone_is_found() -> None:
    """Two parts of a package that name each other in hints only (as the table's parts named the ``Table``)."""
    hint = "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from mudwiz.table.{} import X\n"
    modules = made_up(mudwiz__table__core=hint.format("seating"), mudwiz__table__seating=hint.format("core"))
    assert cycles(all_imports(modules)) == [["mudwiz.table.core", "mudwiz.table.seating"]]


def test_from_a_package_import_a_submodule_is_an_import_of_the_submodule() -> None:
    modules = made_up(
        mudwiz__games__init="",
        mudwiz__games__base="",
        mudwiz__bots__x="from mudwiz.games import base\nfrom mudwiz.net import telnet\n",
    )
    imports = all_imports(modules)
    assert {i.target for i in imports} == {"mudwiz.games.base", "mudwiz.net"}
    assert [i.target for i in layer_breaches(imports)] == ["mudwiz.net"]


def test_the_store_is_reached_by_no_lower_layer_and_reaches_no_upper_one() -> None:
    modules = made_up(
        mudwiz__store__sqlite="from mudwiz.store.base import Store\nfrom mudwiz.games.base import Game\n",
        mudwiz__store__base="from mudwiz.lobby import Lobby\n",
        mudwiz__render__x="from mudwiz.store import Store\n",
        mudwiz__table__core="from mudwiz.store import Store\n",
        mudwiz__store__init="",
    )
    assert sorted((i.source, i.target) for i in layer_breaches(all_imports(modules))) == [
        ("mudwiz.render.x", "mudwiz.store"), ("mudwiz.store.base", "mudwiz.lobby")]
