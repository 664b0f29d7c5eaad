"""Ratings on a terminal: each game's table (its own renderer and the generic one) shows a seat's rating after its
row within 80 columns, with the longest names and the widest figures, next to the other tags; the waiting room,
``/who``, ``/rating`` and ``/top`` too."""

from __future__ import annotations

import random
from typing import Any

import pytest

from mudwiz.bots.randombot import RandomBot
from mudwiz.games import available, game_class
from mudwiz.render import generic
from mudwiz.render.ansi import Presenter, draw
from mudwiz.render.style import Style, strip_ansi, visible_len

STYLES = {"ascii": Style.for_mode("ascii"), "ansi": Style()}
NAMES = [f"Player_{i}_{'x' * 6}"[:16] for i in range(6)]


def rated_views(game: str) -> list[dict[str, Any]]:
    """Views along a seeded game, every seat rated -1234 (as wide as a shown rating gets), one seat a stand-in
    and one away, as the table adds them."""
    cls = game_class(game)
    g = cls(NAMES[:cls.max_players], None, 3)
    bot, views = RandomBot(game, random.Random(game)), []
    for _ in range(200):
        if g.finished:
            break
        if g.phase == "roundend":
            g.advance()
            continue
        seat = g.waiting()[0]
        views.append(g.view(seat))
        g.apply(seat, bot.choose(views[-1]))
    for view in views:
        view["confirmed"] = []
        for i, p in enumerate(view["players"]):
            p.update(rating=-1234, bot=False, away=i == 1, stand_in=i == 2, away_for=95 if i == 1 else None)
    return views


@pytest.mark.parametrize("game", available())
def test_each_game_shows_the_seats_ratings_within_80_columns(game: str) -> None:
    views = rated_views(game)
    for style in STYLES.values():
        for draw_table in (draw(game, "table_view"), generic.table_view):
            lines = [line for v in views for line in draw_table(v, style)]
            assert [line for line in lines if visible_len(line) > 80] == []
            rows = [strip_ansi(line) for line in lines if "[-1234]" in line]
            assert rows and any("(stand-in)" in row for row in rows) and any("away 1:35" in row for row in rows)
            headings = [strip_ansi(line) for line in lines if line.lstrip().startswith("\x1b[90mplayer")
                        or strip_ansi(line).startswith("   player")]
            assert headings and all(h.endswith("[rating]") for h in headings), headings  # the figure is named
            for v in views if draw_table is not generic.table_view else ():  # the figure under its name
                drawn = [strip_ansi(line) for line in draw_table(v, style) if "[-1234]" in line or "[rating]" in line]
                assert len({line.index("[") for line in drawn}) == 1, drawn


def test_the_lists_show_ratings_within_80_columns() -> None:
    presenter = Presenter(Style.for_mode("ascii"))
    waiting = {"type": "state", "look": True, "table": 1, "game": "wizard", "phase": "waiting", "host": NAMES[0],
               "max_players": 6, "min_players": 3, "options": {}, "legal": [],
               "players": [{"name": NAMES[0], "bot": False, "rating": 1043}, {"name": "bot1", "bot": True,
                                                                              "rating": 1675},
                           {"name": "guest", "bot": False, "rating": None}]}
    who = {"type": "who", "users": [{"name": NAMES[0], "where": "table 12 (watching)", "rating": -1234,
                                     "rating_game": "tiltowait"}, {"name": "guest", "where": "lobby",
                                                                   "rating": None, "rating_game": None}]}
    row = {"game": "tiltowait", "name": NAMES[0], "rating": -1234, "mu": -12.25, "sigma": 8.33, "games": 1234,
           "rank": 10}
    rating = {"type": "rating", "name": NAMES[0], "bot": False, "ratings": [row, {**row, "game": "wizard"}]}
    none = {"type": "rating", "name": "guest", "bot": False, "ratings": []}
    top = {"type": "top", "games": [{"game": "wizard", "players": [row] * 10,
                                     "bots": [{**row, "name": "bot:random", "rank": None},
                                              {**row, "name": "bot:good", "rank": None}]},
                                    {"game": "witches", "players": [], "bots": []}]}
    shown = {kind["type"] + str(i): presenter.lines(kind) for i, kind in enumerate([waiting, who, rating, none, top])}
    lines = [line for part in shown.values() for line in part]
    assert [line for line in lines if visible_len(line) > 80] == []
    assert f"   {NAMES[0]} (host) (rating 1043)" in shown["state0"] and "   bot1 (bot) (rating 1675)" in shown["state0"]
    assert "   guest" in shown["state0"]
    assert shown["who1"][1].endswith("rated -1234 in tiltowait") and shown["who1"][2].rstrip().endswith("lobby")
    assert any("tiltowait" in line and "-1234" in line and "1234 games" in line and "rank 10" in line
               for line in shown["rating2"])
    assert "has no rating yet" in shown["rating3"][1]
    assert sum("-1234" in line for line in shown["top4"]) == 10 + 1
    assert any("Nobody is rated yet" in line for line in shown["top4"])
