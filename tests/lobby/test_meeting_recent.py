"""The last lines kept for a newcomer: bounded, oldest first, each with its time."""

from __future__ import annotations

from mudwiz.meeting.recent import Line, RecentLines


def test_the_oldest_line_goes_past_the_bound() -> None:
    recent = RecentLines(2)
    assert recent.lines() == ()
    assert recent.add(1.0, "ann", "one") == Line(1.0, "ann", "one")
    recent.add(2.0, "bob", "two")
    recent.add(3.0, "ann", "waves", emote=True)
    assert recent.lines() == (Line(2.0, "bob", "two"), Line(3.0, "ann", "waves", True))


def test_keeping_none_keeps_nothing() -> None:
    recent = RecentLines(0)
    recent.add(1.0, "ann", "one")
    assert recent.lines() == ()
