"""The talk across the nodes of a cluster (mudwiz/cluster/talk.py): channel lines reach their members on every
node (not those who ignore the speaker), channel membership is listed across nodes, joining on one node shows the
lines said on another, shouts reach everyone and away marks are seen by a teller elsewhere and in /who. First one
node's relay, fed what the bus says; then real processes on a real Redis and PostgreSQL."""

from __future__ import annotations

from pathlib import Path

from pgserver import Databases
from test_cluster_presence import Person, cluster, hear, lone_node, row, who
from wire import JsonClient, eventually


def test_a_node_hears_the_others_channels_shouts_and_away_marks() -> None:
    lobby, bus, published, _ = lone_node()
    lobby.directory.talk_relay.running = True  # type: ignore[attr-defined]
    cy, dee = Person("cy"), Person("dee")
    lobby.login(cy, "cy")
    lobby.login(dee, "dee")
    lobby.talk.join(cy, "wizard")
    assert published.ops("talk")[-1][1] == {"op": "talk", "from": "n2", "what": "join", "channel": "wizard",
                                            "name": "cy"}
    hear(bus, "user_on", "n1", row=row("Bob"))
    hear(bus, "talk", "n1", what="join", channel="wizard", name="Bob")
    assert lobby.talk.channels.members("wizard") == ("Bob", "cy")
    hear(bus, "talk", "n1", what="said", channel="wizard",
         line={"at": 5.0, "from": "Bob", "text": "hi all", "emote": False})
    assert cy.of_type("chat")[-1] == {"type": "chat", "from": "Bob", "channel": "#wizard", "text": "hi all"}
    assert not dee.of_type("chat")  # not on the channel
    lobby.talk.join(dee, "wizard")
    assert [line.text for line in lobby.talk.channels.recent_lines("wizard")] == ["hi all"]

    hear(bus, "talk", "n1", what="shout", message={"type": "chat", "from": "Bob", "channel": "shout", "text": "yo"})
    assert cy.of_type("chat")[-1]["text"] == "yo" and dee.of_type("chat")[-1]["text"] == "yo"
    hear(bus, "talk", "n1", what="away", name="Bob", text="lunch")
    assert lobby.talk.away_reply("bob") == "Bob is away: lunch"
    hear(bus, "talk", "n1", what="mute", channel="wizard", name="Bob", muted=True)
    assert lobby.talk.channels.is_muted("wizard", "bob")

    hear(bus, "talk", "n3", what="snapshot", channels={"wizard": ["Eve"], "help": ["Eve"]}, away={"Eve": ""})
    assert lobby.talk.channels.members("wizard") == ("Bob", "cy", "dee", "Eve")
    assert lobby.talk.away_text("eve") == ""
    lobby.directory.talk_relay.node_gone("n1")  # type: ignore[attr-defined]
    assert lobby.talk.channels.members("wizard") == ("cy", "dee", "Eve") and lobby.talk.away_text("bob") is None
    hear(bus, "talk", "n3", what="logout", name="Eve")
    assert lobby.talk.channels.members("help") == ()

    lobby.directory.talk_relay.send_snapshot("n4")  # type: ignore[attr-defined]
    assert published.ops("talk")[-1] == ("mudwiz:node:n4", {
        "op": "talk", "from": "n2", "what": "snapshot", "channels": {"wizard": ["cy", "dee"]}, "away": {}})


def chat_on(client: JsonClient, channel: str) -> list[tuple[str, str]]:
    client.read(0.3)
    return [(m["from"], m["text"]) for m in client.messages if m["type"] == "chat" and m["channel"] == channel]


def members(client: JsonClient, channel: str) -> list[str]:
    assert client.request("/channel")["type"] == "ok"
    listed = {c["name"]: c["members"] for c in client.of_type("channels")[-1]["channels"]}
    return listed.get(channel, [])


def test_channels_shouts_and_away_marks_across_two_nodes(
        tmp_path: Path, redis_url: str, postgres: Databases | str) -> None:
    with cluster(tmp_path, redis_url, postgres, 2) as (n1, n2):
        ann, dee = JsonClient(n1.address, "ann"), JsonClient(n1.address, "dee")
        bob, cy, eve = JsonClient(n2.address, "Bob"), JsonClient(n2.address, "cy"), JsonClient(n2.address, "eve")
        for client in (ann, bob, dee, eve):
            assert client.request("/channel join wizard")["type"] == "ok"
        assert eve.request("/ignore ann")["type"] == "ok"
        assert dee.request("/ignore bob")["type"] == "ok"
        eventually(lambda: members(cy, "wizard") == ["ann", "Bob", "dee", "eve"], what="n2 lists n1's members")
        eventually(lambda: members(ann, "wizard") == ["ann", "Bob", "dee", "eve"], what="n1 lists n2's members")

        assert ann.request("/ch wizard hello from n1")["type"] == "ok"
        assert bob.request("/ch wizard /me waves from n2")["type"] == "ok"
        eventually(lambda: ("ann", "hello from n1") in chat_on(bob, "#wizard"), what="n1's line on n2")
        eventually(lambda: ("Bob", "waves from n2") in chat_on(ann, "#wizard"), what="n2's emote on n1")
        emote = [m for m in ann.messages if m["type"] == "chat" and m["channel"] == "#wizard"][-1]
        assert emote.get("emote") is True
        eventually(lambda: ("Bob", "waves from n2") in chat_on(eve, "#wizard"), what="eve hears Bob")
        eventually(lambda: ("ann", "hello from n1") in chat_on(dee, "#wizard"), what="dee hears ann")
        assert ("ann", "hello from n1") not in chat_on(eve, "#wizard")  # eve ignores ann
        assert ("Bob", "waves from n2") not in chat_on(dee, "#wizard")  # dee ignores Bob
        assert chat_on(cy, "#wizard") == []  # not a member

        assert cy.request("/channel join wizard")["type"] == "ok"  # the lines said on both nodes, on n2
        recent = cy.wait_for(lambda m: m["type"] == "recent", since=cy.mark)
        assert [(r["from"], r["text"]) for r in recent["lines"]] == [("ann", "hello from n1"),
                                                                     ("Bob", "waves from n2")]

        assert cy.request("/shout hello everyone")["type"] == "ok"
        for client in (ann, dee, bob):
            eventually(lambda c=client: ("cy", "hello everyone") in chat_on(c, "shout"), what="the shout")

        assert bob.request("/away back soon")["type"] == "ok"
        eventually(lambda: ann.request("/tell bob ping").get("text") == "Bob is away: back soon",
                   what="the away mark told on n1")
        rows = {r["name"]: r for r in who(ann)["users"]}
        assert rows["Bob"]["away"] == "back soon" and "away" not in rows["cy"]

        bob.close()  # logged out: off the channel everywhere
        eventually(lambda: "Bob" not in members(ann, "wizard"), what="Bob's logout on n1")
        for client in (ann, cy, dee, eve):
            client.close()
