"""Seasons: the place points (pure), the season of a time, the store's season points added with each rated game
(both backends), and ``/top GAME season`` in the lobby."""

from __future__ import annotations

import calendar

import pytest
from hypothesis import given
from hypothesis import strategies as st
from recorder import Recorder
from twisted.internet.task import Clock

from mudwiz.commands import dispatch
from mudwiz.errors import BadCommand
from mudwiz.lobby import Lobby
from mudwiz.ratings import rate_game
from mudwiz.render.ansi import Presenter
from mudwiz.render.style import Style
from mudwiz.seasons import fame_records, place_points, season_of, season_period
from mudwiz.store import GameRecord, Store
from mudwiz.table import Records

HASH = "$argon2id$v=19$m=65536,t=3,p=4$c2FsdA$aGFzaA"
DEC_2026 = calendar.timegm((2026, 12, 6, 15, 0, 0))
NOV_2026 = calendar.timegm((2026, 11, 30, 23, 59, 0))


def game(*seats: str | tuple[str, str], places: list[int] | None = None, ended: float = DEC_2026,
         name: str = "wizard") -> GameRecord:
    pairs = [(s, "person") if isinstance(s, str) else s for s in seats]
    places = places or list(range(1, len(pairs) + 1))
    standings = [{"player": n, "score": -p, "place": p} for (n, _), p in zip(pairs, places, strict=True)]
    return GameRecord(game=name, options={}, table_options={}, seed=1, seats=[{"name": n, "kind": k} for n, k in pairs],
                      actions=[], standings=standings, outcome="finished", started=ended - 60, ended=ended)


# ------------------------------------------------------------------ pure


def test_place_points_from_the_bottom_double() -> None:
    assert place_points([1, 2, 3, 4]) == [4, 2, 1, 0]
    assert place_points([3, 1, 2]) == [0, 2, 1]
    assert place_points([1, 2, 3, 4, 5]) == [8, 4, 2, 1, 0]
    assert place_points([1, 1, 3, 4]) == [3, 3, 1, 0]
    assert place_points([1, 2, 2, 2]) == [4, 1, 1, 1]
    assert place_points([1]) == [0]


@given(st.lists(st.integers(1, 6), min_size=1, max_size=8))
def test_points_sum_to_the_ladder_and_ties_share_alike(places: list[int]) -> None:
    n = len(places)
    points = place_points(places)
    assert sum(points) == pytest.approx(sum(2 ** i for i in range(n - 1)))
    for i in range(n):
        for j in range(n):
            if places[i] == places[j]:
                assert points[i] == points[j]
            elif places[i] < places[j]:
                assert points[i] >= points[j]


def test_the_season_of_a_time() -> None:
    assert season_of(DEC_2026, "month") == "2026-12"
    assert season_of(DEC_2026, "quarter") == "2026-Q4"
    assert season_of(calendar.timegm((2026, 4, 1, 0, 0, 0)), "quarter") == "2026-Q2"
    assert season_of(DEC_2026, "year") == "2026"
    with pytest.raises(ValueError, match="MUDWIZ_SEASON must be one of month, quarter, year"):
        season_of(DEC_2026, "week")
    assert season_period({}) == "month" and season_period({"MUDWIZ_SEASON": "Quarter"}) == "quarter"
    with pytest.raises(ValueError, match="MUDWIZ_SEASON"):
        season_period({"MUDWIZ_SEASON": "fortnight"})


# ------------------------------------------------------------------ store


def test_rated_games_add_season_points_to_registered_people_only(store: Store) -> None:
    for name in ("Ann", "Bob"):
        store.create_account(name, HASH)
    store.record_game(game("Ann", "Bob", "guest", ("b", "bot:good")), rate_game)  # 4 2 1 0
    store.record_game(game("Bob", "Ann", "guest"), rate_game)  # 2 1 0
    store.record_game(game("Ann", "Bob", ended=NOV_2026), rate_game)  # last month: 1 0
    store.record_game(game("Ann", "Bob", name="witches"), rate_game)
    store.record_game(game("Bob", "Ann"))  # not rated: no points
    assert store.season_table("2026-12", "wizard") == [("Ann", 5.0, 2), ("Bob", 4.0, 2)]
    assert store.season_table("2026-12", "wizard", 1) == [("Ann", 5.0, 2)]
    assert store.season_table("2026-11", "wizard") == [("Ann", 1.0, 1), ("Bob", 0.0, 1)]
    assert store.season_table("2026-12", "tiltowait") == []
    assert store.season_winners("wizard", before="2026-12") == [("2026-11", "wizard", "Ann", 1.0)]
    assert store.season_winners() == [("2026-12", "witches", "Ann", 1.0), ("2026-12", "wizard", "Ann", 5.0),
                                      ("2026-11", "wizard", "Ann", 1.0)]


def test_season_points_added_directly_share_ties_by_games_then_name(store: Store) -> None:
    store.add_season_points("2026", "wizard", [("Cy", 2.0), ("Ann", 2.0)])
    store.add_season_points("2026", "wizard", [("Bob", 2.0)])
    store.add_season_points("2026", "wizard", [("bob", 0.5)])
    assert store.season_table("2026", "wizard") == [("bob", 2.5, 2), ("Ann", 2.0, 1), ("Cy", 2.0, 1)]


# ------------------------------------------------------------------ lobby


def test_top_game_season_shows_this_seasons_table(store: Store) -> None:
    for name in ("Ann", "Bob"):
        store.create_account(name, HASH)
    store.record_game(game("Bob", "Ann", "guest"), rate_game)
    store.record_game(game("Bob", "Ann", ended=NOV_2026), rate_game)
    clock = Clock()
    clock.advance(DEC_2026 + 3600)
    lobby = Lobby(clock, grace=30, bot_delay=0.5, seed=11, records=Records.inline(store))
    ann = Recorder()
    lobby.login(ann, "Ann", registered=True)
    dispatch(lobby, ann, "/top wizard season")
    [message] = ann.of_type("season")
    assert message == {"type": "season", "game": "wizard", "season": "2026-12", "players": [
        {"rank": 1, "name": "Bob", "points": 2.0, "games": 1}, {"rank": 2, "name": "Ann", "points": 1.0, "games": 1}]}
    lines = Presenter(Style.for_mode("ascii", 80)).lines(message)
    assert "Season 2026-12: wizard" in lines[0] and "Bob" in lines[1] and "2 points" in lines[1]
    dispatch(lobby, ann, "/top wizard")
    assert ann.of_type("top")[-1]["games"][0]["game"] == "wizard"
    with pytest.raises(BadCommand, match="usage: /top GAME season; games: wizard"):
        dispatch(lobby, ann, "/top chess season")


# ------------------------------------------------------------------ the hall of fame


def test_fame_records_count_registered_people_only() -> None:
    games = [(1, "wizard", [{"player": "Ann", "score": 30, "place": 1}, {"player": "g", "score": 90, "place": 2}]),
             (2, "wizard", [{"player": "Ann", "score": 10, "place": 1}, {"player": "Bob", "score": 40, "place": 2}]),
             (3, "wizard", [{"player": "Bob", "score": 50, "place": 1}, {"player": "Ann", "score": 0, "place": 2}]),
             (4, "wizard", [{"player": "Bob", "score": 20, "place": 1}, {"player": "Ann", "score": 0, "place": 2}]),
             (5, "wizard", [{"player": "Bob", "score": 20, "place": 1}])]
    found = fame_records(games, {"ann", "bob"})
    assert found["wizard"] == {"best_score": {"name": "Bob", "score": 50, "id": 3},
                               "streak": {"name": "Bob", "games": 3}, "most_games": {"name": "Ann", "games": 4}}
    assert fame_records([], set()) == {}


def test_fame_shows_tournament_and_past_season_winners_and_records(store: Store) -> None:
    for name in ("Ann", "Bob"):
        store.create_account(name, HASH)
    store.record_game(game("Ann", "Bob", ended=NOV_2026), rate_game)
    store.record_game(game("Bob", "Ann"), rate_game)
    store.new_tournament("wizard", "finished", {"game": "wizard", "id": 1, "winner": "Ann", "finished_at": DEC_2026,
                                                "standings": [{"name": "Ann", "points": 3}]}, DEC_2026)
    clock = Clock()
    clock.advance(DEC_2026 + 3600)
    lobby = Lobby(clock, grace=30, bot_delay=0.5, seed=11, records=Records.inline(store))
    ann = Recorder()
    lobby.login(ann, "Ann", registered=True)
    dispatch(lobby, ann, "/fame wizard")
    [message] = ann.of_type("fame")
    [wizard] = message["games"]
    assert wizard["tournaments"] == [{"id": 1, "winner": "Ann", "finished": "2026-12-06T15:00:00Z"}]
    assert wizard["seasons"] == [{"season": "2026-11", "name": "Ann", "points": 1.0}]  # December is not over
    assert wizard["most_games"] == {"name": "Bob", "games": 2} and wizard["streak"]["games"] == 1
    lines = Presenter(Style.for_mode("ascii", 80)).lines(message)
    assert any("Tournament #1 won by Ann" in line for line in lines)
    assert all(len(line) <= 80 for line in lines)
    dispatch(lobby, ann, "/fame")
    assert [g["game"] for g in ann.of_type("fame")[-1]["games"]] == ["wizard", "witches", "tiltowait"]
    with pytest.raises(BadCommand, match="usage: /fame"):
        dispatch(lobby, ann, "/fame chess")


def test_a_bbs_caller_leaving_sees_the_season_on_one_screen(store: Store) -> None:
    names = [f"p{i}" for i in range(6)]
    for name in ["Ann", *names]:
        store.create_account(name, HASH)
    for i in range(5):
        store.record_game(game(names[i], names[i + 1], "Ann"), rate_game)
    clock = Clock()
    clock.advance(DEC_2026 + 3600)
    lobby = Lobby(clock, grace=30, bot_delay=0.5, seed=11, records=Records.inline(store))
    ann, bob = Recorder("Ann", mode="ansi"), Recorder()
    lobby.login(ann, "Ann", registered=True)
    lobby.login(bob, "bob")
    ann.bbs = "vert"
    dispatch(lobby, ann, "/quit")
    [message] = ann.of_type("farewell")
    [wizard] = message["games"]
    assert [r["rank"] for r in wizard["top"]] == [1, 2, 3] and wizard["you"]["name"] == "Ann"
    lines = Presenter(Style.for_mode("ansi", 80)).lines(message)
    assert len(lines) <= 24 and any("(you)" in line for line in lines)
    dispatch(lobby, bob, "/quit")
    assert bob.of_type("farewell") == []  # not through a BBS: no summary
