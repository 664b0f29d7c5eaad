"""The season table (``/top GAME season``) as lines for a person: the terminal's presenter (ansi.py) takes these
methods as its own (a method ``_TYPE`` draws a message of that type)."""

from __future__ import annotations

from typing import Any

from mudwiz.render.style import Style, pad


def points(value: float) -> str:
    """Season points as read: whole when whole (``12``), else to one place (``1.5``)."""
    return f"{value:g}" if float(value).is_integer() else f"{value:.1f}"


class SeasonLines:
    """The season's table."""

    style: Style

    def _season(self, m: dict[str, Any]) -> list[str]:
        s = self.style
        rows = [s.rule(f"Season {m['season']}: {m['game']}")]
        rows += [f"  {r['rank']:>3}. {pad(s.text(r['name']), 16)} {points(r['points']):>7} point"
                 f"{'s' * (r['points'] != 1)}  {r['games']:>4} game{'s' * (r['games'] != 1)}" for r in m["players"]]
        if not m["players"]:
            rows.append("  Nobody has season points yet: registered players gather them by rated games.")
        return rows
