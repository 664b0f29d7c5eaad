"""The command registry: every command declares its scope, its help kind and its cluster route, and what was
once kept in lists of names beside it (the commands allowed before login, ``/help``'s kinds, the cluster's
routing) is read from it."""

from __future__ import annotations

from mudwiz.commands import COMMANDS, Kind, Route, Scope, help_kinds, pre_login, route_of


def named(route: Route) -> set[str]:
    return {name for name in COMMANDS if route_of(name) is route}


def test_before_login_only_mode_lang_charset_quit_and_help() -> None:
    assert sorted(pre_login()) == ["/charset", "/help", "/lang", "/mode", "/quit"]
    assert {c.name for c in COMMANDS.values() if c.scope is Scope.PRE_LOGIN} == {"help", "lang", "mode", "charset",
                                                                                  "quit"}


def test_help_lists_each_kind_in_its_order() -> None:
    assert help_kinds() == {
        "Lobby": ("who", "tables", "say", "tell", "ignore", "unignore", "mode", "quit", "help", "bye", "pager",
                  "charset", "width", "channel",
                  "ch", "shout", "me", "away", "lang"),
        "People": ("finger", "plan", "notify", "unnotify", "message", "messages"),
        "Tables": ("new", "join", "watch", "leave", "look", "option", "bot", "start", "ok", "score", "seek", "seeks",
                   "unseek", "quick", "again", "adjourn", "resume", "adjourned"),
        "Games": ("rules", "spells", "history", "game", "replay", "rating", "top", "fame", "tournament",
                  "tournaments", "analyze"),
        "Account": ("register", "password", "unregister", "alias"),
        "Sysop": ("kick", "ban", "unban", "bans", "announce", "shutdown"),
    }
    assert all(c.kind is not Kind.OTHER for c in COMMANDS.values())


def test_the_cluster_routes_each_command_as_declared() -> None:
    assert named(Route.TABLE) == {"say", "me", "leave", "option", "start", "ok", "score", "look", "bot", "again",
                                 "adjourn", "resume"}
    assert named(Route.NOT_ELSEWHERE) == {"new", "join", "watch", "seek", "quick"}
    assert named(Route.ABOUT_TABLE) == {"help", "rules", "spells"}
    assert route_of("play") is None  # a game's verb: the table's process knows it
    assert {c.name for c in COMMANDS.values() if c.scope is Scope.MOVE} == named(Route.NOT_ELSEWHERE)


def test_each_kind_lists_its_commands_in_distinct_places() -> None:
    for kind in Kind:
        places = [c.place for c in COMMANDS.values() if c.kind is kind]
        assert len(places) == len(set(places)), kind


def test_the_catalogue_lists_the_commands_in_the_order_they_always_had() -> None:
    assert list(COMMANDS) == [
        "help", "who", "tables", "say", "ignore", "unignore", "tell", "mode", "lang", "charset", "width", "quit", "bye",
        "pager", "register", "password", "unregister", "alias", "kick", "ban", "unban", "bans", "announce", "shutdown",
        "new", "join", "watch",
        "leave", "option", "start", "ok", "score", "look", "bot", "history", "game", "rating", "top", "fame",
        "replay", "rules", "spells", "channel", "ch", "shout", "me", "away", "seek", "seeks", "unseek", "quick",
        "again", "adjourn", "resume", "adjourned", "tournament", "tournaments", "finger", "plan", "notify",
        "unnotify", "message", "messages", "analyze"]
