"""The table and lobby, fed commands directly with a fake clock (``task.Clock``): no sockets, no sleeps."""

from __future__ import annotations

import copy

import pytest
from recorder import Recorder
from twisted.internet.task import Clock

from mudwiz.commands import COMMANDS, dispatch, help_kinds, help_text
from mudwiz.errors import BadCommand, BadOption, IllegalAction, MudwizError
from mudwiz.lobby import Lobby


def setup(n: int = 3, grace: float = 30.0, **opts: str) -> tuple[Clock, Lobby, list[Recorder]]:
    clock = Clock()
    lobby = Lobby(clock, grace=grace, bot_delay=0.5, seed=1)
    people = [Recorder() for _ in range(n)]
    for i, p in enumerate(people):
        lobby.login(p, f"p{i}")
    dispatch(lobby, people[0], "/new wizard")
    for p in people[1:]:
        dispatch(lobby, p, "/join 1")
    for name, value in opts.items():
        dispatch(lobby, people[0], f"/option {name} {value}")
    return clock, lobby, people


def play_round(lobby: Lobby, people: list[Recorder]) -> None:
    """Every person plays the first legal move of their latest state until the round is over."""
    table = lobby.tables[1]
    for _ in range(500):
        assert table.game is not None
        if table.game.phase in ("roundend", "gameover"):
            return
        for p in people:
            legal = p.last_state()["legal"]
            if legal and legal[0] not in ("/ok", "/start"):
                dispatch(lobby, p, legal[0])
                break
    raise AssertionError("round did not end")


def test_round_waits_for_every_ok_then_deals_the_next() -> None:
    clock, lobby, people = setup(confirm="0", rounds="2")
    dispatch(lobby, people[0], "/start")
    play_round(lobby, people)
    table = lobby.tables[1]
    assert table.game.phase == "roundend"
    assert all("/ok" in p.last_state()["legal"] for p in people)
    clock.advance(3600)
    assert table.game.phase == "roundend", "confirm=0 waits for everyone"
    dispatch(lobby, people[0], "/ok")
    dispatch(lobby, people[1], "/ok")
    assert table.game.phase == "roundend"
    assert "/ok" not in people[0].last_state()["legal"]
    dispatch(lobby, people[2], "/ok")
    assert table.game.round == 2 and table.game.phase in ("bidding", "trump")


def test_confirmation_timeout_starts_the_next_round() -> None:
    clock, lobby, people = setup(confirm="5", rounds="2")
    dispatch(lobby, people[0], "/start")
    play_round(lobby, people)
    game = lobby.tables[1].game
    clock.advance(4.9)
    assert game.phase == "roundend"
    clock.advance(0.2)
    assert game.round == 2


def test_dropped_player_keeps_the_seat_and_comes_back_with_a_fresh_view() -> None:
    clock, lobby, people = setup(grace=30)
    dispatch(lobby, people[0], "/start")
    table = lobby.tables[1]
    lobby.disconnect(people[1])
    assert table.seats[1] is people[1] and not people[1].connected
    assert any("lost the connection" in m["text"] for m in people[0].of_type("notice"))
    assert any(p["away"] for p in people[0].last_state()["players"])
    clock.advance(29)
    again = Recorder()
    lobby.login(again, "p1")
    assert table.seats[1] is again
    state = again.last_state()
    assert state["you"] == "p1" and len(state["hand"]) == table.game.size
    clock.advance(10)  # the old grace timer was cancelled: no bot takes over
    assert not table.seats[1].is_bot


def test_after_the_grace_period_a_stand_in_bot_plays_and_the_seat_can_be_taken_back() -> None:
    clock, lobby, people = setup(grace=10, rounds="1")
    dispatch(lobby, people[0], "/start")
    table = lobby.tables[1]
    lobby.disconnect(people[2])
    clock.advance(10.1)
    assert table.seats[2].is_bot and table.seats[2].name == "p2"
    back = Recorder()
    lobby.login(back, "p2")
    assert table.seats[2] is back and back.last_state()["you"] == "p2"


def test_leaving_mid_game_hands_the_seat_to_a_bot_and_the_host_role_on() -> None:
    clock, lobby, people = setup(rounds="1", confirm="1")
    dispatch(lobby, people[0], "/start")
    table = lobby.tables[1]
    dispatch(lobby, people[0], "/leave")
    assert table.host == "p1" and table.seats[0].is_bot
    for _ in range(200):  # the others play, the bot plays its seat: the game ends
        if table.game.finished:
            break
        for p in people[1:]:
            legal = p.last_state()["legal"]
            if legal and legal[0] not in ("/ok", "/start"):
                dispatch(lobby, p, legal[0])
        clock.advance(1)
    assert table.game.finished
    assert people[1].of_type("game_end")


def test_only_the_host_sets_options_and_bad_ones_are_refused_with_the_reason() -> None:
    clock, lobby, people = setup()
    with pytest.raises(BadCommand, match="only the host"):
        dispatch(lobby, people[1], "/option notequal")
    dispatch(lobby, people[0], "/option hiddentip")
    with pytest.raises(BadOption, match="last bidder"):
        dispatch(lobby, people[0], "/option notequal")
    with pytest.raises(BadOption, match="1 to 20"):
        dispatch(lobby, people[0], "/option rounds=99")
    with pytest.raises(BadOption, match="no option"):
        dispatch(lobby, people[0], "/option turbo")
    dispatch(lobby, people[0], "/option rounds=15")  # fine for 3 or 4 players...
    for _ in range(3):
        dispatch(lobby, people[0], "/bot add random")
    with pytest.raises(BadOption, match="only 10 rounds"):  # ...but 6 players have 10
        dispatch(lobby, people[0], "/start")
    assert lobby.tables[1].game is None
    assert lobby.tables[1].current_options()["hiddentip"] is True


def test_moves_out_of_turn_and_before_the_start_are_refused_clearly() -> None:
    clock, lobby, people = setup()
    with pytest.raises(IllegalAction, match="has not started"):
        dispatch(lobby, people[0], "/bid 1")
    with pytest.raises(BadCommand, match="only the host"):
        dispatch(lobby, people[1], "/start")
    dispatch(lobby, people[0], "/start")
    table = lobby.tables[1]
    waiting = table.game.waiting()[0]
    other = people[(waiting + 1) % 3]
    with pytest.raises(IllegalAction, match="not your turn"):
        dispatch(lobby, other, "/bid 0")
    with pytest.raises(MudwizError, match="now is the time to /bid, not /play"):  # the phase before the card
        dispatch(lobby, people[waiting], "/play X99")
    with pytest.raises(BadCommand, match="unknown command"):
        dispatch(lobby, people[0], "/dance")
    with pytest.raises(IllegalAction, match=r"^/pass is not a move in Wizard; /help wizard lists its moves$"):
        dispatch(lobby, people[0], "/pass R1 R2 R3")  # a Witches move at a Wizard table
    with pytest.raises(BadCommand, match=r"^usage: /watch N; /tables lists the tables$"):
        dispatch(lobby, people[0], "/watch")


def test_observers_never_receive_a_hand() -> None:
    clock, lobby, people = setup(rounds="3", confirm="1")
    watcher = Recorder()
    lobby.login(watcher, "eve")
    dispatch(lobby, watcher, "/watch 1")
    dispatch(lobby, people[0], "/start")
    for _ in range(3):
        play_round(lobby, people)
        clock.advance(2)
    assert watcher.of_type("game_end")
    assert all(s["hand"] == [] and s["legal"] == [] for s in watcher.of_type("state"))
    with pytest.raises(BadCommand, match="not playing"):
        dispatch(lobby, watcher, "/bid 0")


def test_help_lists_commands_and_the_tables_game_moves() -> None:
    clock, lobby, people = setup()
    text = help_text("", people[0])
    for cmd in ("/who", "/tables", "/new GAME", "/join N", "/watch N", "/option", "/start", "/ok", "/score",
                "/look", "/say TEXT", "/tell NAME TEXT", "/mode", "/quit", "/leave", "/bot add"):
        assert cmd in text
    assert "/bid N" in text and "/play CARD" in text and "/trump SUIT" in text
    assert "notequal" in help_text("wizard", people[0])
    with pytest.raises(BadCommand):
        help_text("nonsense", people[0])


def test_help_alone_fits_a_24_row_screen_and_help_all_explains_every_command() -> None:
    """``/help`` was some sixty rows, each command explained: on a 24-row terminal the top scrolled away. Alone
    it is now each command's usage by kind, with the table's moves; ``/help all`` is the whole explanation."""
    clock, lobby, people = setup()
    text = help_text("", people[0])
    assert len(text.splitlines()) <= 22, text  # with the prompt and a line of room
    assert any("/option [NAME [VALUE]]" in line for line in text.splitlines())  # a usage is never cut in two
    everything = help_text("all", people[0])
    for name, command in COMMANDS.items():
        if name in help_kinds()["Sysop"]:
            assert command.usage not in text and command.usage not in everything
            assert command.usage in help_text("", people[0], sysop=True)
        else:
            assert command.usage in text and str(command.help).split()[0] in everything
    assert len(everything.splitlines()) > 40


def test_the_host_hears_of_a_bot_it_seats_or_removes_once_and_the_others_which_bot() -> None:
    """The host's reply said "bot1 (normal) sits down" (good: normal's old name) and a notice said it again."""
    clock, lobby, people = setup()
    host, other = people[0], people[1]
    before = len(host.messages), len(other.messages)
    assert dispatch(lobby, host, "/bot add good") == "bot1 (normal) sits down at table 1"
    assert dispatch(lobby, host, "/bot remove bot1") == "bot1 leaves table 1"
    assert not [m for m in host.messages[before[0]:] if m["type"] == "notice"]
    told = [m["text"] for m in other.messages[before[1]:] if m["type"] == "notice"]
    assert told == ["bot1 (normal) sits down at table 1.", "bot1 leaves table 1."]


def test_help_on_a_move_explains_the_tables_own_game_first() -> None:
    """/help play at a Witches table explained Wizard's /play (Z, N), the first game with that verb."""
    clock, lobby, people = setup()
    assert "(wizard)" in help_text("play", people[0])
    dispatch(lobby, people[0], "/leave")
    dispatch(lobby, people[0], "/new witches")
    assert "(witches)" in help_text("play", people[0]) and "(wizard)" not in help_text("play", people[0])


def test_chat_stays_in_its_room_and_tells_reach_one_person() -> None:
    clock, lobby, people = setup()
    loner = Recorder()
    lobby.login(loner, "loner")
    dispatch(lobby, people[0], "hello table")
    assert [m["text"] for m in people[2].of_type("chat")] == ["hello table"]
    assert not loner.of_type("chat")
    dispatch(lobby, people[1], "/tell loner psst")
    assert loner.of_type("chat")[-1] == {"type": "chat", "from": "p1", "channel": "tell", "to": "loner",
                                         "text": "psst"}
    assert not people[2].of_type("chat")[1:]


def test_turn_timer_plays_for_a_person_who_stalls() -> None:
    clock, lobby, people = setup(turn="30", rounds="1")
    dispatch(lobby, people[0], "/start")
    game = lobby.tables[1].game
    first = game.waiting()[0]
    clock.advance(29)
    assert game.waiting()[0] == first and game.bids[first] is None
    clock.advance(2)
    assert game.bids[first] is not None
    bid = f"/bid {game.bids[first]}"
    told = [m["text"] for p in people for m in p.of_type("notice") if "Time is up" in m["text"]]
    assert f"Time is up: {bid} is made for you." in told
    assert f"Time is up for p{first}: a random move is made for them." in told
    assert sum(bid in text for text in told) == 1  # named to its player alone (a secret bid would be given away)
    for _ in range(10):  # nobody moves: the timer plays the whole round
        clock.advance(31)
    assert game.finished


def test_the_host_sets_how_long_bots_wait_before_moving() -> None:
    """The server's delay (0.5 s here) unless the table's ``botdelay`` says otherwise; ``off`` goes back to it."""
    clock, lobby, people = setup(1)
    host = people[0]
    dispatch(lobby, host, "/bot add random")
    dispatch(lobby, host, "/bot add random")
    dispatch(lobby, host, "/option botdelay 2000")
    assert host.last_state()["table_options"]["botdelay"] == 2000
    with pytest.raises(BadOption):
        dispatch(lobby, host, "/option botdelay 10001")
    dispatch(lobby, host, "/option botdelay off")
    assert lobby.tables[1].pace == 0.5
    dispatch(lobby, host, "/option botdelay 2000")
    dispatch(lobby, host, "/start")
    game = lobby.tables[1].game
    bot = game.waiting()[0]
    assert bot != 0, "the dealer is seat 0 (the host), so a bot bids first"
    clock.advance(1.9)
    assert game.bids[bot] is None
    clock.advance(0.2)
    assert game.bids[bot] is not None


def test_a_timed_reveal_is_ended_by_the_table_after_its_seconds() -> None:
    """Tiltowait's MILWA: the engine hands the caster the cards and a duration; the table keeps the time."""
    from mudwiz.games.tiltowait.events import MilwaReveal

    clock, lobby, people = setup()
    table = lobby.tables[1]
    dispatch(lobby, people[0], "/start")
    table._after([MilwaReveal("p0", "p1", ["R3", "K7"], 5, audience="caster")])  # option milwa=caster
    assert people[0].of_type("milwa_reveal")[-1]["cards"] == ["R3", "K7"]
    assert not people[1].of_type("milwa_reveal") and not people[2].of_type("milwa_reveal")
    clock.advance(4.9)
    assert not people[0].of_type("reveal_end")
    clock.advance(0.2)
    assert people[0].of_type("reveal_end")[-1]["player"] == "p1"
    assert not people[1].of_type("reveal_end")
    table._after([MilwaReveal("p0", "p1", ["R3", "K7"], 5)])  # the sheet's reading: opened to the whole table
    assert all(p.of_type("milwa_reveal")[-1]["cards"] == ["R3", "K7"] for p in people)
    clock.advance(5.1)
    assert all(p.of_type("reveal_end")[-1]["player"] == "p1" for p in people)
    # and the table is drawn again after it, so a line terminal's screen no longer shows the opened hand
    assert all(p.messages[-1]["type"] == "state" and p.messages[-1].get("look") for p in people)


def test_an_optional_number_option_can_be_switched_off_again_and_needs_a_value_otherwise() -> None:
    clock, lobby, people = setup()
    dispatch(lobby, people[0], "/option rounds 3")
    assert lobby.tables[1].current_options()["rounds"] == 3
    dispatch(lobby, people[0], "/option rounds off")
    assert lobby.tables[1].current_options()["rounds"] is None
    with pytest.raises(BadOption, match="needs a value"):
        dispatch(lobby, people[0], "/option confirm")
    dispatch(lobby, people[0], "/start")
    game = lobby.tables[1].game
    assert game.__class__.replay(game.players, game.options, game.seed, game.log)[0].view(0) == game.view(0)


def test_help_fits_80_columns_and_a_narrower_window() -> None:
    """Wrapped at 80 and then again by a 60-column window, a line's last word was left alone on a row."""
    clock, lobby, people = setup()
    for width in (80, 60, 40):
        people[0].width = width  # type: ignore[attr-defined]  # a connection's session has it (telnet NAWS)
        for topic in ("", "all", "wizard", "witches", "tiltowait", "play", "mode"):
            for line in help_text(topic, people[0]).splitlines():
                assert len(line) <= width, (width, line)


@pytest.mark.parametrize("game", ["wizard", "witches", "tiltowait"])
def test_help_at_a_table_fits_a_24_row_screen_at_any_width(game: str) -> None:
    """At a Tiltowait table below 60 columns the moves' explanations ran /help past 24 rows (found by a probe):
    there, as the commands, their usages only; /help MOVE explains one."""
    lobby = Lobby(Clock(), seed=1)
    host = Recorder()
    lobby.login(host, "host")
    dispatch(lobby, host, f"/new {game}")
    for width in range(40, 81):
        host.width = width  # type: ignore[attr-defined]
        lines = help_text("", host).splitlines()
        assert len(lines) <= 23 and max(map(len, lines)) <= width, (width, lines)  # and the prompt's row
        assert "/catch NAME" in "\n".join(lines) if game == "tiltowait" else True


@pytest.mark.parametrize("game", ["wizard", "witches", "tiltowait"])
def test_a_view_is_a_copy_that_cannot_change_the_game(game: str) -> None:
    """A bot (or any code) that edits the view it was given must not change the game's own record."""
    import random

    from mudwiz.games import game_class

    g = game_class(game)(4, {}, seed=3)
    rng = random.Random(3)
    while not g.sheet:
        if g.phase == "roundend":
            break
        seat = g.waiting()[0]
        legal = [str(a) for a in g.legal_actions(seat)]
        action = rng.choice([a for a in legal if a.startswith("play")] or legal)
        if action == "pass":
            action = " ".join(["pass", *rng.sample(g.view(seat)["hand"], g.view(seat)["pass"]["count"])])
        g.apply(seat, action)
    before = copy.deepcopy(g.sheet)
    view = g.view(0)
    view["sheet"][0]["results"].clear()
    assert g.sheet == before


def test_people_and_bots_never_share_a_name() -> None:
    """Seats are found by name: a person may not log in as a seated bot, and a new bot takes a free name."""
    clock, lobby, people = setup(n=1)
    host = people[0]
    dispatch(lobby, host, "/bot add random")
    assert [s.name for s in lobby.tables[1].seats] == ["p0", "bot1"]
    with pytest.raises(BadCommand, match="computer player"):
        lobby.login(Recorder(), "BOT1")
    late = Recorder()
    lobby.login(late, "bot2", registered=True)  # an account called bot2 (made before bot and digits was kept for
    # bots): the next bot skips the name
    dispatch(lobby, host, "/bot add random")
    assert [s.name for s in lobby.tables[1].seats] == ["p0", "bot1", "bot3"]
    dispatch(lobby, host, "/bot remove BOT1")  # names are typed in any case
    assert [s.name for s in lobby.tables[1].seats] == ["p0", "bot3"]
    lobby.login(Recorder(), "bot1", registered=True)  # free again once the bot has gone
    other = Recorder()
    lobby.login(other, "p9")
    dispatch(lobby, other, "/new wizard")
    dispatch(lobby, other, "/bot add random")  # each table counts its own bots, skipping people's names
    assert [s.name for s in lobby.tables[2].seats] == ["p9", "bot3"]


def test_a_new_bot_never_takes_the_name_of_someone_coming_back_to_a_seat_or_a_watch() -> None:
    """A guest called ``bot2`` whose seat a stand-in keeps, and one called ``bot3`` whose watch is kept after a
    drop: a host's new bots elsewhere skip both names, so each comes back under their own (found by a probe:
    the new bot took the name, and its owner was refused it as a computer player's)."""
    clock, lobby, people = setup(n=1)
    host = people[0]
    seated, watcher = Recorder(), Recorder()
    lobby.login(seated, "bot2", registered=True)  # accounts so named before bot and digits was kept for bots
    lobby.login(watcher, "bot3", registered=True)
    dispatch(lobby, seated, "/join 1")
    dispatch(lobby, host, "/bot add random")  # bot1
    dispatch(lobby, host, "/start")
    dispatch(lobby, seated, "/leave")  # mid-game: a stand-in keeps bot2's seat for them
    lobby.disconnect(seated)
    dispatch(lobby, watcher, "/watch 1")
    lobby.disconnect(watcher)  # their watch (and name) is kept for the grace period
    other = Recorder()
    lobby.login(other, "p9")
    dispatch(lobby, other, "/new witches")
    for _ in range(3):
        dispatch(lobby, other, "/bot add random")
    assert [s.name for s in lobby.tables[2].seats] == ["p9", "bot1", "bot4", "bot5"]
    back = Recorder()
    lobby.login(back, "bot3", registered=True)  # no computer player has their name: they watch again
    assert back in lobby.tables[1].observers
    assert lobby.holds_name("bot2") and not lobby.is_seated_bot("bot2")


def test_start_is_offered_only_when_it_would_start_the_game() -> None:
    """A client that sends what ``legal`` offers must never loop on a refused ``/start``: Wizard's tournament is
    for 3 to 5 players, so six seats with it chosen offer no ``/start`` (found by a probe), five do; a finished
    game's host is offered the next one under the same rule."""
    clock, lobby, people = setup(n=1)
    host = people[0]
    dispatch(lobby, host, "/option tournament")
    for _ in range(5):
        dispatch(lobby, host, "/bot add random")
    assert "/start" not in host.last_state()["legal"]
    with pytest.raises(BadOption, match="tournament is for 3 to 5 players, not 6"):
        dispatch(lobby, host, "/start")
    dispatch(lobby, host, "/bot remove bot5")
    assert host.last_state()["legal"] == ["/start"]
    dispatch(lobby, host, "/option tournament off")
    dispatch(lobby, host, "/option rounds 1")
    dispatch(lobby, host, "/start")
    while lobby.tables[1].in_game:
        clock.advance(1)
        if legal := host.last_state()["legal"]:
            dispatch(lobby, host, legal[0])
    assert host.last_state()["legal"] == ["/start"]
    dispatch(lobby, host, "/bot add random")  # six seats: rounds=1 holds for six, tournament is off
    assert host.last_state()["legal"] == ["/start"]
    dispatch(lobby, host, "/option rounds off")
    dispatch(lobby, host, "/option tournament")  # taken while seats may still change; six cannot start it
    assert "/start" not in host.last_state()["legal"]


def test_stand_ins_leave_when_their_game_is_over_so_the_next_game_is_played_only_by_those_seated() -> None:
    """A stand-in plays out the game of the person who left it, and no other: once it is over the stand-in goes,
    the person may watch or sit down again, and the host's next /start deals nobody in under an absent person's
    name (found by a probe: it did, and the person was refused /join and /watch as "already seated")."""
    clock, lobby, people = setup(n=2)
    host, cb = people
    dispatch(lobby, host, "/option rounds 1")
    dispatch(lobby, host, "/bot add random")
    dispatch(lobby, host, "/start")
    dispatch(lobby, cb, "/leave")
    table = lobby.tables[1]
    assert [s.name for s in table.seats] == ["p0", "p1", "bot1"] and table.seats[1].is_bot
    while table.in_game:
        clock.advance(1)
        if legal := host.last_state()["legal"]:
            dispatch(lobby, host, legal[0])
    assert [s.name for s in table.seats] == ["p0", "bot1"]
    assert any("the stand-in for p1 leaves the table" in m["text"] for m in host.of_type("notice"))
    assert "/start" not in host.last_state()["legal"]  # two seated: Wizard needs three
    with pytest.raises(BadCommand, match="needs 3 to 6 players; 2 seated"):
        dispatch(lobby, host, "/start")
    dispatch(lobby, cb, "/watch 1")
    assert cb in table.observers
    dispatch(lobby, cb, "/join 1")  # a watcher sits down
    assert [s.name for s in table.seats] == ["p0", "bot1", "p1"] and table.seats[2] is cb
    dispatch(lobby, host, "/start")
    assert table.game is not None and table.game.players == ["p0", "bot1", "p1"]


def test_nobody_can_flood_a_room_with_chat() -> None:
    clock, lobby, people = setup(n=3)
    for i in range(10):
        dispatch(lobby, people[0], f"line {i}")
    with pytest.raises(BadCommand, match="talking too fast"):
        dispatch(lobby, people[0], "line 10")
    with pytest.raises(BadCommand, match="talking too fast"):
        dispatch(lobby, people[0], "/tell p1 psst")
    dispatch(lobby, people[1], "others may still talk")
    clock.advance(1.0)
    dispatch(lobby, people[0], "line 11")
    assert [m["text"] for m in people[2].of_type("chat")] == [
        *(f"line {i}" for i in range(10)), "others may still talk", "line 11"]
