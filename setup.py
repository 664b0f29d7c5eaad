"""The build: pyproject.toml says what mudwiz is; this adds the hot modules compiled with mypyc (issue #18).

A move's path (the rules engines, the table, the fan-out, the connection) is plain typed Python; mypyc compiles
those modules to C extensions that run the same code with ~30 % less CPU, which brings a server with 200 busy
tables closer to the turn latency target, not yet within it (docs/performance.md, "The ninth round"). The list is
``mudwiz/compiled.py`` (a module the server imports from to say which of them are compiled).

Compiling needs a C compiler and Python's headers. Without them, or with ``MUDWIZ_COMPILE=0``, mudwiz installs
as pure Python, the same code at its interpreted speed: the build says why, and nothing else changes.
"""

from __future__ import annotations

import os
import shutil
import sys
import sysconfig
from pathlib import Path

from setuptools import setup

ROOT = Path(__file__).resolve().parent


def _hot_modules() -> list[str]:
    path = ROOT / "mudwiz" / "compiled.py"
    namespace: dict[str, object] = {"__file__": str(path), "__name__": "mudwiz_compiled"}
    exec(path.read_text(), namespace)  # not imported: the package is not built yet
    return [f"mudwiz/{name.replace('.', '/')}.py" for name in namespace["HOT"]]  # type: ignore[attr-defined]


def _why_not() -> str | None:
    """Why the hot modules cannot be compiled here, or None when they can."""
    if os.environ.get("MUDWIZ_COMPILE", "1") == "0":
        return "MUDWIZ_COMPILE=0"
    compiler = os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc"
    if shutil.which(compiler.split()[0]) is None:
        return f"no C compiler ({compiler.split()[0]})"
    if not (Path(sysconfig.get_paths()["include"]) / "Python.h").exists():
        return "no Python.h (Debian: python3-dev)"
    try:
        import mypyc.build  # noqa: F401
    except ImportError:
        return "no mypyc"
    return None


def _remove_old_builds() -> None:
    """An editable install's compiled modules from an earlier build, which would still be imported before the
    source: a pure-Python install must not leave them."""
    for module in _hot_modules():
        source = ROOT / module
        for built in source.parent.glob(f"{source.stem}.*{sysconfig.get_config_var('SHLIB_SUFFIX') or '.so'}"):
            built.unlink()
    for runtime in ROOT.glob(f"*__mypyc.*{sysconfig.get_config_var('SHLIB_SUFFIX') or '.so'}"):
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
    return mypycify(["--config-file", str(ROOT / "mypyc.ini"), *_hot_modules()], opt_level="3")


setup(ext_modules=_extensions())
