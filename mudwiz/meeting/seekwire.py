"""A seek as plain JSON values, so that a cluster can carry it to the process that holds the book and back."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict
from typing import Any

from mudwiz.meeting.seeks import Seek

Typed = tuple[tuple[str, str | None], ...]  # options as typed: (name, value or None for a bare flag), in order


def seek_dict(seek: Seek) -> dict[str, Any]:
    """``seek`` as JSON values (``seek_of`` reads it back)."""
    return asdict(seek)


def seek_of(data: Mapping[str, Any]) -> Seek:
    fields = dict(data)
    fields["options"] = tuple((str(name), value) for name, value in fields["options"])
    return Seek(**fields)


def typed_of(data: Any) -> Typed:
    """Options as typed, from their JSON form (a list of pairs)."""
    return tuple((str(name), None if value is None else str(value)) for name, value in data or ())
