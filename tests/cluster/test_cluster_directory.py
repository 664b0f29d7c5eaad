"""One node's table directory and visits without processes: a real Lobby and ClusterTables on an unstarted bus,
fed the messages other nodes would publish (``Bus.received``), what it publishes caught by a stand-in for the
Redis client (a third-party connection, not our code). What is listed, what is held and proved, where a line goes,
and what a user is told when the table's node does not answer."""

from __future__ import annotations

import json
from typing import Any

import pytest
from published import Published
from recorder import Recorder
from twisted.internet import task

from mudwiz.cluster.service import ClusterService
from mudwiz.cluster.tables import ClusterTables, code_hash
from mudwiz.cluster.unheard import UNHEARD_WAIT
from mudwiz.cluster.visits import ANSWER_WITHIN
from mudwiz.commands import dispatch
from mudwiz.directories import join_cluster
from mudwiz.errors import MudwizError
from mudwiz.lobby import Lobby


@pytest.fixture
def node() -> tuple[Lobby, ClusterTables, task.Clock, Published]:
    clock = task.Clock()
    lobby = Lobby(clock)
    cluster = ClusterService("redis://localhost:1/0", "n1", clock, failed=lambda why: None)
    part = join_cluster(lobby, cluster, clock).tables
    redis = Published(cluster.bus)
    cluster.bus.redis = redis
    part.ids = list(range(201, 301))  # as if drawn from a store
    return lobby, part, clock, redis


def hear(part: ClusterTables, message: dict[str, Any], sender: str = "n2") -> None:
    part.bus.received("mudwiz:all", json.dumps({**message, "from": sender}))


def entry(table: int, node: str = "n2", held: dict[str, Any] | None = None,
          people: dict[str, Any] | None = None) -> dict[str, Any]:
    summary = {"id": table, "game": "wizard", "status": "playing", "host": "Eve", "players": ["Eve", "Bob"],
               "observers": 0, "seats": "2/6"}
    return {"id": table, "node": node, "summary": summary, "held": held or {}, "people": people or {}}


def login(lobby: Lobby, name: str) -> Recorder:
    session = Recorder()
    lobby.login(session, name)
    return session


def test_tables_lists_every_nodes_tables_by_number_and_numbers_come_from_the_block(node: Any) -> None:
    lobby, part, clock, redis = node
    hear(part, {"op": "table_up", "table": entry(7)})
    ann = login(lobby, "Ann")
    table = lobby.new_table(ann, "wizard")
    assert table.id == 201  # the node's block, not 1
    assert [t["id"] for t in lobby.table_summaries()] == [7, 201]
    part.publish()
    [(channel, up)] = [(c, m) for c, m in redis.sent if m["op"] == "table_up"]
    assert channel == "mudwiz:all" and up["table"]["summary"] == table.summary() and up["table"]["held"] == {}
    assert up["table"]["people"] == {"ann": {"spelling": "Ann", "code_hash": code_hash(lobby.resume_codes["ann"]),
                                             "home": "n1"}}
    part.publish()  # nothing changed: nothing sent
    assert len([m for _, m in redis.sent if m["op"] == "table_up"]) == 1
    hear(part, {"op": "table_gone", "id": 7}, sender="n3")  # not n3's table: ignored
    assert [t["id"] for t in lobby.table_summaries()] == [7, 201]
    hear(part, {"op": "table_gone", "id": 7})
    assert [t["id"] for t in lobby.table_summaries()] == [201]


def test_a_seat_held_elsewhere_is_proved_by_its_code_and_asked_for(node: Any) -> None:
    lobby, part, clock, redis = node
    code = "7KQ-92M-XW4"
    hear(part, {"op": "table_up", "table": entry(7, held={"bob": {"spelling": "Bob", "code_hash": code_hash(code)}})})
    assert lobby.holds_name("BOB") and lobby.needs_resume_code("bob") and lobby.held_spelling("bob") == "Bob"
    assert not lobby.resume_code_matches("bob", "222-333-444", "10.0.0.1")
    assert lobby.resume_code_matches("bob", "7kq 92m xw4", "10.0.0.1")
    bob = login(lobby, "bob")
    assert (bob.name, bob.elsewhere, lobby.resume_code(bob)) == ("Bob", ("n2", 7, True), code)
    [(channel, ask)] = [(c, m) for c, m in redis.sent if m["op"] == "reattach"]
    assert channel == "mudwiz:node:n2" and (ask["name"], ask["code"], ask["registered"]) == ("Bob", code, False)


def test_a_visitor_is_promised_a_takeover_only_when_redis_is_there_to_give_one(node: Any) -> None:
    """In a Redis outage every node takes the others for gone, but nothing is taken over (docs/scaling.md): a
    visitor and a remote watcher were told 'another takes the table over in a few seconds', which never came
    (found by a probe)."""
    lobby, part, clock, redis = node
    hear(part, {"op": "table_up", "table": entry(7)})
    hear(part, {"op": "table_up", "table": entry(8, node="n3")}, sender="n3")
    ann, cy = login(lobby, "ann"), login(lobby, "cy")
    ann.elsewhere, cy.elsewhere = ("n2", 7, True), ("n3", 8, False)
    part.bus.subscribed_at = None  # Redis away
    part._node_gone("n2")
    assert ann.messages[-1]["text"] == ("the server process of table 7 cannot be reached; the server's processes "
                                        "cannot reach each other now; your seat is kept: log in again in a minute")
    part.bus.subscribed_at = clock.seconds()  # Redis back, and there without a break since
    clock.advance(part.nodes.dead_after)
    part._node_gone("n3")
    assert cy.messages[-1]["text"] == ("the server process of table 8 stopped; another takes the table over in a "
                                       "few seconds, and you watch it there again")


def test_a_dead_nodes_players_are_all_held_until_its_tables_are_taken_over(node: Any) -> None:
    lobby, part, clock, redis = node
    people = {"eve": {"spelling": "Eve", "code_hash": None, "home": "n2"}}
    hear(part, {"op": "table_up", "table": entry(7, people=people)})
    assert not lobby.holds_name("eve")  # connected there
    part._node_gone("n2")
    assert lobby.holds_name("eve") and lobby.held_spelling("EVE") == "Eve" and not lobby.needs_resume_code("eve")
    eve = login(lobby, "eve")  # an account's password proved it: she waits for the table's new host
    assert eve.elsewhere == ("n2", 7, True) and "not answering" in eve.messages[-1]["text"]
    assert not [m for _, m in redis.sent if m["op"] == "reattach"]
    hear(part, {"op": "table_up", "table": entry(7, node="n3", held={"eve": people["eve"]})}, sender="n3")
    [(channel, ask)] = [(c, m) for c, m in redis.sent if m["op"] == "reattach"]
    assert channel == "mudwiz:node:n3" and eve.elsewhere == ("n3", 7, True)
    hear(part, {"op": "taken_over", "dead": "n2", "tables": [7]}, sender="n3")
    assert [t["id"] for t in lobby.table_summaries()] == [7]


def test_a_visitors_seat_is_held_once_their_own_node_is_gone(node: Any) -> None:
    lobby, part, clock, redis = node
    people = {"bob": {"spelling": "Bob", "code_hash": code_hash("7KQ-92M-XW4"), "home": "n3"}}
    hear(part, {"op": "table_up", "table": entry(7, people=people)})
    assert not lobby.holds_name("bob")
    part._node_gone("n3")  # the table's node keeps his seat; it may not have said so yet
    assert lobby.needs_resume_code("bob") and lobby.held_spelling("bob") == "Bob"


def forward(part: ClusterTables, session: Recorder, line: str) -> list[Any]:
    answers: list[Any] = []
    taken = part.visits.forward(session, line, answers.append, answers.append)
    return answers if taken else ["here"]


def test_a_join_of_a_table_not_heard_of_asks_the_other_nodes_and_goes_on_with_their_answers(node: Any) -> None:
    lobby, part, clock, redis = node
    for other in ("n2", "n3"):
        hear(part, {"op": "beat"}, sender=other)
    ann = login(lobby, "Ann")
    redis.sent.clear()
    nowhere = forward(part, ann, "/join 8")
    [(channel, asked)] = [(c, m) for c, m in redis.sent if m["op"] == "which_table"]
    assert channel == "mudwiz:all" and asked["id"] == 8 and nowhere == []
    clock.advance(UNHEARD_WAIT)  # a lagging bus is waited for, not guessed at
    hear(part, {"op": "table_is", "id": 8, "table": None}, sender="n2")
    assert nowhere == []
    hear(part, {"op": "table_is", "id": 8, "table": None}, sender="n3")  # nobody's: said at once
    assert [str(e) for e in nowhere] == ["there is no table 8; /tables lists them"]

    redis.sent.clear()
    somewhere = forward(part, ann, "/join 9")
    hear(part, {"op": "table_is", "id": 9, "table": None}, sender="n2")
    hear(part, {"op": "table_is", "id": 9, "table": entry(9, node="n3")}, sender="n3")  # before its word
    [(channel, cmd)] = [(c, m) for c, m in redis.sent if m["op"] == "cmd"]
    assert channel == "mudwiz:node:n3" and cmd["line"] == "/join 9" and somewhere == []
    assert [t["id"] for t in lobby.table_summaries()] == [9]

    unanswered = forward(part, ann, "/watch 10")
    hear(part, {"op": "table_is", "id": 10, "table": None}, sender="n2")  # n3 says nothing
    clock.advance(ANSWER_WITHIN)
    assert [str(e) for e in unanswered] == ["there is no table 10; /tables lists them"]

    redis.sent.clear()
    table = lobby.new_table(login(lobby, "Bob"), "wizard")
    hear(part, {"op": "which_table", "id": table.id}, sender="n2")  # asked: ours, said with its entry
    hear(part, {"op": "which_table", "id": 77}, sender="n3")
    answers = [(c, m["id"], m["table"] and m["table"]["node"]) for c, m in redis.sent if m["op"] == "table_is"]
    assert answers == [("mudwiz:node:n2", table.id, "n1"), ("mudwiz:node:n3", 77, None)]


def test_which_lines_go_to_the_tables_node_and_what_an_unanswered_one_costs(node: Any) -> None:
    lobby, part, clock, redis = node
    hear(part, {"op": "table_up", "table": entry(7)})
    ann = login(lobby, "Ann")
    unheard = forward(part, ann, "/join 8")  # nobody here knows table 8: it may have just opened elsewhere
    clock.advance(UNHEARD_WAIT)
    assert [str(e) for e in unheard] == ["there is no table 8; /tables lists them"]  # nor did it
    opening = forward(part, ann, "/watch 9")
    hear(part, {"op": "table_up", "table": entry(9, node="n3")}, sender="n3")  # it did: the line goes there
    [(channel, cmd)] = [(c, m) for c, m in redis.sent if m["op"] == "cmd"]
    assert channel == "mudwiz:node:n3" and cmd["line"] == "/watch 9" and opening == []
    hear(part, {"op": "reply", "rid": cmd["rid"], "error": "you are banned from watching"}, sender="n3")
    assert [str(e) for e in opening] == ["you are banned from watching"]
    clock.advance(UNHEARD_WAIT)
    assert len(opening) == 1
    redis.sent.clear()
    assert forward(part, ann, "hello") == ["here"]  # lobby chat
    assert forward(part, ann, "/join 7") == []  # sent; the answer comes later
    [(channel, cmd)] = [(c, m) for c, m in redis.sent if m["op"] == "cmd"]
    assert channel == "mudwiz:node:n2" and cmd["line"] == "/join 7" and cmd["name"] == "Ann"
    hear(part, {"op": "at", "to": "Ann", "table": 7, "seated": True})
    hear(part, {"op": "reply", "rid": cmd["rid"], "ok": "you sit at table 7"})
    assert ann.elsewhere == ("n2", 7, True)
    for line in ("hello", "/play R3", "/ok", "/leave", "/look", "/bot add", "/help", "/rules", "/spells"):
        assert forward(part, ann, line) == [], line  # /help, /rules, /spells: the table's game is known there
    for line in ("/who", "/tell Bob hi", "/tables", "/mode ascii"):
        assert forward(part, ann, line) == ["here"], line
    refused = forward(part, ann, "/join 201")
    assert str(refused[0]) == "you are at table 7; /leave it first"
    waiting = forward(part, ann, "/score")
    clock.advance(ANSWER_WITHIN - 0.1)
    assert waiting == []
    clock.advance(0.1)  # no answer in time: one line, never a hang
    assert isinstance(waiting[0], MudwizError) and str(waiting[0]) == (
        "table 7 is on a server process that is not answering; try again in a few seconds")
    hear(part, {"op": "deliver", "to": "ann", "message": {"type": "notice", "text": "from the table"}})
    assert ann.messages[-1] == {"type": "notice", "text": "from the table"}
    part.bus.subscribed_at = clock.seconds() - part.nodes.dead_after  # Redis there all along: a takeover comes
    part._node_gone("n2")
    assert "stopped" in ann.messages[-1]["text"]
    unanswered = forward(part, ann, "/play R3")
    assert str(unanswered[0]).startswith("table 7 is on a server process that is not answering")
    assert forward(part, ann, "/help") == ["here"], "help never fails: answered at home when the host is gone"
    assert forward(part, ann, "/leave") == ["you leave table 7"] and ann.elsewhere is None


def test_a_visitor_is_sent_what_the_table_says_drawn_for_them_and_a_turns_messages_in_one_publish(
        node: Any) -> None:
    """The host draws a visitor's messages as their home would (mode, width, charset: ``drawn``), so their home
    writes them as they are; everything a turn sends one process is one PUBLISH. Chat stays a message: the home's
    /ignore reads it."""
    lobby, part, clock, redis = node
    ann = login(lobby, "Ann")
    dispatch(lobby, ann, "/new wizard")
    assert ann.table is not None
    table = ann.table.id
    redis.sent.clear()
    redis.publishes.clear()
    drawn = {"mode": "ansi", "width": 60, "charset": "ascii"}
    hear(part, {"op": "cmd", "rid": "n2:1", "name": "Vic", "line": f"/join {table}", "mode": "ansi",
                "charset": "ascii", "registered": False, "code": None, "drawn": drawn})
    dispatch(lobby, ann, "/say hello")
    to_home = [m for c, m in redis.sent if c == "mudwiz:node:n2"]
    assert [n for c, n in redis.publishes if c == "mudwiz:node:n2"] == [len(to_home)] and len(to_home) > 3
    views = [m for m in to_home if m["op"] == "drawn"]
    assert views and not [m for m in to_home if m["op"] == "deliver" and m["message"]["type"] != "chat"]
    text = "\n".join(m["text"] for m in views)
    assert "\x1b[" in text and text.isascii()  # ANSI colour, no glyph beyond ASCII: as the home said
    assert all(len(line) <= 60 + 40 for line in text.split("\n"))  # its width (escapes take no cells)
    assert any(m["live"] for m in views)  # the table's view: never behind the home's pager
    [said] = [m for m in to_home if m["op"] == "deliver"]
    assert said["message"]["type"] == "chat" and said["message"]["text"] == "hello"
    [reply] = [m for m in to_home if m["op"] == "reply"]
    assert reply["rid"] == "n2:1" and "error" not in reply

    redis.sent.clear()  # the home says so when the visitor's window or mode changes: drawn so from then on
    hear(part, {"op": "update", "name": "Vic", "mode": "ascii", "charset": "utf-8", "registered": False,
                "code": None, "drawn": {"mode": "ascii", "width": 50, "charset": "utf-8"}})
    dispatch(lobby, ann, "/option rounds 2")
    text = "\n".join(m["text"] for c, m in redis.sent if c == "mudwiz:node:n2" and m["op"] == "drawn")
    assert text and "\x1b[" not in text and all(len(line) <= 50 for line in text.split("\n")), text


class Screen(Recorder):
    """A home's user whose messages are drawn (a terminal at ``width``): what comes drawn, as it comes."""

    def __init__(self) -> None:
        super().__init__()
        self.width = 80
        self.drawn: list[tuple[str, bool]] = []

    def drawn_as(self) -> dict[str, Any] | None:
        return {"mode": "ansi", "width": self.width, "charset": "utf-8"}

    def deliver_drawn(self, text: str, live: bool) -> None:
        self.drawn.append((text, live))


def test_a_home_writes_what_comes_drawn_and_tells_the_host_when_the_window_changes(node: Any) -> None:
    lobby, part, clock, redis = node
    hear(part, {"op": "table_up", "table": entry(7)})
    tim = Screen()
    lobby.login(tim, "Tim")
    assert forward(part, tim, "/join 7") == []
    [(_, cmd)] = [(c, m) for c, m in redis.sent if m["op"] == "cmd"]
    assert cmd["drawn"] == {"mode": "ansi", "width": 80, "charset": "utf-8"}
    hear(part, {"op": "drawn", "to": "tim", "text": "the table, drawn", "live": True})
    assert tim.drawn == [("the table, drawn", True)] and not redis.ops("update")
    tim.width = 60  # the window narrowed (telnet NAWS), with no line typed
    hear(part, {"op": "drawn", "to": "tim", "text": "drawn at 80", "live": False})
    [(channel, update)] = redis.ops("update")
    assert channel == "mudwiz:node:n2" and update["drawn"]["width"] == 60 and update["name"] == "Tim"
    hear(part, {"op": "drawn", "to": "tim", "text": "drawn at 60", "live": False})
    assert len(redis.ops("update")) == 1  # said once
