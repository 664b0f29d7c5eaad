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
import re
from collections.abc import Iterable, Mapping, Set
from dataclasses import dataclass
from pathlib import Path

import mudwiz

ROOT = Path(mudwiz.__file__).resolve().parent
LOWER = ("mudwiz.games", "mudwiz.bots", "mudwiz.render")
UPPER = ("mudwiz.table", "mudwiz.lobby", "mudwiz.commands", "mudwiz.session", "mudwiz.connection", "mudwiz.net")
# The store is a low layer of its own: the lower layers never reach it, and it reaches nothing above it.
STORE = ("mudwiz.store",)
# The cluster stands below the lobby and all that stands on it: the lobby asks it through the ``Directory`` it
# implements (``mudwiz.lobby.directory``, the one part of the lobby below it), and what the commands, the
# connection and the restore do for it is handed in at startup (``mudwiz.directories``).
CLUSTER = ("mudwiz.cluster",)
ABOVE_THE_CLUSTER = ("mudwiz.lobby", "mudwiz.commands", "mudwiz.connection", "mudwiz.net", "mudwiz.restore",
                     "mudwiz.sysops", "mudwiz.service", "mudwiz.directories")
BELOW_THE_CLUSTER = ("mudwiz.lobby.directory",)


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


def cluster_breaches(imports: Iterable[Import]) -> list[Import]:
    """Imports, TYPE_CHECKING ones and those inside a function included, by a module of the cluster of anything
    above it."""
    return [i for i in imports if _within(i.source, CLUSTER) and _within(i.target, ABOVE_THE_CLUSTER)
            and not _within(i.target, BELOW_THE_CLUSTER)]


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
    assert ("mudwiz.games.wizard.render", "mudwiz.games.base") in targets


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


def test_the_cluster_imports_nothing_above_it() -> None:
    assert not [str(i) for i in cluster_breaches(all_imports(sources()))]


def test_a_cluster_module_reaching_above_it_is_caught_wherever_the_import_is() -> None:
    modules = made_up(
        mudwiz__cluster__visits="def f():\n    from mudwiz.commands import dispatch\n",
        mudwiz__cluster__tables=("from typing import TYPE_CHECKING\nfrom mudwiz.lobby.directory import Held\n"
                                 "if TYPE_CHECKING:\n    from mudwiz.lobby import Lobby\n"),
        mudwiz__cluster__bus="from mudwiz.session import Session\n",
        mudwiz__commands="", mudwiz__session="", mudwiz__lobby__init="", mudwiz__lobby__directory="",
    )
    assert sorted((i.source, i.target) for i in cluster_breaches(all_imports(modules))) == [
        ("mudwiz.cluster.tables", "mudwiz.lobby"), ("mudwiz.cluster.visits", "mudwiz.commands")]


def test_the_lobby_names_no_cluster() -> None:
    """The lobby asks the rest of the server through its ``Directory`` alone: not one of its modules names the
    cluster, even in a type hint, so it has no branch of its own for a cluster's node."""
    assert not [str(i) for i in all_imports(sources()) if _within(i.source, ("mudwiz.lobby",))
                and _within(i.target, CLUSTER)]


# ---------------------------------------------------------------- a game's knowledge stays in its package

# What any layer may name is what every game has: the common phases and the verb every built-in game shares.
# The rest a built-in game brings (its name, its own phases, verbs and event types) belongs in its package,
# ``mudwiz/games/<name>/``, and reaches the other layers through its plugin. Checked: module names; identifiers
# (for a game's name only: verbs such as ``draw`` or ``keep`` are English words in code too); ``Phase.X``
# members; string literals that are, or begin with, a game's own word, name one as a command (``/bid``), equal
# one of its event types or name a game. Prose is left alone: comments and docstrings may cite a game.


@dataclass(frozen=True)
class GameWords:
    games: tuple[str, ...]  # the built-in games, by package name
    words: frozenset[str]  # their own phases and verbs
    events: frozenset[str] = frozenset()  # their own event types


def builtin_games(root: Path = ROOT) -> tuple[str, ...]:
    """mudwiz's own games, as their packages are found (no list kept here to fall behind)."""
    return tuple(sorted(p.parent.name for p in (root / "games").glob("*/plugin.py")))


def _subclasses(cls: type) -> list[type]:
    return [cls, *(deeper for sub in cls.__subclasses__() for deeper in _subclasses(sub))]


def _event_type(cls: type) -> str:
    """An event class's type on the wire (``HandStart``: ``hand_start``), as ``Event.type`` words it."""
    return re.sub(r"(?<!^)(?=[A-Z])", "_", cls.__name__).lower()


def game_words(games: tuple[str, ...]) -> GameWords:
    """The built-in games' own words, read from their plugins and engines: what is not common to every game."""
    from mudwiz.games import plugin
    from mudwiz.games.base import Event, Phase

    found = [plugin(g) for g in games]
    plugins = [p for p in found if p is not None]
    assert len(plugins) == len(games), games
    verbs = [set(p.engine_class.VERBS) for p in plugins]
    common = {str(phase) for phase in Phase} | set.intersection(*verbs)
    own = {word for p in plugins for word in p.phases} | set.union(*verbs)
    events = _subclasses(Event)
    shared = {_event_type(cls) for cls in events if cls.__module__ == Event.__module__}
    theirs = {_event_type(cls) for cls in events for g in games if cls.__module__.startswith(f"mudwiz.games.{g}.")}
    return GameWords(games, frozenset(own - common), frozenset(theirs - shared))


def _prose(tree: ast.AST) -> set[int]:
    """The docstrings' nodes (by id): prose, which may cite any game."""
    return {id(node.body[0].value) for node in ast.walk(tree)
            if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
            and node.body and isinstance(node.body[0], ast.Expr) and isinstance(node.body[0].value, ast.Constant)}


def _named(node: ast.AST, games: re.Pattern[str], said: re.Pattern[str], known: GameWords) -> str | None:
    """What ``node`` names of a built-in game, or None."""
    if isinstance(node, ast.Import | ast.ImportFrom):
        modules = [a.name for a in node.names] + [a.asname or "" for a in node.names]
        modules += [node.module or ""] if isinstance(node, ast.ImportFrom) else []
        return next((m for m in modules if games.search(m)), None)
    if isinstance(node, ast.Name | ast.arg | ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        name = node.id if isinstance(node, ast.Name) else node.arg if isinstance(node, ast.arg) else node.name
        return name if games.search(name) else None
    if isinstance(node, ast.Attribute):
        phase = isinstance(node.value, ast.Name) and node.value.id == "Phase" and node.attr.lower() in known.words
        return f"Phase.{node.attr}" if phase else node.attr if games.search(node.attr) else None
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        text = node.value
        return repr(text) if games.search(text) or said.search(text) or text in known.events else None
    return None


def game_knowledge(modules: Mapping[str, tuple[str, bool]], known: GameWords) -> list[str]:
    """Where a module outside the built-in games' packages names one of them, its own words or events."""
    games = re.compile("|".join(known.games), re.IGNORECASE)
    words = "|".join(sorted(known.words))
    said = re.compile(rf"^\W*(?:{words})\b|/(?:{words})\b")  # is or begins with the word, or names it as a command
    found = []
    for name, (text, _) in modules.items():
        if any(name.startswith(f"mudwiz.games.{g}.") or name == f"mudwiz.games.{g}" for g in known.games):
            continue
        tree = ast.parse(text)
        prose = _prose(tree)
        for node in ast.walk(tree):
            what = None if id(node) in prose else _named(node, games, said, known)
            if what is not None:
                found.append(f"{name}:{getattr(node, 'lineno', 0)} names {what}")
    return found


def test_no_module_outside_a_games_package_names_a_builtin_game_its_phases_or_verbs() -> None:
    assert game_knowledge(sources(), game_words(builtin_games())) == []


def test_the_built_in_games_and_their_own_words_are_found() -> None:
    """An empty list of games or words would pass the test above: they must be the games' and their words."""
    known = game_words(builtin_games())
    assert set(known.games) >= {"wizard", "witches", "tiltowait"}
    assert {"bid", "trump", "bidding", "pass", "passing", "spell", "karuki", "catch"} <= known.words
    assert not {"play", "waiting", "playing", "roundend", "gameover"} & known.words
    assert {"hand_start", "bid_made", "tiltowait_turn"} <= known.events and "trick" not in known.events


def test_game_knowledge_outside_its_package_is_found_in_every_form() -> None:
    known = GameWords(("wizard", "witches"), frozenset({"bid", "trump", "bidding", "pass", "spell"}),
                      frozenset({"hand_start"}))
    planted = made_up(
        mudwiz__client__x='''"""Wizard's bids, and a pass in Witches: prose may say so."""
from mudwiz.games.wizard.engine import Wizard  # 2
import mudwiz.games.witches  # 3
from mudwiz.render import wizard as drawn  # 4
LIVE = ("trump", "bidding", "playing")  # 5
DOING = {"/bid": "bid N"}  # 6
def f(view):
    if view["phase"] == Phase.SPELL:  # 8
        return "hand_start"  # 9
    return view.get("pass")  # 10
def wizard_thing():  # 11
    return f"Witches pass: {1}"  # 12
''',
        mudwiz__games__wizard__render='"""Its own."""\nDOING = {"/bid": "bid", "trump": "name trump"}\n',
        mudwiz__games__base='WAITING = "waiting"\nPASSWORD = "password"\nKEEP = "play a card"\n',
    )
    lines = sorted({int(hit.split(":")[1].split()[0]) for hit in game_knowledge(planted, known)})
    assert lines == [2, 3, 4, 5, 6, 8, 9, 10, 11, 12], game_knowledge(planted, known)
    assert all(hit.startswith("mudwiz.client.x:") for hit in game_knowledge(planted, known))


# ---------------------------------------------------------------- the layers as docs/architecture.md states them

ARCHITECTURE = ROOT.parent / "docs" / "architecture.md"
LayerTable = list[tuple[int, list[str]]]


def doc_layers(text: str) -> LayerTable:
    """The rows of the architecture page's layer table: (layer, the modules it names), bottom to top."""
    rows = []
    for line in text.splitlines():
        row = re.match(r"\| (\d+) \| (.*?) \|", line)
        if row:
            rows.append((int(row.group(1)), re.findall(r"`(mudwiz[\w.*]*)`", row.group(2))))
    return rows


def layer_of(module: str, table: LayerTable, packages: Set[str] = frozenset()) -> int | None:
    """The layer of the most specific entry naming ``module``: its own name, else the longest package above it.
    ``mudwiz.games.*`` names the packages inside ``mudwiz.games`` and their modules (a game's package), not the
    modules of ``mudwiz.games`` itself; ``mudwiz`` names the package's ``__init__`` alone."""
    best: tuple[int, int] | None = None
    for layer, names in table:
        for name in names:
            inside = name.removesuffix("*")
            if name == module:
                fit = 1 << 20
            elif name.endswith(".*") and module.startswith(inside) and (
                    "." in module[len(inside):] or module in packages):
                fit = len(name)
            elif "." in name and not name.endswith(".*") and module.startswith(name + "."):
                fit = len(name)
            else:
                continue
            if best is None or fit > best[0]:
                best = (fit, layer)
    return best[1] if best else None


def doc_breaches(modules: Mapping[str, tuple[str, bool]], table: LayerTable) -> list[str]:
    """Each module the table does not place, and each import of a module of a higher layer than its importer's."""
    packages = {m for m, (_, package) in modules.items() if package}
    out = [f"{m} is in no layer of docs/architecture.md" for m in modules if layer_of(m, table, packages) is None]
    for i in all_imports(modules):
        here, there = layer_of(i.source, table, packages), layer_of(i.target, table, packages)
        if here is not None and there is not None and there > here:
            out.append(f"{i}: layer {here} imports layer {there}")
    return out


def test_every_import_points_down_the_layers_the_architecture_page_states() -> None:
    table = doc_layers(ARCHITECTURE.read_text(encoding="utf-8"))
    assert [layer for layer, _ in table] == list(range(1, len(table) + 1)), "the layers are numbered 1, 2, ..."
    assert doc_breaches(sources(), table) == []


def test_the_page_s_layers_catch_an_upward_import_and_an_unplaced_module() -> None:
    page = ("| layer | modules | what |\n| --- | --- | --- |\n| 1 | `mudwiz` `mudwiz.errors` | ground |\n"
            "| 2 | `mudwiz.games` | rules |\n| 3 | `mudwiz.games.*` `mudwiz.net.tcp` | a game |\n"
            "| 4 | `mudwiz.net` | net |\n")
    table = doc_layers(page)
    assert table == [(1, ["mudwiz", "mudwiz.errors"]), (2, ["mudwiz.games"]),
                     (3, ["mudwiz.games.*", "mudwiz.net.tcp"]), (4, ["mudwiz.net"])]
    assert [layer_of(m, table, {"mudwiz.games.wizard"}) for m in ("mudwiz", "mudwiz.games.base", "mudwiz.games.wizard",
                                         "mudwiz.games.wizard.engine", "mudwiz.net.tcp", "mudwiz.net.telnet",
                                         "mudwiz.lobby")] == [1, 2, 3, 3, 3, 4, None]
    modules = made_up(
        mudwiz__init="", mudwiz__errors="", mudwiz__games__init="", mudwiz__games__base="from mudwiz.errors import x\n",
        mudwiz__games__wizard__engine="from mudwiz.games.base import Game\n",
        mudwiz__net__tcp="def f():\n    from mudwiz.net.telnet import T\n", mudwiz__net__telnet="",
        mudwiz__lobby="",
    )
    assert doc_breaches(modules, table) == [
        "mudwiz.lobby is in no layer of docs/architecture.md",
        "mudwiz.net.tcp:2 imports mudwiz.net.telnet: layer 3 imports layer 4"]
