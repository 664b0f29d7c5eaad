"""Away texts and the notify fan-out: whom to tell of a login or logout."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mudwiz.meeting.presence import (
    Away,
    AwayRefusal,
    AwayRefused,
    CameBack,
    Notice,
    WentAway,
    notify_fanout,
    online_of,
)


def test_away_is_set_shown_and_cleared_by_the_next_command() -> None:
    away = Away()
    assert away.away("Ann", "  back\nsoon ") == WentAway("Ann", "back soon")
    assert away.text_of("ANN") == "back soon"
    assert away.back("ann") == CameBack("Ann", "back soon")
    assert away.text_of("ann") is None and away.back("ann") is None


def test_away_without_text_and_a_new_text_replacing_the_old() -> None:
    away = Away()
    away.away("ann")
    assert away.text_of("ann") == ""
    away.away("ann", "lunch")
    assert away.text_of("ann") == "lunch"


def test_a_text_too_long_is_refused_and_nothing_is_marked() -> None:
    away = Away(max_text=5)
    away.away("ann", "tea")
    with pytest.raises(AwayRefused) as refused:
        away.away("ann", "a long lunch")
    assert refused.value.reason is AwayRefusal.TOO_LONG
    assert str(refused.value) == "an away text is at most 5 characters (this one has 12): you are not marked away"
    assert away.text_of("ann") == "tea"


def test_logout_forgets_the_away_text() -> None:
    away = Away()
    away.away("ann", "gone")
    away.logout("ANN")
    away.logout("bob")
    assert away.text_of("ann") is None


def test_notify_tells_the_online_watchers_once_each_not_the_one_who_came() -> None:
    notice = notify_fanout("Ann", ["cat", "bob", "ann", "dan", "BOB"], {"bob", "cat", "ann"}, arrived=True)
    assert notice == Notice("Ann", True, ("bob", "cat"))


def test_notify_with_online_as_a_callable() -> None:
    notice = notify_fanout("ann", ["bob", "cat"], lambda name: name == "cat", arrived=False)
    assert notice == Notice("ann", False, ("cat",))


def test_at_login_the_notify_list_online() -> None:
    assert online_of(["Bob", "Cat", "dan"], {"bob", "dan"}) == ["Bob", "dan"]
    assert online_of([], {"bob"}) == []


@given(st.text(min_size=1, max_size=5), st.lists(st.sampled_from(["a", "B", "c", "D", "e"])),
       st.sets(st.sampled_from(["a", "b", "c", "d", "e"])))
def test_the_fanout_is_the_online_watchers(name: str, watchers: list[str], online: set[str]) -> None:
    notice = notify_fanout(name, watchers, online, arrived=True)
    assert set(notice.to) == {w.lower() for w in watchers if w.lower() in online and w.lower() != name.lower()}
    assert list(notice.to) == sorted(set(notice.to))
