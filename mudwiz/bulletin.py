"""``mudwiz bulletin``: the current season's table, the last tournaments and the hall of fame, from the store a
server uses (as ``mudwiz export`` reads it), as pages of 80 x 24 for a BBS's bulletin menu (ANSI colour, plain
ASCII, or CP437 box drawing written as CP437 bytes) or as one JSON document for another site.

Its callers read the pages: they are in the server's language (``MUDWIZ_LANG``) where the bytes can carry it
(``ansi``, UTF-8), English in ASCII and CP437, which have no Japanese. Its errors on stderr are the operator's."""

from __future__ import annotations

import json
import sys
import time
from typing import Any, BinaryIO

from mudwiz.commands.records import fame, season_top
from mudwiz.games import available
from mudwiz.render.ansi import Presenter
from mudwiz.render.style import Style, cell_width, fit
from mudwiz.store import Store, iso_time
from mudwiz.texts import ENGLISH, default, now, speaking

FORMATS = ("ansi", "ascii", "cp437", "json")
PAGE_LINES = 24  # a page's lines, its head and foot among them
PAGE_WIDTH = 80
TOURNAMENTS = 10  # the last finished tournaments listed


def bulletin(store: Store, game: str | None, now: float) -> dict[str, Any]:
    """The bulletin as data: each game's (or ``game``'s) season table, the last finished tournaments, the hall
    of fame (``/top GAME season``'s and ``/fame``'s messages)."""
    games = [game] if game else available()
    finished = [state for _, _, state in store.tournaments(("finished",), TOURNAMENTS)]
    return {"type": "bulletin", "generated": iso_time(now),
            "seasons": [season_top(store, g, now) for g in games],
            "tournaments": [{"id": t.get("id"), "game": t.get("game"), "winner": t.get("winner"),
                             "finished": iso_time(t["finished_at"]) if isinstance(t.get("finished_at"), int | float)
                             else None} for t in finished if game is None or t.get("game") == game],
            "fame": fame(store, game, now)}


def _tournament_lines(data: dict[str, Any], style: Style) -> list[str]:
    rows = [style.rule(now("Last tournaments"))]
    for t in data["tournaments"]:
        won = now("won by {name}", name=style.text(str(t["winner"])))
        rows.append(f"  #{t['id']:<5} {str(t['game']):<10} {won}" + (f"  {t['finished'][:10]}" if t.get("finished")
                                                                      else ""))
    return rows if data["tournaments"] else [*rows, "  " + now("No tournament has finished yet.")]


def pages(data: dict[str, Any], fmt: str) -> list[list[str]]:
    """The bulletin as pages of at most ``PAGE_LINES`` lines of at most ``PAGE_WIDTH`` columns: a head, the
    body's lines (a section never starts in a page's last body lines), a foot with the page's number."""
    style = Style(colour=fmt == "ansi", unicode=fmt != "ascii", width=PAGE_WIDTH)
    present = Presenter(style)
    sections = [present.lines(m) for m in data["seasons"]]
    sections += [_tournament_lines(data, style), present.lines(data["fame"])]
    bar = "=" if fmt == "ascii" else "\u2550"
    body_lines = PAGE_LINES - 2
    bodies: list[list[str]] = [[]]
    for section in sections:
        section = fit(section, PAGE_WIDTH)
        if bodies[-1] and len(bodies[-1]) + min(len(section), 3) > body_lines:
            bodies.append([])
        for line in section:
            if len(bodies[-1]) == body_lines:
                bodies.append([])
            bodies[-1].append(line)
    title = " " + now("mudwiz bulletin, {time} UTC", time=data["generated"][:16].replace("T", " ")) + " "
    made = []
    for n, body in enumerate(bodies, 1):
        head = style.paint(bar * 3 + title + bar * max(0, PAGE_WIDTH - 3 - cell_width(title)), "bold")
        foot = now("page {n} of {pages}", n=n, pages=len(bodies))
        foot = " " * max(0, PAGE_WIDTH - 1 - cell_width(foot)) + foot
        made.append([head, *body, foot])
    return made


def write(data: dict[str, Any], fmt: str, out: BinaryIO) -> None:
    """The bulletin on ``out``: JSON, or its pages separated by a form feed, CP437 bytes for ``cp437`` (a
    character it has not is a ``?``), UTF-8 for ``ansi`` and ASCII for ``ascii``."""
    if fmt == "json":
        out.write((json.dumps(data, indent=2) + "\n").encode())
        return
    with speaking(default() if fmt == "ansi" else ENGLISH):  # ASCII and CP437 have no Japanese
        made = pages(data, fmt)
    text = "\f\r\n".join("".join(line + "\r\n" for line in page) for page in made)
    out.write(text.encode({"cp437": "cp437", "ascii": "ascii"}.get(fmt, "utf-8"), errors="replace"))


def run(game: str | None, fmt: str, data_dir: str | None) -> int:
    """``mudwiz bulletin``: status 0, or 1 with one line on stderr (a bad game or format, an unusable store)."""
    from mudwiz.service import existing_store
    from mudwiz.store import StoreError

    if fmt not in FORMATS:
        print(f"mudwiz: --format must be one of {', '.join(FORMATS)}, not {fmt!r}",  # i18n: not text (the operator's)
              file=sys.stderr)
        return 1
    if game is not None and game.lower() not in available():
        print(f"mudwiz: no game {game!r}; games: {', '.join(available())}", file=sys.stderr)  # i18n: not text
        return 1
    try:
        store = existing_store(data_dir)
        try:
            data = bulletin(store, None if game is None else game.lower(), time.time())
        finally:
            store.close()
    except (StoreError, ValueError) as exc:
        print(f"mudwiz: cannot read the game records: {exc}", file=sys.stderr)  # i18n: not text (the operator's)
        return 1
    write(data, fmt, sys.stdout.buffer)
    sys.stdout.flush()
    return 0
