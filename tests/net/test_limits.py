"""The connection limits as a state machine, fed directly: who is admitted, who is refused and why, what a login
and a close give back, and how the settings follow from the environment and the open-file limit."""

from __future__ import annotations

import pytest

from mudwiz.net.limits import FD_RESERVE, ConnectionCounter, Limits


def counter(total: int = 100, headroom: int = 10, per_address: int = 4, unnamed: int = 2) -> ConnectionCounter:
    return ConnectionCounter(Limits(total=total, headroom=headroom, per_address=per_address,
                                    unnamed_per_address=unnamed))


def test_one_address_fills_its_own_share_and_the_next_address_is_admitted() -> None:
    c = counter()
    assert c.admit("10.0.0.1") is None and c.admit("10.0.0.1") is None
    refusal = c.admit("10.0.0.1")
    assert refusal is not None and "too many connections from your address not yet logged in" in refusal.message
    assert refusal.news and not c.admit("10.0.0.1").news  # type: ignore[union-attr]  # a flood is logged once
    assert c.admit("10.0.0.2") is None
    c.logged_in("10.0.0.1")  # a login frees a place among those not logged in
    assert c.admit("10.0.0.1") is None
    c.logged_in("10.0.0.1")
    assert c.admit("10.0.0.1") is None  # four now: two logged in, two not
    c.logged_in("10.0.0.1")
    refusal = c.admit("10.0.0.1")
    assert refusal is not None and str(refusal.message).startswith("too many connections from your address (at most 4)")
    c.closed("10.0.0.1", logged_in=True)
    assert c.admit("10.0.0.1") is None
    assert (c.connections, c.unnamed) == (5, 3)  # 10.0.0.1: four, two not logged in; 10.0.0.2: one


def test_connections_not_logged_in_never_take_the_last_slots() -> None:
    c = counter(total=6, headroom=2, per_address=0, unnamed=0)
    for i in range(4):
        assert c.admit(f"10.0.1.{i}") is None
    refusal = c.admit("10.0.1.9")
    assert refusal is not None and refusal.message == "the server has too many connections; try again later"
    c.logged_in("10.0.1.0")
    c.logged_in("10.0.1.1")
    assert c.admit("10.0.1.9") is None and c.admit("10.0.1.10") is None  # six: the headroom reached after logins
    c.logged_in("10.0.1.9")
    assert c.admit("10.0.1.11") is not None  # three not logged in, but all six slots taken
    c.closed("10.0.1.2", logged_in=False)
    assert c.admit("10.0.1.11") is None


def test_every_place_is_given_back_once_all_are_closed() -> None:
    c = counter()
    for address, logs_in in (("10.0.2.1", True), ("10.0.2.1", False), ("", True), ("", False)):
        assert c.admit(address) is None
        if logs_in:
            c.logged_in(address)
    for address, logged_in in (("10.0.2.1", True), ("10.0.2.1", False), ("", True), ("", False)):
        c.closed(address, logged_in)
    assert (c.connections, c.unnamed, c.peers) == (0, 0, {})


def test_an_address_less_connection_counts_only_towards_the_server() -> None:
    c = counter(per_address=1, unnamed=1)
    assert all(c.admit("") is None for _ in range(5))  # unix-socket peers have no address to limit
    assert c.connections == 5 and c.peers == {}


def test_settings_come_from_the_environment_within_the_open_file_limit() -> None:
    defaults = Limits.from_env({}, fd_limit=1024)
    assert defaults == Limits(total=1024 - FD_RESERVE, headroom=(1024 - FD_RESERVE) // 10,
                              per_address=20, unnamed_per_address=5)
    env = {"MUDWIZ_MAX_CONNECTIONS": "50", "MUDWIZ_LOGGED_IN_HEADROOM": "5", "MUDWIZ_MAX_PER_ADDRESS": "0",
           "MUDWIZ_MAX_UNNAMED_PER_ADDRESS": "3"}
    assert Limits.from_env(env, fd_limit=1024) == Limits(total=50, headroom=5, per_address=0, unnamed_per_address=3)
    assert Limits.from_env({"MUDWIZ_MAX_CONNECTIONS": "5000"}, fd_limit=1024).total == 1024 - FD_RESERVE
    assert Limits.from_env({"MUDWIZ_MAX_CONNECTIONS": "4", "MUDWIZ_LOGGED_IN_HEADROOM": "9"}, 1024).headroom == 3
    with pytest.raises(ValueError, match="MUDWIZ_MAX_PER_ADDRESS must be a whole number"):
        Limits.from_env({"MUDWIZ_MAX_PER_ADDRESS": "lots"}, fd_limit=1024)
