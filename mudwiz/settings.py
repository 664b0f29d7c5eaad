"""Settings read once at start from the environment: a frozen dataclass whose fields name their variable
(``x: int = env("MUDWIZ_X", 5)``), all read by ``from_environ``, so that a part's limits, their defaults and their
variables are declared together, once, and no part writes its own reader."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import field, fields
from typing import Any, TypeVar

T = TypeVar("T")
S = TypeVar("S")


def env(variable: str, default: T) -> T:
    """A dataclass field read from ``variable`` when it is set, else ``default`` (whose type the text is read as)."""
    made: T = field(default=default, metadata={"env": variable})
    return made


class SettingError(ValueError):
    """A ``MUDWIZ_*`` variable the server cannot run with: said in one line at the start (``mudwiz serve`` and
    ``twistd -ny server.tac`` alike), never found out later by a game's record."""


def from_environ(cls: type[S], environ: Mapping[str, str]) -> S:
    """``cls`` with each of its ``env`` fields read from ``environ`` where its variable is set."""
    values: dict[str, Any] = {}
    for f in fields(cls):  # type: ignore[arg-type]  # a dataclass, which the type cannot say
        variable = f.metadata.get("env")
        if variable is not None and variable in environ:
            read: Any = type(f.default)  # int or float, as the default is
            values[f.name] = read(environ[variable])
    return cls(**values)
