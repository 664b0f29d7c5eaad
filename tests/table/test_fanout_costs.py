"""What a table update costs to send: the score sheet once a change, nothing built for bots, one copy
of the sheet shared by every view; and the terminal client keeps the sheet a state leaves out."""

from __future__ import annotations

import json
from typing import Any

import pytest
from recorder import Recorder
from test_table import play_round, setup
from twisted.internet.task import Clock

from mudwiz.client.model import Model
from mudwiz.commands import dispatch
from mudwiz.games.witches.engine import PassDone
from mudwiz.games.wizard import Wizard
from mudwiz.lobby import Lobby
from mudwiz.render import jsonl
from mudwiz.table.botseat import BotSession


def sheets(p: Recorder) -> list[Any]:
    """The ``sheet`` of each state ``p`` was sent, ``...`` where it was left out."""
    return [s.get("sheet", ...) for s in p.of_type("state")]


def test_a_state_carries_the_sheet_only_when_the_viewer_lacks_it() -> None:
    clock, lobby, people = setup(confirm="0", rounds="3")
    dispatch(lobby, people[0], "/start")
    game = lobby.tables[1].game
    first = people[1].of_type("state")[-1]
    assert first["sheet"] == [], "the game's first state carries the (empty) sheet"
    play_round(lobby, people)
    states = people[1].of_type("state")
    start = states.index(first)
    during = [s for s in states[start + 1:] if s["phase"] != "roundend"]
    assert during and all("sheet" not in s and "sheet_add" not in s for s in during), "moves resend no sheet"
    ended = [s for s in states if s["phase"] == "roundend"]
    assert "sheet" not in ended[0] and ended[0]["sheet_add"] == game.sheet, "the round's end adds its row alone"
    assert all("sheet" not in s and "sheet_add" not in s for s in ended[1:]), "and only once"
    for p in people:
        dispatch(lobby, p, "/ok")
    play_round(lobby, people)
    last = people[1].last_state()
    assert "sheet" not in last and last["sheet_add"] == game.sheet[1:], "the second round's end: its row alone"
    dispatch(lobby, people[1], "/look")
    assert people[1].last_state()["sheet"] == game.sheet, "a redraw carries it whole"


def test_a_terminal_is_sent_the_whole_sheet_and_so_is_a_client_that_turned_to_json() -> None:
    """A terminal's renderer draws the sheet a state carries (beside the table, on a wide window): it gets all
    of it at a round's end. A client that was a terminal when it was sent the sheet and asks for JSON since has
    no JSON sheet to add rows to: the next round's end sends it whole."""
    clock, lobby, people = setup(confirm="0", rounds="3")
    screen, turned = Recorder(mode="ansi"), Recorder(mode="ansi")
    for name, viewer in (("screen", screen), ("turned", turned)):
        lobby.login(viewer, name)
        dispatch(lobby, viewer, "/watch 1")
    dispatch(lobby, people[0], "/start")
    game = lobby.tables[1].game
    play_round(lobby, people)
    assert screen.last_state()["sheet"] == game.sheet and "sheet_add" not in screen.last_state()
    for p in people:
        dispatch(lobby, p, "/ok")
    dispatch(lobby, turned, "/mode json")
    play_round(lobby, people)
    assert len(game.sheet) == 2
    for viewer in (screen, turned):
        assert viewer.last_state()["sheet"] == game.sheet and "sheet_add" not in viewer.last_state()


def test_a_json_reader_adding_the_rows_holds_the_whole_sheet() -> None:
    """The terminal client (``Model``) folds each round's ``sheet_add`` into the sheet it has: through a whole
    game, with redraws and a watcher who comes in late, every viewer's sheet is the game's at every round end."""
    for kinds in ("dddd", "tttt"):
        lobby, people = seated(kinds, seed=2, players=3)
        for name, value in {"confirm": "0", "rounds": "6"}.items():
            dispatch(lobby, people[0], f"/option {name} {value}")
        dispatch(lobby, people[0], "/start")
        table = lobby.tables[1]
        models = [Model() for _ in people]
        seen = [0] * len(people)
        ends = 0
        for step in range(400):
            if table.game.phase == "gameover":
                break
            if step == 30:
                dispatch(lobby, people[3], "/watch 1")
            if step % 11 == 0:
                dispatch(lobby, people[step % 3], "/look")
            for i, p in enumerate(people):
                for message in p.messages[seen[i]:]:
                    models[i].apply(json.loads(jsonl.encode(message)))
                seen[i] = len(p.messages)
            if table.game.phase == "roundend":
                ends += 1
                watching = models if step > 30 else models[:3]
                assert all(m.sheet_message()["sheet"] == table.game.sheet for m in watching), (kinds, step)
                for p in people[:3]:
                    dispatch(lobby, p, "/ok")
                continue
            mover = next(p for p in people[:3] if p.last_state()["legal"])
            dispatch(lobby, mover, mover.last_state()["legal"][-1])
        assert table.game.phase == "gameover" and ends == 5
        assert any("sheet_add" in m for m in people[1].messages), "rows were added, not the whole sent"


def test_a_new_viewer_and_a_new_game_get_the_sheet() -> None:
    clock, lobby, people = setup(confirm="0", rounds="3")
    dispatch(lobby, people[0], "/start")
    play_round(lobby, people)
    watcher = Recorder()
    lobby.login(watcher, "watcher")
    dispatch(lobby, watcher, "/watch 1")
    assert len(watcher.of_type("state")[0]["sheet"]) == 1, "a new viewer's first state carries it"
    for p in people:
        dispatch(lobby, p, "/ok")
    assert "sheet" not in watcher.last_state(), "the next round's deal does not change it"
    while lobby.tables[1].game.phase != "gameover":
        play_round(lobby, people)
        for p in people:
            if lobby.tables[1].game.phase == "roundend":
                dispatch(lobby, p, "/ok")
    dispatch(lobby, people[0], "/start")
    assert watcher.last_state()["sheet"] == [], "a new game's first state carries its empty sheet"


def test_bots_are_sent_no_states_and_no_events() -> None:
    built: list[str] = []

    class Counting(BotSession):
        def deliver(self, message: dict[str, Any], event: Any = None) -> None:
            built.append(message["type"])

    clock, lobby, people = setup(n=1)
    table = lobby.tables[1]
    for name in ("b1", "b2"):
        table.sit(Counting(name, level="random", game="wizard", seed=1, stand_in=False))
    dispatch(lobby, people[0], "/start")
    for _ in range(40):
        clock.advance(5)
        legal = people[0].last_state()["legal"]
        if legal and legal[0] != "/ok":
            dispatch(lobby, people[0], legal[0])
    assert len(table.game.log) > 10, "the bots played"
    assert "state" not in built and not {"play", "bid", "trick"} & set(built)


def test_every_view_shares_one_copy_of_the_sheet_until_it_changes() -> None:
    game = Wizard(["a", "b", "c"], {"rounds": 3}, seed=5)
    while game.phase != "roundend":
        seat = game.waiting()[0]
        game.apply(seat, str(game.legal_actions(seat)[0]))
    views = [game.view(s) for s in (0, 1, 2, None)]
    assert all(v["sheet"] is views[0]["sheet"] for v in views)
    assert views[0]["sheet"] == game.sheet and views[0]["sheet"] is not game.sheet
    assert views[0]["sheet"][0] is not game.sheet[0], "never the engine's own entries"


def test_a_new_round_on_the_sheet_is_copied_alone_and_the_old_copy_stays_as_it_was() -> None:
    """The sheet's copy grows by the new rounds' entries only: the copy views already carry is left as it was,
    and no entry of the new one is the engine's own."""
    game = Wizard(["a", "b", "c"], {"rounds": 3}, seed=5)
    copies = []
    while not game.finished:
        if game.phase == "roundend":
            copies.append(game.view(None)["sheet"])
            game.advance()
            continue
        seat = game.waiting()[0]
        game.apply(seat, str(game.legal_actions(seat)[0]))
    copies.append(game.view(None)["sheet"])
    assert [len(c) for c in copies] == [1, 2, 3], "each view holds the sheet as it was when it was built"
    assert copies[2] == game.sheet and copies[2][0] is copies[0][0], "an entry copied once is shared on"
    assert not any(entry is mine for entry, mine in zip(copies[2], game.sheet, strict=True))
    assert not any(a is b for a, b in zip(copies[2][2]["results"], game.sheet[2]["results"], strict=True))

def test_the_client_keeps_the_sheet_a_state_leaves_out() -> None:
    clock, lobby, people = setup(confirm="0", rounds="3")
    dispatch(lobby, people[0], "/start")
    play_round(lobby, people)
    for p in people:
        dispatch(lobby, p, "/ok")
    model = Model()
    for message in people[1].messages:
        model.apply(message)
    assert "sheet" not in people[1].last_state()
    sheet = model.sheet_message()
    assert sheet is not None and len(sheet["sheet"]) == 1


def test_past_the_crowd_arrivals_are_counted_not_told_one_by_one() -> None:
    from twisted.internet.task import Clock

    from mudwiz.lobby import PRESENCE_SUMMARY, Lobby, PresenceLimits

    clock = Clock()
    lobby = Lobby(clock, presence=PresenceLimits(crowd=3))
    first = Recorder()
    lobby.login(first, "first")
    for i in range(2):
        lobby.login(Recorder(), f"early{i}")
    assert [m["text"] for m in first.of_type("notice")] == ["early0 has arrived.", "early1 has arrived."]
    for i in range(5):
        lobby.login(Recorder(), f"late{i}")
    assert len(first.of_type("notice")) == 2, "with more than 3 online, nobody is told one by one"
    clock.advance(PRESENCE_SUMMARY)
    assert first.of_type("notice")[-1]["text"] == f"5 more arrived in the last {PRESENCE_SUMMARY:g} s."


def test_who_is_a_page_at_a_time_from_a_name_on() -> None:
    from twisted.internet.task import Clock

    from mudwiz.lobby import WHO_PAGE, Lobby, PresenceLimits

    lobby = Lobby(Clock(), presence=PresenceLimits(crowd=0))
    me = Recorder()
    lobby.login(me, "aaa")
    for i in range(2 * WHO_PAGE):
        lobby.login(Recorder(), f"u{i:03d}")
    dispatch(lobby, me, "/who")
    page = me.of_type("who")[-1]
    assert page["total"] == 2 * WHO_PAGE + 1 and len(page["users"]) == WHO_PAGE
    assert page["users"][0]["name"] == "aaa" and page["next"] == f"u{WHO_PAGE - 1:03d}"
    dispatch(lobby, me, f"/who {page['next'].upper()}")
    second = me.of_type("who")[-1]
    assert second["users"][0]["name"] == page["next"] and second["from"] == page["next"].upper()
    dispatch(lobby, me, "/who u03")
    last = me.of_type("who")[-1]
    assert last["users"][0]["name"] == "u030" and last["next"] is None and len(last["users"]) == 10
    assert "/who u019 lists the next 20" in "".join(render(page))


def render(message: dict[str, Any]) -> list[str]:
    from mudwiz.render.ansi import Presenter
    from mudwiz.render.style import Style

    return Presenter(Style.for_mode("ascii")).lines(message, None)


def test_who_keeps_name_order_as_people_come_and_go() -> None:
    from twisted.internet.task import Clock

    from mudwiz.lobby import Lobby

    lobby = Lobby(Clock())
    people = {name: Recorder() for name in ("Mia", "bob", "Zoe", "al", "Carl")}
    for name, session in people.items():
        lobby.login(session, name)
    lobby.disconnect(people["bob"])
    lobby.disconnect(people["Zoe"])
    lobby.login(Recorder(), "BOB")
    assert [u["name"] for u in lobby.who()] == ["al", "BOB", "Carl", "Mia"]
    assert [u["name"] for u in lobby.who("c", 2)] == ["Carl", "Mia"]


def test_an_event_each_viewer_sees_their_own_way_reaches_each_as_theirs() -> None:
    """An event's message is built once for all who see it alike, found by the seen event's identity: each
    viewer's own version (Witches' ``pass_done``, made afresh for each) must never be taken for another's that
    happens to be made at the same address once that one is freed. Five viewers: a freed version's address is
    reused within a few (CPython), which sent one player another's received cards."""
    clock, lobby, people = setup(n=4)
    watchers = [Recorder(), Recorder()]
    for i, w in enumerate(watchers):
        lobby.login(w, f"w{i}")
        dispatch(lobby, w, "/watch 1")
    table = lobby.tables[1]
    names = [p.name for p in people]
    received = [{"player": name, "from": names[i - 1], "cards": [f"R{i + 1}"]} for i, name in enumerate(names)]
    for _ in range(3):
        table.fanout.events([PassDone(received)])
        for p, mine in zip(people, received, strict=True):
            assert p.messages[-1]["received"] == [mine]
        assert all(w.messages[-1]["received"] == [] for w in watchers)


class TextRecorder(Recorder):
    """A JSON connection's session as a table sees it: it takes a state the table encoded itself."""

    texts = 0  # states taken encoded

    def wants_text(self) -> bool:
        return True

    def deliver_text(self, line: str) -> None:
        assert "\n" not in line
        self.texts += 1
        message = json.loads(line)
        assert "look" not in message, "a redraw's mark is the renderer's, never sent as JSON (render/jsonl.py)"
        self.messages.append(message)


def seated(kinds: str, seed: int, players: int) -> tuple[Lobby, list[Recorder]]:
    """A lobby with a session for each letter of ``kinds`` (``d`` one read as dicts, ``t`` one that takes JSON
    text) logged in as p0, p1, ..., and a Wizard table p0 opened and the next ``players - 1`` joined."""
    lobby = Lobby(Clock(), grace=30.0, bot_delay=0.5, seed=seed)
    people = [TextRecorder() if kind == "t" else Recorder() for kind in kinds]
    for i, p in enumerate(people):
        lobby.login(p, f"p{i}")
    dispatch(lobby, people[0], "/new wizard")
    for p in people[1:players]:
        dispatch(lobby, p, "/join 1")
    return lobby, people


def played(kinds: str, **opts: str) -> list[list[dict[str, Any]]]:
    """What each of three players and a watcher (``kinds``: ``d`` a session read as dicts, ``t`` one that takes
    JSON text) is sent over a seeded game of Wizard played to its end with a ``/look`` now and then and the
    watcher leaving and coming back, as the JSON lines of a connection carry it."""
    lobby, people = seated(kinds, seed=1, players=3)
    dispatch(lobby, people[3], "/watch 1")
    for name, value in {"confirm": "0", "rounds": "5", **opts}.items():
        dispatch(lobby, people[0], f"/option {name} {value}")
    dispatch(lobby, people[0], "/start")
    table = lobby.tables[1]
    for step in range(300):
        if table.game.phase == "gameover":
            break
        if step % 7 == 0:
            dispatch(lobby, people[step % 4], "/look")
        if step in (40, 60):  # the watcher leaves and comes back: the states' heads name the observers
            dispatch(lobby, people[3], "/leave" if step == 40 else "/watch 1")
        if table.game.phase == "roundend":
            for p in people[:3]:
                dispatch(lobby, p, "/ok")
            continue
        for p in people[:3]:
            legal = p.last_state()["legal"]
            if legal and legal[0] not in ("/ok", "/start"):
                dispatch(lobby, p, legal[-1])
                break
    assert table.game.phase == "gameover"
    split = "hiddentip" not in opts  # hidden bids: every state built whole
    texts = [p.texts for p in people if isinstance(p, TextRecorder)]
    assert all((n > 20) == split for n in texts) and (not texts or (max(texts) > 60) == split)
    return [[json.loads(jsonl.encode(m)) for m in p.messages] for p in people]


@pytest.mark.parametrize("options", [{}, {"hiddentip": "on"}])
def test_json_viewers_taking_encoded_states_are_sent_what_every_viewer_is_sent(options: dict[str, str]) -> None:
    """A table encodes its JSON viewers' states from the engine's split views (the fields all see alike once):
    every message is what the same viewer reading the dicts would be sent, the sheet left out alike, at an
    all-JSON table, a mixed one, and a game whose views do not split (hidden bids)."""
    dicts = played("dddd", **options)
    assert sum(m["type"] == "state" for m in dicts[0]) > 60
    assert any("sheet" in m for m in dicts[3][5:]) and any("sheet" not in m for m in dicts[3])
    assert played("tttt", **options) == dicts
    assert played("tdtd", **options) == dicts


def round_end_changes(kinds: str) -> list[list[dict[str, Any]]]:
    """What four players (``kinds`` as ``played``'s) are sent through a round's end at which, between the
    ``/ok``s, a player drops and the game's options change, and later the player comes back: the views a round
    end keeps for its ``/ok``s (``FanOut._split``) must show each, to the next to confirm and to a redraw."""
    lobby, people = seated(kinds, seed=3, players=4)
    dispatch(lobby, people[0], "/option rounds 3")
    dispatch(lobby, people[0], "/start")
    table = lobby.tables[1]
    while table.game.phase != "roundend":
        mover = next(p for p in people if p.last_state()["legal"])
        dispatch(lobby, mover, mover.last_state()["legal"][-1])
    kept = table.fanout._round_end
    dispatch(lobby, people[0], "/ok")
    if "t" in kinds:  # the first /ok's states were built from the views the round's last move kept
        assert kept is not None and table.fanout._round_end is kept
    lobby.disconnect(people[3])  # away now: the others' next states say so
    table.game.options["notequal"] = not table.game.options["notequal"]  # as a test elsewhere sets one mid-game
    dispatch(lobby, people[1], "/ok")  # p2 is still waited for
    dispatch(lobby, people[0], "/look")
    lobby.clock.advance(5)  # type: ignore[attr-defined]  # a Clock: p3 has been away for a while
    dispatch(lobby, people[1], "/look")
    away = people[1].last_state()
    back = TextRecorder() if kinds[3] == "t" else Recorder()
    lobby.login(back, "p3")  # and comes back to the seat: no longer away, for no time
    dispatch(lobby, people[0], "/look")
    assert table.game.phase == "roundend"
    p3 = [next(p for p in state["players"] if p["name"] == "p3") for state in (away, people[0].last_state())]
    assert p3[0]["away"] and p3[0]["away_for"] > 0, "p1's look: p3 away for a while"
    assert not p3[1]["away"] and "away_for" not in p3[1], "p0's look after: p3 back"
    return [[json.loads(jsonl.encode(m)) for m in p.messages] for p in people[:3]]


def test_the_views_a_round_end_keeps_show_what_changed_without_a_move() -> None:
    dicts = round_end_changes("dddd")
    for p in dicts[:2]:
        last = [m for m in p if m["type"] == "state"][-1]
        assert last["options"].get("notequal") and "/ok" not in last["legal"]
    assert round_end_changes("tttd") == dicts
    assert round_end_changes("tdtd") == dicts
