"""The lobby's talk part (mudwiz/lobby/talk.py) without a network: a sysop's mutes, the limits as the environment
sets them, an away text too long, and what goes with a table or a logout."""

from __future__ import annotations

from typing import Any

import pytest
from recorder import Recorder
from twisted.internet.task import Clock

from mudwiz.commands import dispatch
from mudwiz.errors import BadCommand, MudwizError
from mudwiz.lobby import Lobby, MeetingSettings
from mudwiz.lobby.talk import DEFAULT_TALK, TalkLimits
from mudwiz.settings import from_environ


class Sysops:
    """Sysops by name, as the lobby asks them."""

    def __init__(self, *names: str) -> None:
        self.names = set(names)

    def is_sysop(self, session: Any) -> bool:
        return session.name in self.names


def lobby_of(*names: str, **limits: Any) -> tuple[Lobby, list[Recorder]]:
    lobby = Lobby(Clock(), meeting=MeetingSettings(talk=TalkLimits(**limits)))
    lobby.sysops = Sysops("sys")  # type: ignore[assignment]
    people = [Recorder(name) for name in names]
    for person in people:
        lobby.login(person, person.name)
    return lobby, people


def test_a_sysop_mutes_and_unmutes_someone_on_a_channel_who_is_told() -> None:
    lobby, (sys, ann, bob) = lobby_of("sys", "ann", "bob")
    for person in (sys, ann):
        dispatch(lobby, person, "/channel join help")
    with pytest.raises(BadCommand, match="only a sysop may mute someone on a channel"):
        dispatch(lobby, bob, "/channel mute help ann")
    assert dispatch(lobby, sys, "/channel mute HELP ANN") == "ann is muted on #help"
    assert ann.of_type("notice")[-1]["text"] == "sys muted you on #help."
    with pytest.raises(MudwizError, match="you are muted on help: nothing was sent"):
        dispatch(lobby, ann, "/ch help hello?")
    with pytest.raises(BadCommand, match="nobody is called zed"):
        dispatch(lobby, sys, "/channel mute help zed")
    assert dispatch(lobby, sys, "/channel unmute help ann") == "ann is no longer muted on #help"
    dispatch(lobby, ann, "/ch help thanks")
    assert sys.of_type("chat")[-1] == {"type": "chat", "from": "ann", "channel": "#help", "text": "thanks"}


def test_the_limits_come_from_the_environment() -> None:
    assert from_environ(TalkLimits, {}) == DEFAULT_TALK
    assert from_environ(TalkLimits, {"MUDWIZ_SHOUT_BURST": "1", "MUDWIZ_SHOUT_EVERY": "5",
                                     "MUDWIZ_CHANNELS_PER_USER": "2", "MUDWIZ_CHANNELS_MADE": "3",
                                     "MUDWIZ_RECENT_LINES": "4", "MUDWIZ_AWAY_TEXT": "6"}) == \
        TalkLimits(shout_burst=1, shout_every=5.0, per_user=2, user_made=3, recent=4, away_text=6)


def test_limits_reached_are_one_line_and_nothing_changes() -> None:
    lobby, (ann,) = lobby_of("ann", per_user=1, away_text=5, shout_burst=1, shout_every=30)
    dispatch(lobby, ann, "/channel join wizard")
    with pytest.raises(MudwizError, match="you are on 1 channels already: /channel leave one first"):
        dispatch(lobby, ann, "/channel join witches")
    with pytest.raises(MudwizError, match="an away text is at most 5 characters"):
        dispatch(lobby, ann, "/away gone fishing")
    assert lobby.talk.away_text("ann") is None
    dispatch(lobby, ann, "/shout one")
    with pytest.raises(BadCommand, match="you are shouting too fast: 1 shouts at once, then one every 30 s"):
        dispatch(lobby, ann, "/shout two")


def test_a_logout_leaves_the_channels_and_the_away_mark_and_a_closed_table_its_lines() -> None:
    lobby, (ann, bob) = lobby_of("ann", "bob")
    dispatch(lobby, ann, "/channel join chess")
    dispatch(lobby, ann, "/away brb")
    lobby.disconnect(ann)
    assert lobby.talk.away_text("ann") is None
    assert "chess" not in {c.name for c in lobby.talk.listing()}  # its last member gone: so is the channel
    dispatch(lobby, bob, "/new wizard")
    table = bob.table
    assert table is not None
    dispatch(lobby, bob, "anyone?")
    assert [line.text for line in lobby.talk.tables[table.id].lines()] == ["anyone?"]
    dispatch(lobby, bob, "/leave")
    assert table.id not in lobby.talk.tables
