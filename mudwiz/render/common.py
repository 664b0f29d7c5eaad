"""Pieces of screen every game draws the same way."""

from __future__ import annotations

from typing import Any

from mudwiz.render.style import Style, pad


def standings(rows: list[dict[str, Any]], style: Style) -> list[str]:
    """Final places, best first; tied players share a place."""
    lines = [style.rule("Final standings")]
    for r in rows:
        lines.append(f"   {r['place']:>2}. {pad(style.text(r['player']), 16)} {r['score']:>7}")
    return lines
