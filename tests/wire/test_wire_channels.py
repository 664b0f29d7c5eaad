"""The talk beyond chat, over real loopback TCP on one process: channels reach their members only (not those who
ignore the speaker), joining shows the recent lines with their time, /shout and /me, /away shown to a teller and
in /who, recent lines at a table, and a registered account's channels joined again at its next login."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from wire import JsonClient, NetcatSession, Server, running_server

AT = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ")


@pytest.fixture(scope="module")
def server() -> Iterator[Server]:
    with running_server(MUDWIZ_SHOUT_BURST="2", MUDWIZ_SHOUT_EVERY="600") as srv:
        yield srv


def lines_on(client: JsonClient, channel: str, since: int = 0) -> list[tuple[str, str, bool]]:
    client.read(0.3)
    return [(m["from"], m["text"], bool(m.get("emote"))) for m in client.messages[since:]
            if m["type"] == "chat" and m["channel"] == channel]


def ok(client: JsonClient, cmd: str) -> dict[str, Any]:
    reply = client.request(cmd)
    assert reply["type"] == "ok", reply
    return reply


def test_channel_lines_reach_members_only_and_not_those_who_ignore_the_speaker(server: Server) -> None:
    ann, bob, cy, dee = (JsonClient(server, name) for name in ("chAnn", "chBob", "chCy", "chDee"))
    assert ok(ann, "/channel join Wizard")["text"] == "you are on #wizard: /ch wizard TEXT speaks there"
    recent = ann.wait_for(lambda m: m["type"] == "recent", since=ann.mark)
    assert recent == {"type": "recent", "channel": "#wizard", "lines": []}
    ok(bob, "/channel join wizard")
    ok(dee, "/channel join wizard")
    ok(dee, "/ignore chann")
    ok(ann, "/ch WIZARD hello players")
    ok(bob, "/ch wizard /me waves")
    assert lines_on(bob, "#wizard") == [("chAnn", "hello players", False), ("chBob", "waves", True)]
    assert lines_on(ann, "#wizard") == [("chAnn", "hello players", False), ("chBob", "waves", True)]
    assert lines_on(dee, "#wizard") == [("chBob", "waves", True)]  # ann's line is not shown to who ignores her
    assert lines_on(cy, "#wizard") == []  # not a member

    refused = cy.request("/ch wizard hi")
    assert (refused["type"], refused["message"]) == ("error", "you are not on wizard: /channel join wizard")

    ok(cy, "/channel join wizard")  # joining shows what was said, with the time it was said
    recent = cy.wait_for(lambda m: m["type"] == "recent", since=cy.mark)
    assert [(r["from"], r["text"], r["emote"]) for r in recent["lines"]] == [
        ("chAnn", "hello players", False), ("chBob", "waves", True)]
    assert all(AT.fullmatch(r["at"]) for r in recent["lines"])

    assert ok(bob, "/channel join poker-night")["text"].startswith("you are on #poker-night (a new channel)")
    ok(bob, "/channel")
    listed = {c["name"]: c for c in bob.of_type("channels")[-1]["channels"]}
    assert listed["wizard"]["members"] == ["chAnn", "chBob", "chCy", "chDee"] and listed["wizard"]["builtin"]
    assert listed["poker-night"] == {"name": "poker-night", "builtin": False, "members": ["chBob"]}
    assert "help" in listed
    assert ok(bob, "/channel leave poker-night")["text"] == "you left #poker-night"
    ok(bob, "/channel")
    assert "poker-night" not in {c["name"] for c in bob.of_type("channels")[-1]["channels"]}  # its last left

    bad = bob.request("/channel join no spaces here")
    assert bad["type"] == "error" and bad["message"].startswith("usage: /channel")
    bad = bob.request("/channel join x")
    assert bad["message"] == "a channel's name is 2 to 16 letters, digits or -: not x"
    muted = bob.request("/channel mute wizard chann")
    assert muted["message"] == "only a sysop may mute someone on a channel"
    for client in (ann, bob, cy, dee):
        client.close()


def test_shout_reaches_everyone_and_me_is_an_emote_where_you_are(server: Server) -> None:
    ann, bob, cy = (JsonClient(server, name) for name in ("shAnn", "shBob", "shCy"))
    ok(bob, "/new wizard")
    table = bob.last_state()["table"]  # type: ignore[index]
    ok(ann, "/shout anyone for a game?")
    for client in (ann, bob, cy):  # at a table too
        shout = client.wait_for(lambda m: m["type"] == "chat" and m["channel"] == "shout", since=0)
        assert (shout["from"], shout["text"]) == ("shAnn", "anyone for a game?")
    ok(ann, "/shout second")
    refused = ann.request("/shout third")
    assert refused["message"] == "you are shouting too fast: 2 shouts at once, then one every 600 s"

    ok(cy, "/me stretches")
    assert lines_on(ann, "lobby")[-1] == ("shCy", "stretches", True)
    bob.read(0.3)
    assert not [m for m in bob.messages if m["type"] == "chat" and m["channel"] == "lobby"]  # at a table
    ok(bob, "/me shuffles the deck")
    assert lines_on(bob, f"table {table}")[-1] == ("shBob", "shuffles the deck", True)
    assert ann.request("/me")["message"] == "usage: /me TEXT"
    for client in (ann, bob, cy):
        client.close()


def test_away_is_shown_to_a_teller_and_in_who_and_any_command_clears_it(server: Server) -> None:
    ann, bob = JsonClient(server, "awAnn"), JsonClient(server, "awBob")
    assert ok(bob, "/away  at   lunch ")["text"] == "you are marked away: at lunch"
    assert ok(ann, "/tell awbob are you there?")["text"] == "awBob is away: at lunch"
    told = bob.wait_for(lambda m: m["type"] == "chat" and m["channel"] == "tell", since=0)
    assert told["text"] == "are you there?"
    ok(ann, "/who aw")
    rows = {row["name"]: row for row in ann.of_type("who")[-1]["users"]}
    assert rows["awBob"]["away"] == "at lunch" and "away" not in rows["awAnn"]

    watcher = NetcatSession(server)  # a terminal's /who shows it too
    watcher.read_until(b"name? ")
    watcher.send(b"awCat\n")
    watcher.read_until(b"Welcome, awCat")
    watcher.send(b"/who aw\r\n")
    assert b"(away: at lunch)" in watcher.read_until(b"(away: at lunch)")
    watcher.close()

    ok(bob, "/who")  # any command: back
    bob.wait_for(lambda m: m["type"] == "notice" and m["text"] == "You are back: no longer marked away.",
                 since=bob.mark)
    assert ok(ann, "/tell awbob hello again").get("text") in (None, "")
    ok(bob, "/away")
    assert ok(ann, "/tell awbob and now?")["text"] == "awBob is away"
    for client in (ann, bob):
        client.close()


def test_joining_or_watching_a_table_shows_its_recent_lines(server: Server) -> None:
    ann, bob = JsonClient(server, "tbAnn"), JsonClient(server, "tbBob")
    ok(ann, "/new wizard")
    table = ann.last_state()["table"]  # type: ignore[index]
    ok(ann, "/say good luck")
    ok(ann, "/me grins")
    ok(bob, f"/watch {table}")
    recent = bob.wait_for(lambda m: m["type"] == "recent", since=bob.mark)
    assert recent["channel"] == f"table {table}"
    assert [(r["from"], r["text"], r["emote"]) for r in recent["lines"]] == [
        ("tbAnn", "good luck", False), ("tbAnn", "grins", True)]
    for client in (ann, bob):
        client.close()


def test_a_registered_accounts_channels_are_joined_again_at_login(server: Server) -> None:
    ann = JsonClient(server, "keepAnn")
    assert ann.register("a long password")["type"] == "ok"
    ok(ann, "/channel join bridge")
    ok(ann, "/channel join help")
    ann.close()
    again = JsonClient(server, "keepAnn", password="a long password")
    notice = again.wait_for(lambda m: m["type"] == "notice" and "You are on" in m["text"], since=0)
    assert notice["text"] == "You are on #bridge, #help: /ch NAME TEXT speaks there."
    ok(again, "/ch bridge still here")
    assert lines_on(again, "#bridge") == [("keepAnn", "still here", False)]
    again.close()
