"""Issue #20, the renderer's side: a first-time player at a telnet prompt can tell at every moment what the
table shows and what it waits for.

Games are played at a real table (fake clock, no sockets) by people who type their first legal move; each
person's messages go through the terminal renderer exactly as a telnet connection's would, in ASCII mode so
the lines can be read back as text.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import takewhile
from typing import Any

import pyte
import pytest
from recorder import Recorder
from twisted.internet.task import Clock

from mudwiz.commands import dispatch
from mudwiz.games.base import Event
from mudwiz.lobby import Lobby
from mudwiz.render.ansi import Presenter
from mudwiz.render.style import Style, strip_ansi, to_ascii, visible_len


class Screen(Recorder):
    """A person whose messages are also rendered as their terminal would show them (ASCII mode)."""

    def __init__(self) -> None:
        super().__init__()
        self.presenter = Presenter(Style.for_mode("ascii"))
        self.lines: list[str] = []
        self.drawn: list[tuple[dict[str, Any], list[str]]] = []  # each message with the lines it drew

    def deliver(self, message: dict[str, Any], event: Event | None = None) -> None:
        super().deliver(message, event)
        lines = self.presenter.lines(message, event)
        self.lines += lines
        self.drawn.append((message, lines))

    def shown(self, command: str, lobby: Lobby) -> list[str]:
        """The lines ``command`` puts on this person's screen."""
        before = len(self.lines)
        dispatch(lobby, self, command)
        return self.lines[before:]


def seated(game: str, *names: str, options: tuple[str, ...] = ()) -> tuple[Lobby, list[Screen]]:
    """A table of ``game`` opened by the first of ``names``, the others seated, ``options`` set: not started."""
    lobby = Lobby(Clock(), grace=30, bot_delay=0.5, seed=3)
    people = [Screen() for _ in names]
    for person, name in zip(people, names, strict=True):
        lobby.login(person, name)
    dispatch(lobby, people[0], f"/new {game}")
    for person in people[1:]:
        dispatch(lobby, person, "/join 1")
    for option in options:
        dispatch(lobby, people[0], f"/option {option}")
    return lobby, people


def play(lobby: Lobby, people: list[Screen], until: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    """Everyone types a legal move when the game waits on them, and /ok after a round, until ``until`` holds for
    the first person's state; that state."""
    table = lobby.tables[1]
    for _ in range(2000):
        state = people[0].last_state()
        if until(state):
            return state
        for person in people:
            mine = person.last_state()
            if "/ok" in mine["legal"]:
                dispatch(lobby, person, "/ok")
                break
            if person.name in mine["waiting"]:
                move = table.bots.any_move(table.seat_of(person.name))  # concrete: a Witches pass names its cards
                dispatch(lobby, person, f"/{move}")
                break
        else:
            lobby.clock.advance(1)  # bots
    raise AssertionError("the game never came to the state looked for")


def player_rows(lines: list[str]) -> dict[str, str]:
    """The player rows of the last table view in ``lines``, by name, in the order drawn."""
    start = max(i for i, line in enumerate(lines) if line.startswith("   player"))
    rows = {}
    for line in lines[start + 1:]:
        if line[:3] not in ("   ", " > ") or not line[3:4].strip():
            break
        rows[line[3:19].strip()] = line
    return rows


def screen(lines: list[str], rows: int = 24) -> pyte.Screen:
    """The lines as an 80-column terminal shows them (each followed by CR LF, as the server sends them)."""
    term = pyte.Screen(80, rows)
    pyte.Stream(term).feed("".join(f"{line}\r\n" for line in lines))
    return term


def used_rows(term: pyte.Screen) -> int:
    return sum(1 for row in term.display if row.strip())


def test_typographic_punctuation_folds_to_its_ascii_look_alike() -> None:
    text = "\u201cHi\u201d \u2014 it\u2019s \u2018ok\u2019\u2026 \u2022 one \u2013 two \u00abx\u00bb 3\u22122"
    assert to_ascii(text) == "\"Hi\" - it's 'ok'... * one - two <<x>> 3-2"
    assert Style.for_mode("ascii").text("caf\u00e9 na\u00efve \u65e5\u672c") == "cafe naive ??"
    assert to_ascii("e\u0301te\u0301") == "ete"  # combining marks typed apart go, like those of composed accents
    assert to_ascii("\ufb01\u2014") == "fi-"  # a compatibility form and a dash in one text: neither is lost
    assert to_ascii("\u00d8yvind Stra\u00dfe \u0141\u00f3d\u017a") == "Oyvind Strasse Lodz"


# ---------------------------------------------------------------- /option


def test_option_lines_fit_80_columns_broken_between_words_with_the_help_aligned() -> None:
    for game in ("wizard", "witches", "tiltowait"):
        lobby, (alice,) = seated(game, "alice")
        dispatch(lobby, alice, "/option")
        message = alice.of_type("options")[-1]
        lines = alice.presenter.lines(message)
        term = screen(lines, rows=40)
        assert used_rows(term) == len(lines), game  # no line spilled onto the next row
        rows = lines[1:-1]
        for option in message["options"]:  # each option's help, word for word, in a column of its own
            first = next(i for i, line in enumerate(rows) if line.split()[:1] == [option["name"]])
            words = str(option["help"]).split()  # a game's help is a ``Later`` (its catalog's), read as a str
            column = rows[first].index(words[0])
            rest = rows[first + 1:]
            block = [rows[first], *rest[:len(list(takewhile(str.isspace, (line[:column] for line in rest))))]]
            assert " ".join(line[column:] for line in block).split() == words, option["name"]
            assert all(line[column - 1] == " " and line[column] != " " for line in block)


# ---------------------------------------------------------------- the table view


@pytest.mark.parametrize("game", ["wizard", "witches"])
def test_rows_run_in_trick_order_from_the_leader_marked_and_the_score_sheet_keeps_seat_order(game: str) -> None:
    """Seed 002: the trick's leader is drawn first and the others in turn (so the card column reads in play
    order); the seats themselves do not move."""
    lobby, people = seated(game, "alice", "bob", "carol", "dave")
    alice = people[0]
    dispatch(lobby, alice, "/start")
    seats = [p["name"] for p in alice.last_state()["players"]]
    state = play(lobby, people, lambda s: s["phase"] == "playing" and len(s["trick"]) == 2 and s["leader"] != seats[0])
    rows = player_rows(alice.shown("/look", lobby))
    lead = seats.index(state["leader"])
    assert list(rows) == seats[lead:] + seats[:lead]
    for played, row in zip(state["trick"], rows.values(), strict=False):
        assert f" {played['card']} " in f"{row} "  # the trick so far, top down
    assert list(rows.values())[0].endswith("  led")
    assert not any("led" in row or "leads" in row for row in list(rows.values())[1:])
    state = play(lobby, people, lambda s: s["phase"] == "playing" and not s["trick"] and s["leader"] != seats[0])
    rows = player_rows(alice.shown("/look", lobby))
    assert list(rows)[0] == state["leader"] and list(rows.values())[0].endswith("  leads")
    sheet = alice.shown("/score", lobby)
    assert sheet[1].split()[1:] == seats


def test_a_dropped_player_is_marked_away_and_the_bot_in_their_seat_a_stand_in() -> None:
    lobby, (alice, bob, carol) = seated("wizard", "alice", "bob", "carol")
    dispatch(lobby, alice, "/bot add")  # an ordinary bot: nobody's seat, no mark
    dispatch(lobby, alice, "/start")
    lobby.disconnect(bob)
    rows = player_rows(alice.shown("/look", lobby))
    assert rows["bob"].endswith(" away 0:30"), "the seat is kept 30 s (the test lobby's grace)"
    assert not any(row.endswith(("away", "(stand-in)")) for name, row in rows.items() if name != "bob")
    assert [p.get("stand_in") for p in alice.last_state()["players"]] == [False] * 4
    lobby.clock.advance(lobby.grace)  # bob does not come back: a bot plays his seat
    rows = player_rows(alice.shown("/look", lobby))
    assert rows["bob"].endswith(" (stand-in)") and "away" not in rows["bob"]
    assert not rows["bot1"].endswith("(stand-in)")
    players = {p["name"]: p for p in alice.last_state()["players"]}
    assert (players["bob"]["stand_in"], players["bob"]["bot"]) == (True, True)
    assert (players["bot1"]["stand_in"], players["bot1"]["bot"]) == (False, True)


def test_clairvoyance_rows_say_which_card_a_player_holds_and_nothing_once_it_is_played() -> None:
    lobby, people = seated("wizard", "alice", "bob", "carol", options=("clairvoyance",))
    alice = people[0]
    dispatch(lobby, alice, "/start")
    lines = alice.shown("/look", lobby)
    assert " Clairvoyance: you see the card each other player holds, never your own." in lines
    rows = player_rows(lines)
    held = {p["name"]: p["cards"] for p in alice.last_state()["players"] if "cards" in p}
    assert sorted(held) == ["bob", "carol"]
    for name, cards in held.items():
        assert rows[name].endswith(f"holds {cards[0]}")
    assert "holds" not in rows["alice"]
    state = play(lobby, people, lambda s: len(s["trick"]) == 2)
    lines = alice.shown("/look", lobby)
    rows = player_rows(lines)
    for played in state["trick"]:
        assert "holds" not in rows[played["player"]] and rows[played["player"]].rstrip().endswith(
            (played["card"], "led"))
    assert not any("sees" in line for line in lines)


def test_the_widest_row_still_fits_80_columns() -> None:
    """Six 16-character names; the leader of round 1 under clairvoyance has left, so their row carries every
    mark at once: leads, (stand-in), holds CARD."""
    names = [f"Longname{i:02d}xxxxxx" for i in range(6)]
    lobby, people = seated("wizard", *names, options=("clairvoyance",))
    dispatch(lobby, people[0], "/start")
    leader = people[0].last_state()["leader"]
    gone = next(p for p in people if p.name == leader)
    dispatch(lobby, gone, "/leave")
    viewer = next(p for p in people if p is not gone)
    for style in (Style.for_mode("ascii"), Style.for_mode("ansi")):
        viewer.presenter = Presenter(style)
        lines = viewer.shown("/look", lobby)
        assert max(map(visible_len, lines)) <= 80 and len(lines) < 24
        row = next(strip_ansi(line) for line in lines if strip_ansi(line)[3:].startswith(leader))
        card = viewer.last_state()["players"][names.index(leader)]["cards"][0]
        assert row.endswith(f"  leads, (stand-in), holds {card}")


def test_look_at_a_finished_table_shows_the_final_standings() -> None:
    lobby, people = seated("wizard", "alice", "bob", "carol", options=("rounds 2",))
    dispatch(lobby, people[0], "/start")
    state = play(lobby, people, lambda s: s["phase"] == "gameover")
    wendy = Screen()
    lobby.login(wendy, "wendy")
    for lines in (people[1].shown("/look", lobby), wendy.shown("/watch 1", lobby)):
        ranked = [f"{r['place']:>2}. {r['player']:<16} {r['score']:>7}" for r in state["standings"]]
        shown = [line.strip() for line in lines]
        assert [shown.index(r.strip()) for r in ranked] == sorted(shown.index(r.strip()) for r in ranked)
        assert "-- Wizard - game over: final standings --" in lines[-len(ranked) - 3]
        assert "/score shows the sheet" in lines[-1]


def test_the_round_end_shows_who_has_typed_ok_and_whom_the_next_round_waits_for() -> None:
    lobby, people = seated("wizard", "alice", "bob", "carol", options=("rounds 2", "confirm 0"))
    alice, bob, carol = people
    dispatch(lobby, alice, "/bot add")  # bots are never waited for
    dispatch(lobby, alice, "/start")
    play(lobby, people, lambda s: s["phase"] == "roundend")
    assert any(line.startswith(" Round over: type /ok") for line in bob.lines[-3:])
    before = len(bob.lines)
    dispatch(lobby, alice, "/ok")
    assert bob.lines[before:] == [" Ready (/ok): alice. Waiting for bob, carol."]
    look = carol.shown("/look", lobby)
    assert look[0].startswith("-- Wizard - round 1/2") and " Ready (/ok): alice. Waiting for bob, carol." in look
    before = len(carol.lines)
    dispatch(lobby, bob, "/ok")
    assert carol.lines[before:] == [" Ready (/ok): alice, bob. Waiting for carol."]
    dispatch(lobby, carol, "/ok")
    assert carol.last_state()["round"] == 2


def test_each_taken_trick_is_shown_with_its_taker_then_the_table_again() -> None:
    """The table is drawn again after every trick (to players and to observers alike), and the view says what
    the trick held and who took it; the last trick of a round is followed by the round's result."""
    lobby, people = seated("wizard", "alice", "bob", "carol", options=("rounds 4",))
    wendy = Screen()
    lobby.login(wendy, "wendy")
    dispatch(lobby, wendy, "/watch 1")
    dispatch(lobby, people[0], "/start")
    play(lobby, people, lambda s: s["phase"] == "gameover")
    for person in (*people, wendy):
        tricks = [i for i, (m, _) in enumerate(person.drawn) if m["type"] == "trick"]
        assert len(tricks) == 1 + 2 + 3 + 4
        for i in tricks:
            trick, lines = person.drawn[i]
            winner = trick["winner"]
            state, view = next((m, drawn) for m, drawn in person.drawn[i:] if m["type"] == "state")
            if state["phase"] not in ("roundend", "gameover"):
                cards = ", ".join(f"{c['player']} {c['card']}" for c in trick["cards"])
                assert view[:1] == ["-- Wizard - round " + view[0][18:]], (person.name, view)
                assert f" Last trick, taken by {winner}: {cards}." in view, (person.name, view)
                assert list(player_rows(view))[0] == winner  # who leads the next trick
            won_with = next(c["card"] for c in trick["cards"] if c["player"] == winner)
            assert lines == [f"{winner} wins the trick with {won_with}."]


def test_a_wide_windows_sheet_beside_the_table_is_the_sheet_as_it_stands() -> None:
    """A round end's state carries the new sheet once, and draws no table for it: the sheet beside the next
    round's tables stayed a round (or more) behind their scores, or was missing (found by a probe)."""
    lobby, people = seated("wizard", "ann", "bob", "cy", options=("rounds 4",))
    for person in people:
        person.presenter = Presenter(Style.for_mode("ascii", 160))
        person.mode = "ascii"  # a terminal's: sent the sheet whole when it changes, never its added rows
    dispatch(lobby, people[0], "/start")
    checked = 0
    for round_ in (2, 3, 4):
        play(lobby, people, lambda s, r=round_: s["round"] == r and s["phase"] == "bidding")  # type: ignore[misc]
        drawn = [lines for message, lines in people[0].drawn if message.get("type") == "state" and lines][-1]
        sheet_rows = [line[82:] for line in drawn if line[82:].strip()[:1].isdigit()]
        assert len(sheet_rows) == round_ - 1, drawn  # one row a round scored, beside every table drawn
        checked += 1
    assert checked == 3


@pytest.mark.parametrize(("game", "unit"), [("witches", "Hand"), ("tiltowait", "Hand"), ("wizard", "Round")])
def test_the_line_after_a_result_names_what_the_game_calls_a_deal(game: str, unit: str) -> None:
    """'Hand 1 result', then 'Round over: type /ok ... the next round' in the games that deal hands."""
    lobby, people = seated(game, "alice", "bob", "carol", options=("confirm 0",))
    dispatch(lobby, people[0], "/start")
    play(lobby, people, lambda s: s["phase"] == "roundend")
    assert any(line.startswith(f" {unit} over: type /ok when ready for the next {unit.lower()}")
               for line in people[1].lines[-3:]), people[1].lines[-3:]
