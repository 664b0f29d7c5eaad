"""The channel registry: built-in and user-made channels, members, recent lines, moderation and ignoring."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mudwiz.errors import BadCommand
from mudwiz.meeting.channels import (
    ChannelInfo,
    ChannelRefusal,
    ChannelRefused,
    Channels,
    Joined,
    Left,
    Line,
    Moderated,
)


def registry(**kwargs: Any) -> Channels:
    return Channels(["wizard", "witches", "Help"], **kwargs)


def refusal(error: pytest.ExceptionInfo[ChannelRefused]) -> ChannelRefusal:
    return error.value.reason


def test_the_built_in_channels_are_listed_first_in_their_order_then_the_made_ones_by_name() -> None:
    c = registry()
    c.join("Zed", "zoo")
    c.join("ann", "Abc")
    assert [(i.name, i.builtin) for i in c.listing()] == [
        ("wizard", True), ("witches", True), ("help", True), ("abc", False), ("zoo", False)]


def test_join_and_leave_a_built_in_channel() -> None:
    c = registry()
    joined = c.join("Ann", "WIZARD")
    assert joined == Joined("wizard", "Ann", False, ())
    c.join("bob", "wizard")
    assert c.members("Wizard") == ("Ann", "bob")
    assert c.channels_of("ANN") == ["wizard"]
    assert c.leave("ann", "wizard") == Left("wizard", "Ann", False)
    assert c.members("wizard") == ("bob",)
    c.leave("bob", "wizard")
    assert c.listing()[0] == ChannelInfo("wizard", True, ())  # a built-in channel stays, empty


def test_joining_a_new_name_makes_a_channel_that_goes_with_its_last_member() -> None:
    c = registry()
    assert c.join("ann", "Bridge-Club").made
    assert not c.join("bob", "bridge-club").made
    c.leave("ann", "bridge-club")
    assert c.leave("bob", "BRIDGE-CLUB").closed
    assert "bridge-club" not in [i.name for i in c.listing()]
    with pytest.raises(ChannelRefused) as refused:
        c.members("bridge-club")
    assert refusal(refused) is ChannelRefusal.NO_CHANNEL


@pytest.mark.parametrize("name", ["a", "x" * 17, "has space", "under_score", "dot.ted", "", "ümlaut", "ab\n"])
def test_a_bad_channel_name_is_refused(name: str) -> None:
    c = registry()
    with pytest.raises(ChannelRefused) as refused:
        c.join("ann", name)
    assert refusal(refused) is ChannelRefusal.BAD_NAME
    assert c.channels_of("ann") == [] and len(c.listing()) == 3


def test_joining_twice_and_leaving_what_one_is_not_on_are_refused() -> None:
    c = registry()
    c.join("ann", "wizard")
    with pytest.raises(ChannelRefused) as refused:
        c.join("ANN", "wizard")
    assert refusal(refused) is ChannelRefusal.ALREADY_A_MEMBER and str(refused.value) == "you are already on wizard"
    with pytest.raises(ChannelRefused) as refused:
        c.leave("ann", "help")
    assert refusal(refused) is ChannelRefusal.NOT_A_MEMBER
    assert str(refused.value) == "you are not on help: /channel join help"


def test_limits_per_user_and_on_channels_made() -> None:
    c = registry(per_user=2, user_made=1)
    c.join("ann", "wizard")
    c.join("ann", "mine")
    with pytest.raises(ChannelRefused) as refused:
        c.join("ann", "help")
    assert refusal(refused) is ChannelRefusal.TOO_MANY_JOINED and refused.value.details == {"limit": 2}
    with pytest.raises(ChannelRefused) as refused:
        c.join("bob", "yours")
    assert refusal(refused) is ChannelRefusal.TOO_MANY_CHANNELS
    assert [i.name for i in c.listing()] == ["wizard", "witches", "help", "mine"]
    assert c.channels_of("bob") == []
    c.join("bob", "mine")  # an existing one is no new channel


def test_a_line_reaches_the_members_but_not_those_who_ignore_the_speaker() -> None:
    c = registry()
    for name in ("Ann", "bob", "Cat"):
        c.join(name, "wizard")
    c.join("dan", "help")
    ignoring = {"cat": {"ann"}, "bob": {"dan"}}
    said = c.say("ANN", "wizard", "  hello  there ", 12.5, ignores=lambda member: ignoring.get(member.lower()))
    assert said.to == ("Ann", "bob")
    assert said.line == Line(12.5, "Ann", "hello there")
    assert said.channel == "wizard"


def test_the_speaker_hears_themself_even_ignoring_themself() -> None:
    c = registry()
    c.join("ann", "wizard")
    assert c.say("ann", "wizard", "hi", 0.0, ignores=lambda member: {"ann"}).to == ("ann",)


def test_only_members_speak_and_blank_or_long_lines_are_refused_unsaid() -> None:
    c = registry()
    c.join("ann", "wizard")
    with pytest.raises(ChannelRefused) as refused:
        c.say("bob", "wizard", "hi", 0.0)
    assert refusal(refused) is ChannelRefusal.NOT_A_MEMBER
    with pytest.raises(BadCommand):
        c.say("ann", "wizard", " \n ", 0.0)
    with pytest.raises(BadCommand):
        c.say("ann", "wizard", "x" * 401, 0.0)
    assert c.recent_lines("wizard") == ()


def test_the_recent_lines_are_kept_with_their_time_and_shown_on_joining() -> None:
    c = registry(recent=2)
    c.join("ann", "wizard")
    c.say("ann", "wizard", "one", 1.0)
    c.say("ann", "wizard", "two", 2.0)
    c.say("ann", "wizard", "waves", 3.0, emote=True)
    joined = c.join("bob", "wizard")
    assert joined.recent == (Line(2.0, "ann", "two"), Line(3.0, "ann", "waves", emote=True))
    assert c.recent_lines("wizard") == joined.recent


def test_a_sysop_mutes_and_unmutes() -> None:
    c = registry(is_sysop=lambda name: name.lower() == "root")
    c.join("ann", "wizard")
    with pytest.raises(ChannelRefused) as refused:
        c.mute("bob", "wizard", "ann")
    assert refusal(refused) is ChannelRefusal.NOT_A_SYSOP and not c.is_muted("wizard", "ann")
    assert c.mute("Root", "wizard", "ANN") == Moderated("wizard", "ANN", True, "Root")
    with pytest.raises(ChannelRefused) as refused:
        c.say("ann", "wizard", "hi", 0.0)
    assert refusal(refused) is ChannelRefusal.MUTED and c.recent_lines("wizard") == ()
    with pytest.raises(ChannelRefused) as refused:
        c.mute("root", "wizard", "ann")
    assert refusal(refused) is ChannelRefusal.ALREADY_MUTED
    assert c.unmute("root", "wizard", "ann").muted is False
    c.say("ann", "wizard", "hi", 0.0)
    with pytest.raises(ChannelRefused) as refused:
        c.unmute("root", "wizard", "ann")
    assert refusal(refused) is ChannelRefusal.NOT_MUTED


def test_a_mute_holds_for_a_name_that_joins_later() -> None:
    c = registry(is_sysop=lambda name: True)
    c.mute("root", "help", "spammer")
    c.join("Spammer", "help")
    with pytest.raises(ChannelRefused):
        c.say("spammer", "help", "buy", 0.0)


def test_logout_leaves_every_channel() -> None:
    c = registry()
    c.join("ann", "wizard")
    c.join("ann", "mine")
    c.join("bob", "wizard")
    assert c.logout("ANN") == [Left("mine", "ann", True), Left("wizard", "ann", False)]
    assert c.channels_of("ann") == [] and c.members("wizard") == ("bob",)
    assert c.logout("ann") == []


@given(st.lists(st.tuples(st.sampled_from(["join", "leave", "logout"]), st.sampled_from(["ann", "Bob", "cat"]),
                          st.sampled_from(["wizard", "help", "aa", "bb", "cc"]))))
def test_members_and_channels_of_agree(ops: list[tuple[str, str, str]]) -> None:
    c = registry(per_user=3, user_made=2)
    for op, name, channel in ops:
        try:
            if op == "join":
                c.join(name, channel)
            elif op == "leave":
                c.leave(name, channel)
            else:
                c.logout(name)
        except ChannelRefused:
            pass
        listing = c.listing()
        for info in listing:
            assert info.builtin or info.members, "an empty user-made channel is kept"
            for member in info.members:
                assert info.name in c.channels_of(member)
        for name_ in ("ann", "bob", "cat"):
            assert len(c.channels_of(name_)) <= 3
            for channel_ in c.channels_of(name_):
                assert name_ in [m.lower() for m in c.members(channel_)]
        assert sum(not info.builtin for info in listing) <= 2


def test_a_built_in_channel_may_have_a_name_users_could_not_make() -> None:
    c = Channels(["high_card", "help"])
    assert c.join("ann", "HIGH_CARD").channel == "high_card"
    with pytest.raises(ChannelRefused):
        c.join("ann", "low_card")


def test_a_line_and_a_mute_from_another_process_are_kept_as_made_there() -> None:
    channels = registry()
    channels.join("ann", "wizard")
    channels.join("Bob", "wizard")
    assert channels.heard("WIZARD", Line(4.0, "Bob", "from afar")) == ("ann", "Bob")
    assert channels.recent_lines("wizard") == (Line(4.0, "Bob", "from afar"),)
    assert channels.heard("nowhere", Line(5.0, "Bob", "lost")) == ()  # a channel this process never heard of
    channels.set_muted("wizard", "BOB", True)  # a sysop elsewhere: not checked again here
    assert channels.is_muted("wizard", "bob")
    channels.set_muted("wizard", "bob", False)
    assert not channels.is_muted("wizard", "bob")
