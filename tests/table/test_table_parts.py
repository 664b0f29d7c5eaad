"""The table's parts on their own: options as the host types them, the clocks on ``task.Clock``, the roster,
and the timed-reveal declaration. The whole table is exercised by test_table*.py; these pin each part's job."""

from __future__ import annotations

import random
from dataclasses import dataclass

import pytest
from recorder import Recorder
from twisted.internet import defer
from twisted.internet.task import Clock

from mudwiz.errors import BadOption
from mudwiz.games.base import Event, TimedReveal
from mudwiz.games.tiltowait.events import MilwaReveal
from mudwiz.games.wizard import Wizard
from mudwiz.table.botdriver import BotDriver
from mudwiz.table.botseat import BotSession, is_stand_in
from mudwiz.table.fanout import FanOut
from mudwiz.table.options import TABLE_OPTIONS, Settings, TableOptions
from mudwiz.table.roster import Roster
from mudwiz.table.seating import Seating
from mudwiz.table.state import TableState
from mudwiz.table.timers import TURN_WARNING, Timers

# ---------------------------------------------------------------- options


def test_the_table_settings_start_at_the_documented_defaults() -> None:
    assert Settings.defaults() == Settings(confirm=120, turn=300, botdelay=None)
    assert list(TableOptions(Wizard).settings_dict()) == [o.name for o in TABLE_OPTIONS]


@pytest.mark.parametrize("name", ["turn", "confirm"])
def test_off_means_no_limit_for_the_table_clocks(name: str) -> None:
    options = TableOptions(Wizard)
    assert options.set(name.upper(), "off") == f"{name} = off"
    assert getattr(options.settings, name) == 0 and options.chosen[name] == 0
    assert options.set(name, "45") == f"{name} = 45" and getattr(options.settings, name) == 45


def test_botdelay_off_is_the_servers_pace_and_a_number_is_milliseconds() -> None:
    options = TableOptions(Wizard)
    assert options.pace(0.5) == 0.5
    assert options.set("botdelay", "250") == "botdelay = 250"
    assert options.pace(0.5) == 0.25
    assert options.set("botdelay", "off") == "botdelay = off" and options.settings.botdelay is None
    assert options.pace(0.5) == 0.5
    # 0 ms is bots moving at once, not "off" (0 == False: it once read off, whose help says the server's pace)
    assert options.set("botdelay", "0") == "botdelay = 0" and options.settings.botdelay == 0
    assert options.pace(0.5) == 0
    options.set("turn", "off")
    shown = {row["name"]: row["shown"] for row in options.rows()}
    assert (shown["botdelay"], shown["turn"], shown["confirm"], shown["notequal"]) == ("0", "off", "120", "off")


def test_a_table_number_needs_a_value_in_range() -> None:
    options = TableOptions(Wizard)
    with pytest.raises(BadOption, match="turn needs a value: a number from 0 to 3600$"):
        options.set("turn", None)
    with pytest.raises(BadOption, match="botdelay needs a value: a number from 0 to 10000, or off"):
        options.set("botdelay", None)
    with pytest.raises(BadOption, match="must be from 0 to 3600"):
        options.set("confirm", "3601")
    assert options.settings == Settings.defaults() and options.chosen == {}


def test_game_options_are_checked_together_and_kept_apart_from_the_tables() -> None:
    options = TableOptions(Wizard)
    assert options.set("notequal", None) == "notequal = on"
    with pytest.raises(BadOption, match="notequal needs a last bidder"):
        options.set("hiddentip", "on")
    options.set("turn", "60")
    assert options.game_options() == {"notequal": True}, "the engine never sees turn"
    current = options.current()
    assert current["notequal"] is True and current["hiddentip"] is False and current["turn"] == 60
    assert [r["name"] for r in options.rows()] == [o.name for o in (*Wizard.OPTIONS, *TABLE_OPTIONS)]
    with pytest.raises(BadOption, match="has no option 'bogus'"):
        options.set("bogus", "1")


# ---------------------------------------------------------------- timers


def test_the_turn_clock_warns_before_time_is_up_and_a_new_clock_replaces_the_old() -> None:
    clock, fired = Clock(), []
    timers = Timers(clock)
    timers.turn_clock(100, lambda left: fired.append(f"warn {left:g}"), lambda: fired.append("up"))
    clock.advance(100 - TURN_WARNING - 0.1)
    assert fired == []
    clock.advance(0.2)
    assert fired == ["warn 30"]
    timers.turn_clock(10, lambda left: fired.append(f"warn {left:g}"), lambda: fired.append("up again"))
    clock.advance(4.9)
    assert fired == ["warn 30"]
    clock.advance(0.2)
    assert fired == ["warn 30", "warn 5"], "a short clock warns at half time"
    clock.advance(100)
    assert fired == ["warn 30", "warn 5", "up again"], "the first clock's time-up was cancelled"


def test_setting_the_same_turn_clock_again_moves_its_end_on_without_a_new_call() -> None:
    """A move restarts the clock: only its end is moved; its one pending call waits again when it comes early."""
    clock, fired = Clock(), []
    timers = Timers(clock)

    def warn(left: float) -> None:
        fired.append(f"warn {left:g}")

    def up() -> None:
        fired.append("up")

    timers.turn_clock(10, warn, up)
    calls = list(clock.getDelayedCalls())
    clock.advance(4)
    timers.turn_clock(10, warn, up)  # a move: the clock starts afresh
    assert list(clock.getDelayedCalls()) == calls and len(calls) == 1, "the same one call, no new one"
    clock.advance(4.9)
    assert fired == [], "warned 5 s after the restart, not 5 s after the first start"
    clock.advance(0.2)
    assert fired == ["warn 5"]
    clock.advance(4.8)
    assert fired == ["warn 5"]
    clock.advance(0.2)
    assert fired == ["warn 5", "up"]
    timers.turn_clock(10, warn, up)  # after it ran out: a new call
    assert len(clock.getDelayedCalls()) == 1
    timers.stop_turn()
    assert clock.getDelayedCalls() == [], "stopped: nothing left pending"


def test_the_game_timers_stop_with_the_game_but_not_the_idle_close_nor_a_reveal() -> None:
    clock, fired = Clock(), []
    timers = Timers(clock)
    timers.confirm_in(5, lambda: fired.append("confirm"))
    timers.turn_clock(5, lambda left: fired.append("warn"), lambda: fired.append("up"))
    timers.idle_close(5, lambda: fired.append("idle"))
    timers.reveal_ends(5, fired.append, "reveal")
    timers.stop_game()
    clock.advance(6)
    assert sorted(fired) == ["idle", "reveal"]
    timers.idle_close(5, lambda: fired.append("idle again"))
    timers.stop_idle()
    timers.confirm_in(5, lambda: fired.append("first"))
    timers.confirm_in(5, lambda: fired.append("second"))
    clock.advance(6)
    assert sorted(fired) == ["idle", "reveal", "second"]
    assert clock.getDelayedCalls() == []


# ---------------------------------------------------------------- roster


def test_the_roster_finds_people_by_name_in_any_case_and_hands_the_host_on() -> None:
    roster = Roster("Ann")
    ann, bob, watcher = Recorder("Ann"), Recorder("bob"), Recorder("cy")
    roster.observers.append(watcher)
    for s in (ann, bob, watcher):
        roster.sit(s)
    assert roster.observers == [] and roster.seat_of("CY") == 2 and roster.is_host(Recorder("ANN"))
    roster.seats[2] = BotSession("bot1", stand_in=False)
    roster.seats.remove(ann)
    assert roster.hand_over_host() == "bob" and roster.host == "bob"
    roster.seats.remove(bob)
    assert roster.hand_over_host() == "", "a bot never hosts"


def test_a_stand_in_keeps_the_seat_for_its_holder_who_takes_it_back() -> None:
    roster = Roster("")
    ann, bob = Recorder("ann"), Recorder("bob")
    roster.sit(ann)
    roster.sit(bob)
    bob.connected = False
    roster.away_until["bob"] = 30.0
    assert roster.holds_seat_for("BOB") and not roster.holds_seat_for("ann")
    bot = roster.stand_in(1, "wizard", seed=1)
    assert roster.seats[1] is bot and bot.name == "bob" and is_stand_in(bot) and roster.away_until == {}
    assert roster.holds_seat_for("bob") and roster.own_seat(bob) is None
    assert roster.host == "ann"  # the first person to sit at a table without a host hosts it
    roster.host = ""  # ann's host role gone (she left while the stand-in played)
    back = Recorder("bob")
    roster.put_back(1, back)
    assert roster.own_seat(back) == 1 and roster.host == "bob", "a table without a host gets the one back"
    assert not is_stand_in(BotSession("bot1", stand_in=False)) and not is_stand_in(None)



def test_the_roster_finds_each_seat_after_every_kind_of_change_to_the_seats() -> None:
    """``seat_of`` answers from an index by name: it must follow the seats through the roster's own changes and
    through changes made to the plain list itself (a restore appends to it, tests replace and remove)."""
    roster = Roster("ann")
    ann, bob, cy = Recorder("Ann"), Recorder("bob"), Recorder("cy")
    roster.sit(ann)
    roster.sit(bob)
    assert [roster.seat_of(n) for n in ("ANN", "Bob", "cy")] == [0, 1, None]
    roster.seats.append(cy)  # as restore.py does
    assert roster.seat_of("CY") == 2 and roster.own_seat(cy) == 2
    bot = roster.stand_in(1, "wizard", seed=1)
    assert roster.seated("bob") is bot and roster.own_seat(bob) is None
    back = Recorder("BOB")
    roster.put_back(1, back)
    assert roster.seated("bob") is back and roster.own_seat(back) == 1
    del roster.seats[0]  # as a leaving player's seat is taken away before a game
    assert [roster.seat_of(n) for n in ("ann", "bob", "cy")] == [None, 0, 1]
    roster.seats[1] = Recorder("dee")
    assert roster.seat_of("cy") is None and roster.seat_of("DEE") == 1
    roster.clear()
    assert roster.seat_of("bob") is None and roster.own_seat(back) is None
# ---------------------------------------------------------------- timed reveals


# ---------------------------------------------------------------- parts made of the state and the calls they make


def _state(host: str = "ann") -> TableState:
    return TableState(7, Wizard, Clock(), host, 0.5, random.Random(1))


def test_seating_works_on_the_tables_state_and_tells_the_table_through_its_calls() -> None:
    """No table: the seating is made of the state, the fan-out, what sessions are to call their table, and the two
    calls it makes; it asks for ``people_changed`` after every coming and going, and the bots' schedule after a
    stand-in sits down."""
    state, place, calls = _state(), object(), []
    seating = Seating(state, place, FanOut(state, None),  # type: ignore[arg-type]
                      lambda **kw: calls.append(("people", kw)), lambda: calls.append(("bots", {})))
    ann, bob = Recorder("ann"), Recorder("bob")
    seating.sit(ann)
    seating.sit(bob)
    assert state.roster.seats == [ann, bob] and ann.table is place and bob.table is place
    assert calls == [("people", {}), ("people", {})]
    assert ann.of_type("notice")[-1]["text"] == "bob sits down at table 7." and bob.last_state()["look"]
    assert seating.leave(bob) == "you leave table 7" and bob.table is None
    assert calls[-1] == ("people", {"gone_for_good": True}) and state.roster.seats == [ann]
    calls.clear()
    seating.stand_in(0, "ann steps out.")
    assert is_stand_in(state.roster.seats[0]) and calls == [("people", {}), ("bots", {})]


def test_the_bot_driver_plays_through_the_call_it_was_handed() -> None:
    state = _state("")
    for i in range(3):
        state.roster.sit(BotSession(f"bot{i}", game="wizard", seed=i, stand_in=False))
    state.game = Wizard([s.name for s in state.roster.seats], {}, 5)
    played: list[tuple[str, str]] = []
    driver = BotDriver(state, lambda bot, view: defer.succeed(bot.choose(view)),
                       lambda bot, move: played.append((bot.name, move)), lambda: False)
    driver.schedule()
    clock = state.clock
    assert isinstance(clock, Clock)
    clock.advance(0.4)
    assert played == []  # the table's pace: 0.5 s
    clock.advance(0.1)
    assert [name for name, _ in played] == [state.game.players[seat] for seat in state.game.waiting()]


def test_milwa_declares_a_timed_reveal_of_its_targets_cards() -> None:
    event = MilwaReveal("ann", "bob", ["R3"], 5)
    assert isinstance(event, TimedReveal) and event.reveal_seconds == 5 and event.revealed_player == "bob"
    assert event.to_dict() == {"type": "milwa_reveal", "caster": "ann", "target": "bob", "cards": ["R3"],
                               "seconds": 5, "audience": "table"}


def test_an_event_declaring_a_timed_reveal_must_say_how_long_and_whose() -> None:
    with pytest.raises(TypeError, match="abstract"):  # when it is defined: a compiled Event makes any event
        @dataclass(frozen=True)
        class Glimpse(Event, TimedReveal):
            player: str

        Glimpse("bob")
