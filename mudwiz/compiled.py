"""Which modules the build compiles with mypyc (setup.py), and whether this install runs them compiled.

The modules on a move's path, from the command to the bytes written: each one is plain typed Python, and the
pure-Python install runs the same source (docs/performance.md, "Settings that matter for speed").
"""

from __future__ import annotations

import ast
import importlib
import importlib.machinery
import os
import shutil
import sysconfig
from pathlib import Path

PACKAGE = Path(__file__).parent


def game_modules(package: Path = PACKAGE) -> tuple[str, ...]:
    """The hot modules of mudwiz's own games: each game's package names its own in its ``__init__``'s ``HOT``,
    read here as text (the build reads this module before mudwiz is installed, and a game's name is its own)."""
    found: list[str] = []
    for init in sorted(package.glob("games/*/__init__.py")):
        for node in ast.parse(init.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.Assign) and [getattr(t, "id", None) for t in node.targets] == ["HOT"]:
                found += [f"games.{init.parent.name}.{name}" for name in ast.literal_eval(node.value)]
    return tuple(found)


HOT = (
    "games.base", "games.events", "games.options", "games.phase", "games.views", *game_modules(),
    "table.__init__", "table.botdriver", "table.botseat", "table.core", "table.fanout", "table.journal",
    "table.options", "table.pacing", "table.players", "table.recording", "table.roster", "table.seating",
    "table.sheets", "table.state", "table.timers",
    "render.jsonl", "connection", "session", "outflow",
    "lobby.__init__", "lobby.core", "lobby.directory", "lobby.keeping", "lobby.names", "lobby.people", "lobby.tables",
    "envelope", "hints", "passwords", "replies",  # the connection's parts
)


def module_name(hot: str) -> str:
    return "mudwiz." + hot.removesuffix(".__init__")


def source(hot: str, package: Path = PACKAGE) -> Path:
    """A hot module's source file in ``package`` (the directory of mudwiz's modules)."""
    return package.joinpath(*hot.split(".")).with_suffix(".py")


def why_not() -> str | None:
    """Why the hot modules cannot be compiled on this machine (None: they can), as setup.py decides before it
    tries: no C compiler, no Python headers, or ``MUDWIZ_COMPILE=0``."""
    if os.environ.get("MUDWIZ_COMPILE", "1") == "0":
        return "MUDWIZ_COMPILE=0"
    compiler = (os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc").split()[0]
    if shutil.which(compiler) is None:
        return f"no C compiler ({compiler})"
    if not (Path(sysconfig.get_paths()["include"]) / "Python.h").exists():
        return "no Python.h (Debian: python3-dev)"
    return None


def compiled() -> list[str]:
    """The hot modules this process runs compiled (an extension module, not the .py source)."""
    return [hot for hot in HOT if _is_extension(module_name(hot))]


def _is_extension(name: str) -> bool:
    origin = getattr(importlib.import_module(name), "__file__", None) or ""
    return origin.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES))


def stale(package: Path = PACKAGE) -> list[str]:
    """Compiled modules older than their source: an edit since the build, which the compiled module shadows
    (an editable install puts them beside the source). ``pip install -e .`` again builds them anew."""
    out = []
    for hot in HOT:
        path = source(hot, package)
        if not path.exists():
            continue
        edited = path.stat().st_mtime
        builds = [path.with_name(path.stem + suffix) for suffix in importlib.machinery.EXTENSION_SUFFIXES]
        if any(built.exists() and built.stat().st_mtime < edited for built in builds):
            out.append(hot)
    return out


def describe() -> str:
    """One line for the server's log: how much of a move's path runs compiled, and what shadows an edit."""
    done = compiled()
    if not done:
        return (f"the {len(HOT)} hot modules run as pure Python (not compiled when installed: no C compiler or "
                f"Python headers, or MUDWIZ_COMPILE=0; pip install -v says which)")
    line = f"{len(done)} of {len(HOT)} hot modules run compiled with mypyc"
    old = stale()
    if old:
        line += f"; older than their source, so an edit is not running: {', '.join(old)} (pip install -e . again)"
    return line
