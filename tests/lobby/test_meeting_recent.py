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


def test_a_line_said_elsewhere_is_kept_in_the_order_of_the_times_said() -> None:
    recent = RecentLines(3)
    recent.add(2.0, "bob", "here")
    recent.keep(Line(1.0, "ann", "there, earlier"))  # arrived late from another process
    recent.keep(Line(3.0, "cy", "there, later"))
    assert [line.text for line in recent.lines()] == ["there, earlier", "here", "there, later"]
    recent.keep(Line(0.5, "dee", "too old"))  # older than all the bound keeps: it goes at once
    assert [line.text for line in recent.lines()] == ["there, earlier", "here", "there, later"]
