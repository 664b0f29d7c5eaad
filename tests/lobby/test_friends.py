"""The lobby's friends part without a network: /notify told at logins and logouts, messages left and read, plans
and /finger, each limit one line, and a guest refused in one line; plus how the terminal draws each message."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from recorder import Recorder
from twisted.internet.task import Clock

from mudwiz.accounts import Accounts
from mudwiz.commands import dispatch
from mudwiz.errors import BadCommand
from mudwiz.lobby import Lobby
from mudwiz.lobby.friends import DEFAULT_FRIEND_LIMITS, FriendLimits
from mudwiz.render.ansi import Presenter
from mudwiz.render.style import Style
from mudwiz.settings import from_environ
from mudwiz.store import open_store
from mudwiz.table import Records


def lobby_with_store(tmp_path: Path, limits: FriendLimits = DEFAULT_FRIEND_LIMITS) -> Lobby:
    clock = Clock()
    clock.advance(1_700_000_000)
    store = open_store(tmp_path)
    lobby = Lobby(clock, records=Records.inline(store))
    lobby.friends.limits = limits
    lobby.accounts = Accounts(store, clock)
    for name in ("Alice", "Bob", "Carol"):
        store.create_account(name, "hash")
    return lobby


def login(lobby: Lobby, name: str, registered: bool = True) -> Recorder:
    session = Recorder()
    lobby.login(session, name, registered=registered)
    return session


def run(lobby: Lobby, session: Recorder, line: str) -> Any:
    return dispatch(lobby, session, line)


def test_notify_tells_at_login_and_logout_and_lists_who_is_online(tmp_path: Path) -> None:
    lobby = lobby_with_store(tmp_path)
    alice = login(lobby, "Alice")
    assert "logs in or out" in run(lobby, alice, "/notify BOB")
    with pytest.raises(BadCommand, match="on your notify list already"):
        run(lobby, alice, "/notify bob")
    with pytest.raises(BadCommand, match="that is you"):
        run(lobby, alice, "/notify alice")
    with pytest.raises(BadCommand, match="nobody called Zed is registered"):
        run(lobby, alice, "/notify Zed")
    bob = login(lobby, "Bob")
    assert alice.of_type("notify") == [{"type": "notify", "name": "Bob", "event": "arrived"}]
    lobby.disconnect(bob)
    assert alice.of_type("notify")[-1] == {"type": "notify", "name": "Bob", "event": "left"}
    assert lobby.friends.plan("bob").seen == lobby.clock.seconds()  # type: ignore[union-attr]
    lobby.disconnect(alice)
    bob = login(lobby, "Bob")
    alice = login(lobby, "Alice")
    [listed] = alice.of_type("notify_list")
    assert (listed["names"], listed["online"], listed["login"]) == (["Bob"], ["Bob"], True)
    assert run(lobby, alice, "/notify") is None and alice.of_type("notify_list")[-1]["login"] is False
    assert "off your notify list" in run(lobby, alice, "/unnotify bob")
    with pytest.raises(BadCommand, match="not on your notify list"):
        run(lobby, alice, "/unnotify bob")
    guest = login(lobby, "Gus", registered=False)
    with pytest.raises(BadCommand, match="you are a guest"):
        run(lobby, guest, "/notify alice")
    with pytest.raises(BadCommand, match="Gus is a guest"):
        run(lobby, alice, "/notify gus")


def test_a_full_notify_list_is_one_line(tmp_path: Path) -> None:
    lobby = lobby_with_store(tmp_path, FriendLimits(notify=1))
    alice = login(lobby, "Alice")
    run(lobby, alice, "/notify bob")
    with pytest.raises(BadCommand, match="holds 1 names already"):
        run(lobby, alice, "/notify carol")


def test_a_message_is_kept_for_an_offline_player_and_told_to_an_online_one(tmp_path: Path) -> None:
    lobby = lobby_with_store(tmp_path, FriendLimits(box=2, message=20))
    alice = login(lobby, "Alice")
    assert run(lobby, alice, "/message carol see you at 8") == "message left for Carol"
    with pytest.raises(BadCommand, match="at most 20 characters"):
        run(lobby, alice, "/message carol " + "x" * 21)
    bob = login(lobby, "Bob")
    run(lobby, alice, "/message BOB hi")
    assert bob.of_type("new_messages") == [{"type": "new_messages", "unread": 1, "from": "Alice"}]
    run(lobby, bob, "/ignore alice")
    run(lobby, alice, "/message bob again")  # kept, but Bob, who ignores Alice, is not told it came
    assert len(bob.of_type("new_messages")) == 1
    carol = login(lobby, "Carol")
    assert carol.of_type("new_messages") == [{"type": "new_messages", "unread": 1, "from": None}]
    run(lobby, carol, "/messages")
    [box] = carol.of_type("messages")
    assert [(m["from"], m["text"], m["unread"]) for m in box["messages"]] == [("Alice", "see you at 8", True)]
    run(lobby, carol, "/messages")
    assert carol.of_type("messages")[-1]["messages"][0]["unread"] is False
    run(lobby, alice, "/message carol two")
    with pytest.raises(BadCommand, match="message box is full"):
        run(lobby, alice, "/message carol three")
    assert run(lobby, carol, "/messages clear") == "2 messages deleted"
    guest = login(lobby, "Gus", registered=False)
    with pytest.raises(BadCommand, match="you are a guest"):
        run(lobby, guest, "/message alice hi")
    with pytest.raises(BadCommand, match="Gus is a guest"):
        run(lobby, alice, "/message gus hi")
    with pytest.raises(BadCommand, match=r"did you mean Carol\?"):
        run(lobby, alice, "/message CaroI hi")


def test_plans_and_finger(tmp_path: Path) -> None:
    lobby = lobby_with_store(tmp_path, FriendLimits(plan_lines=2, plan_width=30))
    alice = login(lobby, "Alice")
    assert run(lobby, alice, "/plan add Wizard most evenings") == "your plan has 1 line of 2 now"
    run(lobby, alice, "/plan add ask me for a rematch")
    with pytest.raises(BadCommand, match="2 lines already"):
        run(lobby, alice, "/plan add one more")
    with pytest.raises(BadCommand, match="at most 30 characters"):
        run(lobby, alice, "/plan add " + "y" * 31)
    run(lobby, alice, "/plan")
    assert alice.of_type("plan")[-1]["plan"] == ["Wizard most evenings", "ask me for a rematch"]
    bob = login(lobby, "Bob")
    run(lobby, bob, "/finger ALICE")
    finger = bob.of_type("finger")[-1]
    assert (finger["name"], finger["registered"], finger["online"], finger["where"]) == ("Alice", True, True,
                                                                                        "lobby")
    assert finger["plan"] == ["Wizard most evenings", "ask me for a rematch"]
    lobby.disconnect(alice)
    run(lobby, bob, "/finger alice")
    finger = bob.of_type("finger")[-1]
    assert finger["online"] is False and finger["seen"] == "2023-11-14T22:13:20Z"
    guest = login(lobby, "Gus", registered=False)
    run(lobby, bob, "/finger gus")
    assert bob.of_type("finger")[-1]["registered"] is False
    with pytest.raises(BadCommand, match="nobody called Zed is registered or online"):
        run(lobby, bob, "/finger Zed")
    with pytest.raises(BadCommand, match="you are a guest"):
        run(lobby, guest, "/plan add hi")
    assert run(lobby, bob, "/plan clear") == "your plan is empty now"
    lines = "\n".join(Presenter(Style(colour=False)).lines(bob.of_type("finger")[-2]))
    assert "Alice (registered)" in lines and "last seen 2023-11-14 22:13 UTC" in lines and "Plan:" in lines


def test_each_message_reads_as_lines() -> None:
    presenter = Presenter(Style(colour=False))
    assert presenter.lines({"type": "notify", "name": "Bob", "event": "left"}) == ["* Notify: Bob has logged out."]
    assert presenter.lines({"type": "new_messages", "unread": 2, "from": None}) == [
        "* You have 2 new messages; /messages reads them."]
    assert presenter.lines({"type": "notify_list", "names": ["Bob", "Dee"], "online": ["Dee"], "limit": 50,
                            "login": True}) == ["* Notify: Dee is online."]
    box = presenter.lines({"type": "messages", "limit": 50, "messages": [
        {"id": 1, "from": "Bob", "text": "hi", "sent": "2024-05-01T18:04:11Z", "unread": True}]})
    assert any("2024-05-01 18:04 UTC Bob" in line and line.endswith(" hi") for line in box)


def test_the_limits_are_read_from_the_settings() -> None:
    assert from_environ(FriendLimits, {"MUDWIZ_NOTIFY_MAX": "3", "MUDWIZ_PLAN_LINES": "1"}) == FriendLimits(notify=3,
                                                                                                plan_lines=1)


def test_the_clients_log_shows_notify_and_messages_lines() -> None:
    from mudwiz.client.events import message_lines
    from mudwiz.render.style import strip_ansi

    def logged(message: dict[str, Any]) -> list[str]:
        return [strip_ansi(line) for line in message_lines(message)]

    assert logged({"type": "notify", "name": "Bob", "event": "arrived"}) == ["* Notify: Bob has logged in."]
    assert logged({"type": "new_messages", "unread": 1, "from": "Ann"}) == [
        "* A message from Ann has come: you have 1 new message; /messages reads them."]
    box = logged({"type": "messages", "limit": 50, "messages": [
        {"id": 1, "from": "Ann", "text": "rematch?", "sent": "2024-05-01T18:04:11Z", "unread": True}]})
    assert "Messages (1 of 50)" in box[0] and "rematch?" in box[1]


def test_every_people_command_message_and_limit_is_documented() -> None:
    from mudwiz.commands import COMMANDS, Kind

    root = Path(__file__).resolve().parents[2]
    protocol = (root / "docs" / "protocol.md").read_text()
    operations = (root / "docs" / "operations.md").read_text()
    readme = (root / "README.md").read_text()
    for name in (c.name for c in COMMANDS.values() if c.kind is Kind.PEOPLE):
        assert f"`/{name}" in protocol and f"`/{name}" in readme, name
    for kind in ("finger", "plan", "notify", "notify_list", "new_messages", "messages"):
        assert f"| `{kind}` |" in protocol, kind
    for variable in ("MUDWIZ_NOTIFY_MAX", "MUDWIZ_MESSAGE_BOX", "MUDWIZ_MESSAGE_LENGTH", "MUDWIZ_PLAN_LINES",
                     "MUDWIZ_PLAN_WIDTH"):
        assert f"| `{variable}` |" in operations, variable
