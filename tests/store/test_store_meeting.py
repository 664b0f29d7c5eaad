"""The meeting place's rows in the store (messages, profiles, notify lists, channels), on SQLite and PostgreSQL
alike: what is kept, in which order, matched by name in any case, and each list's limit holding."""

from __future__ import annotations

from typing import Any

import pytest

from mudwiz.store.base import ListFull


def test_a_message_is_left_for_an_account_in_any_case_and_read_once(store: Any) -> None:
    store.create_account("Carol", "h")
    first = store.leave_message("bob", "carol", "good game", 100.0, limit=5)
    store.leave_message("Dave", "CAROL", "rematch?", 101.0, limit=5)
    assert first.recipient == "Carol" and first.unread
    assert store.unread_messages("carol") == 2
    box = store.messages("Carol")
    assert [(m.sender, m.text, m.sent, m.unread) for m in box] == [
        ("bob", "good game", 100.0, True), ("Dave", "rematch?", 101.0, True)]
    store.mark_read("CAROL", [box[0].id])
    assert [m.unread for m in store.messages("carol")] == [False, True]
    assert store.unread_messages("carol") == 1
    assert store.messages("bob") == [] and store.unread_messages("bob") == 0


def test_a_message_for_no_account_is_refused_and_a_full_box_keeps_what_it_has(store: Any) -> None:
    with pytest.raises(KeyError):
        store.leave_message("bob", "nobody", "hello", 1.0, limit=5)
    store.create_account("carol", "h")
    for i in range(3):
        store.leave_message("bob", "carol", f"note {i}", float(i), limit=3)
    with pytest.raises(ListFull) as full:
        store.leave_message("bob", "carol", "one more", 9.0, limit=3)
    assert full.value.limit == 3
    assert [m.text for m in store.messages("carol")] == ["note 0", "note 1", "note 2"]
    assert store.clear_messages("Carol") == 3
    assert store.messages("carol") == []
    store.leave_message("bob", "carol", "again", 10.0, limit=3)  # a cleared box takes messages again
    assert store.unread_messages("carol") == 1


def test_a_profile_keeps_the_plan_and_the_last_seen_time_apart(store: Any) -> None:
    assert store.profile("alice") is None
    store.set_plan("Alice", ["Plays Wizard evenings.", "Ask me for a rematch."])
    store.mark_seen("alice", 1234.5)
    profile = store.profile("ALICE")
    assert profile.plan == ("Plays Wizard evenings.", "Ask me for a rematch.") and profile.seen == 1234.5
    store.set_plan("alice", [])
    assert store.profile("alice").plan == () and store.profile("alice").seen == 1234.5
    store.mark_seen("bob", 7.0)
    assert store.profile("bob").plan == () and store.profile("bob").name == "bob"


def test_notify_lists_are_kept_per_owner_and_asked_for_by_target(store: Any) -> None:
    assert store.add_notify("alice", "Carol", limit=2)
    assert not store.add_notify("Alice", "carol", limit=2)  # already there, in any case
    assert store.add_notify("alice", "bob", limit=2)
    with pytest.raises(ListFull):
        store.add_notify("alice", "dave", limit=2)
    store.add_notify("erin", "carol", limit=2)
    assert store.notify_list("ALICE") == ["bob", "Carol"]
    assert store.notifying("CAROL") == ["alice", "erin"]
    assert store.remove_notify("alice", "CAROL") and not store.remove_notify("alice", "carol")
    assert store.notifying("carol") == ["erin"] and store.notify_list("alice") == ["bob"]


def test_ignore_lists_are_kept_per_owner_in_lower_case_with_a_limit(store: Any) -> None:
    assert store.add_ignore("alice", "Pest", limit=2)
    assert not store.add_ignore("ALICE", "pest", limit=2)  # already there, in any case
    assert store.add_ignore("alice", "bob", limit=2)
    with pytest.raises(ListFull):
        store.add_ignore("alice", "dave", limit=2)
    store.add_ignore("erin", "pest", limit=2)
    assert store.ignore_list("Alice") == ["bob", "pest"] and store.ignore_list("erin") == ["pest"]
    assert store.remove_ignore("alice", "PEST") and not store.remove_ignore("alice", "pest")
    assert store.ignore_list("alice") == ["bob"] and store.ignore_list("nobody") == []


def test_channels_joined_are_kept_with_a_limit(store: Any) -> None:
    assert store.join_channel("alice", "wizard", limit=2)
    assert not store.join_channel("ALICE", "wizard", limit=2)
    assert store.join_channel("alice", "help", limit=2)
    with pytest.raises(ListFull):
        store.join_channel("alice", "witches", limit=2)
    assert store.channels_of("Alice") == ["help", "wizard"]
    assert store.leave_channel("alice", "help") and not store.leave_channel("alice", "help")
    assert store.channels_of("alice") == ["wizard"]


def test_what_is_kept_survives_reopening(backend: Any) -> None:
    store = backend.open()
    store.create_account("carol", "h")
    store.leave_message("bob", "carol", "still here?", 5.0, limit=5)
    store.add_notify("carol", "bob", limit=5)
    store.join_channel("carol", "help", limit=5)
    store.set_plan("carol", ["hi"])
    store.close()
    again = backend.open()
    assert [m.text for m in again.messages("carol")] == ["still here?"]
    assert again.notify_list("carol") == ["bob"] and again.channels_of("carol") == ["help"]
    assert again.profile("carol").plan == ("hi",)


def test_unregistering_deletes_the_account_and_what_is_kept_with_it_and_keeps_its_games(store: Any) -> None:
    """``delete_account``: the account, its role, ratings, profile, notify list and its name on others', message
    box and kept channels go, in one transaction; its game records, a ban of the name and the messages it left
    others stay; the name is anyone's to register again, and another account's rows are untouched."""
    from test_ratings import game

    from mudwiz.ratings import rate_game
    from mudwiz.store import Ban

    for name in ("Carol", "Bob"):
        store.create_account(name, "h")
    store.grant_role("carol", "sysop")
    kept_game = store.record_game(game("Carol", "Bob", "guest"), rate_game)
    assert store.rating("carol", "wizard") is not None
    store.leave_message("Bob", "carol", "rematch?", 1.0, limit=5)
    store.leave_message("Carol", "bob", "good game", 2.0, limit=5)
    store.set_plan("Carol", ["evenings"])
    store.mark_seen("carol", 3.0)
    store.add_notify("carol", "Bob", limit=5)
    store.add_notify("bob", "Carol", limit=5)
    store.add_notify("bob", "dave", limit=5)
    store.join_channel("carol", "help", limit=5)
    store.join_channel("bob", "help", limit=5)
    store.add_ban(Ban("name", "carol", None, "Sys", 4.0))

    assert store.delete_account("CAROL") == "Carol"
    assert store.account("carol") is None and store.roles("carol") == set() and store.holders("sysop") == []
    assert store.ratings_of("carol") == [] and store.rating("carol", "wizard") is None
    assert [r.name for r in store.top("wizard")] == ["Bob"]
    assert store.messages("carol") == [] and store.profile("carol") is None
    assert store.notify_list("carol") == [] and store.notifying("carol") == []
    assert store.notify_list("bob") == ["dave"] and store.channels_of("carol") == []
    kept = store.game(kept_game)  # the game stays, under the name, in everyone's history
    assert kept is not None and kept.players == ["Carol", "Bob", "guest"]
    assert [g.id for g in store.games_of("carol")] == [kept_game]
    assert [m.text for m in store.messages("bob")] == ["good game"]  # Bob's box is Bob's
    assert store.channels_of("bob") == ["help"] and store.rating("bob", "wizard") is not None
    assert store.ban_on("name", "Carol", 5.0) is not None  # a ban is of the name, registered or not
    assert store.delete_account("carol") is None  # no account: nothing to do
    store.create_account("carol", "h2")  # the name is free
    assert store.account("Carol").name == "carol" and store.roles("carol") == set()


def test_admin_unregister_deletes_an_account_and_its_role_and_refuses_a_name_nobody_registered(store: Any) -> None:
    """``mudwiz admin unregister NAME``, the sysop's side of ``/unregister``: a role does not stop it."""
    import argparse

    from mudwiz.admin import VERBS, AdminError

    store.create_account("Sys", "h")
    store.grant_role("sys", "sysop")
    said = VERBS["unregister"](store, argparse.Namespace(name="SYS"))
    assert said == "Sys is no longer registered (its game records stay); the name is anyone's once its owner logs out"
    assert store.account("sys") is None and store.holders("sysop") == []
    with pytest.raises(AdminError, match="^sys is not a registered name$"):
        VERBS["unregister"](store, argparse.Namespace(name="sys"))
