"""The build: pyproject.toml says what mudwiz is; this adds the hot modules compiled with mypyc.

A move's path (the rules engines, the table, the fan-out, the connection) is plain typed Python; mypyc compiles
those modules to C extensions that run the same code with ~30 % less CPU, which brings a server with 200 busy
tables closer to the turn latency target, not yet within it (docs/performance.md, "Settings that matter for
speed"). The list is ``mudwiz/compiled.py`` (a module the server imports from to say which of them are compiled).

Compiling needs a C compiler and Python's headers. Without them, or with ``MUDWIZ_COMPILE=0``, mudwiz installs
as pure Python, the same code at its interpreted speed: the build says why, and nothing else changes.
"""

from __future__ import annotations

import sys
import sysconfig
from pathlib import Path
from typing import Any

from setuptools import setup

ROOT = Path(__file__).resolve().parent


def _compiled() -> dict[str, Any]:
    """mudwiz/compiled.py's names (``HOT``, ``source``, ``why_not``), read without importing the package, which is
    not built yet."""
    path = ROOT / "mudwiz" / "compiled.py"
    namespace: dict[str, Any] = {"__file__": str(path), "__name__": "mudwiz_compiled"}
    exec(path.read_text(), namespace)
    return namespace


COMPILED = _compiled()
SOURCES = [COMPILED["source"](hot) for hot in COMPILED["HOT"]]  # the hot modules' files, under ROOT


def _why_not() -> str | None:
    """Why the hot modules cannot be compiled here, or None when they can."""
    why: str | None = COMPILED["why_not"]()
    if why is None:
        try:
            import mypyc.build  # noqa: F401
        except ImportError:
            return "no mypyc"
    return why


def _remove_old_builds() -> None:
    """An editable install's compiled modules from an earlier build, which would still be imported before the
    source: a pure-Python install must not leave them."""
    shlib = sysconfig.get_config_var("SHLIB_SUFFIX") or ".so"
    for path in SOURCES:
        for built in path.parent.glob(f"{path.stem}.*{shlib}"):
            built.unlink()
    for runtime in ROOT.glob(f"*__mypyc.*{shlib}"):
        runtime.unlink()


def _extensions() -> list[object]:
    why = _why_not()
    if why is not None:
        print(f"mudwiz: installing as pure Python ({why}); moves cost ~30 % more CPU", file=sys.stderr)
        _remove_old_builds()
        return []
    from mypyc.build import mypycify

    # its own mypy settings, not pyproject's: the build's environment has none of mudwiz's dependencies (their
    # types are Any here, which compiles to the same calls) nor the zope plugin; the type check proper is CI's
    modules = [str(path.relative_to(ROOT)) for path in SOURCES]
    return mypycify(["--config-file", str(ROOT / "mypyc.ini"), *modules], opt_level="3")


setup(ext_modules=_extensions())
