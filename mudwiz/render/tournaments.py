"""How tournaments read at a terminal: ``tournament`` (its standings and the current round's tables) and
``tournaments`` (the list). Looked up by type with the seeks' renderers (seeks.py)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from mudwiz.render.style import Style, pad, right
from mudwiz.texts import now


def _at(seconds: float) -> str:
    return datetime.fromtimestamp(seconds, UTC).strftime("%Y-%m-%d %H:%M UTC")


def tournament(m: dict[str, Any], s: Style) -> list[str]:
    status = m["status"]
    state = (now("open, starts {when}", when=_at(m["start_at"])) if status == "open"
             else now("round {round} of {rounds}", round=m["round"], rounds=m["rounds"]) if status == "running"
             else now("over, won by {name}", name=m["winner"]) if status == "finished"
             else now("called off (fewer than 2 players)") if status == "called off" else status)
    rows = [s.rule(now("Tournament {id}: {title}, Swiss, {rounds} rounds, tables of {size}", id=m["id"],
                       title=m["title"], rounds=m["rounds"], size=m["size"])),
            now("  {state}; {n} players", state=state, n=len(m["entrants"]))]
    if m["standings"] and status != "open":
        player, points, firsts, score = now("player"), now("points"), now("firsts"), now("score")
        rows.append(f"  #   {pad(player, 18)} {right(points, 6)}  {right('Buchholz', 8)}  {right(firsts, 6)}  "
                    f"{right(score, 5)}")
        for i, r in enumerate(m["standings"], 1):
            rows.append(f"  {i:<3} {pad(s.text(r['name']), 18)} {r['points']:>6g}  {r['buchholz']:>8g}  "
                        f"{r['firsts']:>6}  {r['score']:>5}")
    elif m["entrants"]:
        rows.append(now("  Signed up: {names}", names=s.text(", ".join(m["entrants"]))))
    for t in m["table_rows"] if m["status"] == "running" else []:
        bots = set(t["bots"])
        seats = ", ".join(now("{name} (bot)", name=n) if n in bots else n for n in t["seats"])
        done = now("over") if t["result"] else now("playing")
        table = now("table {id:<5}", id=t["table"])
        rows.append(f"  {table} {pad(done, 8)} {s.text(seats)}")
    return rows


def tournaments(m: dict[str, Any], s: Style) -> list[str]:
    rows = [s.rule(now("Tournaments ({n})", n=len(m["tournaments"])))]
    for t in m["tournaments"]:
        status = t["status"]
        when = (now("starts {when}", when=_at(t["start_at"])) if status == "open"
                else now("round {round} of {rounds}", round=t["round"], rounds=t["rounds"]) if status == "running"
                else now("won by {name}", name=t["winner"]) if status == "finished"
                else now("called off (fewer than 2 players)") if status == "called off" else status)
        players = now("{n:>3} players", n=t["players"])
        rows.append(f"  {t['id']:<5} {t['game']:<10} {players}  {s.text(when)}")
    if not m["tournaments"]:
        rows.append(now("  None yet: /tournament new GAME swiss ROUNDS opens one (sysops)."))
    return rows


RENDERERS: dict[str, Callable[[dict[str, Any], Style], list[str]]] = {
    "tournament": tournament, "tournaments": tournaments,
}
