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

    def _fame(self, m: dict[str, Any]) -> list[str]:
        """Each game's hall of fame: tournament winners, season winners, then its records, a line each."""
        s = self.style
        rows = []
        for g in m["games"]:
            rows.append(s.rule(f"Hall of fame: {g['game']}"))
            for t in g["tournaments"]:
                rows.append(f"  Tournament #{t['id']} won by {s.text(str(t['winner']))}"
                            + (f" ({t['finished'][:10]})" if t.get("finished") else ""))
            for w in g["seasons"]:
                rows.append(f"  Season {w['season']:<8} won by {s.text(w['name'])} ({points(w['points'])} points)")
            if not g["tournaments"] and not g["seasons"]:
                rows.append("  No tournament or season has been won yet.")
            rows += record_lines(g, s)
        return rows


    def _farewell(self, m: dict[str, Any]) -> list[str]:
        """A BBS caller's goodbye: each game's season top and their own place, on one screen."""
        s = self.style
        rows = [s.rule(f"Season {m['season']}: goodbye, {s.text(m['name'])}")]
        for g in m["games"]:
            rows.append(f"  {g['game']}:")
            rows += [f"    {r['rank']:>3}. {pad(s.text(r['name']), 24)} {points(r['points']):>7} pts"
                     f" {r['games']:>4} games" for r in g["top"]]
            you = g["you"]
            if you is not None and you not in g["top"]:
                rows.append(f"    {you['rank']:>3}. {pad(s.text(you['name']), 24)} {points(you['points']):>7} pts"
                            f" {you['games']:>4} games  (you)")
        if not m["games"]:
            rows.append("  Nobody has season points yet: rated games give them (/top GAME season).")
        return rows


def record_lines(g: dict[str, Any], s: Style) -> list[str]:
    """A game's records (best score, longest streak, most games), a line each; none: a line saying so."""
    rows = []
    if g.get("best_score"):
        b = g["best_score"]
        rows.append(f"  Best score:     {b['score']:>5}  {s.text(b['name'])} (game #{b['id']})")
    if g.get("streak"):
        rows.append(f"  Longest streak: {g['streak']['games']:>5}  {s.text(g['streak']['name'])} (wins in a row)")
    if g.get("most_games"):
        rows.append(f"  Most games:     {g['most_games']['games']:>5}  {s.text(g['most_games']['name'])}")
    return rows or ["  No records yet: registered players set them by finished games."]
