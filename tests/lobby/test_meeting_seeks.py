"""The seek book: placing, replacing, withdrawing, matching, quick play and the bots' wait, fed with no clock."""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from typing import Any

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from mudwiz.errors import BadOption, MudwizError
from mudwiz.meeting.seeks import (
    Match,
    Seek,
    SeekBook,
    SeekPlaced,
    SeekRefusal,
    SeekRefused,
    SeekWithdrawn,
    Withdrawal,
    nearest_level,
    options_key,
)

RATINGS = {"ann": 1500.0, "bob": 1600.0, "cat": 1700.0, "dan": 1200.0, "eve": 1900.0}


def book(**kwargs: Any) -> SeekBook:
    return SeekBook(RATINGS, **kwargs)


def matches(events: list[Any]) -> list[Match]:
    return [e for e in events if isinstance(e, Match)]


def test_a_seek_is_placed_and_listed() -> None:
    b = book()
    [placed] = b.seek("Ann", "Wizard", players=3, now=10.0, options={"Turn": 60})
    assert isinstance(placed, SeekPlaced) and placed.replaced is None
    seek = placed.seek
    assert (seek.owner, seek.game, seek.players, seek.rated, seek.options, seek.made) == (
        "Ann", "wizard", 3, False, (("turn", 60),), 10.0)
    assert b.open_seeks() == [seek] and b.of("ANN") is seek and len(b) == 1


def test_a_second_seek_replaces_the_first() -> None:
    b = book()
    [first] = b.seek("ann", "wizard", players=3, now=1.0)
    [second] = b.seek("ANN", "witches", players=4, now=2.0)
    assert isinstance(first, SeekPlaced) and isinstance(second, SeekPlaced)
    assert second.replaced == first.seek
    assert b.open_seeks() == [second.seek]


def test_seeks_are_listed_oldest_first_whatever_the_order_placed() -> None:
    b = book()
    b.seek("ann", "wizard", players=3, now=5.0)
    b.seek("bob", "wizard", players=4, now=1.0)
    b.seek("cat", "wizard", players=5, now=5.0)
    assert [s.owner for s in b.open_seeks()] == ["bob", "ann", "cat"]


def test_unseek_and_logout_withdraw() -> None:
    b = book()
    b.seek("ann", "wizard", players=3, now=1.0)
    b.seek("bob", "wizard", players=4, now=1.0)
    withdrawn = b.unseek("Ann")
    assert withdrawn.why is Withdrawal.UNSEEK and withdrawn.seek.owner == "ann"
    [gone] = b.logout("BOB")
    assert isinstance(gone, SeekWithdrawn) and gone.why is Withdrawal.LOGOUT
    assert b.logout("bob") == [] and len(b) == 0
    with pytest.raises(SeekRefused) as refused:
        b.unseek("ann")
    assert refused.value.reason is SeekRefusal.NO_SEEK and str(refused.value) == "you have no open seek"
    assert isinstance(refused.value, MudwizError)


def test_two_compatible_seeks_match_in_seat_order_and_leave_the_book() -> None:
    b = book()
    b.seek("bob", "wizard", players=2, now=1.0, rated=True)
    events = b.seek("ann", "wizard", players=2, now=2.0, rated=True)
    assert isinstance(events[0], SeekPlaced)
    [match] = matches(events)
    assert match.seekers == ("bob", "ann") and match.bots == 0
    assert (match.game, match.players, match.rated, match.options) == ("wizard", 2, True, {})
    assert len(b) == 0


@pytest.mark.parametrize("other", [
    {"game": "witches"}, {"players": 3}, {"rated": True}, {"options": {"turn": 30}},
])
def test_seeks_that_differ_do_not_match(other: dict[str, Any]) -> None:
    b = book()
    b.seek("ann", "wizard", players=2, now=1.0)
    kwargs: dict[str, Any] = {"game": "wizard", "players": 2, **other}
    assert matches(b.seek("bob", kwargs.pop("game"), now=2.0, **kwargs)) == []
    assert len(b) == 2


def test_options_match_once_normalised() -> None:
    def normalise(game: str, players: int, options: Mapping[str, Any]) -> Mapping[str, Any]:
        return {"turn": 300, **{k.lower(): v for k, v in options.items()}}

    b = book(normalise=normalise)
    b.seek("ann", "wizard", players=2, now=1.0)
    [match] = matches(b.seek("bob", "wizard", players=2, now=2.0, options={"TURN": 300}))
    assert match.options == {"turn": 300}


def test_a_normaliser_refusal_changes_nothing() -> None:
    def normalise(game: str, players: int, options: Mapping[str, Any]) -> Mapping[str, Any]:
        raise BadOption("wizard has no option 'x'")

    b = book(normalise=normalise)
    with pytest.raises(BadOption):
        b.seek("ann", "wizard", players=2, now=1.0, options={"x": 1})
    assert len(b) == 0


def test_ratings_must_be_inside_every_range() -> None:
    b = book()
    b.seek("ann", "wizard", players=2, now=1.0, max_rating=1550)  # ann 1500; bob 1600 is above her max
    assert matches(b.seek("bob", "wizard", players=2, now=2.0)) == []
    assert matches(b.seek("eve", "wizard", players=2, now=3.0, min_rating=1800)) == []  # both below eve's min
    [match] = matches(b.seek("cat", "wizard", players=2, now=4.0, min_rating=1550))  # bob inside cat's, not ann
    assert match.seekers == ("bob", "cat")


def test_a_set_of_three_takes_the_oldest_that_fit() -> None:
    b = book()
    b.seek("eve", "wizard", players=3, now=1.0, min_rating=1550)  # excludes ann (1500) and dan (1200): only bob
    b.seek("dan", "wizard", players=3, now=2.0, max_rating=1800)  # excludes eve (1900)
    b.seek("ann", "wizard", players=3, now=3.0)
    [match] = matches(b.seek("bob", "wizard", players=3, now=4.0))
    assert match.seekers == ("dan", "ann", "bob")
    assert [s.owner for s in b.open_seeks()] == ["eve"]


def test_ratings_from_a_callable_by_game() -> None:
    asked = []

    def rating(name: str, game: str) -> float:
        asked.append((name, game))
        return 2000.0 if game == "witches" else 1000.0

    b = SeekBook(rating)
    b.seek("ann", "witches", players=2, now=1.0, min_rating=1900)
    assert ("ann", "witches") in asked
    assert b.rating("zed", "wizard") == 1000.0


def test_a_name_a_mapping_lacks_has_a_fresh_rating() -> None:
    assert book().rating("Zed", "wizard") == 1000.0
    assert book(default_rating=1234).rating("zed", "wizard") == 1234.0


@pytest.mark.parametrize(("kwargs", "reason", "line"), [
    ({"players": 1}, SeekRefusal.TOO_FEW_PLAYERS, "a game needs at least 2 players, not 1"),
    ({"min_rating": 1800, "max_rating": 1400}, SeekRefusal.BAD_RANGE, "min=1800 is above max=1400"),
    ({"bots_after": -1}, SeekRefusal.BAD_WAIT, "the wait for bots is 0 (never) or more seconds, not -1"),
])
def test_refusals_are_typed_and_leave_the_book_as_it_was(kwargs: dict[str, Any], reason: SeekRefusal,
                                                         line: str) -> None:
    b = book()
    [placed] = b.seek("ann", "wizard", players=3, now=1.0)
    with pytest.raises(SeekRefused) as refused:
        b.seek("ann", "wizard", now=2.0, **{"players": 2, **kwargs})
    assert refused.value.reason is reason and str(refused.value) == line
    assert isinstance(placed, SeekPlaced) and b.open_seeks() == [placed.seek]


def test_the_cap_on_open_seeks_allows_a_replacement() -> None:
    b = book(max_open=2)
    b.seek("ann", "wizard", players=3, now=1.0)
    b.seek("bob", "wizard", players=4, now=1.0)
    with pytest.raises(SeekRefused) as refused:
        b.seek("cat", "wizard", players=5, now=1.0)
    assert refused.value.reason is SeekRefusal.BOOK_FULL and refused.value.details == {"limit": 2}
    assert str(refused.value) == "there are already 2 open seeks: try /quick, or later"
    b.seek("ann", "wizard", players=5, now=2.0)  # her own, replaced: no more open than before
    assert len(b) == 2


def test_match_all_after_ratings_change() -> None:
    ratings = dict(RATINGS)
    b = SeekBook(ratings)
    b.seek("ann", "wizard", players=2, now=1.0, min_rating=1650)
    b.seek("bob", "wizard", players=2, now=2.0)
    assert b.match_all() == [] and len(b) == 2
    ratings["bob"] = 1700.0
    [match] = b.match_all()
    assert match.seekers == ("ann", "bob") and len(b) == 0


def test_the_search_for_a_set_is_bounded() -> None:
    ratings = {"x": 1000.0, "y": 1700.0, "z": 1700.0, "d": 1500.0}
    for limit, found in ((1, False), (2_000, True)):
        b = SeekBook(ratings, search_limit=limit)
        b.seek("x", "wizard", players=3, now=1.0, max_rating=1600)  # fits d, not y or z: tried first, in vain
        b.seek("y", "wizard", players=3, now=2.0, min_rating=1400)
        b.seek("z", "wizard", players=3, now=3.0, min_rating=1400)
        assert bool(matches(b.seek("d", "wizard", players=3, now=4.0))) is found


# ---------------------------------------------------------------- quick play


def test_quick_joins_the_closest_rated_then_oldest_seek() -> None:
    b = book()
    b.seek("eve", "wizard", players=3, now=1.0)  # 1900: 400 from ann
    b.seek("dan", "wizard", players=3, now=2.0)  # 1200: 300 from ann
    b.seek("cat", "wizard", players=3, now=3.0, options={"turn": 60})  # 1700: 200 from ann
    b.seek("bob", "witches", players=3, now=0.0)  # another game
    best = b.best_for("ann", "Wizard", 1500.0)
    assert best is not None and best.owner == "cat"
    events = b.quick("ann", "wizard", players=4, now=5.0, bots_after=30)
    placed = events[0]
    assert isinstance(placed, SeekPlaced)
    assert (placed.seek.players, placed.seek.options, placed.seek.bots_after) == (3, (("turn", 60),), 30)


def test_quick_ties_go_to_the_oldest_and_ranges_are_respected() -> None:
    b = book()
    b.seek("cat", "wizard", players=2, now=2.0)  # 1700: 200 from ann
    b.seek("dan", "wizard", players=2, now=3.0, max_rating=1300)  # 1200: closer, but ann is outside his range
    b.seek("bob", "wizard", players=2, now=4.0, rated=True)  # 1600: closest, but rated
    best = b.best_for("ann", "wizard", 1500.0, rated=False)
    assert best is not None and best.owner == "cat"
    best = b.best_for("ann", "wizard", 1500.0)
    assert best is not None and best.owner == "bob"
    [match] = matches(b.quick("ann", "wizard", players=2, now=5.0, bots_after=30, rated=False))
    assert match.seekers == ("cat", "ann")


def test_quick_never_picks_the_askers_own_seek() -> None:
    b = book()
    b.seek("ann", "wizard", players=3, now=1.0)
    assert b.best_for("ANN", "wizard", 1500.0) is None


def test_quick_with_nothing_open_makes_a_seek_that_fills_with_bots_when_due() -> None:
    b = book()
    [placed] = b.quick("ann", "wizard", players=4, now=100.0, bots_after=30, options={"turn": 60})
    assert isinstance(placed, SeekPlaced) and placed.seek.due == 130.0
    b.seek("bob", "witches", players=2, now=100.0)  # no wait: never due
    assert b.next_due() == 130.0
    assert b.fill_due(129.9) == []
    [match] = b.fill_due(130.0)
    assert match.seekers == ("ann",) and match.bots == 3 and match.options == {"turn": 60}
    assert b.next_due() is None and [s.owner for s in b.open_seeks()] == ["bob"]


def test_bots_fill_the_seats_left_after_the_willing_are_seated() -> None:
    b = book()
    b.quick("ann", "wizard", players=4, now=0.0, bots_after=30)
    b.quick("bob", "wizard", players=4, now=10.0, bots_after=30)  # joins ann's: same kind
    b.seek("cat", "wizard", players=4, now=5.0)  # compatible, but asked for no bots
    [match] = b.fill_due(40.0)  # bob's is due too, and taken with ann's
    assert match.seekers == ("ann", "bob") and match.bots == 2
    assert [s.owner for s in b.open_seeks()] == ["cat"]
    assert b.fill_due(1000.0) == [] and b.next_due() is None


def test_a_wait_of_zero_never_fills() -> None:
    b = book()
    b.quick("ann", "wizard", players=4, now=0.0, bots_after=0)
    assert b.next_due() is None and b.fill_due(1e9) == []


def test_options_key_lowers_and_sorts() -> None:
    assert options_key({"B": 1, "a": True}) == (("a", True), ("b", 1))


# ---------------------------------------------------------------- properties

NAMES = ("ann", "bob", "cat", "dan", "eve", "fay")
PLAYER_RATINGS = {"ann": 1000.0, "bob": 1200.0, "cat": 1400.0, "dan": 1400.0, "eve": 1800.0, "fay": 2000.0}

# few kinds of seek, so that sets fill often; ranges that sometimes exclude
games = st.sampled_from(["wizard", "wizard", "witches"])
ranges = st.one_of(st.none(), st.none(), st.sampled_from([900.0, 1100.0, 1300.0, 1500.0, 1900.0, 2100.0]))
seek_ops = st.tuples(
    st.just("seek"), st.sampled_from(NAMES), games, st.integers(2, 4), st.sampled_from([False, False, True]),
    st.sampled_from([{}, {}, {"turn": 60}]), ranges, ranges, st.sampled_from([0.0, 0.0, 20.0]))
quick_ops = st.tuples(st.just("quick"), st.sampled_from(NAMES), games, st.integers(2, 4), st.sampled_from([0.0, 20.0]))
other_ops = st.tuples(st.sampled_from(["unseek", "logout", "fill"]), st.sampled_from(NAMES))
operations = st.lists(st.tuples(st.floats(0, 15), st.one_of(seek_ops, quick_ops, other_ops)), max_size=40)


def compatible(a: Seek, b: Seek) -> bool:
    return (a.kind == b.kind and a.key != b.key and a.admits(PLAYER_RATINGS[b.key])
            and b.admits(PLAYER_RATINGS[a.key]))


def full_sets(seeks: list[Seek]) -> list[tuple[Seek, ...]]:
    found = []
    for a in seeks:
        for rest in itertools.combinations([s for s in seeks if s.id > a.id and s.kind == a.kind], a.players - 1):
            group = (a, *rest)
            if all(compatible(x, y) for x, y in itertools.combinations(group, 2)):
                found.append(group)
    return found


def apply(b: SeekBook, now: float, op: tuple[Any, ...]) -> list[Any]:
    try:
        if op[0] == "seek":
            _, name, game, players, rated, options, low, high, wait = op
            return b.seek(name, game, players=players, now=now, rated=rated, options=options, min_rating=low,
                          max_rating=high, bots_after=wait)
        if op[0] == "quick":
            _, name, game, players, wait = op
            return b.quick(name, game, players=players, now=now, bots_after=wait)
        if op[0] == "unseek":
            return [b.unseek(op[1])]
        if op[0] == "logout":
            return b.logout(op[1])
        return list(b.fill_due(now))
    except SeekRefused:
        return []


@settings(max_examples=300, deadline=None)
@given(operations)
def test_the_book_keeps_its_promises(ops: list[tuple[float, tuple[Any, ...]]]) -> None:
    b = SeekBook(PLAYER_RATINGS, max_open=5)
    now = 0.0
    matched: set[int] = set()
    placed: set[int] = set()
    for step, op in ops:
        now += step
        before = {s.id for s in b.open_seeks()}
        events = apply(b, now, op)
        placed |= {e.seek.id for e in events if isinstance(e, SeekPlaced)}
        for match in matches(events):
            ids = [s.id for s in match.seeks]
            assert not matched & set(ids), "a seek in two matches"
            matched |= set(ids)
            assert set(ids) <= placed
            assert len(match.seeks) + match.bots == match.players and len(match.seeks) >= 1
            assert all(compatible(x, y) for x, y in itertools.combinations(match.seeks, 2))
            assert list(match.seeks) == sorted(match.seeks, key=lambda s: (s.made, s.id)), "seat order: oldest first"
            if match.bots:  # filled with bots: only seekers who asked for them, one of them due
                assert all(s.due is not None for s in match.seeks)
                assert any(s.due is not None and s.due <= now for s in match.seeks)
            event(f"match with {match.bots} bots")
        open_now = b.open_seeks()
        owners = [s.key for s in open_now]
        assert len(owners) == len(set(owners)), "two seeks of one owner"
        assert len(open_now) <= 5
        assert not matched & {s.id for s in open_now}, "a matched seek left in the book"
        assert {s.id for s in open_now} <= before | placed
        assert full_sets(open_now) == [], "a compatible full set left unmatched"


@given(st.integers(2, 6), st.lists(st.floats(0, 100), min_size=6, max_size=6), st.permutations(NAMES))
def test_a_compatible_full_set_is_matched_as_its_last_seek_is_placed(players: int, times: list[float],
                                                                   names: list[str]) -> None:
    b = SeekBook(PLAYER_RATINGS)
    for i, (name, made) in enumerate(zip(names[:players], times, strict=False)):
        events = b.seek(name, "wizard", players=players, now=made, min_rating=900.0, max_rating=2100.0)
        found = matches(events)
        if i < players - 1:
            assert found == [] and len(b) == i + 1
        else:
            [match] = found
            assert sorted(match.seekers) == sorted(names[:players]) and len(b) == 0
            assert [s.made for s in match.seeks] == sorted(s.made for s in match.seeks)


def test_the_bot_level_nearest_a_rating() -> None:
    levels = {"good": 1400.0, "random": 600.0, "better": 1800.0}
    assert nearest_level(1500, levels) == "good"
    assert nearest_level(1600, levels) == "good"  # a tie: the weaker
    assert nearest_level(100, levels) == "random"
    assert nearest_level(1500, {}) is None
