"""How tournaments read at a terminal: ``tournament`` (its standings and the current round's tables) and
``tournaments`` (the list). Looked up by type with the seeks' renderers (seeks.py)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from mudwiz.render.style import Style, pad


def _at(seconds: float) -> str:
    return datetime.fromtimestamp(seconds, UTC).strftime("%Y-%m-%d %H:%M UTC")


def tournament(m: dict[str, Any], s: Style) -> list[str]:
    state = {"open": f"open, starts {_at(m['start_at'])}", "running": f"round {m['round']} of {m['rounds']}",
             "finished": f"over, won by {m['winner']}",
             "called off": "called off (fewer than 2 players)"}.get(m["status"], m["status"])
    rows = [s.rule(f"Tournament {m['id']}: {m['title']}, Swiss, {m['rounds']} rounds, tables of {m['size']}"),
            f"  {state}; {len(m['entrants'])} players"]
    if m["standings"] and m["status"] != "open":
        rows.append("  #   player             points  Buchholz  firsts  score")
        for i, r in enumerate(m["standings"], 1):
            rows.append(f"  {i:<3} {pad(s.text(r['name']), 18)} {r['points']:>6g}  {r['buchholz']:>8g}  "
                        f"{r['firsts']:>6}  {r['score']:>5}")
    elif m["entrants"]:
        rows.append(f"  Signed up: {s.text(', '.join(m['entrants']))}")
    for t in m["table_rows"] if m["status"] == "running" else []:
        bots = set(t["bots"])
        seats = ", ".join(f"{n} (bot)" if n in bots else n for n in t["seats"])
        done = "over" if t["result"] else "playing"
        rows.append(f"  table {t['table']:<5} {done:<8} {s.text(seats)}")
    return rows


def tournaments(m: dict[str, Any], s: Style) -> list[str]:
    rows = [s.rule(f"Tournaments ({len(m['tournaments'])})")]
    for t in m["tournaments"]:
        when = {"open": f"starts {_at(t['start_at'])}", "running": f"round {t['round']} of {t['rounds']}",
                "finished": f"won by {t['winner']}"}.get(t["status"], t["status"])
        rows.append(f"  {t['id']:<5} {t['game']:<10} {t['players']:>3} players  {s.text(when)}")
    if not m["tournaments"]:
        rows.append("  None yet: /tournament new GAME swiss ROUNDS opens one (sysops).")
    return rows


RENDERERS: dict[str, Callable[[dict[str, Any], Style], list[str]]] = {
    "tournament": tournament, "tournaments": tournaments,
}
