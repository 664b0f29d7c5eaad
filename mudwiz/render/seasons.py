"""The season table (``/top GAME season``) as lines for a person: the terminal's presenter (ansi.py) takes these
methods as its own (a method ``_TYPE`` draws a message of that type)."""

from __future__ import annotations

from typing import Any

from mudwiz.render.style import Style, pad
from mudwiz.texts import now, now_n


def points(value: float) -> str:
    """Season points as read: whole when whole (``12``), else to one place (``1.5``)."""
    return f"{value:g}" if float(value).is_integer() else f"{value:.1f}"


def games_said(n: int) -> str:
    """``   3 games``: a table's games column (four cells for the figure), with its word."""
    return now_n("{n:>4} game", "{n:>4} games", n)


def points_said(value: float) -> str:
    """``   12 points``: a season table's points column (seven cells for the figure), with its word."""
    return now_n("{points:>7} point", "{points:>7} points", 1 if value == 1 else 2, points=points(value))


def top_figures(row: dict[str, Any]) -> str:
    """A farewell's row's figures: ``     12 pts    3 games``."""
    return now("{points:>7} pts {games:>4} games", points=points(row["points"]), games=row["games"])


class SeasonLines:
    """The season's table."""

    style: Style

    def _season(self, m: dict[str, Any]) -> list[str]:
        s = self.style
        rows = [s.rule(now("Season {season}: {game}", season=m["season"], game=m["game"]))]
        rows += [f"  {r['rank']:>3}. {pad(s.text(r['name']), 16)} {points_said(r['points'])}  "
                 f"{games_said(r['games'])}" for r in m["players"]]
        if not m["players"]:
            rows.append(now("  Nobody has season points yet: registered players gather them by rated games."))
        return rows

    def _fame(self, m: dict[str, Any]) -> list[str]:
        """Each game's hall of fame: tournament winners, season winners, then its records, a line each."""
        s = self.style
        rows = []
        for g in m["games"]:
            rows.append(s.rule(now("Hall of fame: {game}", game=g["game"])))
            for t in g["tournaments"]:
                winner = s.text(str(t["winner"]))
                rows.append(now("  Tournament #{id} won by {name} ({date})", id=t["id"], name=winner,
                                date=t["finished"][:10]) if t.get("finished")
                            else now("  Tournament #{id} won by {name}", id=t["id"], name=winner))
            for w in g["seasons"]:
                rows.append(now("  Season {season} won by {name} ({points})", season=pad(str(w["season"]), 8),
                                name=s.text(w["name"]), points=points_said(w["points"]).strip()))
            if not g["tournaments"] and not g["seasons"]:
                rows.append(now("  No tournament or season has been won yet."))
            rows += record_lines(g, s)
        return rows


    def _farewell(self, m: dict[str, Any]) -> list[str]:
        """A BBS caller's goodbye: each game's season top and their own place, on one screen."""
        s = self.style
        rows = [s.rule(now("Season {season}: goodbye, {name}", season=m["season"], name=s.text(m["name"])))]
        for g in m["games"]:
            rows.append(f"  {g['game']}:")
            rows += [f"    {r['rank']:>3}. {pad(s.text(r['name']), 24)} {top_figures(r)}" for r in g["top"]]
            you = g["you"]
            if you is not None and you not in g["top"]:
                mark = now("  (you)")
                rows.append(f"    {you['rank']:>3}. {pad(s.text(you['name']), 24)} {top_figures(you)}{mark}")
        if not m["games"]:
            rows.append(now("  Nobody has season points yet: rated games give them (/top GAME season)."))
        return rows


def record_lines(g: dict[str, Any], s: Style) -> list[str]:
    """A game's records (best score, longest streak, most games), a line each; none: a line saying so."""
    rows = []
    if g.get("best_score"):
        b = g["best_score"]
        head, said = now("Best score:"), now("{name} (game #{id})", name=s.text(b["name"]), id=b["id"])
        rows.append(f"  {pad(head, 15)} {b['score']:>5}  {said}")
    if g.get("streak"):
        head, said = now("Longest streak:"), now("{name} (wins in a row)", name=s.text(g["streak"]["name"]))
        rows.append(f"  {pad(head, 15)} {g['streak']['games']:>5}  {said}")
    if g.get("most_games"):
        head = now("Most games:")
        rows.append(f"  {pad(head, 15)} {g['most_games']['games']:>5}  {s.text(g['most_games']['name'])}")
    return rows or [now("  No records yet: registered players set them by finished games.")]
